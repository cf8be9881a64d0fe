"""Placements and the Master-like choices built from them (shared by Master and the Ambassador
action): the placements a player could make, and :class:`MasterOptions`, the legal placements per
puzzle that a one-piece-per-puzzle action chooses from. Kept apart from :mod:`engine.legal` so an
expansion can enumerate its own Master-like action without importing the enumeration of every
action (which imports the expansions)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .actions import Master, Place
from .cards import PuzzleCard
from .pieces import SHAPES, Shape, placements_in
from .rng import Rng
from .state import PlayerState


@lru_cache(maxsize=1 << 16)
def shape_place_actions(card: str, shape: Shape, free: int) -> tuple[Place, ...]:
    """Every Place of ``shape`` on ``card`` within its ``free`` cells, remembered: the same puzzle
    and supply come back every step of a search, and :mod:`engine.legal` lists them from here."""
    return tuple([Place(card, shape, mask) for mask in placements_in(shape, free)])


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
            result.extend(shape_place_actions(puzzle.card, s, free))
    return result


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


def puzzle_options(cards: Mapping[str, PuzzleCard], player: PlayerState) -> MasterOptions | None:
    """The placements per puzzle a Master (or an Ambassador action) could choose from; None when
    no piece of the supply fits anywhere."""
    per_card: dict[str, tuple[Place, ...]] = {}
    for puzzle in player.puzzles:
        places = placements_for(cards, player, card=puzzle.card)
        if places:
            per_card[puzzle.card] = tuple(places)
    if not per_card:
        return None
    return MasterOptions(per_card, player.supply)
