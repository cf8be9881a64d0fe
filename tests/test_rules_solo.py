"""Rule cases: the Solo variant against the mastermind.

Sources: seed 004 "In the Solo Variant…" (Setup, Your turn, Your opponent's turn, Game end, Final
scoring), the rulebook v2.5 and RULINGS.md "Solo variant (vs the mastermind)". Grid positions are
numbered row by row, as the rulebook's picture shows: 1 2 3 the top row, 4 5 6, 7 8 9.
"""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    card,
    count,
    game,
    play,
    play_events,
    solo,
    with_cards,
    with_player,
    with_solo_table,
)

from engine import (
    Difficulty,
    GameState,
    Phase,
    Recycle,
    RemovePlayer,
    legal_actions,
    opponent_score,
    score_lines,
    serialisation,
    winners,
)
from engine.cards import Colour
from engine.errors import ActionNotAvailableError, EmptySlotError, IllegalActionError, PuzzleLimitError
from engine.events import (
    DeckEmptied,
    EndTriggered,
    LocksMoved,
    LocksReleased,
    LockTaken,
    MastermindTook,
)
from engine.state import SoloTable


def _table(state) -> SoloTable:
    assert isinstance(state.table, SoloTable)
    return state.table


# -- setup ---------------------------------------------------------------------------------------


def test_solo_deck_is_15_white_on_top_of_10_black() -> None:
    """Seed 004 Setup: 15 random white and 10 random black puzzles, black face down with the white on
    top, forming one deck; 9 are revealed into a 3×3 grid."""
    state = solo(seed=4)
    table = _table(state)
    everything = [*table.grid, *table.deck]
    colours = [state.card(c).colour for c in everything if c is not None]
    assert colours == [Colour.WHITE] * 15 + [Colour.BLACK] * 10
    assert len(table.grid) == 9 and None not in table.grid
    assert set(everything) < set(state.cards)  # the rest of the catalogue stays in the box


def test_solo_puzzles_are_chosen_at_random_by_the_seed() -> None:
    """Seed 004: *random* white and black puzzles — different seeds deal different sets; the same seed
    the same game."""
    assert serialisation.dumps(solo(seed=1)) == serialisation.dumps(solo(seed=1))
    def dealt(state: GameState) -> set[str | None]:
        return {*_table(state).grid, *_table(state).deck}

    assert dealt(solo(seed=1)) != dealt(solo(seed=2))


def test_solo_locks_and_starting_pieces(solo_game) -> None:
    """Seed 004 Setup: four level-1 lock pieces, one above columns 1 and 3 and two above column 2;
    you start with a level-1 and a level-2 piece and play first. RULINGS: locks are counters and do
    not come out of the player's reserve."""
    state = solo_game
    assert _table(state).locks == (1, 2, 1)
    assert state.players[0].supply == game(2, seed=1).players[0].supply
    assert count(state.reserve, "1") == 9 and count(state.reserve, "2") == 9
    assert sum(state.reserve) == 90 - 2
    assert (state.current, state.first_player, state.round) == (0, 0, 1)


@pytest.mark.parametrize(("difficulty", "pieces"), [(Difficulty.NORMAL, 6), (Difficulty.HARD, 3),
                                                    (Difficulty.UNBEATABLE, 0)])
def test_mastermind_starting_pieces_by_difficulty(difficulty: Difficulty, pieces: int) -> None:
    """Seed 004 Setup: Normal 6, Hard 3, Unbeatable 0 level-1 pieces in the opponent's supply."""
    assert _table(solo(seed=1, difficulty=difficulty)).mastermind_supply == pieces


def test_solo_is_for_one_player() -> None:
    """Solo is one player against the mastermind."""
    with pytest.raises(IllegalActionError, match="1–1 players"):
        game(2, seed=1, variant="solo")


# -- your turn -----------------------------------------------------------------------------------


def test_taking_from_a_grid_column_moves_one_lock_to_the_mastermind() -> None:
    """Seed 004 "Your turn": each time you take a puzzle from a grid column, move one piece from above
    that column into the opponent's supply; the slot is refilled from the deck. Position 5 is the
    middle of column 2."""
    state = solo(seed=1)
    table = _table(state)
    after, events = play_events(state, "take 5")
    new = _table(after)
    assert after.players[0].puzzles[0].card == table.grid[4]
    assert new.locks == (1, 1, 1) and new.mastermind_supply == 7
    assert LockTaken(2) in events
    assert new.grid[4] == table.deck[0] and new.deck == table.deck[1:]


def test_taking_from_an_unlocked_column_moves_nothing() -> None:
    """Seed 004: "Skip this step if there are no pieces above the column"."""
    state = with_solo_table(solo(seed=1), locks=(1, 2, 0))
    after = play(state, "take 9")
    assert _table(after).locks == (1, 2, 0) and _table(after).mastermind_supply == 6


@pytest.mark.parametrize(("position", "column"), [(1, 1), (2, 2), (3, 3), (4, 1), (6, 3), (7, 1),
                                                  (8, 2), (9, 3)])
def test_grid_positions_are_numbered_row_by_row(position: int, column: int) -> None:
    """RULINGS / rulebook picture: 1 2 3 is the top row, 4 5 6 the middle, 7 8 9 the bottom, so
    positions 1, 4, 7 are the first column."""
    state = with_solo_table(solo(seed=1), locks=(1, 1, 1))
    _, events = play_events(state, f"take {position}")
    assert LockTaken(column) in events


def test_blind_draw_moves_no_lock() -> None:
    """Seed 004: "You may still take puzzles from the draw decks … the pieces above the puzzle grid do
    not move"."""
    state = solo(seed=1)
    after = play(state, "draw")
    assert after.players[0].puzzles[0].card == _table(state).deck[0]
    assert _table(after).locks == (1, 2, 1) and _table(after).mastermind_supply == 6
    assert _table(after).grid == _table(state).grid


def test_no_recycle_in_solo() -> None:
    """Seed 004: "You cannot use the Recycle action"."""
    state = solo(seed=1)
    assert_refused(state, Recycle(Colour.WHITE, (1, 2, 3, 4)), ActionNotAvailableError, "Recycle")
    assert not [a for a in legal_actions(state) if isinstance(a, Recycle)]


def test_solo_take_and_draw_name_no_row() -> None:
    """Notation: in Solo a puzzle is taken by grid position ('take 5') and drawn with 'draw'."""
    state = solo(seed=1)
    assert_refused(state, "take white 1", IllegalActionError, "take 5")
    assert_refused(state, "draw white", IllegalActionError, "'draw'")
    assert_refused(with_solo_table(state, grid=[None] * 9), "take 5", EmptySlotError, "position 5")


def test_solo_four_puzzle_limit() -> None:
    """The base rules' limit of 4 unfinished puzzles holds in Solo too."""
    state = with_player(solo(seed=1), 0, puzzles=["TD", "TL", "TI", "TO"])
    assert_refused(state, "take 1", PuzzleLimitError, "4 unfinished")
    assert_refused(state, "draw", PuzzleLimitError, "4 unfinished")


# -- the mastermind's turn ----------------------------------------------------------------------------


# The test grid, row by row:      column 1   column 2   column 3
#                                 G1 1 pt    G2 3 pt    G3 0 pt
#                                 G4 3 pt    G5 2 pt    G6 1 pt
#                                 G7 0 pt    G8 2 pt    G9 5 pt
POINTS = {"G1": 1, "G2": 3, "G3": 0, "G4": 3, "G5": 2, "G6": 1, "G7": 0, "G8": 2, "G9": 5}
GRID_CARDS = [card(cid, "A1 B1", points=p, reward="2") for cid, p in POINTS.items()]
DECK_CARDS = [card(f"D{i}", "A1", points=0, reward="2") for i in range(1, 5)]


def _grid(locks, supply: int = 0, deck: int = 4, grid=None):
    """A Solo position with the test grid G1..G9 (G1 at position 1 …), ``deck`` cards D1.. left."""
    state = with_cards(solo(seed=1), GRID_CARDS + DECK_CARDS)
    return with_solo_table(state, grid=grid or list(POINTS), locks=tuple(locks),
                           deck=[c.id for c in DECK_CARDS][:deck], mastermind_supply=supply)


def _mastermind_turn(state):
    """End the player's turn (skipping it) so that the mastermind plays."""
    return play_events(state, "skip")


def test_mastermind_takes_the_most_valuable_puzzle_from_an_unlocked_column() -> None:
    """Seed 004: the opponent cannot take from a locked column; of the rest it takes the puzzle worth
    the most, straight into its score pile, and the slot is refilled from the deck."""
    state = _grid(locks=(0, 1, 1))             # only column 1 (G1 1pt, G4 3pt, G7 0pt) is open
    after, events = _mastermind_turn(state)
    assert MastermindTook("G4", 4, 3) in events
    assert _table(after).mastermind_pile == ("G4",)
    assert _table(after).grid[3] == "D1" and _table(after).deck == ("D2", "D3", "D4")
    assert opponent_score(after) == 3


def test_mastermind_ties_go_to_the_lowest_position_numbered_row_by_row() -> None:
    """Seed 004 "In case of a tie, they take the puzzle in the lowest numbered position"; RULINGS
    and the rulebook's picture: numbered row by row — G2 (top row, column 2: position 2) beats G4
    (middle row, column 1: position 4), both worth 3. Numbered down the columns it would have
    been the other way round."""
    after, events = _mastermind_turn(_grid(locks=(0, 0, 1)))
    assert MastermindTook("G2", 2, 3) in events


def test_mastermind_ignores_locked_columns_even_for_the_best_card() -> None:
    """Seed 004: a locked column (at least one piece above it) is off limits — G9 (5 pt) stays."""
    after, events = _mastermind_turn(_grid(locks=(0, 0, 1)))
    assert "G9" not in _table(after).mastermind_pile
    after, events = _mastermind_turn(_grid(locks=(1, 1, 0)))
    assert MastermindTook("G9", 9, 5) in events


def test_all_columns_locked_the_mastermind_removes_one_lock_each_and_takes_nothing() -> None:
    """Rulebook v2.5 ("If they can take a puzzle…") and the publisher's rules app: if every column
    is locked, remove one piece from above each column — and that is the mastermind's whole turn:
    it takes nothing ("Then it's your turn again"). Locks are counters: the player's reserve does
    not change."""
    state = _grid(locks=(2, 1, 1), supply=2)
    after, events = _mastermind_turn(state)
    assert events.count(LocksReleased()) == 1
    assert not [e for e in events if isinstance(e, (MastermindTook, LocksMoved))]
    assert _table(after).locks == (1, 0, 0) and _table(after).mastermind_supply == 2
    assert _table(after).grid == _table(state).grid and _table(after).mastermind_pile == ()
    assert after.reserve == state.reserve
    assert (after.current, after.round, after.actions_left) == (0, state.round + 1, 3)


def test_all_columns_locked_releases_only_once_per_turn() -> None:
    """The old reading (release again until a column opens, then take) is gone: one piece leaves
    each column per mastermind turn, however many are still there."""
    after, events = _mastermind_turn(_grid(locks=(3, 2, 2)))
    assert events.count(LocksReleased()) == 1
    assert _table(after).locks == (2, 1, 1) and _table(after).mastermind_pile == ()


def test_only_columns_that_hold_a_puzzle_count_for_all_locked() -> None:
    """RULINGS: "If every column that still holds a card is locked" — an empty column (late in the
    game) does not count as unlocked: one lock leaves each column and nothing is taken."""
    grid = ["G1", "G2", None, "G4", "G5", None, "G7", "G8", None]
    after, events = _mastermind_turn(_grid(locks=(1, 1, 0), deck=0, grid=grid))
    assert LocksReleased() in events and not [e for e in events if isinstance(e, MastermindTook)]
    assert _table(after).locks == (0, 0, 0)


def test_after_taking_its_supply_and_one_lock_from_each_other_column_move_above_that_column() -> None:
    """Seed 004 "After your opponent takes a puzzle": move all pieces from the opponent's supply above
    that column, and one piece from above each other column (if it has one)."""
    state = _grid(locks=(0, 2, 0), supply=3)
    after, events = _mastermind_turn(state)
    assert MastermindTook("G9", 9, 5) in events
    assert _table(after).locks == (0, 1, 0 + 3 + 1)
    assert _table(after).mastermind_supply == 0
    assert LocksMoved(3, (0, 1, 4)) in events


def test_mastermind_with_an_empty_grid_takes_nothing() -> None:
    """Engine ruling: with no puzzle left in the grid the mastermind's turn does nothing."""
    state = _grid(locks=(1, 2, 1), supply=2, deck=0, grid=[None] * 9)
    after, events = _mastermind_turn(state)
    assert not [e for e in events if isinstance(e, (MastermindTook, LocksReleased, LocksMoved))]
    assert _table(after).locks == (1, 2, 1) and _table(after).mastermind_supply == 2


def test_mastermind_plays_after_every_player_turn() -> None:
    """Seed 004 "You take the first turn, followed by your opponent": after the player's three actions
    the mastermind takes one puzzle, then a new round starts with the player."""
    state = _grid(locks=(0, 1, 1))
    after, events = play_events(state, "level1", "level1", "level1")
    assert MastermindTook("G4", 4, 3) in events
    assert (after.current, after.round, after.actions_left) == (0, 2, 3)


# -- the end -------------------------------------------------------------------------------------


def test_solo_end_when_the_deck_empties_then_one_more_round() -> None:
    """Seed 004 "Game end": triggered when the puzzle deck becomes empty; finish the current round
    (the mastermind's turn) and play one more round, then Finishing Touches."""
    state = _grid(locks=(0, 1, 1), deck=2)
    state, events = play_events(state, "take 1")           # refill with D1: one card left
    assert not state.end_triggered
    state, events = play_events(state, "level1", "level1")  # mastermind takes, refills with D2
    assert DeckEmptied(None) in events and EndTriggered(1, 2) in events
    assert (state.round, state.last_round) == (2, 2)
    state, events = play_events(state, "level1", "level1", "level1")
    assert any(isinstance(e, MastermindTook) for e in events)   # the last round's mastermind turn
    assert state.phase is not Phase.PLAY


def test_solo_end_triggered_in_your_own_turn_the_mastermind_finishes_the_round_then_one_more() -> None:
    """Seed 004 "Game end": the deck emptied by your own take — the mastermind's turn still
    finishes that round, then one more full round (yours and the mastermind's) is played."""
    state, events = play_events(_grid(locks=(0, 1, 1), deck=1), "take 2")  # refill with the last card
    assert DeckEmptied(None) in events and EndTriggered(1, 2) in events
    state, events = play_events(state, "level1", "level1")
    assert any(isinstance(e, MastermindTook) for e in events) and state.round == 2
    assert state.phase is Phase.PLAY
    state, events = play_events(state, "level1", "level1", "level1")
    assert any(isinstance(e, MastermindTook) for e in events)  # the last round's mastermind turn
    assert state.phase is not Phase.PLAY


def test_solo_blind_draw_of_the_last_card_triggers_the_end() -> None:
    """Seed 004: the end is triggered when the deck becomes empty, also by a blind draw."""
    state, events = play_events(_grid(locks=(1, 1, 1), deck=1), "draw")
    assert EndTriggered(1, 2) in events


def test_no_black_limit_in_solo() -> None:
    """Seed 004: "there is no limit on how many Black puzzles you can take during the final rounds"."""
    black = [card(f"K{i}", "A1 B1", points=3, reward="1", colour=Colour.BLACK) for i in range(1, 4)]
    state = with_cards(solo(seed=1), black)
    state = with_solo_table(state, grid=["K1", "K2", "K3", None, None, None, None, None, None], deck=[],
                            locks=(0, 0, 0)).evolve(last_round=1)
    after = play(state, "take 1", "take 2")
    assert [p.card for p in after.players[0].puzzles] == ["K1", "K2"]


def test_tie_goes_to_the_mastermind() -> None:
    """Seed 004 "If you have beaten your opponent's score, you win! In case of a tie, your opponent
    wins." The mastermind is seat -1."""
    state = with_player(_grid(locks=(1, 1, 1)), 0, completed=["TB"]).evolve(phase=Phase.OVER)
    tied = with_solo_table(state, mastermind_pile=["G2"])
    assert winners(tied) == (-1,)
    beaten = with_solo_table(state, mastermind_pile=["G5"])
    assert winners(beaten) == (0,)


def test_solo_penalties_apply_to_the_player() -> None:
    """Seed 004 "Final scoring": deduct points from your score for unfinished puzzles or Finishing
    Touches as normal (the mastermind has neither)."""
    state = with_player(_grid(locks=(1, 1, 1)), 0, completed=["TB2"], puzzles=["TD"], finishing_pieces=1)
    state = with_solo_table(state, mastermind_pile=["G9"]).evolve(phase=Phase.OVER)
    assert score_lines(state)[0].total == 4 - 1 - 1
    assert opponent_score(state) == 5
    assert winners(state) == (-1,)


def test_no_table_removal_in_solo() -> None:
    """Table decisions: there is nobody else to play on in Solo, so removal is refused."""
    assert_refused(solo(seed=1), RemovePlayer(0), ActionNotAvailableError, "solo game")
