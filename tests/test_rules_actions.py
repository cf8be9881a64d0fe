"""Rule cases: the turn (3 actions, any mix), taking puzzles, taking level-1 pieces, Recycle, Pass,
and how every refusal behaves.

Sources: seed 000 "O Turno de Jogo", seed 001 "Gameplay", seed 003, RULINGS.md "A turn: exactly 3
actions, any mix, repeats allowed".
"""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    at_turn_start,
    count,
    empty_reserve,
    game,
    play,
    play_events,
    stuck,
    with_player,
    with_reserve,
    with_rows,
    without_shapes,
)

from engine import (
    Choose,
    DrawPuzzle,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Pass,
    Phase,
    Recycle,
    Shape,
    TakeLevelOne,
    TakePuzzle,
    apply,
    legal_actions,
    master_options,
)
from engine.cards import Colour
from engine.errors import (
    ActionSyntaxError,
    EmptySlotError,
    PieceNotInSupplyError,
    PlacementError,
    PuzzleLimitError,
    PuzzleNotFoundError,
    ReserveEmptyError,
    UpgradeNotAllowedError,
    WrongPhaseError,
)
from engine.events import CardRevealed, PieceGained, PuzzleTaken, RowRecycled, TurnStarted
from engine.state import RowsTable

WHITE, BLACK = Colour.WHITE, Colour.BLACK


def _table(state) -> RowsTable:
    assert isinstance(state.table, RowsTable)
    return state.table


# -- the turn ------------------------------------------------------------------------------------


def test_a_turn_is_exactly_three_actions() -> None:
    """Seed 000 / RULINGS "A turn": each turn has three actions; after the third the next player
    (clockwise, the next seat) begins with three fresh actions."""
    state = at_turn_start(game(3, seed=1), 0).evolve(first_player=0)
    state = play(state, "level1")
    assert (state.current, state.actions_left) == (0, 2)
    state = play(state, "level1")
    assert (state.current, state.actions_left) == (0, 1)
    state, events = play_events(state, "level1")
    assert (state.current, state.actions_left, state.turn) == (1, 3, 2)
    assert TurnStarted(1, 1) in events


def test_the_same_action_may_be_repeated() -> None:
    """Seed 000 "você pode repetir as ações" / seed 001: any action may be used several times a turn
    (three level-1 pieces, two puzzles and an upgrade …)."""
    state = at_turn_start(game(2, seed=1), 0)
    after = play(state, "level1", "level1", "level1")
    assert count(after.players[0].supply, "1") == 4
    after = play(state, "take white 1", "take white 1", "take black 2")
    assert len(after.players[0].puzzles) == 3


def test_turns_go_round_the_table_in_seat_order() -> None:
    """Seed 000: play goes clockwise from the first player; after the last seat a new round starts
    with the first player again (here the first player is seat 2 of 3)."""
    state = at_turn_start(game(3, seed=1), 2).evolve(first_player=2)
    seen = []
    for _ in range(4):
        seen.append((state.current, state.round))
        state = play(state, "level1", "level1", "level1")
    assert seen == [(2, 1), (0, 1), (1, 1), (2, 2)]


def test_only_the_current_player_may_act() -> None:
    """apply(..., player=): acting out of turn raises NotYourTurnError and changes nothing."""
    state = at_turn_start(game(2, seed=1), 0)
    assert_refused(state, "level1", NotYourTurnError, "not your turn", player=1)
    assert apply(state, TakeLevelOne(), player=0).state.actions_left == 2


# -- taking puzzles ------------------------------------------------------------------------------


@pytest.mark.parametrize("colour", [WHITE, BLACK])
def test_taking_a_puzzle_refills_its_slot_from_the_deck(colour: Colour) -> None:
    """Seed 000 "Pegar um Quebra-Cabeça": take a puzzle from a row and immediately replace it with a
    new one from the matching deck (the top card, in the same slot)."""
    state = at_turn_start(game(2, seed=1), 0)
    table = _table(state)
    taken, top = table.row(colour)[2], table.deck(colour)[0]
    after, events = play_events(state, TakePuzzle(colour, 3))
    assert [p.card for p in after.players[0].puzzles] == [taken]
    new = _table(after)
    assert new.row(colour)[2] == top
    assert new.deck(colour) == table.deck(colour)[1:]
    assert PuzzleTaken(0, taken, "row", colour, 3) in events
    assert CardRevealed(top, colour, 3) in events


@pytest.mark.parametrize("colour", [WHITE, BLACK])
def test_blind_draw_takes_the_top_of_a_deck(colour: Colour) -> None:
    """RULINGS "Take a puzzle": a player may take the top card of either deck blind; the row does
    not change."""
    state = at_turn_start(game(2, seed=1), 0)
    table = _table(state)
    after, events = play_events(state, DrawPuzzle(colour))
    assert [p.card for p in after.players[0].puzzles] == [table.deck(colour)[0]]
    assert _table(after).row(colour) == table.row(colour)
    assert _table(after).deck(colour) == table.deck(colour)[1:]
    assert any(isinstance(e, PuzzleTaken) and e.source == "deck" for e in events)


def test_at_most_four_unfinished_puzzles() -> None:
    """Seed 000: "você pode ter no máximo 4 quebra-cabeças incompletos". A fifth puzzle can be taken
    neither from a row nor blind, and legal_actions offers neither."""
    state = with_player(at_turn_start(game(2, seed=1), 0), 0, puzzles=["TD", "TL", "TI", "TO"])
    for action in ("take white 1", "take black 1", "draw white", "draw black"):
        assert_refused(state, action, PuzzleLimitError, "4 unfinished")
    assert not [a for a in legal_actions(state) if isinstance(a, (TakePuzzle, DrawPuzzle))]


def test_completed_puzzles_do_not_count_towards_the_limit() -> None:
    """Seed 000: the limit is on *unfinished* puzzles; completed cards in the score pile do not count."""
    state = with_player(at_turn_start(game(2, seed=1), 0), 0, puzzles=["TD", "TL", "TI"],
                        completed=["TO", "TS"])
    after = play(state, "take white 1")
    assert len(after.players[0].puzzles) == 4


def test_taking_from_an_empty_slot_is_refused() -> None:
    """Seed 000: a puzzle is taken from a row; once a deck is empty its row is not refilled, and an
    empty slot cannot be taken."""
    state = with_rows(at_turn_start(game(2, seed=1), 0), white_deck=[], white_row=["TD", None, "TL", None])
    assert_refused(state, "take white 2", EmptySlotError, "no puzzle at position 2")
    assert_refused(state, "draw white", EmptySlotError, "white deck is empty")
    after = play(state, "take white 1")
    assert _table(after).white_row == (None, None, "TL", None)


def test_base_game_take_needs_a_row() -> None:
    """Actions: in the base game a puzzle is taken from the white or black row ('take white 2');
    the Solo form 'take 5' is refused with a hint."""
    state = at_turn_start(game(2, seed=1), 0)
    assert_refused(state, "take 5", IllegalActionError, "take white 2")
    assert_refused(state, DrawPuzzle(None), IllegalActionError, "which row")


# -- level-1 pieces -------------------------------------------------------------------------------


def test_take_a_level1_piece() -> None:
    """Seed 000 "Pegar uma Peça de Nível 1": take a level-1 piece from the reserve into your supply."""
    state = at_turn_start(game(2, seed=1), 0)
    after, events = play_events(state, "level1")
    assert count(after.players[0].supply, "1") == 2
    assert count(after.reserve, "1") == count(state.reserve, "1") - 1
    assert PieceGained(0, Shape.MONO, "level1") in events


def test_level1_with_no_monominoes_left_takes_the_next_available_level() -> None:
    """RULINGS "Empty reserve": if the piece you should receive is gone and its level is empty, take
    one from a higher level; when that level has two shapes in stock, the player chooses."""
    state = without_shapes(at_turn_start(game(2, seed=1), 0), "1")
    after, events = play_events(state, "level1")
    assert count(after.players[0].supply, "2") == 2
    gained = [e for e in events if isinstance(e, PieceGained)]
    assert gained[0].wanted is not None and gained[0].wanted.value == "1"
    assert "instead of a monomino" in gained[0].describe(["Ann", "Bob"])
    # with levels 1 and 2 gone, the next available level is 3: I3 or L3, the player's choice
    state = with_reserve(state, {"I3": 2, "L3": 5, "I4": 9})
    waiting = play(state, "level1")
    assert legal_actions(waiting) == [Choose("I3"), Choose("L3")]
    after = play(waiting, "choose l3")
    assert count(after.players[0].supply, "L3") == 1 and after.actions_left == 2


def test_level1_with_an_empty_reserve_is_refused() -> None:
    """RULINGS "Empty reserve": with no piece at all left in the reserve there is nothing to take."""
    state = with_reserve(at_turn_start(game(2, seed=1), 0), empty_reserve())
    assert_refused(state, "level1", ReserveEmptyError, "reserve is empty")
    assert TakeLevelOne() not in legal_actions(state)


# -- recycle ---------------------------------------------------------------------------------------


def test_recycle_puts_the_row_under_its_deck_in_the_chosen_order() -> None:
    """RULINGS "Recycle": put a whole row at the bottom of its deck, in an order the player chooses,
    and reveal 4 new. Engine ruling: the first slot listed goes under first, so of the recycled cards
    it is drawn first."""
    state = at_turn_start(game(2, seed=1), 0)
    table = _table(state)
    row, deck = table.white_row, table.white_deck
    after, events = play_events(state, Recycle(WHITE, (3, 1, 4, 2)))
    new = _table(after)
    assert new.white_row == deck[:4]
    assert new.white_deck == deck[4:] + (row[2], row[0], row[3], row[1])
    assert new.black_row == table.black_row and new.black_deck == table.black_deck
    assert after.actions_left == 2 and after.players == state.players
    assert RowRecycled(WHITE, (row[2], row[0], row[3], row[1])) in events
    assert sum(isinstance(e, CardRevealed) for e in events) == 4


def test_recycle_with_a_short_deck_brings_recycled_cards_back_first_listed_first() -> None:
    """Recycle ruling: the new row is drawn from the deck after the old row went under it, so with
    only two cards left the row is those two plus the first two cards listed."""
    state = with_rows(at_turn_start(game(2, seed=1), 0), white_row=["TD", "TL", "TI", "TO"],
                      white_deck=["TS", "TM"])
    after = play(state, "recycle white 4 2 3 1")
    assert _table(after).white_row == ("TS", "TM", "TO", "TL")
    assert _table(after).white_deck == ("TI", "TD")


def test_recycle_must_name_every_card_of_the_row_once() -> None:
    """Recycle: the order names each occupied slot exactly once."""
    state = at_turn_start(game(2, seed=1), 0)
    for order in ((1, 2, 3), (1, 1, 2, 3), (1, 2, 3, 4, 4)):
        assert_refused(state, Recycle(WHITE, order), IllegalActionError, "positions 1 2 3 4")
    state = with_rows(state, white_row=["TD", None, "TL", None])
    assert_refused(state, "recycle white 1 2 3 4", IllegalActionError, "positions 1 3")
    assert play(state, "recycle white 3 1").actions_left == 2


def test_recycle_is_not_allowed_when_its_deck_is_empty() -> None:
    """Engine ruling: with an empty deck, recycling would only bring back the same cards, so it is
    refused (and not offered by legal_actions)."""
    state = with_rows(at_turn_start(game(2, seed=1), 0), black_deck=[])
    assert_refused(state, "recycle black 1 2 3 4", EmptySlotError, "black deck is empty")
    assert not [a for a in legal_actions(state) if isinstance(a, Recycle) and a.colour is BLACK]
    assert [a for a in legal_actions(state) if isinstance(a, Recycle) and a.colour is WHITE]


def test_legal_recycles_are_every_order_of_the_row() -> None:
    """Recycle: the player chooses the order, so all 4! = 24 orders of a full row are legal."""
    state = at_turn_start(game(2, seed=1), 0)
    orders = {a.order for a in legal_actions(state) if isinstance(a, Recycle) and a.colour is WHITE}
    assert len(orders) == 24


# -- pass ------------------------------------------------------------------------------------------


def test_pass_only_when_nothing_else_is_legal() -> None:
    """Engine ruling (RULINGS are silent): 'pass' spends an action doing nothing and is allowed only
    when no other action is legal, so a turn can never get stuck and nobody wastes actions."""
    state = at_turn_start(game(2, seed=1), 0)
    assert Pass() not in legal_actions(state)
    assert_refused(state, "pass", IllegalActionError, "only pass when no other action")
    blocked = stuck(state)
    assert legal_actions(blocked) == [Pass()] and master_options(blocked) is None
    after = play(blocked, "pass", "pass", "pass")
    assert after.current == 1


def test_done_is_not_an_action_during_play() -> None:
    """'done' ends Finishing Touches; during the game it is refused with an explanation."""
    state = at_turn_start(game(2, seed=1), 0)
    assert_refused(state, "done", WrongPhaseError, "finishing touches")


def test_nothing_can_be_done_once_the_game_is_over() -> None:
    """When the game is over every action is refused with GameOverError."""
    state = game(2, seed=1).evolve(phase=Phase.OVER)
    assert_refused(state, "level1", GameOverError, "game is over")
    assert legal_actions(state) == []


def test_actions_that_reveal_a_card_cannot_be_taken_back() -> None:
    """events.py / game.Outcome: an action that showed a card nobody had seen (a refill, a blind
    draw, a recycle) is marked reveals_hidden, so a bot never offers to undo it; others are not."""
    state = at_turn_start(game(2, seed=1), 0)
    assert apply(state, TakePuzzle(WHITE, 1)).reveals_hidden
    assert apply(state, DrawPuzzle(BLACK)).reveals_hidden
    assert apply(state, Recycle(WHITE, (1, 2, 3, 4))).reveals_hidden
    assert not apply(state, TakeLevelOne()).reveals_hidden
    emptied = with_rows(state, white_deck=[])
    assert not apply(emptied, TakePuzzle(WHITE, 1)).reveals_hidden


# -- refusals ------------------------------------------------------------------------------------


REFUSALS = [
    ("take white 1", "full", PuzzleLimitError, "4 unfinished"),
    ("upgrade L4 to O4", "start", PieceNotInSupplyError, "L4"),
    ("upgrade 1 to I3", "start", UpgradeNotAllowedError, "level 2"),
    ("place 2 on TD at A1 B1", "start", PuzzleNotFoundError, "TD"),
    ("place 2 on TI at A1 A2", "full", PlacementError, "outside"),
    ("place L3 on TL at A1 A2 B2", "full", PieceNotInSupplyError, "L3"),
    ("recycle white 1 2", "start", IllegalActionError, "every card"),
    ("done", "start", WrongPhaseError, "finishing"),
    ("pass", "start", IllegalActionError, "pass"),
]


@pytest.mark.parametrize(("text", "where", "error", "fragment"), REFUSALS)
def test_illegal_actions_raise_a_specific_error_and_change_nothing(text, where, error, fragment) -> None:
    """errors.py: every refusal is an IllegalActionError subclass whose message a player can read,
    and the state is left exactly as it was (compared by value and by its JSON text)."""
    state = at_turn_start(game(2, seed=1), 0)
    if where == "full":
        state = with_player(state, 0, puzzles=["TD", "TL", "TI", "TO"])
    assert_refused(state, text, error, fragment)
    assert issubclass(error, IllegalActionError) and not issubclass(error, ActionSyntaxError)
