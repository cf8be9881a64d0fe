"""Play candidate AI levels against the ladder's neighbours on held-out two-player deals (issue 29).

Usage::

    python tools/try_level.py --pair 'expert:{"worlds": 2}' medium --pair expert 'expert:{"worlds": 2}' \
        --games 60 --seed 12500000 [--workers 1]

Why: a lobby level is placed by the share it wins against the level below and loses against the
level above (each step 65–80 %), and a budget for it has to be chosen on deals the ladder bench
(:mod:`bench.ladder`, seeds 1,000,000+) never plays. Each ``--pair UPPER LOWER`` plays ``--games``
games exactly as the ladder bench does (:func:`bench.strong.duel`: seats alternating, the upper
level seeded with the game's seed, the lower with seed + 7919), game ``i`` dealt from
``seed + i``, the pairs interleaved so a run stopped early holds every pair on an equal sample.

A level is a policy name (``greedy``, ``medium``, ``strong``, ...) or ``expert:JSON``,
``strong:JSON`` or ``ladder_strong:JSON``: that class with those keyword arguments
(``{"worlds": 2, "nodes": 600}``, ``{"work": 5000, "rollouts": 64}``, ``{"expert_share": 0.3}``;
``{"expert_share": 0.15, "base": "medium"}``: Medium's search for the turns the Expert does not plan);
an expert's ``weights`` is a dict of :class:`~engine.policies.expert.ExpertWeights` fields
replacing the shipped ones.
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
from engine.policies import (  # noqa: E402
    EXPERT_WEIGHTS,
    ExpertPolicy,
    LadderStrongPolicy,
    Policy,
    StrongPolicy,
    policy_by_name,
)

CLASSES: dict[str, Any] = {
    "expert": ExpertPolicy, "strong": StrongPolicy, "ladder_strong": LadderStrongPolicy,
}
"""The classes a level written as ``name:JSON`` may configure."""


def level(text: str, seed: int) -> Policy:
    """The policy a level's text names, seeded."""
    name, _, text_kwargs = text.partition(":")
    if not text_kwargs:
        return policy_by_name(name, seed)
    kwargs = json.loads(text_kwargs)
    if "weights" in kwargs:
        kwargs["weights"] = dataclasses.replace(EXPERT_WEIGHTS, **kwargs["weights"])
    if "base" in kwargs:  # ladder_strong's other search: a Strong-family level named instead of Strong
        kwargs["strong"] = policy_by_name(kwargs.pop("base"), seed)
    policy: Policy = CLASSES[name](seed, **kwargs)
    return policy


def play_one(job: Job) -> Result:
    """One game: (pair as JSON [upper, lower], index, seed) -> (upper's result, its margin, [])."""
    pair, index, seed = job
    upper, lower = json.loads(pair)
    result, margin = duel(level(upper, seed), level(lower, seed + 7919), index, seed)
    return result, margin, []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pair", nargs=2, action="append", required=True, metavar=("UPPER", "LOWER"))
    parser.add_argument("--games", type=int, default=60, help="games per pair")
    parser.add_argument("--seed", type=int, default=12_500_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    pairs = [json.dumps(pair) for pair in args.pair]
    jobs: list[Job] = [(pair, i, args.seed + i) for i in range(args.games) for pair in pairs]
    results = run_jobs(jobs, args.workers, play_one, "level")
    for pair in pairs:
        mine = [r for j, r in zip(jobs, results, strict=True) if j[0] == pair]
        n = len(mine)
        margins = [r[1] for r in mine]
        mean = sum(margins) / n
        var = sum((m - mean) ** 2 for m in margins) / max(1, n - 1)
        print(json.dumps({"pair": json.loads(pair), "games": n, "first_seed": args.seed,
                          "upper_share": round(sum(r[0] for r in mine) / n, 4),
                          "mean_margin": round(mean, 3), "margin_se": round((var / n) ** 0.5, 3)}))


if __name__ == "__main__":
    main()
