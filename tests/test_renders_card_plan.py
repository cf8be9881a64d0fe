"""Plan cards copy their coordinates and body from a base per colour (``renders.card._plan_base``)
and draw their title after it: every card, with and without pieces, on both modes, must have the
pixels of the card drawn on one canvas in reading order (:func:`_one_canvas`)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from engine import Options
from engine.cards import PuzzleCard
from engine.catalogue import load_catalogue
from engine.state import Placed
from renders import card, labels
from renders.indexed import blank
from renders.palette import PAGE, PANEL, RGB
from renders.samples import play


def _one_canvas(
    puzzle_card: PuzzleCard, pieces: tuple[Placed, ...], cell: int, text: int, background: RGB, mode: str,
) -> Image.Image:
    """The plan card drawn on one canvas in the order it reads (title, coordinates, body, recess,
    pieces), nothing copied from a cache: the reference ``plan_card``'s pixels must match."""
    g = card.PlanGeometry(cell, text)
    lk = card.look(puzzle_card.colour)
    image = blank(mode, (g.width, g.height), background)
    card._paint_plan_title(image, g, puzzle_card, labels.points(puzzle_card.points), labels.REWARD)
    card._paint_plan_frame(image, g, lk)
    gx, gy = g.grid_origin()
    card._paint_guides(ImageDraw.Draw(image), gx, gy, cell, puzzle_card, lk)
    card.paint_grid(image, gx, gy, cell, puzzle_card, pieces, letters=max(text, cell * 2 // 5))
    return image


def _placed_cards() -> list[tuple[PuzzleCard, tuple[Placed, ...]]]:
    """Cards with the pieces a sample game put on them."""
    seen: dict[str, tuple[PuzzleCard, tuple[Placed, ...]]] = {}
    for state in play(Options.for_players(3), 6, max_actions=400, policy="random"):
        for player in state.players:
            for puzzle in player.puzzles:
                seen[f"{puzzle.card}/{len(puzzle.pieces)}"] = (state.card(puzzle.card), puzzle.pieces)
    return list(seen.values())


@pytest.mark.parametrize("mode,background", [("P", PAGE), ("RGB", PANEL)])
def test_plan_cards_from_the_base_match_one_canvas(mode: str, background: RGB) -> None:
    cases: list[tuple[PuzzleCard, tuple[Placed, ...]]] = [(c, ()) for c in load_catalogue(None).cards]
    cases += _placed_cards()
    assert len(cases) > 40
    for puzzle_card, pieces in cases:
        for cell, text in ((62, 24), (64, 25)):
            drawn = card.plan_card(puzzle_card, pieces, cell, text, None, background, mode)
            whole = _one_canvas(puzzle_card, pieces, cell, text, background, mode)
            assert drawn.tobytes() == whole.tobytes(), (puzzle_card, pieces, cell, mode)
