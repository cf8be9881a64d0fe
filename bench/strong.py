"""The strong policy's bench games: played here, summed up by :mod:`bench.ai` (how often it wins)
and :mod:`bench.engine` (how long a decision takes).

* Two-player games against :class:`~engine.policies.GreedyPolicy` ("greedy") and against a
  greedy with other weights ("tuned", :data:`TUNED_GREEDY`, the first weight set
  ``tools/tune_greedy.py`` found: it plays two-player games differently from the default). Seats
  alternate: game ``i`` seats the strong policy first when ``i`` is even, second when odd; game
  ``i`` is dealt from seed ``seed + i``. A shared win counts one half.
* Solo games per difficulty.
* Every move the strong policy chose by searching is timed in CPU seconds (``time.process_time``
  of the process playing, so other load on the machine does not count). Moves it played from a
  plan made earlier in the turn cost nothing and are left out, so the times are the cost of a
  real decision.

The games are independent, so ``workers`` processes share them (``multiprocessing.Pool``); each
process measures its own CPU time, so the figures do not depend on how many run at once (only on
how busy the cores are, through caches). A two-player game costs the strong policy about 3.5 s
of CPU.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any, Protocol

from engine.policies import GreedyPolicy, Policy, StrongPolicy
from engine.simulate import play_game
from engine.state import Difficulty, GameState, Options

CLOCK = time.process_time
PROGRESS_EVERY = 20
TUNED_GREEDY: dict[str, Any] = {"hoard_limit": 3, "reward_weight": 0.33, "fetch_cost": 0.28, "rich_at": 6}

Job = tuple[str, int, int]
"""(opponent, game index, seed): opponent "greedy" or "tuned" (two players, strong first on even
indexes) or a Solo difficulty."""
Result = tuple[float, float, list[float]]
"""(strong's result 1 / 0.5 / 0, strong's margin, search CPU times)."""


class Searching(Protocol):
    """A policy that counts its searches (the strong and the expert policies)."""

    searches: int

    def choose(self, state: GameState) -> Any: ...


class Timed:
    """Wraps a searching policy: the CPU time of every choice that ran a search (a choice that
    played on from a planned turn costs nothing and is not a decision)."""

    def __init__(self, policy: Searching) -> None:
        self.policy = policy
        self.times: list[float] = []

    def choose(self, state: GameState) -> Any:
        before = self.policy.searches
        start = CLOCK()
        action = self.policy.choose(state)
        if self.policy.searches > before:
            self.times.append(CLOCK() - start)
        return action


def duel(policy: Policy, other: Policy, index: int, seed: int) -> tuple[float, float]:
    """A two-player game dealt from ``seed``, ``policy`` seated first when ``index`` is even and
    second when odd (so a pairing's games share out the first player's edge): ``policy``'s result
    (1, 1/2 for a shared win, 0) and its margin over ``other``. Every two-player bench pairing
    plays through here, so they all count alike."""
    seat = index % 2
    seats: list[Policy] = [policy, other] if seat == 0 else [other, policy]
    record = play_game(Options(players=2), seed, seats, keep_log=False)
    won = seat in record.winners
    result = (1.0 / len(record.winners)) if won else 0.0
    return result, float(record.scores[seat] - record.scores[1 - seat])


def play_one(job: Job) -> Result:
    """One bench game (see :data:`Job` and :data:`Result`)."""
    opponent, index, seed = job
    strong = Timed(StrongPolicy(seed))
    if opponent in ("greedy", "tuned"):
        weights = TUNED_GREEDY if opponent == "tuned" else {}
        result, margin = duel(strong, GreedyPolicy(seed + 7919, **weights), index, seed)
        return result, margin, strong.times
    options = Options(players=1, variant="solo", difficulty=Difficulty(opponent))
    record = play_game(options, seed, [strong], keep_log=False)
    result = (1.0 / len(record.winners)) if 0 in record.winners else 0.0
    return result, float(record.scores[0] - (record.mastermind or 0)), strong.times


def run_jobs(jobs: list[Job], workers: int, play: Callable[[Job], Result] = play_one,
         what: str = "strong") -> list[Result]:
    """Every job's result by ``play`` (a module-level function, so a worker process can run it),
    in order; a progress line every ``PROGRESS_EVERY`` games (a full run takes long enough that a
    reader wants to see it move, and to read partial figures)."""
    results: list[Result] = []
    tally: dict[str, list[float]] = {}

    def record(job: Job, result: Result) -> None:
        results.append(result)
        tally.setdefault(job[0], []).append(result[0])
        if len(results) % PROGRESS_EVERY == 0:
            rates = ", ".join(f"{name} {sum(r) / len(r):.1%} of {len(r)}" for name, r in tally.items())
            print(f"  {what} games: {len(results)}/{len(jobs)}; won {rates}", flush=True)

    if workers <= 1:
        for job in jobs:
            record(job, play(job))
        return results
    with Pool(workers) as pool:
        for job, result in zip(jobs, pool.imap(play, jobs, chunksize=1), strict=True):
            record(job, result)
    return results


def interleaved(games: int, solo_games: int, seed: int, opponents: tuple[str, ...] = ("greedy", "tuned"),
                ) -> list[Job]:
    """Every bench game as a job, taken in turn from each opponent and difficulty, so that the
    progress lines of a run stopped early hold every figure on a sample of the same size (a
    game's result depends only on its job, not on the order)."""
    queues = [[(name, i, seed + i) for i in range(games)] for name in opponents]
    queues += [[(d.value, i, seed + i) for i in range(solo_games)] for d in Difficulty]
    jobs: list[Job] = []
    for row in itertools.zip_longest(*queues):
        jobs.extend(job for job in row if job is not None)
    return jobs


def percentile(values: Iterable[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass
class StrongGames:
    """What a run of bench games found, by opponent (or Solo difficulty)."""

    results: dict[str, list[Result]] = field(default_factory=dict)
    wall_s: float = 0.0

    @property
    def decision_times(self) -> list[float]:
        return [t for rows in self.results.values() for result in rows for t in result[2]]

    def rate(self, name: str) -> float:
        rows = self.results.get(name, [])
        return round(sum(r[0] for r in rows) / len(rows), 4) if rows else 0.0

    def margin(self, name: str) -> float:
        rows = self.results.get(name, [])
        return round(sum(r[1] for r in rows) / len(rows), 2) if rows else 0.0


def play_jobs(jobs: list[Job], workers: int, play: Callable[[Job], Result] = play_one,
              what: str = "strong") -> StrongGames:
    """:func:`run_jobs`, the results filed by each job's opponent (or table kind), with the wall
    time: what every bench of games (Strong, Expert, the ladder) sums up from."""
    start = time.perf_counter()
    played = StrongGames()
    for (opponent, _, _), result in zip(jobs, run_jobs(jobs, workers, play, what), strict=True):
        played.results.setdefault(opponent, []).append(result)
    played.wall_s = time.perf_counter() - start
    return played


def strong_games(
    games: int, solo_games: int, *, workers: int = 1, seed: int = 0,
    opponents: tuple[str, ...] = ("greedy", "tuned"),
) -> StrongGames:
    """Play ``games`` two-player games per opponent and ``solo_games`` Solo games per difficulty."""
    return play_jobs(interleaved(games, solo_games, seed, opponents), workers)


def bench_strong(
    games: int, solo_games: int, *, workers: int = 1, seed: int = 0,
) -> dict[str, Any]:
    """Play the AI bench's strong-policy games and return its figures."""
    played = strong_games(games, solo_games, workers=workers, seed=seed)
    times = played.decision_times
    figures = {
        "strong_vs_greedy_2p": played.rate("greedy"),
        "strong_vs_tuned_greedy_2p": played.rate("tuned"),
        "strong_decision_p95_s": round(percentile(times, 0.95), 4),
        "strong_decision_mean_s": round(sum(times) / len(times), 4) if times else 0.0,
        "strong_solo_win_rate": {d.value: played.rate(d.value) for d in Difficulty},
        "strong_mean_margin": {name: played.margin(name) for name in played.results},
        "strong_games": {name: len(rows) for name, rows in played.results.items()},
        "strong_decisions": len(times),
    }
    print(
        f"strong 2p: won {figures['strong_vs_greedy_2p']:.1%} of {games} vs greedy, "
        f"{figures['strong_vs_tuned_greedy_2p']:.1%} vs tuned greedy; decision p95 "
        f"{figures['strong_decision_p95_s']:.3f} s CPU over {len(times)} searches; solo "
        f"{figures['strong_solo_win_rate']} ({solo_games} per difficulty); "
        f"{played.wall_s:.0f} s wall, {workers} worker(s)"
    )
    return figures
