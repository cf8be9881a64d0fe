"""Deterministic sample games, for the benchmark, the README examples and the tests.

By default the seats are the engine's own :class:`~engine.policies.RandomPolicy` players: random,
but with the guards that let a game finish, so every phase — play, last round, Finishing
Touches, game over — shows up in a few hundred actions, and the same seed always gives the same
states. ``policy="greedy"`` plays a realistic game instead (the README's example images).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine import GameState, Options, Phase, apply, new_game
from engine.policies import policy_by_name

NAMES = ("Ana", "Bartholomew", "Chloé", "Dev", "Eun-ji", "Farouk")


def play(options: Options, seed: int, max_actions: int = 400, policy: str = "random") -> Iterator[GameState]:
    """Every state of one sample game, from setup to game over (or ``max_actions``)."""
    state = new_game(options, seed)
    seats = [policy_by_name(policy, seed * 8 + seat) for seat in range(len(state.players))]
    yield state
    for _ in range(max_actions):
        if state.phase is Phase.OVER:
            return
        state = apply(state, seats[state.current].choose(state)).state
        yield state


def names_for(state: GameState) -> tuple[str, ...]:
    return NAMES[: len(state.players)]


def mid_game(options: Options, seed: int, fraction: float = 0.5) -> GameState:
    """A state part-way through a sample game (by action count)."""
    states = list(play(options, seed))
    return states[int((len(states) - 1) * fraction)]


def first_state(options: Options, seed: int, *, where: str) -> GameState | None:
    """The first state of a sample game matching ``where``: 'end', 'finishing' or 'over'."""
    for state in play(options, seed):
        if where == "end" and state.last_round is not None and state.phase is Phase.PLAY:
            return state
        if where == "finishing" and state.phase is Phase.FINISHING:
            return state
        if where == "over" and state.phase is Phase.OVER:
            return state
    return None
