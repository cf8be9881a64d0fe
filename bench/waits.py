"""``python -m bench waits``: what a player waits for when the bot has just started or the machine
is busy (issue 46 item 5; part of ``make bench``).

1. ``first_table_after_start_ms``: the bot's renderer started as the bot starts it
   (``ProcessRenderer().start()`` after the manager has opened the database: bot/discord/app.py),
   then at once the table image of a 4-player game read through the manager; milliseconds from
   the start to the image. Each start runs in a fresh process (``--one-start``), so nothing the
   previous one drew or imported is warm; the median of :data:`STARTS`. Budget: 2,000 ms. Until
   the images were drawn in the bot's process while the workers warm up
   (bot/core/rendering/render.py), this was the workers' whole warm-up: 15–16 s on a busy
   machine.
2. ``ai_turn_busy_p95_s``: an Expert seat's whole turn through the manager, as in the bot (its
   searches in the manager's process pool, each turn under the bot's wall-clock budget,
   ``PROJECTL_AI_TURN_SECONDS``' default), while two CPU-bound processes run beside the bot, so
   both cores are busy: wall-clock seconds from the human's last action of a turn (played by
   greedy through ``GameManager.act``) until the AI's turn is committed, over :data:`AI_TURNS`
   turns of 2-player games. The pool is started and warmed before timing (a worker's start is
   paid once per bot, inside the first turn's budget). Budget: p95 <= 3 s.

The machine's load as the suite started is in its report (other work shares it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bot.core.config import DEFAULT_AI_TURN_SECONDS
from bot.core.play.manager import GameManager, TableSettings
from bot.core.rendering.render import ProcessRenderer
from bot.core.storage import Storage
from engine.policies import GreedyPolicy

from .report import BenchReport

STARTS = 5
AI_TURNS = 20
"""Timed AI turns: the p95 is the 19th slowest (of 16, it would be the slowest)."""
BUSY_PROCESSES = 2
HOST = 1
AI_POLICY = "expert"


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(share * len(ordered))))
    return ordered[rank - 1]


async def _table_game(manager: GameManager, channel: int, *, players: int, policy: str) -> None:
    """A started table in ``channel``: the host and ``players - 1`` seats of ``policy``."""
    await manager.create_game(guild_id=1, channel_id=channel, host_id=HOST, host_name="human",
                              settings=TableSettings(max_players=players))
    for _ in range(players - 1):
        await manager.add_policy_seat(channel, HOST, policy)
    await manager.start(channel, HOST)


async def one_start(workdir: Path) -> float:
    """Milliseconds from the renderer's start, as the bot starts it, to its first table image."""
    storage = await Storage.open(workdir / "start.sqlite3")
    manager = GameManager(storage)
    try:
        await _table_game(manager, 1, players=4, policy="greedy")
        game = await manager.game_in_channel(1)
        assert game is not None and game.state is not None
        renderer = ProcessRenderer()
        started = time.perf_counter()
        workers = renderer.start()  # as ProjectLBot.setup_hook does
        image = await renderer.table(game.state, game.names)
        elapsed = (time.perf_counter() - started) * 1000
        assert image.startswith(b"\x89PNG")
        for worker in workers:  # not needed any more: their warm-up would only load the machine
            worker.process.kill()
        await renderer.close()
        return elapsed
    finally:
        await storage.close()


def first_tables(starts: int = STARTS) -> list[float]:
    """:func:`one_start` in ``starts`` fresh processes, one after the other."""
    found = []
    for _ in range(starts):
        done = subprocess.run([sys.executable, "-m", "bench", "waits", "--one-start"], check=True,
                              capture_output=True, text=True)
        found.append(float(json.loads(done.stdout.strip().splitlines()[-1])["first_table_ms"]))
    return found


async def ai_turns(workdir: Path, turns: int = AI_TURNS, *, policy: str = AI_POLICY,
                   budget_s: float | None = DEFAULT_AI_TURN_SECONDS, seed: int = 11) -> list[float]:
    """Seconds per ``policy`` turn (see the module) while :data:`BUSY_PROCESSES` spin beside."""
    storage = await Storage.open(workdir / "turns.sqlite3")
    manager = GameManager(storage, ai_turn_seconds=budget_s)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BUSY_PROCESSES)]
    timings: list[float] = []
    try:
        channel = 1
        await _table_game(manager, channel, players=2, policy=policy)
        game = await manager.game_in_channel(channel)
        assert game is not None and game.state is not None
        await manager.thinker.ready()  # the pool's workers started and warmed before timing
        human = GreedyPolicy(seed)
        while len(timings) < turns:
            game = await manager.game_in_channel(channel)
            if game is None or game.state is None or game.current is None or game.state.is_over:
                channel += 1
                await _table_game(manager, channel, players=2, policy=policy)
                continue
            seat = game.seat_of(HOST)
            assert seat is not None
            started = time.perf_counter()
            result = await manager.act(channel, HOST, human.choose(game.state.focused(seat.seat)))
            if any(step.user_id is None for step in result.steps[1:]):
                timings.append(time.perf_counter() - started)
    finally:
        for process in busy:
            process.kill()
            process.wait()
        manager.thinker.close()
        await storage.close()
    return timings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench waits", description=__doc__.split("\n\n")[0])
    parser.add_argument("--one-start", action="store_true", help="one start of the renderer (a JSON line)")
    parser.add_argument("--starts", type=int, default=STARTS)
    parser.add_argument("--turns", type=int, default=AI_TURNS)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="projectl-waits-") as folder:
        if args.one_start:
            print(json.dumps({"first_table_ms": round(asyncio.run(one_start(Path(folder))), 1)}))
            return 0
        report = BenchReport("waits")
        starts = first_tables(args.starts)
        print(f"first table after a start, ms: {', '.join(f'{ms:.0f}' for ms in starts)}", flush=True)
        report.add("first_table_after_start_ms", round(statistics.median(starts), 1),
                   label="the first table image after the bot's renderer starts, p50 (wall)", unit="ms",
                   note=f"{len(starts)} starts, each a fresh process")
        report.add("first_table_after_start_max_ms", round(max(starts), 1),
                   label="... the slowest of them", unit="ms", note=f"{len(starts)} starts")
        turns = asyncio.run(ai_turns(Path(folder), args.turns))
        print(f"{AI_POLICY} turns beside {BUSY_PROCESSES} busy processes, s: "
              f"{', '.join(f'{s:.2f}' for s in turns)}", flush=True)
        note = f"{len(turns)} turns, 2 players, {BUSY_PROCESSES} CPU-bound processes beside"
        report.add("ai_turn_busy_p95_s", round(percentile(turns, 0.95), 2),
                   label=f"an {AI_POLICY.title()} AI seat's whole turn, both cores busy, p95 (wall)",
                   unit="s", note=note)
        report.add("ai_turn_busy_p50_s", round(statistics.median(turns), 2),
                   label="... its median", unit="s", note=note)
        report.info("ai_turn_seconds", DEFAULT_AI_TURN_SECONDS)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
