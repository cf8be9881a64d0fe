"""Images made of horizontal bands, each drawn, mapped onto the palette and compressed once per
content, then joined into one PNG.

Between two turn posts most of the table image is what it was: the market and the reserve often,
most players' panels always. Drawing it again, mapping it onto the palette and compressing it
(about two thirds of a render) did the same work for the same pixels. So an image is described
as bands stacked from the top — each made of one or more parts side by side, and each part of a
*key* (everything its painter reads: the words it prints, the state it shows, the language) and a
*painter* — and a band whose parts' keys were seen before costs nothing but a cache look-up: its
rows are kept compressed. A part keyed ``None`` is drawn every time.

Why the pixels are the ones one canvas would hold:

* Mapping onto the fixed palette is per pixel (no dithering), so mapping parts one by one gives
  what mapping the whole image gives.
* A part is drawn on a canvas of its own, filled with the image's background, with the same
  painter as :func:`draw` uses; parts never draw outside their box. The canvas is placed so that
  the painter's coordinates differ from the whole image's by even numbers only: Python rounds
  halves to even (``round(2.5) == 2``), and a shift by an even number keeps every rounding as it
  was. (``tests/test_renders_layers.py`` compares the two ways over whole games.)
* PNG rows are compressed band by band (each band a run of complete deflate blocks with no
  references before it, ended by a sync flush), joined, and closed with one final empty block;
  the zlib checksum of the whole is combined from the bands' checksums.

The compressed bands and the parts of bands with several parts are kept within byte budgets
(:mod:`renders.cache`).
"""

from __future__ import annotations

import struct
import types
import zlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from PIL import Image

try:  # ISA-L's deflate: ~5x faster than zlib's on these rows, and as small as zlib's level 2
    from isal import isal_zlib

    deflating: types.ModuleType = isal_zlib
except ImportError:  # pragma: no cover - isal is a dependency; zlib's streams decode to the same pixels
    deflating = zlib

from .cache import MB, HashedKey, KeptBytes
from .indexed import NotFinal, canvas, index, matching_quantize, point, quantize_lut
from .palette import PNG_COMPRESS_LEVEL, RGB, palette_image

Painter = Callable[[Image.Image, int, int], None]
"""Draws a part with its box's top-left corner at (x, y) of the image it is given."""


@dataclass(frozen=True, slots=True)
class Part:
    """Columns ``x`` to ``x + width`` of a band, drawn by ``paint``; ``key``: everything the
    painter reads (None: not kept, drawn every time).

    ``cover``: drawn over the part once ``paint`` has drawn it, and ``cover_key`` everything it
    reads. What changes from one post to the next without changing the rest — the frames around
    what changed since the previous post — goes there: the part's pixels are kept without it, so
    a panel whose frames came or went is not drawn again. A cover draws solid palette colours
    only, over pixels ``paint`` never draws on afterwards (so drawing it last changes nothing),
    and on palette images its inks are the indexes mapping its colours onto the palette gives
    (:func:`renders.indexed.ink`).

    ``mode`` "P": in an RGB layout, the part is drawn straight on the palette inside
    :func:`renders.indexed.matching_quantize` — in its final indexes where it can, else mapped
    by :func:`~renders.indexed.quantize_lut` — instead of drawn in RGB and quantized: the same
    pixels (the painter draws in both modes; what it draws is mapped the way quantizing maps
    it), without the RGB canvas, four times the bytes to paste, or the per-pixel colour search."""

    x: int
    width: int
    key: Hashable | None
    paint: Painter
    cover: Painter | None = None
    cover_key: Hashable = None
    mode: str | None = None
    keep: bool = True
    """False: not kept on its own (a band keyed with it still is): for a part no later image
    shows again (the panel of the player whose turn it is: at the next turn end they have
    played), so it does not push out of :data:`_PART_IMAGES` parts that will be shown again."""
    drawn: Callable[[], Image.Image] | None = None
    """With ``mode`` "P" in an RGB layout: the part's palette pixels (mapped as
    :func:`~renders.indexed.quantize_lut` maps) made by whoever drew them for several parts at
    once (a panel's head and body), instead of ``paint`` on a canvas of the part's own and
    mapped there; the same pixels. :func:`draw` paints with ``paint``."""
    final: bool = True
    """With ``mode`` "P" in an RGB layout: False for a part whose drawing in final indexes is
    always given up (:class:`~renders.indexed.NotFinal`: it blends over an index several colours
    map to — the reserve's slots and the market's decks, all 136 of their drawings in the 2- and
    4-player samples), so it is drawn and mapped at once instead of drawn twice."""


@dataclass(frozen=True, slots=True)
class Band:
    """Rows ``top`` to ``top + height`` of the image, made of ``parts`` (left to right, not
    overlapping; what no part covers is background)."""

    top: int
    height: int
    parts: tuple[Part, ...]
    within: tuple[Band, ...] = ()
    """Bands drawn within this one's rows instead of ``parts`` (:func:`beside`): side by side
    in columns, their parts never overlapping; what none covers is background."""

    def placed(self) -> tuple[Band, ...]:
        """The bands whose parts make this one's rows: those within it, or itself."""
        return self.within or (self,)


def whole(
    top: int, height: int, width: int, key: Hashable | None, paint: Painter, mode: str | None = None,
) -> Band:
    """A band drawn by one painter across the whole width (``mode`` as :attr:`Part.mode`)."""
    return Band(top, height, (Part(0, width, key, paint, mode=mode),))


class Stack:
    """Bands laid from the top down: ``y`` is where the next one starts."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.bands: list[Band] = []
        self.y = 0

    def add(self, height: int, key: Hashable | None, paint: Painter, mode: str | None = None) -> None:
        """A band across the whole width (:func:`whole`), ``height`` rows from ``y``."""
        self.extend(whole(self.y, height, self.width, key, paint, mode))

    def extend(self, *bands: Band) -> None:
        """Bands made elsewhere, starting at ``y`` one after another."""
        for band in bands:
            if band.top != self.y:
                raise ValueError(f"a band starting at {band.top} cannot follow row {self.y}")
            self.bands.append(band)
            self.y += band.height

    def layout(self, background: RGB, mode: str = "RGB") -> Layout:
        return Layout(self.width, self.y, background, tuple(self.bands), mode)


def beside(top: int, bottom: int, columns: Sequence[Sequence[Band]]) -> Band:
    """Columns of bands, each column's bands laid down its own rows between ``top`` and
    ``bottom`` (its parts at their own columns of the image; rows no band of a column covers are
    background there), as one band drawn on one canvas (:attr:`Band.within`).

    Why not full-width bands cut wherever a band of any column starts or ends: beside the shared
    table, whose bands change at nearly every turn end, stand the panels, two of which change at
    every turn end, so such a band was seldom found kept (a tenth of them over whole 2- to
    4-player games) while every panel was cut in some six pieces, each looked up, cropped and
    pasted on its own. Each part is still kept on its own (a panel, a market slot, a reserve
    shape): drawn once and pasted whole."""
    within = tuple(band for column in columns for band in column)
    for band in within:
        if band.within or band.top < top or band.top + band.height > bottom:
            raise ValueError(f"a band of rows {band.top} to {band.top + band.height} is not within"
                             f" {top} to {bottom}")
    return Band(top, bottom - top, (), within)


@dataclass(frozen=True, slots=True)
class Layout:
    """An image as bands: ``mode`` "RGB" (drawn in RGB, then mapped onto the palette) or "P"
    (drawn on the palette, :mod:`renders.indexed`)."""

    width: int
    height: int
    background: RGB
    bands: tuple[Band, ...]
    mode: str = "RGB"


def draw(layout: Layout) -> Image.Image:
    """Every band painted on one canvas, in ``layout.mode``: the reference the PNG matches (tests
    and tools read it; :func:`png` never draws this way)."""
    image = (
        canvas((layout.width, layout.height), layout.background) if layout.mode == "P"
        else Image.new(layout.mode, (layout.width, layout.height), layout.background)
    )
    for band in layout.bands:
        for placed in band.placed():
            for part in placed.parts:
                part.paint(image, part.x, placed.top)
                if part.cover is not None:
                    part.cover(image, part.x, placed.top)
    return image


# -- the parts and bands kept ------------------------------------------------------------------

_SEGMENTS: KeptBytes[tuple[bytes, int, int]] = KeptBytes("renders.layers._SEGMENTS", 2 * MB)
"""Band key -> (its rows compressed, their adler-32, their length): some 2-20 KB per band."""

_PARTS: KeptBytes[tuple[bytes, tuple[int, int]]] = KeptBytes("renders.layers._PARTS", 2 * MB)
"""Part key -> the part's palette indexes, compressed, and its size: for bands where another part
changed (a player's panel beside the one whose turn it was). Compressed, a panel's part is some
5 KB instead of 90 KB, so the budget holds the panels of some twenty times more games — what
decides whether a worker drawing many channels' posts finds them at all (kept raw, the
panels of 50 interleaved games overflowed even 32 MB); compressing costs ~0.3 ms, drawing a
panel again ~1.5 ms. Parts go there when :data:`_PART_IMAGES` drops them, once the image that
dropped them is done (:func:`spill_pending`)."""


def _part_bytes(image: Image.Image) -> int:
    """What a part ready to paste counts for in :data:`_PART_IMAGES` and :data:`_SET_ASIDE`."""
    return image.width * image.height + 64


def _compress_part(key: Hashable, image: Image.Image) -> None:
    """Keep a part compressed in :data:`_PARTS` (unless it is already)."""
    if key not in _PARTS:
        data = deflating.compress(_raw(image), _PART_LEVEL, -15)
        _PARTS.keep(key, (data, image.size), len(data) + 64)


_SET_ASIDE: KeptBytes[Image.Image] = KeptBytes("renders.layers._SET_ASIDE", MB, _compress_part)
"""Parts :data:`_PART_IMAGES` dropped, not compressed yet: :func:`spill_pending` compresses them
once nobody waits for the image that dropped them. Past its budget (about three turn ends'
drops) the oldest are compressed at once, so a process that never calls it stays bounded."""


def _spill_part(key: Hashable, image: Image.Image) -> None:
    """A part :data:`_PART_IMAGES` dropped: set aside (:data:`_SET_ASIDE`) to be compressed, or
    compressed at once if it is larger than all the room there is."""
    if key in _PARTS:
        return
    if _part_bytes(image) > _SET_ASIDE.max_bytes:
        _compress_part(key, image)
    else:
        _SET_ASIDE.keep(key, image, _part_bytes(image))


def spill_pending() -> int:
    """Compress the parts :data:`_PART_IMAGES` dropped since the last call into :data:`_PARTS`,
    oldest first; returns how many.

    Why later: compressing a dropped part (a panel: some 90 KB, 0.05 ms) is for a post that may
    come much later, yet it was done inside the image that dropped it, about 0.24 ms of a turn
    end's table (docs/benchmarks.md). A render worker calls this once its image is written back
    (``bot.core.rendering.render``); until then an image that needs a part set aside takes it back."""
    waiting = _SET_ASIDE.take_all()
    for key, image in waiting:
        _compress_part(key, image)
    return len(waiting)


_PART_IMAGES: KeptBytes[Image.Image] = KeptBytes("renders.layers._PART_IMAGES", MB, _spill_part)
"""The parts used last, as images ready to paste: in front of :data:`_PARTS`, so that a game's
next post finds its unchanged panels without inflating them (some 3 M instructions a table
image, a tenth of it), and nothing is compressed until it is dropped from here (and then only
after the image that dropped it, :func:`spill_pending`). With many games interleaved, what is
dropped before it is used again is found compressed, as before."""
TILES: KeptBytes[Image.Image | None] = KeptBytes("renders.layers.TILES", MB)
"""Pieces a part is put together from when it is drawn again, on the palette and mapped, by
what they show: a table panel's box and tiles (:class:`renders.table._TiledPanel`), so that a
panel drawn again draws only the tiles it has not kept. ``None``: a tile that drew past its box
(the part is drawn whole instead)."""

_PART_LEVEL = 1
"""Kept parts are raw deflate (no zlib header or adler-32 checksum: nothing reads one, and the
checksum cost as much as a tenth of compressing them)."""

_BAND_LEVEL = 1 if deflating is not zlib else PNG_COMPRESS_LEVEL
"""ISA-L's level 1 (its levels are 0-3) compresses band rows smaller than zlib's level 2 (2.17
against 2.33 MB over 60 turn ends' tables and mats) in a fifth of the time (28 against 154 ms,
with the adler-32). Its streams are valid but not byte-stable: the same rows can deflate to other
bytes in another thread or process (the pixels never differ), so images are compared by their
pixels (tests/images.py), never by their PNG bytes."""
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KB window, "fast" level (what zlib writes for level 2)
_FINAL_BLOCK = zlib.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, -15).flush()  # an empty last block


def _on_palette(image: Image.Image) -> Image.Image:
    if image.mode == "P":
        return image
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def _draw_part(part: Part, band: Band, mode: str, background: RGB) -> Image.Image:
    """The part on the palette, drawn on its own canvas shifted by even numbers only."""
    dx, dy = part.x % 2, band.top % 2
    size = (part.width + dx, band.height + dy)
    if mode == "RGB" and part.mode == "P" and part.drawn is not None:
        return part.drawn()
    if mode == "RGB" and part.mode == "P":  # on the palette, as quantizing the RGB drawing maps
        final = _drawn_in_final_indexes(part, size, background, dx, dy) if part.final else None
        if final is None:  # a blend over an index several colours map to: drawn, then mapped
            with matching_quantize():
                own = canvas(size, background)
                part.paint(own, dx, dy)
            final = point(own, quantize_lut())
        mapped = final
    else:
        own = canvas(size, background) if mode == "P" else Image.new(mode, size, background)
        part.paint(own, dx, dy)
        mapped = _on_palette(own)
    return mapped.crop((dx, dy, dx + part.width, dy + band.height)) if dx or dy else mapped


def _drawn_in_final_indexes(
    part: Part, size: tuple[int, int], background: RGB, dx: int, dy: int,
) -> Image.Image | None:
    """The part drawn in final indexes, without the mapping pass over its every pixel; None when
    a blend read an index several colours map to (:class:`~renders.indexed.NotFinal`)."""
    try:
        with matching_quantize(final=True):
            drawn = canvas(size, background)
            part.paint(drawn, dx, dy)
    except NotFinal:
        return None
    return drawn


def _cover(found: Image.Image, part: Part, band: Band, background: RGB) -> Image.Image:
    """``found`` (the part's palette pixels) with the part's cover drawn over it, on a canvas
    shifted by even numbers only, as :func:`_draw_part` draws."""
    assert part.cover is not None
    dx, dy = part.x % 2, band.top % 2
    if not dx and not dy:
        found = found.copy()  # kept as it is (:data:`_PART_IMAGES`)
        part.cover(found, 0, 0)
        return found
    own = canvas((part.width + dx, band.height + dy), background)
    own.paste(found, (dx, dy))
    part.cover(own, dx, dy)
    return own.crop((dx, dy, dx + part.width, dy + band.height))


def _kept_part(key: HashedKey, part: Part, band: Band, layout: Layout) -> Image.Image:
    """A kept part's palette pixels — ready in :data:`_PART_IMAGES`, set aside, compressed in
    :data:`_PARTS`, or else drawn — and ready in :data:`_PART_IMAGES` afterwards."""
    found = _PART_IMAGES.find(key)
    if found is not None:
        return found
    found = _SET_ASIDE.take(key)
    if found is None:
        stored = _PARTS.find(key)
        found = (Image.frombytes("P", stored[1], deflating.decompress(stored[0], -15)) if stored is not None
                 else _draw_part(part, band, layout.mode, layout.background))
    _PART_IMAGES.keep(key, found, _part_bytes(found))
    return found


def _band_rows(band: Band, layout: Layout, part_keys: tuple[HashedKey | None, ...]) -> bytes:
    """The band's rows, each followed by the filter type of the PNG row after it (0, none): the
    PNG's rows are these bytes from one byte before (:func:`_segment`). So the parts stand at
    their own columns, and where the band starts on an even row, covers are drawn straight on
    the rows (shifted by an even number) instead of on a copy of the kept part. ``part_keys``:
    the parts' keys (those of the bands within it, in order), hashed once for the band's key and
    the parts' (:func:`_part_keys`)."""
    rows = Image.new("P", (layout.width + 1, band.height), index(layout.background))
    rows.im.paste(0, (layout.width, 0, layout.width + 1, band.height))
    even = band.top % 2 == 0
    keys = iter(part_keys)
    for placed in band.placed():
        several = len(placed.parts) > 1 or bool(band.within)
        y = placed.top - band.top
        for part in placed.parts:
            part_key = next(keys)
            # Where halves round depends on the parity of the part's place: part of the key.
            kept = part_key is not None and part.keep and (several or part.cover is not None)
            key = HashedKey((part_key, part.x % 2, placed.top % 2, placed.height, layout.mode, part.mode,
                             layout.background)) if kept else None
            found = (_draw_part(part, placed, layout.mode, layout.background) if key is None
                     else _kept_part(key, part, placed, layout))
            if part.cover is not None and not even:
                found = _cover(found, part, placed, layout.background)
            rows.im.paste(found.im, (part.x, y, part.x + found.width, y + found.height))
            if part.cover is not None and even:
                part.cover(rows, part.x, y)
    return _raw(rows)


def _raw(image: Image.Image) -> bytes:
    """``image.tobytes()`` encoded in one piece: Pillow's encodes 64 KB at a time and joins the
    pieces (a band's rows are up to 400 KB: a copy more, 1.7 M instructions a table image)."""
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    encoder.setimage(image.im, (0, 0, *image.size))
    pieces: list[bytes] = []
    while True:
        _, status, data = encoder.encode(max(1, image.width * image.height))
        pieces.append(data)
        if status:
            break
    if status < 0:  # pragma: no cover - a raw encoder of a mode Pillow has
        raise RuntimeError(f"raw encoder error {status}")
    return data if len(pieces) == 1 else b"".join(pieces)


def _part_keys(band: Band) -> tuple[HashedKey | None, ...]:
    """Each part's key hashed once (None: not kept). A part's key holds game state (dataclasses
    hashed field by field in Python) and goes into two keys — its band's and its own — which
    hashed it twice; hashed once, the band's key hashes only these wrappers."""
    return tuple(None if part.key is None else HashedKey(part.key)
                 for placed in band.placed() for part in placed.parts)


def _segment(band: Band, layout: Layout) -> tuple[bytes, int, int]:
    part_keys = _part_keys(band)
    key: HashedKey | None = None
    # A band of bands within it is seldom seen again (:func:`beside`): not kept.
    if not band.within and all(part_key is not None for part_key in part_keys):
        parts = tuple((part.x, part.width, part_key, part.cover_key, part.mode)
                      for part, part_key in zip(band.parts, part_keys, strict=True))
        key = HashedKey((layout.width, layout.background, layout.mode, band.height, band.top % 2, parts))
        found = _SEGMENTS.find(key)
        if found is not None:
            return found
    # The last row's byte after it is not the band's.
    rows = memoryview(_band_rows(band, layout, part_keys))[:-1]
    deflate = deflating.compressobj(_BAND_LEVEL, zlib.DEFLATED, -15)
    data = deflate.compress(_FILTER_NONE) + deflate.compress(rows) + deflate.flush(zlib.Z_SYNC_FLUSH)
    segment = (data, deflating.adler32(rows, _FILTER_ADLER), len(rows) + 1)
    if key is not None:
        _SEGMENTS.keep(key, segment, len(segment[0]) + 64)
    return segment


_FILTER_NONE = b"\0"  # the first row's filter type
_FILTER_ADLER = zlib.adler32(_FILTER_NONE)

_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The adler-32 of two byte strings joined, from theirs (zlib's ``adler32_combine``)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk. Its CRC-32 by ISA-L (carry-less multiplication: the 70 KB of a table's IDAT in
    a fifteenth of zlib's instructions), over the kind and then the data, not over a copy of both."""
    crc = deflating.crc32(data, deflating.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(layout: Layout) -> bytes:
    """The layout as a palette PNG (8 bits, the fixed palette), band by band."""
    tops = [band.top for band in layout.bands]
    if tops[:1] != [0] or [b.top + b.height for b in layout.bands] != [*tops[1:], layout.height]:
        raise ValueError("the bands must cover the image from top to bottom without gaps")
    parts: list[bytes] = [_ZLIB_HEADER]
    checksum = 1
    for band in layout.bands:
        data, adler, length = _segment(band, layout)
        parts.append(data)
        checksum = adler32_combine(checksum, adler, length)
    parts.append(_FINAL_BLOCK)
    parts.append(struct.pack(">I", checksum))
    header = struct.pack(">IIBBBBB", layout.width, layout.height, 8, 3, 0, 0, 0)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", _palette_bytes()),
        _chunk(b"IDAT", b"".join(parts)),
        _chunk(b"IEND", b""),
    ))


def _palette_bytes() -> bytes:
    return bytes(palette_image().getpalette() or ())[:768].ljust(768, b"\0")



def clear_layers() -> None:
    """Forget every kept band, part and tile (the next image draws each band again): for the bench's
    uncached figures and tests; the other drawing caches (fonts, cards) stay."""
    _SEGMENTS.cache_clear()
    _PART_IMAGES.cache_clear()
    _SET_ASIDE.cache_clear()
    _PARTS.cache_clear()
    TILES.cache_clear()
