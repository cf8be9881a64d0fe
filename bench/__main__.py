"""``python -m bench [SUITE] [options]``: every benchmark of the project, by suite.

* ``python -m bench`` (or ``quick``) — the quick bench, ``make bench``: the ``engine``, ``renders``,
  ``bot``, ``waits`` and ``web`` suites, each in a fresh process, every budget about speed, size and memory.
* ``python -m bench ai`` — the AI bench, ``make bench-ai``: the strength games (long).
* ``python -m bench full`` — all three (quick, ai, scale), ``make bench FULL=1``.
* ``python -m bench engine|renders|bot|waits|web|ai [options]`` — one suite in this process (``--help``).
* ``python -m bench scale`` — ``make bench-scale``: SQLite against PostgreSQL with 1 and 2
  processes, the 2-shard speed-up held to its budget (docs/deploy.md).
* ``python -m bench league`` — every AI against every other, two players (issue 29's league:
  one row per pairing; long, ``--games`` per pairing); ``--policies a,b,…`` pits any installed
  policies, plug-ins included (docs/plugins.md), with 95 % intervals.
* ``python -m bench ratings`` — the AI kinds' ratings by self-play, written to
  bot/core/records/data/ai_ratings.json (docs/ratings.md; niced, a few minutes).

A group runs every suite even when an earlier one misses a budget and exits 1 if any did.
With ``PROJECTL_BENCH_DIR`` set each suite saves its report there (replacing its earlier one);
``python -m bench.docs`` turns them into markdown tables beside them, and ``--doc`` (``make
bench-docs``) writes those into docs/benchmarks.md.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import ai, bot, engine, league, ratings, renders, scale, waits, web
from .budgets import AI_SUITES, QUICK_SUITES, SCALE_SUITES
from .report import discard_saved

ROOT = Path(__file__).resolve().parent.parent
SUITES: dict[str, Callable[[Sequence[str]], int]] = {
    "engine": engine.main, "renders": renders.main, "bot": bot.main, "ai": ai.main, "scale": scale.main,
    "ratings": ratings.main, "league": league.main, "waits": waits.main, "web": web.main,
}
GROUPS: dict[str, tuple[str, ...]] = {"quick": QUICK_SUITES, "full": QUICK_SUITES + AI_SUITES + SCALE_SUITES}


def run_group(suites: Sequence[str]) -> int:
    """Each suite in its own process (so no suite's caches, threads or memory count in the next
    one's figures), all of them whatever the earlier ones found; 1 if any failed."""
    failed = []
    for suite in suites:
        print(f"== python -m bench {suite}", flush=True)
        if subprocess.run([sys.executable, "-m", "bench", suite], cwd=ROOT).returncode != 0:
            failed.append(suite)
    print("== " + (f"budgets missed (or a failure) in: {', '.join(failed)}" if failed
                   else f"every budget met in: {', '.join(suites)}"), flush=True)
    return 1 if failed else 0


def main(argv: Sequence[str]) -> int:
    name, rest = (argv[0], list(argv[1:])) if argv else ("quick", [])
    if name in GROUPS and not rest:
        return run_group(GROUPS[name])
    if name in SUITES:
        discard_saved(name)
        return SUITES[name](rest)
    print(f"usage: python -m bench [{' | '.join([*GROUPS, *SUITES])}] [options]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
