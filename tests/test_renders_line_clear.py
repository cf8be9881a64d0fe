"""Renders for Line Clear (5–6 players) and the Ghost Piece expansion: the four rows around the
decks with the marker holders, both holders' panels, ghost pieces in the reserve, level-up arrows
on reward badges, and the Ghost action's preview."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.core.wording.locales import image_words
from engine import Options, new_game
from engine.cards import Colour, LevelUp, PuzzleCard
from engine.pieces import Shape, parse_cells
from engine.state import LineClearTable
from renders import fonts, labels, render_card, render_ghost_split, render_table
from renders.palette import ARROW, MARKER_BLACK, PIECE
from renders.panels import reserve_shapes
from renders.table import LAYOUT, _marker_label, panel_columns_beside, table_image, table_width


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


@pytest.mark.parametrize("players", [5, 6])
def test_line_clear_table_shows_four_rows_and_both_markers(players: int) -> None:
    state = new_game(Options.for_players(players), seed=4)
    names = [f"Player {i + 1}" for i in range(players)]
    image = table_image(state, names)
    assert image.width == table_width(panel_columns_beside(state.options))
    png = _png(render_table(state, names))
    colours = {c for _, c in png.getcolors(1 << 20)}
    assert MARKER_BLACK in colours  # the Black marker's pill
    table = state.table
    assert isinstance(table, LineClearTable)


def test_six_player_table_stays_phone_legible() -> None:
    """Discord shows images ~400 px wide: the smallest text is 3% of the shared table's width,
    and the image, with the players beside the table, is wider than tall (issue 46, item 11)."""
    state = new_game(Options.for_players(6), seed=2)
    image = table_image(state, [f"P{i}" for i in range(6)])
    assert LAYOUT.t.small * 400 / LAYOUT.width >= 12
    assert image.height / image.width < 1


def test_ghost_pieces_appear_in_the_reserve_row_even_when_gone() -> None:
    state = new_game(Options(players=2, ghost=True), seed=1)
    assert reserve_shapes(state)[-3:] == [Shape.P5, Shape.U5, Shape.L5]
    gone = tuple(0 if s.level == 5 else n for s, n in zip(Shape, state.reserve, strict=True))
    empty = state.evolve(reserve=gone)
    assert reserve_shapes(empty)[-3:] == [Shape.P5, Shape.U5, Shape.L5]
    assert Shape.P5 not in reserve_shapes(new_game(Options(players=2), seed=1))


@pytest.mark.parametrize("reward", [LevelUp.UP, LevelUp.DOUBLE])
def test_level_up_rewards_are_drawn_as_arrows(reward: LevelUp) -> None:
    card = PuzzleCard("B98", Colour.BLACK, 3, reward, parse_cells("A1 B1 C1 A2 B2 C2 A3"))
    colours = {c for _, c in _png(render_card(card, (), style="market")).getcolors(1 << 20)}
    assert ARROW in colours


def test_ghost_rewards_are_drawn_in_their_level_5_colour() -> None:
    card = PuzzleCard("W98", Colour.WHITE, 0, Shape.U5, parse_cells("A1 C1 A2 B2 C2"))
    colours = {c for _, c in _png(render_card(card, (), style="market")).getcolors(1 << 20)}
    assert PIECE[Shape.U5] in colours


def test_ghost_split_preview_shows_each_new_piece() -> None:
    image = _png(render_ghost_split(Shape.P5, (Shape.MONO, Shape.O4)))
    colours = {c for _, c in image.getcolors(1 << 20)}
    assert {PIECE[Shape.P5], PIECE[Shape.MONO], PIECE[Shape.O4]} <= colours
    with pytest.raises(ValueError):
        render_ghost_split(Shape.U5, (Shape.MONO, Shape.O4))


def _drawn_whole(texts: list[str], whole: str) -> bool:
    """``whole`` among the drawn texts: in one piece, or as consecutive lines that join back to it
    (a wrap at a space, or between the letters of a word too long for a line)."""
    for start, first in enumerate(texts):
        if not whole.startswith(first):
            continue
        joined = first
        for line in texts[start + 1:]:
            if joined == whole:
                break
            if whole.startswith(f"{joined} {line}"):
                joined = f"{joined} {line}"
            elif whole.startswith(joined + line):
                joined += line
            else:
                break
        if joined == whole:
            return True
    return False


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_marker_labels_show_whole_names_wrapped_or_shrunk_never_cut(locale: str | None) -> None:
    """Issue 31, item 6: "White marker: Greedy…" is gone — a holder's whole name is drawn, the
    label shrunk (to the image's small size at least) or wrapped onto more lines, never cut with
    an ellipsis; each line fits its side of the image. Short names draw as before (goldens)."""
    words = image_words(locale) if locale else None
    state = new_game(Options.for_players(5), seed=4)
    table = state.table
    assert isinstance(table, LineClearTable)
    long_names = ["Greedy bot 1 (for Maria Fernanda)", "You (policy)", "Anastácia Beatriz Gonçalves",
                  "Bo", "Wolfeschlegelsteinhausenbergerdorff"]
    for names in (long_names, [long_names[i] for i in (4, 1, 2, 3, 0)]):
        with fonts.recording() as drawn:
            data = render_table(state, names, words=words)
        image = _png(data)
        texts = [d.text for d in drawn]
        with labels.speaking(words):
            white = labels.marker_holder(labels.WHITE_MARKER, names[table.markers[0]])
            black = labels.marker_holder(labels.BLACK_MARKER, names[table.markers[1]])
        for label in (white, black):
            assert _drawn_whole(texts, label), (label, texts[:40])
            assert not any(t.endswith(fonts.ELLIPSIS) and label.startswith(t[:-1]) for t in texts)
        small = min(d.size for d in drawn)
        assert small * 100 >= 3 * LAYOUT.width - 100  # shrunk no smaller than the phone rule
        assert all(0 <= d.box[0] and d.box[2] <= image.width for d in drawn)


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_a_wrapped_marker_label_breaks_after_the_marker_and_leaves_no_word_alone(locale: str | None) -> None:
    """Issue 46, item 11: "Black marker: Greedy bot 1" wrapped leaving "1" alone on a line. A
    label that must wrap breaks after the marker's name first, and never ends on a lone short word."""
    words = image_words(locale) if locale else None
    with labels.speaking(words):
        for side, marker in (("left", labels.WHITE_MARKER), ("right", labels.BLACK_MARKER)):
            for name in ("Easy AI 1 (for Maria Fernanda)", "Strong AI 12", "Anastácia Beatriz Gonçalves 1",
                         "Maria Fernanda de Souza Lima 2", "Expert AI (for Wolfeschlegel) 3"):
                _, lines = _marker_label(LAYOUT, side, name)
                if len(lines) > 1:
                    assert lines[0] == labels.marker_holder(marker, "").rstrip(), lines
                    assert " ".join(lines[1:]) == name or "".join(lines[1:]) == name.replace(" ", "")
                    assert len(lines[-1]) > 3, lines
