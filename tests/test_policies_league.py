"""The league's opponents built unlike the searches (issue 50): rush-black, hoarder, end-racer and
the hand planner play whole games of every mode legally, deterministically, and as their
docstrings say."""

from __future__ import annotations

import pytest

from engine import Difficulty, Options, apply, new_game
from engine.actions import TakeLevelOne, TakePuzzle, Upgrade
from engine.cards import Colour
from engine.errors import IllegalActionError
from engine.policies import policy_by_name
from engine.policies.hand_planner import hand_value
from engine.simulate import default_cards, play_game

NEW = ("rush_black", "hoarder", "end_racer", "hand_planner")
MODES = [
    Options(players=2),
    Options(players=3, known_scores=False),
    Options(players=4, finesse=True),
    Options(players=2, ghost=True, ambassador=True),
    Options(players=2, phoenix=True, endless_white=True),
    Options.for_players(5),
    Options(players=1, variant="solo", difficulty=Difficulty.NORMAL),
]


@pytest.mark.parametrize("name", NEW)
@pytest.mark.parametrize("options", MODES, ids=lambda o: f"{o.variant}-{o.players}p")
def test_whole_games_of_every_mode_are_legal(name: str, options: Options) -> None:
    """Every seat the new policy, each action checked against the engine, to the end."""
    state = new_game(options, 7, default_cards())
    seats = [policy_by_name(name, 7 + seat) for seat in range(options.players)]
    for _ in range(2000):
        if state.is_over:
            break
        action = seats[state.current].choose(state)
        try:
            state = apply(state, action).state
        except IllegalActionError as error:  # pragma: no cover - the message is the point
            pytest.fail(f"{name} played {action} illegally in turn {state.turn}: {error}")
    assert state.is_over


@pytest.mark.parametrize("name", NEW)
def test_same_seed_same_game(name: str) -> None:
    options = Options(players=2)
    first = play_game(options, 21, [policy_by_name(name, 1), policy_by_name("greedy", 2)])
    again = play_game(options, 21, [policy_by_name(name, 1), policy_by_name("greedy", 2)])
    assert first.log == again.log and first.scores == again.scores


def own_actions(name: str, seed: int) -> list[object]:
    """The actions ``name`` played (seat 0) in a 2-player game against greedy."""
    state = new_game(Options(players=2), seed, default_cards())
    seats = [policy_by_name(name, seed), policy_by_name("greedy", seed + 1)]
    played = []
    while not state.is_over:
        action = seats[state.current].choose(state)
        if state.current == 0:
            played.append(action)
        state = apply(state, action).state
    return played


def test_each_plays_as_its_docstring_says() -> None:
    """Over a few games: the hoarder fetches far more than greedy, the rush-black policy takes more
    black puzzles than greedy."""
    def count(name: str, test: type | tuple[type, ...], colour: Colour | None = None) -> int:
        return sum(isinstance(a, test) and (colour is None or getattr(a, "colour", None) is colour)
                   for seed in range(3) for a in own_actions(name, seed))
    assert count("hoarder", (TakeLevelOne, Upgrade)) > count("greedy", (TakeLevelOne, Upgrade))
    assert count("rush_black", TakePuzzle, Colour.BLACK) > count("greedy", TakePuzzle, Colour.BLACK)


def test_the_hand_value_prefers_a_filled_puzzle_to_a_fetched_piece() -> None:
    """The hand planner's formula: banked points count in full, and a placement that fills a
    puzzle beats a level-1 take."""
    state = new_game(Options(players=2), 3, default_cards())
    seat = state.current
    taken = apply(state, TakePuzzle(Colour.WHITE, 1)).state
    assert hand_value(taken, seat) > 0
    assert hand_value(apply(state, TakeLevelOne()).state, seat) > hand_value(state, seat)
