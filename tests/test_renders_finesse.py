"""The Finesse strip of the table image: the tile row (face-down backs, the live tile marked,
removed tiles gone), a pictogram and caption per tile, every player's credits and the bank."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from engine import GameState, Options, new_game
from engine.expansions.finesse import TILES
from renders import fonts, labels, render_table
from renders.finesse import finesse_height
from renders.panels import TextSizes

NAMES = ["Ana", "Bo", "Cy"]


def with_finesse(state: GameState, row: list[str], **data: Any) -> GameState:
    finesse = {"bank": 35, "row": row, "active": [0, 0, 0], "inactive": [0, 0, 0], **data}
    return state.evolve(ext={"finesse": finesse})


def drawn(state: GameState) -> tuple[list[fonts.Drawn], Image.Image]:
    with fonts.recording() as texts:
        image = Image.open(io.BytesIO(render_table(state, NAMES)))
    return texts, image


def test_the_strip_appears_only_with_finesse_and_the_image_grows_by_it() -> None:
    plain = new_game(Options(players=3), seed=2)
    with_it = new_game(Options(players=3, finesse=True), seed=2)
    texts, image = drawn(with_it)
    _, without = drawn(plain)
    assert labels.FINESSE in [d.text for d in texts]
    assert labels.finesse_bank(35) in [d.text for d in texts]
    assert image.height > without.height
    assert finesse_height(plain, 920, TextSizes.for_width(960)) == 0


def test_rounds_one_and_two_show_two_backs_and_no_live_tile() -> None:
    state = new_game(Options(players=3, finesse=True), seed=2)
    texts, _ = drawn(state)
    words = [d.text for d in texts]
    assert words.count(labels.FINESSE_FACE_DOWN) == 2
    assert labels.FINESSE_LIVE not in words
    face_up = [TILES[t] for t in state.ext["finesse"]["row"][2:]]
    captions = [labels.FINESSE_RULE[t.rule] for t in face_up]
    for caption in set(captions):
        assert words.count(caption) >= captions.count(caption)


def test_removed_tiles_are_gone_the_live_one_is_tagged_and_credits_are_shown() -> None:
    state = with_finesse(new_game(Options(players=3, finesse=True), seed=2), ["C3", "A1", "B2"],
                         bank=28, active=[3, 0, 2], inactive=[1, 0, 1])
    texts, _ = drawn(state)
    words = [d.text for d in texts]
    assert words.count(labels.FINESSE_LIVE) == 1 and labels.FINESSE_FACE_DOWN not in words
    assert [w for w in words if w in labels.FINESSE_RULE.values()] == ["complete", "place", "own each"]
    assert labels.finesse_bank(28) in words
    for seat, name in enumerate(NAMES):
        active, inactive = [3, 0, 2][seat], [1, 0, 1][seat]
        assert labels.finesse_credits(name, active, inactive) in words


def test_every_tile_text_is_phone_legible() -> None:
    """At least 3% of the image width, like every other text (the project's phone rule)."""
    state = with_finesse(new_game(Options(players=3, finesse=True), seed=2), list(TILES)[20:30])
    with fonts.recording_sizes() as sizes:
        data = render_table(state, NAMES)
    width = Image.open(io.BytesIO(data)).width
    assert min(sizes) >= 0.03 * width
