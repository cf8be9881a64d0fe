"""The board's JSON view holds nothing its seat may not see (engine/visibility.py), over random
games of every mode: Solo, 2–4 players, Line Clear, with Ghost, Finesse, Ambassador, Phoenix, the
Endless White Deck and hidden scores.

What a seat may not see is tested by indistinguishability: the state is changed in exactly what is
hidden from the viewer — the decks' order, the face-down Finesse tiles, the cards and points of a
score pile hidden from them — and the view must come out the same (the stamp aside, which is
blinded: tests/test_web_api.py). Beside it, the hidden parts are checked to be absent outright.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from positions import progress_action

import engine
from bot.core.games import Seat, TableSettings
from bot.core.play.manager import Game
from bot.web.tokens import TokenSigner
from bot.web.view import context_for, seat_view
from engine import GameState, IllegalActionError, Options, apply, legal_actions, master_options, new_game
from engine.expansions.ambassador import unflipped
from engine.expansions.finesse import TILES
from engine.expansions.finesse import view as finesse_view
from engine.rng import Rng
from engine.state import DonePuzzle, LineClearTable, RowsTable, SoloTable
from engine.visibility import hidden_scores

SIGNER = TokenSigner("a-test-key-for-blinding-stamps-000000")

# (players, ghost, finesse, ambassador, phoenix, known_scores, endless_white)
TABLES = st.sampled_from([
    (1, False, False, False, False, True, False), (1, False, True, False, False, True, False),
    (2, False, False, False, False, True, False), (2, False, True, True, False, False, False),
    (2, False, False, True, False, False, True), (3, True, False, False, False, False, False),
    (3, False, True, False, False, True, True), (4, False, False, True, False, False, False),
    (4, True, True, True, False, True, False), (5, True, False, False, False, False, False),
    (5, True, True, True, False, True, False), (6, False, False, False, True, False, False),
    (6, True, True, False, False, False, False), (2, False, True, False, False, False, False),
])


def _new(table: tuple[Any, ...], seed: int) -> GameState:
    players, ghost, finesse, ambassador, phoenix, known, endless = table
    options = Options.for_players(players, ghost=ghost, finesse=finesse, ambassador=ambassador,
                                  phoenix=phoenix, known_scores=known, endless_white=endless and players > 1)
    try:
        return new_game(options, seed=seed)
    except IllegalActionError:
        assume(False)
        raise


def _play(state: GameState, rng: Rng, steps: int) -> GameState:
    for _ in range(steps):
        if state.is_over:
            break
        seats = state.acting_seats
        seat = seats[rng.below(len(seats))]
        focused = state.focused(seat)
        if rng.below(3) == 0:
            actions = legal_actions(focused)
            options = master_options(focused)
            action = options.sample(rng) if options is not None and (not actions or rng.below(4) == 0) \
                else actions[rng.below(len(actions))]
        else:
            action = progress_action(focused, rng)
        state = apply(state, action, player=seat).state
    return state


def _game(state: GameState) -> Game:
    seats = tuple(Seat(n, 100 + n, f"Player {n}") for n in range(len(state.players)))
    return Game(id=1, guild_id=None, channel_id=1, status="active", host_id=100, settings=TableSettings(),
                seed=state.seed, seats=seats, state=state, revision=42)


def _view(state: GameState, seat: int | None) -> dict[str, Any]:
    view = seat_view(context_for(_game(state), seat, 100 + (seat or 0), None), blind=SIGNER.blind)
    return json.loads(json.dumps(view, default=str))


def _shuffled_decks(state: GameState, rng: Rng) -> GameState:
    def shuffle(cards: tuple[str, ...]) -> tuple[str, ...]:
        items = list(cards)
        for i in range(len(items) - 1, 0, -1):
            j = rng.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return tuple(items)

    table = state.table
    if isinstance(table, RowsTable | LineClearTable):
        return state.evolve(table=replace(table, white_deck=shuffle(table.white_deck),
                                          black_deck=shuffle(table.black_deck)))
    assert isinstance(table, SoloTable)
    return state.evolve(table=replace(table, deck=shuffle(table.deck)))


def _other_face_down_tiles(state: GameState) -> GameState:
    finesse = finesse_view(state)
    if finesse is None or not finesse.face_down:
        return state
    unused = [tile for tile in TILES if tile not in finesse.row]
    row = [*unused[:finesse.face_down], *finesse.row[finesse.face_down:]]
    ext = dict(state.ext)
    ext["finesse"] = {**ext["finesse"], "row": row}
    return state.evolve(ext=ext)


def _other_hidden_piles(state: GameState, viewer: int | None) -> GameState:
    """Every pile hidden from ``viewer`` holds other cards (as many) and other banked points."""
    hidden = hidden_scores(state, viewer)
    table = state.table
    spare = list(table.deck if isinstance(table, SoloTable) else (*table.white_deck, *table.black_deck))
    players = list(state.players)
    for seat in hidden:
        public = set(unflipped(state, seat))
        completed = []
        for done in players[seat].completed:
            if done.card in public or not spare:
                completed.append(done)
            else:
                completed.append(DonePuzzle(spare.pop(), done.finishing, done.pieces))
        players[seat] = replace(players[seat], completed=tuple(completed),
                                banked_points=players[seat].banked_points + 7)
    return state.evolve(players=tuple(players))


def _without_stamp(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "game": {k: v for k, v in view["game"].items() if k != "stamp"}}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_a_view_is_the_same_whatever_is_hidden_from_its_seat(table: tuple[Any, ...], seed: int,
                                                             steps: int) -> None:
    rng = Rng(seed)
    state = _play(_new(table, seed), rng, steps)
    for viewer in [None, *range(len(state.players))]:
        view = _view(state, viewer)
        hidden = hidden_scores(state, viewer)
        for other in (_shuffled_decks(state, rng), _other_face_down_tiles(state),
                      _other_hidden_piles(state, viewer)):
            assert _without_stamp(_view(other, viewer)) == _without_stamp(view)
        # and outright: counts for decks, nulls for face-down tiles and hidden piles
        assert all(isinstance(n, int) for n in view["table"]["decks"].values())
        finesse = finesse_view(state)
        if finesse is not None:
            assert view["finesse"]["row"][:finesse.face_down] == [None] * finesse.face_down
            assert view["finesse"]["live"] is None or view["finesse"]["live"]["id"] == finesse.row[0]
        for player in view["players"]:
            if player["seat"] in hidden:
                assert player["score"] is None and player["completed_cards"] is None
            else:
                assert player["completed_cards"] == [d.card for d in state.players[player["seat"]].completed]
        if viewer is not None and state.concurrent:
            ctx_stamp = context_for(_game(state), viewer, 100 + viewer, None).stamp
            assert ctx_stamp.startswith("s") and view["game"]["stamp"] != ctx_stamp


def test_a_spectator_is_offered_nothing() -> None:
    state = new_game(Options.for_players(3, finesse=True), seed=9)
    view = _view(state, None)
    assert view["me"]["spectator"] is True
    assert view["offers"] == [] and view["placements"] == {} and view["master"] is None
    assert view["supply"] == [] and view["puzzles"] == []
    assert engine.legal_actions(state)  # someone could act: just not a spectator
