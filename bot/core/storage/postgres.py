"""PostgreSQL behind the same :class:`~bot.core.storage.db.Storage` interface, through asyncpg.

Why it is an adapter and not a second store: every query of the bot is written once, in the SQL
both engines accept (``ON CONFLICT ... DO UPDATE``, ``RETURNING``, partial indexes), and the
store's hot paths are plain blocking functions run as ONE job on the connection's own thread
(see ``db.py``). :class:`PgConnection` offers the same two surfaces aiosqlite does — the async
``execute`` / ``_execute`` and, on its worker thread, a sqlite3-like ``_conn`` — so ``Storage``,
``DaysStore`` and ``StatsStore`` run unchanged on either engine. asyncpg drives the server
connection from that worker thread's own event loop; the bot's loop only awaits the job.

The exception is a job that is ONE statement: reading a game (its seats as a JSON column of the
same row) and committing an action (one statement of CTEs, ``db._PG_COMMIT_ACTION``).
:meth:`PgConnection.fetch_row` runs those on the bot's own loop over
:data:`DIRECT_CONNECTIONS` connections of their own: per action on the 200-channel bench that
took the bot's CPU from 5.7-6.1 ms to 3.6-3.9 ms and the server's from 0.8-0.9 ms to 0.4-0.5 ms,
and one process no longer waits on one connection's queue (docs/benchmarks.md, issue 30). A
process holds ``1 + DIRECT_CONNECTIONS`` server connections.

What is translated, and nothing else: ``?`` placeholders become ``$1, $2 ...``; ``BEGIN
IMMEDIATE`` becomes ``BEGIN``; in schema statements ``INTEGER PRIMARY KEY AUTOINCREMENT`` becomes
``BIGSERIAL PRIMARY KEY`` and ``INTEGER`` becomes ``BIGINT`` (Discord ids need 64 bits); Python
booleans are sent as 0/1 like SQLite stores them. A constraint violation is raised as
``sqlite3.IntegrityError`` (with PostgreSQL's message) so the store's one ``except`` covers both.

Across processes: every change to a game takes ``pg_advisory_xact_lock(game id)`` inside its
transaction (``revisions.lock_game``), so two bot processes serialise on a game the way one process's
``asyncio.Lock`` does; the lock ends with the transaction, so a killed process never leaves it held.
"""

from __future__ import annotations

import asyncio
import functools
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core.storage.errors import StorageUnavailableError

if TYPE_CHECKING:  # asyncpg is the optional `postgres` extra: imported only when a URL is opened
    import asyncpg

T = TypeVar("T")

DIALECT = "postgresql"
DIRECT_CONNECTIONS = 2
"""Connections of :meth:`PgConnection.fetch_row` per process (beside the thread's one): enough
that one channel's statement waiting for the server does not hold up the next channel's; a
process of this bot is one core of Python, so more would only wait for it."""
URL_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(URL_PREFIXES)


def translate(sql: str) -> str:
    """The SQLite-flavoured statement ``sql`` as PostgreSQL text (see the module doc)."""
    text = sql.strip()
    if text.upper() == "BEGIN IMMEDIATE":
        return "BEGIN"
    if re.match(r"^\s*(CREATE|ALTER)\b", text, re.IGNORECASE):
        text = re.sub(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", "BIGSERIAL PRIMARY KEY", text,
                      flags=re.IGNORECASE)
        text = re.sub(r"\bINTEGER\b", "BIGINT", text)
    return _numbered_placeholders(text)


def _numbered_placeholders(sql: str) -> str:
    """``?`` -> ``$n`` outside quoted literals."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


@functools.lru_cache(maxsize=512)
def _translated(sql: str) -> tuple[str, bool, bool]:
    """:func:`translate` of ``sql``, whether it returns rows (a read, or ``RETURNING``), and
    whether it may change something if it runs on its own (anything but ``SELECT`` and ``BEGIN``:
    such a statement, once sent, is never sent again by :meth:`PgConnection._run_job`).

    Remembered by text: the bot sends the same few hundred statements over and over, and
    translating is a pass over every character in Python (a tenth of a millisecond for the
    action's commit) that would otherwise run for every statement sent."""
    text = translate(sql)
    returns_rows = bool(re.match(r"^\s*(SELECT|WITH)\b", text, re.IGNORECASE)
                        or re.search(r"\bRETURNING\b", text, re.IGNORECASE))
    may_write = not re.match(r"^\s*(SELECT|BEGIN)\b", text, re.IGNORECASE)
    return text, returns_rows, may_write


def _params(params: Sequence[Any]) -> list[Any]:
    return [int(p) if isinstance(p, bool) else p for p in params]


class PgCursor:
    """The part of a sqlite3 cursor the store uses: rows, ``rowcount``."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        rest = self._rows[self._next:]
        self._next = len(self._rows)
        return rest

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())

    # the async surface (aiosqlite's cursor), for code written against it
    async def __aenter__(self) -> _AsyncCursor:
        return _AsyncCursor(self)

    async def __aexit__(self, *exc: object) -> None:
        return None


class _AsyncCursor:
    def __init__(self, cursor: PgCursor) -> None:
        self._cursor = cursor
        self.rowcount = cursor.rowcount

    async def fetchone(self) -> tuple[Any, ...] | None:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[tuple[Any, ...]]:
        return self._cursor.fetchall()


class PgSyncConnection:
    """sqlite3.Connection's ``execute``, on the worker thread (blocking on that thread's loop)."""

    dialect = DIALECT

    def __init__(self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection) -> None:
        self._loop = loop
        self._conn = conn
        self.statements = 0
        """Statements sent since the current job began (PgConnection counts them to know
        whether a job that lost its connection can be run again)."""
        self.may_have_written = False
        """Whether the current job sent a statement that changes something on its own (a
        single-statement commit): if its connection is lost, it may have been committed, so
        the job is not run again (that would apply the change twice, or report it stale)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> PgCursor:
        self.statements += 1
        return self._loop.run_until_complete(self._run(sql, params))

    async def _run(self, sql: str, params: Sequence[Any]) -> PgCursor:
        import asyncpg

        text, returns_rows, may_write = _translated(sql)
        self.may_have_written = self.may_have_written or may_write
        args = _params(params)
        try:
            if returns_rows:
                records = await self._conn.fetch(text, *args)
                rows = [tuple(record.values()) for record in records]
                return PgCursor(rows, len(rows))
            status = await self._conn.execute(text, *args)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise sqlite3.IntegrityError(str(error)) from error
        last = status.rsplit(" ", 1)[-1] if status else ""
        return PgCursor([], int(last) if last.isdigit() else -1)


class _Statement:
    """What ``PgConnection.execute`` returns: awaitable (a cursor) and an async context manager,
    like aiosqlite's."""

    def __init__(self, owner: PgConnection, sql: str, params: Sequence[Any]) -> None:
        self._owner = owner
        self._sql = sql
        self._params = params
        self._cursor: PgCursor | None = None

    async def _get(self) -> PgCursor:
        if self._cursor is None:
            self._cursor = await self._owner._execute(
                lambda: self._owner._live().execute(self._sql, self._params))
        return self._cursor

    def __await__(self) -> Any:
        return self._get().__await__()

    async def __aenter__(self) -> _AsyncCursor:
        return _AsyncCursor(await self._get())

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """One PostgreSQL connection on its own thread, with aiosqlite's surface (see the module doc).

    It heals: a connection the server dropped (a restart, an idle timeout, a failover) is
    replaced before the next job. A job whose FIRST statement finds the connection dead, if that
    statement is a ``BEGIN`` or a read (so nothing of it can have been kept), runs again once on
    a new connection; any other job that loses its connection raises
    :class:`~bot.core.storage.db.StorageUnavailableError` — its transaction was rolled back by the
    server — and the next job reconnects. While the server is down every job raises that error
    at once; the first job after it is back plays on."""

    dialect = DIALECT

    def __init__(self, url: str = "") -> None:
        self._url = url
        self._direct: asyncio.Queue[asyncpg.Connection | None] | None = None
        """The connections of :meth:`fetch_row`, on the bot's own loop: each idle one, or None
        for a place whose connection is to be (re)opened by the next statement that takes it."""
        self._direct_opened = 0
        """Places of :attr:`_direct` whose connection was opened (a later opening is a reconnect)."""
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="projectl-pg")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: PgSyncConnection | None = None
        """The worker thread's connection; None before the first job and after one was lost."""
        self._thread: threading.Thread | None = None
        self.reconnects = 0
        """Connections opened after the first (for tests and the log)."""

    @classmethod
    async def connect(cls, url: str) -> PgConnection:
        try:
            import asyncpg  # noqa: F401 - the optional extra; checked before the worker starts
        except ImportError as error:
            raise RuntimeError(
                "a postgresql:// database needs asyncpg: pip install -e '.[postgres]'") from error
        self = cls(url)

        def start() -> None:
            self._loop = asyncio.new_event_loop()
            self._open()

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, start)
        except BaseException:
            await self.close()
            raise
        self._direct = asyncio.Queue()
        for _ in range(DIRECT_CONNECTIONS):
            self._direct.put_nowait(None)  # opened by the first statement that needs each
        return self

    async def fetch_row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """ONE statement that is a whole job (a read, or a write that is its own transaction),
        run on the caller's event loop; its first row, or None.

        Why not on the thread: the thread is there for the store's blocking multi-statement
        jobs. A single statement awaited here costs the bot no thread hop and no run of the
        thread's own loop (about a tenth of a millisecond of CPU each), and the statements of
        many channels no longer queue behind one connection: up to
        :data:`DIRECT_CONNECTIONS` run at once. A dead connection is replaced, as on the
        thread; a read that loses its connection runs again once on a new one, a write never
        (it may have committed): :class:`StorageUnavailableError`, nothing said to be done.
        Like a job on the thread, the statement runs to its end even if the caller is cancelled
        (a commit is never cut off half-way through being answered)."""
        return await asyncio.shield(asyncio.ensure_future(self._fetch_row(sql, params, ())))

    async def fetch_row_then(
        self, sql: str, params: Sequence[Any], then: Sequence[tuple[str, Sequence[Any]]]
    ) -> tuple[Any, ...] | None:
        """:meth:`fetch_row`, and if it returned a row, the statements ``then``, all in ONE
        transaction on the bot's loop (an action's commit and the writes that join it, such as
        its reminder pushed back: no thread hop). If it returned no row, nothing is written."""
        return await asyncio.shield(asyncio.ensure_future(self._fetch_row(sql, params, then)))

    async def _fetch_row(
        self, sql: str, params: Sequence[Any], then: Sequence[tuple[str, Sequence[Any]]]
    ) -> tuple[Any, ...] | None:
        import asyncpg

        assert self._direct is not None, "fetch_row after close() or before connect()"
        text, _, may_write = _translated(sql)
        may_write = may_write or bool(then)
        args = _params(params)
        for attempt in (1, 2):
            conn = await self._direct.get()
            try:
                if conn is None or conn.is_closed():
                    if conn is not None:
                        conn.terminate()
                    conn = None
                    conn = await asyncpg.connect(self._url)
                    if self._direct_opened < DIRECT_CONNECTIONS:
                        self._direct_opened += 1
                    else:
                        self.reconnects += 1
                if not then:
                    record = await conn.fetchrow(text, *args)
                    return None if record is None else tuple(record.values())
                async with conn.transaction():
                    record = await conn.fetchrow(text, *args)
                    if record is None:
                        return None
                    for more, more_params in then:
                        await conn.execute(_translated(more)[0], *_params(more_params))
                return tuple(record.values())
            except asyncpg.IntegrityConstraintViolationError as error:
                raise sqlite3.IntegrityError(str(error)) from error
            except BaseException as error:
                if conn is not None and (conn.is_closed() or not isinstance(error, asyncpg.PostgresError)
                                         or is_connection_lost(error)):
                    conn.terminate()  # in an unknown state: never handed out again
                    conn = None
                if not is_connection_lost(error):
                    raise
                self._drop_idle_direct()  # they went with it (a restart): the retry opens a new one
                if may_write:
                    raise StorageUnavailableError(
                        "The database connection was lost: the change may not have been kept.") from error
                if attempt == 2:
                    raise StorageUnavailableError(
                        "The database connection was lost: nothing was changed.") from error
            finally:
                self._direct.put_nowait(conn)
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _open(self) -> PgSyncConnection:
        """(Re)connect, on the worker thread."""
        import asyncpg

        assert self._loop is not None
        raw = self._loop.run_until_complete(asyncpg.connect(self._url))
        self._conn = PgSyncConnection(self._loop, raw)
        return self._conn

    def _live(self) -> PgSyncConnection:
        """The connection a job runs on (on the worker thread, where :meth:`_run_job` opened it)."""
        assert self._conn is not None, "a job runs only on an open connection"
        return self._conn

    def _drop(self) -> None:
        """Forget a dead connection (terminating what is left of it), on the worker thread."""
        if self._conn is not None:
            self._conn._conn.terminate()
            self._conn = None

    def _run_job(self, work: Callable[[], T]) -> T:
        for attempt in (1, 2):
            try:
                conn = self._conn
                if conn is None or conn._conn.is_closed():
                    self._drop()
                    conn = self._open()
                    self.reconnects += 1
                conn.statements = 0
                conn.may_have_written = False
                return work()
            except BaseException as error:
                if not is_connection_lost(error):
                    raise
                retry = (attempt == 1 and self._conn is not None and self._conn.statements <= 1
                         and not self._conn.may_have_written)
                self._drop()
                if not retry:
                    raise StorageUnavailableError(
                        "The database connection was lost: nothing was changed.") from error
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    async def _execute(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._run_job, work)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        return _Statement(self, sql, params)

    def _drop_idle_direct(self) -> None:
        """Terminate every idle connection of :meth:`fetch_row` (their places reopen on use)."""
        assert self._direct is not None
        idle = [self._direct.get_nowait() for _ in range(self._direct.qsize())]
        for conn in idle:
            if conn is not None:
                conn.terminate()
            self._direct.put_nowait(None)

    async def close(self) -> None:
        direct, self._direct = self._direct, None
        while direct is not None and not direct.empty():
            conn = direct.get_nowait()
            if conn is not None:
                try:
                    await conn.close(timeout=5)
                except Exception:  # a dead connection: nothing left to close politely
                    conn.terminate()

        def stop() -> None:
            if self._loop is None:
                return
            if self._conn is not None:
                try:
                    self._loop.run_until_complete(self._conn._conn.close(timeout=5))
                except Exception:  # a dead connection: nothing left to close politely
                    self._conn._conn.terminate()
            self._loop.close()

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, stop)
        finally:
            self._executor.shutdown(wait=True)


def is_connection_lost(error: BaseException) -> bool:
    """Did ``error`` come from a connection that is gone (as opposed to a refused statement)?"""
    import asyncpg

    if isinstance(error, OSError | ConnectionError | asyncpg.InterfaceError
                  | asyncpg.exceptions.ConnectionDoesNotExistError):
        return True
    if isinstance(error, asyncpg.exceptions.InternalClientError):
        # e.g. "cannot switch to state 12; another operation is in progress": the server ended
        # the session (pg_terminate_backend, a restart) while the connection sat idle on the
        # bot's loop, and its goodbye left the connection unusable before it reads as closed
        return True
    # SQLSTATE class 08 (connection exception) and 57P0x (the server shutting down or starting)
    state = getattr(error, "sqlstate", None) or ""
    return isinstance(error, asyncpg.PostgresError) and (state.startswith("08") or state.startswith("57P"))
