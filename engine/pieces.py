"""Piece shapes, their orientations, and placements on a 5×5 puzzle card as bitmasks.

A card is a 5×5 grid. Cell (column, row) with column 0–4 (printed A–E) and row 0–4 (printed 1–5)
is bit ``row * 5 + column`` of a 25-bit mask. A *placement* is simply the mask of the cells a piece
covers, so "does it fit" is ``placement & ~free == 0`` and "place it" is ``filled | placement``.
Working with masks rather than (orientation, anchor) pairs means the text form of a placement is
just its cells, which a player can read without learning a rotation convention.

Level-5 pentominoes (the Ghost Piece expansion) are part of the registry so that supplies and the
reserve keep one fixed layout; the base game simply never stocks them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import lru_cache

from .errors import Keyed, quoted

GRID = 5
FULL_MASK = (1 << (GRID * GRID)) - 1
COLUMNS = "ABCDE"


class Shape(enum.Enum):
    """The piece shapes. The value is the short code used in text and JSON."""

    _value_: str  # every value is a short code (mypy reads ``value`` as Any without this)

    MONO = "1"
    DOMINO = "2"
    I3 = "I3"
    L3 = "L3"
    I4 = "I4"
    O4 = "O4"
    T4 = "T4"
    L4 = "L4"
    S4 = "S4"
    # Ghost Piece expansion (level 5, never reached by Upgrade).
    P5 = "P5"
    U5 = "U5"
    L5 = "L5"

    # Set once per member below: plain attributes, because these are read in every
    # legal-action enumeration and a property plus an Enum-keyed dict lookup costs 3–4× more.
    level: int
    size: int
    index: int

    # Members are singletons: identity hashing is correct and far cheaper than Enum's default.
    __hash__ = object.__hash__

    @property
    def label(self) -> str:
        """A human name for messages, e.g. 'L3 (bent tromino)'."""
        return f"{self.value} ({_NAMES[self]})" if self.value not in {"1", "2"} else _NAMES[self]

    @property
    def article(self) -> str:
        """'a' or 'an' before the label, as it is read aloud: 'an I4 (…)', 'an L3 (…)', 'a T4 (…)'."""
        return "an" if self.value[0] in "AEFHILMNORSX" else "a"

    @property
    def refusal_label(self) -> str:
        """How a refusal names the piece (:class:`engine.messages.Labelled`): its label."""
        return self.label

    @property
    def with_article(self) -> str:
        """The label after its article: 'an L3 (bent tromino)'."""
        return f"{self.article} {self.label}"

    def __str__(self) -> str:
        return self._value_


SHAPES: tuple[Shape, ...] = tuple(Shape)
BASE_SHAPES: tuple[Shape, ...] = SHAPES[:9]
SHAPE_COUNT = len(SHAPES)

_LEVELS = {
    Shape.MONO: 1,
    Shape.DOMINO: 2,
    Shape.I3: 3,
    Shape.L3: 3,
    Shape.I4: 4,
    Shape.O4: 4,
    Shape.T4: 4,
    Shape.L4: 4,
    Shape.S4: 4,
    Shape.P5: 5,
    Shape.U5: 5,
    Shape.L5: 5,
}

_NAMES = {
    Shape.MONO: "monomino",
    Shape.DOMINO: "domino",
    Shape.I3: "straight tromino",
    Shape.L3: "bent tromino",
    Shape.I4: "straight tetromino",
    Shape.O4: "square tetromino",
    Shape.T4: "T tetromino",
    Shape.L4: "L tetromino",
    Shape.S4: "S tetromino",
    Shape.P5: "P pentomino",
    Shape.U5: "U pentomino",
    Shape.L5: "L pentomino",
}

# Cells as (column, row) in one reference orientation.
_BASE_CELLS: dict[Shape, tuple[tuple[int, int], ...]] = {
    Shape.MONO: ((0, 0),),
    Shape.DOMINO: ((0, 0), (1, 0)),
    Shape.I3: ((0, 0), (1, 0), (2, 0)),
    Shape.L3: ((0, 0), (0, 1), (1, 1)),
    Shape.I4: ((0, 0), (1, 0), (2, 0), (3, 0)),
    Shape.O4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    Shape.T4: ((0, 0), (1, 0), (2, 0), (1, 1)),
    Shape.L4: ((0, 0), (0, 1), (0, 2), (1, 2)),
    Shape.S4: ((1, 0), (2, 0), (0, 1), (1, 1)),
    Shape.P5: ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    Shape.U5: ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    Shape.L5: ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3)),
}

_ALIASES = {
    "MONO": Shape.MONO,
    "MONOMINO": Shape.MONO,
    "M": Shape.MONO,
    "1": Shape.MONO,
    "DOMINO": Shape.DOMINO,
    "D": Shape.DOMINO,
    "2": Shape.DOMINO,
    "I2": Shape.DOMINO,
    "J3": Shape.L3,
    "V3": Shape.L3,
    "J4": Shape.L4,
    "Z4": Shape.S4,
    "SQUARE": Shape.O4,
    "O": Shape.O4,
    "T": Shape.T4,
    "S": Shape.S4,
    "Z": Shape.S4,
}


class UnknownShapeError(Keyed, ValueError):
    """The text does not name a piece shape."""


def parse_shape(text: str) -> Shape:
    """Read a shape code, forgivingly.

    >>> parse_shape("l3"), parse_shape("Z4"), parse_shape("mono")
    (<Shape.L3: 'L3'>, <Shape.S4: 'S4'>, <Shape.MONO: '1'>)
    """
    key = text.strip().upper()
    for shape in SHAPES:
        if shape.value == key:
            return shape
    if key in _ALIASES:
        return _ALIASES[key]
    names = ", ".join(s.value for s in BASE_SHAPES)
    raise UnknownShapeError("parse.not_a_piece", text=quoted(text), pieces=names)


def cells_to_mask(cells: Iterable[tuple[int, int]]) -> int:
    mask = 0
    for col, row in cells:
        if not (0 <= col < GRID and 0 <= row < GRID):
            raise ValueError(f"cell {(col, row)} is off the card")
        mask |= 1 << (row * GRID + col)
    return mask


def mask_to_cells(mask: int) -> list[tuple[int, int]]:
    """Cells of a mask, in reading order (row by row, left to right)."""
    return [(i % GRID, i // GRID) for i in range(GRID * GRID) if mask >> i & 1]


def cell_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def mask_to_text(mask: int) -> str:
    """'A1 B1 B2' — the canonical text of a set of cells."""
    return " ".join(cell_name(c, r) for c, r in mask_to_cells(mask))


class BadCellError(Keyed, ValueError):
    """A cell name that is not on a 5×5 card."""


def parse_cell(text: str) -> tuple[int, int]:
    """'b3' -> (1, 2). Accepts 'B3' or '3B'."""
    token = text.strip().upper()
    if len(token) == 2:
        if token[0] in COLUMNS and token[1] in "12345":
            return COLUMNS.index(token[0]), int(token[1]) - 1
        if token[1] in COLUMNS and token[0] in "12345":
            return COLUMNS.index(token[1]), int(token[0]) - 1
    raise BadCellError("parse.not_a_cell", text=quoted(text))


def parse_cells(text: str) -> int:
    """'A1 A2, B2' -> mask. Duplicates are an error: a piece covers each cell once."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise BadCellError("parse.no_cells")
    mask = 0
    for token in tokens:
        col, row = parse_cell(token)
        bit = 1 << (row * GRID + col)
        if mask & bit:
            raise BadCellError("parse.cell_twice", cell=cell_name(col, row))
        mask |= bit
    return mask


def _normalise(cells: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    cells = list(cells)
    min_c = min(c for c, _ in cells)
    min_r = min(r for _, r in cells)
    return tuple(sorted((c - min_c, r - min_r) for c, r in cells))


def _orientations(shape: Shape) -> tuple[tuple[tuple[int, int], ...], ...]:
    """All distinct rotations and reflections, normalised to the top-left corner."""
    seen: list[tuple[tuple[int, int], ...]] = []
    cells = list(_BASE_CELLS[shape])
    for flip in (False, True):
        current = [(-c, r) for c, r in cells] if flip else cells
        for _ in range(4):
            normal = _normalise(current)
            if normal not in seen:
                seen.append(normal)
            current = [(-r, c) for c, r in current]  # rotate 90° clockwise
    return tuple(seen)


ORIENTATIONS: dict[Shape, tuple[tuple[tuple[int, int], ...], ...]] = {
    shape: _orientations(shape) for shape in SHAPES
}


def _all_placements(shape: Shape) -> tuple[int, ...]:
    masks: list[int] = []
    for cells in ORIENTATIONS[shape]:
        width = max(c for c, _ in cells) + 1
        height = max(r for _, r in cells) + 1
        for dy in range(GRID - height + 1):
            for dx in range(GRID - width + 1):
                masks.append(cells_to_mask((c + dx, r + dy) for c, r in cells))
    return tuple(masks)


PLACEMENTS: dict[Shape, tuple[int, ...]] = {shape: _all_placements(shape) for shape in SHAPES}
"""Every mask a shape can cover on an empty 5×5 card."""

for _i, _shape in enumerate(SHAPES):
    _shape.level = _LEVELS[_shape]
    _shape.size = len(_BASE_CELLS[_shape])
    _shape.index = _i

SHAPES_BY_LEVEL: dict[int, tuple[Shape, ...]] = {
    level: tuple(s for s in SHAPES if s.level == level) for level in range(1, 6)
}

_SHAPE_OF_MASK: dict[int, Shape] = {m: s for s in SHAPES for m in PLACEMENTS[s]}


def shape_of_mask(mask: int) -> Shape | None:
    """Which shape covers exactly these cells, if any."""
    return _SHAPE_OF_MASK.get(mask)


@lru_cache(maxsize=1 << 16)
def placements_in(shape: Shape, free: int) -> tuple[int, ...]:
    """Placements of ``shape`` that lie entirely inside the free cells ``free``.

    Cached: a game only ever sees a few hundred distinct (shape, free-area) pairs, and this is
    the hot path of legal-action enumeration.
    """
    return tuple([m for m in PLACEMENTS[shape] if m & free == m])  # a list first: 25 % faster


def is_connected(mask: int) -> bool:
    """True when the cells of ``mask`` form one orthogonally connected area."""
    if mask == 0:
        return False
    start = mask & -mask
    seen = start
    frontier = start
    while frontier:
        grow = 0
        for i in range(GRID * GRID):
            if frontier >> i & 1:
                col, row = i % GRID, i // GRID
                if col > 0:
                    grow |= 1 << (i - 1)
                if col < GRID - 1:
                    grow |= 1 << (i + 1)
                if row > 0:
                    grow |= 1 << (i - GRID)
                if row < GRID - 1:
                    grow |= 1 << (i + GRID)
        frontier = grow & mask & ~seen
        seen |= frontier
    return seen == mask


def symmetries(mask: int) -> list[int]:
    """The 8 images of a mask under rotation and reflection of the whole 5×5 card."""
    images = []
    cells = mask_to_cells(mask)
    for flip in (False, True):
        current = [(GRID - 1 - c, r) for c, r in cells] if flip else cells
        for _ in range(4):
            images.append(cells_to_mask(current))
            current = [(GRID - 1 - r, c) for c, r in current]
    return images


def canonical_form(mask: int) -> tuple[tuple[int, int], ...]:
    """A key equal for two recesses exactly when one is a rotation/reflection/shift of the other."""
    return min(_normalise(mask_to_cells(m)) for m in symmetries(mask))
