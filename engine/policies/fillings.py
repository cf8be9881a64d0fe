"""How a puzzle's free cells can be filled: memoised bitmask arithmetic the policies share.

The random and greedy players never try actions with ``apply`` (too slow); they read a puzzle's
free cells as a 25-bit mask and ask these cached questions of it instead: how many pieces fill it
at best, which placements lie on such a filling, which need monominoes. ``pieces.placements_in``
and the solver are cached too, so a choice costs a few dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..actions import Place
from ..pieces import BASE_SHAPES, PLACEMENTS, Shape, placements_in, shape_of_mask
from ..solver import min_pieces, optimal_placements, solve
from ..state import GameState, PlayerState

__all__ = [
    "completions", "finish_cost", "finish_floor", "free_masks", "good_moves", "mono_need", "pieces_to_fill",
    "wanted_shapes",
]

_MONO = Shape.MONO
_NON_MONO_BY_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        m for s in BASE_SHAPES if s is not _MONO for m in PLACEMENTS[s]
        if (m & -m).bit_length() - 1 == cell
    )
    for cell in range(25)
)


@lru_cache(maxsize=1 << 18)
def mono_need(free: int) -> int:
    """The fewest monominoes any exact filling of ``free`` needs (0: no single-cell nooks).

    Monominoes are the scarcest resource in a stalled game, so this is the measure RandomPolicy
    uses to avoid carving holes only a monomino can fill. Same lowest-cell search as the solver.
    """
    if free == 0:
        return 0
    low = free & -free
    best = 1 + mono_need(free ^ low)
    for placement in _NON_MONO_BY_CELL[low.bit_length() - 1]:
        if placement & free == placement:
            rest = mono_need(free ^ placement)
            if rest < best:
                best = rest
                if best == 0:
                    break
    return best


def free_masks(state: GameState, player: PlayerState) -> dict[str, int]:
    """{card: its free cells} for each of the player's open puzzles."""
    cards = state.cards
    return {p.card: cards[p.card].recess & ~p.filled for p in player.puzzles}


def completions(player: PlayerState, free: dict[str, int]) -> list[Place]:
    """Single placements that fill a puzzle's last hole with a piece in supply."""
    found = []
    for card, mask in free.items():
        if mask.bit_count() <= 4:
            shape = shape_of_mask(mask)
            if shape is not None and player.supply[shape.index] > 0:
                found.append(Place(card, shape, mask))
    return found

@lru_cache(maxsize=1 << 18)
def pieces_to_fill(free: int) -> int:
    return min_pieces(free) or 0


@lru_cache(maxsize=1 << 16)
def good_moves(free: int) -> tuple[tuple[Shape, int], ...]:
    """Placements that lie on some fewest-pieces filling of ``free`` (they cost nothing extra),
    by shape then in :func:`~engine.pieces.placements_in` order."""
    good = optimal_placements(free)
    return tuple((s, m) for s in BASE_SHAPES for m in placements_in(s, free) if m in good)


@lru_cache(maxsize=1 << 16)
def wanted_shapes(free: int) -> frozenset[Shape]:
    return frozenset(s for s, _ in good_moves(free))


_LARGEST_FIRST: tuple[Shape, ...] = tuple(sorted(BASE_SHAPES, key=lambda s: (-s.size, s.index)))


def finish_floor(free: int, supply: Sequence[int]) -> int | None:
    """A lower bound of ``len(finish_cost(free, supply))``, cheap enough to ask before it: the
    fewest pieces ``free`` needs from any supply, or the fewest of this supply whose cells add up
    to the cells of ``free``, whichever is more. None when the supply's cells are too few (then
    ``finish_cost`` is None too)."""
    cells = free.bit_count()
    count = room = 0
    for shape in _LARGEST_FIRST:
        if room >= cells:
            break
        have = supply[shape.index]
        if have:
            take = min(have, -(-(cells - room) // shape.size))
            count += take
            room += take * shape.size
    if room < cells:
        return None
    return max(count, pieces_to_fill(free))


@lru_cache(maxsize=1 << 16)
def finish_cost(free: int, supply: tuple[int, ...]) -> tuple[int, ...] | None:
    """Fewest-pieces filling of ``free`` from ``supply`` (Finishing Touches), or None."""
    tiling = solve(free, supply=supply)
    return None if tiling is None else tuple(tiling)
