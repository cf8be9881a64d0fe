"""Play one Expert setting against an opponent on paired two-player deals, for tuning (issue 29).

Usage::

    python tools/try_expert.py --spec '{"weights": {"action_value": 0.6}}' --games 80 \
        [--opponent strong] [--seed 8000000] [--workers 2] [--out results.json]

Why: comparing settings is only fair on the same deals from the same seats (paired games, so
the deal's luck cancels), which is what this does: game ``2k`` and ``2k + 1`` are dealt from
``seed + k``, the expert first in one and second in the other (:func:`bench.strong.duel`), the
expert seeded with the deal's seed and the opponent with seed + 7919, as in
``tools/fit_expert.py`` (so its figures and these agree on the same setting).

``--spec`` is JSON (repeat it to play several settings, interleaved deal by deal, so a run stopped
early still holds every setting on the same deals; each later one gets its paired margin difference
over the first, with its standard error): ``ExpertPolicy`` keyword arguments (``worlds``,
``plans``, ``beam``, ``nodes``), and ``weights``, a dict of
:class:`~engine.policies.expert.ExpertWeights` fields replacing the shipped ones. The spec travels
in every job, so worker processes read nothing from the parent. Besides the win share and the mean
margin, each game records the evaluation's parts at the start of every turn (the expert's banked
points, open puzzles' value and pieces' value, each less the opponent's), and ``--fit`` regresses
the final margin on them: what a point of each part is really worth against a banked point.

``--opponent normal`` (or ``hard``, ``unbeatable``) plays Solo instead: game ``i`` dealt from
``seed + i``, the expert seeded with it, its margin over the mastermind.

Seeds: 8,000,000 and up are the tuning's; 9,000,000 and up the held-out check of 2026-12-04;
13,000,000 and up Solo's last-turn takes (2026-12-05).
No bench deals from either. What it found: `git show c8a416e:docs/engine.md`, section 7;
today's figures: docs/ai.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.league import member  # noqa: E402
from bench.strong import Job, Result, duel, run_jobs  # noqa: E402
from engine.actions import TakeLevelOne  # noqa: E402
from engine.policies import EXPERT_WEIGHTS, ExpertPolicy  # noqa: E402
from engine.policies.expert import evaluation_parts  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.simulate import play_game  # noqa: E402
from engine.state import ACTIONS_PER_TURN, Difficulty, GameState, Options, Phase  # noqa: E402


class Recorder:
    """Wraps a seat's policy: notes the expert's part differences at each turn's start, and the
    level-1 takes of the seat it wraps."""

    def __init__(self, policy: Any, expert_seat: int, rows: list[float], counts: dict[str, int],
                 me: str) -> None:
        self.policy = policy
        self.expert_seat = expert_seat
        self.rows = rows
        self.counts = counts
        self.me = me

    @property
    def searches(self) -> int:
        return int(getattr(self.policy, "searches", 0))

    def choose(self, state: GameState) -> Any:
        if state.phase is Phase.PLAY and state.actions_left == ACTIONS_PER_TURN and not state.pending:
            mine = evaluation_parts(state, self.expert_seat)
            theirs = evaluation_parts(state, 1 - self.expert_seat)
            self.rows.extend(m - t for m, t in zip(mine, theirs, strict=True))
        action = self.policy.choose(state)
        if isinstance(action, TakeLevelOne):
            self.counts[self.me + "_level1"] = self.counts.get(self.me + "_level1", 0) + 1
        return action


def build(spec: dict[str, Any], seed: int) -> ExpertPolicy:
    """The expert a spec describes."""
    kwargs = {k: v for k, v in spec.items() if k not in ("weights", "opponent")}
    weights = dataclasses.replace(EXPERT_WEIGHTS, **spec.get("weights", {}))
    return ExpertPolicy(seed, weights=weights, **kwargs)


def play_one(job: Job) -> Result:
    """One game: (spec JSON, index, seed) -> (result, margin, [cpu, level-1 counts, rows...])."""
    name, index, seed = job
    spec = json.loads(name)
    rows: list[float] = []
    counts: dict[str, int] = {}
    seat = index % 2
    start = time.process_time()
    if spec.get("opponent") in [d.value for d in Difficulty]:
        # Solo: one game a deal against the mastermind at that difficulty (no parts recorded).
        options = Options(players=1, variant="solo", difficulty=Difficulty(spec["opponent"]))
        record = play_game(options, seed, [build(spec, seed)], keep_log=False)
        won = (1.0 / len(record.winners)) if 0 in record.winners else 0.0
        cpu = time.process_time() - start
        return won, float(record.scores[0] - (record.mastermind or 0)), [cpu, 0.0, 0.0]
    expert = Recorder(build(spec, seed), seat, rows, counts, "expert")
    other = Recorder(member(spec.get("opponent", "strong"), seed + 7919), seat, rows, counts, "other")
    result, margin = duel(expert, other, index, seed)
    extra = [time.process_time() - start, float(counts.get("expert_level1", 0)),
             float(counts.get("other_level1", 0))]
    return result, margin, extra + rows


def fit(results: list[Result], k: int = 3) -> list[float]:
    """Least squares through the origin of the final margin on the ``k`` part differences."""
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for _, margin, data in results:
        rows = data[3:]
        for i in range(0, len(rows), k):
            x = rows[i:i + k]
            for a in range(k):
                xty[a] += x[a] * margin
                for b in range(k):
                    xtx[a][b] += x[a] * x[b]
    # Gaussian elimination (k is tiny).
    m = [row[:] + [xty[i]] for i, row in enumerate(xtx)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if m[c][c] == 0:
            return [0.0] * k
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    return [m[i][k] / m[i][i] for i in range(k)]


def summarise(spec: dict[str, Any], results: list[Result], first_seed: int, with_fit: bool) -> dict[str, Any]:
    """One setting's figures (and with ``with_fit`` its parts' regression)."""
    n = len(results)
    summary: dict[str, Any] = {
        "spec": spec, "games": n, "first_seed": first_seed,
        "win_share": round(sum(r[0] for r in results) / n, 4),
        "mean_margin": round(sum(r[1] for r in results) / n, 3),
        "cpu_per_game": round(sum(r[2][0] for r in results) / n, 2),
        "expert_level1": round(sum(r[2][1] for r in results) / n, 2),
        "other_level1": round(sum(r[2][2] for r in results) / n, 2),
    }
    if with_fit:
        coef = fit(results)
        rng = Rng(1)
        boots = []
        for _ in range(200):
            sample = [results[rng.below(n)] for _ in results]
            c = fit(sample)
            if c[0]:
                boots.append([c[1] / c[0], c[2] / c[0]])
        summary["coef"] = [round(c, 3) for c in coef]
        for j, label in ((0, "puzzles"), (1, "pieces")):
            vals = sorted(b[j] for b in boots)
            summary[f"{label}_ratio"] = round(coef[j + 1] / coef[0], 3) if coef[0] else None
            spread = [vals[len(vals) // 10], vals[9 * len(vals) // 10]]
            summary[f"{label}_p10_p90"] = [round(v, 3) for v in spread]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", action="append", default=[],
                        help="a setting (JSON); repeat to play several, interleaved deal by deal")
    parser.add_argument("--games", type=int, default=80, help="games per setting (two a deal)")
    parser.add_argument("--opponent", default="strong",
                        help="a league member or policy name (two players; bench.league.member), or a Solo "
                        "difficulty (normal, hard, unbeatable)")
    parser.add_argument("--seed", type=int, default=8_000_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="")
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    names = []
    for text in args.spec or ["{}"]:
        spec = json.loads(text)
        spec["opponent"] = args.opponent
        names.append(json.dumps(spec, sort_keys=True))
    solo = args.opponent in [d.value for d in Difficulty]
    jobs: list[Job] = [
        (name, i, args.seed + (i if solo else i // 2)) for i in range(args.games) for name in names
    ]
    results = run_jobs(jobs, args.workers, play_one, "try")
    by_name = {name: [r for j, r in zip(jobs, results, strict=True) if j[0] == name] for name in names}
    summaries = [summarise(json.loads(name), by_name[name], args.seed, args.fit) for name in names]
    base = by_name[names[0]]
    for name, summary in zip(names[1:], summaries[1:], strict=True):
        # Paired by deal and seat: the difference of margins game by game, and its standard error.
        diffs = [b[1] - a[1] for a, b in zip(base, by_name[name], strict=True)]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)
        summary["margin_vs_first"] = [round(mean, 3), round((var / len(diffs)) ** 0.5, 3)]
    for summary in summaries:
        print(json.dumps(summary))
    if args.out:
        Path(args.out).write_text(json.dumps({"summaries": summaries, "games": {
            name: [[r[0], r[1]] for r in by_name[name]] for name in names}}))


if __name__ == "__main__":
    main()
