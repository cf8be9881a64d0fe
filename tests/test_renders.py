"""Board images: every state of sample games renders to a valid, small, deterministic PNG whose
text stays legible on a phone; the mat shows card coordinates; ties and Solo are explained.

Golden hashes cover single cards (small, stable cases). They hash the decoded pixels and palette
rather than the PNG bytes, so a different zlib build cannot fail them while any visual change
still does. If a deliberate change to how cards look breaks them, look at the new images
(``python -m renders examples /tmp/x``) and update the hashes.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass

import pytest
from images import pixels_digest
from PIL import Image, ImageChops

from engine import (
    Colour,
    Master,
    Options,
    Phase,
    Place,
    PuzzleCard,
    Shape,
    legal_actions,
    master_options,
    new_game,
    winners,
)
from engine.pieces import parse_cells
from engine.state import DonePuzzle, GameState, Placed, PlayerState
from renders import (
    card,
    draw,
    fonts,
    indexed,
    render_card,
    render_master_preview,
    render_mat,
    render_preview,
    render_results,
    render_table,
)
from renders.master import master_preview_image
from renders.mat import mat_image
from renders.palette import HIGHLIGHT, INK, PAGE, PIECE
from renders.rank import tiebreak_notes, winners_text
from renders.samples import names_for, play
from renders.table import LAYOUT, panel_columns_beside, table_width

MAX_BYTES = 250 * 1024
GAMES = {
    "2p": (Options(players=2), 2),
    "3p": (Options(players=3), 1),
    "4p": (Options(players=4), 3),
    "solo": (Options(players=1, variant="solo"), 1),
}


@pytest.fixture(scope="module")
def games() -> dict[str, list[GameState]]:
    return {key: list(play(options, seed)) for key, (options, seed) in GAMES.items()}


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= MAX_BYTES, f"{len(data) // 1024} KB is over the 250 KB budget"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def mid_state(games: dict[str, list[GameState]], key: str) -> GameState:
    states = games[key]
    return next(
        s for s in states[len(states) // 2 :] if s.phase is Phase.PLAY and s.players[s.current].puzzles
    )


# -- every state of several games ------------------------------------------------------------------


def test_sample_games_reach_every_phase(games: dict[str, list[GameState]]) -> None:
    for key, states in games.items():
        phases = {s.phase for s in states}
        assert Phase.OVER in phases, key
        assert any(s.last_round is not None and s.phase is Phase.PLAY for s in states), key
    assert any(s.phase is Phase.FINISHING for states in games.values() for s in states)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_state_renders(games: dict[str, list[GameState]], key: str) -> None:
    states = games[key]
    names = names_for(states[0])
    for i, state in enumerate(states):
        table = open_png(render_table(state, names))
        assert table.mode == "P"
        assert table.width == table_width(panel_columns_beside(state.options))
        assert 700 <= table.height <= 1.35 * table.width
        if i % 4 == 0 or state.phase is not Phase.PLAY:
            for seat in {state.current, 0}:
                mat = open_png(render_mat(state, seat, names))
                assert mat.width == 800 and 700 <= mat.height <= 2400
        if state.phase is Phase.OVER:
            results = open_png(render_results(state, names))
            assert results.width == 960 and results.height <= 2400


def test_previews_of_legal_placements(games: dict[str, list[GameState]]) -> None:
    state = mid_state(games, "4p")
    places = [a for a in legal_actions(state) if isinstance(a, Place)][:6]
    assert places
    for place in places:
        image = open_png(render_preview(state, state.current, place, names_for(state))).convert("RGB")
        assert HIGHLIGHT in {colour for _, colour in image.getcolors(1 << 16) or []}


def test_master_preview_draws_every_placement_like_the_single_preview(
    games: dict[str, list[GameState]],
) -> None:
    """The combined preview: each drafted puzzle is drawn pixel for pixel as the mat's plan card
    with its proposed piece highlighted, and nothing else is highlighted."""
    state, action = next(
        (s, a) for s in games["4p"] if s.phase is Phase.PLAY
        for a in [_largest_master(s)] if a is not None and len(a.placements) >= 3
    )
    data = render_master_preview(state, state.current, action.placements, names_for(state))
    image = open_png(data).convert("RGB")
    assert data == render_master_preview(state, state.current, action.placements, names_for(state))
    whole, layout = master_preview_image(state, state.current, action.placements)
    assert [c for c, _, _ in layout.cards] == [p.card for p in action.placements]
    assert (image.width, image.height) == (layout.width, layout.height) == whole.size
    covered = 0
    for place, (card_id, x, y) in zip(action.placements, layout.cards, strict=True):
        puzzle = state.players[state.current].puzzle(card_id)
        assert puzzle is not None
        expected = card.plan_card(state.card(card_id), puzzle.pieces, layout.plan.cell, layout.plan.text,
                                  Placed(place.shape, place.mask), PAGE)
        block = whole.crop((x, y, x + expected.width, y + expected.height))  # before the PNG's palette
        assert block.tobytes() == expected.convert("RGB").tobytes(), card_id
        highlighted = sum(n for n, colour in block.getcolors(1 << 16) or [] if colour == HIGHLIGHT)
        assert highlighted > 0, card_id
        covered += highlighted
    everywhere = sum(n for n, colour in whole.getcolors(1 << 16) or [] if colour == HIGHLIGHT)
    assert everywhere == covered, "only the proposed pieces are framed"
    assert HIGHLIGHT in {colour for _, colour in image.getcolors(1 << 16) or []}, "and the PNG keeps it"
    with pytest.raises(ValueError):
        master_preview_image(state, state.current, ())


def _largest_master(state: GameState) -> Master | None:
    options = master_options(state)
    if options is None:
        return None
    return max(options.iter_actions(), key=lambda a: len(a.placements), default=None)


# -- determinism -------------------------------------------------------------------------------------


def _clear_caches() -> None:
    for cached in (
        card.market_card,
        card.mini_card,
        card._plan_card,
        draw.piece_sprite,
        draw.disc_image,
        fonts.run,
        fonts.get_font,
        indexed.text_lut,
    ):
        cached.cache_clear()
    indexed._DERIVED.cache_clear()


def test_same_state_gives_identical_bytes(games: dict[str, list[GameState]]) -> None:
    for key in ("4p", "solo"):
        state = mid_state(games, key)
        final = games[key][-1]
        names = names_for(state)
        place = next(a for a in legal_actions(state) if isinstance(a, Place))
        first = [
            render_table(state, names),
            render_mat(state, state.current, names),
            render_results(final, names),
            render_preview(state, state.current, place, names),
        ]
        _clear_caches()
        second = [
            render_table(state, names),
            render_mat(state, state.current, names),
            render_results(final, names),
            render_preview(state, state.current, place, names),
        ]
        assert [pixels_digest(b) for b in first] == [pixels_digest(b) for b in second]


GOLDEN_CARD = PuzzleCard("W99", Colour.WHITE, 2, Shape.L3, parse_cells("B2 C2 C3 C4 D4"))
GOLDEN_BLACK = PuzzleCard("B99", Colour.BLACK, 4, Shape.T4, parse_cells("A1 B1 C1 B2 B3 C3 D3"))
GOLDEN_PIECES = (Placed(Shape.DOMINO, parse_cells("B2 C2")),)
GOLDEN = {
    ("B99", "plan"): "96ed9d473076cd2ab862827ea1980e23c32f2203da7fff7823e676bb6c819335",
    ("W99", "market"): "7128197777c4991f652c58c720f65a2847de2106cd1582ee4774dd133b92814b",
    ("W99", "mini"): "b162991e6744543698e057864c4341d7685eae5cc9d0dcd3503291ef7f57c99f",
    ("W99", "plan"): "f342da8404be2905fb3a46feb72ce0fde67f5d1ccab5b3d856ccf651289b2ad9",
}


@pytest.mark.parametrize(("card_id", "style"), sorted(GOLDEN))
def test_golden_card_images(card_id: str, style: str) -> None:
    source = GOLDEN_CARD if card_id == "W99" else GOLDEN_BLACK
    pieces = GOLDEN_PIECES if card_id == "W99" else (Placed(Shape.I3, parse_cells("A1 B1 C1")),)
    data = render_card(source, pieces, style=style)
    open_png(data)
    assert data == render_card(source, pieces, style=style)
    assert pixels_digest(data) == GOLDEN[(card_id, style)]


# -- legibility and layout ----------------------------------------------------------------------------


def test_text_is_at_least_three_percent_of_width(games: dict[str, list[GameState]]) -> None:
    """Discord shows images ~400 px wide on phones: 3% of the width is 12 px there. The table is
    measured against its shared part's width (:data:`renders.table.LAYOUT`): the players' panels
    beside it widen the image without making its text any smaller."""
    state = mid_state(games, "4p")
    names = names_for(state)
    place = next(a for a in legal_actions(state) if isinstance(a, Place))
    renders = {
        "table": lambda: render_table(state, names),
        "mat": lambda: render_mat(state, state.current, names),
        "results": lambda: render_results(games["4p"][-1], names),
        "preview": lambda: render_preview(state, state.current, place, names),
        "solo": lambda: render_table(mid_state(games, "solo"), names),
    }
    for name, render in renders.items():
        with fonts.recording_sizes() as sizes:
            data = render()
        width = LAYOUT.width if name in ("table", "solo") else open_png(data).width
        assert sizes, name
        assert min(sizes) >= 0.03 * width, f"{name}: {min(sizes)} px text on a {width} px image"


def _has_ink(image: Image.Image, box: tuple[int, int, int, int]) -> bool:
    region = image.crop(box).convert("RGB")
    return any(
        sum(abs(a - b) for a, b in zip(colour, INK, strict=True)) < 60
        for _, colour in region.getcolors(1 << 16) or []
    )


def test_mat_draws_coordinates_on_every_card(games: dict[str, list[GameState]]) -> None:
    state = mid_state(games, "4p")
    image, layout = mat_image(state, state.current, names_for(state))
    plan = layout.plan
    assert len(layout.cards) == len(state.players[state.current].puzzles) > 0
    assert layout.min_text >= 0.03 * layout.width
    half = plan.text // 2 + 2
    for _, x, y in layout.cards:
        gx, gy = plan.grid_origin()
        for i in range(5):  # letters A-E above the columns, numbers 1-5 beside the rows
            cx = x + gx + i * plan.cell + plan.cell // 2
            top = y + plan.title + plan.margin // 2
            assert _has_ink(image, (cx - half, top - half, cx + half, top + half))
            cy = y + gy + i * plan.cell + plan.cell // 2
            assert _has_ink(
                image, (x + plan.margin // 2 - half, cy - half, x + plan.margin // 2 + half, cy + half)
            )
        assert not _has_ink(
            image, (x + 2, y + plan.title + 2, x + plan.margin - 4, y + plan.title + plan.margin - 4)
        )


# -- more players, removed players, names ------------------------------------------------------------


def test_six_players_fit_in_a_growing_grid(games: dict[str, list[GameState]]) -> None:
    state = mid_state(games, "4p")
    six = state.evolve(players=state.players + state.players[:2])
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin"]
    four = open_png(render_table(state, names))
    bigger = open_png(render_table(six, names))
    assert bigger.width == four.width and bigger.height > four.height


@dataclass(frozen=True, slots=True)
class RemovedPlayer(PlayerState):
    removed: bool = True


def test_removed_player_is_greyed_out(games: dict[str, list[GameState]]) -> None:
    state = mid_state(games, "2p")
    seat = 1 - state.current
    base = state.players[seat]
    gone = RemovedPlayer(
        base.supply, base.puzzles, base.completed, base.finishing_pieces, base.finished_touches
    )
    players = tuple(gone if i == seat else p for i, p in enumerate(state.players))
    names = names_for(state)
    normal = open_png(render_table(state, names)).convert("RGB")
    greyed = open_png(render_table(state.evolve(players=players), names)).convert("RGB")
    panel = ImageChops.difference(normal, greyed).getbbox()  # only the removed player's panel differs
    assert panel is not None and panel[0] >= LAYOUT.width  # beside the shared table
    colours = {colour for _, colour in greyed.crop(panel).getcolors(1 << 16) or []}
    assert not colours & set(PIECE.values()), "a removed player's pieces should be grey"
    assert {c for _, c in normal.crop(panel).getcolors(1 << 16) or []} != colours


def test_names_keep_every_script_and_drop_what_no_font_draws() -> None:
    assert fonts.display_name("Chloé", 0) == "Chloé"
    assert fonts.display_name("Søren  Ærø", 1) == "Søren Ærø"
    assert fonts.display_name("李小龙", 2) == "李小龙"
    assert fonts.display_name("🎲 Dice", 3) == "Dice"
    assert fonts.display_name("👍🏽\u200d", 3) == "Player 4"
    assert fonts.names_for(["Ana"], 2) == ["Ana", "Player 2"]
    assert fonts.fit("Bartholomew the Magnificent", 30, 200).endswith("…")


# -- results wording ----------------------------------------------------------------------------------


def _finished(state: GameState, completed: list[list[str]]) -> GameState:
    players = tuple(
        PlayerState(p.supply, (), tuple(DonePuzzle(c) for c in cards))
        for p, cards in zip(state.players, completed, strict=True)
    )
    return state.evolve(players=players, phase=Phase.OVER)


def _cards_worth(state: GameState, points: int) -> list[str]:
    return sorted(cid for cid, c in state.cards.items() if c.points == points)


def test_tie_on_points_is_explained() -> None:
    state = new_game(Options(players=2), seed=11)
    twos, ones = _cards_worth(state, 2), _cards_worth(state, 1)
    over = _finished(state, [[twos[0]], [ones[0], ones[1]]])
    assert winners(over) == (1,)
    notes = tiebreak_notes(over, ["Ana", "Bo"])
    assert notes == ["Tie on 2 — Bo wins on puzzles completed (2 vs 1)."]
    assert winners_text(over, ["Ana", "Bo"]) == "Bo wins"
    open_png(render_results(over, ["Ana", "Bo"]))


def test_full_tie_is_a_shared_win() -> None:
    state = new_game(Options(players=2), seed=11)
    ones = _cards_worth(state, 1)
    over = _finished(state, [[ones[0]], [ones[1]]])
    assert winners_text(over, ["Ana", "Bo"]) == "Ana and Bo share the win"
    assert "share the win" in tiebreak_notes(over, ["Ana", "Bo"])[0]


def test_solo_tie_goes_to_the_mastermind(games: dict[str, list[GameState]]) -> None:
    final = games["solo"][-1]
    text = winners_text(final, ["Ana"])
    assert text in {"Ana beats the mastermind", "the mastermind wins"}
    assert (text == "Ana beats the mastermind") == (winners(final) == (0,))
    open_png(render_results(final, ["Ana"]))


# -- command line -------------------------------------------------------------------------------------


def test_bench_report_keys() -> None:
    from bench.renders import run

    report = run()
    json.dumps(report)
    assert {"table_render_ms", "table_png_kb", "mat_render_ms"} <= set(report)
    assert report["table_png_kb"] <= 250


def test_the_renders_bench_collects_garbage_as_a_render_worker_does() -> None:
    """The bench draws as a render worker draws (bot.core.rendering.render.warm_render_worker):
    what the warm-up built is frozen and no collection falls inside an image; the collector is
    as it was afterwards (the bench runs inside test processes too)."""
    import gc

    from bench.renders import as_a_render_worker

    assert gc.isenabled()
    with as_a_render_worker():
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_examples_are_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from renders.examples import write_examples

    paths = write_examples(tmp_path)
    assert {p.name for p in paths} >= {"table-4p.png", "mat.png", "solo.png", "results.png"}
    for path in paths:
        open_png(path.read_bytes())
