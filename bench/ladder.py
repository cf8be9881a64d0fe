"""The AI ladder's bench games (issue 29): each level against the one below, summed up by
:mod:`bench.ai` (``ladder_<upper>_vs_<lower>_2p``, each held to 65–85 %, :mod:`bench.budgets`;
the ruling of issue 50, docs/ai.md).

Easy (greedy) < Medium < Strong < Expert: a player who outgrows one level should find the next
one clearly stronger (it wins at least 65 % against the level below) yet still beatable by
someone who plays at the level below (at most 85 %). The pairs play two-player games exactly as
:mod:`bench.strong` does (:func:`bench.strong.duel`: seats alternating, a shared win counting one
half; the upper level seeded with the game's seed, the lower with seed + 7919), taken in turn
from each pair (:func:`bench.strong.interleaved`, so the progress lines of a run stopped early
hold every pair on an equal sample).

The deals are held out: game ``i`` is dealt from seed ``LADDER_SEED + seed + i`` (1,000,000 and
up), seeds that no tuning ever played — Medium's budget was chosen on games dealt from seeds 0
and up, the expert's weights on seeds 5,000 and up, the other benches deal from 0–399 — so the
figures are not a tuned sample's own score.

Cost per game, CPU (measured 2026-12-03 over 100 games each): Medium against greedy 1.2 s, Strong
against Medium 11 s, Expert against Strong 15 s: some three hours of CPU at 400 games per pair
(the ruling's least sample).
"""

from __future__ import annotations

from typing import Any

from engine.policies import policy_by_name

from .strong import Job, Result, StrongGames, duel, interleaved, play_jobs

LADDER_SEED = 1_000_000
"""Where the ladder's deals start: far from every seed the tuning and the other benches use."""
LADDER_GAMES = 400
"""Two-player games per pair."""
PAIRS: dict[str, tuple[str, str]] = {
    "medium_vs_greedy": ("medium", "greedy"),
    "strong_vs_medium": ("ladder_strong", "medium"),
    "expert_vs_strong": ("expert", "ladder_strong"),
}
"""Each ladder step by its name: (the upper level, the lower), as policy names. The Strong level
is the lobby's (``ladder_strong``), not the frozen ``strong`` baseline the engine bench measures
the Expert against (docs/ai.md)."""


def play_one(job: Job) -> Result:
    """One game of a pair: (pair, index, seed) -> (the upper level's result, its margin, no times)."""
    pair, index, seed = job
    upper, lower = PAIRS[pair]
    result, margin = duel(policy_by_name(upper, seed), policy_by_name(lower, seed + 7919), index, seed)
    return result, margin, []


def ladder_jobs(games: int, seed: int = 0) -> list[Job]:
    """``games`` jobs per pair, the pairs in turn, game ``i`` dealt from ``LADDER_SEED + seed + i``."""
    return interleaved(games, 0, LADDER_SEED + seed, tuple(PAIRS))


def ladder_games(games: int, *, workers: int = 1, seed: int = 0) -> StrongGames:
    """``games`` games of every pair in :data:`PAIRS`, dealt from the held-out seeds."""
    return play_jobs(ladder_jobs(games, seed), workers, play_one, "ladder")


def bench_ladder(games: int, *, workers: int = 1, seed: int = 0) -> dict[str, Any]:
    """Play the ladder's games and return its figures: ``ladder_<pair>_2p`` (the upper level's
    win share) per pair, and the mean margins, game counts and first seed for the JSON."""
    played = ladder_games(games, workers=workers, seed=seed)
    figures: dict[str, Any] = {f"ladder_{pair}_2p": played.rate(pair) for pair in PAIRS}
    figures["ladder_mean_margin"] = {pair: played.margin(pair) for pair in PAIRS}
    figures["ladder_games"] = {pair: len(played.results.get(pair, [])) for pair in PAIRS}
    figures["ladder_first_seed"] = LADDER_SEED + seed
    rates = ", ".join(f"{pair} {played.rate(pair):.1%}" for pair in PAIRS)
    print(f"ladder 2p: {rates} of {games} games each (seeds from {LADDER_SEED + seed}); "
          f"{played.wall_s:.0f} s wall, {workers} worker(s)")
    return figures
