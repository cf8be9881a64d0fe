"""Puzzle cards in three sizes, each cached: the same card is drawn on every image of a game.

* ``market`` — a face-up card on the table: points badge, reward piece and the recess.
* ``mini`` — a thumbnail for player panels and score piles: body, recess, pieces.
* ``plan`` — the large private-mat card with coordinates A–E across the top and 1–5 down
  the side, piece letters on placed pieces, and optionally one highlighted proposed piece.

The recess is drawn as a hole in the card, in a slate colour that contrasts with both the white
and the black card body, with a shadow along its top and left edges so it reads as sunken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Colour, PuzzleCard, Reward
from engine.pieces import COLUMNS, GRID, Shape
from engine.state import Placed

from . import fonts, labels
from .cache import MB, byte_lru, image_bytes
from .draw import (
    badge,
    cells_of,
    edge_width,
    label_piece,
    paint_piece,
    paste_reward,
    reward_size,
    rounded_rect,
)
from .indexed import blank, ink
from .labels import Words
from .palette import (
    CARD_BLACK,
    CARD_BLACK_EDGE,
    CARD_WHITE,
    CARD_WHITE_EDGE,
    DONE,
    HIGHLIGHT,
    HOLE_LINE_ON_BLACK,
    HOLE_LINE_ON_WHITE,
    HOLE_ON_BLACK,
    HOLE_ON_WHITE,
    INK,
    MUTED,
    PANEL,
    PIECE,
    RGB,
    WHITE,
    mix,
    to_png,
)


@dataclass(frozen=True, slots=True)
class Look:
    body: RGB
    edge: RGB
    hole: RGB
    hole_line: RGB
    shadow: RGB
    ink: RGB  # text printed on the card body


def look(colour: Colour) -> Look:
    if colour is Colour.WHITE:
        return Look(
            CARD_WHITE, CARD_WHITE_EDGE, HOLE_ON_WHITE, HOLE_LINE_ON_WHITE, mix(HOLE_ON_WHITE, INK, 0.5), INK
        )
    return Look(
        CARD_BLACK, CARD_BLACK_EDGE, HOLE_ON_BLACK, HOLE_LINE_ON_BLACK, mix(HOLE_ON_BLACK, INK, 0.5), WHITE
    )


def paint_recess(draw: ImageDraw.ImageDraw, x0: int, y0: int, cell: int, recess: int, lk: Look) -> None:
    """The hole: cell grid lines inside it, and a shadow on its upper and left rims."""
    shadow = max(2, cell // 9)
    hole_line, hole, shade = ink(draw, lk.hole_line), ink(draw, lk.hole), ink(draw, lk.shadow)
    for c, r in cells_of(recess):
        x, y = x0 + c * cell, y0 + r * cell
        draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=hole_line)
        draw.rectangle((x + 1, y + 1, x + cell - 2, y + cell - 2), fill=hole)
    for c, r in cells_of(recess):
        x, y = x0 + c * cell, y0 + r * cell
        if r == 0 or not recess >> ((r - 1) * GRID + c) & 1:
            draw.rectangle((x, y, x + cell - 1, y + shadow - 1), fill=shade)
        if c == 0 or not recess >> (r * GRID + c - 1) & 1:
            draw.rectangle((x, y, x + shadow - 1, y + cell - 1), fill=shade)


def paint_grid(
    image: Image.Image,
    x0: int,
    y0: int,
    cell: int,
    card: PuzzleCard,
    pieces: Sequence[Placed],
    *,
    letters: int = 0,
    highlight: Placed | None = None,
) -> None:
    """Recess and pieces of ``card`` with the grid's top-left at (x0, y0).

    ``letters`` is the font size for piece codes (0: none — thumbnails are too small to
    read them). ``highlight`` is a proposed piece, drawn over the rest with a bright frame.
    """
    draw = ImageDraw.Draw(image)
    paint_recess(draw, x0, y0, cell, card.recess, look(card.colour))
    paint_pieces(draw, x0, y0, cell, pieces)
    if highlight is not None:
        cells = cells_of(highlight.mask)
        frame = max(4, cell // 9)
        for c, r in cells:  # the frame sits outside the piece, so draw it first, wider
            x, y = x0 + c * cell, y0 + r * cell
            draw.rectangle((x - frame, y - frame, x + cell - 1 + frame, y + cell - 1 + frame),
                           fill=ink(draw, HIGHLIGHT))
        paint_piece(draw, x0, y0, cell, cells, PIECE[highlight.shape], edge_w=edge_width(cell) + 1)
    if letters:
        for piece in (*pieces, *(() if highlight is None else (highlight,))):
            label_piece(image, x0, y0, cell, cells_of(piece.mask), piece.shape, letters)


def paint_pieces(draw: ImageDraw.ImageDraw, x0: int, y0: int, cell: int, pieces: Sequence[Placed]) -> None:
    """The pieces lying on a card whose grid's top-left is at (x0, y0), over its recess."""
    for piece in pieces:
        paint_piece(draw, x0, y0, cell, cells_of(piece.mask), PIECE[piece.shape])


# -- market cards ----------------------------------------------------------------------------------


Box = tuple[int, int, int, int]
"""(left, top, right, bottom), right and bottom exclusive."""

WIDEST_REWARD = 4
"""Squares across the widest reward icon (I4, and L5 lying flat): the header is made for it."""


@dataclass(frozen=True, slots=True)
class MarketGeometry:
    """A face-up card: a header band (the points badge on the left, the reward on the right),
    then the recess grid. The header's height comes from the reward's size, never from the
    card's cell alone, so a small card (Line Clear's) keeps a reward as readable as a large
    one's: ``square`` is a reward piece's cell (arrows and the Ambassador diamond are as tall as
    a two-row piece)."""

    cell: int
    text: int
    square: int

    @property
    def pad(self) -> int:
        return max(6, self.cell * 4 // 7)

    @property
    def inset(self) -> int:
        """How far in from the card's sides the badge and the reward sit."""
        return max(5, self.pad - 4)

    @property
    def diameter(self) -> int:
        return int(self.text * 1.3)

    @property
    def header(self) -> int:
        band = 2 * self.square + 2 * max(5, self.square // 4)
        return max(int(self.cell * 1.6), band, self.diameter + 6)

    @property
    def width(self) -> int:
        return GRID * self.cell + 2 * self.pad

    @property
    def height(self) -> int:
        return self.header + GRID * self.cell + self.pad

    @property
    def middle(self) -> int:
        """The header's centre line (the card's 2 px outline is above it)."""
        return (self.header + 2) // 2

    @property
    def badge_box(self) -> Box:
        left, top = self.inset, self.middle - self.diameter // 2
        return left, top, left + self.diameter, top + self.diameter

    def reward_cell(self, reward: Reward) -> int:
        """The cell :func:`paste_reward` draws ``reward`` with: ``square`` for a piece, two thirds
        of it (rounded up) for the arrows and the diamond, ``3 * cell`` tall: a two-row piece's
        height or a little more."""
        return self.square if isinstance(reward, Shape) else -(-2 * self.square // 3)

    def reward_box(self, reward: Reward) -> Box:
        """Where the reward is drawn on the card: right-aligned, on the header's centre line."""
        w, h = reward_size(reward, self.reward_cell(reward))
        right, top = self.width - self.inset, self.middle - h // 2
        return right - w, top, right, top + h


def market_geometry(cell: int, text: int | None = None, square: int | None = None) -> MarketGeometry:
    """A market card's geometry: ``text`` the badge's text size (default: ``max(14, cell)``),
    ``square`` a reward piece's cell (default: three quarters of ``cell``). Raises ValueError
    when the widest reward would not fit beside the badge."""
    g = MarketGeometry(cell, max(14, cell) if text is None else text,
                       cell * 3 // 4 if square is None else square)
    room = g.width - 2 * g.inset - g.diameter - REWARD_GAP
    if WIDEST_REWARD * g.square > room:
        raise ValueError(f"a {g.square} px reward square does not fit a {cell} px card ({room} px of room)")
    return g


REWARD_GAP = 3
"""At least this much card between the points badge and the widest reward."""


@byte_lru(3 * MB, image_bytes)  # ~25 face-up cards
def market_card(card: PuzzleCard, g: MarketGeometry) -> Image.Image:
    """A face-up card: points (badge, top left), reward piece (top right), recess."""
    lk = look(card.colour)
    image = Image.new("RGBA", (g.width, g.height), (0, 0, 0, 0))
    box = (0, 0, g.width - 1, g.height - 1)
    rounded_rect(image, box, g.cell // 3, fill=lk.body, outline=lk.edge, width=2)  # corners drawn once
    badge_fill, badge_ink = (INK, WHITE) if card.colour is Colour.WHITE else (WHITE, INK)
    left, top, _, _ = g.badge_box
    r = g.diameter // 2
    badge(image, left + r, top + r, g.diameter, str(card.points), g.text, badge_fill, badge_ink)
    left, top, _, _ = g.reward_box(card.reward)
    paste_reward(image, card.reward, g.reward_cell(card.reward), left, top, anchor="lt")
    paint_grid(image, g.pad, g.header, g.cell, card, ())
    return image


# -- thumbnails --------------------------------------------------------------------------------------


def mini_size(cell: int) -> int:
    return GRID * cell + 2 * max(4, cell * 2 // 5)


@byte_lru(3 * MB, image_bytes)  # ~150 thumbnails
def mini_card(
    card: PuzzleCard, pieces: tuple[Placed, ...], cell: int, done: bool = False, mode: str = "RGBA"
) -> Image.Image:
    """A small card with its pieces, no text (callers label it), on a transparent background:
    RGBA, or ``mode`` "P" for a palette image (paste it with :func:`indexed.paste_sprite`).

    ``done`` fills the recess in one flat colour: a completed card whose pieces went back to
    the supply.
    """
    size = mini_size(cell)
    pad = (size - GRID * cell) // 2
    if pieces and not done:
        # The card without pieces (kept: drawn once per card), with the pieces drawn over a copy:
        # the pixels :func:`paint_grid` gives, which draws the recess and then the pieces. A piece
        # laid on a puzzle makes a thumbnail never drawn before, at most turn ends; the box and
        # the recess were most of its drawing.
        image = mini_card(card, (), cell, False, mode).copy()
        paint_pieces(ImageDraw.Draw(image), pad, pad, cell, pieces)
        return image
    lk = look(card.colour)
    image = blank(mode, (size, size), None)
    # Rectangles and corners cut from one box drawn once (Pillow draws a rounded box's corners
    # as an ellipse's clipped slices, ~0.4 M instructions, and a turn end makes a thumbnail or two).
    rounded_rect(image, (0, 0, size - 1, size - 1), max(3, cell // 3), fill=lk.body, outline=lk.edge, width=2)
    if done:
        draw = ImageDraw.Draw(image)
        for c, r in cells_of(card.recess):
            x, y = pad + c * cell, pad + r * cell
            draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=ink(image, DONE))
    else:
        paint_grid(image, pad, pad, cell, card, pieces)
    return image


# -- planning cards (mat and preview) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlanGeometry:
    cell: int
    text: int

    @property
    def margin(self) -> int:
        """Room for the coordinate labels left of and above the card."""
        return int(self.text * 1.5)

    @property
    def pad(self) -> int:
        return max(6, self.cell // 6)

    @property
    def title(self) -> int:
        return int(self.text * 1.9)

    @property
    def width(self) -> int:
        return self.margin + GRID * self.cell + 2 * self.pad

    @property
    def height(self) -> int:
        return self.title + self.margin + GRID * self.cell + 2 * self.pad

    def grid_origin(self) -> tuple[int, int]:
        return self.margin + self.pad, self.title + self.margin + self.pad

    @property
    def reward_square(self) -> int:
        """A reward piece's cell in the title: 7/12 of the title's text, so wherever that text is
        12 px on a phone (3% of the image's width) the piece's squares are 7 px, as on the table's
        market cards (issue 31, item 10)."""
        return max(10, -(-self.text * 7 // 12))

    def reward_cell(self, reward: Reward) -> int:
        """The cell :func:`paste_reward` draws ``reward`` with in the title: :attr:`reward_square`
        for a piece; the arrows and the diamond (``3 * cell`` tall) at half the text size."""
        return self.reward_square if isinstance(reward, Shape) else max(10, self.text // 2)


def plan_card(
    card: PuzzleCard,
    pieces: tuple[Placed, ...],
    cell: int,
    text: int,
    highlight: Placed | None = None,
    background: RGB = PANEL,
    mode: str = "RGB",
) -> Image.Image:
    """A large card for planning: title (id, points, reward), coordinates, lettered pieces. In
    ``mode`` "RGB", or "P" drawn straight on the palette (the mat and the preview)."""
    title = (labels.points(card.points), labels.REWARD)
    return _plan_card(card, pieces, cell, text, highlight, background, mode, *title)


@byte_lru(3 * MB, image_bytes)  # ~8 planning cards in RGB, ~20 on the palette: two mats
def _plan_card(
    card: PuzzleCard,
    pieces: tuple[Placed, ...],
    cell: int,
    text: int,
    highlight: Placed | None,
    background: RGB,
    mode: str,
    points: str,
    reward: str,
) -> Image.Image:
    """:func:`plan_card`, cached with its title's words (they depend on the language drawn in).

    A card's pieces change at nearly every turn of its owner, and each change draws the card
    again; what does not change (the coordinates and the card's body, the same for every card of
    a colour) is copied from :func:`_plan_base`. The title is drawn after them, not before as
    one canvas would have it: its strings and reward lie above the coordinates' row, clear of
    everything the base draws, so the pixels are the same (``tests/test_renders_card_plan.py``
    draws every card both ways)."""
    g = PlanGeometry(cell, text)
    lk = look(card.colour)
    image = _plan_base(card.colour, cell, text, background, mode).copy()
    _paint_plan_title(image, g, card, points, reward)
    draw = ImageDraw.Draw(image)
    gx, gy = g.grid_origin()
    _paint_guides(draw, gx, gy, cell, card, lk)
    paint_grid(image, gx, gy, cell, card, pieces, letters=max(text, cell * 2 // 5), highlight=highlight)
    return image


@byte_lru(1 * MB, image_bytes)  # a card colour's base on one background and mode: the mat's two
def _plan_base(colour: Colour, cell: int, text: int, background: RGB, mode: str) -> Image.Image:
    """What every plan card of ``colour`` has before its title and recess: the coordinates
    A–E and 1–5 and the card's body (callers copy it)."""
    g = PlanGeometry(cell, text)
    image = blank(mode, (g.width, g.height), background)
    _paint_plan_frame(image, g, look(colour))
    return image


def _paint_plan_title(
    image: Image.Image, g: PlanGeometry, card: PuzzleCard, points: str, reward: str
) -> None:
    """Title: id, then points and the reward piece; the word "reward" before it only where the
    widest reward would still fit after it (a long word, as in Portuguese, is left out on every
    card alike rather than on some)."""
    text = g.text
    mid = g.title // 2 - 2
    x = g.margin
    x += fonts.draw(image, x, mid, card.id, int(text * 1.15), INK, bold=True, anchor="lm") + text // 2
    x += fonts.draw(image, x, mid, points, text, MUTED, anchor="lm") + text // 2
    if _reward_word_fits(g, reward):
        x += fonts.draw(image, x, mid, reward, text, MUTED, anchor="lm") + text // 3
    paste_reward(image, card.reward, g.reward_cell(card.reward), x, mid, anchor="lm")


def _paint_plan_frame(image: Image.Image, g: PlanGeometry, lk: Look) -> None:
    """The coordinates above and left of the grid, and the card's body."""
    cell, text = g.cell, g.text
    gx, gy = g.grid_origin()
    top = g.title + g.margin // 2
    for c in range(GRID):
        fonts.draw(image, gx + c * cell + cell / 2, top, COLUMNS[c], text, INK, bold=True, anchor="mm")
    for r in range(GRID):
        fonts.draw(
            image, g.margin / 2, gy + r * cell + cell / 2, str(r + 1), text, INK, bold=True, anchor="mm"
        )
    draw = ImageDraw.Draw(image)
    body = (g.margin, g.title + g.margin, g.width - 1, g.height - 1)
    draw.rounded_rectangle(body, radius=g.pad, fill=ink(draw, lk.body), outline=ink(draw, lk.edge), width=3)


def _reward_word_fits(g: PlanGeometry, word: str) -> bool:
    """Whether a plan card's title has room for ``word`` ("reward") and then the widest reward,
    after the widest id and single-digit points: the same answer for every card of a language
    (measured once per language: twelve strings' widths, some 3 % of a mat drawn again)."""
    return _reward_word_fits_in(g, word, labels.language_key())


@lru_cache(maxsize=64)
def _reward_word_fits_in(g: PlanGeometry, word: str, language: str) -> bool:
    """:func:`_reward_word_fits` in the words of ``language`` (the points' unit is a word too)."""
    text = g.text
    widest = g.margin + max(fonts.width(f"{c}00", int(text * 1.15), bold=True) for c in "WB") + text // 2
    widest += max(fonts.width(labels.points(p), text) for p in range(10)) + text // 2
    return widest + fonts.width(word, text) + text // 3 + WIDEST_REWARD * g.reward_square <= g.width - g.pad


def _paint_guides(draw: ImageDraw.ImageDraw, gx: int, gy: int, cell: int, card: PuzzleCard, lk: Look) -> None:
    """Faint cell lines on the raised part of the card, so coordinates can be followed."""
    faint = ink(draw, mix(lk.body, lk.edge, 0.35))
    for i in range(GRID + 1):
        draw.line((gx + i * cell, gy, gx + i * cell, gy + GRID * cell), fill=faint)
        draw.line((gx, gy + i * cell, gx + GRID * cell, gy + i * cell), fill=faint)


# -- public helper ----------------------------------------------------------------------------------


def render_card(
    card: PuzzleCard,
    placed: Sequence[Placed] = (),
    *,
    style: str = "plan",
    cell: int | None = None,
    highlight: Placed | None = None,
    words: Words | None = None,
) -> bytes:
    """One card as PNG bytes, in ``style`` 'plan' (default), 'market' or 'mini' (the market
    card's words in ``words``, None: English)."""
    with labels.speaking(words):
        return _card(card, placed, style, cell, highlight)


def _card(card: PuzzleCard, placed: Sequence[Placed], style: str, cell: int | None,
          highlight: Placed | None) -> bytes:
    if style == "market":
        g = market_geometry(cell or 28)
        face = market_card(card, g)
        image = Image.new("RGB", face.size, PANEL)
        image.paste(face, (0, 0), face)
        if placed:
            paint_grid(image, g.pad, g.header, g.cell, card, tuple(placed))
        return to_png(image)
    if style == "mini":
        cell = cell or 17
        thumb = mini_card(card, tuple(placed), cell)
        image = Image.new("RGB", thumb.size, PANEL)
        image.paste(thumb, (0, 0), thumb)
        return to_png(image)
    if style == "plan":
        cell = cell or 64
        return to_png(plan_card(card, tuple(placed), cell, max(18, cell * 2 // 5), highlight, mode="P"))
    raise ValueError(f"unknown card style {style!r}: use 'plan', 'market' or 'mini'")
