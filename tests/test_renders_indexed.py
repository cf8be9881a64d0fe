"""The private mat (and the move preview) drawn straight on the fixed palette (renders/indexed.py):
no quantize step when saving, the same picture as drawing in RGB and mapping it, antialiased
text kept, transparent sprites pasted through their masks."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from engine import Options, Phase, Place, Shape, legal_actions
from engine.state import GameState
from renders import fonts, indexed, render_mat, render_preview
from renders.card import plan_card
from renders.draw import piece_sprite
from renders.mat import mat_image
from renders.palette import HEADER, INK, PAGE, PANEL, PIECE, PIECE_EDGE, WHITE, mix, palette_colours, to_png
from renders.samples import names_for, play

COLOURS = len(palette_colours())


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return list(play(Options(players=4), 3))


def _mid(states: list[GameState]) -> GameState:
    later = states[len(states) // 2 :]
    return next(s for s in later if s.phase is Phase.PLAY and s.players[s.current].puzzles)


def test_the_mat_is_drawn_on_the_palette_and_saved_as_drawn(states: list[GameState]) -> None:
    """Every pixel is already a palette index (never the transparent one), and the PNG holds
    exactly those indexes and the fixed palette: nothing was mapped when saving."""
    state = _mid(states)
    names = names_for(state)
    image, _ = mat_image(state, state.current, names)
    assert image.mode == "P"
    used = {index for _, index in image.getcolors(256) or []}
    assert used and max(used) < COLOURS and indexed.CLEAR not in used
    saved = Image.open(io.BytesIO(render_mat(state, state.current, names)))
    assert saved.mode == "P" and saved.tobytes() == image.tobytes()
    assert saved.getpalette()[: 3 * COLOURS] == [v for colour in palette_colours() for v in colour]


def test_palette_drawing_gives_the_picture_rgb_drawing_gave(states: list[GameState]) -> None:
    """The planning cards of a whole game, drawn in RGB and mapped (the old way) and drawn on the
    palette: no pixel moves by more than a shade (a misplaced index would be a different colour
    altogether)."""
    compared = 0
    for state in states[::9]:
        for player in state.players:
            for puzzle in player.puzzles:
                card = state.card(puzzle.card)
                mapped = to_png(plan_card(card, puzzle.pieces, 62, 24, None, PAGE, "RGB"))
                rgb = Image.open(io.BytesIO(mapped))
                drawn = plan_card(card, puzzle.pieces, 62, 24, None, PAGE, "P")
                difference = ImageChops.difference(rgb.convert("RGB"), drawn.convert("RGB"))
                assert max(high for _, high in difference.getextrema()) <= 48, card.id
                compared += 1
    assert compared > 20


def test_text_on_the_palette_keeps_its_antialiased_edges() -> None:
    """A string drawn on a "P" image uses the blends between its colour and the background, as
    the RGB drawing mapped onto the palette did — not just the two colours."""
    for background, colour in ((PANEL, INK), (HEADER, WHITE)):
        image = indexed.canvas((220, 60), background)
        fonts.draw(image, 10, 30, "Supply W07 x2", 24, colour, bold=True)
        used = {index for _, index in image.getcolors(256) or []}
        assert {indexed.index(background), indexed.index(colour)} < used and len(used) >= 5


def test_text_over_several_colours_blends_with_each() -> None:
    image = indexed.canvas((200, 40), PANEL)
    image.paste(indexed.index(HEADER), (100, 0, 200, 40))
    fonts.draw(image, 20, 20, "across both halves", 24, INK)
    left = {i for _, i in image.crop((0, 0, 100, 40)).getcolors(256) or []}
    right = {i for _, i in image.crop((100, 0, 200, 40)).getcolors(256) or []}
    assert indexed.index(HEADER) not in left and indexed.index(PANEL) not in right
    assert len(left) >= 3 and len(right) >= 3


def test_sprites_paste_through_their_masks_and_rgba_ones_are_refused() -> None:
    sprite = piece_sprite(Shape.T4, 20, False, "P")
    image = indexed.canvas((80, 60), PANEL)
    indexed.paste_sprite(image, sprite, (5, 5))
    used = {i for _, i in image.getcolors(256) or []}
    assert used == {indexed.index(c) for c in (PANEL, PIECE[Shape.T4], PIECE_EDGE,
                                               mix(PIECE[Shape.T4], PIECE_EDGE, 0.5))}
    with pytest.raises(ValueError, match="palette image"):
        indexed.paste_sprite(image, piece_sprite(Shape.T4, 20), (5, 5))


def test_the_preview_is_drawn_on_the_palette_too(states: list[GameState]) -> None:
    state = _mid(states)
    place = next(a for a in legal_actions(state) if isinstance(a, Place))
    saved = Image.open(io.BytesIO(render_preview(state, state.current, place, names_for(state))))
    used = {index for _, index in saved.getcolors(256) or []}
    assert saved.mode == "P" and max(used) < COLOURS


def _nearest_by_scanning(colour: tuple[int, int, int]) -> int:
    """The palette index nearest to ``colour`` as the whole palette scanned in order finds it."""
    r, g, b = colour
    best, best_distance = 0, 1 << 30
    for i, (pr, pg, pb) in enumerate(palette_colours()):
        distance = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2
        if distance < best_distance:
            best, best_distance = i, distance
    return best


def test_the_nearest_palette_index_is_the_whole_scan_s() -> None:
    """indexed._nearest walks the palette outwards from the colour's lightness and stops early;
    it must answer what scanning every entry answers (ties: the lowest index), for every kind of
    colour a drawing asks about — the palette's own, blends of two of them (text edges), any."""
    palette = palette_colours()
    colours = list(palette)
    colours += [mix(a, b, t) for a in palette[::3] for b in palette[::7] for t in (0.25, 0.5, 0.75)]
    colours += [(r, g, b) for r in range(0, 256, 15) for g in range(0, 256, 15) for b in range(0, 256, 15)]
    for colour in colours:
        assert indexed._nearest.__wrapped__(colour) == _nearest_by_scanning(colour), colour


def test_matching_quantize_blocks_nest_and_restore_even_when_drawing_fails() -> None:
    def state() -> tuple[bool, bool]:
        return indexed._MATCHING.get(), indexed._FINAL.get()

    assert state() == (False, False)
    with indexed.matching_quantize():
        assert state() == (True, False)
        with pytest.raises(indexed.NotFinal), indexed.matching_quantize(final=True):
            assert state() == (True, True)
            raise indexed.NotFinal(0)
        assert state() == (True, False)
    assert state() == (False, False)
