"""How near the end a game is, as the greedy player estimates it from public information.

Greedy stops opening puzzles it cannot finish and fades the value of piece rewards as the end
nears; both read these two estimates.
"""

from __future__ import annotations

from ..catalogue import MODES
from ..expansions.base import solo_deck
from ..expansions.finesse import view
from ..state import ACTIONS_PER_TURN, ROW_SIZE, SOLO_GRID, GameState, SoloTable
from .credits import turns_after_this

__all__ = ["my_actions_left", "progress"]

SOLO_DECK_AFTER_DEAL = sum(MODES["solo"]) - SOLO_GRID


def progress(state: GameState) -> float:
    """How far the game is toward its end trigger, 0 at the start to 1 when the deck is empty."""
    table = state.table
    if isinstance(table, SoloTable):
        deck = solo_deck(state.options)
        remaining = len(table.deck)
        start = SOLO_DECK_AFTER_DEAL if deck is None else sum(deck) - SOLO_GRID
    else:
        remaining = len(table.black_deck)
        start = max(1, MODES.get(f"{state.options.players}p", (0, 12))[1] - ROW_SIZE)
    progress = 1.0 - remaining / max(1, start)
    finesse = view(state)
    if finesse is not None:
        # Finesse: play also ends when the tenth tile leaves, whichever comes first.
        progress = max(progress, finesse.removed / (finesse.removed + max(1, len(finesse.row))))
    return max(0.0, min(1.0, progress))


def my_actions_left(state: GameState) -> int | None:
    """Actions the current player still has before the game ends (None: the end is not in sight):
    the base end once triggered, or with Finesse the round the last tile leaves
    (:func:`~engine.policies.credits.turns_after_this`)."""
    turns = turns_after_this(state, state.current)
    if turns is None:
        return None
    return state.actions_left + ACTIONS_PER_TURN * turns
