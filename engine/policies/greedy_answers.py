"""Greedy's answers that need no weights: pending decisions, level-ups, Finishing Touches.

Kept apart from the preference steps of :class:`~engine.policies.greedy.GreedyPolicy`: these read
only the state, so other policies (the strong policy's rollouts, through greedy) answer alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Choose, EndFinishing, Place
from ..decisions import waiting_for
from ..expansions.finesse import view
from ..expansions.level_up import DECLINE, parse_level_up
from ..expansions.level_up import KIND as LEVEL_UP
from ..legal import legal_actions
from ..pieces import Shape, parse_shape, shape_of_mask
from ..rules import SUBSTITUTE
from ..state import GameState
from .fillings import finish_cost, finish_floor, free_masks, wanted_shapes

__all__ = ["answer_decision", "best_level_up", "finishing_touch"]


def answer_decision(state: GameState) -> Action:
    """Answer a pending decision. A substitute piece: one that lies on a fewest-pieces filling
    of an open puzzle, else the biggest (it can be exchanged down later). Kinds it does not
    know: the first option. A level-up: :func:`best_level_up`."""
    answers = [a for a in legal_actions(state) if isinstance(a, Choose)]
    decision = waiting_for(state)
    assert decision is not None
    if decision.kind == LEVEL_UP:
        return Choose(best_level_up(state, decision.seat, decision.options))
    if decision.kind != SUBSTITUTE:
        return answers[0]
    player = state.players[decision.seat]
    useful: set[Shape] = set()
    for free in free_masks(state, player).values():
        useful |= wanted_shapes(free)

    def value(answer: Choose) -> tuple[bool, int, int]:
        shape = parse_shape(answer.option)
        return (shape in useful, shape.level, -shape.index)

    return max(answers, key=value)


def finishing_touch(state: GameState) -> Action:
    """A Finishing Touch that pays: a piece of the cheapest filling of the puzzle that gains the
    most (its points, doubled by the unfinished penalty avoided, against a point per piece not
    paid by Finesse credits); done when none gains."""
    player = state.players[state.current]
    factor = 2 if state.options.unfinished_penalty else 1
    finesse = view(state)
    credits = finesse.credits(state.current) if finesse is not None else 0
    best: tuple[int, Place] | None = None
    for puzzle in player.puzzles:
        card = state.cards[puzzle.card]
        free = card.recess & ~puzzle.filled
        floor = finish_floor(free, player.supply)
        if floor is None or factor * card.points - max(0, floor - credits) <= 0:
            continue  # no gain even with the fewest pieces this supply could fill it with
        tiling = finish_cost(free, player.supply)
        if tiling is None:
            continue
        # Finesse: Finishing Touches are paid with credits first, at no cost in points.
        gain = factor * card.points - max(0, len(tiling) - credits)
        if gain > 0 and (best is None or gain > best[0]):
            mask = tiling[0]
            shape = shape_of_mask(mask)
            assert shape is not None
            best = (gain, Place(card.id, shape, mask))
    return EndFinishing() if best is None else best[1]


def best_level_up(state: GameState, seat: int, options: Sequence[str]) -> str:
    """Greedy's answer to a level-up arrow (Ghost Piece expansion): raise a piece that no open
    puzzle wants into a shape that one does; failing that, the raise that gains the most (a
    level-4 piece into a ghost, which splits into several pieces later); decline only when
    every raise would give up a wanted piece for an unwanted one."""
    player = state.players[seat]
    wanted: set[Shape] = set()
    for free in free_masks(state, player).values():
        wanted |= wanted_shapes(free)
    best: tuple[tuple[int, int, int], str] | None = None
    for option in options:
        raise_ = parse_level_up(option)
        if raise_ is None:
            continue
        give, take = raise_
        score = (take in wanted and give not in wanted, give not in wanted, take.level)
        if best is None or score > best[0]:
            best = (score, option)
    if best is None or (not best[0][0] and not best[0][1] and DECLINE in options):
        return DECLINE
    return best[1]
