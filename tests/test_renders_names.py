"""Players' names on the table image (issue 46, item 11): a long name — up to Discord's 32
characters, in wide glyphs or a right-to-left script — is set on one line of its panel's header,
shrunk to the image's small size and then shortened with an ellipsis to the room it has (two lines
crowded the status line under it), cut only between letters (grapheme clusters), keeping a seat
number at its end; the labels around a name keep their words and their order."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

import engine
import renders
from bot.core.wording.locales import image_words
from engine.state import Options
from renders import bidi, fonts, graphemes, labels, panels
from renders.layers import clear_layers
from renders.table import LAYOUT

LONGEST = (
    "W" * 32,  # the widest Latin letter
    "龍" * 32,  # wide glyphs
    "عبد الرحمن بن محمد بن عبد الله",  # right to left
    "Maximiliano Rodrigues da Silva 1",
    "Maximiliano Rodrigues da Silva 2",
    "Wolfeschlegelsteinhausenbergerdo",
)
"""Display names as long as Discord allows (32 characters)."""


def test_the_longest_names_are_legal_discord_display_names() -> None:
    assert all(len(name) <= 32 for name in LONGEST)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_a_panel_sets_a_name_on_one_line_shortened_to_its_room(
    players: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    set_names: list[tuple[str, int, int, str]] = []
    real = panels.panel_name

    def spy(name: str, room: int, t: Any) -> tuple[int, str]:
        size, shown = real(name, room, t)
        set_names.append((name, room, size, shown))
        return size, shown

    monkeypatch.setattr(panels, "panel_name", spy)
    names = list(LONGEST[-players:])
    state = engine.new_game(Options.for_players(players), 7)
    clear_layers()  # every panel drawn afresh (a name's head may be kept from another table)
    renders.render_table(state, names)
    assert {name for name, *_ in set_names} == set(names)
    for name, room, size, shown in set_names:
        assert size >= LAYOUT.t.small and fonts.width(shown, size, bold=True) <= room
        if shown != name:
            assert fonts.ELLIPSIS in shown
            head = shown.split(fonts.ELLIPSIS)[0]
            assert name.startswith(head) and len(head) in graphemes.cuts(name)
    shown_for = {name: shown for name, *_, shown in set_names}  # a panel's head may be set twice
    assert len(set(shown_for.values())) == len(shown_for)  # "… 1" and "… 2" stay apart


def test_a_panel_name_leaves_the_status_line_clear() -> None:
    """Nothing of the name reaches down to the status line ("1 puzzle done") under it."""
    state = engine.new_game(Options.for_players(4), 7)
    with fonts.recording() as drawn:
        renders.render_table(state, list(LONGEST[:4]))
    for name in LONGEST[:4]:
        mine = [d for d in drawn if d.text and name.startswith(d.text.split(fonts.ELLIPSIS)[0]) and d.bold]
        assert len(mine) == 1, (name, [d.text for d in mine])  # one line
        left, top, right, bottom = mine[0].box
        below = [d for d in drawn if d.canvas == mine[0].canvas and d.box[1] > (top + bottom) // 2]
        assert below and min(d.box[1] for d in below) >= bottom + LAYOUT.t.small // 4


@pytest.mark.parametrize(
    "name",
    ["q\u0303q\u0303q\u0303q\u0303q\u0303q\u0303q\u0303q\u0303q\u0303q\u0303",  # marks NFC cannot join
     "مُحَمَّد عَلِي مُحَمَّد عَلِي مُحَمَّد",  # Arabic with its vowel marks
     "שָׁלוֹם שָׁלוֹם שָׁלוֹם שָׁלוֹם"],  # Hebrew with its points
)
def test_a_shortened_or_wrapped_name_keeps_every_letter_whole(name: str) -> None:
    """An ellipsis never comes between a letter and its marks, and wrapping never parts them."""
    for room in range(40, fonts.width(name, 29), 7):
        shown = fonts.fit(name, 29, room)
        head = shown.split(fonts.ELLIPSIS)[0]
        assert name.startswith(head) and (not head or len(head) in graphemes.cuts(name)), (room, shown)
        lines = fonts.wrap(name, 29, room)
        assert "".join(lines).replace(" ", "") == name.replace(" ", "")
        assert all(unicodedata.category(line[0]) not in ("Mn", "Mc", "Me") for line in lines if line), lines


def test_clusters_join_marks_jamo_and_flags() -> None:
    assert graphemes.clusters("Zoe\u0308") == ("Z", "o", "e\u0308")
    jamo = "\u1112\u1161\u11ab\u1100\u116e\u11a8"  # 한국 written in jamo
    assert graphemes.clusters(jamo) == (jamo[:3], jamo[3:])
    assert graphemes.clusters("\U0001F1E7\U0001F1F7\U0001F1F5\U0001F1F9") == ("\U0001F1E7\U0001F1F7",
                                                                              "\U0001F1F5\U0001F1F9")
    assert graphemes.clusters("a\u200db") == ("a\u200db",)


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_finesse_credits_keep_their_words_order_and_seat_numbers(locale: str | None) -> None:
    words = image_words(locale) if locale else None
    state = engine.new_game(Options.for_players(6, finesse=True), 3)
    with fonts.recording() as drawn:
        renders.render_table(state, list(LONGEST), words=words)
    with labels.speaking(words):
        after = labels.finesse_credits("\0", 0, 0).partition("\0")[2]  # ": 0 credits"
    lines = [d.text for d in drawn if d.text.endswith(after)]
    assert len(lines) == 6, [d.text for d in drawn]
    assert len(set(lines)) == 6  # "Maximiliano… 1" and "Maximiliano… 2" stay apart
    arabic = next(line for line in lines if "عبد" in line)
    assert bidi.visual(arabic).endswith(after)  # drawn after the name, in order ("0 :عبد" before)


def test_the_status_bar_shortens_the_name_not_its_words() -> None:
    state = engine.new_game(Options.for_players(2), 7)
    name = "W" * 32 + " " + "W" * 32  # longer than Discord allows: the bar must still say "to play"
    with fonts.recording() as drawn:
        renders.render_table(state, [name, name])
    said = [d.text for d in drawn if d.text.endswith(" to play")]
    assert said and fonts.ELLIPSIS in said[0]


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_a_mat_title_shortens_the_name_not_its_words(locale: str | None) -> None:
    words = image_words(locale) if locale else None
    state = engine.new_game(Options.for_players(6), 7)
    seat = next(s for s in range(6) if s not in state.acting_seats)
    with fonts.recording() as drawn:
        renders.render_mat(state, seat, list(LONGEST), words=words)
    with labels.speaking(words):
        before, _, after = labels.mat_title("\0").partition("\0")
        to_play_after = labels.to_play("\0").partition("\0")[2]
    titles = [d.text for d in drawn if d.size == max(x.size for x in drawn if x.bold) and d.bold
              and d.text.startswith(before) and d.text.endswith(after)]
    assert titles and fonts.ELLIPSIS in titles[0]
    assert any(d.text.endswith(to_play_after) and fonts.ELLIPSIS in d.text for d in drawn)


def test_the_recap_legend_draws_names_in_any_script_and_keeps_the_scores() -> None:
    """The recap's legend drew names with one Latin face: Arabic and Chinese names came out as
    boxes, and a long name's cut could eat its score. Drawn like every other name now."""
    state = engine.new_game(Options.for_players(4), 7)
    names = [LONGEST[3], "李小龍", LONGEST[2], "Dee"]
    scores = [[0, 0, 0, 0], [3, 5, 7, 11]]
    with fonts.recording() as drawn:
        renders.render_recap([state, state], names, scores)
    said = [d.text for d in drawn]
    for name in names:
        assert any(text and name.startswith(text.split(fonts.ELLIPSIS)[0]) for text in said), name
    assert all(str(score) in said for score in scores[-1])  # each score drawn whole, on its own
