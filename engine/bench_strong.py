"""How good and how fast the strong policy is: the ``strong_*`` figures of ``python -m engine bench``.

* ``strong_vs_greedy_2p`` — fraction of two-player games the strong policy wins against
  :class:`~engine.policies.GreedyPolicy` (a shared win counts one half). Seats alternate: game
  ``i`` seats the strong policy first when ``i`` is even, second when odd; game ``i`` is dealt
  from seed ``seed + i``.
* ``strong_vs_tuned_greedy_2p`` — the same against a greedy with other weights
  (:data:`TUNED_GREEDY`, the first weight set ``tools/tune_greedy.py`` found: it plays two-player
  games differently from the default).
* ``strong_decision_p95_s`` — 95th percentile of the CPU time (``time.process_time`` of the
  process playing, so other load on the machine does not count) of every move the strong policy
  chose by searching, over all those games. Moves it played from a plan made earlier in the turn
  cost nothing and are left out, so this is the cost of a real decision.
* ``strong_solo_win_rate`` — {difficulty: fraction of Solo games the strong policy wins}.

The games are independent, so ``workers`` processes share them (``multiprocessing.Pool``); each
process measures its own CPU time, so the figures do not depend on how many run at once (only on
how busy the cores are, through caches). A run is long — a two-player game costs the strong
policy about 2 s of CPU — so the default sample is small for quick checks; the figures reported in
docs/benchmarks.md come from ``--strong-games 400``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from multiprocessing import Pool
from typing import Any

from .policies import GreedyPolicy, Policy, StrongPolicy
from .simulate import play_game
from .state import Difficulty, GameState, Options

CLOCK = time.process_time
STRONG_GAMES = 40
"""Two-player games per opponent in a quick run (``--strong-games`` raises it)."""
STRONG_SOLO_GAMES = 20
"""Solo games per difficulty in a quick run (``--strong-solo-games`` raises it)."""
PROGRESS_EVERY = 20
TUNED_GREEDY: dict[str, Any] = {"hoard_limit": 3, "reward_weight": 0.33, "fetch_cost": 0.28, "rich_at": 6}


class _Timed:
    """Wraps a StrongPolicy: the CPU time of every choice that ran a search."""

    def __init__(self, policy: StrongPolicy) -> None:
        self.policy = policy
        self.times: list[float] = []

    def choose(self, state: GameState) -> Any:
        before = self.policy.searches
        start = CLOCK()
        action = self.policy.choose(state)
        if self.policy.searches > before:
            self.times.append(CLOCK() - start)
        return action


def play_one(job: tuple[str, int, int]) -> tuple[float, float, list[float]]:
    """One bench game: (strong's result 1 / 0.5 / 0, strong's margin, search CPU times).

    ``job`` is (opponent, game index, seed): opponent "greedy" or "tuned" (two players, strong
    first on even indexes) or a Solo difficulty.
    """
    opponent, index, seed = job
    strong = _Timed(StrongPolicy(seed))
    if opponent in ("greedy", "tuned"):
        weights = TUNED_GREEDY if opponent == "tuned" else {}
        other = GreedyPolicy(seed + 7919, **weights)
        seat = index % 2
        seats: list[Policy] = [strong, other] if seat == 0 else [other, strong]
        record = play_game(Options(players=2), seed, seats, keep_log=False)
        rival = record.scores[1 - seat]
    else:
        seat = 0
        options = Options(players=1, variant="solo", difficulty=Difficulty(opponent))
        record = play_game(options, seed, [strong], keep_log=False)
        rival = record.mastermind or 0
    won = seat in record.winners
    result = (1.0 / len(record.winners)) if won else 0.0
    return result, float(record.scores[seat] - rival), strong.times


def _run(jobs: list[tuple[str, int, int]], workers: int) -> list[tuple[float, float, list[float]]]:
    """Every job's result, in order; a progress line every ``PROGRESS_EVERY`` games (a full run
    takes long enough that a reader wants to see it move, and to read partial figures)."""
    results: list[tuple[float, float, list[float]]] = []
    tally: dict[str, list[float]] = {}

    def record(job: tuple[str, int, int], result: tuple[float, float, list[float]]) -> None:
        results.append(result)
        tally.setdefault(job[0], []).append(result[0])
        if len(results) % PROGRESS_EVERY == 0:
            rates = ", ".join(f"{name} {sum(r) / len(r):.1%} of {len(r)}" for name, r in tally.items())
            print(f"  strong bench: {len(results)}/{len(jobs)} games; won {rates}", flush=True)

    if workers <= 1:
        for job in jobs:
            record(job, play_one(job))
        return results
    with Pool(workers) as pool:
        for job, result in zip(jobs, pool.imap(play_one, jobs, chunksize=1), strict=True):
            record(job, result)
    return results


def interleaved(games: int, solo_games: int, seed: int) -> list[tuple[str, int, int]]:
    """Every bench game as a job (opponent, index, seed), taken in turn from each opponent and
    difficulty, so that the progress lines of a run stopped early hold every figure on a sample
    of the same size (a game's result depends only on its job, not on the order)."""
    queues = [[("greedy", i, seed + i) for i in range(games)], [("tuned", i, seed + i) for i in range(games)]]
    queues += [[(d.value, i, seed + i) for i in range(solo_games)] for d in Difficulty]
    jobs: list[tuple[str, int, int]] = []
    for row in itertools.zip_longest(*queues):
        jobs.extend(job for job in row if job is not None)
    return jobs


def percentile(values: Iterable[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_strong(
    games: int = STRONG_GAMES, solo_games: int = STRONG_SOLO_GAMES, *, workers: int = 1, seed: int = 0,
) -> dict[str, Any]:
    """Play the bench's strong-policy games (see the module) and return the figures."""
    start = time.perf_counter()
    jobs = interleaved(games, solo_games, seed)
    results = _run(jobs, workers)
    by: dict[str, list[tuple[float, float, list[float]]]] = {}
    for (opponent, _, _), result in zip(jobs, results, strict=True):
        by.setdefault(opponent, []).append(result)
    times = [t for result in results for t in result[2]]

    def rate(name: str) -> float:
        rows = by.get(name, [])
        return round(sum(r[0] for r in rows) / len(rows), 4) if rows else 0.0

    def margin(name: str) -> float:
        rows = by.get(name, [])
        return round(sum(r[1] for r in rows) / len(rows), 2) if rows else 0.0

    figures = {
        "strong_vs_greedy_2p": rate("greedy"),
        "strong_vs_tuned_greedy_2p": rate("tuned"),
        "strong_decision_p95_s": round(percentile(times, 0.95), 4),
        "strong_decision_mean_s": round(sum(times) / len(times), 4) if times else 0.0,
        "strong_solo_win_rate": {d.value: rate(d.value) for d in Difficulty},
        "strong_mean_margin": {name: margin(name) for name in by},
        "strong_games": {name: len(rows) for name, rows in by.items()},
        "strong_decisions": len(times),
    }
    print(
        f"strong 2p: won {figures['strong_vs_greedy_2p']:.1%} of {games} vs greedy, "
        f"{figures['strong_vs_tuned_greedy_2p']:.1%} vs tuned greedy; decision p95 "
        f"{figures['strong_decision_p95_s']:.3f} s CPU over {len(times)} searches; solo "
        f"{figures['strong_solo_win_rate']} ({solo_games} per difficulty); "
        f"{time.perf_counter() - start:.0f} s wall, {workers} worker(s)"
    )
    return figures
