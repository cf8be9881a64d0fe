"""The turn planner (the league's strong held-out outsider): registered and held out, legal in every
mode, deterministic from the position, blind to hidden cards, and its formula reads a position as
its docstring says."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_policy_strong import _shuffle_decks, _states, _swap_hidden_piles

from bench import league
from engine import Difficulty, Options, apply, new_game
from engine.actions import DrawPuzzle, TakeLevelOne, TakePuzzle
from engine.cards import Colour
from engine.errors import IllegalActionError
from engine.policies import POLICIES, policy_by_name
from engine.policies.turn_planner import TurnPlannerPolicy, position_value, turn_value
from engine.rng import Rng
from engine.simulate import default_cards, play_game


def test_registered_and_held_out() -> None:
    assert POLICIES["turn_planner"] is TurnPlannerPolicy
    assert isinstance(policy_by_name("turn_planner", 3), TurnPlannerPolicy)
    assert "turn_planner" in league.MEMBERS and "turn_planner" in league.HELD_OUT


def test_same_position_same_turn() -> None:
    for state in _states(Options(players=2), 4, every=9)[:3]:
        assert TurnPlannerPolicy(9)._search(state) == TurnPlannerPolicy(9)._search(state)


def test_hidden_deck_order_changes_nothing() -> None:
    rng = Rng(77)
    checked = 0
    for state in _states(Options(players=2), 12, every=5)[:8]:
        other = _shuffle_decks(state, rng)
        if other == state:
            continue
        assert TurnPlannerPolicy(5)._search(state) == TurnPlannerPolicy(5)._search(other), (
            f"turn {state.turn}: the deck order leaked")
        checked += 1
    assert checked >= 3


def test_face_down_score_piles_change_nothing() -> None:
    options = Options(players=2, known_scores=False)
    rng = Rng(5)
    states = [s for s in _states(options, 21, every=2)
              if any(p.completed for i, p in enumerate(s.players) if i != s.current)][::4][:3]
    assert states
    for state in states:
        other = _shuffle_decks(_swap_hidden_piles(state), rng)
        assert other.players != state.players
        assert TurnPlannerPolicy(5)._search(state) == TurnPlannerPolicy(5)._search(other), (
            f"turn {state.turn}: a face-down score pile leaked")


def test_spare_pieces_have_diminishing_returns() -> None:
    """A first level-1 piece is worth more than a sixth: the formula does not reward hoarding."""
    state = new_game(Options(players=2), 3, default_cards())
    seat = state.current
    player = state.players[seat]
    values = []
    for extra in range(7):
        supply = list(player.supply)
        supply[0] += extra
        held = state.evolve(players=tuple(replace(p, supply=tuple(supply)) if i == seat else p
                                          for i, p in enumerate(state.players)))
        values.append(position_value(held, seat))
    gains = [b - a for a, b in zip(values, values[1:], strict=False)]
    assert all(g > 0 for g in gains) and gains[-1] < gains[0] / 3


def test_a_puzzle_the_supply_fills_is_worth_taking() -> None:
    """Taking a white puzzle the starting pieces can fill beats taking a level-1 piece."""
    state = new_game(Options(players=2), 3, default_cards())
    seat = state.current
    takes = [apply(state, TakePuzzle(Colour.WHITE, i)).state for i in range(1, 5)]
    assert max(turn_value(t, seat) for t in takes) > turn_value(apply(state, TakeLevelOne()).state, seat)


def test_a_blind_draw_is_valued_over_several_cards() -> None:
    """A blind draw's value is a mean over what the deck may hold, not the one card on top."""
    state = new_game(Options(players=2), 3, default_cards())
    seat = state.current
    planner = TurnPlannerPolicy(1)
    draw = DrawPuzzle(Colour.WHITE)
    seen = turn_value(apply(state, draw).state, seat)
    blind = planner._blind_value(state, draw, seat, seen)
    assert blind != seen
    assert TurnPlannerPolicy(1, draw_worlds=1)._blind_value(state, draw, seat, seen) == seen


MODES = [
    Options(players=2),
    Options(players=3, known_scores=False),
    Options(players=4, finesse=True),
    Options(players=2, ghost=True, ambassador=True),
    Options(players=2, phoenix=True, endless_white=True),
    Options.for_players(5),
    Options(players=1, variant="solo", difficulty=Difficulty.NORMAL),
]


@pytest.mark.parametrize("options", MODES, ids=lambda o: f"{o.variant}-{o.players}p")
def test_whole_games_of_every_mode_are_legal(options: Options) -> None:
    """A narrow planner (the same code paths, less width) in the last seat, greedy in the others,
    each action checked against the engine, to the end."""
    state = new_game(options, 7, default_cards())
    planner = options.players - 1
    seats = [TurnPlannerPolicy(7, width=3, draw_worlds=2) if seat == planner
             else policy_by_name("greedy", seat) for seat in range(options.players)]
    for _ in range(2000):
        if state.is_over:
            break
        action = seats[state.current].choose(state)
        try:
            state = apply(state, action).state
        except IllegalActionError as error:  # pragma: no cover - the message is the point
            pytest.fail(f"turn_planner played {action} illegally in turn {state.turn}: {error}")
    assert state.is_over


def test_same_seed_same_game() -> None:
    first = play_game(Options(players=2), 21, [TurnPlannerPolicy(1, width=4), policy_by_name("greedy", 2)])
    again = play_game(Options(players=2), 21, [TurnPlannerPolicy(1, width=4), policy_by_name("greedy", 2)])
    assert first.log == again.log and first.scores == again.scores
