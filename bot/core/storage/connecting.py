"""Opening the database: a SQLite file checked, switched to WAL mode, set up and migrated, or a
PostgreSQL server connected and migrated. Its own module because opening is done once per process
and has its own hazards (processes starting together, a locked or foreign file, a newer bot's
schema), which the store's everyday reads and writes (db.py) never meet.

WAL mode and ``synchronous=NORMAL``: readers never block the writer, and a committed action
survives the bot's process dying at any moment (SIGKILL, a crash, the OOM killer: the commit is
in the WAL file, which the operating system writes out), so "commit, then tell the player" is an
honest promise against everything but the machine itself losing power or its kernel crashing.
Then the last transactions before the WAL was last synced (a checkpoint) can be lost, never
half-kept: the database stays consistent. ``FULL`` synced the WAL on every commit: on this
project's disk an fsync takes 3 ms at the median and 20–47 ms in its tail, which made it the
slowest part of an action (issue 30: action p99 <= 10 ms). :data:`SYNCHRONOUS` is the setting.
The log is copied into the database file by checkpoints on a connection and thread of their own
(checkpoints.py), not inside the commit that happens to fill it.
"""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite

from bot.core.storage import migrations
from bot.core.storage.migrations import NewerSchemaError
from bot.core.storage.opening import (
    SQLITE_ERRORS,
    StorageOpenError,
    check_sqlite_file,
    explain_postgres,
    explain_sqlite,
    is_busy,
    make_sqlite_folder,
    stored_schema_version,
)
from bot.core.storage.postgres import PgConnection

BUSY_TIMEOUT_SECONDS = 5.0
"""How long a statement waits for another connection's lock before failing."""
OPENING_BUSY_TIMEOUT_SECONDS = 20.0
"""The same while the database opens (the WAL switch, the migrations): a process that starts
beside others waits for their migrations however busy the machine is, then answers a locked
database in one sentence."""
SYNCHRONOUS = "NORMAL"
"""SQLite's ``synchronous`` setting in WAL mode: a commit is not synced to disk by itself (see the
module docstring for what that promises, and why not ``FULL``)."""


async def open_sqlite(target: str, now_iso: str) -> aiosqlite.Connection:
    """The SQLite database at ``target``, checked, in WAL mode and migrated. The opening busy
    timeout is set as the connection opens, before anything else, so that of several processes
    starting at once none fails on another's lock (the WAL switch and the migrations wait their
    turn); the shorter everyday one follows.

    A database of a newer bot is refused before anything is written to it (the WAL switch writes
    its header): its schema version is read first, read-only."""
    found = check_sqlite_file(target)
    if found is not None:
        version = await asyncio.to_thread(stored_schema_version, found)
        try:
            migrations.refuse_newer(version or 0, len(migrations.available()))
        except NewerSchemaError as error:
            raise StorageOpenError(f"the database file {target}: {error}.") from None
    make_sqlite_folder(target)
    connecting = aiosqlite.connect(target, isolation_level=None, timeout=OPENING_BUSY_TIMEOUT_SECONDS)
    try:
        db = await connecting
    except SQLITE_ERRORS as error:
        await _worker_stopped(connecting)
        raise explain_sqlite(target, error) from None
    try:
        await db.execute(f"PRAGMA busy_timeout={int(OPENING_BUSY_TIMEOUT_SECONDS * 1000)}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(OPENING_BUSY_TIMEOUT_SECONDS, OPENING_PAUSES_SECONDS)
        for attempt in range(OPENING_ATTEMPTS):
            try:
                await _prepare_sqlite(db, now_iso)
                break
            except sqlite3.OperationalError as error:
                if not is_busy(error) or attempt == OPENING_ATTEMPTS - 1 or loop.time() >= deadline:
                    raise
                await asyncio.sleep(OPENING_RETRY_SECONDS * (attempt + 1))
        await db.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_SECONDS * 1000)}")
    except NewerSchemaError as error:
        await db.close()
        raise StorageOpenError(f"the database file {target}: {error}.") from None
    except SQLITE_ERRORS as error:
        await db.close()
        raise explain_sqlite(target, error) from None
    except BaseException:
        await db.close()
        raise
    return db


OPENING_ATTEMPTS = 8
OPENING_RETRY_SECONDS = 0.05
OPENING_PAUSES_SECONDS = OPENING_RETRY_SECONDS * OPENING_ATTEMPTS * (OPENING_ATTEMPTS - 1) / 2
"""A database that answers "locked" at once while it opens is tried again, up to
``OPENING_ATTEMPTS`` times, after 0.05, 0.1, 0.15 … s (1.4 s in all). SQLite skips the busy
timeout where waiting could deadlock (two connections that both hold a read lock and both want to
write, as when processes switch a new file to WAL together), so a timeout alone does not cover
processes starting together. The tries end once the opening busy timeout (at least the pauses'
1.4 s) has passed since the first, so a lock held for good is still told in one sentence after
about that long, not eight times that."""


async def _prepare_sqlite(db: aiosqlite.Connection, now_iso: str) -> None:
    """WAL mode, the connection's settings and the migrations: safe to run again after a busy
    answer (each step is idempotent, and a migration is one transaction)."""
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
    await db.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints.py runs them off the commit path
    await db.execute("PRAGMA foreign_keys=ON")
    await migrations.migrate(db, now_iso)


async def _worker_stopped(connection: aiosqlite.Connection) -> None:
    """Wait until the thread of a connection that failed to open has ended. aiosqlite asks it to
    stop without waiting; if the event loop closed first, the thread would print an "Event loop is
    closed" traceback after the one-sentence refusal."""
    thread = connection._thread  # noqa: SLF001 - aiosqlite keeps its worker thread here
    if thread.is_alive():
        await asyncio.to_thread(thread.join, BUSY_TIMEOUT_SECONDS)


async def open_postgres(url: str, now_iso: str) -> PgConnection:
    try:
        pg = await PgConnection.connect(url)
    except StorageOpenError:
        raise
    except Exception as error:  # asyncpg's errors, OSError, timeouts: all mean "cannot open"
        raise explain_postgres(url, error) from None
    try:
        await migrations.migrate(pg, now_iso)  # type: ignore[arg-type]  # aiosqlite's surface, as above
    except NewerSchemaError as error:
        await pg.close()
        raise StorageOpenError(f"the PostgreSQL database: {error}.") from None
    except BaseException:
        await pg.close()
        raise
    return pg
