"""The expert policy's bench games: two-player games against the Strong policy and against greedy,
summed up by :mod:`bench.engine` (win shares and the decision percentile); and its other tables
(:func:`expert_tables`: 3 and 4 players beside greedy, Solo), summed up by :mod:`bench.ai`.

Seats alternate (game ``i`` seats the expert first when ``i`` is even), game ``i`` is dealt from
seed ``seed + i`` (the bench's seeds 0–399; the expert's weights were chosen on games dealt from
seeds 5,000 and up, so the bench's deals were never used for tuning), a shared win counts one
half. Every choice the expert made by searching is timed in CPU seconds of the process playing.
An expert game costs some 20 s of CPU (about 100 searches of 0.2 s), a game against Strong 3.5 s
more: the quick bench plays :data:`EXPERT_GAMES` per opponent, ``--expert-games 400`` is the
full measurement (hours on 2 cores).
"""

from __future__ import annotations

from engine.policies import ExpertPolicy, GreedyPolicy, Policy, StrongPolicy
from engine.simulate import play_game
from engine.state import Difficulty, Options

from .strong import Job, Result, StrongGames, Timed, duel, interleaved, play_jobs

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
    return play_jobs(interleaved(games, 0, seed, OPPONENTS), workers, play_one, "expert")


TABLES = ("3p", "4p", "normal", "unbeatable")
"""The Expert's other tables (issue 29): 3 and 4 players beside greedy seats, and Solo at Normal and
Unbeatable."""
TABLE_SEEDS = 2_000_000
"""Deals of the table games: far from the tuning's seeds (5,000 and up) and the duels' (0–399)."""


def play_table(job: Job) -> Result:
    """One game of a table kind of :data:`TABLES`: (kind, index, seed) -> the expert's result (1,
    1/k for a win shared by k, 0), its margin (over the best other seat, or the mastermind) and
    its search times. With greedy seats, game ``index`` seats the expert at ``index % players``."""
    kind, index, seed = job
    expert = Timed(ExpertPolicy(seed))
    if kind in ("3p", "4p"):
        players = int(kind[0])
        seat = index % players
        seats: list[Policy] = [GreedyPolicy(seed + 7919 + k) for k in range(players)]
        seats[seat] = expert
        record = play_game(Options(players=players), seed, seats, keep_log=False)
        best_other = max(s for k, s in enumerate(record.scores) if k != seat)
        margin = float(record.scores[seat] - best_other)
    else:
        seat = 0
        record = play_game(Options(players=1, variant="solo", difficulty=Difficulty(kind)), seed, [expert],
                           keep_log=False)
        margin = float(record.scores[0] - (record.mastermind or 0))
    result = (1.0 / len(record.winners)) if seat in record.winners else 0.0
    return result, margin, expert.times


def expert_tables(games: int, *, workers: int = 1, seed: int = TABLE_SEEDS) -> StrongGames:
    """``games`` games of each kind of :data:`TABLES`, interleaved, game ``i`` dealt from ``seed + i``."""
    jobs: list[Job] = [(kind, i, seed + i) for i in range(games) for kind in TABLES]
    return play_jobs(jobs, workers, play_table, "expert tables")
