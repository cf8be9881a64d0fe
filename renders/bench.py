"""``python -m renders bench``: how long the images take and how big they are.

Renders a run of consecutive mid-game states of a 4-player sample game (so per-card caches
help only as much as they would in a real game, where most cards stay put between turns), after
one warm-up render that loads the font and builds the palette. Reports medians. The last line
printed is a JSON object (``table_render_ms``, ``table_png_kb``, ``mat_render_ms`` and more)
for ``make bench`` and CI to read; the budgets (30 ms / 250 KB for the table, 15 ms for a mat) are
printed beside each figure and a missed one makes the exit code 1 (:mod:`engine.budget`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from engine import Options
from engine.budget import BenchReport
from engine.state import GameState

from . import render_mat, render_results, render_table
from .samples import names_for, play

SEED = 3
STATES = 30
TABLE_BUDGET_MS = 30.0
TABLE_BUDGET_KB = 250.0
MAT_BUDGET_MS = 15.0


def _time(fn: Callable[[], bytes]) -> tuple[float, int]:
    start = time.perf_counter()
    data = fn()
    return (time.perf_counter() - start) * 1000, len(data)


def run() -> dict[str, float]:
    states = list(play(Options(players=4), SEED))
    middle = len(states) // 2
    sample: list[GameState] = states[middle : middle + STATES]
    names = names_for(sample[0])
    cold_ms, _ = _time(lambda: render_table(sample[0], names))
    table = [_time(partial(render_table, s, names)) for s in sample]
    mats = [_time(partial(render_mat, s, s.current, names)) for s in sample]
    final = states[-1]
    results = [_time(lambda: render_results(final, names)) for _ in range(5)]
    return {
        "table_render_ms": round(statistics.median(ms for ms, _ in table), 2),
        "table_render_max_ms": round(max(ms for ms, _ in table), 2),
        "table_png_kb": round(max(size for _, size in table) / 1024, 1),
        "table_cold_ms": round(cold_ms, 2),
        "mat_render_ms": round(statistics.median(ms for ms, _ in mats), 2),
        "mat_png_kb": round(max(size for _, size in mats) / 1024, 1),
        "results_render_ms": round(statistics.median(ms for ms, _ in results), 2),
        "states": len(sample),
    }


def main() -> int:
    """Print each figure beside its budget (:mod:`engine.budget`) and the JSON last line; exit 1
    when a budget is missed."""
    figures = run()
    report = BenchReport("renders")
    report.add(
        "table_render_ms",
        figures["table_render_ms"],
        label="table image, 4-player mid-game, median",
        unit="ms",
        at_most=TABLE_BUDGET_MS,
    )
    report.add(
        "table_png_kb",
        figures["table_png_kb"],
        label="table image, largest PNG",
        unit="KB",
        at_most=TABLE_BUDGET_KB,
    )
    report.add(
        "mat_render_ms",
        figures["mat_render_ms"],
        label="player mat, median",
        unit="ms",
        at_most=MAT_BUDGET_MS,
    )
    for key, label, unit in (
        ("table_render_max_ms", "table image, slowest", "ms"),
        ("table_cold_ms", "table image, first", "ms"),
        ("mat_png_kb", "player mat, largest PNG", "KB"),
        ("results_render_ms", "results image, median", "ms"),
    ):
        report.add(key, figures[key], label=label, unit=unit)
    report.info("states", figures["states"])
    return report.finish()
