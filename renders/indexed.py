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

The mat maps a colour onto its exactly nearest palette colour. The table image was drawn in RGB
and quantized, and Pillow's quantize maps 24 of the palette's colours (and some text blends) to
another index than the exact nearest one (it searches a cache of 6-bit colours). Parts of the
table drawn on the palette must give the pixels quantizing gave, so inside
:func:`matching_quantize` the drawing keeps solid colours at their own index (mapped at the end
by :func:`quantize_lut`, as quantizing the RGB drawing maps them) and blends — text, antialiased
discs — come from tables made by Pillow itself: the RGB blend drawn on a strip, then quantized.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable
from contextvars import ContextVar, Token
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from .cache import MB, DerivedImages, KeptBytes, image_bytes
from .palette import RGB, palette_colours, palette_image

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


def point(image: Image.Image, lut: list[int] | tuple[int, ...], mode: str | None = None) -> Image.Image:
    """``image.point(lut, mode)`` for a table of ints, without Pillow's wrapper, which rounds
    every entry again at each call: 256 ``round()`` calls, as much as drawing a glyph (some 4 M
    instructions per table image, over its glyphs' tables and its parts' mapping)."""
    return image._new(image.im.point(list(lut), mode))


def index(colour: RGB) -> int:
    """The palette index of ``colour``, or of the palette colour nearest to it (inside
    :func:`matching_quantize`, a colour not in the palette: the index :func:`quantize_lut` maps
    to what quantizing it gives)."""
    key = (colour[0], colour[1], colour[2])
    if not _MATCHING.get():
        return _nearest(key)
    drawing = _matching_index(key)
    return _quantizing()[0][drawing] if _FINAL.get() else drawing


@lru_cache(maxsize=1)
def _by_lightness() -> tuple[list[int], list[tuple[int, int, int, int, int]]]:
    """The fixed palette's entries ``(red + green + blue, red, green, blue, index)`` in order of
    that sum, and the sums (computed once: the palette never changes in a process)."""
    entries = sorted((r + g + b, r, g, b, i) for i, (r, g, b) in enumerate(palette_colours()))
    return [entry[0] for entry in entries], entries


@lru_cache(maxsize=4096)
def _nearest(colour: RGB) -> int:
    """The palette index nearest to ``colour`` (squared distance in RGB; of equally near ones,
    the lowest index).

    Why not a scan of the whole palette: a text colour table (:func:`text_lut`) asks for 256
    colours at once, and scanning the 223 entries for each took some 9 ms, paid by the first
    image that drew that colour over that background — a turn post a player waited for (issue
    30). The entries are walked outwards from the query's red + green + blue instead: two colours
    whose sums differ by ``d`` are at least ``d * d / 3`` apart (squared), so an entry that far
    beyond the best found so far ends the walk on its side — the same answer from far fewer
    entries (``tests/test_renders_indexed.py`` compares it with the whole scan)."""
    sums, entries = _by_lightness()
    r, g, b = colour
    total = r + g + b
    best, best_distance = len(entries), 1 << 30
    start = bisect_left(sums, total)
    for step in (1, -1):
        k = start if step == 1 else start - 1
        while 0 <= k < len(entries):
            ps, pr, pg, pb, i = entries[k]
            if (ps - total) * (ps - total) > 3 * best_distance:
                break
            distance = (pr - r) * (pr - r) + (pg - g) * (pg - g) + (pb - b) * (pb - b)
            if distance < best_distance or (distance == best_distance and i < best):
                best, best_distance = i, distance
            k += step
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
    """A new image in ``mode``: "P" (:func:`canvas`; :data:`MATCHING_MODE` too), "RGB", or "RGBA"
    (transparent if ``colour`` is None) — so one drawing function can make either kind."""
    if mode in ("P", MATCHING_MODE, FINAL_MODE):
        return canvas(size, colour)
    if colour is None:
        return Image.new(mode, size, (0, 0, 0, 0))
    return Image.new(mode, size, colour)


def opaque(sprite: Image.Image) -> Image.Image:
    """The mask of a "P" sprite's drawn pixels (every index but :data:`CLEAR`), made once per
    sprite (sprites are cached by whoever draws them)."""
    return _derived(sprite, ("opaque",), lambda: point(sprite, _NOT_CLEAR, "1"))


_NOT_CLEAR = [0 if i == CLEAR else 255 for i in range(256)]

_DERIVED = DerivedImages("renders.indexed._DERIVED", 4 * MB)
"""Images made from another image (a sprite's mask, a glyph on one background), remembered while
their source is referenced. ``Image.point`` costs ~0.1 ms in Python for its table alone, which
paid per sprite and per string was most of a mat's drawing; a mat needs about 5 KB of them, the
table's panels (drawn on the palette since issue 30) some 3 MB over a game's turn ends."""


def _derived(source: Image.Image, what: tuple[object, ...], make: Callable[[], Image.Image]) -> Image.Image:
    """``make()``, remembered for the ``source`` object (see :class:`~renders.cache.DerivedImages`)."""
    return _DERIVED.get(source, what, make)


FINAL_MODE = "Pf"
"""The sprites' mode inside :func:`matching_quantize` with ``final``: their indexes already mapped."""

MATCHING_MODE = "Pq"
"""The mode :func:`blank` and the sprite makers take for "P" sprites drawn inside
:func:`matching_quantize` (so their caches keep them apart from the mat's)."""


def sprite_mode(image: Image.Image) -> str:
    """The mode of the sprites pasted onto ``image``: "P" onto a palette image (:data:`MATCHING_MODE`
    inside :func:`matching_quantize`), else RGBA."""
    if image.mode != "P":
        return "RGBA"
    if not _MATCHING.get():
        return "P"
    return FINAL_MODE if _FINAL.get() else MATCHING_MODE


def paste_sprite(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste a transparent sprite: an RGBA one through its alpha, a "P" one through
    :func:`opaque`. A "P" image only takes "P" sprites (blending indexes means nothing)."""
    if image.mode == "P":
        if sprite.mode != "P":
            raise ValueError(f"a {sprite.mode} sprite cannot be pasted onto a palette image")
        x, y = xy
        _paste(image, sprite, (x, y, x + sprite.width, y + sprite.height), opaque(sprite))
    else:
        image.paste(sprite, xy, sprite)


def paste_outline(image: Image.Image, sprite: Image.Image, xy: tuple[int, int], border: int) -> None:
    """:func:`paste_sprite` for a "P" sprite drawn only within ``border`` pixels of its edges (a
    frame: :func:`renders.draw.rounded_box` without a fill): its four edge strips pasted, not the
    transparent inside, which a masked paste reads pixel by pixel all the same (a changed card's
    frame is some 20,000 pixels, of which a fifth are drawn). The same pixels: a sprite whose
    inside is not all :data:`CLEAR` is pasted whole."""
    x, y = xy
    for (left, top, right, bottom), strip, mask in _outline_strips(sprite, border):
        _paste(image, strip, (x + left, y + top, x + right, y + bottom), mask)


Strips = tuple[tuple[tuple[int, int, int, int], Image.Image, Image.Image], ...]
"""Pieces of a sprite to paste: each one's box in the sprite, its pixels and its mask."""


def _outline_strips(sprite: Image.Image, border: int) -> Strips:
    """The strips of ``sprite`` to paste (their boxes in it, pixels and masks), made once."""
    key = (id(sprite), border)
    found = _OUTLINES.find(key)
    if found is not None and found[0] is sprite:
        return found[1]
    width, height = sprite.size
    inside = (border, border, width - border, height - border)
    if inside[0] >= inside[2] or inside[1] >= inside[3] or sprite.crop(inside).getextrema() != (CLEAR, CLEAR):
        boxes = [(0, 0, width, height)]
    else:
        boxes = [(0, 0, width, border), (0, height - border, width, height),
                 (0, border, border, height - border), (width - border, border, width, height - border)]
    strips = []
    for box in boxes:
        strip = sprite.crop(box)
        strips.append((box, strip, point(strip, _NOT_CLEAR, "1")))
    made = tuple(strips)
    cost = image_bytes(sprite) + sum(2 * image_bytes(strip) for _, strip, _ in made)
    _OUTLINES.keep(key, (sprite, made), cost)
    return made


_OUTLINES: KeptBytes[tuple[Image.Image, Strips]] = KeptBytes("renders.indexed._OUTLINES", MB // 4)
"""A frame sprite (kept referenced, so that its id stays its own) -> its strips
(:func:`paste_outline`): frames come in a few sizes (puzzles, completed cards, market cards)."""


def _paste(image: Image.Image, source: Image.Image, box: tuple[int, int, int, int],
           mask: Image.Image | None = None) -> None:
    """``image.paste(source, box, mask)`` (``box`` the size of ``source``) without Pillow's
    wrapper, which checks and loads every image again at each call: a table image pastes some
    hundred glyphs and sprites."""
    if image.readonly:  # pragma: no cover - the canvases drawn on are never read-only
        image.paste(source, box, mask)
    elif mask is None:
        image.im.paste(source.im, box)
    else:
        image.im.paste(source.im, box, mask.im)


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
    lowest = _one_index(image.im.crop(box))
    lut = (_final_text_lut if _FINAL.get() else _matching_text_lut) if _MATCHING.get() else text_lut
    if lowest is not None:  # one background colour: one glyph image (nearly every string)
        _read(lowest)
        # Kept as "P" (the indexes as they are): an "L" glyph would be converted at every paste;
        # mapped straight into a "P" image, not mapped and then converted (a copy more, some
        # 0.4 M instructions a table image). Where the glyph has no ink it holds the background
        # (the tables map 0 to it), which is what lies beneath: pasted whole, no mask needed.
        glyph = _derived(mask, ("glyph", lowest, colour, lut), lambda: point(mask, lut(lowest, colour), "P"))
        _paste(image, glyph, box)
        return
    covered = _derived(mask, ("covered",), lambda: point(mask, _COVERED, "1"))
    under = image.crop(box)
    for _, background in under.getcolors(256) or ():
        assert isinstance(background, int)  # a "P" image's colours are indexes
        _read(background)
        here = point(under, [255 if i == background else 0 for i in range(256)], "1")
        image.paste(point(mask, lut(background, colour)), box, ImageChops.logical_and(here, covered))


# -- palette drawing that gives what RGB drawing and quantizing gave ---------------------------

_MATCHING: ContextVar[bool] = ContextVar("renders_matching_quantize", default=False)
_FINAL: ContextVar[bool] = ContextVar("renders_matching_final", default=False)


class NotFinal(Exception):
    """Drawing with final indexes read an index that more than one drawing index maps to
    (:func:`matching_quantize` with ``final``): the part is drawn again the usual way."""


def matching_quantize(final: bool = False) -> _Matching:
    """Inside the block, palette drawing gives the pixels that drawing in RGB and quantizing gives
    once :func:`quantize_lut` maps them: blends come from quantized tables (a context variable,
    as :func:`renders.labels.speaking`: threads keep their own).

    ``final``: every index is drawn already mapped (solid colours, glyph tables, blends and
    sprites, which then have their own mode, :data:`FINAL_MODE`), so the drawing needs no
    mapping pass. A blend reads the index beneath it to know which colour was drawn there, and
    a mapped index may stand for several (the white card's colour is mapped to the panel's):
    reading one of those raises :class:`NotFinal`, and the caller draws the usual way
    (:func:`renders.layers._draw_part`; the base game's decks, the reserve's slots on the panel
    colour). The same pixels either way."""
    return _Matching(final)


class _Matching:
    """The block of :func:`matching_quantize`: a class, not a generator made a context manager
    (``contextlib`` costs some 2 microseconds a block, and a table image draws a dozen)."""

    __slots__ = ("_final", "_tokens")

    def __init__(self, final: bool) -> None:
        self._final = final
        self._tokens: tuple[Token[bool], Token[bool]] | None = None

    def __enter__(self) -> None:
        self._tokens = (_MATCHING.set(True), _FINAL.set(self._final))

    def __exit__(self, *exc: object) -> None:
        assert self._tokens is not None
        token, final_token = self._tokens
        _FINAL.reset(final_token)
        _MATCHING.reset(token)


def _read(drawn: int) -> None:
    """A blend is about to read ``drawn`` as the index beneath it: with final indexes, only an
    index no other drawing index maps to says which colour was drawn there."""
    if _FINAL.get() and drawn not in _unambiguous():
        raise NotFinal(drawn)


@lru_cache(maxsize=1)
def _unambiguous() -> frozenset[int]:
    """The final indexes that only their own drawing index maps to (:func:`quantize_lut`): read
    on a drawing in final indexes, each stands for the colour drawn there, as on the drawing."""
    lut = _quantizing()[0]
    sources: dict[int, list[int]] = {}
    for drawing, target in enumerate(lut):
        sources.setdefault(target, []).append(drawing)
    return frozenset(target for target, drawn in sources.items() if drawn == [target])


@lru_cache(maxsize=64)
def reads_as_final(colour: RGB) -> bool:
    """Whether a blend over solid ``colour`` can be drawn in final indexes (inside
    :func:`matching_quantize` with ``final``): its final index is unambiguous. A drawing whose
    blends all lie over such colours never raises :class:`NotFinal` there; over another (the
    panels' fill, which the white card's colour maps to as well) it always does."""
    return _quantizing()[0][_matching_index((colour[0], colour[1], colour[2]))] in _unambiguous()


@lru_cache(maxsize=1024)
def _final_text_lut(background: int, colour: RGB) -> tuple[int, ...]:
    """:func:`_matching_text_lut` mapped by :func:`quantize_lut` (``background`` is one of
    :func:`_unambiguous`, which the lut keeps)."""
    lut = _quantizing()[0]
    return tuple(lut[i] for i in _matching_text_lut(background, colour))


@lru_cache(maxsize=1)
def _quantizing() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(drawing index -> the index quantizing gives, that index -> a drawing index mapped to it).

    A solid colour is drawn at its own index ``i`` (:func:`index`), and quantizing its RGB gives
    ``lut[i]``. A blend is drawn at an index the lut maps to what quantizing the blend gives:
    that index itself where the lut keeps it, else a palette colour the lut maps to it, else one
    of the unused indexes after the palette (where no palette colour quantizes to it)."""
    colours = palette_colours()
    strip = Image.new("RGB", (len(colours) + 1, 1))
    strip.putdata([*colours, (0, 0, 0)])  # the index after the palette: black, as Pillow pads it
    lut = list(_quantized(strip))
    back: dict[int, int] = {}
    for i, target in enumerate(lut):
        back.setdefault(target, i)
    for target in range(len(lut)):
        if lut[target] == target:
            back[target] = target
    spare = len(lut)
    for target in range(len(lut)):
        if target not in back:
            back[target] = spare
            lut.append(target)
            spare += 1
    if spare >= CLEAR:  # pragma: no cover - the palette has 223 colours
        raise AssertionError("no room after the palette for the indexes of quantized blends")
    lut.extend(range(len(lut), 256))
    return tuple(lut), tuple(back.get(target, target) for target in range(256))


def _quantized(image: Image.Image) -> bytes:
    """The palette indexes quantizing an RGB image gives (what :func:`renders.palette.to_png` and
    :mod:`renders.layers` do with RGB drawings)."""
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE).tobytes()


def quantize_lut() -> tuple[int, ...]:
    """For :meth:`PIL.Image.Image.point`: an image drawn inside :func:`matching_quantize` ->
    the indexes quantizing the same drawing in RGB gives."""
    return _quantizing()[0]


@lru_cache(maxsize=1024)
def _matching_index(colour: RGB) -> int:
    """:func:`index` inside :func:`matching_quantize`: a palette colour's own index (blends over
    it start from its exact colour), another colour's that quantizing maps where it maps it."""
    nearest = _nearest(colour)
    if palette_colours()[nearest] == colour:
        return nearest
    return _quantizing()[1][_quantized(Image.new("RGB", (1, 1), colour))[0]]


def _drawn_colour(index: int) -> RGB:
    """The RGB colour a drawing index stands for (a blend's index: what it quantizes to)."""
    colours = palette_colours()
    target = index if index < len(colours) else _quantizing()[0][index]
    return colours[target] if target < len(colours) else (0, 0, 0)


@lru_cache(maxsize=1024)
def _matching_text_lut(background: int, colour: RGB) -> tuple[int, ...]:
    """:func:`text_lut` inside :func:`matching_quantize`: each coverage of ``colour`` over
    ``background`` blended by Pillow on an RGB strip (as RGB text is drawn), quantized."""
    strip = Image.new("RGB", (256, 1), _drawn_colour(background))
    strip.paste(colour, (0, 0, 256, 1), _ramp())
    back = _quantizing()[1]
    return (background, *(back[q] for q in _quantized(strip)[1:]))


@lru_cache(maxsize=1)
def _ramp() -> Image.Image:
    """An "L" strip 256 px wide holding 0, 1, ..., 255."""
    ramp = Image.new("L", (256, 1))
    ramp.putdata(list(range(256)))
    return ramp


def paste_blended(
    image: Image.Image, sprite: Image.Image, xy: tuple[int, int], key: Hashable | None = None,
) -> None:
    """Paste an RGBA ``sprite`` whose edges are antialiased (a badge's disc) through its alpha:
    on a "P" image inside :func:`matching_quantize`, what pasting it on the RGB drawing and
    quantizing gives (made once per sprite and background colour beneath it).

    ``key``: what the sprite shows (a market card's face), to keep its blends by (in
    :data:`_BLENDS`) rather than with the sprite object among the small derived images."""
    if image.mode != "P":
        image.paste(sprite, xy, sprite)
        return
    if not _MATCHING.get():
        raise ValueError("an antialiased sprite is pasted onto a palette image only to match quantizing")
    left, top = xy
    box = (left, top, left + sprite.width, top + sprite.height)
    under_core = image.im.crop(box)
    lowest = _one_index(under_core)
    under = image._new(under_core)
    final = _FINAL.get()
    if lowest is None:
        for _, beneath in under.getcolors(256) or ():
            assert isinstance(beneath, int)
            _read(beneath)
        drawn = _blend(under, sprite, final)
    elif key is None:
        _read(lowest)
        drawn = _derived(sprite, ("blended", lowest, final), lambda: _blend(under, sprite, final))
    else:
        _read(lowest)
        found = _BLENDS.find((key, lowest, final))
        if found is None:
            blended = _blend(under, sprite, final)
            seen = point(sprite.getchannel("A"), _COVERED, "1")
            found = blended, None if _shows_under(blended, seen, lowest) else seen
            _BLENDS.keep((key, lowest, final), found, image_bytes(blended) + image_bytes(seen))
        _paste(image, found[0], box, found[1])
        return
    image.paste(drawn, box, _derived(sprite, ("seen",), lambda: point(sprite.getchannel("A"), _COVERED, "1")))


_BLENDS: KeptBytes[tuple[Image.Image, Image.Image | None]] = KeptBytes("renders.indexed._BLENDS", MB)
"""(what a sprite shows, the drawing index beneath it) -> the sprite blended over that index and
the mask of its seen pixels (:func:`paste_blended` with a key): the table's market cards, ~66 KB
each, so that a card coming into the market is not quantized again when it was seen before. The
mask is None where the blend holds the index beneath wherever the sprite is unseen (a card's
corners over the page): pasted whole, a copy instead of a masked paste of some 50,000 pixels."""


def _shows_under(blended: Image.Image, seen: Image.Image, under: int) -> bool:
    """Whether ``blended`` holds ``under`` wherever ``seen`` is 0 (so pasting it whole over
    ``under`` gives what pasting it through ``seen`` gives)."""
    check = Image.new("P", blended.size, under)
    check.im.paste(blended.im, (0, 0, *blended.size), seen.im)
    return _raw_bytes(check.im) == _raw_bytes(blended.im)


_WHOLE_CHECK_PIXELS = 4096
"""From this many pixels, :func:`_one_index` compares the raw bytes (copied and compared by
``memcpy``/``memcmp``: a market card's 50,000 pixels in a tenth of the time) instead of
``getextrema`` (a comparison per pixel, quicker for a string's small box)."""


def _one_index(core: Any) -> int | None:
    """The index every pixel of a "P" image core holds, None when they differ."""
    width, height = core.size
    if width * height < _WHOLE_CHECK_PIXELS:
        lowest, highest = core.getextrema()
        return int(lowest) if lowest == highest else None
    data = _raw_bytes(core)
    return data[0] if data == bytes((data[0],)) * len(data) else None


def _raw_bytes(core: Any) -> bytes:
    """An 8-bit image core's pixels, in one piece (as :func:`renders.layers._raw`)."""
    width, height = core.size
    encoder = Image._getencoder(core.mode, "raw", core.mode)
    encoder.setimage(core, (0, 0, width, height))
    pieces: list[bytes] = []
    while True:
        _, status, data = encoder.encode(max(1, width * height))
        pieces.append(data)
        if status:
            break
    return data if len(pieces) == 1 else b"".join(pieces)


def _blend(under: Image.Image, sprite: Image.Image, final: bool = False) -> Image.Image:
    """``sprite`` pasted through its alpha on the RGB colours ``under`` stands for, quantized, as
    drawing indexes."""
    lowest, highest = under.getextrema()
    if lowest == highest and isinstance(lowest, int):  # one colour beneath (a market card's face)
        rgb = Image.new("RGB", under.size, _drawn_colour(lowest))
    else:
        rgb = Image.new("RGB", under.size)
        rgb.putdata([_drawn_colour(i) for i in under.tobytes()])
    rgb.paste(sprite, (0, 0), sprite)
    quantized = rgb.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return quantized if final else point(quantized, _quantizing()[1])
