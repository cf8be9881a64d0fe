"""Rule cases: setting up a base game (2–4 players).

Sources: seeds 000 "Preparação", 001 "Setup", 003 (Collector's Edition) and RULINGS.md "Setup",
"Components". Each test names the rule it checks.
"""

from __future__ import annotations

import pytest
from positions import count, game

from engine import (
    IllegalActionError,
    Options,
    Phase,
    apply,
    initial_state,
    new_game,
    parse_action,
    serialisation,
)
from engine.cards import Colour, PuzzleCard
from engine.catalogue import MODES, load_catalogue
from engine.pieces import BASE_SHAPES, SHAPES
from engine.state import RowsTable


def _table(state) -> RowsTable:
    assert isinstance(state.table, RowsTable)
    return state.table


@pytest.mark.parametrize(("players", "black"), [(2, 12), (3, 14), (4, 16)])
def test_black_deck_size_depends_on_player_count(players: int, black: int) -> None:
    """Seed 000 step 2 / seed 003: 12 black puzzles for 2 players, 14 for 3, 16 for 4."""
    state = game(players, seed=3)
    table = _table(state)
    cards = [c for c in (*table.black_row, *table.black_deck) if c is not None]
    assert len(cards) == black
    assert len(set(cards)) == black
    assert all(state.card(c).colour is Colour.BLACK for c in cards)


def test_all_white_puzzles_form_the_white_deck() -> None:
    """Seed 000 step 1 / seed 003: every white puzzle (32) is shuffled into the white deck.
    Without the Ghost Piece expansion its cards stay out of the game."""
    state = game(2, seed=3)
    table = _table(state)
    white = [c for c in (*table.white_row, *table.white_deck) if c is not None]
    base_white = [c for c in load_catalogue(None).white if c.expansion is None]
    assert len(white) == 32 == len(base_white)
    assert all(state.card(c).colour is Colour.WHITE and state.card(c).expansion is None for c in white)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_rows_of_four_face_up_puzzles(players: int) -> None:
    """Seed 000 step 3 / RULINGS "Setup": four puzzles of each deck face up, in two rows."""
    table = _table(game(players, seed=5))
    assert len(table.white_row) == 4 and None not in table.white_row
    assert len(table.black_row) == 4 and None not in table.black_row
    assert not set(table.white_row) & set(table.white_deck)
    assert not set(table.black_row) & set(table.black_deck)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_starts_with_one_level1_and_one_level2_piece(players: int) -> None:
    """Seed 000 step 5 / RULINGS "Setup": each player receives one level-1 and one level-2 piece
    from the reserve — so the reserve is that much smaller."""
    state = game(players, seed=2)
    for player in state.players:
        assert count(player.supply, "1") == 1
        assert count(player.supply, "2") == 1
        assert player.supply_size == 2
        assert player.puzzles == () and player.completed == ()
    assert count(state.reserve, "1") == 10 - players
    assert count(state.reserve, "2") == 10 - players


@pytest.mark.parametrize("size", [10, 15])
def test_reserve_holds_10_or_15_of_each_shape(size: int) -> None:
    """RULINGS "Components": option `reserve`, 10 per shape (default, the seeds' 90 pieces) or 15
    (newer printing). Level-5 ghost pieces are not stocked in the base game."""
    state = game(2, seed=1, reserve=size)
    totals = [state.reserve[s.index] + sum(p.supply[s.index] for p in state.players) for s in SHAPES]
    assert totals == [size if s in BASE_SHAPES else 0 for s in SHAPES]


def test_default_reserve_is_90_pieces() -> None:
    """Seed 000 step 4: a reserve of all 90 pieces of the 9 shapes (RULINGS default)."""
    state = game(2, seed=1)
    assert Options().reserve == 10
    assert sum(state.reserve) + sum(p.supply_size for p in state.players) == 90


def test_other_reserve_sizes_are_refused() -> None:
    """RULINGS "Components": the reserve option is 10 or 15, nothing else."""
    with pytest.raises(IllegalActionError, match="10 or 15"):
        game(2, seed=1, reserve=12)


@pytest.mark.parametrize("players", [1, 5])
def test_base_game_is_for_two_to_four_players(players: int) -> None:
    """Seeds 000/003: the base game is for 2–4 players (5–6 need the Line Clear variant, 1 is Solo)."""
    with pytest.raises(IllegalActionError, match="2–4 players"):
        new_game(Options(players=players, variant="base"), seed=1)


def test_first_player_is_random_but_fixed_by_the_seed() -> None:
    """Seed 000 step 6 / RULINGS "Setup": the first player is random — drawn from the game's seed,
    so the same seed always gives the same first player, and every seat can start."""
    firsts = {game(3, seed=seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2}
    for seed in range(10):
        a, b = game(3, seed=seed), game(3, seed=seed)
        assert a.first_player == b.first_player == a.current


def test_setup_is_deterministic_for_a_seed() -> None:
    """Determinism: the whole setup (deck order, rows, first player) follows from the seed alone."""
    assert serialisation.dumps(game(4, seed=99)) == serialisation.dumps(game(4, seed=99))
    assert serialisation.dumps(game(4, seed=99)) != serialisation.dumps(game(4, seed=100))


def test_game_starts_in_round_one_with_three_actions(two_players) -> None:
    """RULINGS "A turn": the first player begins round 1 with 3 actions; the end is not triggered."""
    state = two_players
    assert state.phase is Phase.PLAY
    assert (state.round, state.turn, state.actions_left) == (1, 1, 3)
    assert not state.master_used and not state.end_triggered


def _catalogue(white: int, black: int) -> list[PuzzleCard]:
    cards = load_catalogue(None).cards
    return [c for c in cards if c.colour is Colour.WHITE][:white] + [
        c for c in cards if c.colour is Colour.BLACK
    ][:black]


@pytest.mark.parametrize("mode", ["2p", "3p", "4p", "solo"])
def test_catalogue_mode_minimums(mode: str) -> None:
    """Ruling (docs/rules.md "Catalogue minimums"): a game is dealt only from a catalogue with at
    least the mode's white and black cards (engine.catalogue.MODES: 2p 12+12, 3p 16+14, 4p 20+16,
    solo 15+10); one card fewer of either colour is refused with a message naming the counts."""
    need_white, need_black = MODES[mode]
    options = Options(players=1, variant="solo") if mode == "solo" else Options(players=int(mode[0]))
    assert new_game(options, seed=1, cards=_catalogue(need_white, need_black)).phase is Phase.PLAY
    for white, black in ((need_white - 1, need_black), (need_white, need_black - 1)):
        with pytest.raises(IllegalActionError) as caught:
            new_game(options, seed=1, cards=_catalogue(white, black))
        assert str(white) in str(caught.value) and str(black) in str(caught.value)


def test_the_game_keeps_its_whole_catalogue_and_can_rebuild_its_start() -> None:
    """State: the game keeps every card of the catalogue it was dealt from, in catalogue order, so
    a changed catalogue cannot change an old game and its initial state can be rebuilt for replay
    (with 2 players, 8 of the 20 black cards stay in the box but are still stored)."""
    state = game(2, seed=8)
    table = _table(state)
    in_play = {c for c in (*table.white_row, *table.white_deck, *table.black_row, *table.black_deck)}
    assert len(in_play) == 32 + 12
    assert list(state.cards) == [c.id for c in load_catalogue(None).cards]
    later = apply(apply(state, parse_action("level1")).state, parse_action("take white 1")).state
    assert initial_state(later) == state


def test_nine_shapes_in_four_levels() -> None:
    """RULINGS "Components": level 1 monomino; level 2 domino; level 3 straight and bent tromino;
    level 4 the five tetrominoes I, O, T, L, S (S/Z one shape). A piece's level is its size."""
    levels = {s.value: s.level for s in BASE_SHAPES}
    assert levels == {"1": 1, "2": 2, "I3": 3, "L3": 3, "I4": 4, "O4": 4, "T4": 4, "L4": 4, "S4": 4}
    assert all(s.size == s.level for s in BASE_SHAPES)
