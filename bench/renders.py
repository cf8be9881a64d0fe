"""``python -m bench renders``: how long the images take and how big they are (part of ``make bench``).

Renders a run of consecutive mid-game states of a 4-player sample game (so per-card caches
help only as much as they would in a real game, where most cards stay put between turns), after
one warm-up render that loads the font and builds the palette. Reports medians. The last line
printed is a JSON object (``table_render_ms``, ``table_png_kb``, ``mat_render_ms`` and more)
for ``make bench`` and CI to read; the budgets (30 ms / 250 KB for the table, 15 ms for a mat,
:mod:`bench.budgets`) are printed beside each figure and a missed one makes the exit code 1.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from bot.core.describe import alt_text, describe
from engine import Options
from engine.state import GameState
from renders import render_mat, render_results, render_table
from renders.samples import names_for, play

from .report import BenchReport

SEED = 3
STATES = 30
RESULTS_RENDERS = 5
DESCRIBE_ROUNDS = 10
"""Each sample state's table and mat descriptions are built this many times in each language."""


def _time(fn: Callable[[], bytes]) -> tuple[float, int]:
    start = time.perf_counter()
    data = fn()
    return (time.perf_counter() - start) * 1000, len(data)


def describe_ms(sample: Sequence[GameState], names: Sequence[str]) -> float:
    """The median time to build one image's alt text (the table's and the current player's mat's,
    in English and pt-BR: :func:`bot.core.describe.describe` then :func:`alt_text`), per state."""
    per_image: list[float] = []
    for state in sample:
        start = time.perf_counter()
        for _ in range(DESCRIBE_ROUNDS):
            for locale in (None, "pt-BR"):
                alt_text(describe(state, names), locale)
                alt_text(describe(state, names, state.current, mat=state.current), locale)
        per_image.append((time.perf_counter() - start) * 1000 / (DESCRIBE_ROUNDS * 4))
    return statistics.median(per_image)


def run() -> dict[str, float]:
    states = list(play(Options(players=4), SEED))
    middle = len(states) // 2
    sample: list[GameState] = states[middle : middle + STATES]
    names = names_for(sample[0])
    cold_ms, _ = _time(lambda: render_table(sample[0], names))
    table = [_time(partial(render_table, s, names)) for s in sample]
    mats = [_time(partial(render_mat, s, s.current, names)) for s in sample]
    final = states[-1]
    results = [_time(lambda: render_results(final, names)) for _ in range(RESULTS_RENDERS)]
    return {
        "table_render_ms": round(statistics.median(ms for ms, _ in table), 2),
        "table_render_max_ms": round(max(ms for ms, _ in table), 2),
        "table_png_kb": round(max(size for _, size in table) / 1024, 1),
        "table_cold_ms": round(cold_ms, 2),
        "mat_render_ms": round(statistics.median(ms for ms, _ in mats), 2),
        "mat_png_kb": round(max(size for _, size in mats) / 1024, 1),
        "results_render_ms": round(statistics.median(ms for ms, _ in results), 2),
        "describe_ms": round(describe_ms(sample, names), 3),
        "states": len(sample),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print each figure beside its budget and the JSON last line; exit 1 when a budget is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench renders", description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    figures = run()
    report = BenchReport("renders")
    states = f"{figures['states']} states"
    for key, label, unit, note in (
        ("table_render_ms", "table image, 4-player mid-game, median", "ms", states),
        ("table_png_kb", "table image, largest PNG", "KB", states),
        ("mat_render_ms", "player mat, median", "ms", states),
        ("table_render_max_ms", "table image, slowest", "ms", states),
        ("table_cold_ms", "table image, first", "ms", "one render"),
        ("mat_png_kb", "player mat, largest PNG", "KB", states),
        ("results_render_ms", "results image, median", "ms", f"{RESULTS_RENDERS} renders"),
        ("describe_ms", "an image's alt text (table or mat, en/pt-BR), median", "ms", states),
    ):
        report.add(key, figures[key], label=label, unit=unit, note=note)
    report.info("states", figures["states"])
    return report.finish()
