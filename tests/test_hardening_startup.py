"""Bad start-ups end in one sentence, change nothing, and exit non-zero; migrations hold when
several processes start at once; SIGTERM stops the bot cleanly.

Every case drives ``python -m bot``'s own ``main()`` (in this process, with the environment and
working folder of a first run) or, for SIGTERM, a real process. Each bad start-up must print ONE
line naming what is wrong and where, return a non-zero code, print no traceback, and leave the
database file byte for byte as it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiosqlite
import pytest
from test_bot_support import TOKEN

import bot.__main__ as entry
import bot.core.storage.connecting as storage_connecting
from bot.__main__ import main
from bot.core.storage import Storage, StorageOpenError, migrations
from bot.core.storage.opening import explain_sqlite

ROOT = Path(__file__).resolve().parents[1]


def run_main(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
             **env: str) -> tuple[int, str]:
    """``main()`` as a first run would call it: only ``env`` set, in a folder without .env."""
    for name in list(os.environ):
        if name.startswith("PROJECTL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)

    async def never_connect(settings: object) -> None:  # the cases end before Discord
        raise AssertionError("the bot went on to connect to Discord")

    monkeypatch.setattr(entry, "_run", never_connect)
    code = main([])
    captured = capsys.readouterr()
    return code, captured.err


def assert_one_sentence(code: int, err: str, *fragments: str) -> None:
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and lines[0].endswith((".", "?")), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, err)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def real_database(path: Path) -> None:
    """A database the bot made, with a game in it."""
    async def build() -> None:
        store = await Storage.open(str(path))
        await store.create_game(guild_id=1, channel_id=2, host_id=3, variant="base", max_players=2,
                                options={}, seed=1)
        await store.close()

    asyncio.run(build())


# -- the SQLite file --------------------------------------------------------------------------

def test_a_folder_as_the_database_path_is_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(folder))
    assert_one_sentence(code, err, "PROJECTL_DB_PATH", "is a folder", str(folder))
    assert list(folder.iterdir()) == []


def test_a_text_file_as_the_database_is_one_sentence_and_untouched(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping: eggs, milk\n" * 20)
    before = digest(path)
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    assert_one_sentence(code, err, "is not a SQLite database", str(path))
    assert digest(path) == before


def test_a_truncated_database_is_one_sentence_and_untouched(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = digest(path)
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    assert_one_sentence(code, err, "damaged", "truncated", str(path))
    assert digest(path) == before


def test_a_corrupt_database_is_one_sentence_and_untouched(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    data = bytearray(path.read_bytes())
    data[100:112] = b"\xff" * 12  # the schema table's page header: no valid b-tree page
    path.write_bytes(bytes(data))
    before = digest(path)
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    assert_one_sentence(code, err, "damaged", str(path))
    assert digest(path) == before


def test_a_damaged_page_of_the_games_is_one_sentence_before_discord(monkeypatch, tmp_path, capsys) -> None:
    """The schema page intact but a page of the games table damaged (a failing disk): the
    database opens, and the first read of the games (resume(), after the Discord login) used to
    end in a sqlite3.DatabaseError traceback. The games are read before Discord is contacted."""
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0])
        size = int(db.execute("PRAGMA page_size").fetchone()[0])
    db.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size:(page - 1) * size + 64] = b"\xff" * 64  # the games b-tree's own page
    path.write_bytes(bytes(data))
    before = digest(path)
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    assert_one_sentence(code, err, "damaged", str(path))
    assert digest(path) == before


def test_a_database_locked_by_another_program_is_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    monkeypatch.setattr(storage_connecting, "OPENING_BUSY_TIMEOUT_SECONDS", 0.2)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")  # an exclusive lock blocks every reader too
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert_one_sentence(code, err, "locked by another program", str(path))


def test_a_lock_released_while_the_database_opens_is_waited_for(monkeypatch, tmp_path) -> None:
    """SQLite answers "locked" at once, without its busy timeout, where waiting could deadlock
    (processes switching a new file to WAL together): the opening tries again, so a lock that is
    let go soon costs a moment, not a refusal. Here the busy timeout is 0.05 s and the other
    program holds the file for 0.3 s."""
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    monkeypatch.setattr(storage_connecting, "OPENING_BUSY_TIMEOUT_SECONDS", 0.05)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA journal_mode=DELETE")  # an exclusive lock blocks every reader too
    holder.execute("BEGIN EXCLUSIVE")

    async def open_while_held() -> int:
        letting_go = asyncio.get_running_loop().call_later(0.3, holder.execute, "ROLLBACK")
        try:
            store = await Storage.open(str(path))
        finally:
            letting_go.cancel()
        version = await store.schema_version()
        await store.close()
        return version

    try:
        assert asyncio.run(open_while_held()) == len(migrations.available())
    finally:
        holder.close()


@contextmanager
def small_mount(tmp_path: Path, options: str) -> Iterator[Path]:
    """A tmpfs mounted with ``options`` (root only; skipped where mounting is not allowed)."""
    point = tmp_path / "mnt"
    point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def test_a_full_disk_is_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    with small_mount(tmp_path, "size=24k") as point:
        path = point / "projectl.sqlite3"
        code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
        assert_one_sentence(code, err, "is full", str(path))


def test_a_read_only_database_is_one_sentence_and_untouched(monkeypatch, tmp_path, capsys) -> None:
    with small_mount(tmp_path, "size=1m") as point:
        path = point / "projectl.sqlite3"
        real_database(path)
        before = digest(path)
        subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
        code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
        assert_one_sentence(code, err, str(path))
        assert "read-only" in err or "cannot open" in err
        assert digest(path) == before


def test_sqlite_errors_read_as_what_they_are(tmp_path: Path) -> None:
    """The errors SQLite itself raises for a read-only or full database, as the sentences."""
    path = tmp_path / "x.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    readonly = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.Error) as info:
        readonly.execute("INSERT INTO t VALUES (1)")
    assert "read-only" in str(explain_sqlite("x.sqlite3", info.value))
    full = sqlite3.connect(tmp_path / "full.sqlite3")
    full.execute("CREATE TABLE t (x)")
    full.execute("PRAGMA max_page_count=3")
    with pytest.raises(sqlite3.Error) as info:
        full.execute("INSERT INTO t VALUES (?)", ("x" * 20000,))
    assert "is full" in str(explain_sqlite("full.sqlite3", info.value))


def test_a_tilde_in_the_database_path_means_home(monkeypatch, tmp_path) -> None:
    from bot.core.config import Settings

    monkeypatch.setenv("HOME", str(tmp_path))
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "PROJECTL_DB_PATH": "~/bot/projectl.sqlite3"},
                                 dotenv_path=None)
    assert settings.db_path == str(tmp_path / "bot" / "projectl.sqlite3")


def test_a_database_from_a_newer_bot_is_refused_unchanged(monkeypatch, tmp_path, capsys) -> None:
    path = tmp_path / "projectl.sqlite3"
    real_database(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version VALUES (?, 'from_the_future', 'x')",
                   (len(migrations.available()) + 1,))
    db.close()
    before = digest(path)
    code, err = run_main(monkeypatch, tmp_path, capsys, PROJECTL_DB_PATH=str(path))
    assert_one_sentence(code, err, "newer", str(path))
    assert digest(path) == before


# -- the settings -----------------------------------------------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(("env", "fragment"), [
    ({"PROJECTL_DEV_GUILD_ID": HUGE}, "PROJECTL_DEV_GUILD_ID"),
    ({"PROJECTL_SHARD_COUNT": HUGE}, "PROJECTL_SHARD_COUNT"),
    ({"PROJECTL_SHARD_COUNT": "4", "PROJECTL_SHARD_IDS": "0-99999999999"}, "PROJECTL_SHARD_IDS"),
    ({"PROJECTL_SHARD_COUNT": "4", "PROJECTL_SHARD_IDS": f"0-{HUGE}"}, "PROJECTL_SHARD_IDS"),
    ({"PROJECTL_DATABASE_URL": "postgresql://u@localhost:port/db"}, "port"),
])
def test_absurd_settings_are_one_sentence(monkeypatch, tmp_path, capsys, env, fragment) -> None:
    code, err = run_main(monkeypatch, tmp_path, capsys, **env)
    assert_one_sentence(code, err, fragment)
    assert len(err) < 400


def catalogue_file(tmp_path: Path, content: bytes) -> str:
    path = tmp_path / "cards.json"
    path.write_bytes(content)
    return str(path)


@pytest.mark.parametrize(("content", "fragment"), [
    (b'{"format": 1, "name": "x", "cards": [\xff\xfe]}', "UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "too deeply"),
    (json.dumps({"format": 1, "name": "x", "cards": []}).encode()[:-1]
     + b', "huge": ' + HUGE.encode() + b"}", "PROJECTL_CATALOGUE"),
    (json.dumps({"format": 1, "name": "x", "cards": [
        {"id": "W1", "colour": "white", "points": 10**3000, "reward": "O1",
         "recess": ["#...."] + ["....."] * 4}]}).encode(), "points must be at most"),
])
def test_a_broken_catalogue_is_one_sentence(monkeypatch, tmp_path, capsys, content, fragment) -> None:
    code, err = run_main(monkeypatch, tmp_path, capsys,
                         PROJECTL_CATALOGUE=catalogue_file(tmp_path, content),
                         PROJECTL_DB_PATH=str(tmp_path / "db.sqlite3"))
    assert_one_sentence(code, err, fragment)
    assert len(err) < 400
    assert not (tmp_path / "db.sqlite3").exists()  # nothing was created


# -- PostgreSQL -------------------------------------------------------------------------------

def test_postgresql_refusing_connections_is_one_sentence(monkeypatch, tmp_path, capsys) -> None:
    pytest.importorskip("asyncpg")
    code, err = run_main(monkeypatch, tmp_path, capsys,
                         PROJECTL_DATABASE_URL="postgresql://projectl@127.0.0.1:1/projectl")
    assert_one_sentence(code, err, "PostgreSQL", "127.0.0.1:1")
    assert "Discord" not in err


async def test_postgresql_without_the_database_or_the_user_is_one_sentence(postgres_url: str) -> None:
    base = postgres_url.rsplit("/", 1)[0]
    with pytest.raises(StorageOpenError) as info:
        await Storage.open(base + "/no_such_database")
    assert "no database 'no_such_database'" in str(info.value)
    with pytest.raises(StorageOpenError) as info:
        await Storage.open(base.replace("postgres@", "nobody_here@") + "/postgres")
    assert "nobody_here" in str(info.value) and "\n" not in str(info.value)


# -- migrations when several processes start at once ------------------------------------------

STARTER = textwrap.dedent("""
    import asyncio, sys
    from bot.core.storage import Storage

    async def main() -> None:
        store = await Storage.open(sys.argv[1])
        print(await store.schema_version())
        await store.close()

    asyncio.run(main())
""")


def start_together(target: str, count: int) -> list[subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [subprocess.Popen([sys.executable, "-c", STARTER, target], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
                 for _ in range(count)]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return results


def assert_all_migrated(results: list[subprocess.CompletedProcess[str]]) -> None:
    latest = str(len(migrations.available()))
    for result in results:
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == latest


def test_sqlite_migrates_once_when_processes_start_together(tmp_path: Path) -> None:
    for round_ in range(3):
        target = str(tmp_path / f"race{round_}.sqlite3")
        assert_all_migrated(start_together(target, 6))
        with sqlite3.connect(target) as db:
            versions = [row[0] for row in db.execute("SELECT version FROM schema_version")]
        assert versions == list(range(1, len(migrations.available()) + 1))


async def test_postgresql_migrates_once_when_processes_start_together(postgres_url: str) -> None:
    results = await asyncio.to_thread(start_together, postgres_url, 6)
    assert_all_migrated(results)


async def test_migrating_takes_the_lock_before_reading_the_version(tmp_path: Path) -> None:
    """A second connection that reads the version while the first migrates would apply the same
    migration again; with the lock first it waits and then finds nothing left to do."""
    path = tmp_path / "lock.sqlite3"
    first = await aiosqlite.connect(path, isolation_level=None, timeout=5)
    second = await aiosqlite.connect(path, isolation_level=None, timeout=5)
    try:
        applied = await asyncio.gather(migrations.migrate(first, "t"), migrations.migrate(second, "t"))
    finally:
        await first.close()
        await second.close()
    assert sum(len(names) for names in applied) == len(migrations.available())  # each once


# -- a clean stop -----------------------------------------------------------------------------

STOPPABLE = textwrap.dedent("""
    import asyncio, sys
    import bot.__main__ as entry
    from bot.discord.app import ProjectLBot
    from bot.core.storage import Storage

    async def start(self, token, *, reconnect=True):
        self.storage = await Storage.open(self.settings.db_path)
        await self.storage.create_game(guild_id=1, channel_id=2, host_id=3, variant="base",
                                       max_players=2, options={}, seed=1)
        print("running", flush=True)
        await asyncio.Event().wait()

    original_close = ProjectLBot.close

    async def close(self):
        await original_close(self)
        print("closed", flush=True)

    ProjectLBot.start = start
    ProjectLBot.close = close
    sys.exit(entry.main())
""")


def test_sigterm_closes_the_bot_and_its_database(tmp_path: Path) -> None:
    db = tmp_path / "projectl.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "PROJECTL_DB_PATH": str(db)}
    process = subprocess.Popen([sys.executable, "-c", STOPPABLE], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "running"
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "closed" in out
    assert not Path(f"{db}-wal").exists()  # the last connection closed: SQLite checkpointed it
    with sqlite3.connect(db) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_the_container_image_leaves_secrets_and_databases_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for pattern in (".env", ".venv/", "*.sqlite3", ".git/"):
        assert pattern in ignored



# -- PostgreSQL going away under a running bot ------------------------------------------------

@pytest.fixture
def own_postgres() -> Iterator[object]:
    """A PostgreSQL server of this test's own, which it may restart."""
    pytest.importorskip("asyncpg")
    from bot.core.storage.pg_server import NoPostgresError, PgServer

    try:
        server = PgServer.start()
    except (NoPostgresError, OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"no PostgreSQL server here: {error}")
    yield server
    server.stop()


async def test_the_bot_plays_on_after_postgresql_restarts(own_postgres) -> None:
    import time

    from days_support import CHANNEL, START, act, current_user, days_bot, game_of
    from test_bot_support import final_reply, open_table

    from bot.core.clock import ManualClock as Clock
    from bot.core.storage.pg_server import create_database

    url = await create_database(own_postgres, "restarts")
    async with days_bot(url, Clock(START)) as h:  # type: ignore[arg-type]
        await open_table(h, h.user("alice"), [h.user("bob")], channel=CHANNEL)
        player = await current_user(h)
        assert "level1" in final_reply(await act(h, player, "level1")).content
        await asyncio.to_thread(own_postgres.restart)
        started = time.monotonic()
        reply = final_reply(await act(h, player, "level1"))
        assert "level1" in reply.content and "Sorry" not in reply.content, reply.content
        assert time.monotonic() - started < 10
        game = await game_of(h)
        assert game.state is not None and game.state.actions_left == 1
        storage = h.bot.storage  # type: ignore[attr-defined]
        assert storage._db.reconnects >= 1  # noqa: SLF001 - the connection really was replaced


async def test_a_job_that_loses_its_connection_mid_transaction_changes_nothing(postgres_url: str) -> None:
    """Only this store's own connection is ended, so the test run's shared server will do."""
    from bot.core.storage import NewSeat, StorageUnavailableError

    store = await Storage.open(postgres_url)
    try:
        game = await store.create_game(guild_id=1, channel_id=2, host_id=3, variant="base", max_players=2,
                                       options={}, seed=1, seats=[NewSeat("a", user_id=3)])

        def kill_then_write(conn) -> None:  # noqa: ANN001 - the store's connection
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")

        with pytest.raises(StorageUnavailableError):
            await store.write(kill_then_write)
        again = await store.get_game(game.id)  # the next job reconnects
        assert again.revision == game.revision
    finally:
        await store.close()


async def test_a_single_statement_write_that_loses_its_connection_is_not_sent_again(
        postgres_url: str) -> None:
    """A write that is its own transaction (an action's commit on PostgreSQL is one statement)
    may have been committed when its connection went: it is reported, never sent a second time.
    Only this store's own connection is ended, so the test run's shared server will do."""
    from bot.core.storage import NewSeat, StorageUnavailableError

    store = await Storage.open(postgres_url)
    try:
        game = await store.create_game(guild_id=1, channel_id=2, host_id=3, variant="base", max_players=2,
                                       options={}, seed=1, seats=[NewSeat("a", user_id=3)])
        sent: list[int] = []

        def write_then_lose_the_connection(conn) -> None:  # noqa: ANN001 - the store's connection
            sent.append(1)
            conn.execute("UPDATE games SET revision = revision + 1"
                         " WHERE id = ? AND pg_terminate_backend(pg_backend_pid())", (game.id,))

        with pytest.raises(StorageUnavailableError):
            await store.job(write_then_lose_the_connection)
        assert sent == [1]
        again = await store.get_game(game.id)  # the next job reconnects
        assert again.revision == game.revision
    finally:
        await store.close()
