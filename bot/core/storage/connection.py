"""The store's one connection and how work reaches it. :class:`StorageConnection` opens it
(connecting.py), closes it, and runs the store's work on it; :class:`~bot.core.storage.db.Storage`
and the stores beside it (days, plans, hints…) add what they read and write, through
:meth:`StorageConnection.job` and :meth:`StorageConnection.write`. Its own module because how
work reaches the database is the same for every table, and is where its cost is decided:

* Autocommit connection with explicit ``BEGIN IMMEDIATE`` transactions: a multi-row change (log
  row + state + revision) is one transaction, and it takes the write lock up front instead of
  failing half-way on a busy database.
* One thread round trip per request: aiosqlite runs every call (``execute``, ``fetchone``,
  closing a cursor...) as a separate job on its thread, about 0.2 ms each on a busy machine, and
  an action used to make ~37 of them. The hot paths run a plain function on the connection's
  thread instead (:meth:`StorageConnection.job`): a read, or a whole transaction plus reading the row back,
  is ONE job.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from bot.core.clock import Clock, SystemClock
from bot.core.storage import migrations
from bot.core.storage.checkpoints import WalCheckpoints
from bot.core.storage.connecting import open_postgres, open_sqlite
from bot.core.storage.postgres import PgConnection, is_postgres_url
from bot.core.storage.transactions import read_scalar, run_in_transaction

T = TypeVar("T")


class StorageConnection:
    """The database's one connection: opened by :meth:`open`, closed by :meth:`close`, and the
    jobs and transactions every store runs on it."""

    def __init__(
        self, db: aiosqlite.Connection, clock: Clock, checkpoints: WalCheckpoints | None = None,
    ) -> None:
        self._db = db
        self.clock = clock
        """Where every timestamp the store writes comes from (a test's clock in tests)."""
        self.checkpoints = checkpoints
        """A SQLite file's log checkpoints, off the commit path (checkpoints.py); None for
        PostgreSQL and ``:memory:``."""
        # (PgConnection has aiosqlite's surface without being one: see ``open``)
        direct: object = db
        self._direct = direct if isinstance(direct, PgConnection) else None
        """PostgreSQL: where single-statement jobs run on the bot's own loop (``fetch_row``)."""
        self._writing = asyncio.Lock()
        """One connection serves every channel, so a second BEGIN while another channel's
        transaction is open would fail ("cannot start a transaction within a transaction"):
        transactions take turns here, for the few milliseconds each lasts."""

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, clock: Clock | None = None) -> Self:
        """Open (creating if needed) and migrate the database at ``path`` (":memory:" works), or
        the PostgreSQL database at a ``postgresql://`` URL (bot/core/storage/postgres.py).

        Raises :class:`StorageOpenError` (one sentence naming the setting) for a database that
        cannot be used, without changing it."""
        clock = clock or SystemClock()
        if is_postgres_url(path):
            # PgConnection has aiosqlite.Connection's surface (postgres.py) without being one.
            return cls(await open_postgres(str(path), _iso(clock.now())), clock)  # type: ignore[arg-type]
        target = str(path)
        db = await open_sqlite(target, _iso(clock.now()))
        checkpoints = None if target == ":memory:" else WalCheckpoints(target)
        return cls(db, clock, checkpoints)

    async def close(self) -> None:
        await self._db.close()
        if self.checkpoints is not None:
            await asyncio.to_thread(self.checkpoints.close)

    def _committed(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.after_commit()

    async def schema_version(self) -> int:
        return await migrations.current_version(self._db)

    @property
    def dialect(self) -> str:
        """'sqlite' or 'postgresql': which engine this store talks to."""
        return str(getattr(self._db, "dialect", "sqlite"))

    async def journal_mode(self) -> str:
        return str(await self.read_scalar("PRAGMA journal_mode"))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` (ROLLBACK if the block raises),
        taking its turn with every other transaction: for stores that await aiosqlite calls in
        between (days.py). A job per statement, so :meth:`write` is cheaper where it can serve."""
        async with self._writing:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
        self._committed()

    async def job(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the connection's own thread as ONE aiosqlite job (see the module doc).
        ``work`` is plain blocking sqlite3 code; it must not await or touch the event loop."""
        db = self._db
        result: T = await db._execute(lambda: work(db._conn))  # noqa: SLF001 - aiosqlite's job queue
        return result

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` (ROLLBACK if it raises), as one job."""
        async with self._writing:
            result = await self.job(lambda conn: run_in_transaction(conn, work))
        self._committed()
        return result

    def now_iso(self) -> str:
        """The store's clock's time now, as the ISO text every timestamp column holds."""
        return _iso(self.clock.now())

    async def read_scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The one value ``sql`` reads (None for no row), as one job on the connection's thread."""
        return await self.job(lambda conn: read_scalar(conn, sql, params))


def _iso(when: datetime) -> str:
    if when.tzinfo is None:
        raise ValueError("the clock must return timezone-aware times")
    return when.isoformat()
