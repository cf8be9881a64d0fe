"""``python -m bench renders``: how long the images take and how big they are (part of ``make bench``).

What is measured is what the bot draws: at every turn end it posts the table image, framing what
changed since its previous post (``render_table(state, names, previous)``), and sends the actor
their mat. So the bench walks 30 consecutive turn ends from the middle of a 4-player sample game
and draws, at each, the table with the previous turn end's state as ``previous`` and the actor's
mat — in order, in one process, as a render worker sees one game's posts: the bands that did not
change since the last post come from the layer cache (:mod:`renders.layers`), exactly as in the
bot. (Until issue 30 it drew 30 consecutive *action* states without ``previous``: more alike than
two turn posts, and without the change frames the bot draws.) Before the sample the process
becomes what the bot's render worker is when it takes its first job: the workers' cache budgets
(:data:`renders.cache.WORKER_BUDGETS`) and the warm-up game every worker draws at start
(:func:`bot.core.rendering.render.warm_renders`); after each image, untimed, the parts it dropped from
the layers' cache are compressed, as a worker does once its image is written back
(:func:`renders.layers.spill_pending`, since 2026-12-05). Garbage is collected as in a worker too:
what the warm-up built is frozen and automatic collections are off, the ones that came due run
after each image, untimed (:mod:`bot.core.rendering.collector`; until 2026-12-08 the bench let
them fall inside the images, as no worker does). Until 2026-12-03 the bench had drawn
one table before the sample, so the text colour tables a mid-game mat needs were built inside it
(some 10 ms each): the mat's median was 2.46 ms so, 1.6–1.9 ms warmed. Beside it, unbudgeted: the same
images with the layer caches emptied before each (``*_uncached_ms``: a worker that never saw the
game, as after a restart or with many games interleaved), and the first render of the process
(``table_cold_ms``: fonts and palettes loading). Reports medians of wall-clock time; the last
line printed is a JSON object (``table_render_ms``, ``table_png_kb``, ``mat_render_ms`` and
more) for ``make bench`` and CI to read; the budgets (:mod:`bench.budgets`) are printed beside
each figure and a missed one makes the exit code 1.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from bot.core.rendering.allocator import release_freed_memory
from bot.core.rendering.collector import collect_between_jobs, collect_if_due
from bot.core.rendering.render import warm_renders
from bot.core.wording.describe import alt_text, describe
from engine import Options
from engine.state import GameState
from renders import render_mat, render_results, render_table
from renders.cache import WORKER_BUDGETS, budgets_while
from renders.layers import clear_layers, spill_pending
from renders.samples import names_for, play

from .report import BenchReport

SEED = 3
STATES = 30
RESULTS_RENDERS = 5
DESCRIBE_ROUNDS = 10
"""Each sample state's table and mat descriptions are built this many times in each language."""


@contextmanager
def as_a_render_worker() -> Iterator[None]:
    """The process as a render worker is when it takes its first job
    (:func:`bot.core.rendering.render.warm_render_worker`): the workers' cache budgets, the
    warm-up game drawn, what it built frozen and automatic garbage collections off; afterwards
    the collector as it was."""
    with budgets_while(WORKER_BUDGETS):
        warm_renders(whole_market=True)
        collect_between_jobs()
        try:
            yield
        finally:
            gc.enable()
            gc.unfreeze()


def after_image() -> None:
    """What a render worker does once an image is written back, when nobody waits for it: the
    parts the image dropped compressed, the garbage collections that came due, freed memory
    handed back (at most once a second)."""
    spill_pending()
    collect_if_due()
    release_freed_memory()


def _time(fn: Callable[[], bytes]) -> tuple[float, int]:
    """Milliseconds and bytes of one image; then, untimed, what a render worker does once the
    image is written back (:func:`after_image`)."""
    start = time.perf_counter()
    data = fn()
    elapsed = (time.perf_counter() - start) * 1000
    after_image()
    return elapsed, len(data)


def describe_ms(sample: Sequence[GameState], names: Sequence[str]) -> float:
    """The median time to build one image's alt text (the table's and the current player's mat's,
    in English and pt-BR: :func:`bot.core.wording.describe.describe` then :func:`alt_text`), per state."""
    per_image: list[float] = []
    for state in sample:
        start = time.perf_counter()
        for _ in range(DESCRIBE_ROUNDS):
            for locale in (None, "pt-BR"):
                alt_text(describe(state, names), locale)
                alt_text(describe(state, names, state.current, mat=state.current), locale)
        per_image.append((time.perf_counter() - start) * 1000 / (DESCRIBE_ROUNDS * 4))
    return statistics.median(per_image)


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """A turn just ended: the state the bot posts, whose turn it was, and the previous post's state."""

    state: GameState
    actor: int
    previous: GameState | None


def turn_ends(states: Sequence[GameState]) -> list[TurnEnd]:
    """Every turn end of a game (the turn number or the phase changed), as the bot posts them."""
    ends: list[TurnEnd] = []
    previous: GameState | None = None
    for before, after in zip(states, states[1:], strict=False):
        if after.turn != before.turn or after.phase is not before.phase:
            ends.append(TurnEnd(after, before.current, previous))
            previous = after
    return ends


def _uncached(fn: Callable[[], bytes]) -> Callable[[], bytes]:
    def run() -> bytes:
        clear_layers()
        return fn()
    return run


def run() -> dict[str, float]:
    states = list(play(Options(players=4), SEED))
    ends = turn_ends(states)
    first = max(0, len(ends) // 2 - STATES // 2)
    sample = ends[first : first + STATES]
    names = names_for(sample[0].state)
    cold_ms, _ = _time(lambda: render_table(states[0], names))
    with as_a_render_worker():
        table: list[tuple[float, int]] = []
        mats: list[tuple[float, int]] = []
        for end in sample:  # in order, as the bot posts them: the table, then the actor's mat
            table.append(_time(partial(render_table, end.state, names, end.previous)))
            mats.append(_time(partial(render_mat, end.state, end.actor, names, end.actor)))
        table_uncached = [_time(_uncached(partial(render_table, e.state, names, e.previous))) for e in sample]
        mats_uncached = [
            _time(_uncached(partial(render_mat, e.state, e.actor, names, e.actor))) for e in sample
        ]
        final = states[-1]
        results = [_time(lambda: render_results(final, names)) for _ in range(RESULTS_RENDERS)]
    return {
        "table_render_ms": round(statistics.median(ms for ms, _ in table), 2),
        "table_render_max_ms": round(max(ms for ms, _ in table), 2),
        "table_png_kb": round(max(size for _, size in table) / 1024, 1),
        "table_uncached_ms": round(statistics.median(ms for ms, _ in table_uncached), 2),
        "table_cold_ms": round(cold_ms, 2),
        "mat_render_ms": round(statistics.median(ms for ms, _ in mats), 2),
        "mat_png_kb": round(max(size for _, size in mats) / 1024, 1),
        "mat_uncached_ms": round(statistics.median(ms for ms, _ in mats_uncached), 2),
        "results_render_ms": round(statistics.median(ms for ms, _ in results), 2),
        "describe_ms": round(describe_ms([end.state for end in sample], names), 3),
        "states": len(sample),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print each figure beside its budget and the JSON last line; exit 1 when a budget is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench renders", description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    figures = run()
    report = BenchReport("renders")
    states = f"{figures['states']} turn ends of one game"
    for key, label, unit, note in (
        ("table_render_ms", "table image at a turn end, 4 players, median", "ms", states),
        ("table_png_kb", "table image, largest PNG", "KB", states),
        ("mat_render_ms", "the actor's mat at a turn end, median", "ms", states),
        ("table_render_max_ms", "table image, slowest", "ms", states),
        ("table_uncached_ms", "table image, layer caches emptied first, median", "ms", states),
        ("table_cold_ms", "table image, first of the process", "ms", "one render"),
        ("mat_png_kb", "player mat, largest PNG", "KB", states),
        ("mat_uncached_ms", "player mat, layer caches emptied first, median", "ms", states),
        ("results_render_ms", "results image, median", "ms", f"{RESULTS_RENDERS} renders"),
        ("describe_ms", "an image's alt text (table or mat, en/pt-BR), median", "ms", states),
    ):
        report.add(key, figures[key], label=label, unit=unit, note=note)
    report.info("states", figures["states"])
    return report.finish()
