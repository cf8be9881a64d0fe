"""Final ranking in words: who won, and why when points were tied.

The order itself comes from the engine (``rank_by_tiebreaks``: points, then completed puzzles,
then pieces left in supply) so the picture can never disagree with the bot's announcement; this
module only explains it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import ScoreLine, opponent_score, score_lines, winners
from engine.state import GameState, SoloTable
from engine.variants.base import rank_by_tiebreaks


def is_solo(state: GameState) -> bool:
    return isinstance(state.table, SoloTable)


def join_names(names: Sequence[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def winners_text(state: GameState, names: Sequence[str]) -> str:
    """'Ana wins', 'Ana and Bo share the win', or the Solo outcome."""
    seats = winners(state)
    if is_solo(state):
        return f"{names[0]} beats the mastermind" if seats == (0,) else "the mastermind wins"
    who = [names[s] for s in seats]
    return f"{who[0]} wins" if len(who) == 1 else f"{join_names(who)} share the win"


def places(state: GameState) -> list[tuple[int, tuple[ScoreLine, ...]]]:
    """(place number, lines sharing it), best first."""
    lines = score_lines(state)
    by_seat = {line.seat: line for line in lines}
    result = []
    place = 1
    for group in rank_by_tiebreaks(lines):
        result.append((place, tuple(by_seat[s] for s in group)))
        place += len(group)
    return result


def tiebreak_notes(state: GameState, names: Sequence[str]) -> list[str]:
    """One sentence per tie on points, saying how it was broken (or that it stands)."""
    notes: list[str] = []
    ranked = places(state)
    for i, (place, group) in enumerate(ranked):
        total = group[0].total
        if len(group) > 1:
            who = join_names([names[line.seat] for line in group])
            what = "the win" if place == 1 else f"{ordinal(place)} place"
            notes.append(
                f"{who} tie on {total} points, {group[0].completed_count} puzzles and "
                f"{group[0].supply_left} pieces left: they share {what}."
            )
        if i + 1 < len(ranked) and ranked[i + 1][1][0].total == total:
            ahead, behind = group[0], ranked[i + 1][1][0]
            verb = "wins" if place == 1 and len(group) == 1 else "ranks ahead"
            subject = names[ahead.seat] if len(group) == 1 else join_names([names[g.seat] for g in group])
            if len(group) > 1:
                verb = "rank ahead"
            if ahead.completed_count != behind.completed_count:
                why = f"more completed puzzles ({ahead.completed_count} vs {behind.completed_count})"
            else:
                why = f"more pieces left ({ahead.supply_left} vs {behind.supply_left})"
            notes.append(f"Tied on {total} points: {subject} {verb} on {why}.")
    return notes


def mastermind_points(state: GameState) -> int:
    return opponent_score(state) or 0
