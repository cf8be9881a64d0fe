"""What a planned turn does, in game terms: the one-line "why" beside a hint (issue 29).

A search ranks turns by numbers (a mean margin over re-deals) that a player cannot check. The
gist says what the same turn does on the board: the points it scores now, the puzzle it builds
towards and the pieces it keeps back to finish it, the pieces it gains. It is read by playing the
plan on the position the hint planned from, so it can only name what the asker may know: the
plan stops where it would draw blind (the hint's plan already ends there), and a card taken from
a deck is not named.

>>> from engine import Options, new_game
>>> from engine.policies import GreedyPolicy
>>> state = new_game(Options(players=2), seed=3)
>>> plan_gist(state, (GreedyPolicy(3).choose(state),)).points
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action
from ..errors import IllegalActionError
from ..events import PieceGained, PiecePlaced, PuzzleCompleted, PuzzleTaken
from ..game import apply
from ..pieces import Shape, shape_of_mask
from ..state import GameState
from .fillings import finish_cost

__all__ = ["PlanGist", "plan_gist"]


@dataclass(frozen=True, slots=True)
class PlanGist:
    """A plan's effect for the player it is planned for."""

    points: int
    """Points of the puzzles the plan completes (rewards aside)."""
    completed: tuple[str, ...]
    """Those puzzles' card ids, in the order completed."""
    gained: tuple[Shape, ...]
    """Pieces the plan brings into the supply (level1 takes, upgrades, rewards), in order."""
    towards: str | None
    """The unfinished puzzle the plan works on: the one it places the most squares on, else the
    puzzle it takes from a face-up row; None when it does neither."""
    towards_points: int = 0
    towards_left: int = 0
    """Empty squares left on ``towards`` after the plan."""
    saves: tuple[Shape, ...] = ()
    """The pieces the plan keeps back that finish ``towards`` (a fewest-pieces filling of its empty
    squares from the supply the plan leaves, biggest first): what the player should not spend
    elsewhere. Empty when the supply cannot finish it yet."""

    @property
    def says_anything(self) -> bool:
        return bool(self.completed or self.gained or self.towards)


def plan_gist(state: GameState, plan: Sequence[Action]) -> PlanGist:
    """The gist of playing ``plan`` from ``state`` for ``state.current``: stops before an action
    the position no longer allows and after one that reveals a hidden card."""
    seat = state.current
    points = 0
    completed: list[str] = []
    gained: list[Shape] = []
    placed: Counter[str] = Counter()
    taken: list[str] = []
    for action in plan:
        try:
            outcome = apply(state, action)
        except IllegalActionError:
            break
        for event in outcome.events:
            if getattr(event, "seat", None) != seat:
                continue
            if isinstance(event, PuzzleCompleted):
                points += event.points
                completed.append(event.card)
            elif isinstance(event, PieceGained):
                gained.append(event.shape)
            elif isinstance(event, PiecePlaced):
                placed[event.card] += event.mask.bit_count()
            elif isinstance(event, PuzzleTaken) and event.source != "deck":
                taken.append(event.card)
        state = outcome.state
        if outcome.reveals_hidden:
            break
    open_now = {p.card: p for p in state.players[seat].puzzles}
    worked = sorted((c for c in placed if c in open_now), key=lambda c: -placed[c])
    towards = worked[0] if worked else next((c for c in taken if c in open_now), None)
    if towards is None:
        return PlanGist(points, tuple(completed), tuple(gained), None)
    card = state.card(towards)
    free = card.recess & ~open_now[towards].filled
    filling = finish_cost(free, state.players[seat].supply) if free else None
    shapes = (s for s in map(shape_of_mask, filling or ()) if s is not None)
    saves = tuple(sorted(shapes, key=lambda s: -s.level))
    return PlanGist(points, tuple(completed), tuple(gained), towards, card.points, free.bit_count(), saves)
