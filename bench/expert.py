"""The expert policy's bench games: two-player games against the Strong policy and against greedy,
summed up by :mod:`bench.engine` (win shares and the decision percentile).

Seats alternate (game ``i`` seats the expert first when ``i`` is even), game ``i`` is dealt from
seed ``seed + i`` (the bench's seeds 0–399; the expert's weights were chosen on games dealt from
seeds 5,000 and up, so the bench's deals were never used for tuning), a shared win counts one
half. Every choice the expert made by searching is timed in CPU seconds of the process playing.
An expert game costs some 20 s of CPU (about 100 searches of 0.2 s), a game against Strong 3.5 s
more: the quick bench plays :data:`EXPERT_GAMES` per opponent, ``--expert-games 400`` is the
full measurement (hours on 2 cores).
"""

from __future__ import annotations

import time
from multiprocessing import Pool
from typing import Any

from engine.policies import ExpertPolicy, GreedyPolicy, Policy, StrongPolicy

from .strong import PROGRESS_EVERY, Job, Result, StrongGames, Timed, duel, interleaved

EXPERT_GAMES = 2
"""Games per opponent in the quick bench (one in each seat): a smoke figure, not a measurement."""
OPPONENTS = ("strong", "greedy")


def play_one(job: Job) -> Result:
    """One game: (opponent, index, seed) -> (expert's result 1 / 0.5 / 0, its margin, search times)."""
    opponent, index, seed = job
    expert = Timed(ExpertPolicy(seed))
    other: Policy = StrongPolicy(seed + 7919) if opponent == "strong" else GreedyPolicy(seed + 7919)
    result, margin = duel(expert, other, index, seed)
    return result, margin, expert.times


def expert_games(games: int, *, workers: int = 1, seed: int = 0) -> StrongGames:
    """``games`` two-player games against each of :data:`OPPONENTS`, interleaved."""
    start = time.perf_counter()
    jobs = interleaved(games, 0, seed, OPPONENTS)
    played = StrongGames()
    if workers <= 1:
        results = (play_one(job) for job in jobs)
        pairs = zip(jobs, results, strict=True)
        _collect(played, pairs, len(jobs))
    else:
        with Pool(workers) as pool:
            _collect(played, zip(jobs, pool.imap(play_one, jobs, chunksize=1), strict=True), len(jobs))
    played.wall_s = time.perf_counter() - start
    return played


def _collect(played: StrongGames, pairs: Any, total: int) -> None:
    done = 0
    for (opponent, _, _), result in pairs:
        played.results.setdefault(opponent, []).append(result)
        done += 1
        if done % PROGRESS_EVERY == 0:
            rates = ", ".join(f"{name} {played.rate(name):.1%} of {len(r)}"
                              for name, r in played.results.items())
            print(f"  expert games: {done}/{total}; won {rates}", flush=True)
