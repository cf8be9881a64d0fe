"""Greedy's Finesse play: it aims for the live tile, models the Finesse Solo mastermind's two
takes exactly as the engine plays them, and knows that the tenth tile ends the game.

The credit predictions (``engine.policies.credits``) are checked against the credits the engine
really pays, for every legal action of states from played games, so the policy and the rules
cannot drift apart unnoticed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from positions import play_events, with_cards, with_player, with_solo_table
from test_rules_finesse import finesse, shape_card

from engine import GameState, Options, apply, new_game
from engine.actions import Action, EndTurn, Insert, Master, Place, TakeLevelOne
from engine.cards import Colour, PuzzleCard, parse_reward
from engine.events import CardRevealed, CreditEarned, MastermindTook, TurnStarted
from engine.expansions.finesse import TILES
from engine.legal import legal_actions, master_options
from engine.pieces import Shape, parse_cells
from engine.policies import BASE_WEIGHTS, GreedyPolicy
from engine.policies.credits import pink_credits, turns_after_this
from engine.policies.mastermind import mastermind_denial, mastermind_points
from engine.policies.outlook import my_actions_left
from engine.rng import Rng
from engine.simulate import play_game
from engine.state import Phase, SoloTable
from engine.variants.solo import column_of, mastermind_picks

# -- credits the greedy player predicts are the credits the engine pays ----------------------------


def _states(options: Options, seed: int, every: int = 3) -> list[GameState]:
    """Every ``every``-th state of a greedy game (the played states, not just the last)."""
    record = play_game(options, seed, [GreedyPolicy(seed * 8 + s) for s in range(options.players)])
    state = new_game(options, seed)
    states = []
    for i, text in enumerate(record.log):
        from engine import parse_action

        if i % every == 0:
            states.append(state)
        state = apply(state, parse_action(text)).state
    return states


PINK_TILES = sorted(t for t, tile in TILES.items() if tile.colour == "pink" and tile.pack is None)


def _candidates(state: GameState, rng: Rng) -> list[Action]:
    """Every legal action, and a few random Masters (Master is not enumerated)."""
    actions = list(legal_actions(state))
    options = master_options(state)
    if options is not None:
        actions += [options.sample(rng) for _ in range(4)]
    return actions


GAMES = (
    (Options(players=2, finesse=True), 3),
    (Options(players=3, finesse=True, ghost=True), 5),
)


@pytest.mark.parametrize("tile", PINK_TILES)
def test_predicted_pink_credits_match_what_the_engine_pays(tile: str) -> None:
    rng = Rng(7)
    checked = paying = 0
    for options, seed in GAMES:
        for state in _states(options, seed, every=7):
            if state.phase is not Phase.PLAY:
                continue
            state = finesse(state, tile, active=[0] * len(state.players))
            seat = state.acting_seat
            for action in _candidates(state, rng):
                events = apply(state, action).events
                paid = sum(1 for e in events if isinstance(e, CreditEarned) and e.seat == seat
                           and e.tile == TILES[tile].label)
                assert pink_credits(state, seat, action) == paid, (tile, str(action))
                checked += 1
                paying += paid > 0
    assert checked > 200 and paying > 0, (checked, paying)


# -- greedy prefers the move the live tile pays for ----------------------------------------------


def test_among_equal_completions_greedy_takes_the_one_the_live_tile_pays_for() -> None:
    """Two 2-point puzzles, each completed by one piece held: an L4 (paid by tile A1, I, L, O)
    and a T4 (not paid). Without Finesse greedy picks by card id (the T4 card); with A1 live it
    completes the L4 one."""
    l4 = shape_card(Shape.L4, "Y1")
    t4 = shape_card(Shape.T4, "Y2")
    state = with_cards(new_game(Options(players=2, finesse=True), seed=1), [l4, t4])
    state = with_player(state.evolve(current=0), 0, supply="L4 T4", puzzles=["Y1", "Y2"])
    assert TILES["A1"].shapes == (Shape.I4, Shape.L4, Shape.O4)
    plain = GreedyPolicy(0).choose(finesse(state, "C1"))  # a blue tile: nothing to aim for
    aimed = GreedyPolicy(0).choose(finesse(state, "A1"))
    assert isinstance(plain, Place) and plain.card == "Y2"
    assert isinstance(aimed, Place) and aimed.card == "Y1" and aimed.shape is Shape.L4


def test_among_equal_placements_greedy_places_the_piece_the_live_tile_pays_for() -> None:
    """A 2×3 recess is filled by O4 + domino in two pieces either way. Holding one of each,
    greedy puts the bigger O4 first; with tile C7 (small pieces pay) live, the domino."""
    card = PuzzleCard("Y3", Colour.WHITE, 2, parse_reward("1"), parse_cells("A1 B1 A2 B2 A3 B3"))
    state = with_cards(new_game(Options(players=2, finesse=True), seed=1), [card])
    state = with_player(state.evolve(current=0), 0, supply="2 O4", puzzles=["Y3"])
    state = state.evolve(master_used=True)  # one placement per action: the choice is the piece
    plain = GreedyPolicy(0, goal_min=1, goal_max=1).choose(finesse(state, "C1"))
    aimed = GreedyPolicy(0, goal_min=1, goal_max=1).choose(finesse(state, "C7"))
    assert isinstance(plain, Place) and plain.shape is Shape.O4
    assert isinstance(aimed, Place) and aimed.shape is Shape.DOMINO
    assert pink_credits(finesse(state, "C7"), 0, aimed) == 1


def test_with_the_master_tile_a_last_single_placement_is_played_as_master() -> None:
    card = PuzzleCard("Y3", Colour.WHITE, 2, parse_reward("1"), parse_cells("A1 B1 A2 B2 A3 B3"))
    state = with_cards(new_game(Options(players=2, finesse=True), seed=1), [card])
    state = with_player(state.evolve(current=0), 0, supply="O4", puzzles=["Y3"]).evolve(actions_left=1)
    plain = GreedyPolicy(0, goal_min=1, goal_max=1).choose(finesse(state, "C1"))
    aimed = GreedyPolicy(0, goal_min=1, goal_max=1).choose(finesse(state, "C2"))
    assert isinstance(plain, Place)
    assert isinstance(aimed, Master) and aimed.placements == (plain,)
    outcome = apply(finesse(state, "C2"), aimed)
    assert sum(isinstance(e, CreditEarned) for e in outcome.events) == 1


def test_a_take_that_earns_a_credit_is_worth_more() -> None:
    state = new_game(Options(players=2, finesse=True), seed=1)
    greedy = GreedyPolicy(0)
    card = state.card(state.table.black_row[0])  # type: ignore[union-attr]
    greedy.choose(finesse(state, "C1"))  # reads the live tile: unfinished puzzles pay
    with_tile = greedy._card_value(state, state.players[0], card)
    greedy.choose(finesse(state, "C5"))  # owning small types pays: takes earn nothing
    without = greedy._card_value(state, state.players[0], card)
    assert with_tile is not None and without is not None and with_tile > without


# -- Insert --------------------------------------------------------------------------------------


def _held(state: GameState, active: int) -> GameState:
    state = finesse(state, "C1", active=[active, 0])
    return state.evolve(actions_left=0, held=(0,))


def test_insert_to_complete_a_puzzle_now_and_end_the_turn_when_nothing_useful_follows() -> None:
    l4 = shape_card(Shape.L4, "Y1")
    state = with_cards(new_game(Options(players=2, finesse=True), seed=1), [l4])
    completing = with_player(state.evolve(current=0), 0, supply="L4", puzzles=["Y1"])
    assert GreedyPolicy(0).choose(_held(completing, 2)) == Insert()
    assert GreedyPolicy(0).choose(_held(completing, 1)) == EndTurn()  # not affordable: no Insert


def test_mid_game_greedy_keeps_credits_below_its_reserve_and_spends_them_in_the_last_turn() -> None:
    card = PuzzleCard("Y3", Colour.WHITE, 2, parse_reward("1"), parse_cells("A1 B1 A2 B2 A3 B3"))
    state = with_cards(new_game(Options(players=2, finesse=True), seed=1), [card])
    state = with_player(state.evolve(current=0), 0, supply="O4 2", puzzles=["Y3"])
    reserve = BASE_WEIGHTS.insert_reserve
    assert GreedyPolicy(0).choose(_held(state, 2)) == EndTurn()
    assert GreedyPolicy(0).choose(_held(state, reserve + 2)) == Insert()
    last = finesse(_held(state, 2), row=["C1"], active=[2, 0])
    assert turns_after_this(last, 0) == 0
    assert GreedyPolicy(0).choose(last) == Insert()


# -- the end of a Finesse game ------------------------------------------------------------------


def test_greedy_counts_its_actions_to_the_tenth_tile() -> None:
    state = new_game(Options(players=3, finesse=True), seed=1)
    assert my_actions_left(state) == 3 + 3 * 9  # round 1 of 10: nine more turns
    three_left = finesse(state, row=["C1", "C2", "C3"])
    assert my_actions_left(three_left) == 3 + 3 * 2
    plain = new_game(Options(players=3), seed=1)
    assert my_actions_left(plain) is None  # no end in sight without Finesse
    triggered = three_left.evolve(last_round=three_left.round)  # the base end comes first
    assert my_actions_left(triggered) == 3


def test_line_clear_turns_to_the_tenth_tile_are_the_turns_the_engine_starts() -> None:
    """Two tiles left: what is left of this round, then one more round in which each player
    holds the White and the Black marker once. Played out, every seat starts exactly the
    predicted number of turns before the game ends."""
    state = new_game(Options.for_players(5, finesse=True), seed=4)
    state = finesse(state, row=["C1", "C2"], active=[0] * 5)
    predicted = [turns_after_this(state, seat) for seat in range(5)]
    started = Counter[int]()
    policies = [GreedyPolicy(seat) for seat in range(5)]
    while state.phase is Phase.PLAY:
        outcome = apply(state, policies[state.current].choose(state))
        started.update(e.seat for e in outcome.events if isinstance(e, TurnStarted))
        state = outcome.state
    assert state.last_round is None  # the tile row ended it, not the base trigger
    assert predicted == [started[seat] for seat in range(5)]
    assert sum(predicted) > 2 * 5


# -- the Finesse Solo mastermind: the model is the engine --------------------------------------


def _random_grid(state: GameState, rng: Rng) -> GameState:
    """The same Solo state with a random grid (some slots empty), random locks and a random
    mastermind supply, from the game's own cards."""
    table = state.table
    assert isinstance(table, SoloTable)
    cards = [c for c in (*table.grid, *table.deck) if c is not None]
    rng.shuffle(cards)
    grid = [cards.pop() if rng.below(5) else None for _ in range(9)]
    locks = (rng.below(3), rng.below(3), rng.below(3))
    return with_solo_table(state, grid=tuple(grid), deck=tuple(cards), locks=locks,
                           mastermind_supply=rng.below(3))


def test_the_models_picks_are_the_engines_picks_and_refill_upper_first() -> None:
    rng = Rng(13)
    base = finesse(new_game(Options(players=1, variant="solo", finesse=True), seed=2), "C5",
                   active=[0], row=["C5", "C6"])
    seen_two = seen_none = 0
    for _ in range(300):
        state = _random_grid(base, rng).evolve(actions_left=1)
        table = state.table
        assert isinstance(table, SoloTable)
        points = [None if c is None else state.card(c).points for c in table.grid]
        predicted = mastermind_picks(points, table.locks, 2)
        _, events = play_events(state, TakeLevelOne())
        took = [e for e in events if isinstance(e, MastermindTook)]
        assert [e.position for e in took] == list(predicted)
        assert sum(e.points for e in took) == mastermind_points(points, table.locks, 2)
        refilled = [(e.slot, e.card) for e in events if isinstance(e, CardRevealed)]
        # After both takes, the upper (lower-numbered) slot first, from the top of the deck.
        assert refilled == list(zip(sorted(predicted), table.deck, strict=False))
        if len(took) == 2:
            seen_two += 1
            first, second = took
            assert column_of(first.position) == column_of(second.position)
            column = [p for p in range(1, 10) if column_of(p) == column_of(first.position)
                      and p != first.position and points[p - 1] is not None]
            assert (second.points, second.position) == min((points[p - 1], p) for p in column)
        seen_none += not took
    assert seen_two > 50 and seen_none > 5, (seen_two, seen_none)


def test_greedy_values_denying_the_mastermind_its_second_take() -> None:
    """Column 1 open: 5 points at the top, 1 in the middle, 3 at the bottom. The Finesse
    mastermind takes the 5 and then the 1 (6 points); taking the 1 first leaves it 5 + 3."""
    state = new_game(Options(players=1, variant="solo", finesse=True), seed=2)
    table = state.table
    assert isinstance(table, SoloTable)
    by_points = {}
    for c in (*table.grid, *table.deck):
        if c is not None:
            by_points.setdefault(state.card(c).points, c)
    grid = [by_points[5], None, None, by_points[1], None, None, by_points[3], None, None]
    locked = with_solo_table(state, grid=tuple(grid), locks=(0, 1, 1))
    assert mastermind_points([5, None, None, 1, None, None, 3, None, None], (0, 1, 1), 2) == 6
    denial = mastermind_denial(locked)
    assert denial == {1: 6 - 4, 4: 6 - 8}  # taking the 5 denies 2; taking the 1 gives it 2 more
    one_take = replace(locked.options, finesse=False)
    assert mastermind_denial(locked.evolve(options=one_take)) == {1: 5 - 3}
