"""A player's private mat, and the one-card preview used to confirm a placement.

The mat is for planning a move: every unfinished puzzle large, with column letters A–E and row
numbers 1–5 so a placement can be typed ("place L3 on W07 at A1 A2 B2"), placed pieces lettered,
then the supply grouped by level and the score pile.

The mat and the preview are drawn straight on the fixed palette (:mod:`renders.indexed`), so
saving them maps no pixels: they are drawn for one player at every turn end and on every tap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.actions import Place
from engine.cards import PuzzleCard
from engine.expansions.ambassador import ready, unflipped
from engine.expansions.finesse import view as finesse_view
from engine.pieces import SHAPES, Shape, mask_to_text
from engine.state import GameState, OpenPuzzle, Phase, Placed, PlayerState
from engine.visibility import hidden_scores

from . import fonts, indexed, labels, layers
from .card import PlanGeometry, mini_card, mini_size, plan_card
from .draw import dashed_rect, paste_sprite
from .indexed import canvas, ink
from .labels import Words
from .layers import Layout
from .palette import ACCENT, GOOD, HEADER, INK, MUTED, PAGE, PANEL, PANEL_EDGE, SLOT, WHITE, to_png
from .panels import TextSizes
from .rank import shown_points

MAT_WIDTH = 800
PLAN_CELL = 62
SUPPLY_CELL = 20
PILE_CELL = 10
MARGIN = 16
GAP = 20


@dataclass(frozen=True, slots=True)
class MatLayout:
    """Where things are on the mat (also used by tests to check the coordinates are drawn)."""

    width: int
    height: int
    cards: tuple[tuple[str, int, int], ...]  # (card id, x, y) of each plan card block
    plan: PlanGeometry
    min_text: int


def render_mat(
    state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, words: Words | None = None,
) -> bytes:
    """PNG of ``seat``'s mat as ``viewer`` (a seat; None = anyone) may see it: with option
    ``known_scores`` off, only the owner sees the score pile's cards and points. ``words``: the
    labels' language (None: English). Bands that show what an earlier mat showed come from the
    cache (:mod:`renders.layers`)."""
    with labels.speaking(words):
        if fonts.is_recording():
            return to_png(mat_image(state, seat, names, viewer)[0])
        return layers.png(mat_layout(state, seat, names, viewer)[0])


def mat_image(
    state: GameState, seat: int, names: Sequence[str], viewer: int | None = None
) -> tuple[Image.Image, MatLayout]:
    """The mat on one palette canvas (what :func:`render_mat`'s PNG shows), and where its
    cards are."""
    layout, where = mat_layout(state, seat, names, viewer)
    return layers.draw(layout), where


def mat_layout(
    state: GameState, seat: int, names: Sequence[str], viewer: int | None = None
) -> tuple[Layout, MatLayout]:
    """The mat as bands, each keyed by what it shows (in the current words), and where its
    cards are."""
    hidden = seat in hidden_scores(state, viewer)
    t = TextSizes.for_width(MAT_WIDTH)
    shown = fonts.names_for(names, len(state.players))
    player = state.players[seat]
    language = labels.language_key()
    plan = PlanGeometry(PLAN_CELL, t.small)
    header_h = int(t.large * 2)
    summary_h = int(t.body * 1.8)
    credits_h = int(t.body * 1.6) if finesse_view(state) is not None else 0
    ambassadors_h = int(t.body * 1.6) if unflipped(state, seat) else 0
    slots = _card_slots(state, player)
    supply = _supply_rows(player)
    supply_h = int(t.body * 1.6) + len(supply) * _supply_line(t)
    pile_lines = [] if hidden else _pile_lines(player, t)
    pile_h = int(t.body * 1.6) + max(1, len(pile_lines)) * _pile_line(t)
    stack = layers.Stack(MAT_WIDTH)
    add = stack.add
    acting = seat in state.acting_seats
    add(header_h, ("header", language, shown[seat], state.phase, acting,
                   state.focused(seat).actions_left if acting else None,
                   tuple(shown[s] for s in state.acting_seats)),
        lambda image, x, top: _paint_header(image, state, seat, shown, t, header_h))
    add(summary_h, ("summary", language, hidden, shown_points(state, seat),
                    player.banked_cards + len(player.completed), player.supply_size),
        lambda image, x, top: _paint_summary(image, top, state, seat, t, summary_h, hidden))
    if credits_h:
        add(credits_h, None, lambda image, x, top: _paint_credits(image, top, state, seat, t, credits_h))
    if ambassadors_h:
        add(ambassadors_h, None,
            lambda image, x, top: _paint_ambassadors(image, top, state, seat, t, ambassadors_h))
    positions: list[tuple[str, int, int]] = []
    left = (MAT_WIDTH - 2 * plan.width - GAP) // 2
    for first in range(0, slots, 2):
        row = tuple(
            (player.puzzles[i], state.card(player.puzzles[i].card)) if i < len(player.puzzles) else None
            for i in range(first, min(slots, first + 2))
        )
        positions.extend((puzzle.card, left + i * (plan.width + GAP), stack.y)
                         for i, (puzzle, _) in enumerate(slot for slot in row if slot is not None))
        add(plan.height + GAP, ("cards", language, plan, row), _cards_painter(state, row, plan, t))
    add(supply_h + GAP, ("supply", language, player.supply),
        lambda image, x, top: _paint_supply(image, top, player, supply, t, supply_h))
    cards = tuple(state.card(done.card) for done in player.completed)
    add(pile_h + MARGIN, ("pile", language, hidden, player.completed, cards, player.banked_cards),
        lambda image, x, top: _paint_pile(image, top, state, player, pile_lines, t, pile_h, hidden))
    return stack.layout(PAGE, mode="P"), MatLayout(MAT_WIDTH, stack.y, tuple(positions), plan, t.small)


def _paint_header(
    image: Image.Image, state: GameState, seat: int, names: list[str], t: TextSizes, h: int
) -> None:
    ImageDraw.Draw(image).rectangle((0, 0, MAT_WIDTH, h - 1), fill=ink(image, HEADER))
    mid = h // 2
    if state.phase is Phase.OVER:
        status, colour = labels.GAME_OVER, WHITE
    elif seat in state.acting_seats:  # either marker holder in Line Clear
        if state.phase is Phase.FINISHING:
            status, colour = labels.MAT_YOUR_FINISHING, ACCENT
        else:
            status, colour = labels.mat_your_turn(state.focused(seat).actions_left), ACCENT
    else:
        who = [names[s] for s in state.acting_seats]
        status = fonts.fit_names(lambda shown: labels.to_play(labels.join_names(shown)), who, t.small,
                                 MAT_WIDTH // 2, bold=True)
        colour = WHITE
    right = fonts.draw(image, MAT_WIDTH - MARGIN, mid, status, t.small, colour, bold=True, anchor="rm")
    title = fonts.fit_names(lambda shown: labels.mat_title(shown[0]), [names[seat]], t.large,
                            MAT_WIDTH - 3 * MARGIN - right, bold=True)  # "Maximilia… 1's mat"
    fonts.draw(image, MARGIN, mid, title, t.large, WHITE, bold=True, anchor="lm")


def _paint_summary(
    image: Image.Image, y: int, state: GameState, seat: int, t: TextSizes, h: int, hidden: bool
) -> None:
    player = state.players[seat]
    points = shown_points(state, seat)
    mid = y + h // 2
    x = MARGIN
    score = labels.SCORE_HIDDEN if hidden else labels.points(points)
    x += fonts.draw(image, x, mid, score, t.body, INK, bold=True, anchor="lm")
    text = labels.mat_summary(player.banked_cards + len(player.completed), player.supply_size)
    fonts.draw(image, x, mid, fonts.fit(text, t.small, MAT_WIDTH - MARGIN - x), t.small, MUTED, anchor="lm")


def _paint_credits(image: Image.Image, y: int, state: GameState, seat: int, t: TextSizes, h: int) -> None:
    """Finesse: 'Credits  3 active  1 inactive until your turn ends' (after the game, the total
    that broke ties). Nothing without Finesse."""
    fv = finesse_view(state)
    if fv is None:
        return
    mid = y + h // 2
    x = MARGIN
    x += fonts.draw(image, x, mid, labels.MAT_CREDITS, t.body, INK, bold=True, anchor="lm") + t.small
    if state.phase is Phase.OVER:
        fonts.draw(image, x, mid, labels.results_credits(fv.credits(seat)), t.body, ACCENT, bold=True,
                   anchor="lm")
        return
    x += fonts.draw(image, x, mid, labels.mat_credits_active(fv.active[seat]), t.body, ACCENT, bold=True,
                    anchor="lm") + t.small
    text = fonts.fit(labels.mat_credits_inactive(fv.inactive[seat]), t.small, MAT_WIDTH - MARGIN - x)
    fonts.draw(image, x, mid, text, t.small, MUTED, anchor="lm")


def _paint_ambassadors(image: Image.Image, y: int, state: GameState, seat: int, t: TextSizes, h: int) -> None:
    """Ambassador Pack: the seat's unflipped Ambassador cards and their points ('Ambassador cards
    B33 (4 pt), W45 (2 pt)'), shown to every viewer: they lie face up until flipped, whatever
    ``known_scores`` says. Nothing when the seat has none."""
    cards = unflipped(state, seat)
    if not cards:
        return
    mid = y + h // 2
    x = MARGIN
    x += fonts.draw(image, x, mid, labels.MAT_AMBASSADORS, t.body, INK, bold=True, anchor="lm") + t.small
    flippable = set(ready(state, seat))
    text = ", ".join(labels.mat_ambassador_card(c, state.cards[c].points, c in flippable) for c in cards)
    room = MAT_WIDTH - MARGIN - x
    size = fonts.fitting_size(text, t.body, room, t.small, bold=True)  # shrunk before it is cut
    fonts.draw(image, x, mid, fonts.fit(text, size, room, bold=True), size, ACCENT, bold=True, anchor="lm")


def _card_slots(state: GameState, player: PlayerState) -> int:
    """Four puzzle slots while the game runs; once it is over only the puzzles left unfinished
    (they cost points), and no empty slots."""
    return len(player.puzzles) if state.phase is Phase.OVER else 4


def _cards_painter(
    state: GameState, row: tuple[tuple[OpenPuzzle, PuzzleCard] | None, ...], plan: PlanGeometry, t: TextSizes
) -> layers.Painter:
    def paint(image: Image.Image, x: int, top: int) -> None:
        _paint_cards(image, top, state, row, plan, t)

    return paint


def _paint_cards(
    image: Image.Image,
    y: int,
    state: GameState,
    row: tuple[tuple[OpenPuzzle, PuzzleCard] | None, ...],
    plan: PlanGeometry,
    t: TextSizes,
) -> None:
    """One row of plan-card slots (two wide); empty ones are dashed placeholders."""
    left = (MAT_WIDTH - 2 * plan.width - GAP) // 2
    for i, slot in enumerate(row):
        x = left + i * (plan.width + GAP)
        if slot is not None:
            puzzle, card = slot
            block = plan_card(card, puzzle.pieces, plan.cell, plan.text, None, PAGE, image.mode)
            image.paste(block, (x, y))
        else:
            box = (x + plan.margin, y + plan.title + plan.margin, x + plan.width - 1, y + plan.height - 1)
            dashed_rect(image, box, SLOT, width=3, dash=12)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            fonts.draw(image, cx, cy - t.small * 0.7, labels.FREE_SLOT, t.small, MUTED, anchor="mm")
            fonts.draw(image, cx, cy + t.small * 0.7, labels.FREE_SLOT_HINT, t.small, MUTED, anchor="mm")


# -- supply --------------------------------------------------------------------------------------------


def _supply_rows(player: PlayerState) -> list[tuple[int, list[Shape]]]:
    """(level, shapes held) for each level the player holds pieces of; one empty row if none."""
    rows = []
    for level in range(1, 6):
        held = [s for s in SHAPES if s.level == level and player.supply[s.index] > 0]
        if held:
            rows.append((level, held))
    return rows or [(0, [])]


def _supply_line(t: TextSizes) -> int:
    return max(int(t.small * 1.6), 2 * SUPPLY_CELL + 12)


def _paint_supply(
    image: Image.Image,
    y: int,
    player: PlayerState,
    rows: list[tuple[int, list[Shape]]],
    t: TextSizes,
    h: int,
) -> None:
    """Supply by level: 'Level 4  [T4 sprite] x2  [L4 sprite] x1', codes beside the shapes."""
    ImageDraw.Draw(image).rounded_rectangle(
        (MARGIN, y, MAT_WIDTH - MARGIN, y + h), radius=12, fill=ink(image, PANEL),
        outline=ink(image, PANEL_EDGE), width=2,
    )
    pad = t.small // 2 + 4
    fonts.draw(
        image, MARGIN + pad, y + int(t.body * 0.85), labels.SUPPLY, t.body, INK, bold=True, anchor="lm"
    )
    line = _supply_line(t)
    cy = y + int(t.body * 1.6) + line // 2 - 4
    label_w = fonts.width(labels.level(4), t.small) + t.small
    for level, shapes in rows:
        if not shapes:
            fonts.draw(image, MARGIN + pad, cy, labels.MAT_SUPPLY_EMPTY, t.small, MUTED, anchor="lm")
            break
        fonts.draw(image, MARGIN + pad, cy, labels.level(level), t.small, MUTED, anchor="lm")
        x = MARGIN + pad + label_w
        for shape in shapes:
            x += fonts.draw(image, x, cy, shape.value, t.small, MUTED, anchor="lm") + 6
            x += paste_sprite(image, shape, SUPPLY_CELL, x, cy, anchor="lm") + 6
            count = labels.count_of(player.supply[shape.index])
            x += fonts.draw(image, x, cy, count, t.body, INK, bold=True, anchor="lm") + t.small
        cy += line


# -- score pile ------------------------------------------------------------------------------------------


def _pile_line(t: TextSizes) -> int:
    return mini_size(PILE_CELL) + int(t.small * 1.4)


def _pile_lines(player: PlayerState, t: TextSizes) -> list[list[int]]:
    """Indexes of completed cards, flowed into lines of thumbnails."""
    per_line = max(1, (MAT_WIDTH - 2 * MARGIN - t.small) // (mini_size(PILE_CELL) + t.small // 2))
    indexes = list(range(len(player.completed)))
    return [indexes[i : i + per_line] for i in range(0, len(indexes), per_line)]


def _paint_pile(
    image: Image.Image,
    y: int,
    state: GameState,
    player: PlayerState,
    lines: list[list[int]],
    t: TextSizes,
    h: int,
    hidden: bool = False,
) -> None:
    """Completed cards, each with its points ('*': completed during Finishing Touches); when
    ``hidden``, only how many there are."""
    ImageDraw.Draw(image).rounded_rectangle(
        (MARGIN, y, MAT_WIDTH - MARGIN, y + h), radius=12, fill=ink(image, PANEL),
        outline=ink(image, PANEL_EDGE), width=2,
    )
    pad = t.small // 2 + 4
    title_y = y + int(t.body * 0.85)
    w = fonts.draw(image, MARGIN + pad, title_y, labels.SCORE_PILE, t.body, INK, bold=True, anchor="lm")
    points = sum(state.card(d.card).points for d in player.completed)  # the pile's own worth
    fonts.draw(
        image,
        MARGIN + pad + w + t.small // 2,
        title_y,
        labels.PILE_HIDDEN_NOTE if hidden else labels.score_pile_note(points),
        t.small,
        MUTED,
        anchor="lm",
    )
    if not lines:
        count = player.banked_cards + len(player.completed)
        fonts.draw(
            image,
            MARGIN + pad,
            y + int(t.body * 1.6) + _pile_line(t) // 2,
            labels.pile_face_down(count) if hidden and count else labels.PILE_EMPTY,
            t.small,
            MUTED,
            anchor="lm",
        )
        return
    size = mini_size(PILE_CELL)
    step = size + t.small // 2
    cy = y + int(t.body * 1.6)
    for line in lines:
        x = MARGIN + pad
        for index in line:
            done = player.completed[index]
            card = state.card(done.card)
            thumb = mini_card(card, done.pieces, PILE_CELL, not done.finishing, "P")
            indexed.paste_sprite(image, thumb, (x, cy))
            label = str(card.points) + (labels.FINISHING_MARK if done.finishing else "")
            fonts.draw(
                image, x + size / 2, cy + size + t.small * 0.6, label, t.small, INK, bold=True, anchor="mm"
            )
            x += step
        cy += _pile_line(t)


# -- preview ---------------------------------------------------------------------------------------------

PREVIEW_WIDTH = 600
PREVIEW_CELL = 84


def render_preview(
    state: GameState, seat: int, place: Place, names: Sequence[str], words: Words | None = None,
) -> bytes:
    """PNG of one card with the proposed piece drawn in and outlined, to confirm a move (labels
    in ``words``, None: English)."""
    with labels.speaking(words):
        return to_png(preview_image(state, seat, place, names))


def preview_image(state: GameState, seat: int, place: Place, names: Sequence[str]) -> Image.Image:
    t = TextSizes.for_width(PREVIEW_WIDTH)
    if place.card not in state.cards:
        raise ValueError(f"no puzzle {place.card} in this game")
    player = state.players[seat]
    puzzle = player.puzzle(place.card)  # None: previewing a card the player has not taken
    pieces = puzzle.pieces if puzzle is not None else ()
    card = state.card(place.card)
    plan = PlanGeometry(PREVIEW_CELL, t.body)
    proposed = Placed(place.shape, place.mask)
    block = plan_card(card, pieces, plan.cell, plan.text, proposed, PAGE, "P")
    head = int(t.huge * 2.3)
    foot = int(t.body * 2.2)
    height = head + block.height + foot
    image = canvas((PREVIEW_WIDTH, height), PAGE)
    ImageDraw.Draw(image).rectangle((0, 0, PREVIEW_WIDTH, head - 1), fill=ink(image, HEADER))
    fonts.draw(
        image,
        MARGIN,
        head * 0.32,
        fonts.fit(
            labels.preview_title(piece_name(place.shape), card.id),
            t.huge,
            PREVIEW_WIDTH - 2 * MARGIN,
            bold=True,
        ),
        t.huge,
        WHITE,
        bold=True,
        anchor="lm",
    )
    cells = fonts.fit(labels.preview_cells(mask_to_text(place.mask)), t.body, PREVIEW_WIDTH - 2 * MARGIN)
    fonts.draw(image, MARGIN, head * 0.72, cells, t.body, ACCENT, bold=True, anchor="lm")
    image.paste(block, ((PREVIEW_WIDTH - block.width) // 2 - plan.margin // 2, head))
    filled = (puzzle.filled if puzzle is not None else 0) | place.mask
    mid = head + block.height + foot // 2
    if filled == card.recess:
        text = labels.preview_completes(card.id, card.points)
        fonts.draw(image, PREVIEW_WIDTH / 2, mid, text, t.body, GOOD, bold=True, anchor="mm")
    else:
        left = card.recess.bit_count() - filled.bit_count()
        text = labels.preview_cells_left(left)
        fonts.draw(
            image,
            PREVIEW_WIDTH / 2,
            mid,
            fonts.fit(text, t.small, PREVIEW_WIDTH - 2 * MARGIN),
            t.small,
            MUTED,
            anchor="mm",
        )
    return image


def piece_name(shape: Shape) -> str:
    """'monomino', 'domino', else the code ('L3'), as players type it."""
    return labels.piece_label(shape.value) if shape.value in {"1", "2"} else shape.value
