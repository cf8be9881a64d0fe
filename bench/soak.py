"""Crash soak: SIGKILL the playing process at random moments, restart it, check nothing was lost.

``python -m bench.soak --kills 50`` (``make soak``; ``--postgres`` for the same soak on a
PostgreSQL server it starts itself); ``tests/test_hardening_crash.py`` runs a short version of
both. Each round starts :mod:`bench.crashsim` on the same database, lets it play
for a random time (sometimes killing it before it is even ready, i.e. during migration or
``resume()``), kills it with SIGKILL, then checks with :func:`bench.checks.check_database`:

* every action the process acknowledged is in the log, at its revision, with its text;
* ``PRAGMA integrity_check`` is ``ok`` (SQLite);
* every game's stored state equals the replay of its log (``GameManager.verify``).

A final round runs without a kill and must play on every channel and exit cleanly: the games the
kills interrupted continue. The last line printed is a JSON summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bot.core.storage.pg_server import PgServer, create_database

from .checks import Ack, CheckReport, check_database

READY_TIMEOUT_S = 120.0
"""When a start-up counts as never: a ceiling far above the seconds it takes, so that a busy
machine slows the soak (and its test) without failing it."""


@dataclass
class SoakReport:
    kills: int = 0
    survived: int = 0
    acks: int = 0
    actions_in_log: int = 0
    games: int = 0
    killed_before_ready: int = 0
    final_run_actions: int = 0
    continued_games: int = 0
    """Games acknowledged before a kill that the final run went on playing."""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.survived == self.kills


class Child:
    """One crashsim process with a thread collecting its acknowledgement lines."""

    def __init__(
        self, db: Path | str, seed: int, channels: int, per_channel: int | None, stderr: Path,
    ) -> None:
        command = [sys.executable, "-m", "bench.crashsim", str(db), "--seed", str(seed),
                   "--channels", str(channels)]
        if per_channel is not None:
            command += ["--per-channel", str(per_channel)]
        root = Path(__file__).resolve().parent.parent
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get(
            "PYTHONPATH")]))}
        self._stderr = stderr.open("wb")
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self._stderr, cwd=root, env=env)
        self.lines: list[str] = []
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            if not raw.endswith(b"\n"):
                break  # torn at the kill: it was never a full acknowledgement
            line = raw.decode()
            if line == "READY\n":
                self.ready.set()
            self.lines.append(line)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)

    def finish(self, timeout: float | None = None) -> int:
        code = self.proc.wait(timeout)
        self._reader.join()
        self._stderr.close()
        return code

    @property
    def acks(self) -> list[Ack]:
        return [a for a in (Ack.parse(line) for line in self.lines) if a is not None]


def _record(report: SoakReport, check: CheckReport, where: str) -> None:
    report.games, report.actions_in_log = check.games, check.actions
    report.problems.extend(f"{where}: {p}" for p in check.problems)


def run_soak(
    kills: int, *, seed: int = 0, workdir: Path | None = None, channels: int = 6,
    max_play_s: float = 0.8, final_per_channel: int = 4, log: bool = True, database: str | None = None,
) -> SoakReport:
    """Kill ``kills`` times, checking after each; then one clean run. See the module docstring.
    ``database``: a ``postgresql://`` URL to soak instead of ``workdir/soak.sqlite3``."""
    started = time.perf_counter()
    rng = random.Random(seed)
    workdir = Path(workdir or tempfile.mkdtemp(prefix="projectl-soak-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db: Path | str = database or workdir / "soak.sqlite3"
    stderr = workdir / "crashsim.stderr"
    report = SoakReport()
    all_acks: list[Ack] = []
    for round_no in range(kills):
        child = Child(db, rng.getrandbits(31), channels, None, stderr)
        early = rng.random() < 0.2
        if early:  # somewhere in start-up: imports, migrations, resume()
            time.sleep(rng.uniform(0.0, 0.6))
        elif not child.ready.wait(READY_TIMEOUT_S):
            report.problems.append(f"round {round_no}: crashsim never became ready")
        else:
            time.sleep(rng.uniform(0.02, max_play_s))
        report.killed_before_ready += not child.ready.is_set()
        exited = child.proc.poll()
        child.kill()
        report.kills += 1
        code = child.finish()
        if exited is not None:
            report.problems.append(f"round {round_no}: crashsim exited by itself ({code}): "
                                   f"{stderr.read_text()[-2000:]}")
        all_acks.extend(child.acks)
        check = asyncio.run(check_database(db, child.acks))
        _record(report, check, f"after kill {round_no + 1}")
        report.survived += check.ok and exited is None
        if log:
            print(f"kill {round_no + 1}/{kills}: {len(child.acks)} acks, {check.games} games, "
                  f"{check.actions} actions, {'ok' if check.ok else 'FAILED'}", flush=True)
    final = Child(db, rng.getrandbits(31), channels, final_per_channel, stderr)
    code = final.finish(timeout=120)
    if code != 0:
        report.problems.append(f"final run exited {code}: {stderr.read_text()[-2000:]}")
    report.final_run_actions = sum(1 for a in final.acks if a.kind == "ACT")
    before = {a.game_id for a in all_acks}
    report.continued_games = len({a.game_id for a in final.acks if a.kind == "ACT"} & before)
    if report.final_run_actions < channels * final_per_channel:
        report.problems.append(f"final run played only {report.final_run_actions} actions")
    _record(report, asyncio.run(check_database(db, final.acks)), "final run")
    report.acks = len(all_acks) + len(final.acks)
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--channels", type=int, default=6)
    parser.add_argument("--workdir", type=Path, default=None, help="keep the database here")
    parser.add_argument("--postgres", action="store_true",
                        help="soak a PostgreSQL database on a server of its own "
                             "(bot/core/storage/pg_server.py)")
    args = parser.parse_args(argv)
    if not args.postgres:
        report = run_soak(args.kills, seed=args.seed, workdir=args.workdir, channels=args.channels)
    else:
        server = PgServer.start()
        try:
            url = asyncio.run(create_database(server, "soak"))
            report = run_soak(args.kills, seed=args.seed, workdir=args.workdir, channels=args.channels,
                              database=url)
        finally:
            server.stop()
    for problem in report.problems:
        print("PROBLEM:", problem, file=sys.stderr)
    summary = {k: v for k, v in asdict(report).items() if k != "problems"}
    print(json.dumps({**summary, "problems": len(report.problems), "ok": report.ok}))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(cli())
