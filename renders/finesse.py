"""The Finesse strip of the table image: the tile row, the bank and every player's credits.

Tiles are drawn left to right as they lie (removed ones are gone), five per line so a tile is
about 70 px wide on a phone: face-down tiles as backs, the live one framed and tagged, each face-up
tile a pictogram — its depicted pieces, or a large glyph — over a one- or two-word caption, on
pink (pays at once) or blue (pays at the end of the turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import GameState
from engine.expansions.finesse import BLUE, SMALL, TILES, FinesseView, Tile, view

from . import fonts, labels
from .draw import arrow_sprite, paste_sprite
from .palette import ACCENT, GOOD, HEADER, INK, MUTED, PANEL, PANEL_EDGE, WHITE, rgb
from .panels import TextSizes

PER_LINE = 5
PINK_TILE = rgb("#f6c1d9")
BLUE_TILE = rgb("#bcd8f2")


def _lines(fv: FinesseView) -> int:
    return max(1, -(-len(fv.row) // PER_LINE))


def _tile_size(width: int, t: TextSizes) -> tuple[int, int]:
    gap = t.small // 3
    w = (width - t.small - gap * (PER_LINE - 1)) // PER_LINE
    return w, int(w * 0.78)


CREDITS_PER_LINE = 2
"""Players' credits a line: two, so "Ana: 3 credits (+1 new)" spelt out fits beside a name."""


def _credit_lines(count: int) -> int:
    return -(-count // CREDITS_PER_LINE)


def finesse_height(state: GameState, width: int, t: TextSizes) -> int:
    """0 without Finesse."""
    fv = view(state)
    if fv is None:
        return 0
    _, th = _tile_size(width, t)
    title = int(t.body * 1.6)
    tiles = _lines(fv) * (th + int(t.small * 1.15)) if fv.row else int(t.small * 1.6)
    credits = _credit_lines(len(state.players)) * int(t.small * 1.4)
    return title + tiles + credits + t.small // 2


def paint_finesse(
    image: Image.Image, x: int, y: int, width: int, state: GameState, names: Sequence[str], t: TextSizes
) -> None:
    fv = view(state)
    if fv is None:
        return
    draw = ImageDraw.Draw(image)
    h = finesse_height(state, width, t)
    draw.rounded_rectangle((x, y, x + width, y + h), radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    title_y = y + int(t.body * 0.8)
    fonts.draw(image, x + t.small // 2, title_y, labels.FINESSE, t.body, INK, bold=True, anchor="lm")
    fonts.draw(image, x + width - t.small // 2, title_y, labels.finesse_bank(fv.bank), t.body, INK,
               bold=True, anchor="rm")
    top = y + int(t.body * 1.6)
    tw, th = _tile_size(width, t)
    gap = t.small // 3
    if not fv.row:
        fonts.draw(image, x + t.small // 2, top + int(t.small * 0.7), labels.FINESSE_ALL_GONE, t.small,
                   MUTED, anchor="lm")
        top += int(t.small * 1.6)
    for i, tile_id in enumerate(fv.row):
        line, col = divmod(i, PER_LINE)
        left = x + t.small // 2 + col * (tw + gap)
        tile_top = top + line * (th + int(t.small * 1.15)) + int(t.small * 1.0)
        face_down = i < fv.face_down
        live = i == 0 and fv.live is not None
        _paint_tile(image, (left, tile_top, left + tw, tile_top + th), TILES[tile_id], face_down, live, t)
    if fv.row:
        top += _lines(fv) * (th + int(t.small * 1.15))
    # Credits: two players a line, active and (new) inactive.
    per = (width - t.small) // CREDITS_PER_LINE
    for seat in range(len(state.players)):
        line, col = divmod(seat, CREDITS_PER_LINE)
        cy = top + line * int(t.small * 1.4) + int(t.small * 0.8)
        name = names[seat] if seat < len(names) else str(seat + 1)
        counts = labels.finesse_credits("", fv.active[seat], fv.inactive[seat])
        name = fonts.fit_name(name, t.small, per - t.small // 2 - fonts.width(counts, t.small))  # a long one
        text = labels.finesse_credits(name, fv.active[seat], fv.inactive[seat])
        fonts.draw(image, x + t.small // 2 + col * per, cy, text, t.small, INK, anchor="lm")


def _paint_tile(
    image: Image.Image, box: tuple[int, int, int, int], tile: Tile, face_down: bool, live: bool,
    t: TextSizes,
) -> None:
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = box
    w = right - left
    mid_x = (left + right) // 2
    if face_down:
        draw.rounded_rectangle(box, radius=10, fill=HEADER, outline=INK, width=2)
        fonts.draw(image, mid_x, (top + bottom) // 2, labels.FINESSE_FACE_DOWN, t.large, WHITE,
                   bold=True, anchor="mm")
        return
    fill = BLUE_TILE if tile.colour == BLUE else PINK_TILE
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=ACCENT if live else INK,
                           width=6 if live else 2)
    if live:
        fonts.draw(image, left + 4, top - 4, labels.FINESSE_LIVE, t.small, ACCENT, bold=True,
                   anchor="lb")
    lines = caption_lines(caption(tile), w - t.small // 2, t.small)
    caption_y = bottom - int(t.small * 0.75) - int(t.small * 1.1) * (len(lines) - 1)
    for n, line in enumerate(lines):
        fonts.draw(image, mid_x, caption_y + int(t.small * 1.1) * n, line, t.small, INK, bold=True,
                   anchor="mm")
    art_mid = top + (caption_y - int(t.small * 0.5) - top) // 2 + 2
    if tile.shapes:
        count = len(tile.shapes)
        cell = max(4, min(w // (count * 3 + 1), 14))
        slot = w / count
        for j, shape in enumerate(tile.shapes):
            paste_sprite(image, shape, cell, int(left + slot * j + slot / 2), art_mid, anchor="mm")
    else:
        _paint_glyph(image, tile.rule, mid_x, art_mid, int(t.small * 1.3), t)


def caption_key(tile: Tile) -> str:
    """Which caption of ``labels.FINESSE_RULE`` a tile carries: one per rule, Set C's small and
    tetromino tiles apart (issue 31, item 11: three tiles once all read "place")."""
    if tile.rule in {"place", "types"} and tile.id[0] == "C":
        return f"{tile.rule}-{'small' if tile.shapes == SMALL else 'tetro'}"
    return tile.rule


def caption(tile: Tile) -> str:
    """A tile's caption in the current language: a Set A/B tile names its pieces by the codes the
    supply and the notation use ("place I3 L3 O4", "own I4 O4": letters alone, "place ILO", meant
    nothing to a newcomer), so no two tiles with different rules read alike."""
    template = str(labels.FINESSE_RULE[caption_key(tile)])
    return template.format(shapes=" ".join(s.value for s in tile.shapes))


def caption_lines(text: str, width: int, size: int) -> list[str]:
    """The caption on one line, or two (split at the space nearest its middle) when one would not
    fit the tile: a caption is wrapped, never cut or shrunk below the image's small size."""
    if fonts.width(text, size, bold=True) <= width or " " not in text:
        return [text]
    spaces = [i for i, c in enumerate(text) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return [text[:cut], text[cut + 1:]]


def _paint_glyph(image: Image.Image, rule: str, cx: int, cy: int, size: int, t: TextSizes) -> None:
    """The pictogram of a tile that depicts no pieces: a puzzle card (open, done, taken), Master's
    letter, or the level-up arrow for Upgrade — drawn, so no font needs the symbol."""
    draw = ImageDraw.Draw(image)
    if rule == "master":
        fonts.draw(image, cx, cy, labels.FINESSE_MASTER_GLYPH, t.huge, INK, bold=True, anchor="mm")
        return
    if rule == "upgrade":
        sprite = arrow_sprite(1, max(8, size // 2))
        image.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)
        return
    half_w, half_h = int(size * 0.45), int(size * 0.55)
    card = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    draw.rounded_rectangle(card, radius=5, fill=WHITE, outline=INK, width=3)
    if rule == "unfinished":
        inner = (cx - half_w // 2, cy - half_h // 2, cx + half_w // 2, cy + half_h // 2)
        draw.rectangle(inner, fill=MUTED)
    elif rule == "complete":
        draw.line((cx - half_w // 2, cy, cx - 2, cy + half_h // 2, cx + half_w // 2, cy - half_h // 2),
                  fill=GOOD, width=5)
    elif rule == "take":
        fonts.draw(image, cx, cy, "+", t.large, INK, bold=True, anchor="mm")
