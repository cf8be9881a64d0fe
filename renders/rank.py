"""Final ranking in words: who won, and why when points were tied.

The order itself comes from the engine (``rank_by_tiebreaks``: points, then an expansion's own
tie-break — Finesse: most credits — then completed puzzles, then pieces left in supply) so the
picture can never disagree with the bot's announcement; this module only explains it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import ScoreLine, opponent_score, score_lines, winners
from engine.expansions.base import tiebreak
from engine.expansions.finesse import view as finesse_view
from engine.rules import score_line
from engine.state import GameState, Phase, SoloTable
from engine.variants.base import rank_by_tiebreaks

from . import labels
from .labels import join_names


def is_solo(state: GameState) -> bool:
    return isinstance(state.table, SoloTable)


def shown_points(state: GameState, seat: int) -> int:
    """The score a panel or mat shows for ``seat``: the points of completed puzzles while the game
    runs, and the final total once it is over — the very number the results image ranks by.
    Both come from the engine's one scoring function (``score_line``)."""
    line = score_line(state, seat)
    return line.total if state.phase is Phase.OVER else line.completed_points


def winners_text(state: GameState, names: Sequence[str]) -> str:
    """'Ana wins', 'Ana and Bo share the win', or the Solo outcome."""
    seats = winners(state)
    if is_solo(state):
        return labels.winners_solo(names[0], seats == (0,))
    return labels.winners_line([names[s] for s in seats])


def places(state: GameState) -> list[tuple[int, tuple[ScoreLine, ...]]]:
    """(place number, lines sharing it), best first."""
    lines = score_lines(state)
    by_seat = {line.seat: line for line in lines}
    result = []
    place = 1
    for group in rank_by_tiebreaks(lines, lambda seat: tiebreak(state, seat)):
        result.append((place, tuple(by_seat[s] for s in group)))
        place += len(group)
    return result


def final_credits(state: GameState, seat: int) -> int | None:
    """Finesse: ``seat``'s credits (active and inactive), which break ties on points first; None
    without Finesse."""
    fv = finesse_view(state)
    return None if fv is None else fv.credits(seat)


def tiebreak_notes(state: GameState, names: Sequence[str]) -> list[str]:
    """One sentence per tie on points, naming the tie-break that decided it (or that it stands):
    'Tie on 16 — Alice wins on puzzles completed (5 vs 4).'"""
    notes: list[str] = []
    ranked = places(state)
    for i, (place, group) in enumerate(ranked):
        total = group[0].total
        who = join_names([names[line.seat] for line in group])
        if len(group) > 1:
            line = group[0]
            notes.append(labels.tie_shared(who, total, line.completed_count, line.supply_left, place,
                                           final_credits(state, line.seat)))
        if i + 1 < len(ranked) and ranked[i + 1][1][0].total == total:
            ahead, behind = group[0], ranked[i + 1][1][0]
            credits_ahead = final_credits(state, ahead.seat)
            credits_behind = final_credits(state, behind.seat)
            if credits_ahead is not None and credits_behind is not None and credits_ahead != credits_behind:
                criterion = labels.TIEBREAK_CREDITS
                counts = (credits_ahead, credits_behind)
            elif ahead.completed_count != behind.completed_count:
                criterion = labels.TIEBREAK_PUZZLES
                counts = (ahead.completed_count, behind.completed_count)
            else:
                criterion = labels.TIEBREAK_PIECES
                counts = (ahead.supply_left, behind.supply_left)
            wins = place == 1 and len(group) == 1
            notes.append(labels.tie_broken(total, who, len(group) > 1, wins, criterion, *counts))
    return notes


def mastermind_points(state: GameState) -> int:
    return opponent_score(state) or 0
