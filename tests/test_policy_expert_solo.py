"""The expert on the last turns: every take is a candidate turn, in Solo and at two players (issue 29)."""

from __future__ import annotations

from engine import Options
from engine.game import apply, new_game
from engine.legal import legal_actions
from engine.policies import ExpertPolicy, GreedyPolicy
from engine.policies.expert import CLOSING_BLACK_DECK
from engine.simulate import default_cards
from engine.state import GameState, SoloTable


def _solo_position(deck_left: int) -> GameState:
    """A greedy Solo game played until at most ``deck_left`` cards are left, at a turn's start."""
    state = new_game(Options(players=1, variant="solo"), 11, default_cards())
    greedy = GreedyPolicy(11)
    while True:
        table = state.table
        assert isinstance(table, SoloTable) and not state.is_over
        if len(table.deck) <= deck_left and state.actions_left == 3 and not state.pending:
            return state
        state = apply(state, greedy.choose(state)).state


def _first_actions(policy: ExpertPolicy, state: GameState) -> set[str]:
    return {str(p.actions[0]) for p in policy.analyse(state).plans}


def test_every_take_is_tried_near_the_end() -> None:
    state = _solo_position(2)
    table = state.table
    assert isinstance(table, SoloTable)
    takes = {f"take {i + 1}" for i, card in enumerate(table.grid) if card is not None}
    assert takes <= _first_actions(ExpertPolicy(3), state)


def test_the_closing_takes_can_be_turned_off_and_wait_for_the_end() -> None:
    state = _solo_position(2)
    closing = ExpertPolicy(3)
    assert closing._closing_takes(state, 0, 1)
    assert not ExpertPolicy(3, solo_closing=False)._closing_takes(state, 0, 1)
    assert not ExpertPolicy(3, closing_deck=0)._closing_takes(state, 0, 1) or state.end_triggered


def _two_player_position(black_left: int) -> GameState:
    """A greedy two-player game played until at most ``black_left`` black puzzles are left in the
    deck, at a turn's start."""
    state = new_game(Options(players=2), 12, default_cards())
    greedy = GreedyPolicy(12)
    while True:
        assert not isinstance(state.table, SoloTable) and not state.is_over
        if len(state.table.black_deck) <= black_left and state.actions_left == 3 and not state.pending:
            return state
        state = apply(state, greedy.choose(state)).state


def test_at_two_players_too_every_take_is_tried_near_the_end() -> None:
    state = _two_player_position(CLOSING_BLACK_DECK)
    takes = {str(action) for action in legal_actions(state) if action.kind == "take"}
    assert takes and takes <= _first_actions(ExpertPolicy(3), state)
    assert not ExpertPolicy(3, closing_black=0)._closing_takes(state, state.current, 1)


def test_at_two_players_the_takes_wait_for_the_last_black_puzzles() -> None:
    state = new_game(Options(players=2), 12, default_cards())
    assert not isinstance(state.table, SoloTable)
    assert len(state.table.black_deck) > CLOSING_BLACK_DECK and not state.end_triggered
    assert ExpertPolicy(3)._closing_takes(state, state.current, 1) == []
