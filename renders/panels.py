"""Blocks of the table image that every variant shares: status bar, banner, reserve, players.

Each block has a ``*_height`` function and a ``paint_*`` function, so the table can size its
canvas once and then paint straight onto it (one image allocation per render).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import final_round
from engine.cards import Ambassador, Colour, PuzzleCard
from engine.expansions.ambassador import standing
from engine.pieces import BASE_SHAPES, SHAPES, Shape
from engine.state import Counts, GameState, Phase, Placed, PlayerState, RowsTable
from engine.visibility import hidden_scores

from . import fonts, labels
from .card import mini_card, mini_size
from .changes import NONE, Changes
from .draw import (
    dashed_rect,
    disc_image,
    paste_reward,
    pill,
    reward_size,
    rounded_box,
    rounded_rect,
    sprite_size,
)
from .draw import paste_sprite as paste_piece
from .indexed import ink, paste_blended, paste_sprite, sprite_mode
from .palette import (
    ACCENT,
    ACCENT_SOFT,
    BAD,
    BANNER_END,
    BANNER_FINISH,
    BANNER_LAST,
    BANNER_OVER,
    CARD_BLACK,
    CARD_WHITE,
    HEADER,
    HIGHLIGHT,
    INK,
    MARKER_BLACK,
    MARKER_WHITE,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    SLOT,
    WHITE,
    mix,
)
from .rank import shown_points, winners_text

DONE_CELL = 6  # completed cards in a panel: small flat thumbnails
MARK_WIDTH = 4  # the frame around what changed since the previous post


@dataclass(frozen=True, slots=True)
class TextSizes:
    """Text sizes for one image, all derived from its width so they stay legible when Discord
    shrinks the image to a phone's ~400 px: the smallest is 3% of the width (12 px at 400)."""

    small: int
    body: int
    large: int
    huge: int

    @classmethod
    def for_width(cls, width: int) -> TextSizes:
        small = -(-width * 3 // 100)  # ceil(3% of width)
        return cls(small=small, body=round(small * 1.15), large=round(small * 1.35), huge=round(small * 1.7))


def is_removed(player: PlayerState) -> bool:
    """A player removed for absence (a field the state may gain later)."""
    return bool(getattr(player, "removed", False))


# -- status bar and banner ----------------------------------------------------------------------------


def status_height(t: TextSizes) -> int:
    return int(t.large * 2)


def paint_status(image: Image.Image, state: GameState, names: list[str], width: int, t: TextSizes) -> None:
    """Round, whose turn, and the current player's remaining actions as pips."""
    h = status_height(t)
    ImageDraw.Draw(image).rectangle((0, 0, width, h - 1), fill=ink(image, HEADER))
    mid = h // 2
    pad = t.small
    right = width - pad
    if state.phase is Phase.PLAY and not state.turns:
        pip = int(t.small * 0.85)
        for i in reversed(range(3)):
            filled = i < state.actions_left
            disc = disc_image(pip, ACCENT if filled else HEADER, None if filled else mix(HEADER, WHITE, 0.6))
            right -= pip
            paste_blended(image, disc, (right, mid - pip // 2))
            right -= pip // 3
        right -= pad // 2
        left_text = labels.actions_left_short(state.actions_left)
        right -= fonts.draw(image, right, mid, left_text, t.small, WHITE, anchor="rm") + pad
    x = pad
    x += fonts.draw(image, x, mid, labels.round_number(state.round), t.large, WHITE, bold=True, anchor="lm")
    if state.phase is Phase.OVER:
        return
    x += pad
    if state.turns and state.phase is Phase.PLAY:
        # Line Clear: both marker holders play at once; each panel shows its own actions left.
        who = [names[seat] for seat in state.acting_seats]
    else:
        who = [names[state.current]]
    text = labels.to_play(labels.join_names(who))
    size = fonts.fitting_size(text, t.body, right - x, t.small, bold=True)  # shrink before cutting
    text = fonts.fit_names(lambda shown: labels.to_play(labels.join_names(shown)), who, size, right - x, True)
    fonts.draw(image, x, mid, text, size, ACCENT, bold=True, anchor="lm")


def panel_name(name: str, room: int, t: TextSizes) -> tuple[int, str]:
    """How a player's name is set in ``room`` pixels of their panel's header, on one line (two
    crowded the status line under it): at the large size if it fits, else shrunk down to the
    image's small size, else shortened there with an ellipsis (:func:`fonts.fit_name`: a seat
    number at its end is kept).

    >>> t = TextSizes.for_width(960)
    >>> panel_name("Ana", 300, t)
    (39, 'Ana')
    >>> panel_name("Maximiliano Rodrigues da Silva 2", 300, t)
    (29, 'Maximiliano Rodri… 2')
    """
    size = fonts.fitting_size(name, t.large, room, t.small, bold=True)
    return size, fonts.fit_name(name, size, room, bold=True)


def _paint_panel_name(image: Image.Image, x: int, mid: int, name: str, room: int, t: TextSizes) -> None:
    size, shown = panel_name(name, room, t)
    fonts.draw(image, x, mid, shown, size, INK, bold=True, anchor="lm")


def banner_text(state: GameState, names: list[str]) -> tuple[str, RGB] | None:
    """The end-of-game banner for the current phase, if any."""
    if state.phase is Phase.OVER:
        return labels.banner_over(winners_text(state, names)), BANNER_OVER
    if state.phase is Phase.FINISHING:
        return labels.BANNER_FINISHING, BANNER_FINISH
    last = final_round(state)
    if last is None:
        return None
    if state.round >= last:
        return labels.banner_last_round(last), BANNER_LAST
    return labels.banner_end_triggered(last, isinstance(state.table, RowsTable)), BANNER_END


def banner_height(state: GameState, t: TextSizes) -> int:
    return int(t.body * 1.8) if state.phase is not Phase.PLAY or state.last_round is not None else 0


def paint_banner(
    image: Image.Image, y: int, state: GameState, names: list[str], width: int, t: TextSizes
) -> None:
    found = banner_text(state, names)
    if found is None:
        return
    text, colour = found
    h = banner_height(state, t)
    ImageDraw.Draw(image).rectangle((0, y, width, y + h - 1), fill=ink(image, colour))
    text = fonts.fit(text, t.body, width - 2 * t.small, bold=True)
    fonts.draw(image, width / 2, y + h / 2, text, t.body, WHITE, bold=True, anchor="mm")


# -- reserve -------------------------------------------------------------------------------------------


def reserve_shapes(state: GameState) -> list[Shape]:
    """The nine base shapes, plus the ghost pieces when the game plays with them (shown even
    when gone, faded like any shape the reserve has run out of)."""
    return [s for s in SHAPES if s in BASE_SHAPES or state.options.ghost or state.reserve[s.index] > 0]


def reserve_height(t: TextSizes, cell: int) -> int:
    return int(t.body * 1.4) + int(t.small * 1.2) + 2 * cell + int(t.body * 1.3) + t.small // 3


def reserve_edges(x: int, width: int, count: int, image_width: int) -> list[int]:
    """Where the reserve of ``count`` shapes, ``width`` px from ``x``, is cut into a part per
    shape (:func:`paint_reserve`'s ``only``): the slots' edges, from the image's left edge to
    its right one."""
    slot = width / count
    return [0] + [int(x + slot * i) for i in range(1, count)] + [image_width]


def paint_reserve(
    image: Image.Image, x: int, y: int, width: int, state: GameState, t: TextSizes, cell: int,
    only: int | None = None,
) -> None:
    """Every shape in the reserve, drawn, with its code above and count below (empty: greyed).
    ``only``: the box and its titles, but of the shapes only that one (the table draws each
    shape's slot as a part of its own, clipped to it, so that a count that changed draws one
    slot again: a shape's code, icon and count stay inside its slot)."""
    h = reserve_height(t, cell)
    rounded_rect(image, (x, y, x + width, y + h), 12, fill=PANEL, outline=PANEL_EDGE, width=2)
    title_y = y + int(t.body * 0.75)
    fonts.draw(image, x + t.small // 2, title_y, labels.RESERVE, t.body, INK, bold=True, anchor="lm")
    fonts.draw(image, x + width - t.small // 2, title_y, labels.RESERVE_HINT, t.small, MUTED, anchor="rm")
    shapes = reserve_shapes(state)
    slot = width / len(shapes)
    code_mid = y + int(t.body * 1.4) + int(t.small * 0.5)
    sprite_mid = code_mid + int(t.small * 0.7) + cell
    count_mid = sprite_mid + cell + int(t.body * 0.65)
    for i, shape in enumerate(shapes):
        if only is not None and i != only:
            continue
        cx = int(x + slot * i + slot / 2)
        count = state.reserve[shape.index]
        fonts.draw(image, cx, code_mid, shape.value, t.small, MUTED, anchor="mm")
        paste_piece(image, shape, cell, cx, sprite_mid, anchor="mm", faded=count == 0)
        fonts.draw(
            image, cx, count_mid, str(count), t.body, BAD if count == 0 else INK, bold=True, anchor="mm"
        )


def _grey_box(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Fade a region to grey: for things no longer available."""
    region = image.crop(box).convert("L").convert("RGB")
    faded = Image.blend(region, Image.new("RGB", region.size, PANEL), 0.6)
    image.paste(faded, box[:2])


# -- player panels -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelGeometry:
    """A panel's measures. The derived ones (fields not set by the caller) are worked out once,
    when it is made: read some 400 times a table image (tile keys and boxes, heights, frames),
    as properties they cost a Python call each, some of them five (``side``); and its hash is
    kept (it is in every panel tile's key and every panel part's)."""

    width: int
    t: TextSizes
    mini_cell: int
    supply_cell: int
    pad: int = field(init=False, repr=False, compare=False)
    thumb: int = field(init=False, repr=False, compare=False)
    head: int = field(init=False, repr=False, compare=False)
    puzzles: int = field(init=False, repr=False, compare=False)
    done_thumb: int = field(init=False, repr=False, compare=False)
    done_step: int = field(init=False, repr=False, compare=False)
    line: int = field(init=False, repr=False, compare=False)
    inner: int = field(init=False, repr=False, compare=False)
    puzzles_width: int = field(init=False, repr=False, compare=False)
    side: bool = field(init=False, repr=False, compare=False)
    """Wide panels (Solo) put the supply beside the puzzles instead of under them."""
    thumb_gap: int = field(init=False, repr=False, compare=False)
    supply_width: int = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        small = self.t.small
        thumb = mini_size(self.mini_cell)
        pad = small // 2
        inner = self.width - 2 * (pad + 4)
        puzzles_width = 4 * thumb + 3 * (small // 2)
        side = inner - puzzles_width >= 12 * small
        done_thumb = mini_size(DONE_CELL)
        derived = {
            "pad": pad,
            "thumb": thumb,
            "head": int(self.t.large * 1.35) + int(small * 1.35),
            "puzzles": thumb + int(small * 1.45),
            "done_thumb": done_thumb,
            "done_step": done_thumb + small // 3,
            "line": max(int(small * 1.35), 2 * self.supply_cell + 8),
            "inner": inner,
            "puzzles_width": puzzles_width,
            "side": side,
            "thumb_gap": small // 2 if side else (inner - 4 * thumb) // 3,
            "supply_width": inner - puzzles_width - small if side else inner,
            "_hash": hash((self.width, self.t, self.mini_cell, self.supply_cell)),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def __hash__(self) -> int:
        return self._hash

    def done_per_line(self) -> int:
        room = self.inner - fonts.width(labels.DONE, self.t.small) - self.t.small // 2
        return max(1, (room + self.t.small // 3) // self.done_step)


SupplyLines = tuple[tuple[tuple[Shape, int], ...], ...]
"""Supply items in lines: (shape, item width) per item."""


def _supply_layout(player: PlayerState, g: PanelGeometry) -> SupplyLines:
    """Supply items flowed into lines: [(shape, item width)] per line."""
    return _flowed_supply(player.supply, g, labels.language_key())


@lru_cache(maxsize=1024)
def _flowed_supply(supply: Counts, g: PanelGeometry, language: str) -> SupplyLines:
    """:func:`_supply_layout` of a supply in the words of ``language`` (the current ones): worked
    out once per supply, not at each of the four places a table image needs it (its height, the
    panel, the frames), each asking the width of every count (1.4 M instructions a table)."""
    lines: list[list[tuple[Shape, int]]] = [[]]
    room = g.supply_width - fonts.width(labels.SUPPLY, g.t.small) - g.t.small // 2
    used = 0
    for shape in SHAPES:
        if supply[shape.index] <= 0:
            continue
        w = (
            sprite_size(shape, g.supply_cell)[0]
            + 4
            + fonts.width(labels.count_of(supply[shape.index]), g.t.small, True)
        )
        if lines[-1] and used + w > room:
            lines.append([])
            used = 0
        lines[-1].append((shape, w))
        used += w + g.t.small * 2 // 3
    return tuple(tuple(line) for line in lines)


def _done_lines(player: PlayerState, g: PanelGeometry) -> int:
    return -(-len(player.completed) // g.done_per_line())


def panel_height(player: PlayerState, g: PanelGeometry, hidden: bool = False, ambassadors: int = 0) -> int:
    """``hidden``: the player's score pile is face down to the viewer (no completed thumbnails).
    ``ambassadors``: how many unflipped Ambassador cards the player has (Ambassador Pack): one
    more line when any (none: the panel is exactly as without the pack)."""
    supply = len(_supply_layout(player, g)) * g.line
    body = max(g.puzzles, supply) if g.side else g.puzzles + g.pad // 2 + supply
    shown = player.completed and not hidden
    done = _done_lines(player, g) * g.done_step + g.pad // 2 if shown else 0
    extra = g.pad // 2 + g.line if ambassadors else 0
    return g.pad + g.head + body + done + extra + g.pad


def mark(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Frame ``box`` in the highlight colour: it changed since the previous turn post."""
    x0, y0, x1, y1 = box
    frame = (x0 - MARK_WIDTH - 1, y0 - MARK_WIDTH - 1, x1 + MARK_WIDTH + 1, y1 + MARK_WIDTH + 1)
    rounded_box(image, frame, 6, outline=HIGHLIGHT, width=MARK_WIDTH)


def panel_keys(
    state: GameState, seat: int, names: list[str], changes: Changes = NONE
) -> tuple[Hashable, Hashable]:
    """Everything :func:`paint_panel` reads for ``seat`` (besides its geometry and the words),
    split as it is drawn: the head (the rows above the puzzles: name, score, status line,
    and the tops of the frames around puzzles) and the body (puzzles with their frames, supply,
    completed cards). Both hold what colours the whole panel. Keep them with
    :func:`paint_panel`: a cached panel (:mod:`renders.layers`) is drawn again only when one of
    them changes."""
    player = state.players[seat]
    current = seat in state.acting_seats
    hidden = seat in hidden_scores(state, None)
    framed = panel_frames_key(state, seat, changes)
    common = (seat, current, is_removed(player), state.phase, state.options, hidden, framed)
    head = (
        *common, names[seat], shown_points(state, seat), state.actions_left if current else None,
        state.turn_of(seat), seat in state.held, player.finishing_pieces, player.finished_touches,
        player.banked_cards, len(player.completed), tuple(p.card for p in player.puzzles),
    )
    ids = [p.card for p in player.puzzles] + [d.card for d in player.completed]
    ambassadors = standing(state, seat)
    body = (
        *common, player.puzzles, player.supply, player.completed,
        tuple(state.card(card_id) for card_id in ids), ambassadors,
        tuple(state.card(card_id).points for card_id, _, _ in ambassadors),
    )
    return head, body


def panel_frames_key(state: GameState, seat: int, changes: Changes) -> tuple[tuple[str, str], ...]:
    """What :func:`paint_panel_frames` draws for ``seat``: which of its puzzles and completed
    cards are framed."""
    player = state.players[seat]
    return tuple(sorted(
        {("puzzle", p.card) for p in player.puzzles if changes.marks_puzzle(seat, p.card)}
        | {("done", d.card) for d in player.completed if changes.marks_completed(seat, d.card)}
    ))


def paint_panel(
    image: Image.Image,
    x: int,
    y: int,
    height: int,
    state: GameState,
    seat: int,
    names: list[str],
    g: PanelGeometry,
    changes: Changes = NONE,
    *,
    frames: bool = True,
) -> None:
    """One player: name, score, status, open puzzles with pieces, supply, completed cards.

    What ``changes`` names (puzzles taken or given pieces, cards completed) is framed, last
    (:func:`paint_panel_frames`); ``frames`` False leaves that to the caller, who draws them
    over the panel when they are all that changed (a removed player's panel is greyed over its
    frames, so it always has them). The table is public: a score pile that
    :func:`engine.visibility.hidden_scores` hides shows its count in the status line but
    neither its cards nor the points. Drawn as :func:`panel_box` and then each of
    :func:`panel_tiles` (which :mod:`renders.table` also puts together from tiles kept apart)."""
    player = state.players[seat]
    removed = is_removed(player)
    panel_box(image, x, y, height, g, seat in state.acting_seats and not removed)
    for tile in panel_tiles(state, seat, names, g, height):
        tile.paint(image, x, y)
    if frames or removed:
        paint_panel_frames(image, x, y, state, seat, g, changes)
    if removed:  # everything greyed, then the reason restored in colour
        t = g.t
        status_mid = y + g.pad + int(t.large * 1.35) + int(t.small * 0.6)
        _grey_box(image, (x + 2, y + 2, x + g.width - 2, y + height - 2))
        fonts.draw(image, x + g.pad + 4, status_mid, labels.LEFT_THE_GAME, t.small, BAD, bold=True,
                   anchor="lm")


def panel_fill(lit: bool) -> RGB:
    """The colour inside a panel: the player to move's (``lit``) or everyone else's."""
    return ACCENT_SOFT if lit else PANEL


def panel_box(image: Image.Image, x: int, y: int, height: int, g: PanelGeometry, lit: bool) -> None:
    """A panel's rounded box, lit for the player to move (not a removed one)."""
    box = (x, y, x + g.width, y + height)
    if lit:
        rounded_rect(image, box, 14, fill=panel_fill(True), outline=ACCENT, width=5)
    else:
        rounded_rect(image, box, 14, fill=panel_fill(False), outline=PANEL_EDGE, width=2)


PANEL_TILE_INSET = (15, 6)
"""How far in from a panel's box its tiles stay (columns, rows): past the rounded corners'
radius (14) and the widest outline (5), where the box is its fill colour alone."""


@dataclass(frozen=True, slots=True)
class PanelTile:
    """A rectangle of a panel, ``box`` (left, top, right, bottom; right and bottom exclusive)
    from the panel's top-left corner, drawn over the panel's fill by ``paint(image, x, y)``
    (the panel's corner at x, y); ``key``: everything ``paint`` reads besides the panel's fill,
    the geometry and where the tile stands. What a tile draws stays inside its box, and the
    tiles do not overlap: drawn on a canvas of its own over the fill, a tile gives the pixels
    it has in the whole panel (:func:`renders.table` checks the first part: a tile drawn past
    its box is not used)."""

    box: tuple[int, int, int, int]
    key: Hashable
    paint: Callable[[Image.Image, int, int], None]
    final: bool = True
    """False: its drawing in final palette indexes always gives up (a puzzle's label blends
    over its card's colours), so it is drawn and mapped at once (as :attr:`renders.layers.Part.final`)."""


def panel_tiles(
    state: GameState, seat: int, names: list[str], g: PanelGeometry, height: int,
) -> list[PanelTile]:
    """The tiles :func:`paint_panel` draws over :func:`panel_box`, in its order: the head (name,
    score, status line), each open puzzle's slot (its thumbnail and label, or a free slot), the
    supply and the tail (completed cards, Ambassador actions). Each keyed by what it shows, so
    that a panel drawn again for one change (the player to move lit, a piece placed) finds its
    other tiles drawn already."""
    player = state.players[seat]
    hidden = seat in hidden_scores(state, None)
    t = g.t
    current = seat in state.acting_seats
    removed = is_removed(player)
    language = labels.language_key()
    pad = g.pad + 4
    left, right = PANEL_TILE_INSET[0], g.width + 1 - PANEL_TILE_INSET[0]
    py = g.pad + g.head
    turn = state.turn_of(seat)

    def head(image: Image.Image, x: int, y: int) -> None:
        top = y + g.pad
        name_mid = top + int(t.large * 0.7)
        points = shown_points(state, seat)
        right_edge = x + g.width - pad
        if hidden and current and not removed:
            # The status line of the player to move tells their actions, not their puzzles done;
            # with the pile face down its size would then be nowhere on the table, so it stands
            # here, in place of the points nobody may see.
            done = labels.done_count(player.banked_cards + len(player.completed))
            score_w = fonts.draw(image, right_edge, name_mid, done, t.small, MUTED, anchor="rm")
        else:
            unit = labels.POINTS_HIDDEN_UNIT if hidden else labels.points_unit(points)
            score_w = fonts.draw(image, right_edge, name_mid, unit, t.small, MUTED, anchor="rm")
            number = labels.POINTS_HIDDEN if hidden else str(points)
            score_w += fonts.draw(image, right_edge - score_w - 6, name_mid, number, t.large, INK, bold=True,
                                  anchor="rm") + 6
        _paint_panel_name(image, x + pad, name_mid, names[seat], g.width - 2 * pad - score_w - t.small, t)
        status_mid = top + int(t.large * 1.35) + int(t.small * 0.6)
        _paint_status_line(image, x + pad, status_mid, g.width - 2 * pad, state, seat, t, removed, current)

    head_key = ("head", language, current, removed, hidden, names[seat], shown_points(state, seat),
                state.phase, state.actions_left if current else None, turn, player.finishing_pieces,
                player.finished_touches, player.banked_cards, len(player.completed))
    tiles = [PanelTile((left, PANEL_TILE_INSET[1], right, py), head_key, head)]
    # Open puzzles (four slots).
    for i in range(4):
        px = pad + i * (g.thumb + g.thumb_gap)
        if i < len(player.puzzles):
            puzzle = player.puzzles[i]
            card = state.card(puzzle.card)

            def slot(image: Image.Image, x: int, y: int, px: int = px, card: PuzzleCard = card,
                     pieces: tuple[Placed, ...] = puzzle.pieces) -> None:
                thumb = mini_card(card, pieces, g.mini_cell, False, sprite_mode(image))
                paste_sprite(image, thumb, (x + px, y + py))
                label_mid = y + py + g.thumb + int(t.small * 0.75)
                _paint_thumb_label(image, x + px, label_mid, g.thumb, card.id, card.points, card.colour, t)

            tiles.append(PanelTile((px, py, px + g.thumb, py + g.puzzles), ("puzzle", card, puzzle.pieces),
                                   slot, final=False))
        elif state.phase is not Phase.OVER:  # a free slot (nothing is free once the game is over)

            def free(image: Image.Image, x: int, y: int, px: int = px) -> None:
                box = (x + px, y + py, x + px + g.thumb - 1, y + py + g.thumb - 1)
                dashed_rect(image, box, SLOT, width=3, dash=8)

            tiles.append(PanelTile((px, py, px + g.thumb, py + g.thumb), ("free",), free))
    # Supply.
    lines = _supply_layout(player, g)
    if g.side:
        sx, sy = pad + g.puzzles_width + t.small, py
        supply_box = (sx - t.small // 2, py, right, py + max(g.puzzles, len(lines) * g.line))
    else:
        sx, sy = pad, py + g.puzzles + g.pad // 2
        supply_box = (left, py + g.puzzles, right, sy + len(lines) * g.line)

    def supply(image: Image.Image, x: int, y: int) -> None:
        label_w = fonts.draw(image, x + sx, y + sy + g.line // 2, labels.SUPPLY, t.small, MUTED, anchor="lm")
        if not lines[0]:
            fonts.draw(image, x + sx + label_w + t.small // 2, y + sy + g.line // 2, labels.SUPPLY_EMPTY,
                       t.small, MUTED, anchor="lm")
        line_y = y + sy
        for line in lines:
            ix = x + sx + label_w + t.small // 2
            mid = line_y + g.line // 2
            for shape, w in line:
                sw = paste_piece(image, shape, g.supply_cell, ix, mid, anchor="lm")
                fonts.draw(image, ix + sw + 4, mid, labels.count_of(player.supply[shape.index]), t.small, INK,
                           bold=True, anchor="lm")
                ix += w + t.small * 2 // 3
            line_y += g.line

    tiles.append(PanelTile(supply_box, ("supply", language, player.supply), supply))
    # The tail: completed cards and Ambassador actions, under the puzzles and the supply.
    body_bottom = max(py + g.puzzles, sy + len(lines) * g.line) if g.side else sy + len(lines) * g.line
    done_shown = bool(player.completed) and not hidden
    ambassadors = standing(state, seat)

    def tail(image: Image.Image, x: int, y: int) -> None:
        bottom = y + body_bottom
        if done_shown:
            _paint_done(image, x + pad, bottom + g.pad // 2, state, seat, g)
            bottom += g.pad // 2 + _done_lines(player, g) * g.done_step
        _paint_ambassadors(image, x + pad, bottom + g.pad // 2, g.width - 2 * pad, state, seat, g)

    if done_shown or ambassadors:
        tail_key = ("tail", language, player.completed if done_shown else None,
                    tuple(state.card(d.card) for d in player.completed) if done_shown else None,
                    ambassadors, tuple(state.card(card_id) for card_id, _, _ in ambassadors))
        tiles.append(PanelTile((left, body_bottom, right, max(body_bottom + 1, height - PANEL_TILE_INSET[1])),
                               tail_key, tail))
    return tiles


def _paint_done(image: Image.Image, x: int, y: int, state: GameState, seat: int, g: PanelGeometry) -> None:
    """'Done' and every completed card as a small flat thumbnail, in the order completed."""
    fonts.draw(image, x, y + g.done_thumb // 2, labels.DONE, g.t.small, MUTED, anchor="lm")
    for done, (tx, ty) in zip(state.players[seat].completed, _done_places(x, y, state, seat, g), strict=True):
        thumb = mini_card(state.card(done.card), done.pieces, DONE_CELL, True, sprite_mode(image))
        paste_sprite(image, thumb, (tx, ty))


def _done_places(x: int, y: int, state: GameState, seat: int, g: PanelGeometry) -> list[tuple[int, int]]:
    """Where :func:`_paint_done` (its label at ``x``, ``y``) puts each completed card."""
    left = x + fonts.width(labels.DONE, g.t.small) + g.t.small // 2
    per_line = g.done_per_line()
    places = []
    for i in range(len(state.players[seat].completed)):
        row, col = divmod(i, per_line)
        places.append((left + col * g.done_step, y + row * g.done_step))
    return places


def _body_bottom(x: int, y: int, player: PlayerState, g: PanelGeometry) -> int:
    """Where a panel at ``x``, ``y`` ends its puzzles and supply (its completed cards follow)."""
    py = y + g.pad + g.head
    sy = py if g.side else py + g.puzzles + g.pad // 2
    sy += len(_supply_layout(player, g)) * g.line
    return max(py + g.puzzles, sy) if g.side else sy


def paint_panel_frames(
    image: Image.Image, x: int, y: int, state: GameState, seat: int, g: PanelGeometry, changes: Changes
) -> None:
    """The frames :func:`paint_panel` draws last, around the puzzles taken or given pieces and
    the cards completed since the previous post (what :func:`panel_frames_key` names): nothing
    the panel draws lies under them but the thumbnails, so drawn over a panel drawn without
    them they give the same pixels."""
    player = state.players[seat]
    pad = g.pad + 4
    py = y + g.pad + g.head
    for i, puzzle in enumerate(player.puzzles[:4]):
        if changes.marks_puzzle(seat, puzzle.card):
            px = x + pad + i * (g.thumb + g.thumb_gap)
            mark(image, (px, py, px + g.thumb - 1, py + g.thumb - 1))
    if not player.completed or seat in hidden_scores(state, None):
        return
    places = _done_places(x + pad, _body_bottom(x, y, player, g) + g.pad // 2, state, seat, g)
    for done, (tx, ty) in zip(player.completed, places, strict=True):
        if changes.marks_completed(seat, done.card):
            mark(image, (tx, ty, tx + g.done_thumb - 1, ty + g.done_thumb - 1))


def _paint_ambassadors(
    image: Image.Image, x: int, y: int, room: int, state: GameState, seat: int, g: PanelGeometry
) -> None:
    """Ambassador Pack: the seat's unflipped Ambassador actions, each as its card's id and a points
    tag in the card's colour (the style under every thumbnail), after the Ambassador diamond when
    it may be flipped now (not when completed this turn): 'Ambassador  ◆B33 [4]  W45 [2]'; the
    legend under the market says so (:data:`labels.AMBASSADOR_READY_LEGEND`). The cards lie face
    up, so the public table shows them whatever ``known_scores`` says; an action whose card the
    Endless White Deck banked shows as 'banked' (the card is back in the deck). Nothing when the
    seat has none; what does not fit the panel's width is left out (the mat lists them all)."""
    actions = standing(state, seat)
    if not actions:
        return
    t = g.t
    mid = y + g.line // 2
    left = x + fonts.draw(image, x, mid, labels.TABLE_AMBASSADORS, t.small, MUTED, anchor="lm") + t.small // 2
    diamond = ambassador_cell(t)
    for card_id, ready_now, banked in actions:
        card = state.card(card_id)
        mark_w = reward_size(Ambassador.ACTION, diamond)[0] + t.small // 6 if ready_now else 0
        if banked:
            width = fonts.width(labels.AMBASSADOR_BANKED, t.small)
        else:
            _, tag_w = thumb_label_layout(card.id, card.points, room, t)
            width = fonts.width(card.id, t.small) + t.small // 3 + tag_w
        if left + mark_w + width > x + room:
            break
        if ready_now:
            paste_reward(image, Ambassador.ACTION, diamond, left, mid)
        if banked:
            fonts.draw(image, left + mark_w, mid, labels.AMBASSADOR_BANKED, t.small, MUTED, anchor="lm")
        else:
            _paint_thumb_label(image, left + mark_w, mid, width, card.id, card.points, card.colour, t)
        left += mark_w + width + t.small // 2


def ambassador_cell(t: TextSizes) -> int:
    """The cell of the Ambassador diamond beside a card or a legend: about a capital's height."""
    return max(4, t.small // 3)


@lru_cache(maxsize=1024)
def thumb_label_layout(card_id: str, points: int, width: int, t: TextSizes) -> tuple[str, int]:
    """The id as drawn under a thumbnail and the width of its points tag: the id is shortened
    only if it cannot keep a clear gap (a third of the text size) before the tag (worked out
    once per card and width: the fonts' measures alone, no words of a language)."""
    tag_w = fonts.width(str(points), t.small, True) + t.small // 4
    return fonts.fit(card_id, t.small, width - tag_w - t.small // 3), tag_w


def _paint_thumb_label(
    image: Image.Image,
    x: int,
    mid: int,
    width: int,
    card_id: str,
    points: int,
    colour: Colour,
    t: TextSizes,
) -> None:
    """'W07 [2]' under a thumbnail: the id, and the points in a tag in the card's colour."""
    shown, tag_w = thumb_label_layout(card_id, points, width, t)
    fonts.draw(image, x, mid, shown, t.small, INK, anchor="lm")
    text = str(points)
    tag_h = int(t.small * 1.05)
    white = colour is Colour.WHITE
    body, edge, text_ink = (CARD_WHITE, INK, INK) if white else (CARD_BLACK, CARD_BLACK, WHITE)
    box = (x + width - tag_w, mid - tag_h // 2, x + width - 1, mid + tag_h // 2)
    rounded_box(image, box, 5, fill=body, outline=edge, width=2)
    fonts.draw(image, (box[0] + box[2]) / 2, mid, text, t.small, text_ink, bold=True, anchor="mm")


def _paint_status_line(
    image: Image.Image,
    x: int,
    mid: int,
    room: int,
    state: GameState,
    seat: int,
    t: TextSizes,
    removed: bool,
    current: bool,
) -> None:
    """The line under a player's name, within ``room`` pixels: a pill (to play, a Line Clear
    marker, Finishing) and the text beside it, or the puzzles done."""
    player = state.players[seat]

    def beside(box: tuple[int, int, int, int], text: str) -> None:
        left = box[2] + 8
        fonts.draw(image, left, mid, fonts.fit(text, t.small, x + room - left), t.small, INK, anchor="lm")

    if removed:
        fonts.draw(image, x, mid, fonts.fit(labels.LEFT_THE_GAME, t.small, room, True), t.small, BAD,
                   bold=True, anchor="lm")
        return
    if state.phase is Phase.FINISHING:
        placed = player.finishing_pieces
        if current:
            beside(pill(image, x, mid, labels.FINISHING_PILL, t.small, ACCENT, WHITE),
                   labels.finishing_placed(placed))
        else:
            text = labels.finishing_status(player.finished_touches, placed)
            fonts.draw(image, x, mid, fonts.fit(text, t.small, room), t.small, MUTED, anchor="lm")
        return
    turn = state.turn_of(seat)
    if turn is not None:
        # Line Clear: the marker this player holds, and their own actions left.
        white = turn.side == "left"
        label = labels.WHITE_MARKER_PILL if white else labels.BLACK_MARKER_PILL
        fill, text_ink = (MARKER_WHITE, INK) if white else (MARKER_BLACK, WHITE)
        box = pill(image, x, mid, label, t.small, fill, text_ink)
        beside(box, labels.TURN_DONE_WAITING if turn.done else labels.actions_left(turn.actions_left))
        return
    if current:
        beside(pill(image, x, mid, labels.TO_PLAY_PILL, t.small, ACCENT, WHITE),
               labels.actions_left(state.actions_left))
        return
    done = labels.puzzles_done(player.banked_cards + len(player.completed))
    fonts.draw(image, x, mid, fonts.fit(done, t.small, room), t.small, MUTED, anchor="lm")
