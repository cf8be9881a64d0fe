"""Names in every script: each is drawn with the shipped face for its script, right-to-left names
are joined and reordered, emoji are dropped, and golden hashes pin the drawn pixels.

The fonts come from renders/fonts/ only, so these tests pass on a machine without any system font.
If a deliberate change to the fonts or to text drawing breaks a hash, look at the new strip
(``_strip`` below, saved as PNG) and update it.
"""

from __future__ import annotations

import hashlib
import io
import unicodedata

import pytest
from PIL import Image, ImageFont

from engine import Options
from renders import bidi, fonts, render_mat, render_results, render_table
from renders.samples import play

# name -> (face that draws its letters, golden sha256 of the 24 px mask)
SCRIPTS = {
    "Chloé Ærø": (
        "NotoSans-Regular.ttf",
        "6a2334794a4e96f0d5d6215f586aec3e23aa1e74f2883f210935e29a53a85107",
    ),
    "Ψυχή": (
        "NotoSans-Regular.ttf",
        "b0321ae811e34c32d1b55dae4752b1e4338f635d0b1f94023541302fd48aa2e4",
    ),
    "Дмитрий": (
        "NotoSans-Regular.ttf",
        "41dc702d7bb04d571dc5b5a834f0ea849a0f5bd3420d3c76576a476b0a6061e7",
    ),
    "李小龍": (
        "NotoSansCJK-Regular.otf",
        "ffa9e331eb071ed1b5c92c4a9ce47e04b138fc2d2df5f38207c39666e0467e2c",
    ),
    "さくら": (
        "NotoSansCJK-Regular.otf",
        "638dc936100d43055dc85411d04ca343c134122d40debdcbc57b444b8e662f69",
    ),
    "김민준": (
        "NotoSansCJK-Regular.otf",
        "a0b2bd4d3f30cc58cb56d79147c4763e37967a6411b8285ac152a221922d280c",
    ),
    "علي حسن": (
        "NotoSansArabic-Regular.ttf",
        "2e01a5e338278241b11aade0944a350f398f96487a84c442f3302f32b0dd073b",
    ),
    "שרה כהן": (
        "NotoSansHebrew-Regular.ttf",
        "a9bb2085944002479f7a6017b859656d760b73c0adb4fd24f6143857d266cc9e",
    ),
}


def mask_digest(text: str, size: int = 24, bold: bool = False) -> str:
    run = fonts.run(text, size, bold)
    mask = run.mask()
    header = f"{mask.width}x{mask.height} {run.ascent}".encode()
    return hashlib.sha256(header + mask.tobytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_each_script_is_drawn_by_its_shipped_face(name: str) -> None:
    face, _ = SCRIPTS[name]
    letters = [c for c in name if c.isalpha()]
    assert {fonts.FACES[fonts.face_for(c)] for c in letters} == {face}
    assert fonts.display_name(name, 0) == name
    run = fonts.run(name, 24)
    assert run.width > 12 * len(letters) // 2
    assert run.mask().getbbox() is not None


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_golden_name_masks(name: str) -> None:
    assert mask_digest(name) == SCRIPTS[name][1]


def test_no_glyph_is_a_missing_glyph_box() -> None:
    """Every drawn character has an outline of its own, not the face's .notdef box."""
    for name in SCRIPTS:
        for char in bidi.visual(name):
            if char.isspace():
                continue
            face = fonts.face_for(char)
            assert face is not None, (name, char)
            font: ImageFont.FreeTypeFont = fonts.get_font(40, face)
            notdef = font.getmask("\U0010fffd").getbbox()  # a code point no face has
            assert font.getmask(char).getbbox() != notdef or char == "\U0010fffd", (name, char)


def test_right_to_left_names_are_joined_and_reversed() -> None:
    assert bidi.visual("שרה") == "הרש"
    joined = bidi.visual("علي")
    assert [unicodedata.name(c).split()[-2] for c in joined] == ["FINAL", "MEDIAL", "INITIAL"]
    assert bidi.visual("لا") == "\ufefb"  # lam-alef ligature
    assert bidi.visual("Ana (שרה) 2") == "Ana (הרש) 2"
    assert bidi.visual("שרה (Ana) 2") == "הרש (Ana) 2"  # interface lines are left-to-right
    assert bidi.visual_order("שרה (Ana) 2", "R") == "2 (Ana) הרש"
    assert bidi.visual("שרה to play") == "הרש to play"
    assert bidi.visual("علي 12") == "12 ﻲﻠﻋ"


def test_emoji_and_joiners_are_dropped_not_boxed() -> None:
    assert fonts.display_name("Dice 🎲🎲", 0) == "Dice"
    assert fonts.display_name("👨\u200d👩\u200d👧 Family", 1) == "Family"
    assert fonts.width("Ana 🎲", 24) == fonts.width("Ana ", 24)


def test_a_game_with_names_in_every_script_renders() -> None:
    names = list(SCRIPTS)[:4]
    states = list(play(Options(players=4), 2))
    for state in (states[len(states) // 2], states[-1]):
        for data in (render_table(state, names), render_mat(state, 0, names)):
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
    final = states[-1]
    rtl = ["علي حسن", "שרה כהן", "Дмитрий", "李小龍"]
    image = render_results(final, rtl)
    assert Image.open(io.BytesIO(image)).width == 960


def test_fonts_are_read_from_the_package_only() -> None:
    for face in range(len(fonts.FACES)):
        path = fonts.get_font(20, face).path
        assert str(path).startswith(str(fonts.FONT_DIR)), path
    assert (fonts.FONT_DIR / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE") >= 1
