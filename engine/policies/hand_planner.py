"""The hand planner: one turn planned by a bounded enumeration, scored by a hand-written formula.

What it plays like: a careful player with no look-ahead past its own turn. It re-deals the cards
it cannot see once (:func:`~engine.policies.hidden.redeal`, seeded from its seed and the public
position, so it never reads a hidden card), enumerates this turn's action sequences through the
shared pruning (:func:`~engine.policies.candidates.step_candidates`: every take and draw,
level-1, the useful upgrades, the best placements per puzzle, Master), keeping the
:data:`WIDTH` best partial turns at each step, and plays the turn whose end position scores
best by :func:`hand_value`, or greedy's move when no turn gains :data:`GAIN`. Nothing in it was
fitted: the formula is a player's rule of thumb, and it models no opponent. Pending decisions,
Finishing Touches and very long games (:data:`LONG_GAME`) are greedy's. Measured against greedy,
20 two-player games (seeds 4,500,000+, seats alternating): 1 won, mean margin −6: a weak but
different player.

Built differently from the Expert's search (no reply round, no fitted evaluation, one world), so
the league can tell a general gain from a habit learnt against its own kind (issue 50).
"""

from __future__ import annotations

from ..actions import Action
from ..decisions import waiting_for
from ..pieces import BASE_SHAPES
from ..rules import score_line
from ..state import GameState, Phase
from .greedy import GreedyPolicy
from .kept_turn import KeptTurn
from .outlook import my_actions_left, progress
from .turn_beam import best_turn, seen_world

__all__ = ["HandPlannerPolicy", "hand_value"]

WIDTH = 8
"""Partial turns kept per step."""
MAX_STEPS = 5
"""Actions a planned turn may hold (three, plus Master's and pending decisions' extra steps)."""

COMPLETED = 1.0
"""Points a completed puzzle is worth beside its own."""
GAIN = 0.5
"""The least gain by the formula a planned turn must show; below it the planner plays greedy's move
(a formula blind past its own turn would otherwise shuffle rows forever)."""
LONG_GAME = 30
"""Rounds after which it plays greedy's moves: with the Endless White Deck a formula that never
likes a black puzzle would otherwise never end the game (greedy takes them)."""
OPEN_AT_EASE = 2
"""Open puzzles a player handles at ease: each one more costs 1.5 points (spreading pieces thin)."""


def hand_value(state: GameState, seat: int) -> float:
    """``seat``'s position by rule of thumb, in points: banked points, and :data:`COMPLETED` a puzzle
    completed (its pieces come back, a 0-point white is worth finishing); each open puzzle at its points
    times (three tenths plus seven tenths of its share filled), plus 0.15 a level of its reward,
    less a tenth a square still free, and
    less its points as a risk once the end is near and it is far from done; 0.4 a level of the
    pieces held (ten levels at most: a big supply is worth little) and 0.05 a piece. Piece levels
    fade as the deck runs down."""
    line = score_line(state, seat)
    if state.phase is Phase.OVER:
        return float(line.total)
    player = state.players[seat]
    fade = 1.0 - progress(state)
    left = my_actions_left(state)
    value = float(line.completed_points - line.finishing_penalty) + COMPLETED * line.completed_count
    for puzzle in player.puzzles:
        card = state.cards[puzzle.card]
        cells = card.recess.bit_count()
        free = (card.recess & ~puzzle.filled).bit_count()
        value += card.points * (0.3 + 0.7 * (1.0 - free / cells)) - 0.1 * free
        value += 0.15 * int(getattr(card.reward, "level", 1)) * fade
        if left is not None and free > left:
            value -= card.points
    value -= 1.5 * max(0, len(player.puzzles) - OPEN_AT_EASE)
    levels = sum(s.level * player.supply[s.index] for s in BASE_SHAPES)
    value += 0.25 * min(levels, 10) * fade + 0.05 * player.supply_size
    return value


class HandPlannerPolicy:
    """Plans each turn by a bounded enumeration and :func:`hand_value` (see the module)."""

    name = "hand_planner"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._greedy = GreedyPolicy(seed)
        self._kept = KeptTurn()

    def choose(self, state: GameState) -> Action:
        kept = self._kept.next(state)
        if kept is not None:
            return kept
        if (waiting_for(state) is not None or state.phase is not Phase.PLAY or state.current in state.held
                or state.round > LONG_GAME):
            return self._greedy.choose(state)
        best = self._search(state)
        if not best:  # nothing gains by the formula: greedy's move keeps the game moving
            return self._greedy.choose(state)
        return self._kept.start(state, best)

    def _search(self, state: GameState) -> tuple[Action, ...]:
        """The best turn on one re-deal, by a beam over the pruned actions (see the module)."""
        seat = state.current
        world = seen_world(state, self.seed)
        best = best_turn(world, self._greedy, lambda node, action, after: hand_value(after, seat),
                         fanout=2, width=WIDTH, max_steps=MAX_STEPS)
        if best is None or best[0] < hand_value(world, seat) + GAIN:
            return ()
        return best[1]
