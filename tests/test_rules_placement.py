"""Rule cases: placing a piece on a puzzle.

Sources: seed 000 "Colocar uma Peça em um Quebra-Cabeça", seed 001 "Place a piece", RULINGS.md
"A turn" (Place). Cells are columns A–E and rows 1–5 of the card (docs/engine.md).
"""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    at_turn_start,
    card,
    count,
    game,
    play,
    play_events,
    with_cards,
    with_player,
)

from engine import Place, Shape, legal_actions, parse_action
from engine.errors import PieceNotInSupplyError, PlacementError, PuzzleNotFoundError
from engine.events import PiecePlaced
from engine.pieces import ORIENTATIONS, PLACEMENTS, parse_cells


def _with(supply: str, *puzzles):
    return with_player(at_turn_start(game(2, seed=1), 0), 0, supply=supply, puzzles=list(puzzles))


def test_place_a_piece_inside_the_recess() -> None:
    """Seed 000: choose one of your pieces and fit it into one of your unfinished puzzles; it leaves
    your supply and lies on the card."""
    state = _with("2 1", "TO")
    after, events = play_events(state, "place 2 on TO at A1 B1")
    assert count(after.players[0].supply, "2") == 0
    puzzle = after.players[0].puzzle("TO")
    assert puzzle is not None and puzzle.filled == parse_cells("A1 B1")
    assert PiecePlaced(0, "TO", Shape.DOMINO, parse_cells("A1 B1")) in events
    assert after.actions_left == 2


@pytest.mark.parametrize("cells", ["A1 A2 B2", "A1 B1 A2", "A1 B1 B2", "B1 A2 B2"])
def test_place_rotated_or_flipped(cells: str) -> None:
    """Seed 000 "Você pode virar ou rotacionar a peça": every rotation and reflection of an L3 fits
    the 2×2 recess (each leaves one cell free)."""
    after = play(_with("L3", "TO"), f"place L3 on TO at {cells}")
    assert after.players[0].puzzle("TO").filled == parse_cells(cells)  # type: ignore[union-attr]


def test_flipped_s_and_z_are_the_same_piece() -> None:
    """RULINGS "Components": S/Z are one shape because pieces may be flipped — an S4 fills both an S
    recess and its mirror image (a Z), and 'Z4' is read as S4."""
    assert play(_with("S4", "TS"), "place S4 on TS at B1 C1 A2 B2").players[0].completed
    z_card = card("TZ", "A1 B1 B2 C2", points=1, reward="S4")
    state = with_player(with_cards(_with("S4"), [z_card]), 0, puzzles=["TZ"])
    z_text = "place Z4 on TZ at A1 B1 B2 C2"
    assert parse_action(z_text) == Place("TZ", Shape.S4, parse_cells("A1 B1 B2 C2"))
    assert play(state, z_text).players[0].completed[0].card == "TZ"


def test_every_orientation_is_offered() -> None:
    """legal_actions offers the piece in every rotation/reflection and position that fits: an L4 has
    8 orientations; on a fully recessed 5×5 card each fits in 3×4 positions."""
    full = card("TF", " ".join(f"{c}{r}" for c in "ABCDE" for r in range(1, 6)), points=5)
    state = with_player(with_cards(_with("L4"), [full]), 0, puzzles=["TF"])
    places = [a for a in legal_actions(state) if isinstance(a, Place)]
    assert len(ORIENTATIONS[Shape.L4]) == 8
    assert len(places) == 8 * 3 * 4 == len(PLACEMENTS[Shape.L4])


def test_placement_outside_the_recess_is_refused() -> None:
    """Seed 001: a piece "cannot overlap the border of the puzzle" — every cell must be recessed."""
    message = assert_refused(_with("I3", "TL"), "place I3 on TL at A1 A2 A3", PlacementError,
                             "A3", "outside the recess of TL")
    assert "A1" not in message


def test_placement_over_another_piece_is_refused() -> None:
    """Seed 000 "sem se sobrepor a outras peças": pieces may not overlap."""
    state = _with("2", ("TO", [("1", "A1")]))
    assert_refused(state, "place 2 on TO at A1 A2", PlacementError, "A1 on TO already has a piece")
    assert play(state, "place 2 on TO at B1 B2").players[0].puzzle("TO").filled == parse_cells(
        "A1 B1 B2")  # type: ignore[union-attr]


def test_piece_not_in_supply_is_refused() -> None:
    """Seed 000: "Escolha uma das suas peças" — only a piece from your own supply can be placed."""
    assert_refused(_with("1", "TO"), "place 2 on TO at A1 B1", PieceNotInSupplyError, "no domino")


def test_placing_on_a_puzzle_you_do_not_have_is_refused() -> None:
    """Seed 000: pieces go on *your* unfinished puzzles (not on a row's, nor another player's)."""
    state = with_player(_with("2", "TO"), 1, puzzles=["TD"])
    assert_refused(state, "place 2 on TD at A1 B1", PuzzleNotFoundError, "no unfinished puzzle TD",
                   "TO")


def test_cells_that_do_not_form_the_piece_are_refused() -> None:
    """Notation: the cells name the piece's footprint; a value whose cells are not that shape
    (a bent domino, a gap) is refused before anything changes."""
    state = _with("2 L3", "TO")
    assert_refused(state, Place("TO", Shape.DOMINO, parse_cells("A1 B2")), PlacementError,
                   "do not form a domino")
    assert_refused(state, Place("TO", Shape.L3, parse_cells("A1 B1 A2 B2")), PlacementError,
                   "bent tromino")


def test_a_placed_piece_stays_until_the_puzzle_is_complete() -> None:
    """Seed 000 "uma vez que a peça está lá, ela fica": no action takes a placed piece back; it is
    still there turns later, and no legal action removes it."""
    state = _with("2 1", "TO")
    state = play(state, "place 2 on TO at A1 B1", "level1", "level1")
    state = play(state, "level1", "level1", "level1")  # the other player's turn
    assert state.current == 0
    assert state.players[0].puzzle("TO").filled == parse_cells("A1 B1")  # type: ignore[union-attr]
    assert count(state.players[0].supply, "2") == 0


def test_legal_placements_cover_exactly_the_free_recess() -> None:
    """legal_actions lists every placement of every held shape inside the free part of each recess,
    and nothing else."""
    state = _with("1 2 L3", ("TO", [("1", "A1")]), "TD")
    places = {(a.card, a.shape.value, a.mask) for a in legal_actions(state) if isinstance(a, Place)}
    free_to = parse_cells("B1 A2 B2")
    expected = {("TO", s.value, m) for s in (Shape.MONO, Shape.DOMINO, Shape.L3)
                for m in PLACEMENTS[s] if m & ~free_to == 0}
    expected |= {("TD", s.value, m) for s in (Shape.MONO, Shape.DOMINO)
                 for m in PLACEMENTS[s] if m & ~parse_cells("A1 B1") == 0}
    assert places == expected
    assert ("TO", "L3", parse_cells("B1 A2 B2")) in places
