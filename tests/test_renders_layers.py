"""Images joined from cached bands (renders.layers) show exactly what one canvas would: the table
and the mat over whole games of every variant, in English and Portuguese, with the previous
post's changes framed and after the end banner shifts every band below it by an odd number of
rows."""

from __future__ import annotations

import io
import json
import zlib
from pathlib import Path

import pytest
from PIL import Image

from engine import Options
from engine.state import GameState, Phase
from renders import labels, layers, render_mat, render_table
from renders.cache import budgets_while, held
from renders.mat import mat_image
from renders.palette import PAGE, to_png
from renders.samples import names_for, play
from renders.table import table_image

CATALOGUE = Path(__file__).parents[1] / "bot" / "core" / "wording" / "locales" / "pt-BR.json"
PORTUGUESE = json.loads(CATALOGUE.read_text("utf-8"))["images"]


def pixels(data: bytes) -> tuple[str, tuple[int, int], bytes, bytes]:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.mode, image.size, bytes(image.getpalette() or ()), image.tobytes()


def some_states(options: Options, seed: int, count: int = 12) -> list[GameState]:
    states = list(play(options, seed))
    step = max(1, len(states) // count)
    return [*states[::step], states[-1]]


CASES = {
    "base-4": Options(players=4), "ghost-3": Options(players=3, ghost=True),
    "finesse-2": Options(players=2, finesse=True), "solo": Options(players=1, variant="solo"),
    "line-clear-5": Options(players=5, variant="lineclear"),
    "line-clear-6": Options(players=6, variant="lineclear", ghost=True),
    "hidden-scores-3": Options(players=3, known_scores=False),
    "everything-6": Options.for_players(6, finesse=True, ambassador=True, phoenix=True,
                                        finesse_ambassador=True),
}


@pytest.mark.parametrize(
    ("case", "words"),
    [*((case, None) for case in CASES), ("base-4", PORTUGUESE), ("line-clear-5", PORTUGUESE)],
    ids=[*(f"{case}-en" for case in CASES), "base-4-pt-BR", "line-clear-5-pt-BR"],
)
def test_cached_bands_show_what_one_canvas_shows(case: str, words: dict | None) -> None:
    states = some_states(CASES[case], 16)
    names = [*names_for(states[0])]
    names[0] = "Ünïcødé 名前 أحمد"
    previous = None
    for state in states:
        for shown_before in (previous, None):
            layered = render_table(state, names, shown_before, words=words)
            with labels.speaking(words):
                whole = to_png(table_image(state, names, shown_before))
            assert pixels(layered) == pixels(whole)
        if state.phase is not Phase.OVER:
            for seat in range(len(state.players)):
                viewer = (seat + 1) % len(state.players)
                with labels.speaking(words):
                    whole = to_png(mat_image(state, seat, names, viewer)[0])
                assert pixels(render_mat(state, seat, names, viewer, words=words)) == pixels(whole)
        previous = state


def test_bands_are_kept_and_a_band_seen_before_is_not_drawn_again() -> None:
    drawn: list[int] = []

    def painter(shade: int) -> layers.Painter:
        def paint(image: Image.Image, x: int, y: int) -> None:
            drawn.append(shade)
            image.paste((shade, shade, shade), (x, y, x + 10, y + 3))
        return paint

    def layout(shades: tuple[int, int]) -> layers.Layout:
        return layers.Layout(40, 9, PAGE, (
            layers.whole(0, 4, 40, ("test-band", shades[0]), painter(shades[0])),
            layers.Band(4, 5, (layers.Part(1, 12, ("test-part", shades[1]), painter(shades[1])),
                               layers.Part(20, 12, ("test-part", 7), painter(7)))),
        ))

    first = layers.png(layout((10, 20)))
    assert pixels(first) == pixels(to_png(layers.draw(layout((10, 20)))))
    drawn.clear()
    assert layers.png(layout((10, 20))) == first and drawn == []
    layers.png(layout((10, 30)))  # the second band changed: only its changed part is drawn
    assert drawn == [30]
    assert held()["renders.layers._SEGMENTS"].bytes <= held()["renders.layers._SEGMENTS"].max_bytes


def _two_part_layout(drawn: list[int], shades: tuple[int, int]) -> layers.Layout:
    """A band of its own, then a band of two kept parts (the second always the same)."""
    def painter(shade: int) -> layers.Painter:
        def paint(image: Image.Image, x: int, y: int) -> None:
            drawn.append(shade)
            image.paste((shade, shade, shade), (x, y, x + 10, y + 3))
        return paint

    return layers.Layout(40, 9, PAGE, (
        layers.whole(0, 4, 40, ("test-band", shades[0]), painter(shades[0])),
        layers.Band(4, 5, (layers.Part(1, 12, ("test-part", shades[1]), painter(shades[1])),
                           layers.Part(20, 12, ("test-part", 7), painter(7)))),
    ))


TWO_PARTS = {"renders.layers._SEGMENTS": 0, "renders.layers._PART_IMAGES": 2 * (12 * 5 + 64)}
"""No band kept whole, and room for two parts: every image looks its parts up."""


def test_a_dropped_part_is_compressed_after_the_image_and_found_before_that() -> None:
    """A part pushed out of the kept images is compressed by spill_pending (which a render
    worker calls once its image is written back), not inside the image that pushed it out; an
    image drawn meanwhile still finds it."""
    drawn: list[int] = []
    layers.clear_layers()
    with budgets_while(TWO_PARTS):
        layers.png(_two_part_layout(drawn, (10, 20)))
        compressed = held()["renders.layers._PARTS"].entries
        layers.png(_two_part_layout(drawn, (10, 30)))  # part 20 pushed out by part 30
        assert held()["renders.layers._PARTS"].entries == compressed
        drawn.clear()
        again = layers.png(_two_part_layout(drawn, (10, 20)))  # part 20 found set aside
        assert drawn == [10]
        assert pixels(again) == pixels(to_png(layers.draw(_two_part_layout([], (10, 20)))))
        assert layers.spill_pending() == 1  # part 30, pushed out by part 20 coming back
        assert held()["renders.layers._PARTS"].entries == compressed + 1
        assert layers.spill_pending() == 0


def test_parts_set_aside_are_compressed_at_once_past_their_budget() -> None:
    """A process that never calls spill_pending keeps no more set aside than the budget of
    ``_SET_ASIDE``: what does not fit is compressed at once."""
    layers.clear_layers()
    with budgets_while({**TWO_PARTS, "renders.layers._SET_ASIDE": 0}):
        layers.png(_two_part_layout([], (10, 20)))
        compressed = held()["renders.layers._PARTS"].entries
        layers.png(_two_part_layout([], (10, 30)))
        assert held()["renders.layers._PARTS"].entries == compressed + 1
        assert layers.spill_pending() == 0


def _beside_layout(drawn: list[int], shades: tuple[int, int, int]) -> layers.Layout:
    """A band across the top, then two columns side by side: one band on the left (rows 3-9),
    two on the right (rows 4-6 and 7-11, starting on odd and even rows)."""
    def painter(shade: int, rows: int) -> layers.Painter:
        def paint(image: Image.Image, x: int, y: int) -> None:
            drawn.append(shade)
            image.paste((shade, shade, shade), (x + 1, y, x + 9, y + rows))
        return paint

    left = layers.Band(3, 7, (layers.Part(1, 12, ("left", shades[0]), painter(shades[0], 7)),))
    right = (layers.Band(4, 3, (layers.Part(21, 10, ("right", shades[1]), painter(shades[1], 3)),)),
             layers.Band(7, 5, (layers.Part(20, 11, ("right", shades[2]), painter(shades[2], 5)),)))
    return layers.Layout(40, 12, PAGE, (
        layers.whole(0, 3, 40, ("top",), painter(90, 2)),
        layers.beside(3, 12, ((left,), right)),
    ))


def test_columns_side_by_side_show_what_one_canvas_shows_and_keep_their_parts() -> None:
    """Bands beside each other (the shared table and the panels) make one band of the image;
    each part is kept on its own, so a part that changed is the only one drawn again."""
    drawn: list[int] = []
    layers.clear_layers()
    first = layers.png(_beside_layout(drawn, (10, 20, 30)))
    assert pixels(first) == pixels(to_png(layers.draw(_beside_layout([], (10, 20, 30)))))
    drawn.clear()
    changed = layers.png(_beside_layout(drawn, (10, 40, 30)))
    assert drawn == [40]
    assert pixels(changed) == pixels(to_png(layers.draw(_beside_layout([], (10, 40, 30)))))


def test_bands_beside_each_other_must_lie_within_their_rows() -> None:
    paint: layers.Painter = lambda image, x, y: None  # noqa: E731
    with pytest.raises(ValueError, match="not within"):
        layers.beside(3, 8, ((layers.whole(2, 4, 10, None, paint),),))


def test_bands_must_cover_the_image() -> None:
    paint: layers.Painter = lambda image, x, y: None  # noqa: E731
    with pytest.raises(ValueError, match="cover"):
        layers.png(layers.Layout(10, 10, PAGE, (layers.whole(0, 4, 10, None, paint),)))


def test_checksums_combine_as_zlib_computes_them_over_the_joined_bytes() -> None:
    pieces = [b"", b"a", bytes(70_000), bytes(range(256)) * 300, b"xyz" * 5]
    for first in pieces:
        for second in pieces:
            combined = layers.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
            assert combined == zlib.adler32(first + second)
