"""What runs inside one transaction on the connection's own thread: the writes another module
hands a transaction to join (:class:`Write`, :class:`InTransaction`), and the plain sqlite3
helpers that open, commit and read inside it. Its own module because the stores beside db.py
(days, plans, ratings, stats) and the manager build these writes without needing the store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Write:
    """One SQL statement to run inside another transaction (see ``Storage.commit_action``'s
    ``also``). Built by storage code only, so SQL still lives in this package."""

    sql: str
    params: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class InTransaction:
    """Work that must READ inside another transaction before it writes (a rating update reads
    the entrants' current ratings): ``run(conn, now)`` runs on the connection's thread between
    the action's own writes and COMMIT, so what it read cannot change before it is written.
    Built by storage code only (bot/core/storage/ratings.py), like :class:`Write`."""

    run: Callable[[sqlite3.Connection, str], object]
    """What it returns is not used (a rating step returns what it judged, for its tests)."""


def run_in_transaction(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``work`` between ``BEGIN IMMEDIATE`` and ``COMMIT`` on the connection's own thread, rolled
    back if it raises: the write lock is taken up front, so a busy database refuses before any
    row is written instead of half-way through."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def read_scalar(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> Any:
    """The first column of the first row ``sql`` reads, or None when it reads no row: one value
    read on the connection's own thread (inside a job or a transaction)."""
    row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]
