"""Memory of a bot process holding many stored games: ``python -m bench.memory DB --active-from N``.

Run in its own process (by ``python -m bench bot``) so nothing the other benchmarks allocated counts.
It does what the bot does: imports discord.py and the bot, opens and migrates the database,
``resume()`` (which loads every active game), then the active games play with the real renderer.
Prints one JSON line: current and peak resident set size in MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from bot.core.play.manager import GameManager
from bot.core.rendering.render import ThreadedRenderer
from bot.core.storage import Storage

from .load import closed_loop
from .players import policy_factory


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size from /proc/self/status, in MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return round(fields["VmRSS"], 1), round(fields["VmHWM"], 1)


async def run(path: Path, channels: list[int], per_game: int) -> dict[str, float]:
    import bot.discord.app  # noqa: F401 - the bot process has discord.py and the cogs loaded
    import renders  # noqa: F401
    from bot.core.rendering.allocator import limit_heap_growth
    from bot.core.rendering.collector import freeze_startup, tune_collector

    limit_heap_growth()  # as python -m bot does first
    tune_collector()

    imported = rss_mb()[0]
    storage = await Storage.open(path)
    manager = GameManager(storage, policies=policy_factory)
    await manager.resume()
    freeze_startup()  # as the bot does once it is ready
    resumed = rss_mb()[0]
    started = time.perf_counter()
    renderer = ThreadedRenderer()
    result = await closed_loop(manager, renderer, channels, per_game)
    await renderer.close()
    stored = len(await storage.games_with_status("lobby", "active", "finished", "cancelled"))
    await storage.close()
    current, peak = rss_mb()
    return {"stored_games": stored, "active_games": len(channels), "actions": result.actions,
            "seconds": round(time.perf_counter() - started, 1), "rss_after_imports_mb": imported,
            "rss_after_resume_mb": resumed, "rss_mb": current, "rss_peak_mb": peak}


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory")
    parser.add_argument("db", type=Path)
    parser.add_argument("--channels", type=int, nargs="+", required=True)
    parser.add_argument("--per-game", type=int, default=5)
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args.db, args.channels, args.per_game))))
    return 0


if __name__ == "__main__":
    sys.exit(cli())
