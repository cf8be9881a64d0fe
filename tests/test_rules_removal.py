"""Rule cases: what a removed player leaves behind, in every expansion and variant.

The seeds say nothing about players who leave a game; docs/rules.md §10 ("Remove a player") is
the project's ruling: a removed player's pieces go back to the reserve and their unfinished
puzzles leave play. Each expansion adds things a seat can hold; the consistent ruling for each
is that nothing a removed seat held is lost to the table or left where the game could still act
on it: shared components go back where the rules take them from (pieces to the reserve, Finesse
credits to the bank), and what only ever belonged to that seat (its score pile, an Ambassador
card's unused action, its pending choices) stays with or leaves with the seat, unusable by anyone.
"""

from __future__ import annotations

import dataclasses
import json

from positions import (
    at_turn_start,
    count,
    full_counts,
    game,
    piece_totals,
    play,
    play_events,
    with_player,
)

from engine import Phase, RemovePlayer, apply, serialisation
from engine.actions import EndTurn, TakeLevelOne
from engine.events import CreditReturned, CreditsReturnedToBank, MarkersPassed, PlayerRemoved
from engine.expansions import ambassador
from engine.expansions.finesse import BANK, view
from engine.state import GameState, PendingDecision


def _finesse(state: GameState, *, bank: int, active: list[int], inactive: list[int],
             tile: str = "C4") -> GameState:
    """``state`` with this Finesse bank and credits and ``tile`` live (two tiles gone)."""
    row = [tile, *[t for t in ("C1", "C2", "C3", "C5", "C6", "C7", "C8") if t != tile]][:8]
    data = {"bank": bank, "row": row, "active": active, "inactive": inactive}
    return state.evolve(ext={**state.ext, "finesse": data})


# -- Finesse credits -----------------------------------------------------------------------------


def test_a_removed_players_credits_go_back_to_the_bank() -> None:
    """Ruling: a removed player's credits, active and inactive, go back to the bank, as their
    pieces go to the reserve. A removed seat can never win, Insert or pay a Finishing Touch, so
    credits kept there would only be missing from the bank (35 in all: the bank and every
    seat's credits always add up to 35)."""
    state = at_turn_start(game(3, seed=1, finesse=True), 0)
    state = _finesse(state, bank=BANK - 9, active=[2, 3, 1], inactive=[0, 1, 2])
    after, events = play_events(state, RemovePlayer(1))
    fv = view(after)
    assert fv is not None
    assert (fv.active[1], fv.inactive[1]) == (0, 0)
    assert fv.bank == BANK - 9 + 4
    assert fv.bank + sum(fv.active) + sum(fv.inactive) == BANK
    assert (fv.active[0], fv.inactive[0], fv.active[2], fv.inactive[2]) == (2, 0, 1, 2)
    returned = [e for e in events if isinstance(e, CreditsReturnedToBank)]
    assert returned == [CreditsReturnedToBank(1, 4)]
    assert events.index(returned[0]) > next(i for i, e in enumerate(events) if isinstance(e, PlayerRemoved))
    assert returned[0].describe(["Ann", "Bob", "Cid"]) == "Bob's 4 credits went back to the bank."


def test_a_removed_player_without_credits_returns_nothing_and_says_nothing() -> None:
    """Nothing to give back: no event (the log names only what happened)."""
    state = at_turn_start(game(3, seed=1, finesse=True), 0)
    state = _finesse(state, bank=BANK - 1, active=[1, 0, 0], inactive=[0, 0, 0])
    after, events = play_events(state, RemovePlayer(1))
    assert not [e for e in events if isinstance(e, CreditsReturnedToBank)]
    assert view(after).bank == BANK - 1  # type: ignore[union-attr]


def test_the_empty_bank_rule_never_takes_a_credit_from_a_removed_seat() -> None:
    """Seed (empty bank): "the player (or players) with the most credits return 1". A removed seat
    holds none once its credits are back in the bank, so it is never among them, and the bank it
    refilled pays the gain without anyone returning one."""
    state = at_turn_start(game(3, seed=1, finesse=True), 0)
    state = _finesse(state, bank=0, active=[10, 5, 20], inactive=[0, 0, 0])
    state = play(state, RemovePlayer(2))
    after, events = play_events(state, "take white 1")
    assert not [e for e in events if isinstance(e, CreditReturned)]
    fv = view(after)
    assert fv is not None and fv.bank == 19 and fv.credits(2) == 0 and fv.credits(0) == 11


def test_a_stored_state_whose_removed_seat_kept_credits_reads_with_them_in_the_bank() -> None:
    """A game stored before this ruling may have a removed seat still holding credits: read back,
    they are in the bank — the state a replay of its log reaches now — and the rest is as stored."""
    state = at_turn_start(game(3, seed=1, finesse=True), 0)
    state = _finesse(state, bank=BANK - 9, active=[2, 3, 1], inactive=[0, 1, 2])
    removed = play(state, RemovePlayer(1))
    old = json.loads(serialisation.dumps(removed))
    old["ext"]["finesse"]["active"][1], old["ext"]["finesse"]["inactive"][1] = 3, 1
    old["ext"]["finesse"]["bank"] = BANK - 9
    assert serialisation.state_from_json(old) == removed
    assert serialisation.loads(serialisation.dumps(removed)) == removed


# -- pieces of every expansion ----------------------------------------------------------------------


def test_a_removed_players_ghost_pieces_go_back_to_the_reserve() -> None:
    """Ruling "remove" with Ghost Piece: a ghost is an ordinary piece once owned, so ghosts in the
    supply and on unfinished puzzles go back to the reserve with the rest — every piece, the 30
    ghosts among them, is still accounted for."""
    state = at_turn_start(game(3, seed=1, ghost=True), 0)
    state = with_player(state, 1, supply="P5 U5 1", puzzles=[("TB", [("L5", "A1 B1 C1 D1 A2")])])
    after = play(state, RemovePlayer(1))
    assert after.players[1].supply_size == 0 and after.players[1].puzzles == ()
    for shape in ("P5", "U5", "L5"):
        assert count(after.reserve, shape) == count(state.reserve, shape) + 1
    assert piece_totals(after) == full_counts(after)


# -- Ambassador -----------------------------------------------------------------------------------


def test_a_removed_players_unflipped_ambassador_card_stays_in_their_pile_unusable() -> None:
    """Ruling: an Ambassador card's unused action belongs to the card in its owner's score pile;
    the pile stays with a removed player, and so does the action — nobody else gains it and the
    removed seat can never take it (it has no turns)."""
    state = at_turn_start(game(3, seed=1, ambassador=True), 0)
    state = with_player(state, 1, completed=["TD2"])
    state = state.evolve(ext={**state.ext, "ambassador": {
        "ready": [[], ["TD2"], []], "fresh": [[], [], []]}})
    after = play(state, RemovePlayer(1))
    assert ambassador.ready(after, 1) == ("TD2",)
    assert ambassador.ready(after, 0) == () and ambassador.ready(after, 2) == ()
    assert [d.card for d in after.players[1].completed] == ["TD2"]
    assert after.phase is Phase.PLAY


# -- held turns (Finesse) ---------------------------------------------------------------------------


def _line_clear_held(seed: int = 3) -> tuple[GameState, int, int]:
    """Line Clear with Finesse: the White-marker holder has spent their three actions with an
    Insert still affordable, so their turn is held open (``end turn`` ends it); the Black-marker
    holder has not played yet."""
    state = game(5, seed=seed, variant="lineclear", ghost=True, finesse=True)
    state = _finesse(state, bank=BANK - 15, active=[3] * 5, inactive=[0] * 5)
    white, black = state.turns[0].seat, state.turns[1].seat
    for _ in range(3):
        state = apply(state, TakeLevelOne(), player=white).state
    assert state.held == (white,) and white in state.acting_seats
    return state, white, black


def _finish_turn(state: GameState, seat: int) -> GameState:
    """``seat`` takes three level-1 pieces and ends its turn (held open or not)."""
    for _ in range(3):
        state = apply(state, TakeLevelOne(), player=seat).state
    return apply(state, EndTurn(), player=seat).state if seat in state.held else state


def test_removing_a_marker_holder_whose_turn_is_held_open_ends_that_turn() -> None:
    """Ruling "remove": a removed player's running turn ends. A turn held open for an Insert is a
    running turn (the game waits for that seat's ``end turn``), so removing its holder ends it —
    else the game would wait for a seat that can no longer act. Whichever turn was shown as the
    current one, only the other holder is left to act."""
    state, white, black = _line_clear_held()
    for shown in (white, black):
        before = state.evolve(current=shown) if shown == white else state.focused(black)
        after = apply(before, RemovePlayer(white)).state
        assert after.held == () and after.acting_seats == (black,), shown
        after = _finish_turn(after, black)
        assert {t.seat for t in after.turns}.isdisjoint({white, black}), after.turns  # the markers passed


def test_removing_the_last_running_holder_passes_the_markers() -> None:
    """When the other holder's turn is already over, removing the held holder ends the round's
    pair of turns: the markers pass on (skipping the removed seat) at once."""
    state, white, black = _line_clear_held()
    state = _finish_turn(state, black)
    assert state.acting_seats == (white,)
    after, events = play_events(state, RemovePlayer(white))
    assert any(isinstance(e, MarkersPassed) for e in events)
    assert white not in after.acting_seats and after.acting_seats and after.held == ()


def test_removing_a_marker_holder_who_still_owes_a_choice_ends_their_turn() -> None:
    """Ruling "remove": the removed player's pending choices are dropped. A marker holder whose
    actions are spent but who still owes a choice (a substitute piece) is still playing their
    turn; removing them ends it, and when the other holder is done the markers pass on — the
    game never waits for an answer nobody can give."""
    state = game(5, seed=3, variant="lineclear", ghost=True)
    white, black = state.turns[0].seat, state.turns[1].seat
    state = state.evolve(
        turns=tuple(dataclasses.replace(t, actions_left=0) for t in state.turns), current=white,
        actions_left=0, pending=(PendingDecision(white, "substitute", ("I4", "O4"), "reward T4"),))
    assert state.acting_seats == (white,)
    after, events = play_events(state, RemovePlayer(white))
    assert after.pending == () and any(isinstance(e, MarkersPassed) for e in events)
    assert {t.seat for t in after.turns}.isdisjoint({white, black}) and after.acting_seats
