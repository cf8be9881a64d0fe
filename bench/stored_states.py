"""What one stored game state costs: its bytes and the time to write it (``engine.serialisation.dumps``),
as the bot stores it now — without the cards, which are kept once per game (state schema 3,
migration 0006) — beside the full form every state used to be stored in, in the same run.

The sample is every state of greedy games of each table kind (2 and 4 players, 6-player Line
Clear with the Ghost Piece expansion, Solo), so early, middle and late positions all count.
Times are CPU time (``time.process_time``) of this process, medians over the sample.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator

import engine
from engine import GameState, Options, serialisation
from engine.policies import policy_by_name

TABLES = (Options.for_players(2), Options.for_players(4), Options.for_players(6), Options.for_players(1))
SEED = 11
REPEATS = 5


def _states(options: Options, seed: int) -> Iterator[GameState]:
    state = engine.new_game(options, seed)
    seats = [policy_by_name("greedy", seed * 8 + seat) for seat in range(len(state.players))]
    yield state
    while not state.is_over:
        state = engine.apply(state, seats[state.acting_seat].choose(state)).state
        yield state


def sample(seed: int = SEED) -> list[GameState]:
    """Every state of one greedy game per table kind."""
    return [state for options in TABLES for state in _states(options, seed)]


def _median_ms(states: list[GameState], dump: Callable[[GameState], str]) -> float:
    times = []
    for state in states:
        started = time.process_time()
        for _ in range(REPEATS):
            dump(state)
        times.append((time.process_time() - started) * 1000 / REPEATS)
    return statistics.median(times)


def figures(seed: int = SEED) -> dict[str, float]:
    """``stored_state_bytes`` / ``_before_`` (mean bytes per stored state) and ``state_dumps_ms``
    / ``_before_`` (median ``dumps`` time): now, without the cards; before, with them."""
    states = sample(seed)
    for state in states:  # every state of a game shares its cards: key them once, as the bot does
        serialisation.dumps(state, cards=False)
    return {
        "stored_state_bytes": round(
            statistics.mean(len(serialisation.dumps(s, cards=False)) for s in states)
        ),
        "stored_state_before_bytes": round(statistics.mean(len(serialisation.dumps(s)) for s in states)),
        "state_dumps_ms": round(_median_ms(states, lambda s: serialisation.dumps(s, cards=False)), 3),
        "state_dumps_before_ms": round(_median_ms(states, lambda s: serialisation.dumps(s)), 3),
        "stored_state_sample": len(states),
    }
