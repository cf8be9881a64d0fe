"""The Master action's preview: every placement of a Master draft drawn at once, to confirm it.

A Master action puts one piece on each of several puzzles in one go, so its preview is the
single-placement preview (:func:`renders.render_preview`) for all of them together: each puzzle
the draft touches, as the mat draws it, with its proposed piece framed in the highlight colour,
and under it where the piece goes and what is left of the puzzle after it. Cards sit two wide,
like on the mat, so a four-piece Master stays one phone screen tall.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.actions import Place
from engine.pieces import mask_to_text
from engine.state import GameState, Placed

from . import fonts, labels
from .card import PlanGeometry, plan_card
from .labels import Words
from .mat import GAP, MARGIN, MAT_WIDTH, PLAN_CELL, piece_name
from .palette import ACCENT, GOOD, HEADER, MUTED, PAGE, WHITE, to_png
from .panels import TextSizes

MASTER_WIDTH = MAT_WIDTH


@dataclass(frozen=True, slots=True)
class MasterLayout:
    """Where each drafted card was drawn (tests compare those blocks with the card alone)."""

    width: int
    height: int
    cards: tuple[tuple[str, int, int], ...]  # (card id, x, y) of each plan card block
    plan: PlanGeometry


def render_master_preview(state: GameState, seat: int, placements: Sequence[Place],
                          names: Sequence[str], words: Words | None = None) -> bytes:
    """PNG of every puzzle in a Master draft with its proposed piece, to confirm the action
    (labels in ``words``, None: English)."""
    with labels.speaking(words):
        return to_png(master_preview_image(state, seat, placements)[0])


def master_preview_image(state: GameState, seat: int,
                         placements: Sequence[Place]) -> tuple[Image.Image, MasterLayout]:
    if not placements:
        raise ValueError("a Master preview needs at least one placement")
    for place in placements:
        if place.card not in state.cards:
            raise ValueError(f"no puzzle {place.card} in this game")
    t = TextSizes.for_width(MASTER_WIDTH)
    plan = PlanGeometry(PLAN_CELL, t.small)
    head = int(t.huge * 2.3)
    caption = int(t.body * 1.4) + int(t.small * 1.4)
    rows = -(-len(placements) // 2)
    cell_h = plan.height + caption
    height = head + GAP + rows * cell_h + (rows - 1) * GAP + MARGIN
    image = Image.new("RGB", (MASTER_WIDTH, height), PAGE)
    ImageDraw.Draw(image).rectangle((0, 0, MASTER_WIDTH, head - 1), fill=HEADER)
    room = MASTER_WIDTH - 2 * MARGIN
    title = fonts.fit(labels.master_preview_title(len(placements)), t.huge, room, bold=True)
    fonts.draw(image, MARGIN, head * 0.32, title, t.huge, WHITE, bold=True, anchor="lm")
    note = fonts.fit(labels.MASTER_PREVIEW_NOTE, t.body, room, bold=True)
    fonts.draw(image, MARGIN, head * 0.72, note, t.body, ACCENT, bold=True, anchor="lm")
    player = state.players[seat]
    left = (MASTER_WIDTH - 2 * plan.width - GAP) // 2
    if len(placements) == 1:
        left = (MASTER_WIDTH - plan.width) // 2
    positions = []
    for i, place in enumerate(placements):
        x = left + (i % 2) * (plan.width + GAP)
        top = head + GAP + (i // 2) * (cell_h + GAP)
        puzzle = player.puzzle(place.card)  # None: a card the player has not taken
        pieces = puzzle.pieces if puzzle is not None else ()
        card = state.card(place.card)
        block = plan_card(card, pieces, plan.cell, plan.text, Placed(place.shape, place.mask), PAGE)
        image.paste(block, (x, top))
        positions.append((place.card, x, top))
        middle = x + plan.margin + (plan.width - plan.margin) / 2
        line = top + plan.height + int(t.body * 0.75)
        where = labels.master_preview_piece(piece_name(place.shape), mask_to_text(place.mask))
        fonts.draw(image, middle, line, fonts.fit(where, t.body, plan.width, bold=True), t.body, ACCENT,
                   bold=True, anchor="mm")
        filled = (puzzle.filled if puzzle is not None else 0) | place.mask
        line += int(t.body * 0.7) + int(t.small * 0.75)
        if filled == card.recess:
            text, colour = labels.preview_completes(card.id, card.points), GOOD
        else:
            left_after = card.recess.bit_count() - filled.bit_count()
            text, colour = labels.master_preview_cells_left(left_after), MUTED
        fonts.draw(image, middle, line, fonts.fit(text, t.small, plan.width), t.small, colour, anchor="mm")
    return image, MasterLayout(MASTER_WIDTH, height, tuple(positions), plan)
