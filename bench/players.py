"""Simulated players for benchmarks, soak runs and hardening tests.

Uniformly random legal play stalls: base games almost never end because nobody takes black cards.
:func:`choose_action` is biased towards progress (place, take black, upgrade) so simulated games
move through every phase — Finishing Touches and the end included — which is what the crash and
load runs need to exercise. It is seeded, so a run can be repeated exactly.
"""

from __future__ import annotations

import random

import engine
from engine import Action, Colour, DrawPuzzle, GameState, Place, TakeLevelOne, TakePuzzle, Upgrade
from engine.rng import Rng


def choose_action(state: GameState, rng: random.Random) -> Action:
    """A legal action for the current player of ``state``, biased towards finishing the game."""
    legal = engine.legal_actions(state)
    if state.phase is engine.Phase.PLAY and rng.random() < 0.05:
        options = engine.master_options(state)
        if options is not None:
            return options.sample(Rng(rng.getrandbits(64)))
    places = [a for a in legal if isinstance(a, Place)]
    if places and rng.random() < 0.85:
        return rng.choice(places)
    takes = [a for a in legal if isinstance(a, (TakePuzzle, DrawPuzzle))]
    black = [a for a in takes if a.colour is Colour.BLACK]
    if black and rng.random() < 0.3:
        return rng.choice(black)
    if takes and rng.random() < 0.5:
        return rng.choice(takes)
    upgrades = [a for a in legal if isinstance(a, Upgrade) and a.take.level > a.give.level]
    if upgrades and rng.random() < 0.6:
        return rng.choice(upgrades)
    if any(isinstance(a, TakeLevelOne) for a in legal) and rng.random() < 0.8:
        return TakeLevelOne()
    if legal:
        return rng.choice(legal)
    options = engine.master_options(state)
    if options is not None:
        return options.sample(Rng(rng.getrandbits(64)))
    return engine.Pass()


class RandomPolicy:
    """A manager policy seat (``policies(name, seed)``) that plays :func:`choose_action`."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        return choose_action(state, self._rng)


def policy_factory(name: str, seed: int) -> RandomPolicy:
    """``GameManager(policies=...)``: every policy name plays the biased random player.

    The engine's own policies are not needed here (and keep the bench independent of them)."""
    return RandomPolicy(seed)
