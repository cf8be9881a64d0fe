"""The turn planner: the league's strong outsider, one whole turn planned by enumeration and judged
by a hand-written reading of the position, with no look-ahead past its own turn and no rollouts.

What it plays like: a good player who plans the three actions (and Master) of their own turn
carefully and reads the table by rules of thumb. It re-deals the cards it cannot see once
(:func:`~engine.policies.hidden.redeal`, seeded from its seed and the public position, so it never
reads a hidden card), enumerates this turn's action sequences through the shared pruning
(:func:`~engine.policies.candidates.step_candidates`), keeps the :data:`WIDTH` best partial turns
at each step (positions reached twice by different orders count once), and plays the whole turn
whose end position :func:`position_value` likes best, less the best rival's. A plan stops at a
blind draw. Pending decisions and Finishing Touches are greedy's, and after :data:`LONG_GAME`
rounds it plays greedy's moves (so a variant with no end in its formula still ends).

Why it exists: issue 50's outside turn planner beat the Expert a third of the time while every
opponent in the league was far weaker; a held-out opponent as strong as that one shows whether an
Expert setting generalises. Its evaluation is built unlike the Expert's (:mod:`.expert`) on
purpose: puzzles are allotted the pieces in supply nearest-first and charged the upgrades a
missing piece costs from the spare pieces (not a flat cost a level), a puzzle's chance of being
finished is a logistic of the actions to spare (exact once the end is in sight), spare pieces
count with diminishing returns, and the rivals' positions are read by the same formula, so a turn
that shortens the game (a black card drawn from a low deck) is judged by what it costs each side.
Nothing in it was fitted to the Expert's games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from ..actions import Action, DrawPuzzle
from ..cards import Colour
from ..decisions import waiting_for
from ..errors import IllegalActionError
from ..game import apply
from ..pieces import SHAPES, Shape, shape_of_mask
from ..rules import score_line
from ..solver import solve
from ..state import ACTIONS_PER_TURN, GameState, Phase, RowsTable
from .credits import turns_after_this
from .fillings import finish_cost
from .greedy import GreedyPolicy
from .greedy_answers import finishing_touch
from .kept_turn import KeptTurn
from .outlook import progress
from .strong import position_key
from .turn_beam import best_turn, seen_world

__all__ = ["PLANNER_WEIGHTS", "PlannerWeights", "TurnPlannerPolicy", "position_value", "turn_value"]

WIDTH = 10
"""Partial turns kept per step of the enumeration."""
MAX_STEPS = 6
"""Actions a planned turn may hold (three, plus Master's and pending decisions' extra steps)."""
LONG_GAME = 30
"""Rounds after which it plays greedy's moves (see the module)."""



@dataclass(frozen=True, slots=True)
class PlannerWeights:
    """The formula's numbers (see :func:`position_value`): a player's rules of thumb."""

    action_points: float = 0.6
    """What one action is worth in points: a puzzle is charged this for each action it still needs."""
    place_with_master: float = 0.75
    """Actions one placement costs while two or more puzzles are open (Master places on each)."""
    spread: float = 1.6
    """Actions over which a puzzle's chance of being finished goes from likely to unlikely (the
    logistic's scale) while the end is not in sight."""
    spare_level: float = 0.45
    """Points a level of a spare piece (one no open puzzle needs) is worth while the end is far..."""
    spare_decay: float = 0.7
    """...each further spare piece counting this share of the one before (a big supply is slow)."""
    spare_horizon: float = 9.0
    """Actions left below which spare pieces and rewards fade to nothing."""
    rival: float = 1.0
    """Weight of the best rival's position against one's own."""


PLANNER_WEIGHTS = PlannerWeights()
"""The weights the turn planner plays with."""
TURNS_PER_BLACK = {1: 1.2, 2: 1.25, 3: 0.95, 4: 0.8, 5: 0.6, 6: 0.55}
"""Turns a seat plays per black card left in the deck, by players (the black deck is the clock)."""
DRAW_WORLDS = 6
"""Re-deals a blind draw is valued over (see :meth:`TurnPlannerPolicy._blind_value`)."""


@lru_cache(maxsize=1 << 16)
def _fewest_shapes(free: int) -> tuple[Shape, ...]:
    """The shapes of one fewest-pieces filling of ``free``, biggest first."""
    found = [shape_of_mask(m) for m in solve(free) or []]
    return tuple(sorted((s for s in found if s is not None), key=lambda s: -s.level))


def _actions_left(state: GameState, seat: int) -> tuple[float, bool]:
    """Actions ``seat`` still plays, and whether that is known (the end is in sight) or estimated
    from the black deck (:data:`TURNS_PER_BLACK`)."""
    if state.phase is not Phase.PLAY:
        return 0.0, True
    count = len(state.players)
    now = state.actions_left if seat == state.current else 0
    turns = turns_after_this(state, seat)
    if seat != state.current and turns is not None:
        order = [(state.first_player + i) % count for i in range(count)]
        turns += 1 if order.index(seat) > order.index(state.current) else 0
    if turns is not None:
        return float(now + ACTIONS_PER_TURN * turns), True
    deck = getattr(state.table, "black_deck", None)
    if deck is None:  # Solo and variants with another clock: how far the game has run
        left = max(1.0, (1.0 - progress(state)) * 10.0)
    else:
        left = 1.0 + len(deck) * TURNS_PER_BLACK.get(count, 0.8)
    return now + ACTIONS_PER_TURN * left, False


def _fetch(shape: Shape, spare: list[int]) -> int:
    """Actions to get ``shape`` when the supply lacks it: upgrade the best spare piece below it
    (one action a level), else take a level-1 piece and upgrade it."""
    for level in range(shape.level - 1, 0, -1):
        for s in SHAPES:
            if s.level == level and spare[s.index] > 0:
                spare[s.index] -= 1
                return shape.level - level
    return shape.level


def position_value(state: GameState, seat: int, w: PlannerWeights = PLANNER_WEIGHTS) -> float:
    """``seat``'s position by rule of thumb, in points (see the module): banked points; each open
    puzzle, nearest to done first, allotted the supply's pieces and charged its placements and
    missing pieces at ``action_points`` an action, worth its points and reward if finished in
    the actions left, else what Finishing Touches would make of it; the spare pieces with
    diminishing returns. The final score once the game is over."""
    line = score_line(state, seat)
    if state.phase is Phase.OVER:
        return float(line.total)
    player = state.players[seat]
    value = float(line.completed_points - line.finishing_penalty)
    left, known = _actions_left(state, seat)
    fade = min(1.0, left / w.spare_horizon)
    spare = list(player.supply)
    cards = state.cards
    penalty = state.options.unfinished_penalty
    place = w.place_with_master if len(player.puzzles) >= 2 else 1.0
    frees = sorted(((cards[p.card].recess & ~p.filled, p) for p in player.puzzles),
                   key=lambda fp: fp[0].bit_count())
    entries: list[tuple[float, float, float]] = []
    for free, puzzle in frees:
        card = cards[puzzle.card]
        shapes = _fewest_shapes(free)
        fetch = 0
        for shape in shapes:
            if spare[shape.index] > 0:
                spare[shape.index] -= 1
            else:
                fetch += _fetch(shape, spare)
        cost = len(shapes) * place + fetch
        # Every piece that ends on the puzzle comes back when it is done: those on it, those the
        # supply lends it and those fetched for it.
        back = w.spare_level * (sum(p.shape.level for p in puzzle.pieces) + sum(s.level for s in shapes))
        reward = w.spare_level * int(getattr(card.reward, "level", 1))
        won = card.points + (reward + back) * fade - w.action_points * cost
        tiling = finish_cost(free, player.supply)
        lost = -card.points if penalty else 0
        touched = float(lost if tiling is None else max(lost, card.points - len(tiling)))
        entries.append((cost, won, touched))
    entries.sort(key=lambda e: e[0])
    spent = 0.0
    for cost, won, touched in entries:
        spent += cost
        room = left - spent
        if known:
            chance = 1.0 if room >= 0 else 0.0
        else:
            chance = 1.0 / (1.0 + math.exp(-room / w.spread))
        value += chance * won + (1.0 - chance) * touched
    levels = sorted((s.level for s in SHAPES for _ in range(spare[s.index])), reverse=True)
    weight = w.spare_level * fade
    for level in levels:
        value += weight * level
        weight *= w.spare_decay
    return value


def turn_value(state: GameState, seat: int, w: PlannerWeights = PLANNER_WEIGHTS) -> float:
    """What the planner ranks a position by: its own :func:`position_value` less the best rival's
    (once over, the real margin)."""
    others = [s for s in range(len(state.players)) if s != seat and not state.players[s].removed]
    mine = position_value(state, seat, w)
    return mine - w.rival * max((position_value(state, s, w) for s in others), default=0.0)


class TurnPlannerPolicy:
    """Plans each whole turn by enumeration and :func:`turn_value` (see the module)."""

    name = "turn_planner"

    def __init__(self, seed: int = 0, *, weights: PlannerWeights = PLANNER_WEIGHTS, width: int = WIDTH,
                 draw_worlds: int = DRAW_WORLDS) -> None:
        self.seed = seed
        self.weights = weights
        self.width = width
        self.draw_worlds = draw_worlds
        self._greedy = GreedyPolicy(seed)
        self._kept = KeptTurn()

    def choose(self, state: GameState) -> Action:
        kept = self._kept.next(state)
        if kept is not None:
            return kept
        if state.phase is Phase.FINISHING and not state.pending:
            return finishing_touch(state)
        if (waiting_for(state) is not None or state.phase is not Phase.PLAY or state.current in state.held
                or state.round > LONG_GAME):
            return self._greedy.choose(state)
        best = self._search(state)
        if not best:
            return self._greedy.choose(state)
        return self._kept.start(state, best)

    def _search(self, state: GameState) -> tuple[Action, ...]:
        """The best whole turn on one re-deal (see the module)."""
        world = seen_world(state, self.seed)
        best = best_turn(world, self._greedy, self._step_value, fanout=3, width=self.width,
                         max_steps=MAX_STEPS, same_position=position_key, last_step_ends=True)
        return () if best is None else best[1]

    def _step_value(self, node: GameState, action: Action, after: GameState) -> float:
        """:func:`turn_value` of ``after``, a blind draw's over several cards (:meth:`_blind_value`)."""
        return self._blind_value(node, action, node.current, turn_value(after, node.current, self.weights))

    def _blind_value(self, node: GameState, action: Action, seat: int, seen: float) -> float:
        """A blind draw's value as the mean over the first :data:`DRAW_WORLDS` cards of the re-dealt
        deck, each put on top in turn (each is as likely as the top one; the top card alone would
        reward a plan for a lucky draw it cannot know)."""
        table = node.table
        if not isinstance(action, DrawPuzzle) or action.colour is None or not isinstance(table, RowsTable):
            return seen
        name = "white_deck" if action.colour is Colour.WHITE else "black_deck"
        deck = table.deck(action.colour)
        values = [seen]
        for i in range(1, min(self.draw_worlds, len(deck))):
            shuffled = (deck[i],) + deck[:i] + deck[i + 1:]
            try:
                after = apply(node.evolve(table=replace(table, **{name: shuffled})), action).state
            except IllegalActionError:
                continue
            values.append(turn_value(after, seat, self.weights))
        return sum(values) / len(values)
