"""Storage faults a player can act on, told as what they are (no Discord, no SQL).

"Something went wrong" helps nobody when the disk is full, another program holds the SQLite
file past its busy timeout, or the PostgreSQL server is down: the player can tell the server
admin, and the admin can fix it. :func:`storage_fault` names the fault behind an exception (or
None for anything else, which stays a bug), and :class:`FaultLog` logs each kind once per
interval however many requests hit it, so a full disk is one line in the log, not thousands.
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from enum import Enum

log = logging.getLogger(__name__)


class Fault(Enum):
    """What is wrong with the bot's storage, as a player can report it."""

    FULL = "full"
    LOCKED = "locked"
    UNREACHABLE = "unreachable"


_PG_STATES = {"53100": Fault.FULL, "53300": Fault.UNREACHABLE, "55P03": Fault.LOCKED,
              "57P01": Fault.UNREACHABLE, "57P02": Fault.UNREACHABLE, "57P03": Fault.UNREACHABLE}
"""PostgreSQL error codes (SQLSTATE) by fault: disk full, too many connections, lock not
available, and the server shutting down or starting up; class 08 (connection) is unreachable."""
_PG_CLOSED = ("connection is closed", "connection was closed", "not currently accepting connections",
              "cannot perform operation: another operation is in progress")


def storage_fault(error: BaseException) -> Fault | None:
    """The storage fault behind ``error`` (itself, or what caused it), if it is one."""
    for cause in _chain(error):
        fault = _sqlite_fault(cause) or _postgres_fault(cause)
        if fault is not None:
            return fault
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
            return Fault.FULL
    return None


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _sqlite_fault(error: BaseException) -> Fault | None:
    if not isinstance(error, sqlite3.DatabaseError):
        return None
    code = getattr(error, "sqlite_errorcode", None)
    text = str(error).lower()
    if code == sqlite3.SQLITE_FULL or "database or disk is full" in text:
        return Fault.FULL
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "database is locked" in text:
        return Fault.LOCKED
    return None


def _postgres_fault(error: BaseException) -> Fault | None:
    if not type(error).__module__.startswith("asyncpg"):
        return None
    state = str(getattr(error, "sqlstate", "") or "")
    if state in _PG_STATES:
        return _PG_STATES[state]
    if state.startswith("08") or any(text in str(error).lower() for text in _PG_CLOSED):
        return Fault.UNREACHABLE
    return None


class FaultLog:
    """Logs a storage fault once per ``every`` seconds per kind (with how many requests it hit
    since the last line), however many requests hit it."""

    def __init__(self, every: float = 300.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self._clock = clock
        self._logged: dict[Fault, float] = {}
        self._since: dict[Fault, int] = {}

    def note(self, fault: Fault, error: BaseException) -> None:
        now = self._clock()
        last = self._logged.get(fault)
        if last is not None and now - last < self.every:
            self._since[fault] = self._since.get(fault, 0) + 1
            return
        more = self._since.pop(fault, 0)
        self._logged[fault] = now
        log.error("storage fault (%s): %s%s", fault.value, error,
                  f" ({more} more request(s) hit it since the last report)" if more else "",
                  exc_info=error)
