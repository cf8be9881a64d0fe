"""A finished game's result per seat — what ``/projectl stats`` aggregates (pure: no SQL, no
Discord). The manager records these rows in the transaction that finishes a game; the stats
command computes them once for games finished before that was done."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import engine
from bot.core.storage.stats import ResultRow
from bot.core.wording.locales import unescaped
from engine import GameState


class _Seat(Protocol):
    """What a result needs of a seat (read-only, so frozen seats such as ``games.Seat`` fit)."""

    @property
    def seat(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def name(self) -> str: ...


def seat_results(seats: Sequence[_Seat], state: GameState) -> tuple[ResultRow, ...]:
    """Score, win and departure of every seat of a finished ``state``. A player who left counts
    as having played, with no score and no win."""
    won = set(engine.winners(state))
    totals = {line.seat: line.total for line in engine.score_lines(state)}
    rows = []
    for seat in seats:
        left = state.players[seat.seat].removed
        name = str(unescaped(seat.name))  # stored as the player wrote it
        rows.append(ResultRow(seat.seat, seat.user_id, name, None if left else totals[seat.seat],
                              not left and seat.seat in won, left))
    return tuple(rows)
