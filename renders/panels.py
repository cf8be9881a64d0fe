"""Blocks of the table image that every variant shares: status bar, banner, reserve, players.

Each block has a ``*_height`` function and a ``paint_*`` function, so the table can size its
canvas once and then paint straight onto it (one image allocation per render).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.cards import Colour
from engine.pieces import BASE_SHAPES, SHAPES, Shape
from engine.state import GameState, Phase, PlayerState, RowsTable

from . import fonts
from .card import mini_card, mini_size
from .draw import dashed_rect, disc_image, paste_sprite, pill, sprite_size
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
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    RGB,
    SLOT,
    WHITE,
    mix,
)
from .rank import winners_text


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


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# -- status bar and banner ----------------------------------------------------------------------------


def status_height(t: TextSizes) -> int:
    return int(t.large * 2)


def paint_status(image: Image.Image, state: GameState, names: list[str], width: int, t: TextSizes) -> None:
    """Round, whose turn, and the current player's remaining actions as pips."""
    h = status_height(t)
    ImageDraw.Draw(image).rectangle((0, 0, width, h - 1), fill=HEADER)
    mid = h // 2
    pad = t.small
    right = width - pad
    if state.phase is Phase.PLAY:
        pip = int(t.small * 0.85)
        for i in reversed(range(3)):
            filled = i < state.actions_left
            disc = disc_image(pip, ACCENT if filled else HEADER, None if filled else mix(HEADER, WHITE, 0.6))
            right -= pip
            image.paste(disc, (right, mid - pip // 2), disc)
            right -= pip // 3
        right -= pad // 2
        left_text = f"{state.actions_left} left"
        right -= fonts.draw(image, right, mid, left_text, t.small, WHITE, anchor="rm") + pad
    x = pad
    x += fonts.draw(image, x, mid, f"Round {state.round}", t.large, WHITE, bold=True, anchor="lm")
    if state.phase is Phase.OVER:
        return
    x += pad
    who = names[state.current]
    text = fonts.fit(f"{who} to play", t.body, right - x)
    fonts.draw(image, x, mid, text, t.body, ACCENT, bold=True, anchor="lm")


def banner_text(state: GameState, names: list[str]) -> tuple[str, RGB] | None:
    """The end-of-game banner for the current phase, if any."""
    if state.phase is Phase.OVER:
        return f"Game over: {winners_text(state, names)}", BANNER_OVER
    if state.phase is Phase.FINISHING:
        return "Finishing Touches: -1 point per piece placed", BANNER_FINISH
    if state.last_round is None:
        return None
    if state.round >= state.last_round:
        return f"Last round! Round {state.last_round} is the final round", BANNER_LAST
    limit = " (1 black per turn)" if isinstance(state.table, RowsTable) else ""
    return f"End triggered: round {state.last_round} is the last{limit}", BANNER_END


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
    ImageDraw.Draw(image).rectangle((0, y, width, y + h - 1), fill=colour)
    text = fonts.fit(text, t.body, width - 2 * t.small, bold=True)
    fonts.draw(image, width / 2, y + h / 2, text, t.body, WHITE, bold=True, anchor="mm")


# -- reserve -------------------------------------------------------------------------------------------


def reserve_shapes(state: GameState) -> list[Shape]:
    """The nine base shapes, plus ghost pieces only when the game stocks them."""
    return [s for s in SHAPES if s in BASE_SHAPES or state.reserve[s.index] > 0]


def reserve_height(t: TextSizes, cell: int) -> int:
    return int(t.body * 1.4) + int(t.small * 1.2) + 2 * cell + int(t.body * 1.3) + t.small // 3


def paint_reserve(
    image: Image.Image, x: int, y: int, width: int, state: GameState, t: TextSizes, cell: int
) -> None:
    """Every shape in the reserve, drawn, with its code above and count below (empty: greyed)."""
    draw = ImageDraw.Draw(image)
    h = reserve_height(t, cell)
    draw.rounded_rectangle((x, y, x + width, y + h), radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    title_y = y + int(t.body * 0.75)
    fonts.draw(image, x + t.small // 2, title_y, "Reserve", t.body, INK, bold=True, anchor="lm")
    fonts.draw(image, x + width - t.small // 2, title_y, "pieces left to take", t.small, MUTED, anchor="rm")
    shapes = reserve_shapes(state)
    slot = width / len(shapes)
    code_mid = y + int(t.body * 1.4) + int(t.small * 0.5)
    sprite_mid = code_mid + int(t.small * 0.7) + cell
    count_mid = sprite_mid + cell + int(t.body * 0.65)
    for i, shape in enumerate(shapes):
        cx = int(x + slot * i + slot / 2)
        count = state.reserve[shape.index]
        fonts.draw(image, cx, code_mid, shape.value, t.small, MUTED, anchor="mm")
        paste_sprite(image, shape, cell, cx, sprite_mid, anchor="mm", faded=count == 0)
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
    width: int
    t: TextSizes
    mini_cell: int
    supply_cell: int

    @property
    def pad(self) -> int:
        return self.t.small // 2

    @property
    def thumb(self) -> int:
        return mini_size(self.mini_cell)

    @property
    def head(self) -> int:
        return int(self.t.large * 1.35) + int(self.t.small * 1.35)

    @property
    def puzzles(self) -> int:
        return self.thumb + int(self.t.small * 1.45)

    @property
    def line(self) -> int:
        return max(int(self.t.small * 1.35), 2 * self.supply_cell + 8)

    @property
    def inner(self) -> int:
        return self.width - 2 * (self.pad + 4)

    @property
    def side(self) -> bool:
        """Wide panels (Solo) put the supply beside the puzzles instead of under them."""
        return self.inner - self.puzzles_width >= 12 * self.t.small

    @property
    def thumb_gap(self) -> int:
        return self.t.small // 2 if self.side else (self.inner - 4 * self.thumb) // 3

    @property
    def puzzles_width(self) -> int:
        return 4 * self.thumb + 3 * (self.t.small // 2)

    @property
    def supply_width(self) -> int:
        return self.inner - self.puzzles_width - self.t.small if self.side else self.inner


def supply_items(player: PlayerState) -> list[Shape]:
    return [s for s in SHAPES if player.supply[s.index] > 0]


def _supply_layout(player: PlayerState, g: PanelGeometry) -> list[list[tuple[Shape, int]]]:
    """Supply items flowed into lines: [(shape, item width)] per line."""
    lines: list[list[tuple[Shape, int]]] = [[]]
    room = g.supply_width - fonts.width("Supply", g.t.small) - g.t.small // 2
    used = 0
    for shape in supply_items(player):
        w = (
            sprite_size(shape, g.supply_cell)[0]
            + 4
            + fonts.width(f"x{player.supply[shape.index]}", g.t.small, True)
        )
        if lines[-1] and used + w > room:
            lines.append([])
            used = 0
        lines[-1].append((shape, w))
        used += w + g.t.small * 2 // 3
    return lines


def panel_height(player: PlayerState, g: PanelGeometry) -> int:
    supply = len(_supply_layout(player, g)) * g.line
    body = max(g.puzzles, supply) if g.side else g.puzzles + g.pad // 2 + supply
    return g.pad + g.head + body + g.pad


def paint_panel(
    image: Image.Image,
    x: int,
    y: int,
    height: int,
    state: GameState,
    seat: int,
    names: list[str],
    g: PanelGeometry,
) -> None:
    """One player: name, score, status, open puzzles with pieces, supply."""
    player = state.players[seat]
    t = g.t
    current = seat == state.current and state.phase is not Phase.OVER
    removed = is_removed(player)
    draw = ImageDraw.Draw(image)
    box = (x, y, x + g.width, y + height)
    if current and not removed:
        draw.rounded_rectangle(box, radius=14, fill=ACCENT_SOFT, outline=ACCENT, width=5)
    else:
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
    pad = g.pad + 4
    # Name and score.
    top = y + g.pad
    name_mid = top + int(t.large * 0.7)
    points = sum(state.card(d.card).points for d in player.completed)
    unit = "pt" if points == 1 else "pts"
    score_w = fonts.draw(image, x + g.width - pad, name_mid, unit, t.small, MUTED, anchor="rm")
    score_w += (
        fonts.draw(
            image,
            x + g.width - pad - score_w - 6,
            name_mid,
            str(points),
            t.large,
            INK,
            bold=True,
            anchor="rm",
        )
        + 6
    )
    name = fonts.fit(names[seat], t.large, g.width - 2 * pad - score_w - t.small, bold=True)
    fonts.draw(image, x + pad, name_mid, name, t.large, INK, bold=True, anchor="lm")
    status_mid = top + int(t.large * 1.35) + int(t.small * 0.6)
    _paint_status_line(image, x + pad, status_mid, state, player, t, removed, current)
    # Open puzzles (four slots).
    py = top + g.head
    for i in range(4):
        px = x + pad + i * (g.thumb + g.thumb_gap)
        if i < len(player.puzzles):
            puzzle = player.puzzles[i]
            card = state.card(puzzle.card)
            thumb = mini_card(card, puzzle.pieces, g.mini_cell)
            image.paste(thumb, (px, py), thumb)
            label_mid = py + g.thumb + int(t.small * 0.75)
            _paint_thumb_label(image, px, label_mid, g.thumb, card.id, card.points, card.colour, t)
        else:
            dashed_rect(draw, (px, py, px + g.thumb - 1, py + g.thumb - 1), SLOT, width=3, dash=8)
    # Supply.
    if g.side:
        sx, sy = x + pad + g.puzzles_width + t.small, py
    else:
        sx, sy = x + pad, py + g.puzzles + g.pad // 2
    label_w = fonts.draw(image, sx, sy + g.line // 2, "Supply", t.small, MUTED, anchor="lm")
    lines = _supply_layout(player, g)
    if not lines[0]:
        fonts.draw(image, sx + label_w + t.small // 2, sy + g.line // 2, "empty", t.small, MUTED, anchor="lm")
    for line in lines:
        ix = sx + label_w + t.small // 2
        mid = sy + g.line // 2
        for shape, w in line:
            sw = paste_sprite(image, shape, g.supply_cell, ix, mid, anchor="lm")
            fonts.draw(
                image,
                ix + sw + 4,
                mid,
                f"x{player.supply[shape.index]}",
                t.small,
                INK,
                bold=True,
                anchor="lm",
            )
            ix += w + t.small * 2 // 3
        sy += g.line
    if removed:  # everything greyed, then the reason restored in colour
        _grey_box(image, (x + 2, y + 2, x + g.width - 2, y + height - 2))
        fonts.draw(image, x + pad, status_mid, "left the game", t.small, BAD, bold=True, anchor="lm")


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
    fonts.draw(image, x, mid, card_id, t.small, INK, anchor="lm")
    text = str(points)
    tag_w = fonts.width(text, t.small, True) + t.small // 2
    tag_h = int(t.small * 1.05)
    body, edge, ink = (CARD_WHITE, INK, INK) if colour is Colour.WHITE else (CARD_BLACK, CARD_BLACK, WHITE)
    box = (x + width - tag_w, mid - tag_h // 2, x + width - 1, mid + tag_h // 2)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=5, fill=body, outline=edge, width=2)
    fonts.draw(image, (box[0] + box[2]) / 2, mid, text, t.small, ink, bold=True, anchor="mm")


def _paint_status_line(
    image: Image.Image,
    x: int,
    mid: int,
    state: GameState,
    player: PlayerState,
    t: TextSizes,
    removed: bool,
    current: bool,
) -> None:
    done = plural(len(player.completed), "puzzle") + " done"
    if removed:
        fonts.draw(image, x, mid, "left the game", t.small, BAD, bold=True, anchor="lm")
        return
    if state.phase is Phase.FINISHING:
        placed = player.finishing_pieces
        if current:
            box = pill(image, x, mid, "Finishing", t.small, ACCENT, WHITE)
            text = f"{placed} placed (-{placed})" if placed else "none placed yet"
            fonts.draw(image, box[2] + 8, mid, text, t.small, INK, anchor="lm")
        else:
            word = "Finished" if player.finished_touches else "Waiting to finish"
            text = f"{word} (-{placed})" if placed else word
            fonts.draw(image, x, mid, text, t.small, MUTED, anchor="lm")
        return
    if current:
        box = pill(image, x, mid, "To play", t.small, ACCENT, WHITE)
        fonts.draw(
            image, box[2] + 8, mid, plural(state.actions_left, "action") + " left", t.small, INK, anchor="lm"
        )
        return
    fonts.draw(image, x, mid, done, t.small, MUTED, anchor="lm")
