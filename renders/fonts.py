"""Text: the Noto faces shipped in renders/fonts/, one face per run of characters, cached runs.

Player names come in every script, so renders carry their own fonts (subsets of the open-licensed
Noto families, rebuilt by tools/build_fonts.py) and never look at the host's fonts. Each character
is drawn with the first face in :data:`FACES` that has it: Noto Sans for Latin (with accents),
Greek and Cyrillic, then Arabic, Hebrew and a Pan-CJK face for Chinese, Japanese and Korean.
A string is cut into runs of one face and the runs are drawn on a shared baseline. Which face has
which characters is read from renders/fonts/coverage.json, written with the subsets.

* Characters no face has — emoji, rare symbols, invisible joiners — are dropped, never drawn as
  boxes; :func:`display_name` falls back to "Player N" when nothing readable is left.
* Right-to-left names are joined and reordered by :mod:`renders.bidi` before drawing, and every
  face uses Pillow's basic layout, so the pixels are the same whether or not Pillow has libraqm.
* There is one weight: "bold" is the regular face with a stroke in the same colour.

Rendered strings are cached as masks: the same names, numbers and labels appear on every image
of a game, and pasting a cached mask is several times faster than laying text out again.
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

from PIL import Image, ImageDraw, ImageFont

from . import labels
from .bidi import base_direction, visual
from .cache import MB, byte_lru, image_bytes
from .graphemes import clusters, cuts
from .indexed import paste_text
from .palette import RGB

FONT_DIR = Path(__file__).resolve().parent / "fonts"
# Fallback order: the first face that has a character draws it.
FACES = (
    "NotoSans-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansCJK-Regular.otf",
)
ELLIPSIS = "…"
RLM = "\u200f"
"""The right-to-left mark: keeps a shortened right-to-left name's ellipsis at its end (drawn at
its left); like every character no face draws, it takes no room."""


@lru_cache(maxsize=1)
def _coverage() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per face, the starts and ends of the code point ranges it has (for bisection)."""
    ranges = json.loads((FONT_DIR / "coverage.json").read_text(encoding="utf-8"))
    return tuple(
        (tuple(first for first, _ in ranges[face]), tuple(last for _, last in ranges[face])) for face in FACES
    )


def _has(face: int, char: str) -> bool:
    starts, ends = _coverage()[face]
    i = bisect_right(starts, ord(char)) - 1
    return i >= 0 and ord(char) <= ends[i]


@lru_cache(maxsize=8192)
def face_for(char: str) -> int | None:
    """Index in :data:`FACES` of the face that draws ``char``; None when none has it."""
    return next((face for face in range(len(FACES)) if _has(face, char)), None)


def drawable(char: str) -> bool:
    """A shipped face has ``char`` and it is visible (joiners and direction marks are not)."""
    return face_for(char) is not None and unicodedata.category(char) != "Cf"


@lru_cache(maxsize=len(FACES))
def _file_bytes(path: str) -> int:
    return Path(path).stat().st_size


def _face_bytes(font: ImageFont.FreeTypeFont) -> int:
    """What a loaded face costs, about: its file (FreeType maps it) plus a glyph cache."""
    return _file_bytes(str(font.path)) + 64 * 1024


@byte_lru(5 * MB, _face_bytes)
def get_font(size: int, face: int = 0) -> ImageFont.FreeTypeFont:
    """Face number ``face`` at ``size`` px, with the basic layout engine.

    Basic layout (rather than Raqm, when installed) gives identical glyph positions on every
    machine, which the byte-identical output relies on; renders.bidi does the right-to-left work.
    """
    return ImageFont.truetype(str(FONT_DIR / FACES[face]), size, layout_engine=ImageFont.Layout.BASIC)


def stroke_for(size: int, bold: bool) -> int:
    return max(1, round(size / 40)) if bold else 0


def segments(text: str) -> list[tuple[int, str]]:
    """``text`` (already in visual order) as (face, characters) runs, undrawable characters dropped.

    Spaces and punctuation that the current run's face has stay in that run, so a name in one
    script is one run.
    """
    out: list[tuple[int, str]] = []
    for char in text:
        if out and _has(out[-1][0], char) and drawable(char):
            out[-1] = (out[-1][0], out[-1][1] + char)
            continue
        face = face_for(char)
        if face is None or not drawable(char):
            continue
        out.append((face, char))
    return out


@dataclass(frozen=True, slots=True)
class TextRun:
    """A rendered string: its inked pixels plus where its baseline and cap height are.

    The whole mask the string was drawn on (the font's full ascent and descent around the
    letters) is not kept: :func:`draw` pastes only the inked part, so the rest was memory only —
    more than half of a kept string's bytes, and the text cache is what holds a worker's strings
    (:data:`renders.cache.WORKER_BUDGETS`)."""

    mask_size: tuple[int, int]  # the drawn mask's size (:meth:`mask` rebuilds it)
    width: int  # advance width, for layout
    ascent: int  # baseline y inside the drawn mask
    cap: int  # height of capital letters above the baseline
    inked: Image.Image | None = None
    """The part of the drawn mask that has ink (None: none), at ``inked_at`` in it: what
    :func:`draw` pastes. Pasting through a mask leaves a pixel of coverage 0 exactly as it was,
    so the rows and columns around the letters (the font's whole ascent and descent) only cost
    time: most of a string's mask, and ~12 % of a table image's instructions."""
    inked_at: tuple[int, int] = (0, 0)

    def mask(self) -> Image.Image:
        """The whole 'L' mask the string was drawn on (white on black), rebuilt from its inked
        part: the same pixels, since nothing outside that part has ink."""
        mask = Image.new("L", self.mask_size)
        if self.inked is not None:
            mask.paste(self.inked, self.inked_at)
        return mask


def _run_bytes(text_run: TextRun) -> int:
    return 64 if text_run.inked is None else image_bytes(text_run.inked)


@byte_lru(2 * MB, _run_bytes)
def run(text: str, size: int, bold: bool = False) -> TextRun:
    """``text`` (logical order) drawn white on black, each run in its own face."""
    stroke = stroke_for(size, bold)
    parts = segments(visual(text))
    faces = {0} | {face for face, _ in parts}
    ascent = max(get_font(size, face).getmetrics()[0] for face in faces)
    descent = max(get_font(size, face).getmetrics()[1] for face in faces)
    advances = [get_font(size, face).getlength(chars) for face, chars in parts]
    width = int(round(sum(advances))) + 2 * stroke
    height = ascent + descent + 2 * stroke
    mask = Image.new("L", (max(1, width + 2), height))
    pen = ImageDraw.Draw(mask)
    x = float(stroke)
    for (face, chars), advance in zip(parts, advances, strict=True):
        pen.text(
            (x, ascent + stroke),
            chars,
            font=get_font(size, face),
            fill=255,
            anchor="ls",
            stroke_width=stroke,
            stroke_fill=255,
        )
        x += advance
    cap = -int(get_font(size).getbbox("H", anchor="ls")[1])  # FreeType answers in whole pixels
    box = mask.getbbox()
    inked = None if box is None else mask.crop(box)
    return TextRun(mask.size, width, ascent + stroke, cap + stroke, inked, (0, 0) if box is None else box[:2])


NUMBERS_WARMED = 100
""":func:`warm_families` draws the numbers below this at each size numbers were drawn at."""


def warm_families(card_ids: Iterable[str]) -> int:
    """Draw the rest of each family of strings kept so far, at the sizes and weights seen: every
    number below :data:`NUMBERS_WARMED` where a number was drawn, every id of ``card_ids`` where
    a card's id was. Returns how many strings were drawn.

    Why: a render worker warms its caches on one game at start (``bot.core.rendering.render``), and a
    later game's first posts still draw strings that game never showed — a puzzle's id on its
    thumbnail, a deck's count, a score — each 0.1–0.4 ms of FreeType the first time and some
    5 µs after (docs/benchmarks.md). These families are small and fixed by the catalogue and the
    counts a game runs through, so a worker draws them all once; what a game's text depends on
    beyond them (players' names, sentences) it draws the first time as before."""
    ids = set(card_ids)
    numbers = {str(n) for n in range(NUMBERS_WARMED)}
    wanted: dict[tuple[int, bool], set[str]] = {}
    for key in run.keys():
        text, size, *weight = cast(tuple[str, int] | tuple[str, int, bool], key)  # run's arguments
        family = numbers if text.isdigit() else ids if text in ids else None
        if family is not None:
            wanted.setdefault((size, bool(weight and weight[0])), set()).update(family)
    drawn = 0
    for (size, bold), texts in wanted.items():
        for text in sorted(texts):
            if (text, size, bold) not in run:
                run(text, size, bold)
                drawn += 1
    return drawn


@dataclass(frozen=True, slots=True)
class Drawn:
    """One string drawn, as recorded by :func:`recording`."""

    text: str
    size: int
    bold: bool
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Where: left, top of capitals, right, baseline (tests check that texts neither overlap nor
    leave the image)."""
    image_size: tuple[int, int] = (0, 0)
    canvas: int = 0
    """Which image it was drawn on (``id``): cards and tiles are drawn apart, then pasted."""


_recorded: list[Drawn] | None = None


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every string drawn inside the block, in order (tests read what an image says)."""
    global _recorded
    previous, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = previous


def is_recording() -> bool:
    """Strings are being collected (:func:`recording`): images are then drawn whole, so that
    every string is drawn, none taken from a cached band (:mod:`renders.layers`)."""
    return _recorded is not None


@contextmanager
def recording_sizes() -> Iterator[list[int]]:
    """Collect every font size drawn inside the block (tests check legibility with it)."""
    with recording() as drawn:
        sizes: list[int] = []
        yield sizes
        sizes.extend(d.size for d in drawn)


def width(text: str, size: int, bold: bool = False) -> int:
    return run(text, size, bold).width


def draw(
    image: Image.Image,
    x: float,
    y: float,
    text: str,
    size: int,
    colour: RGB,
    *,
    bold: bool = False,
    anchor: str = "lm",
) -> int:
    """Draw ``text``; returns its width.

    ``anchor`` is two letters: horizontal ``l``/``m``/``r`` and vertical ``t`` (top of capitals),
    ``m`` (middle of capitals — visually centred numbers and labels) or ``b`` (baseline).
    """
    if not text:
        if _recorded is not None:
            _recorded.append(Drawn(text, size, bold, image_size=image.size, canvas=id(image)))
        return 0
    r = run(text, size, bold)
    h, v = anchor[0], anchor[1]
    left = x - (r.width / 2 if h == "m" else r.width if h == "r" else 0)
    baseline = y + (r.cap if v == "t" else r.cap / 2 if v == "m" else 0)
    left_i, top_i = int(round(left)), int(round(baseline)) - r.ascent
    if _recorded is not None:
        box = (left_i, int(round(baseline)) - r.cap, left_i + r.width, int(round(baseline)))
        _recorded.append(Drawn(text, size, bold, box, image.size, id(image)))
    if r.inked is None:
        return r.width
    left_i, top_i = left_i + r.inked_at[0], top_i + r.inked_at[1]
    if image.mode == "P":  # drawn on the palette: the blend comes from a lookup table
        paste_text(image, colour, (left_i, top_i), r.inked)
        return r.width
    image.paste(colour, (left_i, top_i, left_i + r.inked.width, top_i + r.inked.height), r.inked)
    return r.width


def fitting_size(text: str, size: int, max_width: int, smallest: int, bold: bool = False) -> int:
    """The largest size from ``size`` down to ``smallest`` at which ``text`` fits ``max_width``
    pixels (``smallest`` if none does: :func:`fit` then shortens it). Fixed words shrink rather
    than lose letters: a translation may be longer than the English the layout was drawn for.
    ``smallest`` is never under the image's small size (legible on a phone)."""
    floor = min(size, smallest)
    for candidate in range(size, floor, -1):
        if width(text, candidate, bold) <= max_width:
            return candidate
    return floor


def wrap(text: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """``text`` in lines of at most ``max_width`` pixels, broken at spaces — a word wider than a
    line is broken between its letters (grapheme clusters: :mod:`renders.graphemes`) — so every
    letter is drawn: for a name, which is never cut."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if width(candidate, size, bold) <= max_width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for letter in clusters(word):
            if line and width(line + letter, size, bold) > max_width:
                lines.append(line)
                line = ""
            line += letter
    if line or not lines:
        lines.append(line)
    return lines


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text``, shortened with an ellipsis until it fits ``max_width`` pixels, cut between
    letters only (grapheme clusters: an accent stays on its letter, a syllable whole).

    Shortening is in logical order, so a right-to-left text loses its end (drawn at the left,
    where its ellipsis stays: a right-to-left mark after it)."""
    if width(text, size, bold) <= max_width:
        return text
    ellipsis = ELLIPSIS + (RLM if base_direction(text) == "R" else "")
    for end in reversed(cuts(text)[:-1]):
        candidate = text[:end].rstrip() + ellipsis
        if width(candidate, size, bold) <= max_width:
            return candidate
    return ELLIPSIS


def fit_name(name: str, size: int, max_width: int, bold: bool = False) -> str:
    """A player's name shortened to ``max_width`` pixels as :func:`fit` does, except that a short
    last word (a number, an initial: "Easy AI 2", "Maria Fernanda S") is kept after the ellipsis
    when the name has room for some of its beginning: two seats' names that differ only there
    still differ once shortened ("Easy… 1", "Easy… 2")."""
    if width(name, size, bold) <= max_width:
        return name
    head, _, last = name.rpartition(" ")
    if head and len(clusters(last)) <= 3:
        tail = f" {last}"
        room = max_width - width(tail, size, bold)
        short = fit(head, size, room, bold)
        if short != ELLIPSIS and width(short, size, bold) <= room:
            return short + tail
    return fit(name, size, max_width, bold)


def fit_names(label: Callable[[list[str]], str], names: Sequence[str], size: int, max_width: int,
              bold: bool = False) -> str:
    """``label(names)`` within ``max_width`` pixels: as it is if it fits, else with each name
    shortened (:func:`fit_name`) to an equal share of the room the label's own words leave —
    the words are never cut ("Maximilia… 1 to play", not "Maximiliano Rodrigues da Sil…")."""
    text = label(list(names))
    if width(text, size, bold) <= max_width or not names:
        return text
    words = width(label([""] * len(names)), size, bold)
    each = max(0, max_width - words) // len(names)
    return fit(label([fit_name(name, size, each, bold) for name in names]), size, max_width, bold)


def display_name(name: str, seat: int) -> str:
    """``name`` with what no shipped face can draw removed (emoji, joiners); 'Player N' (in the
    language drawn in) if nothing is left."""
    return _drawable(name) or labels.player_fallback(seat + 1)


@lru_cache(maxsize=512)
def _drawable(name: str) -> str:
    """``name`` with what no shipped face can draw removed; empty if no letter or digit is left."""
    kept = []
    for char in unicodedata.normalize("NFC", name):
        if char.isspace():
            kept.append(" ")
        elif drawable(char):
            kept.append(char)
    text = " ".join("".join(kept).split())
    return text if any(c.isalnum() for c in text) else ""


def names_for(names: Sequence[str], count: int) -> list[str]:
    """Drawable names for seats 0..count-1, tolerating a short ``names`` list."""
    return [display_name(names[i] if i < len(names) else "", i) for i in range(count)]
