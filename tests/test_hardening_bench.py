"""The bot's benchmark code itself, at toy sizes, so ``python -m bench bot`` and ``make soak`` do not rot.

The real runs are ``python -m bench bot`` (part of ``make bench``) and ``python -m bench.soak --kills 50``;
here each piece runs small and its figures are only checked for shape.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench import history_costs
from bench.bot import many_games, memory
from bench.latency import harness_latencies
from bench.load import percentile
from bot.core.storage import Storage
from bot.discord.cogs.records import server_stats

ROOT = Path(__file__).resolve().parent.parent


async def test_latency_and_load_at_toy_size(tmp_path: Path) -> None:
    timings = await harness_latencies(tmp_path, actions=12)  # the bot's render workers
    assert len(timings) == 12 and all(t > 0 for t in timings)
    assert percentile(timings, 50) <= percentile(timings, 99)
    threaded = await harness_latencies(tmp_path, actions=3, renderer="threaded")
    assert len(threaded) == 3 and all(t > 0 for t in threaded)
    figures = await many_games(tmp_path, games=6, per_game=2, rate=10, seconds=0.5)
    assert figures["games_200_actions_per_s"] > 0 and figures["games_200_p99_ms"] > 0


def test_memory_runs_in_its_own_process(tmp_path: Path) -> None:
    figures = memory(tmp_path, stored=12, active=3)
    assert 20 < figures["rss_mb_1000_games"] <= figures["rss_peak_mb_1000_games"]
    assert figures["rss_mb_above_imports"] == round(
        figures["rss_mb_1000_games"] - figures["rss_mb_after_imports"], 1)


def test_soak_command_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bench.soak", "--kills", "1", "--channels", "2",
                           "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert done.returncode == 0 and summary["ok"] and summary["kills"] == summary["survived"] == 1


def test_history_costs_at_toy_size(tmp_path: Path) -> None:
    figures = history_costs.run(tmp_path, finished=30, long_log=60, active=4)
    assert all(value >= 0 for value in figures.values())
    assert figures["stats_5000_games_ms"] > 0 and figures["log_tail_before_3000_rows_ms"] > 0
    assert 0 < figures["resume_peak_mb"]
    quick = history_costs.run(tmp_path / "quick", finished=30, long_log=60, active=4, compare=False)
    assert set(figures) - set(quick) == {
        "stats_5000_before_ms", "stats_5000_first_call_ms", "resume_before_peak_mb"}


async def test_the_quick_stats_database_holds_what_the_upgrade_would_record(tmp_path: Path) -> None:
    """The quick bench writes the result rows directly; they must be the rows the bot records
    for the same games, or its stats figure would time a different query result."""
    totals = []
    for results in (False, True):
        path = tmp_path / f"stats-{results}.sqlite3"
        await (await Storage.open(path)).close()
        history_costs.build_finished(path, 30, results=results)
        storage = await Storage.open(path)
        try:
            totals.append(await server_stats(storage, 1))
        finally:
            await storage.close()
    recorded, written = totals
    assert recorded == written and recorded[0] == 30 and len(recorded[1]) > 5


async def test_image_followups_and_start_burst_at_toy_size(tmp_path: Path) -> None:
    """The two section-3/4 benches of issue 10 run and measure what they say, at toy size."""
    from bench.images import image_followups
    from bench.lobby import start_latencies
    from bot.core.rendering.render import ThreadedRenderer

    run = await image_followups(tmp_path, ThreadedRenderer, channels=6, rounds=1, name="toy")
    assert len(run.images_ms) == len(run.committed_ms) >= 4
    assert all(images >= commit > 0 for images, commit in zip(run.images_ms, run.committed_ms, strict=True))
    acks, posts = await start_latencies(tmp_path, channels=4, renderer=ThreadedRenderer())
    assert len(acks) == len(posts) == 4 and all(0 < ack < post for ack, post in zip(acks, posts, strict=True))
