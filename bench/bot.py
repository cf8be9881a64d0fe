"""``python -m bench bot``: how fast and how big the bot is (``make bench`` runs it last).

1. One action end to end through the bot (offline harness, real renderer, file database):
   p50 / p99 / p99.9 over 300 actions. Budgets: p50 <= 12 ms, p99 <= 10 ms.
2. 200 games in one process (manager + the bot's process-pool renderer + response stub):
   throughput when every game acts again as soon as it is answered (saturation), then p50 / p99
   when actions arrive at 20 per second across the 200 games (each game acting every 10 s on
   average: a very busy bot). Budget: at least 450 actions/s saturated.
3. 1,000 stored games, 100 of them active and playing: resident memory of a fresh process (the
   render threads in it, as the strictest case). Budget: at most 50 MB above the same process
   after its imports.
4. The turn panel at 20 busy channels (offline harness, real renderer): every game played by
   panel taps at once; p50 / p99 from sending a tap to its acknowledgement. Budget: p99 <= 100 ms.
5. 100 channels end a turn at the same moment: until each player's mat and table image are ready
   (:mod:`bench.images`), with the bot's process-pool renderer and, for comparison, two threads.
   Budget: p99 <= 700 ms. The load average is recorded too: the machine may be shared.
6. Requests that must not grow with history: ``/projectl stats`` at 5,000 finished games, a turn
   post at a 3,000-row log, ``resume()`` among 5,000 finished games (``bench/history_costs.py``),
   each beside the old way of doing it.
7. 100 channels press Start at once (:mod:`bench.lobby`, offline harness): the slowest click's
   acknowledgement (budget: Discord's 3 s) and the table post's p99.
8. A Strong AI seat's whole turn while 20 other channels play (manager, process pool, real
   renderer; :mod:`bench.strong_seat`), then an Expert seat's the same way: p95 wall-clock seconds
   from the human's last action to the new turn's table image. Budget: p95 <= 3 s each.
9. One stored game state (:mod:`bench.stored_states`): bytes and ``dumps`` time as the bot stores
   it (without the cards, kept once per game) beside the full form it used to store.
10. Line Clear's two marker holders acting at once through the harness (:mod:`bench.line_clear_stale`):
   the share of their committing interactions refused as out of date. Budget: <= 2 %.
11. A game ends while another plays (:mod:`bench.beside_recap`): the other game's table images
   while the finished game's recap is drawn on the worker they prefer. Budget: p99 <= 50 ms.

Human-readable lines first, then every figure beside its budget (:mod:`bench.budgets`; the exit
code is 1 when one is missed); the last line is ONE JSON object with every figure
(docs/benchmarks.md explains each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core.play.manager import GameManager
from bot.core.rendering.collector import freeze_startup, tune_collector
from bot.core.rendering.render import ProcessRenderer, ThreadedRenderer
from bot.core.storage import Storage

from . import build, history_costs, stored_states
from .beside_recap import tables_beside_recap
from .images import image_followups
from .latency import harness_latencies
from .line_clear_stale import stale_commits
from .load import closed_loop, open_loop, percentile
from .lobby import start_latencies
from .panel import panel_ack_latencies
from .plans import planned_against_tapped
from .players import policy_factory
from .ratings import quick_cases as rating_cases
from .report import BenchReport
from .strong_seat import ai_turn_seconds

ROOT = Path(__file__).resolve().parent.parent


def say(text: str) -> None:
    print(text, flush=True)


QUICK_STRONG_TURNS = 6
"""Strong turns timed at 20 busy channels: each is seconds of wall, and six bound the p95 (the
slowest of six) within the quick bench's three minutes (docs/benchmarks.md)."""
QUICK_PANEL_TAPS = 300
QUICK_IMAGE_ROUNDS = 2
"""Two rounds of 100 turn ends: 200 samples for the images' p99."""


async def many_games(workdir: Path, games: int = 200, per_game: int = 4, rate: float = 20.0,
                     seconds: float = 10.0) -> dict[str, float]:
    path = workdir / "games200.sqlite3"
    channels = await build.build(path, games=games, active=games, moves=12, seed=2)
    storage = await Storage.open(path)
    try:
        manager = GameManager(storage, policies=policy_factory)
        renderer = ProcessRenderer()  # the bot's own: one worker process per core
        await renderer.ready()  # every worker up and warmed
        freeze_startup()
        try:
            saturated = await closed_loop(manager, renderer, channels, per_game)
            steady = await open_loop(manager, renderer, channels, rate=rate, seconds=seconds)
        finally:
            await renderer.close()
    finally:
        await storage.close()
    return {
        "games_200_actions_per_s": round(saturated.per_second, 1),
        "games_200_saturated_p99_ms": round(percentile(saturated.latencies_ms, 99), 1),
        "games_200_offered_per_s": rate,
        "games_200_p50_ms": round(percentile(steady.latencies_ms, 50), 1),
        "games_200_p99_ms": round(percentile(steady.latencies_ms, 99), 1),
    }


def images(report: BenchReport, workdir: Path, compare: bool) -> None:
    """100 channels end a turn at once: mat + table image per channel, process pool (the bot's
    renderer) and, with ``compare``, two threads (the old one). The machine's load average is
    recorded beside the figures: on a shared machine the renderers get only part of the cores."""
    load_before = os.getloadavg()[0]
    pooled = asyncio.run(image_followups(workdir, ProcessRenderer, rounds=QUICK_IMAGE_ROUNDS,
                                         name="images_pool"))
    figures = pooled.figures("images_100")
    report.add("images_100_p50_ms", figures["images_100_p50_ms"],
               label="100 channels end a turn at once: images ready, p50", unit="ms")
    report.add("images_100_p99_ms", figures["images_100_p99_ms"],
               label="100 channels end a turn at once: images ready, p99", unit="ms",
               note=f"{len(pooled.images_ms)} turn ends")
    report.add("images_100_commit_p99_ms", figures["images_100_commit_p99_ms"],
               label="... of which waiting for the commit, p99", unit="ms")
    if compare:
        threaded = asyncio.run(image_followups(workdir, ThreadedRenderer, rounds=2, name="images_threads"))
        report.add("images_100_threads_p99_ms", threaded.figures("t")["t_p99_ms"],
                   label="... the same with two render threads instead, p99", unit="ms",
                   note=f"{len(threaded.images_ms)} turn ends")
    report.info("images_100_samples", len(pooled.images_ms))
    report.info("images_100_load_average", round(max(load_before, os.getloadavg()[0]), 1))


def memory(workdir: Path, stored: int = 1000, active: int = 100) -> dict[str, Any]:
    path = workdir / "games1000.sqlite3"
    channels = asyncio.run(build.build(path, games=stored, active=active, moves=40, seed=3))
    command = [sys.executable, "-m", "bench.memory", str(path), "--per-game", "5",
               "--channels", *map(str, channels)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    return {"rss_mb_1000_games": figures["rss_mb"], "rss_peak_mb_1000_games": figures["rss_peak_mb"],
            "rss_mb_after_imports": figures["rss_after_imports_mb"],
            "rss_mb_after_resume": figures["rss_after_resume_mb"],
            "rss_mb_above_imports": round(figures["rss_mb"] - figures["rss_after_imports_mb"], 1)}


class Sections:
    """Wall-clock seconds of each part of the bench, printed as each ends and kept for the JSON."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._mark = time.perf_counter()

    def done(self, name: str, text: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._mark, 1)
        self._mark = now
        say(f"{text} ({self.seconds[name]:.0f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", action="store_true",
                        help="also measure the old ways the bot replaced (slow: the *_before_* figures "
                             "of the stats and resume(), and the images with two render threads)")
    args = parser.parse_args(argv)
    tune_collector()  # as python -m bot does first; the harnessed bot freezes its start-up
    started = time.perf_counter()
    report = BenchReport("bot")
    report.info("measured_through", "offline harness (action) / manager+renderer+stub (load)")
    sections = Sections()
    with tempfile.TemporaryDirectory(prefix="projectl-bench-") as tmp:
        workdir = Path(tmp)
        timings = asyncio.run(harness_latencies(workdir))
        actions = f"{len(timings)} actions"
        report.add("action_p50_ms", round(percentile(timings, 50), 1), label="one action end to end, p50",
                   unit="ms", note=actions)
        report.add("action_p99_ms", round(percentile(timings, 99), 1), label="one action end to end, p99",
                   unit="ms", note=actions)
        report.add("action_p999_ms", round(percentile(timings, 99.9), 1),
                   label="one action end to end, p99.9 (the slowest of 300)", unit="ms", note=actions)
        report.info("action_count", len(timings))
        threaded = asyncio.run(harness_latencies(workdir, renderer="threaded"))
        report.add("action_threaded_p99_ms", round(percentile(threaded, 99), 1),
                   label="... the same drawn in the bot's own threads (the demo's renderer), p99", unit="ms",
                   note=f"{len(threaded)} actions")
        ahead = asyncio.run(planned_against_tapped(workdir))
        report.add("planned_to_tapped_p50_ratio", ahead["planned_to_tapped_p50_ratio"],
                   label="one step of a planned turn against one tapped action, at the manager, p50",
                   unit="x", note=f"{ahead['planned_turns']} planned turns: {ahead['planned_action_p50_ms']} "
                                  f"against {ahead['tapped_action_manager_p50_ms']} ms")
        report.info("planned_action_p50_ms", ahead["planned_action_p50_ms"])
        report.info("tapped_action_manager_p50_ms", ahead["tapped_action_manager_p50_ms"])
        sections.done("action", f"one action end to end: {actions} through the harness; planned turns")
        load = asyncio.run(many_games(workdir))
        report.add("games_200_actions_per_s", load["games_200_actions_per_s"],
                   label="200 games, saturated throughput", unit="actions/s")
        report.add("games_200_saturated_p99_ms", load["games_200_saturated_p99_ms"],
                   label="200 games, saturated p99 (queueing)", unit="ms")
        report.info("games_200_offered_per_s", load["games_200_offered_per_s"])
        report.add("games_200_p50_ms", load["games_200_p50_ms"], label="200 games at 20 actions/s, p50",
                   unit="ms")
        report.add("games_200_p99_ms", load["games_200_p99_ms"], label="200 games at 20 actions/s, p99",
                   unit="ms")
        sections.done("games_200", "200 games: done")
        rss = memory(workdir)
        report.add("rss_mb_1000_games", rss["rss_mb_1000_games"], label="1,000 stored games, 100 played: RSS",
                   unit="MB")
        report.add("rss_peak_mb_1000_games", rss["rss_peak_mb_1000_games"], label="... peak RSS", unit="MB")
        report.add("rss_mb_after_imports", rss["rss_mb_after_imports"], label="RSS after imports", unit="MB")
        report.add("rss_mb_after_resume", rss["rss_mb_after_resume"], label="RSS after resume()", unit="MB")
        report.add("rss_mb_1000_games_above_imports", rss["rss_mb_above_imports"],
                   label="1,000 stored games, 100 played: RSS above the after-import baseline", unit="MB")
        sections.done("memory", "memory: 1,000 stored games, 100 played")
        acks, taps = asyncio.run(panel_ack_latencies(workdir, taps=QUICK_PANEL_TAPS))
        tapped = f"{len(acks)} taps"
        report.add("panel_ack_p50_ms", round(percentile(acks, 50), 1),
                   label="turn panel at 20 busy channels: tap to ack, p50", unit="ms", note=tapped)
        report.add("panel_ack_p99_ms", round(percentile(acks, 99), 1),
                   label="turn panel at 20 busy channels: tap to ack, p99", unit="ms", note=tapped)
        report.info("panel_taps", len(acks))
        report.info("panel_taps_per_action_max", {kind: max(counts) for kind, counts in sorted(taps.items())})
        sections.done("panel", f"turn panel: {len(acks)} taps in 20 busy channels")
        stale = asyncio.run(stale_commits(workdir))
        report.add("line_clear_stale_commits_pct", round(stale.stale_pct, 1),
                   label="Line Clear, both holders at once: commits refused as out of date", unit="%",
                   note=f"{stale.refused} of {stale.commits} ({stale.panel_commits} by panel)")
        sections.done("line_clear_stale", f"Line Clear holders: {stale.commits} commits")
        images(report, workdir, args.compare)
        sections.done("images", f"images: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        beside = asyncio.run(tables_beside_recap())
        report.add("tables_beside_recap_p99_ms", beside["tables_beside_recap_p99_ms"],
                   label="a game's table images while another game's recap is drawn, p99", unit="ms",
                   note=f"{beside['tables_beside_recap_count']} tables")
        report.info("tables_beside_recap_p50_ms", beside["tables_beside_recap_p50_ms"])
        sections.done("beside_recap", "a game ends while another plays: its recap beside the other's tables")
        history_cases(report, workdir, args.compare)
        sections.done("history", "history: stats at 5,000 finished games, a 3,000-row log, resume()")
        start_acks, posts = asyncio.run(start_latencies(workdir))
        report.add("start_100_ack_max_ms", round(max(start_acks), 1),
                   label="100 channels press Start at once: slowest acknowledgement", unit="ms")
        report.add("start_100_post_p99_ms", round(percentile(posts, 99), 1),
                   label="... table post with the AI's first moves, p99", unit="ms")
        sections.done("lobby", f"lobby: {len(start_acks)} Start clicks at once")
        for policy in ("strong", "expert"):
            turns = asyncio.run(ai_turn_seconds(workdir, policy=policy, turns=QUICK_STRONG_TURNS))
            report.add(f"{policy}_turn_p95_s", round(percentile(turns, 95), 2),
                       label=f"a {policy.capitalize()} AI seat's whole turn, 20 busy channels, p95 (wall)",
                       unit="s", note=f"{len(turns)} turns")
            report.info(f"{policy}_turns", len(turns))
            sections.done(f"{policy}_seat", f"{policy} seat: {len(turns)} turns while 20 channels play")
        stored_state_cases(report)
        sections.done("stored_states", "stored states: bytes and dumps time, with and without the cards")
        rating_cases(report)
        sections.done("ratings", "ratings and replays: a 4-player game's rating update and replay steps")
    report.info("section_seconds", sections.seconds)
    report.info("seconds", round(time.perf_counter() - started, 1))
    return report.finish()


HISTORY_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("stats_5000_games_ms", "/projectl stats at 5,000 finished games", "ms"),
    ("stats_5000_before_ms", "... parsing every finished game, as every request used to", "ms"),
    ("stats_5000_first_call_ms", "... first call after the upgrade (results recorded once)", "ms"),
    ("log_tail_3000_rows_ms", "turn post's log lines at a 3,000-row log", "ms"),
    ("log_tail_before_3000_rows_ms", "... reading the whole log, as it used to", "ms"),
    ("turn_3000_rows_ms", "one action of a turn + its post's log lines, 3,000-row log (no images)", "ms"),
    ("turn_30_rows_ms", "... the same at a 30-row log", "ms"),
    ("resume_peak_mb", "resume() of 300 active games among 5,000 finished: peak Python memory", "MB"),
    ("resume_before_peak_mb", "... listing every active game first, as it used to", "MB"),
    ("resume_ms_per_active_game", "resume() per active game", "ms"),
)


def history_cases(report: BenchReport, workdir: Path, compare: bool) -> None:
    """Requests that must not grow with a server's or a game's history (bench/history_costs.py);
    each ``*_before_*`` figure is the old way of the same request, in the same run (the two slow
    ones only with ``compare``)."""
    figures = history_costs.run(workdir, compare=compare)
    for key, label, unit in HISTORY_FIGURES:
        if key in figures:
            report.add(key, figures[key], label=label, unit=unit)


def stored_state_cases(report: BenchReport) -> None:
    """Bytes and ``dumps`` time of one stored state, now and in the full form (bench/stored_states.py)."""
    figures = stored_states.figures()
    report.add("stored_state_bytes", figures["stored_state_bytes"],
               label="one stored game state, without its cards (mean)", unit="B")
    report.add("stored_state_before_bytes", figures["stored_state_before_bytes"],
               label="... with every card inside, as it used to be stored", unit="B")
    report.add("state_dumps_ms", figures["state_dumps_ms"],
               label="writing one state (dumps) without its cards, median CPU", unit="ms")
    report.add("state_dumps_before_ms", figures["state_dumps_before_ms"],
               label="... with every card, as it used to", unit="ms")
    report.info("stored_state_sample", figures["stored_state_sample"])
