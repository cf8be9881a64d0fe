"""Exception types raised by the offline Discord harness.

They are split by *who* made the mistake, because a failing test must say so
clearly: the test author sent something Discord would never send
(:class:`HarnessUsageError` / :class:`SchemaError`), the bot did something the
harness cannot answer (:class:`UnsupportedRoute`), or the bot's handlers
raised and discord.py swallowed it into a log line (:class:`TrappedErrors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class HarnessError(Exception):
    """Base class for every error raised by the harness itself."""


class HarnessUsageError(HarnessError):
    """The *test* asked for something a real Discord client could not do.

    Examples: clicking a disabled button, clicking a message nobody sent,
    submitting a modal that was never shown to that user.
    """


class SchemaError(HarnessUsageError):
    """A slash/autocomplete payload does not match the synced command schema.

    Raised before anything reaches the bot, so a test can never exercise an
    input that Discord's client would have refused to send.
    """


class UnsupportedRoute(HarnessError):
    """The bot called a REST/webhook route the fake API does not implement.

    This is raised *inside the bot's call* (so the bot cannot mistake it for a
    Discord error) and is also recorded by the error trap so the test fails
    even if the bot swallows generic exceptions. Register a handler with
    ``DiscordHarness.api.add_route`` to support it.
    """


class SettleTimeout(HarnessError):
    """Tasks spawned by the bot did not finish within the settle timeout."""


@dataclass(frozen=True)
class TrappedError:
    """One error that discord.py (or asyncio) logged instead of raising."""

    source: str
    message: str
    traceback: str
    exception: BaseException | None = None

    @property
    def original(self) -> BaseException | None:
        """The bot's own exception, unwrapped from discord.py's wrappers.

        ``CommandInvokeError``/``HybridCommandError`` keep it in ``.original``.
        """
        exc = self.exception
        while exc is not None and isinstance(getattr(exc, "original", None), BaseException):
            exc = exc.original  # type: ignore[attr-defined]
        return exc

    def __str__(self) -> str:
        text = f"[{self.source}] {self.message}"
        if self.traceback:
            text += "\n" + self.traceback.rstrip()
        return text


class TrappedErrors(AssertionError):
    """The bot raised inside a handler; discord.py only logged it.

    An ``AssertionError`` subclass so pytest reports it as a plain test
    failure with every captured traceback in the message.
    """

    def __init__(self, errors: Sequence[TrappedError]) -> None:
        self.errors: list[TrappedError] = list(errors)
        body = "\n\n".join(str(e) for e in self.errors)
        super().__init__(f"{len(self.errors)} error(s) raised inside bot handlers:\n\n{body}")
