"""Text: Pillow's built-in scalable font, cached glyph runs, and names it can actually draw.

We use ``ImageFont.load_default(size=…)`` (Aileron Regular, bundled inside Pillow ≥ 10.1) so the
renders never depend on fonts installed on the host. Two consequences shape this module:

* There is no bold face, so "bold" is the regular face with a 1 px stroke in the same colour.
* The bundled font covers printable ASCII and a handful of punctuation only — no accents, no
  "×" or "–". UI strings here stay within that set, and :func:`display_name` folds player names
  onto it ("Chloé" -> "Chloe"), falling back to "Player N" when nothing readable is left, rather
  than printing boxes.

Rendered strings are cached as masks: the same names, numbers and labels appear on every image
of a game, and pasting a cached mask is several times faster than laying text out again.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .palette import RGB

# The characters the bundled font has glyphs for.
SUPPORTED = frozenset(chr(c) for c in range(0x20, 0x7F)) | frozenset("©«°±´·»‘’“”…")
ELLIPSIS = "..."
_FOLD = {
    "ß": "ss",
    "Æ": "AE",
    "æ": "ae",
    "Ø": "O",
    "ø": "o",
    "Œ": "OE",
    "œ": "oe",
    "Ł": "L",
    "ł": "l",
    "Đ": "D",
    "đ": "d",
    "Þ": "Th",
    "þ": "th",
    "ı": "i",
    "–": "-",
    "—": "-",
}


@lru_cache(maxsize=32)
def get_font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` px, with the basic layout engine.

    Basic layout (rather than Raqm, when installed) gives identical glyph positions on every
    machine, which the byte-identical output relies on, and we only draw left-to-right ASCII.
    """
    base = ImageFont.load_default(size=size)
    if not isinstance(base, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; renders need its scalable font")
    return base.font_variant(layout_engine=ImageFont.Layout.BASIC)


def stroke_for(size: int, bold: bool) -> int:
    return max(1, round(size / 40)) if bold else 0


@dataclass(frozen=True, slots=True)
class TextRun:
    """A rendered string: an 'L' mask plus where its baseline and cap height are."""

    mask: Image.Image
    width: int  # advance width, for layout
    ascent: int  # baseline y inside the mask
    cap: int  # height of capital letters above the baseline


@lru_cache(maxsize=4096)
def run(text: str, size: int, bold: bool = False) -> TextRun:
    font = get_font(size)
    stroke = stroke_for(size, bold)
    ascent, descent = font.getmetrics()
    width = int(round(font.getlength(text))) + 2 * stroke
    height = ascent + descent + 2 * stroke
    mask = Image.new("L", (max(1, width + 2), height))
    if text:
        ImageDraw.Draw(mask).text(
            (stroke, ascent + stroke),
            text,
            font=font,
            fill=255,
            anchor="ls",
            stroke_width=stroke,
            stroke_fill=255,
        )
    cap = -font.getbbox("H", anchor="ls")[1]
    return TextRun(mask, width, ascent + stroke, cap + stroke)


_recorded: list[int] | None = None


@contextmanager
def recording_sizes() -> Iterator[list[int]]:
    """Collect every font size drawn inside the block (tests check legibility with it)."""
    global _recorded
    previous, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = previous


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
    if _recorded is not None:
        _recorded.append(size)
    if not text:
        return 0
    r = run(text, size, bold)
    h, v = anchor[0], anchor[1]
    left = x - (r.width / 2 if h == "m" else r.width if h == "r" else 0)
    baseline = y + (r.cap if v == "t" else r.cap / 2 if v == "m" else 0)
    left_i, top_i = int(round(left)), int(round(baseline)) - r.ascent
    image.paste(colour, (left_i, top_i, left_i + r.mask.width, top_i + r.mask.height), r.mask)
    return r.width


def fit(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text``, shortened with '...' until it fits ``max_width`` pixels."""
    if width(text, size, bold) <= max_width:
        return text
    for end in range(len(text) - 1, 0, -1):
        candidate = text[:end].rstrip() + ELLIPSIS
        if width(candidate, size, bold) <= max_width:
            return candidate
    return ELLIPSIS


@lru_cache(maxsize=512)
def display_name(name: str, seat: int) -> str:
    """``name`` folded onto the characters the font can draw; 'Player N' if none are left."""
    folded = []
    for char in unicodedata.normalize("NFKD", name):
        if unicodedata.combining(char):
            continue
        char = _FOLD.get(char, char)
        if all(c in SUPPORTED for c in char):
            folded.append(char)
        elif char.isspace():
            folded.append(" ")
    text = " ".join("".join(folded).split())
    if sum(c.isalnum() for c in text) == 0:
        return f"Player {seat + 1}"
    return text


def names_for(names: Sequence[str], count: int) -> list[str]:
    """Drawable names for seats 0..count-1, tolerating a short ``names`` list."""
    return [display_name(names[i] if i < len(names) else "", i) for i in range(count)]
