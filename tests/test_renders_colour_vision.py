"""Colour is never the only signal: the table image read through a protanopia and a deuteranopia
simulation (Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear RGB, in pure
Python to each colour of the image's palette).

What must hold under both simulations:

* the card colours (white and black cards, which are also Line Clear's White and Black markers),
  the gold frame that marks whose turn it is, and the pieces' dark outline stay far apart
  (CIELAB ΔE ≥ 20 against what they sit on or next to);
* any two piece colours are at least :data:`MIN_DELTA_E` apart — or, for the few pairs the
  simulations bring closer (pinned in :data:`CLOSE_PAIRS`, so a palette change that confuses a new
  pair fails here), the picture tells them apart without colour: the two shapes differ in every
  orientation, every piece is drawn with the dark outline that shows its shape, the reserve writes
  each shape's code above it and a piece on a card carries its code (``renders.draw.label_piece``).

The palette is unchanged (no golden image is redrawn): where colours are close the shapes and
their codes already carry the difference, which this test now holds the images to.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from engine import Options
from engine.pieces import ORIENTATIONS, SHAPES, Shape
from renders import cache, fonts, palette, render_table
from renders.samples import names_for, play

RGB = tuple[int, int, int]

MACHADO = {  # linear-RGB matrices, severity 1.0 (Machado et al. 2009, table 1)
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}
MIN_DELTA_E = 12.0
"""Two piece colours this far apart (CIELAB ΔE 1976) are told apart at a glance."""
CLOSE_PAIRS = {
    "protanopia": {("O4", "S4"), ("1", "L5"), ("I4", "T4")},
    "deuteranopia": {("I3", "L5"), ("P5", "U5")},
}
"""The piece pairs each simulation brings under :data:`MIN_DELTA_E`: told apart by shape and code."""


def _linear(value: float) -> float:
    value /= 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    value = min(max(value, 0.0), 1.0)
    return round(255 * (12.92 * value if value <= 0.0031308 else 1.055 * value ** (1 / 2.4) - 0.055))


def simulate(colour: RGB, kind: str) -> RGB:
    matrix = MACHADO[kind]
    lin = [_linear(c) for c in colour]
    r, g, b = (_encoded(sum(matrix[i][j] * lin[j] for j in range(3))) for i in range(3))
    return (r, g, b)


def lab(colour: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a: RGB, b: RGB) -> float:
    return math.dist(lab(a), lab(b))


def simulated_image(png: bytes, kind: str) -> dict[RGB, RGB]:
    """Every colour of the rendered image and what it looks like under ``kind``."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is not None
    return {colour: simulate(colour, kind) for _, colour in colours}


def tables() -> Iterator[tuple[str, bytes, Any]]:
    """A 4-player base game and a 5-player Line Clear game (markers), mid-game."""
    for players in (4, 5):
        states = list(play(Options.for_players(players), 3))
        state = states[len(states) // 2]
        yield f"{players}p", render_table(state, names_for(state)), state


def same_shape(a: Shape, b: Shape) -> bool:
    normal = {frozenset(cells) for cells in ORIENTATIONS[a]}
    return any(frozenset(cells) in normal for cells in ORIENTATIONS[b])


@pytest.mark.parametrize("kind", sorted(MACHADO))
def test_cards_markers_turn_frame_and_outlines_stay_apart(kind: str) -> None:
    for name, png, _ in tables():
        seen = simulated_image(png, kind)
        for colour in (palette.CARD_WHITE, palette.CARD_BLACK, palette.ACCENT, palette.PIECE_EDGE):
            assert colour in seen, (name, colour)  # drawn in the image
        assert delta_e(seen[palette.CARD_WHITE], seen[palette.CARD_BLACK]) >= 20  # cards, markers
        assert delta_e(seen[palette.ACCENT], seen[palette.PANEL]) >= 20  # whose turn
        assert delta_e(seen[palette.ACCENT], seen[palette.PAGE]) >= 20
        for shape in SHAPES:  # the outline that shows a piece's shape, on every piece colour
            piece = simulate(palette.PIECE[shape], kind)
            assert delta_e(piece, seen[palette.PIECE_EDGE]) >= 20, (name, shape)


@pytest.mark.parametrize("kind", sorted(MACHADO))
def test_piece_colours_apart_or_told_by_shape_and_code(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = fonts.draw

    def recording(image: Any, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(image, x, y, text, *args, **kwargs)

    monkeypatch.setattr(fonts, "draw", recording)
    cache.clear_all()  # every layer drawn afresh, so every label is seen
    close: set[tuple[str, str]] = set()
    for name, png, state in tables():
        seen = simulated_image(png, kind)
        present = [s for s in SHAPES if palette.PIECE[s] in seen]
        assert set(present) >= {s for s in SHAPES if state.reserve[s.index] > 0}, name  # the reserve
        for a, b in itertools.combinations(present, 2):
            if delta_e(seen[palette.PIECE[a]], seen[palette.PIECE[b]]) < MIN_DELTA_E:
                close.add((a.value, b.value))
                assert not same_shape(a, b)  # the shapes differ, outlined
                assert a.value in drawn and b.value in drawn, (name, a, b)  # and their codes are written
    cache.clear_all()
    assert close <= CLOSE_PAIRS[kind], f"{kind} now confuses {close - CLOSE_PAIRS[kind]}: label or recolour"
    assert close, "no pair was close: CLOSE_PAIRS is out of date (the palette changed?)"


def test_the_simulation_is_the_published_one() -> None:
    """Sanity: grey stays grey, and the classic red/green confusion appears."""
    for kind in MACHADO:
        r, g, b = simulate((128, 128, 128), kind)
        assert max(r, g, b) - min(r, g, b) <= 2
        assert delta_e(simulate((200, 60, 40), kind), simulate((110, 110, 30), kind)) < \
            delta_e((200, 60, 40), (110, 110, 30)) / 2
