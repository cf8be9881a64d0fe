"""Solo: what the mastermind loses when the player takes a card first.

Greedy adds it to a take's value (``denial_weight``). The mastermind's model is the engine's own
pick (:func:`~engine.variants.solo.mastermind_picks`), so the estimate never drifts from the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..expansions.base import mastermind_takes
from ..state import GameState, SoloTable
from ..variants.solo import column_of, mastermind_picks

__all__ = ["mastermind_denial", "mastermind_denial_by_take", "mastermind_points"]


def mastermind_denial(state: GameState) -> dict[int, int]:
    """Solo: {grid position: points the mastermind loses if the player takes that card first}.

    The mastermind takes the most valuable card of an unlocked column (lowest position on a tie),
    and with Finesse a second, the least valuable left in that column; taking one of its picks
    first leaves it the next best. Locks are read as they stand (a take that frees a column is
    not simulated: close enough for a tie-breaking bonus).
    """
    table = state.table
    assert isinstance(table, SoloTable)
    points = [None if c is None else state.cards[c].points for c in table.grid]
    takes = mastermind_takes(state.options)
    now = mastermind_points(points, table.locks, takes)
    result = {}
    for position in mastermind_picks(points, table.locks, takes):
        rest = list(points)
        rest[position - 1] = None
        result[position] = now - mastermind_points(rest, table.locks, takes)
    return result


def mastermind_points(points: Sequence[int | None], locks: Sequence[int], takes: int = 1) -> int:
    """Points the mastermind would take in one turn from a grid of ``points`` (None: empty):
    ``takes`` is 2 in Finesse Solo (:func:`~engine.variants.solo.mastermind_picks`, the
    engine's own choice); 0 when it takes nothing (every column holding a card is locked)."""
    return sum(points[p - 1] or 0 for p in mastermind_picks(points, locks, takes))


_EXPECTED_POINTS = {"white": 1, "black": 4}


def mastermind_denial_by_take(state: GameState) -> dict[int, int]:
    """Solo: {grid position: points the mastermind's next pick loses if the player takes that
    card}, negative when the take unlocks a column holding a better card. The take's lock move
    and the refill are simulated; the refill counts as a typical card of the deck top's colour
    (public: the deck is white on top of black, and the white cards seen are counted)."""
    table = state.table
    assert isinstance(table, SoloTable)
    cards = state.cards
    points = [None if c is None else cards[c].points for c in table.grid]
    takes = mastermind_takes(state.options)
    now = mastermind_points(points, table.locks, takes)
    if table.deck:
        refill: int | None = _EXPECTED_POINTS[cards[table.deck[0]].colour.value]
    else:
        refill = None
    result = {}
    for i, p in enumerate(points):
        if p is None:
            continue
        after = list(points)
        after[i] = refill
        locks = list(table.locks)
        column = column_of(i + 1) - 1
        locks[column] = max(0, locks[column] - 1)
        result[i + 1] = now - mastermind_points(after, locks, takes)
    return result
