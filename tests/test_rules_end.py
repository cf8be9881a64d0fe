"""Rule cases: the end of the game — the trigger, the rounds that follow, the black-card limit.

Sources: seed 000 "Fim de Jogo e Pontuação", seed 001 "Game End", seed 003, RULINGS.md "End of the
game".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from positions import assert_refused, at_turn_start, end_turn, game, play, play_events, with_rows

from engine import DrawPuzzle, Phase, TakePuzzle, legal_actions
from engine.cards import Colour
from engine.errors import BlackLimitError
from engine.events import DeckEmptied, EndTriggered, FinishingStarted, TurnStarted
from engine.state import RowsTable

BLACK, WHITE = Colour.BLACK, Colour.WHITE


def _table(state) -> RowsTable:
    assert isinstance(state.table, RowsTable)
    return state.table


def _last_black(players: int = 2, first: int = 0, cards: int = 1):
    """Seat ``first`` starts round 1 and only ``cards`` black cards are left in the deck."""
    state = at_turn_start(game(players, seed=1), first).evolve(first_player=first)
    return with_rows(state, black_deck=_table(state).black_deck[:cards])


def _turns_until_finishing(state) -> list[tuple[int, int]]:
    """(seat, round) of every turn played with level-1 actions until the game leaves PLAY."""
    turns = []
    while state.phase is Phase.PLAY:
        turns.append((state.current, state.round))
        state = end_turn(state)
    return turns


def test_end_is_triggered_when_the_black_deck_empties() -> None:
    """Seed 000: "O fim da partida é acionado quando a pilha de quebra-cabeças pretos acaba (mesmo que
    ainda restem quatro … na linha)": refilling the row with the last black card triggers the end."""
    state = _last_black()
    after, events = play_events(state, "take black 2")
    assert after.end_triggered and after.last_round == 2
    assert DeckEmptied(BLACK) in events and EndTriggered(1, 2) in events
    assert None not in _table(after).black_row      # the row still has four cards


def test_blind_draw_of_the_last_black_card_triggers_the_end() -> None:
    """Seed 000 / RULINGS "End of the game": the trigger is the black deck being empty, however it
    empties — a blind draw of its last card included."""
    after, events = play_events(_last_black(), "draw black")
    assert after.end_triggered and EndTriggered(1, 2) in events


def test_white_deck_running_out_does_not_end_the_game() -> None:
    """Only the black deck triggers the end; an empty white deck just stops refilling its row."""
    state = with_rows(_last_black(cards=5), white_deck=_table(game(2, seed=1)).white_deck[:1])
    after, events = play_events(state, "take white 1")
    assert DeckEmptied(WHITE) in events and not after.end_triggered


def test_black_row_is_not_refilled_after_the_trigger() -> None:
    """RULINGS "End of the game": "From then on black puzzles are not replaced"."""
    state = play(_last_black(), "take black 1", "take white 1")
    state = end_turn(state)
    after = play(state, "take black 3")
    assert _table(after).black_row[2] is None


def test_finish_the_round_then_play_one_more() -> None:
    """Seed 000: "1. Termine a rodada atual para que todos os jogadores tenham tido o mesmo número de
    turnos. 2. Em seguida, joga-se uma rodada final completa." The first player triggers in round 1:
    the others finish round 1, everyone plays round 2, then Finishing Touches."""
    state = play(_last_black(players=3), "take black 1")
    assert state.last_round == 2
    state = end_turn(state)
    assert _turns_until_finishing(state) == [(1, 1), (2, 1), (0, 2), (1, 2), (2, 2)]


def test_trigger_on_the_last_players_turn_still_gives_a_full_extra_round() -> None:
    """Seed 000: the current round ends with the trigger's turn, then a complete final round."""
    state = end_turn(end_turn(_last_black(players=3)))      # seats 0 and 1 play round 1
    assert state.current == 2
    state, events = play_events(state, "draw black")
    assert EndTriggered(1, 2) in events
    state = end_turn(state)
    assert _turns_until_finishing(state) == [(0, 2), (1, 2), (2, 2)]


def test_rounds_count_from_the_first_player() -> None:
    """Seed 000: a round starts with the first player (who need not be seat 1): when seat 2 of 3
    triggers the end in a game started by seat 3, seat 1 still finishes that round."""
    state = _last_black(players=3, first=2)
    state = end_turn(state)                                   # seat 2 (first player)
    state = play(state, "take black 1")                       # seat 0 triggers in round 1
    state = end_turn(state)
    assert _turns_until_finishing(state) == [(1, 1), (2, 2), (0, 2), (1, 2)]


def test_everyone_plays_the_same_number_of_turns() -> None:
    """Seed 001: "Equal turns are granted"; after the last round the game moves to Finishing
    Touches (FinishingStarted), whoever triggered it."""
    for trigger_seat in range(4):
        state = _last_black(players=4, first=1)
        turns: list[int] = []
        events = []
        while state.phase is Phase.PLAY:
            turns.append(state.current)
            if state.current == trigger_seat and not state.end_triggered and state.round == 2:
                state, new = play_events(state, "take black 4")
                events += new
            before = state.turn
            while state.turn == before and state.phase is Phase.PLAY:
                action = legal_actions(state)[0] if state.pending else "level1"  # a substitute asked
                state, new = play_events(state, action)
                events += new
        assert {turns.count(seat) for seat in range(4)} == {3}
        assert any(isinstance(e, FinishingStarted) for e in events)
        assert not [e for e in events if isinstance(e, TurnStarted) and e.round > 3]


def test_one_black_puzzle_per_turn_after_the_trigger() -> None:
    """RULINGS "End of the game": "each player may take at most one black puzzle per turn" once the
    end is triggered; white puzzles are not limited. Next turn, one black again."""
    state = _last_black(cards=0).evolve(last_round=2)
    state = play(state, "take black 1")
    assert_refused(state, "take black 2", BlackLimitError, "only one black puzzle per turn")
    assert not [a for a in legal_actions(state) if getattr(a, "colour", None) is BLACK
                and isinstance(a, (TakePuzzle, DrawPuzzle))]
    state = play(state, "take white 1", "take white 1")
    assert state.current == 1
    assert len(play(state, "take black 2").players[1].puzzles) == 1


def test_the_triggering_black_puzzle_counts_as_the_turns_one() -> None:
    """Engine ruling (docs/rules.md): the black puzzle whose taking emptied the deck — by a take or a
    blind draw — is that turn's one black puzzle, so no other black can follow it that turn."""
    for trigger in ("take black 1", "draw black"):
        state = play(_last_black(), trigger)
        assert state.end_triggered and state.black_taken
        assert_refused(state, "take black 2", BlackLimitError, "one black puzzle")


@pytest.mark.parametrize("endless_white", [False, True], ids=["base", "endless-white"])
def test_blacks_taken_before_the_end_was_triggered_do_not_count_towards_the_limit(
    endless_white: bool,
) -> None:
    """Rulebook p. 7: "any puzzles they may have taken before the end of the game was triggered do
    not count towards this limit". A black taken while the deck still had cards leaves the turn's
    one black free; the take that then empties the deck is that one (the engine ruling), so a third
    black is refused. The same with the Endless White Deck (Solo has no limit: test_rules_solo)."""
    state = _last_black(cards=2)
    state = state.evolve(options=replace(state.options, endless_white=endless_white))
    state = play(state, "take black 1")
    assert not state.end_triggered and not state.black_taken
    state = play(state, "take black 1")
    assert state.end_triggered and state.black_taken
    assert_refused(state, "take black 2", BlackLimitError, "one black puzzle")


def test_no_black_limit_before_the_trigger() -> None:
    """Seeds: before the end is triggered a player may take several black puzzles in a turn."""
    state = play(_last_black(cards=5), "take black 1", "take black 1", "draw black")
    assert len(state.players[0].puzzles) == 3
