"""``python -m bench scale``: SQLite in one process against PostgreSQL with 1 and 2 processes.

* 200 channels acting (closed loop: every game acts again as soon as it is answered), through the
  real manager, storage and a two-thread renderer (the response stub of ``bench/load.py``), in
  one worker process with SQLite, then one and two worker processes sharing one PostgreSQL
  (started here: :mod:`bot.core.storage.pg_server`; the 200 games are built in SQLite and moved in
  with :mod:`bot.core.storage.move`). Two workers split the channels; actions/s is the sum.
* 1,000 due reminders, two processes claiming them at the same time: each must be claimed once.
* Two processes acting, one killed -9 mid-burst: every action a process answered is in the log
  (0 lost), and a restarted process plays on in the killed one's channels.

Human-readable lines first; the last line is ONE JSON object (:class:`bench.report.BenchReport`,
suite ``scale``: ``make bench-scale``, and part of ``make bench FULL=1``). Its budget,
``postgresql_2_speedup`` (issue 30: two shard processes carry at least 1.6 times one process's
throughput), fails the run when missed, and so does a machine without PostgreSQL (the figure is
then not measured). Figures from a shared machine are noisy: compare them within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.clock import ManualClock
from bot.core.play.manager import GameManager
from bot.core.rendering.render import ThreadedRenderer
from bot.core.storage import DaysStore, NewSeat, Storage, TurnKey
from bot.core.storage.pg_server import PgServer

from . import build
from .load import closed_loop, percentile
from .players import policy_factory
from .report import BenchReport

ROOT = Path(__file__).resolve().parent.parent
START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def say(text: str) -> None:
    print(text, flush=True)


# -- the worker processes -------------------------------------------------------------------------


def process_cpu_s() -> float:
    """This process's CPU time so far (every thread: the loop, the storage's, the renderer's)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def act_worker(target: str, channels: list[int], per_game: int) -> dict[str, Any]:
    storage = await Storage.open(target)
    try:
        manager = GameManager(storage, policies=policy_factory)
        cpu = process_cpu_s()
        result = await closed_loop(manager, ThreadedRenderer(), channels, per_game)
        cpu = process_cpu_s() - cpu
    finally:
        await storage.close()
    return {"actions": result.actions, "seconds": result.seconds, "latencies_ms": result.latencies_ms,
            "cpu_s": cpu}


class ServerCpu:
    """CPU time of a PostgreSQL server's processes (postmaster, background workers and every
    client's backend) while it runs, from /proc: sampled every ``every`` seconds, since a
    backend's figures vanish with it when its client disconnects (the last ``every`` seconds of
    a backend are missed, which undercounts a little). None off Linux."""

    def __init__(self, postmaster_pid: int, every: float = 0.05) -> None:
        self._postmaster = postmaster_pid
        self._every = every
        self._first: dict[int, float] = {}
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ServerCpu:
        self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()

    @property
    def seconds(self) -> float:
        return sum(self._last[pid] - self._first[pid] for pid in self._last)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self._sample()

    def _sample(self) -> None:
        for pid, cpu in server_processes_cpu(self._postmaster).items():
            self._first.setdefault(pid, cpu)
            self._last[pid] = cpu


TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def server_processes_cpu(postmaster: int) -> dict[int, float]:
    """utime + stime (seconds) of ``postmaster`` and its children, by pid."""
    found: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS_PER_S
    return found


async def ack_worker(target: str, channels: list[int], per_game: int) -> dict[str, Any]:
    """Like :func:`act_worker`, but prints ``ACK <channel>`` the moment each action is answered
    (committed): what a player was told, for the kill -9 check."""
    import random

    from .load import serve_action

    storage = await Storage.open(target)
    try:
        manager = GameManager(storage, policies=policy_factory)
        renderer = ThreadedRenderer()

        async def player(channel: int) -> None:
            rng = random.Random(channel)
            for _ in range(per_game):
                if not await serve_action(manager, renderer, channel, rng):
                    return
                print(f"ACK {channel}", flush=True)

        await asyncio.gather(*(player(c) for c in channels))
    finally:
        await storage.close()
    return {}


async def logged_actions(target: str, channels: list[int]) -> dict[int, int]:
    """Per channel, how many actions its latest game's log holds."""
    storage = await Storage.open(target)
    try:
        days = DaysStore(storage)
        counts = {}
        for channel in channels:
            game = await days.latest_game_in_channel(channel)
            counts[channel] = 0 if game is None else len(await storage.actions(game.id))
        return counts
    finally:
        await storage.close()


def kill_mid_burst(url: str, channels: list[int], per_game: int, after_s: float = 4.0) -> dict[str, int]:
    """Two processes act; one is killed -9 mid-burst; the other finishes and a restarted process
    plays the killed one's channels on. Every action a process answered must be in the log."""
    import signal

    before = asyncio.run(logged_actions(url, channels))
    shares = [channels[0::2], channels[1::2]]
    procs = [subprocess.Popen([sys.executable, "-m", "bench.scale", "ack", url, "--per-game", str(per_game),
                               "--channels", *map(str, share)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
             for share in shares]
    time.sleep(after_s)
    procs[0].send_signal(signal.SIGKILL)
    acked: dict[int, int] = dict.fromkeys(channels, 0)
    for proc in procs:
        out, _ = proc.communicate()
        for line in out.splitlines():
            if line.startswith("ACK "):
                acked[int(line.split()[1])] += 1
    killed_acks = sum(acked[c] for c in shares[0])
    restarted = subprocess.run([sys.executable, "-m", "bench.scale", "ack", url, "--per-game", "1",
                                "--channels", *map(str, shares[0])], cwd=ROOT, capture_output=True, text=True)
    for line in restarted.stdout.splitlines():
        if line.startswith("ACK "):
            acked[int(line.split()[1])] += 1
    after = asyncio.run(logged_actions(url, channels))
    lost = sum(max(0, before[c] + acked[c] - after[c]) for c in channels)
    return {"kill_acked_before_kill": killed_acks, "kill_restart_acked": restarted.stdout.count("ACK "),
            "kill_actions_acked": sum(acked.values()), "kill_actions_lost": lost,
            "kill_restart_exit": restarted.returncode}


async def remind_worker(target: str) -> dict[str, Any]:
    storage = await Storage.open(target, ManualClock(START))
    claimed: list[list[int]] = []
    try:
        days = DaysStore(storage)
        now = START + timedelta(hours=1)
        for row in await days.due_turns(now):
            if await days.claim_reminder(row, now, None):
                claimed.append([row.key.game_id, row.key.seat])
    finally:
        await storage.close()
    return {"claimed": claimed}


def run_workers(jobs: list[list[str]]) -> list[dict[str, Any]]:
    """Start every job as its own process at once; their JSON answers, in order."""
    procs = [subprocess.Popen([sys.executable, "-m", "bench.scale", *job], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True) for job in jobs]
    answers = []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise RuntimeError(f"worker {proc.args} failed")
        answers.append(json.loads(out.strip().splitlines()[-1]))
    return answers


def acting(target: str, channels: list[int], processes: int, per_game: int,
           server: PgServer | None = None) -> dict[str, Any]:
    """``processes`` worker processes share ``channels`` (every ``processes``-th each) against
    ``target``: their summed actions over the busiest one's seconds, each one's own rate beside
    it (a process that carried less shows as such, not hidden in the sum), and the latencies.
    Also the CPU per action of the bot processes (over their acting) and, given the ``server``,
    of all its processes (over the workers' whole lives, start-up included): on a shared machine
    these are the figures to compare, not the rates (docs/benchmarks.md, issue 30)."""
    shares = [channels[i::processes] for i in range(processes)]
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        server_cpu = None if server is None else stack.enter_context(ServerCpu(server.postmaster_pid()))
        answers = run_workers([["act", target, "--per-game", str(per_game), "--channels", *map(str, share)]
                               for share in shares])
    wall = time.perf_counter() - started
    latencies = [ms for answer in answers for ms in answer["latencies_ms"]]
    actions = sum(answer["actions"] for answer in answers)
    busiest = max(answer["seconds"] for answer in answers)
    figures = {"actions": actions, "actions_per_s": round(actions / busiest, 1),
               "per_process_actions_per_s": [round(a["actions"] / a["seconds"], 1) for a in answers],
               "p50_ms": round(percentile(latencies, 50), 1), "p99_ms": round(percentile(latencies, 99), 1),
               "wall_s": round(wall, 1),
               "bot_cpu_ms_per_action": round(1000 * sum(a["cpu_s"] for a in answers) / max(1, actions), 2)}
    if server_cpu is not None:
        figures["server_cpu_ms_per_action"] = round(1000 * server_cpu.seconds / max(1, actions), 2)
    return figures


async def due_reminders(target: str, count: int) -> None:
    """``count`` open turns of ``count`` games, each with a reminder due."""
    storage = await Storage.open(target, ManualClock(START))
    try:
        days = DaysStore(storage)
        for index in range(count):
            game = await storage.create_game(guild_id=1, channel_id=50_000 + index, host_id=5, variant="base",
                                             max_players=2, options={}, seed=index,
                                             seats=[NewSeat("a", user_id=5), NewSeat("b", user_id=6)])
            game = await storage.start_game(game.id, game.revision, "{}", 1)
            await days.open_turn(TurnKey(game.id, 1, "play", 0), user_id=5, channel_id=50_000 + index,
                                 started_at=START, deadline_at=None, due_at=START + timedelta(minutes=5))
    finally:
        await storage.close()


# -- the bench --------------------------------------------------------------------------------------


def main_bench(per_game: int, reminders: int) -> int:
    """The bench (see the module): its figures against their budgets (``postgresql_2_speedup``,
    issue 30), then the kill -9 and reminder checks, each of which must hold exactly."""
    from bot.core.storage.move import move
    from bot.core.storage.pg_server import NoPostgresError, create_database

    report = BenchReport("scale")
    report.info("channels", 200)
    report.info("per_game", per_game)
    checks_ok = True
    with tempfile.TemporaryDirectory(prefix="projectl-scale-") as tmp:
        built = Path(tmp) / "built.sqlite3"
        channels = asyncio.run(build.build(built, games=200, active=200, moves=12, seed=2))
        with sqlite3.connect(built) as db:  # WAL: fold the log into the file before copying it
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        lite = Path(tmp) / "sqlite1.sqlite3"
        shutil.copy(built, lite)
        sqlite_1 = acting(str(lite), channels, 1, per_game)
        report.info("sqlite_1", sqlite_1)
        report.add("sqlite_1_actions_per_s", sqlite_1["actions_per_s"], label="SQLite, 1 process",
                   unit="actions/s", note=f"{sqlite_1['actions']} actions; CPU per action "
                                          f"{sqlite_1['bot_cpu_ms_per_action']} ms")
        say(f"SQLite, 1 process: {sqlite_1}")
        try:
            server = PgServer.start()
        except (NoPostgresError, subprocess.CalledProcessError) as error:
            say(f"PostgreSQL figures skipped: {error}")
            report.info("postgresql", None)
            return report.finish()
        try:
            acted: dict[int, dict[str, Any]] = {}
            for processes in (1, 2):
                url = asyncio.run(create_database(server, f"scale{processes}"))
                asyncio.run(move(built, url))
                acted[processes] = acting(url, channels, processes, per_game, server)
                report.info(f"postgresql_{processes}", acted[processes])
                each = ", ".join(map(str, acted[processes]["per_process_actions_per_s"]))
                report.add(f"postgresql_{processes}_actions_per_s", acted[processes]["actions_per_s"],
                           label=f"PostgreSQL, {processes} process(es)", unit="actions/s",
                           note=f"per process {each}; CPU per action: bot processes "
                                f"{acted[processes]['bot_cpu_ms_per_action']} ms, server "
                                f"{acted[processes].get('server_cpu_ms_per_action')} ms")
                say(f"PostgreSQL, {processes} process(es): {acted[processes]}")
            speedup = round(acted[2]["actions_per_s"] / acted[1]["actions_per_s"], 2)
            report.add("postgresql_2_speedup", speedup, unit="x",
                       label="2 shard processes over 1, same 200-channel load")
            url = asyncio.run(create_database(server, "killed"))
            asyncio.run(move(built, url))
            killed = kill_mid_burst(url, channels, per_game=10)
            for key, value in killed.items():
                report.info(key, value)
            say(f"kill -9 of one of two processes mid-burst: {killed['kill_actions_acked']} actions "
                f"answered, {killed['kill_actions_lost']} lost; the restarted process answered "
                f"{killed['kill_restart_acked']}")
            url = asyncio.run(create_database(server, "reminders"))
            asyncio.run(due_reminders(url, reminders))
            answers = run_workers([["remind", url], ["remind", url]])
            claims = [tuple(c) for answer in answers for c in answer["claimed"]]
            twice = len(claims) - len(set(claims))
            report.info("reminders_due", reminders)
            report.info("reminders_claimed", len(claims))
            report.info("reminders_claimed_twice", twice)
            report.info("reminders_per_process", [len(answer["claimed"]) for answer in answers])
            say(f"{reminders} due reminders, 2 processes: {len(claims)} claimed, {twice} twice, "
                f"split {[len(answer['claimed']) for answer in answers]}")
            checks_ok = (len(claims) == reminders and twice == 0 and killed["kill_actions_lost"] == 0
                         and killed["kill_restart_acked"] > 0)
        finally:
            server.stop()
    if not checks_ok:
        say("scale: a kill -9 or reminder check FAILED (see the lines above)")
    return max(report.finish(), 0 if checks_ok else 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench scale")
    parser.add_argument("mode", nargs="?", default="bench", choices=("bench", "act", "ack", "remind"))
    parser.add_argument("target", nargs="?")
    parser.add_argument("--channels", nargs="*", type=int, default=[])
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--reminders", type=int, default=1000)
    args = parser.parse_args(argv)
    if args.mode == "act":
        print(json.dumps(asyncio.run(act_worker(args.target, args.channels, args.per_game))))
        return 0
    if args.mode == "ack":
        asyncio.run(ack_worker(args.target, args.channels, args.per_game))
        return 0
    if args.mode == "remind":
        print(json.dumps(asyncio.run(remind_worker(args.target))))
        return 0
    return main_bench(args.per_game, args.reminders)


if __name__ == "__main__":
    sys.exit(main())
