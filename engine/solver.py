"""Exact-cover solver for puzzle recesses on a 5×5 card.

Every question the game asks about "can this be filled?" reduces to tiling a set of free cells
with piece placements (see :mod:`engine.pieces` for the bitmask layout). The search always
branches on the *lowest* free cell: every cell below it is already covered, so a piece that
covers it must have it as its own lowest cell. That removes all symmetric re-orderings of the
same tiling and keeps the tree tiny on a 25-cell board, so plain Python is fast enough (the whole
52-card catalogue is checked in a few milliseconds once warm).

By default only the nine base shapes (monomino … S tetromino) are used: level-5 ghost pieces
are an expansion and must be asked for explicitly by passing a shape set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from .pieces import BASE_SHAPES, FULL_MASK, GRID, PLACEMENTS, SHAPE_COUNT, SHAPES, Shape

__all__ = [
    "BASE_SHAPES",
    "NO_MONO_SHAPES",
    "can_complete",
    "fillable_without_monominoes",
    "min_pieces",
    "optimal_placements",
    "solve",
]

NO_MONO_SHAPES: tuple[Shape, ...] = tuple(s for s in BASE_SHAPES if s is not Shape.MONO)
"""The base shapes without the monomino: a recess that only these can fill has no forced nooks."""

_CELLS = GRID * GRID

Supply = Mapping[Shape, int] | Sequence[int]
"""Piece counts: a ``{Shape: n}`` mapping, or a sequence indexed by :attr:`Shape.index`."""


def _lowest_cell(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _anchored(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """Placements of ``shape`` grouped by their lowest cell: the only ones the search needs."""
    table: list[list[int]] = [[] for _ in range(_CELLS)]
    for placement in PLACEMENTS[shape]:
        table[_lowest_cell(placement)].append(placement)
    return tuple(tuple(row) for row in table)


_ANCHORED: dict[Shape, tuple[tuple[int, ...], ...]] = {s: _anchored(s) for s in SHAPES}


def _sorted_key(shapes: Iterable[Shape]) -> tuple[Shape, ...]:
    return tuple(sorted(set(shapes), key=lambda s: (-s.size, s.index)))


_KEYS: dict[tuple[Shape, ...], tuple[Shape, ...]] = {}
"""Shape sets as given -> their canonical key (a handful exist: sorting one per call cost more
than the look-up it prepared)."""


def _shape_key(shapes: Iterable[Shape]) -> tuple[Shape, ...]:
    """A canonical, hashable shape set, largest pieces first so good tilings are found early."""
    given = shapes if isinstance(shapes, tuple) else tuple(shapes)
    key = _KEYS.get(given)
    if key is None:
        key = _KEYS[given] = _sorted_key(given)
    return key


@lru_cache(maxsize=1024)
def _table(key: tuple[Shape, ...]) -> tuple[tuple[int, ...], ...]:
    """For each cell, every placement (of the allowed shapes) anchored at that cell."""
    return tuple(tuple(p for s in key for p in _ANCHORED[s][cell]) for cell in range(_CELLS))


def _check_mask(mask: int) -> None:
    if mask < 0 or mask & ~FULL_MASK:
        raise ValueError(f"mask {mask:#x} has cells off the 5×5 card")


@lru_cache(maxsize=1 << 18)
def _min_pieces(mask: int, key: tuple[Shape, ...]) -> int | None:
    # Memoised on the remaining mask: the lowest-cell rule makes many branches meet again. No
    # filling uses fewer pieces than the cells over the largest piece's size, so the search stops
    # as soon as it found one that small: the value is still exact (``_reconstruct`` relies on
    # it), and most areas have such a filling among the first tried (largest pieces first).
    if mask == 0:
        return 0
    if not key:
        return None
    largest = key[0].size
    floor = (mask.bit_count() + largest - 1) // largest
    best: int | None = None
    for placement in _table(key)[(mask & -mask).bit_length() - 1]:
        if placement & mask == placement:
            rest = _min_pieces(mask ^ placement, key)
            if rest is not None and (best is None or rest + 1 < best):
                best = rest + 1
                if best == floor:
                    break
    return best


def min_pieces(recess: int, shapes: Iterable[Shape] = BASE_SHAPES) -> int | None:
    """The fewest pieces that exactly fill ``recess``, or None if the shapes cannot fill it.

    This is the number of Place actions a card costs, the main measure of its difficulty
    (RULINGS "Designing the catalogue"). An empty mask needs 0 pieces.
    """
    _check_mask(recess)
    return _min_pieces(recess, _shape_key(shapes))


def optimal_placements(recess: int, shapes: Iterable[Shape] = BASE_SHAPES) -> frozenset[int]:
    """Every placement that lies on some fewest-pieces filling of ``recess`` (empty if none).

    Asking :func:`min_pieces` of ``recess`` less each placement would solve a hundred new areas
    for a large recess. Instead this walks the fillings in the solver's own order: a placement
    is on a fewest-pieces filling exactly when that filling, taken lowest cell first, reaches it
    through areas the memo already knows. About five times faster on a game's areas.
    """
    _check_mask(recess)
    key = _shape_key(shapes)
    table = _table(key)
    found: set[int] = set()
    seen: set[int] = set()
    stack = [recess] if recess else []
    while stack:
        mask = stack.pop()
        if mask in seen:
            continue
        seen.add(mask)
        best = _min_pieces(mask, key)
        if best is None:
            continue
        for placement in table[(mask & -mask).bit_length() - 1]:
            if placement & mask == placement:
                rest = mask ^ placement
                if _min_pieces(rest, key) == best - 1:
                    found.add(placement)
                    if rest:
                        stack.append(rest)
    return frozenset(found)


def fillable_without_monominoes(recess: int) -> bool:
    """True when the recess can be filled with no monomino at all.

    Any recess can be filled with monominoes, so plain solvability says little; a card that
    *needs* a monomino has an awkward nook, which a designer wants to know about.
    """
    return recess != 0 and min_pieces(recess, NO_MONO_SHAPES) is not None


def _counts(supply: Supply) -> list[int]:
    """Normalise a supply to a list indexed by Shape.index."""
    if isinstance(supply, Mapping):
        counts = [0] * SHAPE_COUNT
        for shape, n in supply.items():
            counts[shape.index] = n
    else:
        counts = list(supply)
        if len(counts) != SHAPE_COUNT:
            raise ValueError(f"a supply sequence needs {SHAPE_COUNT} counts, got {len(counts)}")
    if any(n < 0 for n in counts):
        raise ValueError("piece counts cannot be negative")
    return counts


class _SupplySearch:
    """Depth-first search for a tiling that uses at most the pieces in a supply.

    Failures are memoised on (remaining cells, counts left). Two cheap lower bounds prune: the
    unlimited :func:`min_pieces` of the remaining cells (one memo shared by every search), and
    the cells the ``budget`` largest pieces left could cover at most. Bounding by the shapes
    still in stock instead was tighter but gave every search its own memos: twice the time of
    the whole search. The tiling found does not depend on the bounds (any sound pruning finds
    the first tiling in the same search order), only the time it takes.
    """

    def __init__(self, counts: list[int], key: tuple[Shape, ...]) -> None:
        self.counts = counts
        self.key = key
        self.failed: dict[tuple[int, tuple[int, ...]], int] = {}

    def _room(self, budget: int) -> int:
        """Cells the ``budget`` largest pieces left could cover (the key is largest first)."""
        counts = self.counts
        room = 0
        for shape in self.key:
            n = counts[shape.index]
            if n >= budget:
                return room + budget * shape.size
            room += n * shape.size
            budget -= n
        return room

    def search(self, mask: int, budget: int) -> list[int] | None:
        """A tiling of ``mask`` with at most ``budget`` pieces, or None."""
        if mask == 0:
            return []
        counts = self.counts
        state = (mask, tuple(counts))
        if self.failed.get(state, -1) >= budget:
            return None
        bound = _min_pieces(mask, self.key)
        if bound is not None and bound <= budget and self._room(budget) >= mask.bit_count():
            low = _lowest_cell(mask)
            for shape in self.key:
                if counts[shape.index] <= 0:
                    continue
                counts[shape.index] -= 1
                try:
                    for placement in _ANCHORED[shape][low]:
                        if placement & mask == placement:
                            rest = self.search(mask ^ placement, budget - 1)
                            if rest is not None:
                                rest.append(placement)
                                return rest
                finally:
                    counts[shape.index] += 1
        self.failed[state] = max(budget, self.failed.get(state, -1))
        return None


def solve(
    recess: int,
    shapes: Iterable[Shape] = BASE_SHAPES,
    *,
    supply: Supply | None = None,
) -> list[int] | None:
    """One tiling of ``recess`` as a list of placement masks, with as few pieces as possible.

    Fewest pieces is what a player (or the AI) wants: each piece is a Place action, and in
    Finishing Touches each piece costs a point. With ``supply`` the tiling uses no more of each
    shape than given (shapes outside ``shapes`` are never used, even if in the supply); returns
    None when no tiling exists. The placements are disjoint and their union is ``recess``.
    """
    _check_mask(recess)
    key = _shape_key(shapes)
    if recess == 0:
        return []
    if supply is None:
        return _reconstruct(recess, key)
    search = _SupplySearch(_counts(supply), key)
    found = search.search(recess, recess.bit_count())
    if found is None:
        return None
    # Something fits; now look for the fewest pieces, from the unlimited lower bound upward.
    in_stock = tuple(s for s in key if search.counts[s.index] > 0)
    lower = _min_pieces(recess, in_stock) or len(found)
    for budget in range(lower, len(found)):
        better = search.search(recess, budget)
        if better is not None:
            return better
    return found


def _reconstruct(mask: int, key: tuple[Shape, ...]) -> list[int] | None:
    """Walk the min-pieces memo back down to one optimal tiling."""
    best = _min_pieces(mask, key)
    if best is None:
        return None
    tiling: list[int] = []
    while mask:
        for placement in _table(key)[_lowest_cell(mask)]:
            if placement & mask == placement and _min_pieces(mask ^ placement, key) == best - 1:
                tiling.append(placement)
                mask ^= placement
                best -= 1
                break
    return tiling


def can_complete(
    free_mask: int, supply_counts: Supply, *, shapes: Iterable[Shape] = BASE_SHAPES
) -> bool:
    """True when the pieces in ``supply_counts`` can exactly fill ``free_mask``.

    The question behind "can I finish this puzzle from my own supply?" (AI planning, Finishing
    Touches). An already-full puzzle (``free_mask == 0``) is trivially complete.
    """
    _check_mask(free_mask)
    if free_mask == 0:
        return True
    search = _SupplySearch(_counts(supply_counts), _shape_key(shapes))
    return search.search(free_mask, free_mask.bit_count()) is not None
