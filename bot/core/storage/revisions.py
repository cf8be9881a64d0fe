"""The revision checks behind optimistic concurrency: every change to a game names the
``revision`` it was computed from and fails with :class:`StaleRevisionError` (changing nothing)
if someone else committed first; on PostgreSQL the game's advisory lock serialises changes to it
across processes. Its own module because db.py and the stores beside it (days.py) check the same
way, and the check must read the same everywhere."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, NoReturn

import aiosqlite

from bot.core.storage.errors import GameNotFoundError, StaleRevisionError


async def check_revision(
    db: aiosqlite.Connection, game_id: int, expected: int, *, statuses: Sequence[str]
) -> None:
    """Inside an aiosqlite transaction: raise :class:`StaleRevisionError` unless game ``game_id``
    is still at revision ``expected`` with one of ``statuses`` (:class:`GameNotFoundError` if it
    is gone), taking the game's lock first on PostgreSQL so nobody moves it on before the write."""
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await db.execute(_GAME_LOCK, (game_id,))
    async with db.execute("SELECT revision, status FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    _revision_matches(row, game_id, expected, statuses)


def check_revision_in_transaction(
    conn: sqlite3.Connection, game_id: int, expected: int, *, statuses: Sequence[str]
) -> None:
    """:func:`check_revision` on the connection's own thread, inside a transaction that a job
    runs (:func:`~bot.core.storage.transactions.run_in_transaction`)."""
    lock_game(conn, game_id)
    row = conn.execute("SELECT revision, status FROM games WHERE id = ?", (game_id,)).fetchone()
    _revision_matches(row, game_id, expected, statuses)


_GAME_LOCK = "SELECT pg_advisory_xact_lock(?)"


def lock_game(conn: sqlite3.Connection, game_id: int) -> None:
    """On PostgreSQL, serialise changes to one game across processes until this transaction ends
    (SQLite needs nothing: ``BEGIN IMMEDIATE`` already takes the one write lock)."""
    if getattr(conn, "dialect", "sqlite") == "postgresql":
        conn.execute(_GAME_LOCK, (game_id,))


REVISION_SQL = "SELECT revision, status FROM games WHERE id = ?"
"""Reads the ``(revision, status)`` row that :func:`refuse_unwritten_action` judges."""


def refuse_unwritten_action(row: Any, game_id: int, expected: int) -> NoReturn:
    """db.py's :data:`_PG_COMMIT_ACTION` wrote nothing: raise what
    :func:`check_revision_in_transaction` would have (the game's ``row`` of :data:`REVISION_SQL`),
    or a stale revision if it moved on since."""
    _revision_matches(row, game_id, expected, ("active",))
    raise StaleRevisionError(f"Game {game_id} moved on at revision {expected}.")


def _revision_matches(row: Any, game_id: int, expected: int, statuses: Sequence[str]) -> None:
    if row is None:
        raise GameNotFoundError(f"No game {game_id}.")
    if int(row[0]) != expected or row[1] not in statuses:
        raise StaleRevisionError(
            f"Game {game_id} is at revision {row[0]} ({row[1]}), not {expected}."
        )


def bump_revision(conn: sqlite3.Connection, game_id: int, now: str) -> None:
    """Move game ``game_id`` on to its next revision (changed at ``now``), inside the transaction
    that changed it: a change computed from the old revision is refused from here on."""
    conn.execute("UPDATE games SET revision = revision + 1, updated_at = ? WHERE id = ?", (now, game_id))
