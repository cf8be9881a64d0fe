"""One whole turn of the seat to act, searched by a beam over the candidate actions on one
re-dealt world: the search the league's hand-written planners (``hand_planner``,
``turn_planner``) share, each ranking positions by its own formula.

Why a shared loop: the planners are meant to differ in how they read a position, not in how they
walk a turn; one loop keeps "a turn ends here" (the turn passed, the game ended, or a step
revealed a card the seat could not see) the same for both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from ..actions import Action
from ..errors import IllegalActionError
from ..game import apply
from ..rng import Rng
from ..state import GameState
from .candidates import step_candidates
from .greedy import GreedyPolicy
from .hidden import redeal, visible_cards
from .strong import mixed_seed

StepValue = Callable[[GameState, Action, GameState], float]
"""A position's value after ``action`` from ``node``: ``value(node, action, after)``."""


def seen_world(state: GameState, seed: int) -> GameState:
    """The one world a planner searches: the decks and hidden piles re-dealt for the seat to act,
    from the policy's seed and the position's public fields (the same position, the same world)."""
    seat = state.current
    return redeal(state, Rng(mixed_seed(seed, state.rng_state, state.round, state.turn, seat,
                                  state.actions_left)), seat)


def best_turn(world: GameState, greedy: GreedyPolicy, value: StepValue, *, fanout: int, width: int,
              max_steps: int, same_position: Callable[[GameState], Hashable] | None = None,
              last_step_ends: bool = False) -> tuple[float, tuple[Action, ...]] | None:
    """The best-valued line of actions that ends the turn of ``world``'s seat to act (None if no
    line does): each step tries ``step_candidates(node, greedy, fanout)``, the ``width`` best open
    lines go on. ``same_position``: a key under which lines reaching the same position count once
    (the best kept); ``last_step_ends``: a line ``max_steps`` long counts as a whole turn."""
    seat = world.current
    visible = visible_cards(world, seat)
    start = (world.turn, seat)
    frontier: list[tuple[tuple[Action, ...], GameState]] = [((), world)]
    best: tuple[float, tuple[Action, ...]] | None = None
    for _ in range(max_steps):
        children: dict[Hashable, tuple[float, int, tuple[Action, ...], GameState]] = {}
        for plan, node in frontier:
            for action in step_candidates(node, greedy, fanout):
                try:
                    after = apply(node, action).state
                except IllegalActionError:
                    continue
                steps = plan + (action,)
                score = value(node, action, after)
                revealed = any(p.card not in visible for p in after.players[seat].puzzles)
                if (after.is_over or (after.turn, after.current) != start or revealed
                        or (last_step_ends and len(steps) == max_steps)):
                    if best is None or score > best[0]:
                        best = (score, steps)
                    continue
                key = len(children) if same_position is None else same_position(after)
                if key not in children or children[key][0] < score:
                    children[key] = (score, len(children), steps, after)
        if not children:
            break
        ranked = sorted(children.values(), key=lambda child: (-child[0], child[1]))[:width]
        frontier = [(steps, after) for _, _, steps, after in ranked]
    return best
