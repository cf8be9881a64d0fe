"""Enumerating legal actions.

:func:`legal_actions` lists every legal action except Master, whose combinations multiply across
puzzles (four puzzles with thirty placements each already make 800,000). Master is described by
:func:`master_options` instead — the legal placements per puzzle plus the supply they share — which
can enumerate every combination lazily, count them, or sample one. :func:`iter_legal_actions`
chains both, so "every legal action" is still available to whoever wants it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .actions import (
    Action,
    Choose,
    EndFinishing,
    EndTurn,
    Master,
    Pass,
    Place,
    TakeLevelOne,
    Upgrade,
)
from .cards import PuzzleCard
from .decisions import waiting_for
from .expansions.base import expansions_for
from .pieces import SHAPES, Shape, placements_in
from .rng import Rng
from .rules import MAX_UPGRADE_LEVEL, substitutes
from .state import GameState, Phase, PlayerState
from .variants import variant_for


@lru_cache(maxsize=1 << 16)
def _place_actions(card: str, shape: Shape, free: int) -> tuple[Place, ...]:
    return tuple(Place(card, shape, mask) for mask in placements_in(shape, free))


def placements_for(
    cards: Mapping[str, PuzzleCard], player: PlayerState, card: str | None = None,
    shape: Shape | None = None,
) -> list[Place]:
    """Every Place the player could make with pieces in supply (optionally one card/shape)."""
    result: list[Place] = []
    shapes = [s for s in SHAPES if player.supply[s.index] > 0 and (shape is None or s is shape)]
    for puzzle in player.puzzles:
        if card is not None and puzzle.card != card:
            continue
        free = cards[puzzle.card].recess & ~puzzle.filled
        for s in shapes:
            result.extend(_place_actions(puzzle.card, s, free))
    return result


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
    stocked = [s for s in SHAPES if reserve[s.index] > 0 and s.level <= MAX_UPGRADE_LEVEL]
    result: list[Upgrade] = []
    for give in SHAPES:
        if supply[give.index] <= 0:
            continue
        higher = min((s.level for s in stocked if s.level > give.level), default=None)
        for take in stocked:
            if take is not give and (take.level <= give.level or take.level == higher):
                result.append(_UPGRADES[(give, take)])
    return result


def _seen_by(state: GameState, player: int | None) -> GameState | None:
    """The state as ``player`` acts on it (their concurrent turn focused), or None when
    ``player`` may not act now."""
    if player is None or player == state.current:
        return state if state.phase is not Phase.OVER else None
    if player not in state.acting_seats:
        return None
    return state.focused(player)


def legal_actions(state: GameState, player: int | None = None) -> list[Action]:
    """Every legal action for the acting seat (or for ``player``, who may be any seat with a
    running turn), except Master and the Ghost action's immediate placements (see
    :func:`master_options` and :func:`iter_legal_actions`). Empty for a seat that cannot act.

    While a decision is pending for that seat, only its answers (``Choose``) are legal."""
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
    actions.extend(placements_for(state.cards, me))
    for expansion in expansions_for(state.options):
        actions.extend(expansion.legal_actions(state))
    if not actions and master_options(state) is None:
        actions.append(Pass())
    return actions


@dataclass(frozen=True)
class MasterOptions:
    """The legal Master actions, factored: for each puzzle, the placements allowed on it alone.

    A combination is legal when it uses at most one placement per puzzle, at least one in all,
    and no more pieces of a shape than the supply holds.
    """

    per_card: dict[str, tuple[Place, ...]]
    supply: tuple[int, ...]

    def _fits(self, choice: tuple[Place, ...]) -> bool:
        used = [0] * len(self.supply)
        for place in choice:
            used[place.shape.index] += 1
            if used[place.shape.index] > self.supply[place.shape.index]:
                return False
        return True

    def iter_actions(self) -> Iterator[Master]:
        """Every legal Master action, lazily (there can be very many)."""
        options = [(None, *places) for places in self.per_card.values()]
        for combo in product(*options):
            choice = tuple(p for p in combo if p is not None)
            if choice and self._fits(choice):
                yield Master(choice)

    def count(self) -> int:
        return sum(1 for _ in self.iter_actions())

    def sample(self, rng: Rng) -> Master:
        """A random legal Master: a random non-empty set of puzzles, a random placement each."""
        cards = list(self.per_card)
        while True:
            chosen = [c for c in cards if rng.below(2)] or [cards[rng.below(len(cards))]]
            choice = tuple(
                self.per_card[c][rng.below(len(self.per_card[c]))] for c in chosen
            )
            if self._fits(choice):
                return Master(choice)


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
    acting = state.players[state.current]
    per_card: dict[str, tuple[Place, ...]] = {}
    for puzzle in acting.puzzles:
        places = placements_for(state.cards, acting, card=puzzle.card)
        if places:
            per_card[puzzle.card] = tuple(places)
    if not per_card:
        return None
    return MasterOptions(per_card, acting.supply)


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
