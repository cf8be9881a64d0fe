"""Enumerating legal actions.

:func:`legal_actions` lists every legal action except Master, whose combinations multiply across
puzzles (four puzzles with thirty placements each already make 800,000). Master is described by
:func:`master_options` instead — the legal placements per puzzle plus the supply they share — which
can enumerate every combination lazily, count them, or sample one. :func:`iter_legal_actions`
chains both, so "every legal action" is still available to whoever wants it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache

from .actions import (
    Action,
    Choose,
    EndFinishing,
    EndTurn,
    Pass,
    TakeLevelOne,
    Upgrade,
)
from .cards import PuzzleCard
from .decisions import waiting_for
from .expansions.base import expansions_for, free_action_types
from .pieces import SHAPES, Shape, placements_in
from .placing import MasterOptions, placements_for, puzzle_options, shape_place_actions
from .rules import MAX_UPGRADE_LEVEL, substitutes
from .state import GameState, Phase, PlayerState
from .variants import variant_for

__all__ = [
    "MasterOptions", "combinatorial_kinds", "has_finishing_placement", "iter_legal_actions",
    "legal_actions", "master_options", "placements_for", "shape_place_actions", "upgrade_actions",
]


def has_finishing_placement(cards: Mapping[str, PuzzleCard], player: PlayerState) -> bool:
    for puzzle in player.puzzles:
        free = cards[puzzle.card].recess & ~puzzle.filled
        for s in SHAPES:
            if player.supply[s.index] > 0 and placements_in(s, free):
                return True
    return False


_UPGRADES: dict[tuple[Shape, Shape], Upgrade] = {
    (give, take): Upgrade(give, take)
    for give in SHAPES
    for take in SHAPES
    if give is not take and take.level <= MAX_UPGRADE_LEVEL
}


def upgrade_actions(state: GameState) -> list[Upgrade]:
    """Every legal upgrade or exchange: to any other stocked shape of the same or a lower level,
    or up to the next level that still has pieces."""
    reserve = state.reserve
    supply = state.players[state.current].supply
    stocked = held = 0
    for i, n in enumerate(reserve):
        if n > 0:
            stocked |= 1 << i
    for i, n in enumerate(supply):
        if n > 0:
            held |= 1 << i
    return list(_upgrades(stocked, held))


@lru_cache(maxsize=4096)
def _upgrades(stocked_bits: int, held_bits: int) -> tuple[Upgrade, ...]:
    """:func:`upgrade_actions` for the shapes the reserve stocks and the player holds (bit
    ``shape.index`` of each): they depend on nothing else, and a few hundred such pairs recur
    all game, so they are listed once each (the listing cost a tenth of a greedy choice)."""
    stocked = [
        s for s in SHAPES if stocked_bits >> s.index & 1 and s.level <= MAX_UPGRADE_LEVEL
    ]
    result: list[Upgrade] = []
    for give in SHAPES:
        if not held_bits >> give.index & 1:
            continue
        higher = min((s.level for s in stocked if s.level > give.level), default=None)
        for take in stocked:
            if take is not give and (take.level <= give.level or take.level == higher):
                result.append(_UPGRADES[(give, take)])
    return tuple(result)


def _seen_by(state: GameState, player: int | None) -> GameState | None:
    """The state as ``player`` acts on it (their concurrent turn focused), or None when
    ``player`` may not act now."""
    if player is None or player == state.current:
        return state if state.phase is not Phase.OVER else None
    if player not in state.acting_seats:
        return None
    return state.focused(player)


def legal_actions(state: GameState, player: int | None = None, *, places: bool = True) -> list[Action]:
    """Every legal action for the acting seat (or for ``player``, who may be any seat with a
    running turn), except Master and the Ghost action's immediate placements (see
    :func:`master_options` and :func:`iter_legal_actions`). Empty for a seat that cannot act.

    While a decision is pending for that seat, only its answers (``Choose``) are legal.

    ``places=False`` leaves out the Place actions of the play phase (the rest keep their order),
    for a caller that reads placements from the puzzles' free cells itself: listing them was a
    fifth of a greedy choice."""
    seen = _seen_by(state, player)
    if seen is None:
        return []
    state = seen
    decision = waiting_for(state)
    if decision is not None:
        return [Choose(option) for option in decision.options]
    me = state.players[state.current]
    if state.phase is Phase.FINISHING:
        return [*placements_for(state.cards, me), EndFinishing()]
    if state.current in state.held:
        # Actions spent, turn held open: only a free action (Insert) or ending the turn.
        held: list[Action] = [
            action for expansion in expansions_for(state.options)
            for action in expansion.legal_actions(state)
            if isinstance(action, expansion.free_action_types)
        ]
        return [*held, EndTurn()]
    actions: list[Action] = list(variant_for(state.options.variant).market_actions(state))
    if substitutes(state.reserve, Shape.MONO):
        actions.append(TakeLevelOne())
    actions.extend(upgrade_actions(state))
    if places:
        actions.extend(placements_for(state.cards, me))
    for expansion in expansions_for(state.options):
        actions.extend(expansion.legal_actions(state))
    # a free action (Finesse's Insert) spends none of the turn's actions: it does not stop a pass
    free = free_action_types(state.options)
    if (all(isinstance(action, free) for action in actions) and master_options(state) is None
            and (places or not placements_for(state.cards, me))):
        actions.append(Pass())
    return actions


def master_options(state: GameState, player: int | None = None) -> MasterOptions | None:
    """None when Master is not legal now (already used, wrong phase, nothing to place)."""
    seen = _seen_by(state, player)
    if seen is None:
        return None
    state = seen
    if (
        state.phase is not Phase.PLAY or state.master_used or waiting_for(state) is not None
        or state.current in state.held
    ):
        return None
    return puzzle_options(state.cards, state.players[state.current])


def combinatorial_kinds(state: GameState, player: int | None = None) -> tuple[str, ...]:
    """The kinds of the combinatorial actions open to the seat now — ``master`` and those of each
    expansion's :meth:`~engine.expansions.base.Expansion.more_actions` (the Ambassador action,
    the Ghost action with placements) that has at least one — named, not enumerated: beside
    :func:`legal_actions` and the seat's own puzzles and supply, which fix what each one is, that
    is all a seat may do."""
    seen = _seen_by(state, player)
    if seen is None:
        return ()
    kinds: list[str] = ["master"] if master_options(seen) is not None else []
    if seen.phase is Phase.PLAY and waiting_for(seen) is None and seen.current not in seen.held:
        for expansion in expansions_for(seen.options):
            first = next(iter(expansion.more_actions(seen)), None)
            if first is not None:
                kinds.append(first.kind)
    return tuple(kinds)


def iter_legal_actions(state: GameState, player: int | None = None) -> Iterator[Action]:
    """Every legal action, Master combinations and the expansions' combinatorial actions (the
    Ghost action with immediate placements) included."""
    yield from legal_actions(state, player)
    options = master_options(state, player)
    if options is not None:
        yield from options.iter_actions()
    seen = _seen_by(state, player)
    if (
        seen is not None and seen.phase is Phase.PLAY and waiting_for(seen) is None
        and seen.current not in seen.held
    ):
        for expansion in expansions_for(seen.options):
            yield from expansion.more_actions(seen)
