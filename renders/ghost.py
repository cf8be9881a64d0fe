"""The Ghost action's preview: a ghost piece and how the pieces taken for it tile its shape.

Left, the ghost as it is returned; right, the same outline split into the new pieces, each in its
own colour with its code, and a line naming them — so a player choosing among the legal splits
(``engine.expansions.ghost.DECOMPOSITIONS``) sees what each gives before confirming.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.expansions.ghost import ghost_tiling
from engine.pieces import Shape

from . import fonts, labels
from .draw import cells_of, label_piece, paint_piece
from .labels import Words
from .palette import INK, MUTED, PAGE, PIECE, to_png
from .panels import TextSizes

WIDTH = 640
CELL = 44


def render_ghost_split(ghost: Shape, pieces: Sequence[Shape], words: Words | None = None) -> bytes:
    """PNG of ``ghost`` and the split into ``pieces`` (title in ``words``, None: English);
    ValueError if they do not tile it."""
    with labels.speaking(words):
        return _ghost_split(ghost, pieces)


def _ghost_split(ghost: Shape, pieces: Sequence[Shape]) -> bytes:
    tiling = ghost_tiling(ghost, pieces)
    if tiling is None:
        raise ValueError(f"{' '.join(p.value for p in pieces)} do not tile {ghost.value}")
    t = TextSizes.for_width(WIDTH)
    cells = cells_of(sum(mask for _, mask in tiling))
    cols = max(c for c, _ in cells) + 1
    rows = max(r for _, r in cells) + 1
    title_h = int(t.large * 2)
    height = title_h + rows * CELL + int(t.body * 2.6)
    image = Image.new("RGB", (WIDTH, height), PAGE)
    draw = ImageDraw.Draw(image)
    fonts.draw(image, WIDTH // 2, title_h // 2, labels.ghost_split_title(ghost.value), t.large, INK,
               bold=True, anchor="mm")
    left = WIDTH // 4 - cols * CELL // 2
    right = 3 * WIDTH // 4 - cols * CELL // 2
    top = title_h
    paint_piece(draw, left, top, CELL, cells, PIECE[ghost])
    label_piece(image, left, top, CELL, cells, ghost, t.body)
    mid, cx, size = top + rows * CELL // 2, WIDTH // 2, CELL // 2
    draw.polygon([(cx - size, mid - size // 4), (cx, mid - size // 4), (cx, mid - size // 2),
                  (cx + size, mid), (cx, mid + size // 2), (cx, mid + size // 4),
                  (cx - size, mid + size // 4)], fill=MUTED)
    for shape, mask in tiling:
        part = cells_of(mask)
        paint_piece(draw, right, top, CELL, part, PIECE[shape])
        label_piece(image, right, top, CELL, part, shape, t.small)
    names = " + ".join(labels.piece_label(s.value) for s in pieces)
    line = fonts.fit(names, t.body, WIDTH - 2 * t.small)
    fonts.draw(image, WIDTH // 2, top + rows * CELL + int(t.body * 1.3), line, t.body, INK, anchor="mm")
    return to_png(image)
