"""The public table image, posted after every turn.

Across the top: the status bar (round, whose turn, actions left) and an end-of-game banner when
one applies. Below them the shared table — the market (white and black rows with their decks, or
Solo's 3×3 grid with locks, deck and mastermind, or Line Clear's four rows), the reserve, the
Finesse strip and the legends — 960 px wide, with the players' panels beside it on its right (one
column for Solo and two players, two from three players on), so that the image stays about as
wide as it is tall or wider, as Discord previews it well.

Only deck *counts* are shown: the order of cards in a deck is secret.

Given the state the previous turn post showed, the image frames what changed since (cards that
came into the market, puzzles taken or given pieces, puzzles completed) and says so in a legend.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Ambassador, Colour
from engine.expansions.ambassador import unflipped
from engine.state import GameState, LineClearTable, Options, RowsTable, SoloTable
from engine.visibility import hidden_scores

from . import fonts, indexed, labels, layers
from .cache import HashedKey, image_bytes
from .card import Box, Look, MarketGeometry, look, market_card, market_geometry
from .changes import NONE, Changes, changes_between, market_cards
from .draw import dashed_rect, paste_reward, pill, rounded_box, rounded_rect
from .finesse import finesse_height, paint_finesse
from .labels import Words
from .layers import Band, Layout, Part
from .palette import (
    HEADER,
    INK,
    LOCK,
    MARKER_BLACK,
    MARKER_WHITE,
    MUTED,
    PAGE,
    PANEL,
    PANEL_EDGE,
    PIECE_EDGE,
    RGB,
    SLOT,
    WHITE,
    mix,
    to_png,
)
from .panels import (
    PANEL_TILE_INSET,
    PanelGeometry,
    PanelTile,
    TextSizes,
    ambassador_cell,
    banner_height,
    banner_text,
    is_removed,
    mark,
    paint_banner,
    paint_panel,
    paint_panel_frames,
    paint_reserve,
    paint_status,
    panel_box,
    panel_fill,
    panel_frames_key,
    panel_height,
    panel_keys,
    panel_tiles,
    reserve_edges,
    reserve_height,
    reserve_shapes,
    status_height,
)
from .rank import mastermind_points

WIDTH = 960
MARGIN = 20
GAP = 18
MARKET_CELL = 27
RESERVE_CELL = 16
MINI_CELL = 17
SUPPLY_CELL = 16
MARK_LEGEND = 6  # the legend's sample frame sits this far in, so its frame stays on the page
PHONE_WIDTH = 400
"""How wide Discord shows an image on a phone."""
REWARD_SQUARE_AT_PHONE = 7
"""A reward piece's cell on a market card, in pixels when the image is shown at
:data:`PHONE_WIDTH` (a two-row piece and the arrows are then 14 px tall): readable without
zooming, on Line Clear's small cards too (issue 31, item 10)."""


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Sizes for the table image; everything else is derived from these."""

    width: int = WIDTH

    @property
    def t(self) -> TextSizes:
        return _text_sizes(self.width)

    @property
    def tab(self) -> int:
        """Height of the slot-number row above each market card."""
        return int(self.t.small * 1.45)

    def card(self, cell: int = MARKET_CELL) -> MarketGeometry:
        """A market card of ``cell`` px recess cells on this table: its badge at the image's small
        text size, its reward at least :data:`REWARD_SQUARE_AT_PHONE` px a square on a phone."""
        return _card_geometry(self.width, cell)

    @property
    def tile(self) -> tuple[int, int]:
        g = self.card()
        return g.width, g.height

    @property
    def inner(self) -> int:
        return self.width - 2 * MARGIN


@lru_cache(maxsize=16)
def _text_sizes(width: int) -> TextSizes:
    """:meth:`TextSizes.for_width`, once per width (a table image asks some 500 times)."""
    return TextSizes.for_width(width)


@lru_cache(maxsize=16)
def _card_geometry(width: int, cell: int) -> MarketGeometry:
    """:meth:`TableLayout.card`, once per image width and cell (asked some 400 times an image)."""
    least = -(-REWARD_SQUARE_AT_PHONE * width // PHONE_WIDTH)
    return market_geometry(cell, _text_sizes(width).small, max(least, cell * 3 // 4))


LAYOUT = TableLayout()
NEUTRAL_DECK = Look(HEADER, PIECE_EDGE, mix(HEADER, WHITE, 0.6), HEADER, HEADER, WHITE)


def render_table(
    state: GameState, names: Sequence[str], previous: GameState | None = None, words: Words | None = None,
) -> bytes:
    """PNG of the whole table: market, reserve, every player, turn and end-of-game state.

    ``previous``: the state the previous turn post showed; what changed since is framed.
    ``words``: the labels' language (a translation of ``labels.ENGLISH``; None: English).
    Bands that show what an earlier image showed come from the cache (:mod:`renders.layers`)."""
    with labels.speaking(words):
        if fonts.is_recording():
            return to_png(table_image(state, names, previous))
        return layers.png(table_layout(state, names, previous))


def _reserve_band(top: int, state: GameState, lay: TableLayout, language: str) -> Band:
    """The reserve as a part per shape, each keyed by its shape's count: taking a piece draws
    that shape's slot again, not the whole reserve. The box and its titles reach across every
    part; each part draws them clipped to itself (:func:`_clipped`)."""
    t = lay.t
    shapes = tuple(reserve_shapes(state))
    height = reserve_height(t, RESERVE_CELL) + GAP
    if fonts.is_recording():  # every string once, on the image itself (what the tests measure)
        return layers.whole(top, height, lay.width, None, lambda image, x, y: paint_reserve(
            image, MARGIN, y, lay.inner, state, t, RESERVE_CELL))
    edges = reserve_edges(MARGIN, lay.inner, len(shapes), lay.width)
    parts: list[Part] = []
    for i, shape in enumerate(shapes):
        def paint(image: Image.Image, x: int, y: int, dx: int, i: int = i) -> None:
            paint_reserve(image, x + MARGIN - dx, y, lay.inner, state, t, RESERVE_CELL, only=i)

        width = edges[i + 1] - edges[i]
        key = ("reserve-slot", language, shapes, i, state.reserve[shape.index])
        parts.append(Part(edges[i], width, key, _clipped(edges[i], width, height, paint), mode="P",
                          final=False))
    return Band(top, height, tuple(parts))


def _clipped(
    left: int, width: int, height: int, paint: Callable[[Image.Image, int, int, int], None]
) -> layers.Painter:
    """A part's painter from ``paint(image, x, y, left)``, which draws what reaches beyond the
    part (with the whole band's left edge at ``x - left``): drawn on a canvas of its own, placed
    an even number of pixels from where the image has it (as :mod:`renders.layers` places
    parts), and only the part's columns pasted."""

    def part(image: Image.Image, x: int, y: int) -> None:
        sx, sy = x % 2, y % 2
        own = indexed.blank(image.mode, (width + sx, height + sy), PAGE)
        paint(own, sx, sy, left)
        image.paste(own.crop((sx, sy, sx + width, sy + height)), (x, y))

    return part


def _legend_height(changes: Changes, t: TextSizes) -> int:
    return int(t.small * 1.6) if changes else 0


def table_image(state: GameState, names: Sequence[str], previous: GameState | None = None) -> Image.Image:
    """The table on one RGB canvas (what :func:`render_table`'s PNG shows)."""
    return layers.draw(table_layout(state, names, previous))


def table_layout(state: GameState, names: Sequence[str], previous: GameState | None = None) -> Layout:
    """The table as bands, top to bottom, each keyed by what it shows (in the current words): the
    status bar and any banner across the image, then the shared table (market, reserve, Finesse,
    legends) with the players' panels beside it (:func:`panel_columns_beside`), both in one band
    (:func:`layers.beside`)."""
    lay = LAYOUT
    t = lay.t
    beside = panel_columns_beside(state.options)
    width = table_width(beside)
    shown = fonts.names_for(names, len(state.players))
    changes = changes_between(previous, state)
    language = labels.language_key()
    stack = layers.Stack(width)
    add = stack.add
    add(status_height(t), ("status", language, width, tuple(shown), state.phase, state.round, state.current,
                           state.actions_left, state.turns, state.acting_seats),
        lambda image, x, top: paint_status(image, state, shown, width, t), "P")
    banner = banner_text(state, shown)
    if banner is not None:
        add(banner_height(state, t), ("banner", language, width, banner),
            lambda image, x, top: paint_banner(image, top, state, shown, width, t), "P")
    panels = _panel_grid(state, lay, beside)
    shared = layers.Stack(lay.width)
    shared.y = stack.y
    _add_shared(shared, state, shown, lay, changes, language)
    top = stack.y + MARGIN  # the panels' tops level with the market's first numbers
    beside_bands: list[Band] = []
    for row in range(len(panels.row_heights)):
        below = MARGIN if row == len(panels.row_heights) - 1 else GAP
        above = MARGIN if row == 0 else 0
        beside_bands.append(panels.bands(top, row, above, below, state, shown, changes, language))
        top += panels.row_heights[row] + below
    bottom = max(shared.y, top)
    stack.extend(layers.beside(stack.y, bottom, (shared.bands, beside_bands)))
    return stack.layout(PAGE)


def _add_shared(
    stack: layers.Stack, state: GameState, shown: list[str], lay: TableLayout, changes: Changes,
    language: str,
) -> None:
    """The market, the reserve, the Finesse strip and the legends, down ``stack`` (as wide as
    ``lay``)."""
    t = lay.t
    add = stack.add
    if isinstance(state.table, RowsTable):  # a band per row, a part per slot: taking a card redraws one
        for colour, above in ((Colour.WHITE, MARGIN), (Colour.BLACK, 0)):
            stack.extend(_row_band(stack.y, above, state, state.table, colour, lay, changes, language))
    else:
        market_h = (_solo_height(lay) if isinstance(state.table, SoloTable)
                    else _line_clear_height(lay, shown, state.table))
        add(MARGIN + market_h + GAP, _market_key(state, shown, changes, language),
            lambda image, x, top: _paint_market(image, top + MARGIN, state, shown, lay, changes))
    stack.extend(_reserve_band(stack.y, state, lay, language))
    strip = finesse_height(state, lay.inner, t)
    if strip:
        add(strip + GAP, None,
            lambda image, x, top: paint_finesse(image, MARGIN, top, lay.inner, state, shown, t))
    if changes:
        add(_legend_height(changes, t), ("legend", language),
            lambda image, x, top: _paint_legend(image, top, t))
    if state.options.ambassador:  # what the diamond on a card and beside a player's card says
        add(2 * int(t.small * 1.6), ("ambassador legend", language),
            lambda image, x, top: _paint_ambassador_legend(image, top, lay))


def panel_columns_beside(options: Options) -> int:
    """How many columns of players' panels stand right of the shared table: one for Solo and two
    players, two from three players on. Discord previews an image well when it is about as wide
    as it is tall or wider; with the panels below the shared table, two a row, every table was
    1.3 to 2.8 times as tall as wide (the more players and expansions, the taller). Decided by
    the options alone, so that a game's images keep one shape."""
    return 1 if options.players <= 2 else 2


def table_width(beside: int, lay: TableLayout = LAYOUT) -> int:
    """The image's width with ``beside`` columns of panels right of the shared table: the shared
    table as wide as ever (the text sizes are those of :data:`LAYOUT`), then the panels, each as
    wide as two in a row of the shared table's width."""
    return lay.width + beside * _panel_width(lay) + (beside - 1) * GAP + MARGIN


def _panel_width(lay: TableLayout) -> int:
    return (lay.inner - GAP) // 2


@dataclass(frozen=True, slots=True)
class Tile:
    """A face-up market card where the table image draws it: its top-left corner and geometry."""

    card: str
    x: int
    y: int
    geometry: MarketGeometry

    def reward_box(self, state: GameState) -> Box:
        """Where the card's reward is drawn on the table image (right and bottom exclusive)."""
        left, top, right, bottom = self.geometry.reward_box(state.card(self.card).reward)
        return self.x + left, self.y + top, self.x + right, self.y + bottom


def market_tiles(state: GameState, names: Sequence[str]) -> tuple[Tile, ...]:
    """Every face-up market card of the table image :func:`render_table` draws, where it is (the
    painters place them the same way; tests measure rewards with it)."""
    lay = LAYOUT
    t = lay.t
    shown = fonts.names_for(names, len(state.players))
    top = status_height(t) + (banner_height(state, t) if banner_text(state, shown) is not None else 0)
    top += MARGIN  # every market starts a margin below the status bar (and banner)
    tiles: list[Tile] = []
    table = state.table
    if isinstance(table, RowsTable):
        g = lay.card()
        for k, colour in enumerate((Colour.WHITE, Colour.BLACK)):
            y = top + k * (lay.tab + g.height + GAP) + lay.tab
            tiles += [Tile(c, _row_column(lay, i), y, g) for i, c in enumerate(table.row(colour)) if c]
    elif isinstance(table, LineClearTable):
        g = lay.card(LINE_CLEAR_CELL)
        columns = _line_clear_columns(lay)
        y = top + _marker_row(lay, shown, table) + lay.tab
        for colour in (Colour.WHITE, Colour.BLACK):
            for side, first in (("left", 0), ("right", 4)):
                cards = table.row(side, colour)
                tiles += [Tile(c, columns[first + i], y, g) for i, c in enumerate(cards) if c]
            y += lay.tab + g.height + GAP
    elif isinstance(table, SoloTable):
        g = lay.card()
        for position, card_id in enumerate(table.grid):
            row, col = divmod(position, 3)
            y = top + _lock_row(lay) + row * (lay.tab + g.height + GAP // 2) + lay.tab
            if card_id is not None:
                tiles.append(Tile(card_id, MARGIN + col * (g.width + GAP), y, g))
    return tuple(tiles)


def _paint_market(
    image: Image.Image, y: int, state: GameState, names: list[str], lay: TableLayout, changes: Changes
) -> None:
    """Solo's grid or Line Clear's rows (the base game's rows are a band each)."""
    if isinstance(state.table, SoloTable):
        _paint_solo(image, y, state, state.table, lay, changes)
    else:
        assert isinstance(state.table, LineClearTable)
        _paint_line_clear(image, y, state, state.table, names, lay, changes)


def _market_key(state: GameState, names: list[str], changes: Changes, language: str) -> Hashable:
    """What Solo's or Line Clear's market shows: the table (its slots, deck sizes, Solo's locks
    and pile, Line Clear's markers), the face-up cards, which of them are new, the names of the
    markers' holders and the mastermind's points."""
    cards = tuple(state.card(card_id) for card_id in sorted(market_cards(state.table)))
    points = mastermind_points(state) if isinstance(state.table, SoloTable) else None
    return ("market", language, state.table, cards, changes.new_market, tuple(names), points)


def _paint_legend(image: Image.Image, y: int, t: TextSizes) -> None:
    """A sample frame and the words saying what a frame means."""
    legend_mid = y + int(t.small * 1.6) // 2 - GAP // 4
    box = (
        MARGIN + MARK_LEGEND,
        legend_mid - t.small // 2,
        MARGIN + MARK_LEGEND + t.small,
        legend_mid + t.small // 2,
    )
    mark(image, box)
    fonts.draw(
        image, box[2] + t.small // 2 + 4, legend_mid, labels.CHANGED_LEGEND, t.small, MUTED, anchor="lm"
    )


def _paint_ambassador_legend(image: Image.Image, y: int, lay: TableLayout) -> None:
    """The Ambassador Pack's diamond, as the cards show it, and what it means: on a market card,
    its reward; beside a card in a player's panel, that it may be flipped now."""
    t = lay.t
    line = int(t.small * 1.6)
    for n, text in enumerate((labels.AMBASSADOR_LEGEND, labels.AMBASSADOR_READY_LEGEND)):
        mid = y + n * line + line // 2 - GAP // 4
        x = MARGIN + MARK_LEGEND
        x += paste_reward(image, Ambassador.ACTION, ambassador_cell(t), x, mid) + t.small // 2
        shown = fonts.fit(text, t.small, lay.width - MARGIN - x)
        fonts.draw(image, x, mid, shown, t.small, MUTED, anchor="lm")


# -- market tiles ------------------------------------------------------------------------------------


def _paint_tab(
    image: Image.Image, x: int, y: int, number: int, card_id: str | None, lay: TableLayout,
    *, cell: int = MARKET_CELL,
) -> None:
    """'1  W07' above a card: the number to take it by (plain, unlike the round points badge on
    the card itself), then its id."""
    t = lay.t
    mid = y + lay.tab // 2 - 2
    w = fonts.draw(image, x + 2, mid, str(number), t.body, INK, bold=True, anchor="lm")
    if card_id is not None:
        fonts.draw(image, x + 2 + w + t.small // 3, mid, card_id, t.small, MUTED, anchor="lm")


def _paint_slot(
    image: Image.Image,
    x: int,
    y: int,
    state: GameState,
    card_id: str | None,
    lay: TableLayout,
    changes: Changes = NONE,
    *,
    cell: int = MARKET_CELL,
) -> None:
    g = lay.card(cell)
    w, h = g.width, g.height
    if card_id is None:
        dashed_rect(image, (x, y, x + w - 1, y + h - 1), SLOT, width=3)
        fonts.draw(image, x + w / 2, y + h / 2, labels.EMPTY, lay.t.small, MUTED, anchor="mm")
        return
    card = state.card(card_id)
    indexed.paste_blended(image, market_card(card, g), (x, y), ("market-card", card, g))
    if card_id in changes.new_market:
        mark(image, (x, y, x + w - 1, y + h - 1))


def _paint_deck(
    image: Image.Image, x: int, y: int, colour: Colour | None, count: int, lay: TableLayout,
    *, cell: int = MARKET_CELL,
) -> None:
    """The deck as a small stack of card backs with the number of cards left (never their order).

    ``colour`` None draws neutral backs: Solo's single deck mixes colours, and showing the colour
    of the top card would leak part of the deck order.
    """
    g = lay.card(cell)
    w, h = g.width, g.height
    t = lay.t
    if count == 0:
        dashed_rect(image, (x, y, x + w - 1, y + h - 1), SLOT, width=3)
        fonts.draw(image, x + w / 2, y + h / 2, labels.DECK_EMPTY, t.small, MUTED, anchor="mm")
        return
    lk = look(colour) if colour is not None else NEUTRAL_DECK
    layers = min(3, count)
    step = 6
    # Rounded boxes from corners and frames drawn once per size (Pillow draws each corner as an
    # ellipse's clipped slices: ~0.4 M instructions a box, four boxes a deck): the same pixels.
    for i in reversed(range(layers)):
        off = i * step
        rounded_rect(
            image,
            (x + off, y + off, x + w - 1 - (layers - 1) * step + off, y + h - 1 - (layers - 1) * step + off),
            cell // 3, fill=lk.body, outline=lk.edge, width=2,
        )
    cw, ch = w - (layers - 1) * step, h - (layers - 1) * step
    inset = cell // 2
    hole = (x + inset, y + inset, x + cw - 1 - inset, y + ch - 1 - inset)
    rounded_box(image, hole, 6, outline=lk.hole, width=3)
    fonts.draw(
        image, x + cw / 2, y + ch / 2 - t.small * 0.45, str(count), t.huge, lk.ink, bold=True, anchor="mm"
    )
    if fonts.width(labels.IN_DECK, t.small) <= cw - 2 * inset - 8:  # else the column's title says it
        fonts.draw(image, x + cw / 2, y + ch / 2 + t.huge * 0.6, labels.IN_DECK, t.small, lk.ink, anchor="mm")


# -- base game: two rows ---------------------------------------------------------------------------


def _row_band(
    top: int, above: int, state: GameState, table: RowsTable, colour: Colour, lay: TableLayout,
    changes: Changes, language: str,
) -> Band:
    """One colour's row of four cards, numbered, and its deck, ``above`` rows of page over them:
    a part per slot (its number, id and card) and one for the deck, so that taking a card draws
    its slot and the deck again, not the whole row. A new card's frame is drawn over its slot
    (:attr:`layers.Part.cover`): the slot is not drawn again when the frame goes away."""
    row = table.row(colour)
    g = lay.card()
    columns = [_row_column(lay, i) for i in range(5)]
    # Each part reaches halfway across the gaps beside its tile (a frame takes 5 px of them).
    edges = [0] + [(columns[i - 1] + g.width + columns[i]) // 2 for i in range(1, 5)] + [lay.width]
    parts: list[Part] = []
    for i in range(4):
        card_id = row[i] if i < len(row) else None
        shift = columns[i] - edges[i]  # the tile's left edge in its part

        def paint(image: Image.Image, x: int, y: int, i: int = i, card_id: str | None = card_id,
                  shift: int = shift) -> None:
            _paint_tab(image, x + shift, y + above, i + 1, card_id, lay)
            _paint_slot(image, x + shift, y + above + lay.tab, state, card_id, lay)

        def frame(image: Image.Image, x: int, y: int, shift: int = shift) -> None:
            left, card_top = x + shift, y + above + lay.tab
            mark(image, (left, card_top, left + g.width - 1, card_top + g.height - 1))

        new = card_id is not None and card_id in changes.new_market
        card = None if card_id is None else state.card(card_id)
        key = ("market-slot", language, colour, above, i, card)
        parts.append(Part(edges[i], edges[i + 1] - edges[i], key, paint, frame if new else None, new or None,
                          mode="P"))
    deck_size = len(table.deck(colour))
    deck_shift = columns[4] - edges[4]

    def paint_deck(image: Image.Image, x: int, y: int) -> None:
        fonts.draw(image, x + deck_shift, y + above + lay.tab // 2 - 2, labels.colour_deck(colour.value),
                   lay.t.small, MUTED, anchor="lm")
        _paint_deck(image, x + deck_shift, y + above + lay.tab, colour, deck_size, lay)

    parts.append(Part(edges[4], edges[5] - edges[4], ("market-deck", language, colour, above, deck_size),
                      paint_deck, mode="P", final=False))
    return Band(top, above + lay.tab + g.height + GAP, tuple(parts))


def _row_column(lay: TableLayout, i: int) -> int:
    """The left edge of a base-game row's ``i``-th tile (4: the deck)."""
    return MARGIN + int(i * (lay.inner - lay.tile[0]) / 4)


# -- Line Clear: four rows of 3 around the decks, two markers ---------------------------------------

LINE_CLEAR_CELL = 20
"""Smaller market cards so that 3 + deck + 3 fit across the image (7 tiles in 920 px)."""


def _marker_row(lay: TableLayout, names: Sequence[str] = (), table: LineClearTable | None = None) -> int:
    """The row above Line Clear's market that names both marker holders: one line, taller only
    when a holder's label has to be wrapped (a long name)."""
    one = int(lay.t.body * 1.9)
    if table is None:
        return one
    lines = max(len(_marker_label(lay, side, names[seat])[1])
                for side, seat in (("left", table.markers[0]), ("right", table.markers[1])))
    return one if lines == 1 else max(one, int(lay.t.small * (1.25 * lines + 0.7)))


def _marker_room(lay: TableLayout, side: str) -> int:
    """How wide a marker label may be: the left one over the three left columns, the right one
    from the fifth column to the market's right edge (the pill's padding may overhang)."""
    w = lay.card(LINE_CLEAR_CELL).width
    columns = _line_clear_columns(lay)
    return columns[3] - columns[0] - GAP if side == "left" else columns[6] + w - columns[4] - GAP


def _line_clear_columns(lay: TableLayout) -> list[int]:
    """The left edges of Line Clear's seven columns: three cards, the decks, three cards."""
    step = (lay.inner - lay.card(LINE_CLEAR_CELL).width) / 6
    return [MARGIN + int(i * step) for i in range(7)]


def _marker_label(lay: TableLayout, side: str, name: str) -> tuple[int, list[str]]:
    """'White marker: Ann' at the body size if it fits its side, else shrunk down to the image's
    small size, else wrapped onto more lines at that size: a holder's whole name, never cut with
    an ellipsis (issue 31, item 6)."""
    t = lay.t
    marker = labels.WHITE_MARKER if side == "left" else labels.BLACK_MARKER
    label = labels.marker_holder(marker, name)
    room = _marker_room(lay, side)
    size = fonts.fitting_size(label, t.body, room, t.small, bold=True)
    if fonts.width(label, size, bold=True) <= room:
        return size, [label]
    before, _, after = labels.marker_holder(marker, "\0").partition("\0")
    heading = before.rstrip()
    if label == f"{before}{name}{after}" and not after and fonts.width(heading, t.small, True) <= room:
        named = fonts.wrap(name, t.small, room, bold=True)
        return t.small, [heading, *_without_widow(named, t.small, room)]
    return t.small, _without_widow(fonts.wrap(label, t.small, room, bold=True), t.small, room)


def _without_widow(lines: list[str], size: int, room: int) -> list[str]:
    """Wrapped lines whose last is not a lone short word ("Easy AI" / "1"): the word before it
    goes down with it when they fit together."""
    if len(lines) < 2 or len(lines[-1]) > 3 or " " not in lines[-2]:
        return lines
    head, _, word = lines[-2].rpartition(" ")
    joined = f"{word} {lines[-1]}"
    if fonts.width(joined, size, bold=True) > room:
        return lines
    return [*lines[:-2], head, joined]


def _line_clear_height(lay: TableLayout, names: Sequence[str] = (),
                       table: LineClearTable | None = None) -> int:
    h = lay.card(LINE_CLEAR_CELL).height
    return _marker_row(lay, names, table) + 2 * (lay.tab + h) + GAP


def _paint_line_clear(
    image: Image.Image, y: int, state: GameState, table: LineClearTable, names: list[str],
    lay: TableLayout, changes: Changes = NONE,
) -> None:
    """Left rows | decks | right rows, with who holds which marker above each side."""
    g = lay.card(LINE_CLEAR_CELL)
    w, h = g.width, g.height
    t = lay.t
    columns = _line_clear_columns(lay)
    # The markers: the White marker's holder takes from the left rows, the Black's from the right.
    row_h = _marker_row(lay, names, table)
    mid = y + row_h // 2
    for side, marker, seat in (("left", "White", table.markers[0]), ("right", "Black", table.markers[1])):
        fill, ink = (MARKER_WHITE, INK) if marker == "White" else (MARKER_BLACK, WHITE)
        size, lines = _marker_label(lay, side, names[seat])
        if len(lines) == 1 and side == "left":
            pill(image, columns[0], mid, lines[0], size, fill, ink)
        elif len(lines) == 1:
            pill(image, columns[6] + w, mid, lines[0], size, fill, ink, anchor="rm")
        else:
            _wrapped_pill(image, columns[0] if side == "left" else columns[6] + w, mid, lines, size,
                          fill, ink, right=side == "right")
    top = y + row_h
    for colour in (Colour.WHITE, Colour.BLACK):
        for side, first in (("left", 0), ("right", 4)):
            row = table.row(side, colour)
            for i in range(3):
                x = columns[first + i]
                card_id = row[i] if i < len(row) else None
                _paint_tab(image, x, top, i + 1, card_id, lay, cell=LINE_CLEAR_CELL)
                _paint_slot(image, x, top + lay.tab, state, card_id, lay, changes, cell=LINE_CLEAR_CELL)
        deck_x = columns[3]
        label = fonts.fit(labels.DECK, t.small, w - GAP // 2)  # the backs show its colour
        fonts.draw(image, deck_x, top + lay.tab // 2 - 2, label, t.small, MUTED, anchor="lm")
        _paint_deck(image, deck_x, top + lay.tab, colour, len(table.deck(colour)), lay,
                    cell=LINE_CLEAR_CELL)
        top += lay.tab + h + GAP


# -- Solo: 3x3 grid, locks, deck, mastermind ---------------------------------------------------------


def _lock_row(lay: TableLayout) -> int:
    return int(lay.t.small * 1.6)


def _wrapped_pill(image: Image.Image, x: int, mid: int, lines: list[str], size: int, fill: RGB, ink: RGB,
                  *, right: bool) -> None:
    """A marker tag of several lines (a long name wrapped), its edge at ``x`` (its right edge when
    ``right``), centred on ``mid``."""
    pad = size // 2
    line_h = int(size * 1.25)
    w = max(fonts.width(line, size, bold=True) for line in lines) + 2 * pad
    h = line_h * len(lines) + pad // 2
    left = x - w if right else x
    top = mid - h // 2
    ImageDraw.Draw(image).rounded_rectangle((left, top, left + w, top + h), radius=line_h // 2,
                                           fill=indexed.ink(image, fill))
    for n, line in enumerate(lines):
        fonts.draw(image, left + w / 2, top + pad // 4 + line_h * n + line_h / 2, line, size, ink, bold=True,
                   anchor="mm")


def _solo_height(lay: TableLayout) -> int:
    return _lock_row(lay) + 3 * (lay.tab + lay.tile[1]) + 2 * (GAP // 2)


def _paint_solo(
    image: Image.Image, y: int, state: GameState, table: SoloTable, lay: TableLayout, changes: Changes
) -> None:
    w, h = lay.tile
    t = lay.t
    col_step = w + GAP
    lock_mid = y + _lock_row(lay) // 2
    for col in range(3):
        _paint_locks(image, MARGIN + col * col_step + w // 2, lock_mid, table.locks[col], lay, col_step)
    top = y + _lock_row(lay)
    for col in range(3):
        for row in range(3):
            position = row * 3 + col + 1
            card_id = table.grid[position - 1]
            x = MARGIN + col * col_step
            cy = top + row * (lay.tab + h + GAP // 2)
            _paint_tab(image, x, cy, position, card_id, lay)
            _paint_slot(image, x, cy + lay.tab, state, card_id, lay, changes)
    # Right column: the deck, then the mastermind.
    rx = MARGIN + 3 * col_step
    rw = lay.width - MARGIN - rx
    fonts.draw(image, rx, top + lay.tab // 2 - 2, labels.DECK, t.small, MUTED, anchor="lm")
    _paint_deck(image, rx, top + lay.tab, None, len(table.deck), lay)
    my = top + lay.tab + h + GAP
    _paint_mastermind(image, rx, my, rw, y + _solo_height(lay) - my, state, table, lay)


def _paint_locks(image: Image.Image, cx: int, mid: int, count: int, lay: TableLayout, room: int) -> None:
    """Lock pieces above a grid column: one dark block per lock, and the count in words, within
    ``room`` pixels (a longer word keeps one block, or none: the words say it all)."""
    t = lay.t
    if count == 0:
        fonts.draw(image, cx, mid, labels.LOCK_OPEN, t.small, MUTED, anchor="mm")
        return
    size = int(t.small * 0.8)
    label = labels.locks(count)
    words = fonts.width(label, t.small, True)
    shown = count if count <= 3 else 1  # past three blocks the number says it; keep within the column
    while shown and shown * (size + 4) + 6 + words > room:
        shown = 1 if shown > 1 else 0
    label = fonts.fit(label, t.small, room, bold=True)
    total = shown * (size + 4) + (6 if shown else 0) + fonts.width(label, t.small, True)
    x = cx - total // 2
    draw = ImageDraw.Draw(image)
    for _ in range(shown):
        draw.rectangle(
            (x, mid - size // 2, x + size - 1, mid + size // 2), fill=LOCK, outline=PIECE_EDGE, width=2
        )
        x += size + 4
    fonts.draw(image, x + (6 if shown else 0), mid, label, t.small, INK, bold=True, anchor="lm")


def _paint_mastermind(
    image: Image.Image,
    x: int,
    y: int,
    w: int,
    h: int,
    state: GameState,
    table: SoloTable,
    lay: TableLayout,
) -> None:
    """The automated opponent: its score pile and the pieces it will turn into locks."""
    t = lay.t
    draw = ImageDraw.Draw(image)
    pad = t.small // 2 + 4
    line = int(t.small * 1.45)
    box_h = min(h, 2 * pad + int(line * 1.2) + 3 * line + 2 * int(t.small * 1.2))
    draw.rounded_rectangle((x, y, x + w, y + box_h), radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
    cy = y + pad + line // 2
    fonts.draw(image, x + pad, cy, labels.MASTERMIND, t.large, INK, bold=True, anchor="lm")
    cy += int(line * 1.2)
    points = mastermind_points(state)
    rows = (
        (labels.MASTERMIND_SCORE, labels.points(points)),
        (labels.MASTERMIND_PUZZLES, str(len(table.mastermind_pile))),
        (labels.MASTERMIND_PIECES, str(table.mastermind_supply)),
    )
    for label, value in rows:
        fonts.draw(image, x + pad, cy, label, t.small, MUTED, anchor="lm")
        value_w = fonts.draw(image, x + w - pad, cy, value, t.body, INK, bold=True, anchor="rm")
        if label == labels.MASTERMIND_PIECES:
            size = int(t.small * 0.8)
            bx = x + w - pad - value_w - 8 - size
            draw.rectangle(
                (bx, cy - size // 2, bx + size - 1, cy + size // 2), fill=LOCK, outline=PIECE_EDGE, width=2
            )
        cy += line
    cy += int(t.small * 0.1)
    for text in labels.MASTERMIND_TIE_LINES:
        fonts.draw(image, x + pad, cy, text, t.small, MUTED, anchor="lm")
        cy += int(t.small * 1.2)


# -- player panels -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelGrid:
    """Player panels in rows of ``columns``."""

    geometry: PanelGeometry
    columns: int
    row_heights: tuple[int, ...]
    left: int
    """Where the first column of panels starts."""

    @property
    def height(self) -> int:
        return sum(self.row_heights) + GAP * (len(self.row_heights) - 1)

    def bands(
        self, top: int, row: int, above: int, below: int, state: GameState, names: list[str],
        changes: Changes, language: str,
    ) -> Band:
        """Row ``row`` of panels from ``top`` (with ``above`` rows of page over it and ``below``
        under it, drawn with it), as one band, a part per panel. Not split into the panels' heads
        (which change at every action) and bodies: a panel whose head changed is drawn whole
        anyway (from its kept tiles, :class:`_TiledPanel`), and each part is looked up and
        pasted on its own."""
        g = self.geometry
        height = self.row_heights[row]
        parts: list[Part] = []
        for seat in range(row * self.columns, min(len(state.players), (row + 1) * self.columns)):
            x = self.left + seat % self.columns * (g.width + GAP)
            # The frames are drawn over the kept panel (a removed player's panel is greyed over
            # its frames: drawn with them).
            framed = None if is_removed(state.players[seat]) else panel_frames_key(state, seat, changes)
            drawn = NONE if framed is not None else changes
            head, body = panel_keys(state, seat, names, drawn)
            def paint(image: Image.Image, px: int, py: int, seat: int = seat, drawn: Changes = drawn) -> None:
                paint_panel(image, px, py + above, height, state, seat, names, g, drawn)

            removed = is_removed(state.players[seat])
            tiled = None if removed else _TiledPanel(above, height, state, seat, names, g)
            panel = _DrawnPanel(x, top - above, g.width + 1, above + height + below, paint, tiled)
            mode = "RGB" if removed else "P"  # greyed by blending RGB
            on_palette = mode == "P"
            keep = seat not in state.acting_seats  # at the next turn end they have played
            parts.append(Part(x, g.width + 1, ("panel", language, g, above, height, head, body), panel.paste,
                              *self._frames(state, seat, changes, framed, above), mode=mode, keep=keep,
                              drawn=panel.mapped if on_palette else None))
        return Band(top - above, above + height + below, tuple(parts))

    def _frames(
        self, state: GameState, seat: int, changes: Changes, framed: tuple[tuple[str, str], ...] | None,
        above: int,
    ) -> tuple[layers.Painter | None, Hashable]:
        """The cover of a panel's part (the panel ``above`` rows down it): the panel's frames
        (:func:`paint_panel_frames`), none when nothing is framed."""
        if not framed:
            return None, None

        def cover(image: Image.Image, x: int, y: int) -> None:
            paint_panel_frames(image, x, y + above, state, seat, self.geometry, changes)

        return cover, framed


class _DrawnPanel:
    """A panel drawn on a canvas of its own, placed (like every part of :mod:`renders.layers`)
    an even number of pixels from where the image has it: pasted by :meth:`paste`, or, for the
    PNG, drawn on the palette and mapped (:meth:`mapped`)."""

    def __init__(
        self, x: int, top: int, width: int, height: int, paint: layers.Painter,
        tiled: _TiledPanel | None = None,
    ) -> None:
        self._shift = (x % 2, top % 2)
        self._size = (width, height)
        self._paint = paint
        self._tiled = tiled
        self._image: Image.Image | None = None

    def mapped(self) -> Image.Image:
        """The panel on the palette, mapped as quantizing its RGB drawing maps
        (:attr:`layers.Part.drawn`): put together from kept tiles (:class:`_TiledPanel`) when
        it can be, else drawn whole."""
        dx, dy = self._shift
        if self._tiled is not None:
            put_together = self._tiled.mapped(self._size, dx, dy)
            if put_together is not None:
                return put_together
        with indexed.matching_quantize():
            drawn = indexed.canvas((self._size[0] + dx, self._size[1] + dy), PAGE)
            self._paint(drawn, dx, dy)
        if dx or dy:
            drawn = drawn.crop((dx, dy, dx + self._size[0], dy + self._size[1]))
        return indexed.point(drawn, indexed.quantize_lut())

    def paste(self, image: Image.Image, x: int, y: int) -> None:
        """Draw the panel with its top-left corner at (x, y) of ``image``. Its canvas is kept
        with the panel: while the image is drawn no other canvas takes its ``id`` (what
        :func:`renders.fonts.recording` tells canvases apart by)."""
        dx, dy = self._shift
        if self._image is None:  # kept only once drawn whole (a drawing in final indexes may give up)
            own = indexed.blank(image.mode, (self._size[0] + dx, self._size[1] + dy), PAGE)
            self._paint(own, dx, dy)
            self._image = own
        image.paste(self._image.crop((dx, dy, dx + self._size[0], dy + self._size[1])), (x, y))


_TILE_MARGIN = 12
"""Rows and columns of fill around a tile drawn on its own, to check it drew nothing there."""


class _TiledPanel:
    """One panel as :meth:`_DrawnPanel.mapped` wants it (drawn ``above`` rows down its part, in
    rows ``height`` tall), put together from its box and its tiles.

    Why: the two panels drawn again at a turn end (the player who moved, and the one now to move,
    lit) mostly show what they showed before in the same colours — the lit player's puzzles
    were lit at their previous turn, the mover's untouched puzzles and completed cards were
    drawn unlit before it — yet the whole panel was drawn again and every one of its some
    180,000 pixels mapped onto the palette. The same pixels: the box alone, drawn and mapped
    (kept by size), is its fill wherever a tile stands (checked when it is made); a tile
    drawn on its own canvas over the fill, placed (as every part of :mod:`renders.layers`) an
    even number of pixels from where the panel has it, and mapped, gives its pixels of the
    whole drawing, as long as it draws nothing outside its box (checked over a margin around it
    when it is drawn: a tile that does is never used, and the panel is drawn whole)."""

    def __init__(self, above: int, height: int, state: GameState, seat: int, names: list[str],
                 g: PanelGeometry) -> None:
        self._above = above
        self._height = height
        self._state = state
        self._seat = seat
        self._names = names
        self._g = g

    def mapped(self, size: tuple[int, int], dx: int, dy: int) -> Image.Image | None:
        """The panel's part (``size``, the panel ``above`` rows down it), its canvas shifted by
        ``dx``, ``dy`` as :class:`_DrawnPanel` shifts it; None when a tile cannot be used."""
        lit = self._seat in self._state.acting_seats
        box = self._box(size, dx, dy, lit)
        if box is None:
            return None
        image = box.copy()
        top = dy + self._above
        # What every tile's key holds besides the tile, hashed once for the panel's tiles.
        where = HashedKey((dx % 2, top % 2, self._g, lit))
        for tile in panel_tiles(self._state, self._seat, self._names, self._g, self._height):
            drawn = self._tile(tile, dx, top, lit, where)
            if drawn is None:
                return None
            left, tile_top, right, bottom = tile.box
            image.im.paste(drawn.im, (left, self._above + tile_top, right, self._above + bottom))
        return image

    def _box(self, size: tuple[int, int], dx: int, dy: int, lit: bool) -> Image.Image | None:
        g, above, height = self._g, self._above, self._height
        key = HashedKey(("panel box", size, dx, dy, above, height, g, lit))
        found = layers.TILES.find(key)
        if found is not None or key in layers.TILES:
            return found
        with indexed.matching_quantize(final=True):  # solid colours only: no mapping pass
            drawn = indexed.canvas((size[0] + dx, size[1] + dy), PAGE)
            panel_box(drawn, dx, dy + above, height, g, lit)
        mapped: Image.Image | None = drawn.crop((dx, dy, dx + size[0], dy + size[1])) if dx or dy else drawn
        assert mapped is not None
        left, rows = PANEL_TILE_INSET
        inside = mapped.crop((left, above + rows, g.width + 1 - left, above + height - rows)).tobytes()
        if inside != inside[:1] * len(inside):  # pragma: no cover - inside its corners and edges: its fill
            mapped = None
        layers.TILES.keep(key, mapped, 64 if mapped is None else image_bytes(mapped))
        return mapped

    def _tile(self, tile: PanelTile, dx: int, top: int, lit: bool, where: HashedKey) -> Image.Image | None:
        """``tile`` on the palette, mapped, for a panel whose corner is at (``dx``, ``top``) of
        its canvas (only their parities matter: ``where`` holds them, the geometry and ``lit``)."""
        left, tile_top, right, bottom = tile.box
        key = HashedKey((tile.key, tile.box, where))
        found = layers.TILES.find(key)
        if found is not None or key in layers.TILES:
            return found
        # The panel's corner on the tile's canvas: the margin in, an even number from (dx, top).
        ox = _TILE_MARGIN - left + (_TILE_MARGIN - left - dx) % 2
        oy = _TILE_MARGIN - tile_top + (_TILE_MARGIN - tile_top - top) % 2
        inner = (ox + left, oy + tile_top, ox + right, oy + bottom)
        size = (inner[2] + _TILE_MARGIN, inner[3] + _TILE_MARGIN)
        # In final indexes, without the mapping pass, unless a blend reads an ambiguous one
        # (over the unlit panels' fill: always).
        final = tile.final and indexed.reads_as_final(panel_fill(lit))
        try:
            if final:
                with indexed.matching_quantize(final=True):
                    drawn = indexed.canvas(size, panel_fill(lit))
                    tile.paint(drawn, ox, oy)
        except indexed.NotFinal:
            final = False
        if not final:
            with indexed.matching_quantize():
                drawn = indexed.canvas(size, panel_fill(lit))
                tile.paint(drawn, ox, oy)
        fill = drawn.getpixel((0, 0))  # the corner lies in the margin: the fill
        assert isinstance(fill, int)  # a palette index
        outside = drawn.copy()
        outside.paste(fill, inner)
        raw = outside.tobytes()
        mapped: Image.Image | None = None
        if raw == raw[:1] * len(raw):  # nothing drawn outside the box
            mapped = drawn.crop(inner) if final else indexed.point(drawn.crop(inner), indexed.quantize_lut())
        layers.TILES.keep(key, mapped, 64 if mapped is None else image_bytes(mapped))
        return mapped


@lru_cache(maxsize=16)
def _panel_geometry(width: int, t: TextSizes) -> PanelGeometry:
    """The panels' geometry, one object per size: a key holding it then finds a kept one
    holding the same object, which tuples compare by identity, not field by field in Python."""
    return PanelGeometry(width=width, t=t, mini_cell=MINI_CELL, supply_cell=SUPPLY_CELL)


def _panel_grid(state: GameState, lay: TableLayout, columns: int) -> PanelGrid:
    """The players' panels in ``columns`` (:func:`panel_columns_beside`) right of the shared table."""
    count = len(state.players)
    g = _panel_geometry(_panel_width(lay), lay.t)
    hidden = hidden_scores(state, None)  # the table image is public
    heights = [panel_height(p, g, seat in hidden, len(unflipped(state, seat)))
               for seat, p in enumerate(state.players)]
    rows = tuple(max(heights[i : i + columns]) for i in range(0, count, columns))
    return PanelGrid(g, columns, rows, lay.width)
