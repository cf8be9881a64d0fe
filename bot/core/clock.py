"""Where the bot gets "now" from.

Every timestamp the bot writes comes from a :class:`Clock` so tests (and the turn-clock feature
built later) can control time instead of sleeping.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Anything with ``now()`` returning a timezone-aware UTC datetime."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real wall clock, in UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to: for tests and simulations.

    >>> clock = ManualClock(datetime(2024, 1, 1, tzinfo=UTC))
    >>> clock.advance(minutes=5).isoformat()
    '2024-01-01T00:05:00+00:00'
    """

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime(2024, 1, 1, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware start time")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> datetime:
        """Move forward by ``timedelta(**delta)`` and return the new time."""
        self._now += timedelta(**delta)
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("times must be timezone-aware")
        self._now = when.astimezone(UTC)
