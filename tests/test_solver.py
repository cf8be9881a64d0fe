"""The exact-cover solver: hand-made recesses with known answers, supplies, and speed."""

from __future__ import annotations

import random
import time

import pytest

from engine.pieces import BASE_SHAPES, FULL_MASK, SHAPES, Shape, parse_cells, shape_of_mask
from engine.pieces import PLACEMENTS as ALL_PLACEMENTS
from engine.solver import (
    NO_MONO_SHAPES,
    can_complete,
    fillable_without_monominoes,
    min_pieces,
    optimal_placements,
    solve,
)


def rows(*lines: str) -> int:
    """A mask drawn the way the catalogue file draws it ('#' = recessed)."""
    mask = 0
    for r, line in enumerate(lines):
        for c, char in enumerate(line):
            if char == "#":
                mask |= 1 << (r * 5 + c)
    return mask


SQUARE = rows("##", "##")
PLUS = rows(".#.", "###", ".#.")
FULL_3X3 = rows("###", "###", "###")
ONE_CELL = rows("#")


def assert_tiling(recess: int, tiling: list[int]) -> None:
    """Placements are real piece shapes, disjoint, and cover the recess exactly."""
    covered = 0
    for placement in tiling:
        assert shape_of_mask(placement) is not None, f"{placement:#x} is not a piece"
        assert placement & covered == 0, "pieces overlap"
        covered |= placement
    assert covered == recess


def test_a_2x2_square_takes_one_piece() -> None:
    assert min_pieces(SQUARE) == 1
    tiling = solve(SQUARE)
    assert tiling is not None and len(tiling) == 1
    assert shape_of_mask(tiling[0]) is Shape.O4


def test_a_plus_shape_needs_a_tetromino_and_a_monomino_at_best() -> None:
    # 5 cells, no pentomino in the base set: T4 + monomino is the best split.
    assert min_pieces(PLUS) == 2
    assert fillable_without_monominoes(PLUS) is False
    tiling = solve(PLUS)
    assert tiling is not None
    assert_tiling(PLUS, tiling)
    assert sorted(shape_of_mask(p).size for p in tiling) == [1, 4]


def test_a_single_cell_needs_a_monomino() -> None:
    assert min_pieces(ONE_CELL) == 1
    assert fillable_without_monominoes(ONE_CELL) is False
    assert min_pieces(ONE_CELL, NO_MONO_SHAPES) is None
    assert solve(ONE_CELL, NO_MONO_SHAPES) is None


def test_a_3x3_square_takes_three_pieces() -> None:
    assert min_pieces(FULL_3X3) == 3  # 9 cells, at most 4 per piece
    assert fillable_without_monominoes(FULL_3X3)


def test_the_whole_card_takes_seven_pieces() -> None:
    assert min_pieces(FULL_MASK) == 7  # 25 = 6 tetrominoes + 1 monomino


def test_an_empty_recess_needs_no_pieces() -> None:
    assert min_pieces(0) == 0
    assert solve(0) == []
    assert can_complete(0, {})
    assert fillable_without_monominoes(0) is False


def test_level_5_pieces_are_used_only_when_asked_for() -> None:
    pentomino = rows("##", "##", "#.")  # the P pentomino
    assert min_pieces(pentomino) == 2
    assert min_pieces(pentomino, SHAPES) == 1
    assert solve(pentomino, SHAPES) == [pentomino]


def test_a_restricted_shape_set_is_respected() -> None:
    # A 2x4 rectangle: two tetrominoes, or four dominoes when only dominoes are allowed.
    bar = rows("####", "####")
    assert min_pieces(bar) == 2
    assert min_pieces(bar, [Shape.DOMINO]) == 4
    tiling = solve(bar, [Shape.DOMINO])
    assert tiling is not None and len(tiling) == 4
    assert all(shape_of_mask(p) is Shape.DOMINO for p in tiling)


def test_masks_off_the_card_are_rejected() -> None:
    with pytest.raises(ValueError):
        min_pieces(1 << 25)
    with pytest.raises(ValueError):
        solve(-1)


def test_supply_limited_solve_returns_none_when_pieces_are_missing() -> None:
    assert solve(SQUARE, supply={Shape.DOMINO: 1}) is None
    assert solve(SQUARE, supply={}) is None
    assert not can_complete(SQUARE, {Shape.DOMINO: 1, Shape.MONO: 1})
    assert not can_complete(SQUARE, {Shape.I4: 5})  # right size, wrong shape


def test_supply_limited_solve_uses_only_pieces_in_the_supply() -> None:
    supply = {Shape.DOMINO: 1, Shape.MONO: 2}
    tiling = solve(SQUARE, supply=supply)
    assert tiling is not None
    assert_tiling(SQUARE, tiling)
    assert sorted(shape_of_mask(p).size for p in tiling) == [1, 1, 2]
    assert can_complete(SQUARE, supply)


def test_supply_limited_solve_finds_the_fewest_pieces_it_can() -> None:
    # Nine cells need at least 3 pieces; L4 + L3 + domino does it, monominoes are not needed.
    supply = {Shape.L4: 1, Shape.L3: 2, Shape.DOMINO: 1, Shape.MONO: 9}
    tiling = solve(FULL_3X3, supply=supply)
    assert tiling is not None
    assert_tiling(FULL_3X3, tiling)
    assert len(tiling) == 3


def test_supply_accepts_a_count_sequence_indexed_by_shape() -> None:
    counts = [0] * len(SHAPES)
    counts[Shape.O4.index] = 1
    assert can_complete(SQUARE, counts)
    with pytest.raises(ValueError):
        can_complete(SQUARE, [1, 2, 3])
    with pytest.raises(ValueError):
        can_complete(SQUARE, {Shape.O4: -1})


def test_supply_outside_the_shape_set_is_ignored() -> None:
    pentomino = rows("##", "##", "#.")
    assert not can_complete(pentomino, {Shape.P5: 1})
    assert can_complete(pentomino, {Shape.P5: 1}, shapes=SHAPES)


def _random_region(rng: random.Random, size: int) -> int:
    mask = 1 << rng.randrange(25)
    while mask.bit_count() < size:
        cell = rng.randrange(25)
        col, row = cell % 5, cell // 5
        near = [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]
        if any(0 <= c < 5 and 0 <= r < 5 and mask >> (r * 5 + c) & 1 for c, r in near):
            mask |= 1 << cell
    return mask


def _brute_min(recess: int, shapes: tuple[Shape, ...], counts: dict[Shape, int]) -> int | None:
    """Reference answer: try every placement anywhere (no lowest-cell trick, no memo)."""
    from engine.pieces import PLACEMENTS

    if recess == 0:
        return 0
    best = None
    low = recess & -recess
    for shape in shapes:
        if counts.get(shape, 0) <= 0:
            continue
        for placement in PLACEMENTS[shape]:
            if placement & low and placement & recess == placement:
                counts[shape] -= 1
                rest = _brute_min(recess ^ placement, shapes, counts)
                counts[shape] += 1
                if rest is not None and (best is None or rest + 1 < best):
                    best = rest + 1
    return best


def test_supply_solve_agrees_with_a_brute_force_reference() -> None:
    rng = random.Random(7)
    for _ in range(60):
        region = _random_region(rng, rng.randrange(2, 9))
        supply = {shape: rng.randrange(0, 3) for shape in BASE_SHAPES}
        expected = _brute_min(region, BASE_SHAPES, dict(supply))
        tiling = solve(region, supply=supply)
        if expected is None:
            assert tiling is None
            assert not can_complete(region, supply)
        else:
            assert tiling is not None and len(tiling) == expected
            assert_tiling(region, tiling)
            used = [shape_of_mask(p) for p in tiling]
            assert all(used.count(s) <= supply[s] for s in set(used))
            assert can_complete(region, supply)


def test_solve_without_supply_finds_a_minimum_tiling() -> None:
    rng = random.Random(11)
    for _ in range(100):
        region = _random_region(rng, rng.randrange(1, 17))
        tiling = solve(region)
        assert tiling is not None
        assert_tiling(region, tiling)
        assert len(tiling) == min_pieces(region)


def test_optimal_placements_are_those_that_leave_one_piece_less() -> None:
    # The definition the walk over fillings must match: a placement is on a fewest-pieces
    # filling exactly when the area it leaves needs one piece less.
    rng = random.Random(5)
    regions = [_random_region(rng, rng.randrange(1, 21)) for _ in range(80)] + [0, FULL_3X3, PLUS]
    for region in regions:
        best = min_pieces(region)
        assert best is not None
        expected = {
            m for s in BASE_SHAPES for m in ALL_PLACEMENTS[s]
            if m & region == m and min_pieces(region ^ m) == best - 1
        }
        assert optimal_placements(region) == expected
    assert optimal_placements(PLUS, NO_MONO_SHAPES) == frozenset()


def test_supply_solve_is_fast_on_big_recesses() -> None:
    rng = random.Random(3)
    regions = [_random_region(rng, 16) for _ in range(40)]
    start = time.process_time()  # CPU time: a busy machine makes the wall clock lie
    for region in regions:
        supply = {shape: rng.randrange(0, 3) for shape in BASE_SHAPES}
        tiling = solve(region, supply=supply)
        if tiling is not None:
            assert_tiling(region, tiling)
    assert time.process_time() - start < 3.0


def test_parse_cells_masks_work_with_the_solver() -> None:
    # The text form players type (engine.pieces.parse_cells) feeds straight into the solver.
    assert min_pieces(parse_cells("A1 B1 C1 B2")) == 1
