"""Start-up and shutdown end in one sentence, always — the cases that depended on timing.

* A render worker still warming up when the bot stops ends quietly (no ``BrokenPipeError`` from
  its first frame): forced deterministically with a worker whose warm-up waits for the test, and
  through the real entry point (SIGTERM while the real workers warm up).
* A new database on a read-only disk: the sentence, then nothing (aiosqlite's thread used to
  print "Event loop is closed" when the loop closed before it had stopped) — several runs of
  ``python -m bot``, as the race was lost most of the time.
* A database of a newer bot is refused before anything is written: its bytes unchanged and no
  -wal or -shm beside it, in either journal mode.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from test_bot_support import TOKEN
from test_hardening_startup import small_mount

from bot.core.rendering.worker_pipe import PipeWorker
from bot.core.storage import migrations

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path: Path, db: Path | str, script: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` (or ``script``) in a fresh process, as a first run would start it."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("PROJECTL_") and name != "DISCORD_TOKEN"}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "PROJECTL_DB_PATH": str(db)})
    command = [sys.executable, "-m", "bot"] if script is None else [sys.executable, "-c", script]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)


def assert_one_sentence(done: subprocess.CompletedProcess[str], *fragments: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and lines[0].endswith("."), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, done.stderr)


# -- a render worker stopped during its warm-up ------------------------------------------------

def wait_for(path: str) -> None:
    """A warm-up that lasts until the test creates ``path`` (run in the worker process)."""
    deadline = time.monotonic() + 120
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)


def nothing(*args: object) -> None:
    return None


async def test_a_worker_whose_bot_stopped_during_its_warm_up_ends_quietly(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    released = tmp_path / "warmed"
    worker = PipeWorker(functools.partial(wait_for, str(released)), nothing, nothing, name="warming")
    worker.abandon()  # the bot stops: its end of the socket is closed while the worker warms up
    released.touch()  # the warm-up ends now, and the worker says it is ready to nobody
    await asyncio.to_thread(worker.process.join, 120)
    assert worker.process.exitcode == 0
    err = capfd.readouterr().err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


STOPPED_WARMING = textwrap.dedent("""
    import asyncio, sys
    import bot.__main__ as entry
    from bot.discord.app import ProjectLBot
    from bot.core.rendering.worker_pipe import PipeWorker
    from bot.core.storage import Storage

    PipeWorker.close.__defaults__ = (300.0,)  # a machine fast enough that the warm-up ends first

    async def start(self, token, *, reconnect=True):
        self.storage = await Storage.open(self.settings.db_path)
        self.renderer.start()  # as setup_hook does: the workers warm up while the bot connects
        print("running", flush=True)
        await asyncio.Event().wait()

    ProjectLBot.start = start
    sys.exit(entry.main())
""")


def test_sigterm_while_the_render_workers_warm_up_prints_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN,
           "PROJECTL_DB_PATH": str(tmp_path / "projectl.sqlite3")}
    process = subprocess.Popen([sys.executable, "-c", STOPPED_WARMING], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "running"
    process.send_signal(signal.SIGTERM)  # long before a warm-up of several seconds has ended
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


# -- the database --------------------------------------------------------------------------------

def test_a_new_database_on_a_read_only_disk_is_one_sentence_every_time(tmp_path: Path) -> None:
    with small_mount(tmp_path, "size=1m") as point:
        subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
        for _ in range(5):  # the old race printed its traceback in most runs, not all
            done = run_bot(tmp_path, point / "projectl.sqlite3")
            assert_one_sentence(done, "read-only", str(point / "projectl.sqlite3"))
        assert list(point.iterdir()) == []


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_newer_database_is_refused_before_anything_is_written(tmp_path: Path, journal: str) -> None:
    path = tmp_path / "projectl.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA journal_mode={journal}")
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                   " applied_at TEXT NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 'x')",
                   (len(migrations.available()) + 1,))
    db.close()
    before, files = digest(path), sorted(p.name for p in tmp_path.iterdir())
    done = run_bot(tmp_path, path)
    assert_one_sentence(done, "newer", str(path))
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal, no -shm
