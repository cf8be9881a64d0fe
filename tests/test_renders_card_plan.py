"""Plan cards copy their coordinates and body from a base per colour (``renders.card._plan_base``)
and draw their title after it: every card, with and without pieces, on both modes, must have the
pixels of the card drawn on one canvas in reading order (``plan_card_whole``)."""

from __future__ import annotations

import pytest

from engine import Options
from engine.cards import PuzzleCard
from engine.catalogue import load_catalogue
from engine.state import Placed
from renders import card
from renders.palette import PAGE, PANEL, RGB
from renders.samples import play


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
            whole = card.plan_card_whole(puzzle_card, pieces, cell, text, None, background, mode)
            assert drawn.tobytes() == whole.tobytes(), (puzzle_card, pieces, cell, mode)
