"""The turn clock's pure rules and sentences: who may vote on a seat's turn, how many votes
decide, and how the clock reads in the lobby, the start post, ``/projectl status`` and DMs.

Free of storage and Discord so the reminder scheduler, the turn clock service and the cogs share
one definition (and no import cycle). Everything is per *seat*, never "the current player":
with Line Clear two seats can be to move at once, each with its own clock and vote.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import Enum

from bot.core.errors import BadInputError
from bot.core.games import Game, Seat
from bot.core.wording import texts
from bot.core.wording.locales import Joined


class ClockState(Enum):
    """Where a seat's turn stands against its deadline."""

    RUNNING = "running"
    EXPIRED = "expired"
    """Ran out and the player has not acted since: the others may vote."""
    BACK = "back"
    """Ran out, but the player acted after the deadline: they keep their seat, no vote."""


def voters_for(game: Game, seat: int) -> list[Seat]:
    """Who may vote on ``seat``'s turn: the other human players still in the game."""
    assert game.state is not None
    return [
        s for s in game.seats
        if not s.is_ai and s.seat != seat and not game.state.players[s.seat].removed
    ]


def majority(voters: int) -> int:
    """A strict majority: 1 of 1, 2 of 2, 2 of 3, 3 of 4."""
    return voters // 2 + 1


LIMIT_DAYS = range(1, 8)
"""A turn clock is 1 to 7 whole days per turn."""


def limit_hours(days: int | None) -> int | None:
    """The stored turn clock for ``days`` (None: no clock); refuses anything outside 1–7, which
    Discord's range enforces only for an up-to-date client."""
    if days is None:
        return None
    if days not in LIMIT_DAYS:
        raise BadInputError(texts.TURN_LIMIT_BAD)
    return days * 24


def limit_text(limit: timedelta) -> str:
    """``1 day`` / ``3 days`` (limits are whole days, 1–7)."""
    days = max(1, round(limit / timedelta(days=1)))
    return texts.TURN_CLOCK_ONE_DAY if days == 1 else texts.TURN_CLOCK_DAYS.format(days=days)


def clock_line(limit: timedelta | None) -> str:
    """``Turn clock: 1 day per turn``, or that the table has none."""
    if limit is None:
        return texts.TURN_CLOCK_NONE
    return texts.TURN_CLOCK.format(limit=limit_text(limit))


def clock_state(deadline: datetime, now: datetime, last_acted: datetime | None) -> ClockState:
    if now < deadline:
        return ClockState.RUNNING
    if last_acted is not None and last_acted >= deadline:
        return ClockState.BACK
    return ClockState.EXPIRED


def reminder_clock_line(deadline: datetime, now: datetime, last_acted: datetime | None) -> str:
    """The line a reminder DM ends with: the time left, or that it ran out and the table may vote.

    The caller adds it only when someone could vote (otherwise the clock decides nothing)."""
    stamp = int(deadline.timestamp())
    state = clock_state(deadline, now, last_acted)
    if state is ClockState.RUNNING:
        return texts.REMINDER_DEADLINE.format(deadline=stamp)
    if state is ClockState.EXPIRED:
        return texts.REMINDER_TIMED_OUT.format(deadline=stamp)
    return texts.REMINDER_TIMED_OUT_BACK.format(deadline=stamp)


def status_clock_line(
    limit: timedelta, seat: Seat, deadline: datetime | None, now: datetime, last_acted: datetime | None,
) -> str:
    """``/projectl status``: the table's clock and where ``seat``'s turn stands against it."""
    line = clock_line(limit)
    if deadline is None:
        return line
    stamp = int(deadline.timestamp())
    state = clock_state(deadline, now, last_acted)
    template = {
        ClockState.RUNNING: texts.STATUS_CLOCK_RUNNING,
        ClockState.EXPIRED: texts.STATUS_CLOCK_EXPIRED,
        ClockState.BACK: texts.STATUS_CLOCK_BACK,
    }[state]
    return Joined([line, template.format(name=seat.name, deadline=stamp)])
