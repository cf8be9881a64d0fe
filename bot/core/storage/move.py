"""Move an existing SQLite database into an empty PostgreSQL database.

    python -m bot.core.storage.move projectl.sqlite3 postgresql://projectl@127.0.0.1:5432/projectl

Both are opened through :class:`~bot.core.storage.db.Storage`, so both are migrated to the same latest
schema first; then every row of every table is copied in ONE PostgreSQL transaction (all or
nothing), parents before children, and the game id sequence is moved past the largest id. It
refuses a target that already holds any row (games, or only the board key a bot started on it
kept), so it can never mix two deployments, and says in one sentence why a database cannot be
used (a newer schema, not a database, no server). Stop the bot first: rows committed to SQLite
after the copy began are not moved.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from bot.core.storage.db import Storage
from bot.core.storage.opening import StorageOpenError
from bot.core.storage.postgres import is_postgres_url

TABLES = ("players", "catalogues", "games", "seats", "actions", "table_options", "turns", "votes",
          "undone_actions", "game_results", "hints", "server_settings", "master_drafts",
          "rated_games", "ratings", "rating_changes", "bot_secrets", "plans", "plan_outcomes", "held_dms",
          "rating_order")
"""Every table a migration creates (``schema_version`` aside), parents before children. A
migration that adds a table must add it here: :func:`move` refuses a table it does not know."""
SEQUENCES = (("games", "id"), ("rating_order", "seq"), ("plan_outcomes", "kept"))
"""The columns PostgreSQL numbers itself (``BIGSERIAL``): after the copy each sequence is moved
past the copied numbers, or the next row would be given one already taken."""


class MoveError(Exception):
    """The move cannot be done; the message says why, and nothing was written."""


async def move(sqlite_path: str | Path, postgres_url: str) -> dict[str, int]:
    """Copy every row; returns rows copied per table."""
    if not Path(sqlite_path).is_file():
        raise MoveError(f"{sqlite_path} does not exist.")
    if not is_postgres_url(postgres_url):  # checked first: opening a path would make a file there
        raise MoveError("the target must be a postgresql:// URL.")
    try:
        source = await Storage.open(sqlite_path)  # brings an older file up to the latest schema
        await source.close()
        target = await Storage.open(postgres_url)
    except StorageOpenError as error:  # a newer schema, not a database, no server: its sentence
        raise MoveError(str(error)) from None
    try:
        used = [table for table in TABLES
                if await target.read_scalar(f"SELECT EXISTS (SELECT 1 FROM {table})")]
        if used:
            raise MoveError(f"the PostgreSQL database already has rows in {', '.join(used)}: move into "
                            "an empty database (a new one, made with createdb).")
        copied: dict[str, int] = {}
        with sqlite3.connect(sqlite_path) as lite:
            known = {r[0] for r in lite.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
            unknown = known - set(TABLES) - {"schema_version"}
            if unknown:
                raise MoveError(f"unknown tables {sorted(unknown)}: add them to bot/core/storage/move.py.")
            batches = {}
            for table in TABLES:
                columns = [r[1] for r in lite.execute(f"PRAGMA table_info({table})")]
                rows = lite.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
                batches[table] = (columns, rows)

        def work(conn: sqlite3.Connection) -> None:
            for table, (columns, rows) in batches.items():
                marks = ", ".join("?" for _ in columns)
                for row in rows:
                    conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", row)
                copied[table] = len(rows)
            for table, column in SEQUENCES:
                conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                             f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}")

        await target.write(work)
        return copied
    finally:
        await target.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.core.storage.move", description=__doc__.splitlines()[0])
    parser.add_argument("sqlite_path")
    parser.add_argument("postgres_url")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(move(args.sqlite_path, args.postgres_url))
    except MoveError as error:
        print(f"Nothing moved: {error}", file=sys.stderr)
        return 1
    print(", ".join(f"{table}: {count}" for table, count in copied.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
