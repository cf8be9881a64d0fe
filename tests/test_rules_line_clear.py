"""Rule cases for the Line Clear variant (5–6 players). Each test names its rule and its source:
seed 004 ("Line Clear Variant") and RULINGS "Line Clear variant" / "End of the game"."""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    play_out,
    with_line_clear_table,
    with_player,
)

from engine import (
    GameState,
    IllegalActionError,
    NotYourTurnError,
    Options,
    Phase,
    apply,
    legal_actions,
    new_game,
    parse_action,
    replay,
    serialisation,
)
from engine.actions import RemovePlayer
from engine.errors import ActionNotAvailableError, BlackLimitError, PuzzleLimitError
from engine.events import EndTriggered, MarkersPassed, TurnStarted
from engine.game import final_round
from engine.state import LineClearTable
from engine.variants.line_clear import next_side

LEFT_W = ["W01", "W02", "W03"]


def lc(players: int = 5, seed: int = 1, **options: object) -> GameState:
    return new_game(Options.for_players(players, **options), seed=seed)  # type: ignore[arg-type]


def _table(state: GameState) -> LineClearTable:
    assert isinstance(state.table, LineClearTable)
    return state.table


def _act(state: GameState, seat: int, text: str) -> GameState:
    return apply(state, parse_action(text), player=seat).state


def _spend(state: GameState, seat: int) -> GameState:
    """Spend ``seat``'s remaining actions on level-1 pieces (answering any substitute choice
    with its first option)."""
    while seat in state.acting_seats:
        decision = state.decision_for(seat)
        state = _act(state, seat, f"choose {decision.options[0]}" if decision else "level1")
    return state


def _holders(state: GameState) -> tuple[int, int]:
    return _table(state).markers


# -- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_four_rows_of_three_two_each_side_of_the_decks(players: int) -> None:
    """Seed 004 "Setup": 3 puzzles in each row, a second white and black row to the right."""
    table = _table(lc(players, seed=3))
    rows = (table.left_white, table.left_black, table.right_white, table.right_black)
    assert all(len(row) == 3 and None not in row for row in rows)
    dealt = [c for row in rows for c in row]
    assert len(set(dealt)) == 12


@pytest.mark.parametrize(("players", "black"), [(5, 20), (6, 24)])
def test_black_deck_has_20_cards_for_5_and_24_for_6(players: int, black: int) -> None:
    """Seed 004 "Setup": 20 black puzzles for 5 players, 24 for 6."""
    table = _table(lc(players, seed=4))
    assert len(table.black_deck) + len(table.left_black) + len(table.right_black) == black


@pytest.mark.parametrize(("players", "offset"), [(5, 2), (6, 3)])
def test_white_marker_starts_with_the_first_player_black_with_the_3rd_or_4th(
    players: int, offset: int,
) -> None:
    """Seed 004 "Setup": the White marker goes to the first player, the Black marker to the 3rd
    player (5 players) or the 4th (6 players)."""
    for seed in range(6):
        state = lc(players, seed=seed)
        white, black = _holders(state)
        assert white == state.first_player
        assert black == (state.first_player + offset) % players
        assert set(state.acting_seats) == {white, black}
        assert [t.side for t in state.turns] == ["left", "right"]


def test_six_players_without_ghost_are_refused_with_a_clear_message() -> None:
    """RULINGS "Line Clear variant": 6 players always play with the Ghost Piece expansion."""
    with pytest.raises(IllegalActionError, match="Six players need the Ghost Piece expansion"):
        lc(6, ghost=False)


def test_five_players_default_to_ghost_and_may_turn_it_off() -> None:
    """RULINGS "Line Clear variant": 5 players default to ghost on (the seed), may turn it off."""
    assert Options.for_players(5).ghost
    state = lc(5, ghost=False)
    assert all(state.card(c).expansion is None for c in _table(state).black_deck)
    assert state.reserve[11] == 0  # no L5 ghosts in the reserve


def test_line_clear_needs_five_or_six_players() -> None:
    with pytest.raises(IllegalActionError, match="5 or 6 players"):
        new_game(Options(players=4, variant="lineclear", ghost=True), seed=1)


# -- two turns at once -----------------------------------------------------------------------------


def test_both_marker_holders_act_concurrently_in_arrival_order() -> None:
    """Seed 004 "Gameplay": both players with markers play simultaneously. Each action applies
    atomically in arrival order, whichever holder sends it."""
    state = lc(5, seed=2)
    white, black = _holders(state)
    state = _act(state, black, "level1")
    state = _act(state, white, "level1")
    state = _act(state, black, "level1")
    assert state.turn_of(black).actions_left == 1
    assert state.turn_of(white).actions_left == 2
    assert state.players[black].supply[0] == 3 and state.players[white].supply[0] == 2


def test_refills_follow_arrival_order() -> None:
    """RULINGS "Line Clear variant": refills come from the shared decks in arrival order — the
    holder whose take arrives first gets the deck's top card into their row."""
    state = lc(5, seed=2)
    white, black = _holders(state)
    deck = _table(state).white_deck
    first = _act(state, black, "take white 1")
    first = _act(first, white, "take white 1")
    assert _table(first).right_white[0] == deck[0]
    assert _table(first).left_white[0] == deck[1]
    other = _act(_act(state, white, "take white 1"), black, "take white 1")
    assert _table(other).left_white[0] == deck[0]
    assert _table(other).right_white[0] == deck[1]


def test_each_holder_takes_only_from_their_own_side() -> None:
    """Seed 004 "Gameplay": players may only take puzzles from the rows on the side of their
    marker — White the left rows, Black the right."""
    state = lc(5, seed=5)
    white, black = _holders(state)
    table = _table(state)
    after = _act(state, black, "take black 2")
    assert after.players[black].puzzles[-1].card == table.right_black[1]
    after = _act(state, white, "take black 2")
    assert after.players[white].puzzles[-1].card == table.left_black[1]


def test_only_the_white_holder_draws_blind() -> None:
    """Seed 004 "Gameplay": only the White-marker holder may take from the decks."""
    state = lc(5, seed=6)
    white, black = _holders(state)
    assert_refused(state, "draw white", ActionNotAvailableError, "White-marker", player=black)
    after = _act(state, white, "draw white")
    assert after.players[white].puzzles[-1].card == _table(state).white_deck[0]
    assert not any(a.kind in {"draw", "recycle"} for a in legal_actions(state, black))


def test_recycle_refused_to_the_black_holder() -> None:
    """Seed 004 "Gameplay": only the White-marker holder may Recycle, and only the left rows; a
    recycled row is refilled with 3."""
    state = lc(5, seed=7)
    white, black = _holders(state)
    assert_refused(state, "recycle white 1 2 3", ActionNotAvailableError, "Recycle", player=black)
    table = _table(state)
    after = _act(state, white, "recycle white 3 1 2")
    new = _table(after)
    assert new.left_white == table.white_deck[:3]
    assert new.white_deck[-3:] == (table.left_white[2], table.left_white[0], table.left_white[1])
    assert new.right_white == table.right_white


def test_a_seat_without_a_marker_cannot_act() -> None:
    state = lc(5, seed=1)
    idle = next(s for s in range(5) if s not in state.acting_seats)
    assert_refused(state, "level1", NotYourTurnError, "not your turn", player=idle)
    assert legal_actions(state, idle) == []


def test_a_finished_holder_waits_for_the_other() -> None:
    """Seed 004 "Gameplay": after both players have finished their turn they pass the markers;
    one who is done waits."""
    state = lc(5, seed=8)
    white, black = _holders(state)
    state = _spend(state, white)
    assert state.acting_seats == (black,)
    assert state.current == black  # the single-turn view shows the turn still running
    assert_refused(state, "level1", NotYourTurnError, "not your turn", player=white)


def test_markers_pass_clockwise_when_both_are_done() -> None:
    """Seed 004 "Gameplay": when both are done, each marker passes clockwise."""
    state = lc(5, seed=9)
    white, black = _holders(state)
    state = _spend(state, black)
    outcome = None
    while white in state.acting_seats:
        outcome = apply(state, parse_action("level1"), player=white)
        state = outcome.state
    assert outcome is not None
    assert _holders(state) == ((white + 1) % 5, (black + 1) % 5)
    assert any(isinstance(e, MarkersPassed) for e in outcome.events)
    assert sum(isinstance(e, TurnStarted) for e in outcome.events) == 2
    assert all(t.actions_left == 3 and not t.master_used for t in state.turns)


def test_round_advances_when_the_first_player_gets_the_white_marker_again() -> None:
    """RULINGS "Finesse with Line Clear": a round begins each time the first player receives the
    White marker."""
    state = lc(5, seed=10)
    for _ in range(5):
        assert state.round == 1
        for seat in _holders(state):
            state = _spend(state, seat)
    assert _holders(state)[0] == state.first_player
    assert state.round == 2


def test_each_turn_has_its_own_master_and_puzzle_limit() -> None:
    """Each holder plays a standard 3-action turn: Master once per turn is per holder."""
    state = lc(5, seed=11)
    white, black = _holders(state)
    state = with_player(state, white, supply="1 2", puzzles=["TD", "TM"])
    state = with_player(state, black, supply="1 2", puzzles=["TD2", "TL", "TI", "TO"])
    state = _act(state, white, "master 2 on TD at A1 B1; 1 on TM at A1")
    assert state.turn_of(white).master_used and not state.turn_of(black).master_used
    assert_refused(state, "take white 1", PuzzleLimitError, "4 unfinished", player=black)


# -- the end ------------------------------------------------------------------------------------


def _triggered(state: GameState) -> GameState:
    """The black deck has one card left: the next black take from a row triggers the end."""
    table = _table(state)
    return with_line_clear_table(state, black_deck=list(table.black_deck[:1]))


def test_black_limit_after_the_trigger() -> None:
    """RULINGS "End of the game": after the trigger each player may take at most one black puzzle
    per turn; the take that empties the deck counts as that turn's one (also in Line Clear)."""
    state = _triggered(lc(5, seed=12))
    white, black = _holders(state)
    state = _act(state, black, "take black 1")
    assert state.end_triggered
    assert_refused(state, "take black 2", BlackLimitError, "one black puzzle", player=black)
    # The other holder has not taken a black card this turn: one is allowed.
    state = _act(state, white, "take black 1")
    assert_refused(state, "take black 2", BlackLimitError, "one black puzzle", player=white)


def test_blacks_taken_before_the_end_was_triggered_do_not_count_towards_the_limit() -> None:
    """Rulebook p. 7: "any puzzles they may have taken before the end of the game was triggered do
    not count towards this limit". The Black holder takes a black card while the deck still has
    cards; the White holder's take then empties it: the Black holder may still take one black
    puzzle this turn, and only one."""
    table = _table(lc(5, seed=12))
    state = with_line_clear_table(lc(5, seed=12), black_deck=list(table.black_deck[:2]))
    white, black = _holders(state)
    state = _act(state, black, "take black 1")                # the deck keeps one card
    assert not state.end_triggered
    state = _act(state, white, "take black 1")                # its last card: the end is triggered
    assert state.end_triggered
    assert not state.turn_of(black).black_taken
    assert "take black 2" in {str(a) for a in legal_actions(state, player=black)}
    state = _act(state, black, "take black 2")
    assert_refused(state, "take black 3", BlackLimitError, "one black puzzle", player=black)
    assert_refused(state, "take black 2", BlackLimitError, "one black puzzle", player=white)


def test_the_game_ends_on_the_first_players_second_receipt() -> None:
    """Seed 004 "Game end": after the trigger the game continues until the first player has been
    passed both markers again; at the second the game ends at once (RULINGS: before that turn)."""
    state = _triggered(lc(5, seed=13))
    first = state.first_player
    white, black = _holders(state)
    state = _act(state, black, "take black 1")
    assert state.end_triggered
    receipts = 0
    steps = 0
    while state.phase is Phase.PLAY:
        before = _holders(state)
        for seat in before:
            state = _spend(state, seat)
        steps += 1
        receipts += _holders(state)[0] == first or _holders(state)[1] == first
        if state.phase is Phase.PLAY:
            assert first in state.acting_seats or receipts < 2
    assert receipts == 2 and _table(state).receipts == 2
    # 5 players, markers two apart: the first player gets Black after 3 passes, White after 5.
    assert steps == 5
    assert state.phase in (Phase.FINISHING, Phase.OVER)


@pytest.mark.parametrize("passes_before", range(5))
def test_the_round_announced_as_the_last_is_the_round_the_game_ends_in(passes_before: int) -> None:
    """Seed 004 "Game end": "The game continues until the first player has been passed both of
    the markers again (in any order). Once the first player gets the second marker, the game
    ends." With 5 players a round starts when the first player gets the White marker; the Black
    marker reaches them three passes into each round. Triggered before that, the Black marker is
    the first receipt and the White one, which would start the next round, the second: the round
    of the trigger is the last. Triggered after it, the next round starts and is the last (it is
    cut short when the Black marker arrives). The end is announced with that round, and the
    status (``final_round``) says the same until the game ends."""
    state = lc(5, seed=13)
    for _ in range(passes_before):
        for seat in _holders(state):
            state = _spend(state, seat)
    state = _triggered(state)
    black = _holders(state)[1]
    outcome = apply(state, parse_action("take black 1"), player=black)
    announced = [e.last_round for e in outcome.events if isinstance(e, EndTriggered)]
    state = outcome.state
    expected = state.round if passes_before < 3 else state.round + 1
    assert announced == [expected]
    sentence = next(e for e in outcome.events if isinstance(e, EndTriggered)).describe([])
    if expected == state.round:
        assert sentence == f"The end of the game is triggered: round {expected} is the last."
    last_played = state.round
    while state.phase is Phase.PLAY:
        assert final_round(state) == expected
        last_played = state.round
        for seat in _holders(state):
            state = _spend(state, seat)
    assert last_played == expected


def test_first_receipt_after_the_trigger_is_played() -> None:
    """Seed 004 "Game end": the first receipt is played: the first player acts with it."""
    state = _triggered(lc(6, seed=14))
    first = state.first_player
    state = _act(state, _holders(state)[1], "take black 1")
    while first not in _holders(state):
        for seat in _holders(state):
            state = _spend(state, seat)
    assert state.phase is Phase.PLAY and first in state.acting_seats


# -- whole games ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "ghost"), [(5, True), (5, False), (6, True)])
def test_line_clear_games_finish_and_replay_with_seats(players: int, ghost: bool) -> None:
    """Whole games reach the end; the log replays exactly when it names the acting seats."""
    state = lc(players, seed=25, ghost=ghost)
    start = state
    final, log = play_out(state, seed=5, max_actions=4000)
    assert final.is_over
    seats: list[int] = []
    replayed = start
    for action in log:
        seats.append(replayed.current)
        replayed = apply(replayed, action).state
    assert replay(start, log, seats) == final
    assert serialisation.loads(serialisation.dumps(final)) == final


def test_with_the_first_player_removed_rounds_and_the_end_count_at_their_seat() -> None:
    """docs/rules.md §10 "Remove a player": "rounds still begin at the first player's seat, even
    if the first player was removed"; seed 004 "Game end": "The game continues until the first
    player has been passed both of the markers again". A marker passing the removed first
    player's seat starts a round (White) and counts as a receipt after the trigger, so the game
    still ends."""
    state = lc(5, seed=3)
    first = state.first_player
    state = apply(state, RemovePlayer(first)).state
    rounds = []
    for _ in range(5):
        for seat in _holders(state):
            state = _spend(state, seat)
        rounds.append(state.round)
    # The White marker (which the removed first player held) passes their seat again on the
    # fifth pass: round 2 begins then, as it would with them at the table.
    assert rounds == [1, 1, 1, 1, 2]
    state = _triggered(state)
    white, black = _holders(state)
    take = next(a for a in legal_actions(state, black) if str(a).startswith("take black"))
    state = apply(state, take, player=black).state
    assert state.end_triggered
    steps = 0
    while state.phase is Phase.PLAY and steps < 12:
        for seat in _holders(state):
            state = _spend(state, seat)
        steps += 1
    assert state.phase is not Phase.PLAY and _table(state).receipts == 2


@pytest.mark.parametrize("players", [5, 6])
def test_next_side_is_the_side_of_the_marker_that_reaches_a_seat_first(players: int) -> None:
    """``next_side`` (what a plan laid out ahead is checked on) agrees with the markers' passes as
    play makes them, removed seats skipped; a holder whose turn is over is reached again only later."""
    state = lc(players)
    white, black = _table(state).markers
    expected = {seat: None for seat in range(players)}
    markers = (white, black)
    for _ in range(players):  # pass as end_turn does, the first marker to reach a seat names its side
        markers = ((markers[0] + 1) % players, (markers[1] + 1) % players)
        if markers[0] == markers[1]:
            markers = (markers[0], (markers[1] + 1) % players)
        for seat, side in zip(markers, ("left", "right"), strict=True):
            if expected[seat] is None:
                expected[seat] = side
    assert {seat: next_side(state, seat) for seat in range(players)} == expected
    assert next_side(state, (white + 1) % players) == "left"
    assert next_side(state, (black + 1) % players) == "right"
    removed = apply(state, RemovePlayer((black + 1) % players)).state
    assert next_side(removed, (black + 1) % players) is None
    assert next_side(removed, (black + 2) % players) == "right"  # the Black marker skips the removed seat
    assert next_side(new_game(Options.for_players(4), seed=1), 1) is None  # no Line Clear, no side
