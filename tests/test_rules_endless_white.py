"""Rule cases: the Endless White Deck variant and the table options it and ``known_scores`` add.

Sources: the rulebook's variants ("Endless White Deck", "Known Victory Points"); RULINGS.md
"Endless White Deck" and "Completed cards".
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from positions import as_action, play_events, play_out, with_player, with_rows

from engine import (
    IllegalActionError,
    Options,
    apply,
    new_game,
    parse_action,
    replay,
    score_lines,
    serialisation,
)
from engine.cards import Colour
from engine.events import DeckEmptied, WhiteDeckRenewed
from engine.state import GameState, LineClearTable, RowsTable

WHITE, BLACK = Colour.WHITE, Colour.BLACK


def _ids(state: GameState, colour: Colour) -> list[str]:
    return [c.id for c in state.cards.values() if c.colour is colour]


def _endless_with_last_white() -> tuple[GameState, list[str], str]:
    """Two players, Endless White Deck on, one card left in the white deck; seat 0 has two
    completed white cards and a black one, seat 1 one white card. Returns the state, the four
    completed white cards' ids (seat 0's first) and seat 0's black card."""
    state = new_game(Options(players=2, endless_white=True), seed=3)
    table = state.table
    assert isinstance(table, RowsTable)
    in_play = set(table.white_row) | set(table.white_deck) | set(table.black_row) | set(table.black_deck)
    spare_white = [c for c in _ids(state, WHITE) if c not in in_play]
    spare_black = [c for c in _ids(state, BLACK) if c not in in_play]
    whites, black = spare_white[:3], spare_black[0]
    state = with_rows(state, white_deck=table.white_deck[:1])
    state = state.evolve(current=0)
    state = with_player(state, 0, completed=[whites[0], black, whites[1]])
    state = with_player(state, 1, completed=[whites[2]])
    return state, whites, black


def test_endless_white_reshuffles_and_banks_when_the_white_deck_runs_out() -> None:
    """RULINGS "Endless White Deck": the take that empties the white deck makes every player bank
    the points of their completed white cards, and those cards become a new white deck."""
    state, whites, black = _endless_with_last_white()
    after, events = play_events(state, "take white 1")
    table = after.table
    assert isinstance(table, RowsTable)
    assert sorted(table.white_deck) == sorted(whites)
    assert [d.card for d in after.players[0].completed] == [black]
    assert after.players[1].completed == ()
    points = {c: state.cards[c].points for c in whites}
    assert after.players[0].banked_points == points[whites[0]] + points[whites[1]]
    assert after.players[0].banked_cards == 2
    assert after.players[1].banked_points == points[whites[2]] and after.players[1].banked_cards == 1
    assert DeckEmptied(WHITE) in events
    renewed = [e for e in events if isinstance(e, WhiteDeckRenewed)]
    assert renewed == [WhiteDeckRenewed(3, ((0, points[whites[0]] + points[whites[1]]),
                                            (1, points[whites[2]])))]
    assert "points" not in renewed[0].describe(["A", "B"]).split("banked the points")[1]


def test_endless_white_scores_add_up_after_banking() -> None:
    """Banked points still count at the end (RULINGS): the score lines — the one scoring function
    — give the same points and completed-puzzle counts before and after the reshuffle."""
    state, _, _ = _endless_with_last_white()
    after, _ = play_events(state, "take white 1")
    before_lines, after_lines = score_lines(state), score_lines(after)
    for b, a in zip(before_lines, after_lines, strict=True):
        assert a.completed_points == b.completed_points
        assert a.completed_count == b.completed_count


def test_endless_white_with_nothing_to_bank_leaves_the_deck_empty() -> None:
    """docs/rules.md ruling: with no completed white card anywhere, there is nothing to reshuffle."""
    state, _, _ = _endless_with_last_white()
    state = with_player(with_player(state, 0, completed=[]), 1, completed=[])
    after, events = play_events(state, "take white 1")
    assert isinstance(after.table, RowsTable) and after.table.white_deck == ()
    assert not any(isinstance(e, WhiteDeckRenewed) for e in events)


def test_white_deck_is_not_renewed_without_the_option() -> None:
    state, _, _ = _endless_with_last_white()
    state = state.evolve(options=Options(players=2))
    after, events = play_events(state, "take white 1")
    assert isinstance(after.table, RowsTable) and after.table.white_deck == ()
    assert after.players[0].banked_points == 0
    assert not any(isinstance(e, WhiteDeckRenewed) for e in events)


def test_endless_white_replay_is_exact() -> None:
    """The reshuffle draws from the state's own seeded generator: replaying the seed and the
    action log gives the same game, byte for byte, banked points included."""
    start, _, _ = _endless_with_last_white()
    renewed, _ = play_events(start, "take white 1")
    final, rest = play_out(renewed, seed=7)
    log = [as_action("take white 1"), *rest]
    assert any(p.banked_points for p in final.players)
    assert serialisation.dumps(replay(start, log)) == serialisation.dumps(final)
    assert final.rng_state != start.rng_state
    assert serialisation.loads(serialisation.dumps(final)) == final


def test_endless_white_is_refused_in_solo() -> None:
    with pytest.raises(IllegalActionError, match="2 or more players"):
        new_game(Options(players=1, variant="solo", endless_white=True), seed=1)


def test_new_options_are_written_only_when_not_the_default() -> None:
    """Old saves (without the keys) load with the defaults; default tables write no new key."""
    plain = json.loads(serialisation.dumps(new_game(Options(players=2), seed=1)))["options"]
    assert "known_scores" not in plain and "endless_white" not in plain
    assert serialisation.options_from_json(plain) == Options(players=2)
    hidden = Options(players=3, known_scores=False, endless_white=True)
    assert serialisation.options_from_json(serialisation.options_to_json(hidden)) == hidden


def test_endless_white_renews_the_deck_in_line_clear_too() -> None:
    """The rule lives in the rows variants' shared deck-emptied path: Line Clear's blind draw of
    the last white card renews the deck in the same way."""
    state = new_game(Options.for_players(5, endless_white=True), seed=6)
    table = state.table
    assert isinstance(table, LineClearTable)
    white_holder = table.markers[0]
    spare = table.white_deck[1:]  # cards out of the deck: one of them is seat 2's completed card
    state = state.evolve(table=replace(table, white_deck=table.white_deck[:1]))
    state = with_player(state, 2, completed=[spare[0]])
    after = apply(state, parse_action("draw white"), player=white_holder)
    assert isinstance(after.state.table, LineClearTable)
    assert after.state.table.white_deck == (spare[0],)
    assert after.state.players[2].banked_points == state.cards[spare[0]].points
    assert any(isinstance(e, WhiteDeckRenewed) for e in after.events)
