"""Rewards on cards stay readable on a phone (issue 31, item 10).

Discord shows the table image about 400 px wide on a phone. A card's reward — its piece icon, a
level-up's ↑/⇈ arrows, an Ambassador card's diamond — sits in the card's header band, whose
height comes from the reward's size and not from the card's cell, so Line Clear's small cards
keep rewards as readable as the base game's. Measured from the layout's own geometry
(:func:`renders.table.market_tiles`, :class:`renders.card.MarketGeometry`), and checked against
the pixels drawn: the reward's colour lies exactly in the box the geometry gives. The mat's and
the previews' planning cards show the reward in their title, whole and as large.
"""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import engine
from bot.core.wording.locales import image_words
from engine import Options
from engine.cards import Ambassador, Colour, LevelUp, PuzzleCard, Reward
from engine.expansions.ambassador import ready as ready_cards
from engine.pieces import SHAPES, Shape, parse_cells
from engine.state import GameState
from renders import fonts, labels, render_mat, render_table
from renders.card import REWARD_GAP, MarketGeometry, PlanGeometry, look, market_card, plan_card
from renders.draw import reward_size, sprite_cells
from renders.mat import MAT_WIDTH, PLAN_CELL, PREVIEW_CELL, PREVIEW_WIDTH
from renders.palette import ARROW, PAGE, PIECE
from renders.panels import TextSizes
from renders.samples import mid_game, names_for
from renders.table import (
    LAYOUT,
    LINE_CLEAR_CELL,
    MARKET_CELL,
    PHONE_WIDTH,
    REWARD_SQUARE_AT_PHONE,
    market_tiles,
    table_image,
)

SCALE = PHONE_WIDTH / LAYOUT.width
"""The table image's pixels to a phone's."""
REWARDS: list[Reward] = [*SHAPES, LevelUp.UP, LevelUp.DOUBLE, Ambassador.ACTION]
TABLES = {  # a table of every size; the Ghost Piece expansion on where it brings level-up cards
    "solo": Options.for_players(1),
    "2p": Options.for_players(2, ghost=True),
    "3p": Options.for_players(3),
    "4p": Options.for_players(4, ghost=True),
    "5p line clear": Options.for_players(5),
    "6p line clear": Options.for_players(6),
}


def phone(px: float) -> float:
    return px * SCALE


def differs(crop: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """255 where a pixel of ``crop`` is not ``colour``, else 0."""
    r, g, b = ImageChops.difference(crop, Image.new("RGB", crop.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)


Box = tuple[int, int, int, int]


def drawn_box(image: Image.Image, card: PuzzleCard, x: int, y: int, g: MarketGeometry) -> Box:
    """Where the reward of the card whose tile is at (x, y) is really drawn: the bounding box
    (right and bottom exclusive) of the pixels that are neither the card's body nor its edge nor
    the page (outside its rounded corner), right of the points badge and above the recess."""
    region = (x + g.badge_box[2] + 1, y, x + g.width, y + g.header)
    crop = image.convert("RGB").crop(region)
    lk = look(card.colour)
    mask = differs(crop, lk.body)
    for colour in (lk.edge, PAGE):
        mask = ImageChops.darker(mask, differs(crop, colour))
    box = mask.getbbox()
    assert box is not None, f"{card.id}: no reward drawn in {region}"
    return box[0] + region[0], box[1] + region[1], box[2] + region[0], box[3] + region[1]


def assert_drawn_in(drawn: Box, box: Box, reward: Reward) -> None:
    """The pixels are the geometry's box: exactly for a piece, within it (the polygons' antialiased
    tips aside) for the arrows and the diamond, and as large on a phone as the box says."""
    if isinstance(reward, Shape):
        assert drawn == box, f"{reward}: drawn at {drawn}, the layout says {box}"
    else:
        assert box[0] <= drawn[0] and box[1] <= drawn[1] and drawn[2] <= box[2] and drawn[3] <= box[3]
        assert drawn[3] - drawn[1] >= box[3] - box[1] - 2 and drawn[2] - drawn[0] >= box[2] - box[0] - 2
    least = REWARD_SQUARE_AT_PHONE if isinstance(reward, Shape) else 2 * REWARD_SQUARE_AT_PHONE
    assert phone(drawn[3] - drawn[1]) >= least - 0.5


def assert_readable(g: MarketGeometry, reward: Reward) -> None:
    left, top, right, bottom = g.reward_box(reward)
    assert phone(g.header) >= 2 * REWARD_SQUARE_AT_PHONE  # the header band
    assert phone(bottom - top) >= REWARD_SQUARE_AT_PHONE
    if isinstance(reward, Shape):
        rows = max(r for _, r in sprite_cells(reward)) + 1
        assert phone(g.square) >= REWARD_SQUARE_AT_PHONE, f"{reward}: {phone(g.square):.1f} px squares"
        assert bottom - top == rows * g.square
    else:  # the arrows and the diamond: at least as tall as a two-row piece
        assert phone(bottom - top) >= 2 * REWARD_SQUARE_AT_PHONE, f"{reward}: {phone(bottom - top):.1f} px"
    # Inside the header band, clear of the card's edges and of the points badge.
    assert 2 <= top and bottom <= g.header and 2 <= left and right <= g.width - 2
    assert g.badge_box[2] + REWARD_GAP <= left
    assert g.badge_box[1] >= 2 and g.badge_box[3] <= g.header


@pytest.mark.parametrize("cell", [MARKET_CELL, LINE_CLEAR_CELL])
@pytest.mark.parametrize("reward", REWARDS, ids=str)
def test_every_reward_is_readable_on_both_card_sizes(cell: int, reward: Reward) -> None:
    g = LAYOUT.card(cell)
    assert_readable(g, reward)
    card = PuzzleCard("W98", Colour.WHITE, 2, reward, parse_cells("A1 B1 C1 A2 B2"))
    face = market_card(card, g)
    on_page = Image.new("RGB", face.size, PAGE)
    on_page.paste(face, (0, 0), face)
    assert_drawn_in(drawn_box(on_page, card, 0, 0, g), g.reward_box(reward), reward)


def test_line_clear_cards_keep_the_base_games_minimum() -> None:
    """Line Clear's cards are smaller (7 across), their rewards no smaller than the minimum."""
    small, large = LAYOUT.card(LINE_CLEAR_CELL), LAYOUT.card(MARKET_CELL)
    assert small.width < large.width
    assert phone(small.square) >= REWARD_SQUARE_AT_PHONE and large.square >= small.square
    assert phone(small.header) >= 2 * REWARD_SQUARE_AT_PHONE + 2


def states() -> list[tuple[str, GameState]]:
    return [(name, mid_game(options, 3, fraction)) for name, options in TABLES.items()
            for fraction in (0.0, 0.4)]


@pytest.mark.parametrize(("name", "state"), states(), ids=lambda v: v if isinstance(v, str) else "")
def test_table_rewards_measure_readable_at_phone_width(name: str, state: GameState) -> None:
    """Every face-up card's reward on the table image, for every player count: its box from the
    layout meets the minimum at 400 px, and the reward's pixels are drawn in that box."""
    names = names_for(state)
    tiles = market_tiles(state, names)
    expected = {"solo": 9, "5p line clear": 12, "6p line clear": 12}.get(name, 8)
    assert len(tiles) == expected
    image = table_image(state, names).convert("RGB")
    for tile in tiles:
        reward = state.card(tile.card).reward
        assert_readable(tile.geometry, reward)
        box = tile.reward_box(state)
        assert 0 <= box[0] and box[2] <= image.width and box[3] <= image.height
        drawn = drawn_box(image, state.card(tile.card), tile.x, tile.y, tile.geometry)
        assert_drawn_in(drawn, box, reward)


# -- the mat's and the previews' planning cards ---------------------------------------------------------

PLAN_CARDS = {  # image -> (its width, the planning card's cell and title text)
    "mat": (MAT_WIDTH, PLAN_CELL, TextSizes.for_width(MAT_WIDTH).small),
    "preview": (PREVIEW_WIDTH, PREVIEW_CELL, TextSizes.for_width(PREVIEW_WIDTH).body),
}


@pytest.mark.parametrize("locale", [None, "pt-BR"])
@pytest.mark.parametrize("image_name", sorted(PLAN_CARDS))
@pytest.mark.parametrize("reward", REWARDS, ids=str)
def test_plan_card_rewards_are_readable_and_whole(image_name: str, locale: str | None,
                                                  reward: Reward) -> None:
    """A planning card's title shows its reward whole (never cut at the card's edge, in either
    language) and at the table's minimum once the image is shown 400 px wide."""
    width, cell, text = PLAN_CARDS[image_name]
    g = PlanGeometry(cell, text)
    scale = PHONE_WIDTH / width
    card = PuzzleCard("W98", Colour.WHITE, 5, reward, parse_cells("A1 B1 C1 A2 B2"))
    with labels.speaking(None if locale is None else image_words(locale)):
        image = plan_card(card, (), cell, text, None, PAGE, "RGB")
    title = image.crop((0, 0, image.width, g.title))
    colour = PIECE[reward] if isinstance(reward, Shape) else ARROW
    mask = ImageChops.invert(differs(title, colour))
    drawn = mask.getbbox()
    assert drawn is not None, "no reward in the title"
    cell_px = g.reward_cell(reward)
    w, h = reward_size(reward, cell_px)
    if isinstance(reward, Shape):
        edge = max(1, round(cell_px / 11))
        assert phone_of(g.reward_square, scale) >= REWARD_SQUARE_AT_PHONE
        assert (drawn[2] - drawn[0], drawn[3] - drawn[1]) == (w - 2 * edge, h - 2 * edge)  # all of its fill
        assert drawn[2] + edge <= g.width - 2  # inside the card's outline
    else:
        assert phone_of(h, scale) >= 2 * REWARD_SQUARE_AT_PHONE
        assert drawn[2] <= g.width - 2 and drawn[3] - drawn[1] >= h * 0.7  # its fill, inside the outline


def phone_of(px: float, scale: float) -> float:
    return px * scale


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_the_ambassador_diamond_has_a_legend_and_a_mat_says_which_card_is_ready(locale: str | None) -> None:
    """Issue 46, item 11: a table of the Ambassador Pack says under the market what the diamond
    means (a base table does not), and a mat tells a card ready to flip from one completed this turn."""
    words = image_words(locale) if locale else None
    base = engine.new_game(Options(players=2), 3)
    pack = engine.new_game(Options(players=2, ambassador=True), 3)
    with labels.speaking(words):
        legend = labels.AMBASSADOR_LEGEND
        ready_label = labels.mat_ambassador_card("B33", 4, True)
        later_label = labels.mat_ambassador_card("W45", 2, False)
    assert ready_label != later_label and "B33 (4 pt, " in ready_label
    for state, shown in ((base, False), (pack, True)):
        with fonts.recording() as drawn:
            render_table(state, ["Ana", "Bo"], words=words)
        assert (legend in [d.text for d in drawn]) is shown
    amb = next(c for c in pack.cards.values() if isinstance(c.reward, Ambassador))
    other = next(c for c in pack.cards.values() if isinstance(c.reward, Ambassador) and c.id != amb.id)
    data = {"ready": [[amb.id], []], "fresh": [[other.id], []]}
    state = pack.evolve(ext={**pack.ext, "ambassador": data})
    assert ready_cards(state, 0) == (amb.id,)
    with fonts.recording() as drawn:
        render_mat(state, 0, ["Ana", "Bo"], words=words)
    with labels.speaking(words):
        expected = ", ".join((labels.mat_ambassador_card(amb.id, amb.points, True),
                              labels.mat_ambassador_card(other.id, other.points, False)))
    assert expected in [d.text for d in drawn]
