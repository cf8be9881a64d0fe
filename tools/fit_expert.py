"""Fit the expert evaluation's ``potential`` (engine/policies/expert.py) from two-player games.

Usage::

    python tools/fit_expert.py --games 80 [--opponent strong] [--seed 8000000] [--potential 1.0]

Why: the expert ranks positions by :func:`engine.policies.expert.evaluate`, banked points plus
``potential`` times the value of what is not banked yet (open puzzles, pieces, credits). How much
that unbanked value is really worth is an empirical question: this plays Expert games against
``--opponent`` (paired deals: game ``2k`` and ``2k + 1`` are dealt from ``seed + k``, the expert
first in one and second in the other, through :func:`bench.strong.duel`), reads both seats'
:func:`~engine.policies.expert.evaluation_terms` at the start of every turn, and regresses the
expert's final margin on the two differences (the expert's banked points less the opponent's,
the same for the unbanked value), through the origin (the game is symmetric). ``potential`` is the
ratio of the two coefficients: what a point of unbanked value is worth against a banked point.
The expert playing the games uses ``--potential`` (default: the shipped weights'), so the fit can
be iterated. Positions of one game are correlated; the spread printed is a bootstrap over games
(the 10th and 90th percentiles of the ratio), which is the honest error bar.

It prints one JSON line: the fitted ``potential``, both coefficients, the spread, the games and
positions used, and the win share of the games played (a by-product, not a measurement). Seeds
8,000,000 and up are the tuning's own (no bench deals from there).

What it found (2026-12-03; the same regression, run over 80 games against Strong, seeds
8,000,000–8,000,039, the expert at ``potential`` 1): 0.21 (10th–90th percentile 0.13–0.33); the
shipped 0.5 and what it did in games: :data:`engine.policies.expert.EXPERT_WEIGHTS`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.strong import Job, Result, duel, run_jobs  # noqa: E402
from engine.policies import EXPERT_WEIGHTS, ExpertPolicy, policy_by_name  # noqa: E402
from engine.policies.expert import evaluation_terms  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.state import ACTIONS_PER_TURN, GameState, Phase  # noqa: E402


class Recorder:
    """Wraps a seat's policy: at the start of each turn it notes the expert's (banked, unbanked)
    difference over the other seat."""

    def __init__(self, policy: Any, expert_seat: int, rows: list[float]) -> None:
        self.policy = policy
        self.expert_seat = expert_seat
        self.rows = rows

    def choose(self, state: GameState) -> Any:
        if state.phase is Phase.PLAY and state.actions_left == ACTIONS_PER_TURN and not state.pending:
            mine = evaluation_terms(state, self.expert_seat)
            theirs = evaluation_terms(state, 1 - self.expert_seat)
            self.rows.extend((mine[0] - theirs[0], mine[1] - theirs[1]))
        return self.policy.choose(state)


def job_name(opponent: str, potential: float) -> str:
    """A job's first field: the opponent and the playing expert's ``potential``, so that a worker
    process reads both from its job (nothing from the parent's globals, whatever the start method)."""
    return f"{opponent}@{potential}"


def play_one(job: Job) -> Result:
    """One game: (``job_name``, index, seed) -> (the expert's result, its margin, the positions'
    differences as a flat list of (banked, unbanked) pairs, in the slot the benches use for times)."""
    name, index, seed = job
    opponent, potential = name.rsplit("@", 1)
    weights = dataclasses.replace(EXPERT_WEIGHTS, potential=float(potential))
    rows: list[float] = []
    seat = index % 2
    expert = Recorder(ExpertPolicy(seed, weights=weights), seat, rows)
    other = Recorder(policy_by_name(opponent, seed + 7919), seat, rows)
    result, margin = duel(expert, other, index, seed)
    return result, margin, rows


def fit(results: list[Result]) -> tuple[float, float]:
    """Least squares through the origin of the final margin on (banked, unbanked) differences."""
    sxx = sxy = syy = sxm = sym = 0.0
    for _, margin, rows in results:
        for i in range(0, len(rows), 2):
            x, y = rows[i], rows[i + 1]
            sxx, sxy, syy = sxx + x * x, sxy + x * y, syy + y * y
            sxm, sym = sxm + x * margin, sym + y * margin
    det = sxx * syy - sxy * sxy
    if det == 0:
        return 0.0, 0.0
    return (syy * sxm - sxy * sym) / det, (sxx * sym - sxy * sxm) / det


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=80, help="games (pairs of seats on one deal)")
    parser.add_argument("--opponent", default="strong", help="policy name of the other seat")
    parser.add_argument("--seed", type=int, default=8_000_000, help="first deal")
    parser.add_argument("--potential", type=float, default=EXPERT_WEIGHTS.potential,
                        help="the playing expert's potential")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    name = job_name(args.opponent, args.potential)
    jobs: list[Job] = [(name, i, args.seed + i // 2) for i in range(args.games)]
    results = run_jobs(jobs, args.workers, play_one, "fit")
    banked, unbanked = fit(results)
    rng = Rng(1)
    ratios = []
    for _ in range(200):
        sample = [results[rng.below(len(results))] for _ in results]
        b, u = fit(sample)
        if b:
            ratios.append(u / b)
    ratios.sort()
    print(json.dumps({
        "potential": round(unbanked / banked, 3) if banked else None,
        "banked_coef": round(banked, 3), "unbanked_coef": round(unbanked, 3),
        "potential_p10_p90": [round(ratios[len(ratios) // 10], 3), round(ratios[9 * len(ratios) // 10], 3)]
        if ratios else None,
        "games": len(results), "positions": sum(len(r[2]) // 2 for r in results),
        "expert_win_share": round(sum(r[0] for r in results) / len(results), 4),
        "played_with_potential": args.potential, "opponent": args.opponent, "first_seed": args.seed,
    }))


if __name__ == "__main__":
    main()
