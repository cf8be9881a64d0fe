"""Colours, and the fixed 256-colour palette every image is saved with.

The table and results images are drawn in RGB (so text is antialiased) and then mapped onto one
fixed palette before saving; the private mat and the move preview are drawn on that palette
directly (:mod:`renders.indexed`), which skips the mapping. A palette PNG holds one byte per
pixel instead of three, which makes it about three times smaller and several times faster to
compress — the difference between missing and meeting the 30 ms / 250 KB budget for the table
image. The palette is built from the colours we actually draw plus a few blends between each
background and the text colours used on it, so the antialiased edges of letters survive the
mapping. Mapping onto a *fixed* palette (rather than an adaptive one) is also what keeps the
output byte-for-byte deterministic.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from engine.pieces import SHAPES, Shape

RGB = tuple[int, int, int]


def rgb(code: str) -> RGB:
    """'#rrggbb' -> (r, g, b)."""
    value = int(code.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


# -- surfaces and text ---------------------------------------------------------------------------
PAGE = rgb("#e9e5dc")
PANEL = rgb("#f9f7f2")
PANEL_EDGE = rgb("#c8c0b0")
INK = rgb("#1c1e23")
MUTED = rgb("#6a6458")
WHITE = rgb("#ffffff")
HEADER = rgb("#2a2f3b")
ACCENT = rgb("#d99100")  # whose turn it is: a gold frame and tag
ACCENT_SOFT = rgb("#fdf1d3")
GOOD = rgb("#1f7a3a")
BAD = rgb("#b3261e")
SLOT = rgb("#ddd7cb")  # empty slots, dashed placeholders
FADED = rgb("#e3e0d9")  # a piece the reserve has run out of
FADED_EDGE = rgb("#b5afa3")

BANNER_END = rgb("#c05621")
BANNER_LAST = rgb("#b3261e")
BANNER_FINISH = rgb("#6b3fa0")
BANNER_OVER = rgb("#1f5f3a")

# -- cards -------------------------------------------------------------------------------------
CARD_WHITE = rgb("#fbfaf5")
CARD_WHITE_EDGE = rgb("#a9a192")
CARD_BLACK = rgb("#2b2d33")
CARD_BLACK_EDGE = rgb("#0d0e10")
HOLE_ON_WHITE = rgb("#5d687c")
HOLE_ON_BLACK = rgb("#97a2b4")
HOLE_LINE_ON_WHITE = rgb("#4b5568")
HOLE_LINE_ON_BLACK = rgb("#7f8a9c")
HIGHLIGHT = rgb("#ff2bd6")  # the proposed piece in a move preview
LOCK = rgb("#3a3f4a")
DONE = rgb("#6fae82")  # the recess of a completed card in a score pile

# -- pieces ------------------------------------------------------------------------------------
# Game convention: level 1 yellow, level 2 green, the two level-3 pieces orange and light blue,
# level-4 pieces in clearly different hues. Colour is never the only cue: pieces also get a dark
# outline and, where there is room, their code letters.
PIECE: dict[Shape, RGB] = {
    Shape.MONO: rgb("#f6c90e"),
    Shape.DOMINO: rgb("#46a546"),
    Shape.I3: rgb("#f07f13"),
    Shape.L3: rgb("#3fb4f0"),
    Shape.I4: rgb("#2446b8"),
    Shape.O4: rgb("#e0332f"),
    Shape.T4: rgb("#8e3fb0"),
    Shape.L4: rgb("#f06aa6"),
    Shape.S4: rgb("#8a5a36"),
    Shape.P5: rgb("#55707e"),
    Shape.U5: rgb("#0e8f80"),
    Shape.L5: rgb("#b8c22a"),
}
PIECE_EDGE = rgb("#15171b")
# Existing colours reused (the fixed palette, and so every golden image, stays as it is):
ARROW = ACCENT  # level-up arrows (Ghost Piece expansion) on reward badges, outlined like pieces
MARKER_WHITE = CARD_WHITE  # Line Clear's White marker, the colour of a white card
MARKER_BLACK = CARD_BLACK  # and the Black marker


def _luma(colour: RGB) -> float:
    r, g, b = colour
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    return INK if _luma(colour) > 0.52 else WHITE


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended towards ``b`` by ``t`` (0 = a, 1 = b)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# Backgrounds that carry text, with the text colours drawn on them.
_TEXT_PAIRS: tuple[tuple[RGB, tuple[RGB, ...]], ...] = (
    (PAGE, (INK, MUTED, BAD)),
    (PANEL, (INK, MUTED, BAD, GOOD)),
    (ACCENT_SOFT, (INK, MUTED)),
    (CARD_WHITE, (INK, MUTED)),
    (CARD_BLACK, (WHITE,)),
    (HEADER, (WHITE,)),
    (ACCENT, (WHITE, INK)),
    (BANNER_END, (WHITE,)),
    (BANNER_LAST, (WHITE,)),
    (BANNER_FINISH, (WHITE,)),
    (BANNER_OVER, (WHITE,)),
    (SLOT, (MUTED,)),
    (GOOD, (WHITE,)),
    (BAD, (WHITE,)),
    (LOCK, (WHITE,)),
    (INK, (WHITE,)),
    (WHITE, (INK,)),
    (HOLE_ON_WHITE, (WHITE,)),
    (HOLE_ON_BLACK, (INK,)),
) + tuple((colour, (text_on(colour),)) for colour in PIECE.values())

_STEPS = (0.2, 0.4, 0.6, 0.8)


@lru_cache(maxsize=1)
def palette_colours() -> tuple[RGB, ...]:
    """The fixed palette: every named colour, text-edge blends and a grey ramp (≤ 256)."""
    named = [value for name, value in sorted(globals().items()) if name.isupper() and _is_rgb(value)]
    colours: list[RGB] = list(dict.fromkeys(named + list(PIECE.values())))
    for bg, inks in _TEXT_PAIRS:
        for ink in inks:
            colours.extend(mix(bg, ink, t) for t in _STEPS)
    colours.extend(mix(PANEL, INK, t / 23) for t in range(24))  # greyed-out panels
    colours.extend(mix(PIECE[s], PIECE_EDGE, 0.5) for s in SHAPES)
    unique = list(dict.fromkeys(colours))
    if len(unique) > 256:
        raise AssertionError(f"palette has {len(unique)} colours; at most 256 fit")
    return tuple(unique)


def _is_rgb(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value)


@lru_cache(maxsize=1)
def palette_image() -> Image.Image:
    flat: list[int] = []
    for colour in palette_colours():
        flat.extend(colour)
    flat.extend([0] * (768 - len(flat)))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


PNG_COMPRESS_LEVEL = 2
"""zlib level for every PNG: 2 is within ~35% of 9 in size on these flat images at a fraction
of the time, and a fixed value keeps output bytes stable. Measured again for issue 30 on the rows
of 30 turn ends' tables and mats (302 bands, 56.6 MB of palette rows, CPU time of the same run):
level 2 192 ms and 2.29 MB; level 1 193 ms and 2.45 MB; level 3 214 ms and 2.11 MB; Z_RLE at any
level 218–227 ms and 3.55 MB; Z_FILTERED (level 1) 197 ms. Level 2 with the default strategy is
the fastest of zlib's and stays for :func:`to_png`. The banded images (:mod:`renders.layers`:
the table and the mat, at every turn end) deflate with ISA-L instead (the ``isal`` package, its
level 1): on 60 turn ends' bands, 28 ms with their adler-32s against zlib's 154 ms, and 2.17 MB
against 2.33 (zlib-ng: 49 ms and 3.04 MB at its level 1, 68 ms and 2.08 MB at 2). Pixels are the
same whichever compresses them."""


def to_png(image: Image.Image) -> bytes:
    """Encode an image as PNG bytes on the fixed palette: an RGB drawing is mapped onto it first;
    a "P" image drawn on it (:mod:`renders.indexed`: the mat) is written as it is."""
    if image.mode == "P":
        indexed = image
    else:
        indexed = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    indexed.save(buffer, "PNG", optimize=False, compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()
