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


async def _check_revision(
    db: aiosqlite.Connection, game_id: int, expected: int, *, statuses: Sequence[str]
) -> None:
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await db.execute(_GAME_LOCK, (game_id,))
    async with db.execute("SELECT revision, status FROM games WHERE id = ?", (game_id,)) as cursor:
        row = await cursor.fetchone()
    _revision_matches(row, game_id, expected, statuses)


def _check_revision_now(
    conn: sqlite3.Connection, game_id: int, expected: int, *, statuses: Sequence[str]
) -> None:
    _lock_game(conn, game_id)
    row = conn.execute("SELECT revision, status FROM games WHERE id = ?", (game_id,)).fetchone()
    _revision_matches(row, game_id, expected, statuses)


_GAME_LOCK = "SELECT pg_advisory_xact_lock(?)"


def _lock_game(conn: sqlite3.Connection, game_id: int) -> None:
    """On PostgreSQL, serialise changes to one game across processes until this transaction ends
    (SQLite needs nothing: ``BEGIN IMMEDIATE`` already takes the one write lock)."""
    if getattr(conn, "dialect", "sqlite") == "postgresql":
        conn.execute(_GAME_LOCK, (game_id,))


_REVISION_SQL = "SELECT revision, status FROM games WHERE id = ?"


def _refuse_unwritten_action(row: Any, game_id: int, expected: int) -> NoReturn:
    """db.py's :data:`_PG_COMMIT_ACTION` wrote nothing: raise what :func:`_check_revision_now` would have
    (the game's ``row`` of :data:`_REVISION_SQL`), or a stale revision if it moved on since."""
    _revision_matches(row, game_id, expected, ("active",))
    raise StaleRevisionError(f"Game {game_id} moved on at revision {expected}.")


def _revision_matches(row: Any, game_id: int, expected: int, statuses: Sequence[str]) -> None:
    if row is None:
        raise GameNotFoundError(f"No game {game_id}.")
    if int(row[0]) != expected or row[1] not in statuses:
        raise StaleRevisionError(
            f"Game {game_id} is at revision {row[0]} ({row[1]}), not {expected}."
        )


def _bump(conn: sqlite3.Connection, game_id: int, now: str) -> None:
    conn.execute("UPDATE games SET revision = revision + 1, updated_at = ? WHERE id = ?", (now, game_id))
