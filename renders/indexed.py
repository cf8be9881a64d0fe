"""Drawing straight onto the fixed palette: "P" images whose pixels are palette indexes.

Every image is saved as a palette PNG (see :mod:`renders.palette`). Drawn in RGB, an image has to
be mapped onto the palette afterwards (``quantize``: a nearest-colour search over every pixel,
about 2 ms for a player's mat); drawn in palette mode, every fill is already an index and the
PNG is written as it is. The private mat — drawn at every turn end and on every "My mat" tap —
is drawn this way, with the same drawing code as the RGB images: colours go through :func:`ink`,
which gives the colour for an RGB image and its palette index for a "P" one.

What RGB drawing got from blending, palette drawing gets from lookup tables:

* Antialiased text: each coverage level of a glyph mask becomes the palette colour nearest to the
  text colour blended over the index beneath it (:func:`paste_text`) — what quantizing the RGB
  blend gave, computed once per (background, colour) pair instead of per pixel.
* Transparent sprites (piece icons, arrows, card thumbnails): drawn on a canvas filled with
  :data:`CLEAR`, an index no colour uses, and pasted through the mask of every other index. Their
  edges are not antialiased (Pillow's rectangles and polygons never are), so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from .cache import MB, DerivedImages
from .palette import RGB, palette_colours

CLEAR = 255
"""The index of transparent sprite pixels; the palette holds fewer than 255 colours, so no
colour ever maps to it."""


@lru_cache(maxsize=1)
def _flat_palette() -> bytes:
    """The palette as :meth:`PIL.Image.Image.putpalette` takes it. Bytes, not a sequence of ints:
    Pillow turns a sequence into bytes again at every call (an ``array`` built item by item,
    some 0.15 M instructions per canvas, 1.1 M per mat)."""
    flat = [value for colour in palette_colours() for value in colour]
    return bytes(flat + [0] * (768 - len(flat)))


def index(colour: RGB) -> int:
    """The palette index of ``colour``, or of the palette colour nearest to it."""
    return _nearest((colour[0], colour[1], colour[2]))


@lru_cache(maxsize=4096)
def _nearest(colour: RGB) -> int:
    r, g, b = colour
    best, best_distance = 0, 1 << 30
    for i, (pr, pg, pb) in enumerate(palette_colours()):
        distance = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2
        if distance < best_distance:
            best, best_distance = i, distance
            if distance == 0:
                break
    return best


def ink(target: Image.Image | ImageDraw.ImageDraw, colour: RGB) -> RGB | int:
    """``colour`` as ``target`` (an image, or a drawing on one) takes it: its palette index on a
    "P" image (so Pillow never adds a colour to the palette), the colour itself otherwise."""
    return index(colour) if target.mode == "P" else colour


def canvas(size: tuple[int, int], colour: RGB | None) -> Image.Image:
    """A "P" image carrying the fixed palette, filled with ``colour`` (None: :data:`CLEAR`)."""
    image = Image.new("P", size, CLEAR if colour is None else index(colour))
    image.putpalette(_flat_palette())
    return image


def blank(mode: str, size: tuple[int, int], colour: RGB | None) -> Image.Image:
    """A new image in ``mode``: "P" (:func:`canvas`), "RGB", or "RGBA" (transparent if
    ``colour`` is None) — so one drawing function can make either kind."""
    if mode == "P":
        return canvas(size, colour)
    if colour is None:
        return Image.new(mode, size, (0, 0, 0, 0))
    return Image.new(mode, size, colour)


def opaque(sprite: Image.Image) -> Image.Image:
    """The mask of a "P" sprite's drawn pixels (every index but :data:`CLEAR`), made once per
    sprite (sprites are cached by whoever draws them)."""
    return _derived(sprite, ("opaque",), lambda: sprite.point(_NOT_CLEAR, "1"))


_NOT_CLEAR = [0 if i == CLEAR else 255 for i in range(256)]

_DERIVED = DerivedImages("renders.indexed._DERIVED", 1 * MB)
"""Images made from another image (a sprite's mask, a glyph on one background), remembered while
their source is referenced. ``Image.point`` costs ~0.1 ms in Python for its table alone, which
paid per sprite and per string was most of a mat's drawing; a mat needs about 5 KB of them."""


def _derived(source: Image.Image, what: tuple[object, ...], make: Callable[[], Image.Image]) -> Image.Image:
    """``make()``, remembered for the ``source`` object (see :class:`~renders.cache.DerivedImages`)."""
    return _DERIVED.get(source, what, make)


def paste_sprite(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste a transparent sprite: an RGBA one through its alpha, a "P" one through
    :func:`opaque`. A "P" image only takes "P" sprites (blending indexes means nothing)."""
    if image.mode == "P":
        if sprite.mode != "P":
            raise ValueError(f"a {sprite.mode} sprite cannot be pasted onto a palette image")
        image.paste(sprite, xy, opaque(sprite))
    else:
        image.paste(sprite, xy, sprite)


# -- text --------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def text_lut(background: int, colour: RGB) -> tuple[int, ...]:
    """Glyph coverage (0–255) -> the index nearest to ``colour`` blended by that much over the
    palette colour ``background`` (0 stays ``background``)."""
    base = palette_colours()[background] if background < len(palette_colours()) else colour
    out = []
    for v in range(256):
        t = v / 255
        blended = tuple(round(b + (c - b) * t) for b, c in zip(base, colour, strict=True))
        out.append(background if v == 0 else _nearest(blended))
    return tuple(out)


_COVERED = [0] + [255] * 255


def paste_text(image: Image.Image, colour: RGB, xy: tuple[int, int], mask: Image.Image) -> None:
    """Draw an "L" glyph ``mask`` (white on black) in ``colour`` at ``xy`` onto the "P" ``image``,
    antialiased through :func:`text_lut` over whatever indexes lie beneath it."""
    left, top = xy
    right, bottom = min(image.width, left + mask.width), min(image.height, top + mask.height)
    box = (max(0, left), max(0, top), right, bottom)
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    if box != (left, top, left + mask.width, top + mask.height):  # off the edge: rare, not kept
        mask = mask.crop((box[0] - left, box[1] - top, box[2] - left, box[3] - top))
    covered = _derived(mask, ("covered",), lambda: mask.point(_COVERED, "1"))
    under = image.crop(box)
    lowest, highest = under.getextrema()
    if lowest == highest:  # one background colour: one glyph image (nearly every string)
        glyph = _derived(mask, ("glyph", lowest, colour), lambda: mask.point(text_lut(lowest, colour)))
        image.paste(glyph, box, covered)
        return
    for _, background in under.getcolors(256) or ():
        here = under.point([255 if i == background else 0 for i in range(256)], "1")
        image.paste(mask.point(text_lut(background, colour)), box, ImageChops.logical_and(here, covered))
