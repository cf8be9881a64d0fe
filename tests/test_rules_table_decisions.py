"""Rule cases: table decisions — skipping a turn and removing a player.

The rules do not cover players who stop playing; these are the project's rulings, recorded in
docs/rules.md ("Table decisions"): SkipTurn ends the current turn (or the current player's
Finishing Touches); RemovePlayer returns the player's supply and the pieces on their unfinished
puzzles to the reserve, takes their unfinished puzzles out of play, and they cannot win; when
only one active player remains the game goes straight to Finishing Touches.
"""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    at_turn_start,
    end_turn,
    full_counts,
    game,
    piece_totals,
    play,
    play_events,
    solo,
    with_player,
)

from engine import Phase, RemovePlayer, SkipTurn, legal_actions, score_lines, winners
from engine.errors import IllegalActionError
from engine.events import (
    FinishingDone,
    FinishingStarted,
    LocksReleased,
    MastermindTook,
    PlayerRemoved,
    TurnSkipped,
)
from engine.state import RowsTable


def _three(first: int = 0):
    state = at_turn_start(game(3, seed=1), first).evolve(first_player=first)
    state = with_player(state, 0, supply="1 2", puzzles=[("TO", [("2", "A1 B1")])], completed=["TL"])
    state = with_player(state, 1, supply="I3 L3 1", puzzles=[("TB", [("I3", "A1 B1 C1")]), "TD"],
                        completed=["TD2"])
    return with_player(state, 2, supply="O4", completed=["TM"])


# -- skip ------------------------------------------------------------------------------------------


def test_skip_ends_the_current_turn_at_once() -> None:
    """Ruling "skip": the current turn ends now (whatever actions were left); the next player starts
    a fresh turn; nothing else changes."""
    state = play(_three(), "level1")
    after, events = play_events(state, "skip")
    assert TurnSkipped(0) in events
    assert (after.current, after.actions_left, after.turn) == (1, 3, state.turn + 1)
    assert after.players == state.players and after.reserve == state.reserve


def test_skip_on_the_last_turn_of_the_last_round_starts_finishing_touches() -> None:
    """A skipped turn counts as played: skipping the final turn ends the last round."""
    state = _three(first=0).evolve(last_round=1)
    state = play(state, "skip", "skip")
    after, events = play_events(state, "skip")
    assert FinishingStarted() in events and after.phase is not Phase.PLAY


def test_skip_during_finishing_touches_ends_that_players_touches() -> None:
    """Ruling "skip": in Finishing Touches it ends the current player's touches (as 'done' would)."""
    state = play(_three().evolve(last_round=1), "skip", "skip", "skip")
    assert state.phase is Phase.FINISHING and state.current == 0
    after, events = play_events(state, "skip")
    assert FinishingDone(0) in events and after.players[0].finished_touches
    assert after.current == 1


def test_skip_in_solo_still_lets_the_mastermind_play() -> None:
    """Ruling "skip" in Solo: the player's turn ends and the mastermind takes its turn as usual
    (at the start every column is locked, so its turn is to remove one lock from each)."""
    state = solo(seed=1)
    after, events = play_events(state, "skip")
    assert LocksReleased() in events and (after.current, after.round) == (0, 2)
    after, events = play_events(after, "skip")
    assert any(isinstance(e, MastermindTook) for e in events)
    assert (after.current, after.round) == (0, 3)


# -- remove ------------------------------------------------------------------------------------------


def test_removed_players_pieces_return_to_the_reserve_and_their_puzzles_leave_play() -> None:
    """Ruling "remove": the supply and the pieces on unfinished puzzles go back to the reserve; the
    unfinished puzzles leave play (no row, deck or player has them); completed cards stay in the
    score pile; every piece is still accounted for."""
    state = _three()
    after, events = play_events(state, RemovePlayer(1))
    removed = after.players[1]
    assert removed.removed and removed.supply_size == 0 and removed.puzzles == ()
    assert [d.card for d in removed.completed] == ["TD2"]
    assert after.reserve[0] == state.reserve[0] + 1               # the monomino
    assert sum(after.reserve) == sum(state.reserve) + 3 + 1       # supply 3 + the I3 on TB
    assert PlayerRemoved(1, ("TB", "TD")) in events
    assert piece_totals(after) == full_counts(after)
    table = after.table
    assert isinstance(table, RowsTable)
    elsewhere = {*table.white_row, *table.black_row, *table.white_deck, *table.black_deck}
    assert not {"TB", "TD"} & elsewhere
    assert not any(p.puzzle("TB") for p in after.players)
    assert "B left the game" in events[0].describe(["A", "B", "C"])


def test_removed_player_cannot_win() -> None:
    """Ruling "remove": a removed player cannot win, whatever their score pile holds."""
    state = with_player(_three(), 1, completed=["TB", "TB2"])
    after = play(state, RemovePlayer(1))
    over = after.evolve(phase=Phase.OVER)
    assert score_lines(over)[1].total > max(score_lines(over)[0].total, score_lines(over)[2].total)
    assert 1 not in winners(over)


def test_removing_the_current_player_passes_the_turn() -> None:
    """Ruling "remove": if the removed player was to play, the next active player's turn begins."""
    state = play(_three(), "level1")
    after = play(state, RemovePlayer(0))
    assert (after.current, after.actions_left) == (1, 3)


def test_removing_another_player_does_not_interrupt_the_turn() -> None:
    """Ruling "remove": removing someone else leaves the current turn as it was."""
    state = play(_three(), "level1")
    after = play(state, RemovePlayer(2))
    assert (after.current, after.actions_left) == (0, 2)


def test_removed_seats_are_skipped_and_rounds_still_count() -> None:
    """Turn order skips a removed seat; when the first player is removed a new round still starts
    when play passes their seat."""
    state = play(_three(first=0), RemovePlayer(0))
    assert (state.current, state.round) == (1, 1)
    seen = []
    for _ in range(4):
        seen.append((state.current, state.round))
        state = end_turn(state)
    assert seen == [(1, 1), (2, 1), (1, 2), (2, 2)]


def test_one_player_left_goes_straight_to_finishing_touches() -> None:
    """Ruling "remove": if only one active player remains the game goes straight to Finishing
    Touches (and ends once that player is done)."""
    state = play(_three(), RemovePlayer(2))
    after, events = play_events(state, RemovePlayer(1))
    assert FinishingStarted() in events
    assert after.phase is Phase.FINISHING and after.current == 0
    over = play(after, "done")
    assert over.phase is Phase.OVER and winners(over) == (0,)


def test_removal_during_finishing_touches() -> None:
    """Ruling "remove" in Finishing Touches: the removed player makes no touches; if it was their go,
    the next player's begins."""
    state = play(_three().evolve(last_round=1), "skip", "skip", "skip")
    assert state.phase is Phase.FINISHING and state.current == 0
    after = play(state, RemovePlayer(0))
    assert after.current == 1 and after.players[0].removed


def test_remove_needs_a_player_in_that_seat() -> None:
    """A seat that is empty or already removed cannot be removed."""
    state = play(_three(), RemovePlayer(2))
    assert_refused(state, RemovePlayer(2), IllegalActionError, "no player in seat 3")
    assert_refused(state, RemovePlayer(5), IllegalActionError, "no player in seat 6")


def test_the_last_player_cannot_be_removed() -> None:
    """Ruling "remove": the last active player cannot be removed — the game would have nobody to
    finish it (the table cancels the game instead)."""
    state = play(_three(), RemovePlayer(2), RemovePlayer(1))
    assert state.phase is Phase.FINISHING
    assert_refused(state, RemovePlayer(0), IllegalActionError, "last player")


@pytest.mark.parametrize("players", [2, 3])
def test_table_decisions_are_never_listed_as_legal_actions(players: int) -> None:
    """actions.TABLE_ACTIONS: skips and removals are decided by the table, not offered to players."""
    state = game(players, seed=1)
    assert not [a for a in legal_actions(state) if isinstance(a, (SkipTurn, RemovePlayer))]
