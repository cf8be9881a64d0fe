"""The Finesse strip of the table image: the tile row (face-down backs, the live tile marked,
removed tiles gone), a pictogram and caption per tile, every player's credits and the bank."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.core.wording.locales import image_words
from engine import GameState, Options, new_game
from engine.expansions.finesse import TILES, rule_text, view
from engine.game import winners
from engine.state import DonePuzzle, Phase, PlayerState
from renders import fonts, labels, render_mat, render_results, render_table
from renders.finesse import caption, finesse_height
from renders.panels import TextSizes
from renders.rank import places, tiebreak_notes
from renders.table import LAYOUT

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
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    for tile in face_up:
        assert caption(tile) in words or caption(tile) in pairs, caption(tile)


def test_removed_tiles_are_gone_the_live_one_is_tagged_and_credits_are_shown() -> None:
    state = with_finesse(new_game(Options(players=3, finesse=True), seed=2), ["C3", "A1", "B2"],
                         bank=28, active=[3, 0, 2], inactive=[1, 0, 1])
    texts, _ = drawn(state)
    words = [d.text for d in texts]
    assert words.count(labels.FINESSE_LIVE) == 1 and labels.FINESSE_FACE_DOWN not in words
    captions = {caption(TILES[t]) for t in TILES}
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    shown = [w for w in words if w in captions] + [p for p in pairs if p in captions]
    assert sorted(shown) == ["complete", "own I4 O4", "place I4 L4 O4"]  # codes, not "place ILO"
    assert labels.finesse_bank(28) in words
    for seat, name in enumerate(NAMES):
        active, inactive = [3, 0, 2][seat], [1, 0, 1][seat]
        assert labels.finesse_credits(name, active, inactive) in words


def test_every_tile_text_is_phone_legible() -> None:
    """At least 3% of the shared table's width, like every other text (the project's phone rule;
    the panels beside it widen the image, not its text)."""
    state = with_finesse(new_game(Options(players=3, finesse=True), seed=2), list(TILES)[20:30])
    with fonts.recording_sizes() as sizes:
        render_table(state, NAMES)
    assert min(sizes) >= 0.03 * LAYOUT.width


# -- credits on the results image and the private mat --------------------------------------------


def _finished(state: GameState, completed: list[list[str]], active: list[int]) -> GameState:
    """``state`` over, seat i having completed ``completed[i]`` and holding ``active[i]`` credits."""
    players = tuple(
        PlayerState(p.supply, (), tuple(DonePuzzle(c) for c in cards))
        for p, cards in zip(state.players, completed, strict=True)
    )
    n = len(players)
    finesse = {"bank": 35 - sum(active), "row": [], "active": active, "inactive": [0] * n}
    return state.evolve(players=players, phase=Phase.OVER, ext={"finesse": finesse})


def _worth(state: GameState, points: int) -> list[str]:
    return sorted(cid for cid, c in state.cards.items() if c.points == points)


def test_results_show_final_credits_and_rank_a_tie_on_points_by_them() -> None:
    """Ana and Bo tie on 2 points; Bo completed more puzzles, but with Finesse credits come first:
    Ana (3 credits) wins, the image ranks her first and says why."""
    state = new_game(Options(players=2, finesse=True), seed=11)
    over = _finished(state, [[_worth(state, 2)[0]], _worth(state, 1)[:2]], active=[3, 1])
    assert winners(over) == (0,)
    assert tiebreak_notes(over, ["Ana", "Bo"]) == ["Tie on 2 — Ana wins on credits (3 vs 1)."]
    assert [group[0].seat for _, group in places(over)] == [0, 1]
    with fonts.recording() as texts:
        render_results(over, ["Ana", "Bo"])
    words = [d.text for d in texts]
    assert labels.results_credits(3) in words and labels.results_credits(1) in words
    assert words.index("Ana") < words.index("Bo")  # rows are drawn best first
    shared = _finished(state, [[_worth(state, 1)[0]], [_worth(state, 1)[1]]], active=[2, 2])
    assert tiebreak_notes(shared, ["Ana", "Bo"]) == [
        "Tie on 1 — Ana and Bo also tie on credits (2), puzzles completed (1) and pieces left "
        f"({shared.players[0].supply_size}): they share the win."
    ]


def test_results_without_finesse_print_no_credits() -> None:
    state = new_game(Options(players=2), seed=11)
    players = tuple(PlayerState(p.supply, (), ()) for p in state.players)
    with fonts.recording() as texts:
        render_results(state.evolve(players=players, phase=Phase.OVER), ["Ana", "Bo"])
    assert not [d.text for d in texts if d.text == labels.results_credits(0)]


def test_the_mat_shows_active_and_inactive_credits_legibly() -> None:
    state = with_finesse(new_game(Options(players=3, finesse=True), seed=2), ["C3", "A1"],
                         active=[3, 0, 2], inactive=[1, 0, 1])
    with fonts.recording() as texts:
        render_mat(state, 0, NAMES)
    with fonts.recording_sizes() as sizes:
        image = Image.open(io.BytesIO(render_mat(state, 0, NAMES)))
    words = [d.text for d in texts]
    assert labels.MAT_CREDITS in words
    assert labels.mat_credits_active(3) in words and labels.mat_credits_inactive(1) in words
    assert min(sizes) >= 0.03 * image.width  # the project's phone rule
    plain = new_game(Options(players=3), seed=2)
    with fonts.recording() as texts:
        render_mat(plain, 0, NAMES)
    assert labels.MAT_CREDITS not in [d.text for d in texts]


@pytest.mark.parametrize("locale", ["en", "pt-BR"])
def test_each_tile_caption_tells_its_rule_apart_and_fits_its_tile(locale: str) -> None:
    """Issue 31, item 11: every tile the engine has — the base 30 and the Finesse Ambassador Pack's
    six Set C tiles — carries a caption no tile with another rule shares (C9 and C10 are the same
    Upgrade tile twice), in both languages; credits are "credits", never "cr"; a caption too wide
    for its tile is wrapped onto two lines at the small size, never cut."""
    words = None if locale == "en" else image_words(locale)
    pack = [t for t in TILES.values() if t.pack is not None]
    assert len(pack) == 6 and len(TILES) == 36
    with labels.speaking(words):
        by_caption: dict[str, set[str]] = {}
        for tile in TILES.values():
            by_caption.setdefault(caption(tile), set()).add(rule_text(tile))
        assert all(len(rules) == 1 for rules in by_caption.values()), by_caption
        assert len(by_caption) == len({rule_text(t) for t in TILES.values()})
        credits = labels.finesse_credits("Ana", 3, 1) + labels.finesse_credits("Bo", 1, 0)
        assert " cr" not in credits.replace(" cré", "").replace(" cred", ""), credits
        state = with_finesse(new_game(Options(players=3, finesse=True, finesse_ambassador=True), seed=2),
                             ["C9", "C10", "A1", "B2", "C6", "C8", "C11", "C13", "C16", "C15"])
        with fonts.recording() as drawn_texts:
            render_table(state, NAMES, words=words)
    shown = [d.text for d in drawn_texts]
    pairs = {f"{a} {b}" for a, b in zip(shown, shown[1:], strict=False)}
    for tile_id in state.ext["finesse"]["row"][view(state).face_down:]:
        with labels.speaking(words):
            text = caption(TILES[tile_id])
        assert text in shown or text in pairs, text  # whole, on one line or wrapped onto two
    assert not any(d.text.endswith("…") for d in drawn_texts)
