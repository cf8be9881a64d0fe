"""Turn errors discord.py *logs* into test failures.

discord.py deliberately never lets handler exceptions escape: app-command
errors go to ``CommandTree.on_error``, view/modal errors to ``on_error``,
event errors to ``Client.on_error`` — all of which just log at ERROR on the
``discord.*`` loggers. Unhandled task exceptions only reach the loop's
exception handler. Without a trap, a crashing command would leave a test
green (or failing with a confusing "no response" assertion). This module
captures all three channels.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import TrappedError, TrappedErrors


def _format(exc: BaseException | None) -> str:
    if exc is None:
        return ""
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


class _TrapHandler(logging.Handler):
    def __init__(self, trap: ErrorTrap) -> None:
        super().__init__(level=logging.ERROR)
        self.trap = trap

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        tb = _format(exc) if exc is not None else (record.exc_text or "")
        self.trap.add(TrappedError(f"log:{record.name}", record.getMessage(), tb, exc))


class ErrorTrap:
    """Collects ERROR logs, loop exception-handler reports and failed tasks."""

    def __init__(self, loggers: Iterable[str] = ("discord",)) -> None:
        self.logger_names = tuple(loggers)
        self.errors: list[TrappedError] = []
        self._handler = _TrapHandler(self)
        self._old_levels: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._old_exception_handler: Callable[..., Any] | None = None
        self._ignores: list[Callable[[TrappedError], bool]] = []
        self._expecting = 0

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for name in self.logger_names:
            logger = logging.getLogger(name)
            logger.addHandler(self._handler)
            if logger.getEffectiveLevel() > logging.ERROR:
                self._old_levels[name] = logger.level
                logger.setLevel(logging.ERROR)
        self._loop = loop
        self._old_exception_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_handler)

    def uninstall(self) -> None:
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self._handler)
        for name, level in self._old_levels.items():
            logging.getLogger(name).setLevel(level)
        self._old_levels.clear()
        if self._loop is not None:
            self._loop.set_exception_handler(self._old_exception_handler)
            self._loop = None

    def _loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        self.add(TrappedError("asyncio", str(context.get("message", "")), _format(exc), exc))

    def add(self, error: TrappedError) -> None:
        if not any(ignore(error) for ignore in self._ignores):
            self.errors.append(error)

    def check_task(self, task: asyncio.Task[Any]) -> None:
        """Record ``task``'s exception if nobody ever retrieved it."""
        if not task.done() or task.cancelled():
            return
        # ``_log_traceback`` is asyncio's own "exception never retrieved" flag.
        if getattr(task, "_log_traceback", False):
            exc = task.exception()
            self.add(TrappedError(f"task:{task.get_name()}", repr(exc), _format(exc), exc))

    def ignore(self, predicate: Callable[[TrappedError], bool]) -> None:
        """Permanently drop matching errors (e.g. a known-noisy library log)."""
        self._ignores.append(predicate)

    def take(self) -> list[TrappedError]:
        errors, self.errors = self.errors, []
        return errors

    def raise_if_any(self) -> None:
        if self.errors and not self._expecting:
            raise TrappedErrors(self.take())

    @contextlib.contextmanager
    def expect(self) -> Iterator[list[TrappedError]]:
        """Collect errors raised inside the block instead of failing on them."""
        before = len(self.errors)
        caught: list[TrappedError] = []
        self._expecting += 1
        try:
            yield caught
        finally:
            self._expecting -= 1
            caught.extend(self.errors[before:])
            del self.errors[before:]
