"""Refusals the bot shows to a player.

Every :class:`BotError` carries a sentence for the player (from :mod:`bot.core.wording.texts`); cogs send it
as an ephemeral message and change nothing. Anything that is *not* a BotError is a bug: the global
error handler logs it and shows a generic apology instead of a stack trace.
"""

from __future__ import annotations


class BotError(Exception):
    """A refusal with a player-readable message. Nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoGameError(BotError):
    """There is no open game in this channel (or the referenced game is over)."""


class ChannelBusyError(BotError):
    """The channel already has a game in the lobby or in play."""


class NotInGameError(BotError):
    """The user has no seat in this game."""


class NotYourTurnError(BotError):
    """Someone other than the current player tried to act."""


class GameFullError(BotError):
    """The lobby has no free seat."""


class AlreadySeatedError(BotError):
    """The user already has a seat in this game."""


class NotHostError(BotError):
    """Only the host (or a channel manager) may do that."""


class WrongStageError(BotError):
    """The game is not in the stage this needs (e.g. joining a game that already started)."""


class StaleError(BotError):
    """A button or draft refers to an earlier moment of the game (or to another game)."""


class OutOfDateError(StaleError):
    """What an offer to one seat relied on changed since it was shown (``bot.core.play.seat_view``).

    Carries the game as it stands now (``game``, loaded for the check: the refusal offers the
    fresh panel from it without reading the game again), the ``seat`` and the ``changed`` parts."""

    def __init__(self, message: str, *, game: object, seat: int, changed: tuple[str, ...]) -> None:
        super().__init__(message)
        self.game = game
        self.seat = seat
        self.changed = changed


class InvalidActionError(BotError):
    """The engine refused the action; the message is the engine's explanation."""


class BadInputError(BotError):
    """The input could not be understood (unknown piece, bad cells, bad option)."""


class UnreadableGameError(BotError):
    """The game's stored row cannot be read (corrupt state): that one game refuses, others play."""
