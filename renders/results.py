"""The final results image: ranking, score breakdown, completed cards, tie-breaks explained.

Each player's total is shown as the sum the rules make it — completed points, minus one per
Finishing-Touch piece, minus the points of puzzles left unfinished — so nobody has to trust a
bare number. Solo shows you against the mastermind and says that a tie goes to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import ScoreLine, score_lines
from engine.state import GameState

from . import fonts, labels
from .card import mini_card, mini_size
from .labels import Words, ordinal
from .palette import (
    ACCENT,
    ACCENT_SOFT,
    BAD,
    BANNER_OVER,
    GOOD,
    INK,
    MUTED,
    PAGE,
    PANEL,
    PANEL_EDGE,
    WHITE,
    to_png,
)
from .panels import TextSizes, is_removed
from .rank import final_credits, is_solo, mastermind_points, places, tiebreak_notes, winners_text

WIDTH = 960
MARGIN = 20
GAP = 14
THUMB_CELL = 9


def render_results(state: GameState, names: Sequence[str], words: Words | None = None) -> bytes:
    """PNG of the final standings (meant for a finished game; works on any state), labelled in
    ``words`` (None: English)."""
    with labels.speaking(words):
        return to_png(results_image(state, names))


def _thumbs_per_line(t: TextSizes) -> int:
    return (WIDTH - 2 * MARGIN - t.small) // (mini_size(THUMB_CELL) + 8)


def _row_height(line: ScoreLine, t: TextSizes) -> int:
    thumbs = max(1, -(-line.completed_count // _thumbs_per_line(t)))
    return int(t.huge * 1.5) + int(t.small * 1.5) + thumbs * (mini_size(THUMB_CELL) + 8) + t.small // 2


def results_image(state: GameState, names: Sequence[str]) -> Image.Image:
    t = TextSizes.for_width(WIDTH)
    shown = fonts.names_for(names, len(state.players))
    lines = {line.seat: line for line in score_lines(state)}
    ranked = places(state)
    notes = _notes(state, shown, t)
    head = int(t.huge * 2.4)
    versus = int(t.huge * 2.2) if is_solo(state) else 0
    rows = sum(_row_height(lines[seat], t) + GAP for seat in range(len(state.players)))
    notes_h = (len(notes) * int(t.small * 1.4) + t.small) if notes else 0
    height = head + MARGIN + versus + rows + notes_h + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAGE)
    ImageDraw.Draw(image).rectangle((0, 0, WIDTH, head - 1), fill=BANNER_OVER)
    fonts.draw(image, MARGIN, head * 0.3, labels.GAME_OVER, t.body, WHITE, anchor="lm")
    title = fonts.fit(winners_text(state, shown), t.huge, WIDTH - 2 * MARGIN, bold=True)
    fonts.draw(
        image, MARGIN, head * 0.68, title[0].upper() + title[1:], t.huge, WHITE, bold=True, anchor="lm"
    )
    y = head + MARGIN
    if is_solo(state):
        _paint_versus(image, y, state, lines[0], shown, t)
        y += versus
    for place, group in ranked:
        for line in group:
            h = _row_height(line, t)
            _paint_row(image, y, h, state, line, place, shown, t)
            y += h + GAP
    if notes:
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle(
            (MARGIN, y, WIDTH - MARGIN, y + notes_h - GAP // 2),
            radius=12,
            fill=ACCENT_SOFT,
            outline=ACCENT,
            width=2,
        )
        cy = y + t.small // 2 + int(t.small * 0.7)
        for note in notes:
            fonts.draw(
                image,
                MARGIN + t.small // 2,
                cy,
                fonts.fit(note, t.small, WIDTH - 2 * MARGIN - t.small),
                t.small,
                INK,
                anchor="lm",
            )
            cy += int(t.small * 1.4)
    return image


def _notes(state: GameState, names: list[str], t: TextSizes) -> list[str]:
    if is_solo(state):  # said only when it decided the game: the player tied the mastermind
        notes = [labels.SOLO_TIE_NOTE] if score_lines(state)[0].total == mastermind_points(state) else []
    else:
        notes = tiebreak_notes(state, names)
    room = WIDTH - 2 * MARGIN - t.small
    return [line for note in notes for line in _wrap(note, t.small, room)]


def _wrap(text: str, size: int, room: int) -> list[str]:
    """Split a sentence into lines at most ``room`` pixels wide (at ``size``), between words."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and fonts.width(f"{current} {word}", size) > room:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    return lines + ([current] if current else [])


def _paint_versus(
    image: Image.Image, y: int, state: GameState, line: ScoreLine, names: list[str], t: TextSizes
) -> None:
    """Solo: 'Ana 14  vs  15 Mastermind'."""
    mid = y + int(t.huge * 0.9)
    theirs = mastermind_points(state)
    mine = line.total
    you_colour = GOOD if mine > theirs else INK
    them_colour = BAD if mine > theirs else GOOD
    cx = WIDTH // 2
    fonts.draw(image, cx, mid, labels.VERSUS, t.body, MUTED, anchor="mm")
    gap = t.huge
    w = fonts.draw(image, cx - gap, mid, str(mine), t.huge, you_colour, bold=True, anchor="rm")
    name = fonts.fit(names[0], t.large, cx - gap - w - t.small - MARGIN, bold=True)
    fonts.draw(image, cx - gap - w - t.small // 2, mid, name, t.large, INK, bold=True, anchor="rm")
    w = fonts.draw(image, cx + gap, mid, str(theirs), t.huge, them_colour, bold=True, anchor="lm")
    fonts.draw(
        image, cx + gap + w + t.small // 2, mid, labels.MASTERMIND, t.large, INK, bold=True, anchor="lm"
    )


def _paint_row(
    image: Image.Image,
    y: int,
    h: int,
    state: GameState,
    line: ScoreLine,
    place: int,
    names: list[str],
    t: TextSizes,
) -> None:
    """Place, name, total; then the sum that makes the total; then the completed cards."""
    player = state.players[line.seat]
    first = place == 1 and not is_solo(state)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + h),
        radius=14,
        fill=ACCENT_SOFT if first else PANEL,
        outline=ACCENT if first else PANEL_EDGE,
        width=4 if first else 2,
    )
    pad = t.small // 2 + 6
    mid = y + int(t.huge * 0.8)
    x = MARGIN + pad
    if not is_solo(state):
        x += fonts.draw(
            image, x, mid, ordinal(place), t.huge, ACCENT if first else MUTED, bold=True, anchor="lm"
        )
        x += t.small
    total_w = fonts.draw(
        image, WIDTH - MARGIN - pad, mid, labels.points_unit(line.total), t.small, MUTED, anchor="rm"
    )
    total_w += (
        fonts.draw(
            image,
            WIDTH - MARGIN - pad - total_w - 6,
            mid,
            str(line.total),
            t.huge,
            INK,
            bold=True,
            anchor="rm",
        )
        + 6
    )
    name = names[line.seat]
    if is_removed(player):
        name += labels.LEFT_SUFFIX
    name = fonts.fit(name, t.large, WIDTH - 2 * MARGIN - pad - total_w - (x - MARGIN) - t.small, bold=True)
    fonts.draw(image, x, mid, name, t.large, MUTED if is_removed(player) else INK, bold=True, anchor="lm")
    # The sum.
    sy = y + int(t.huge * 1.5) + int(t.small * 0.6)
    parts = [labels.completed_part(line.completed_points, line.completed_count)]
    if line.finishing_penalty:  # a penalty of nothing is not printed ("-0 finishing")
        parts.append(labels.finishing_part(line.finishing_penalty))
    if line.unfinished_penalty:
        parts.append(labels.unfinished_part(line.unfinished_penalty))
    right = WIDTH - MARGIN - pad
    credits = final_credits(state, line.seat)
    if credits is not None:  # Finesse: final credits, the first tie-break, under the total
        right -= fonts.draw(image, right, sy, labels.results_credits(credits), t.small, ACCENT, bold=True,
                            anchor="rm") + t.small
    sx = MARGIN + pad
    for i, text in enumerate(parts):
        colour = GOOD if i == 0 else BAD
        text = fonts.fit(text, t.small, right - sx, bold=True)
        sx += fonts.draw(image, sx, sy, text, t.small, colour, bold=True, anchor="lm") + t.small
    # Completed cards.
    size = mini_size(THUMB_CELL)
    per_line = _thumbs_per_line(t)
    ty = sy + int(t.small * 0.9)
    for i, done in enumerate(player.completed):
        row, col = divmod(i, per_line)
        thumb = mini_card(state.card(done.card), done.pieces, THUMB_CELL, not done.finishing)
        image.paste(thumb, (MARGIN + pad + col * (size + 8), ty + row * (size + 8)), thumb)
