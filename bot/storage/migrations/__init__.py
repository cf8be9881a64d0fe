"""Numbered schema migrations: ``NNNN_name.sql`` files in this folder, applied in order.

Applied versions are recorded in ``schema_version``; each file runs in its own transaction, so a
crash mid-migration leaves the database at the previous version. The connection must be in
autocommit mode (``isolation_level=None``): transactions here are explicit. To change the schema, add the
next number (never edit a released file): e.g. ``0002_reminder_prefs.sql``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

HERE = Path(__file__).resolve().parent
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def available(folder: Path = HERE) -> list[Migration]:
    """Every migration file, sorted by number; numbers must be 1, 2, 3 ... without gaps."""
    found: list[Migration] = []
    for path in folder.iterdir():
        match = _NAME.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), path.stem, path.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration numbers must be consecutive: expected {expected:04d}, "
                               f"found {migration.name}")
    return found


async def current_version(db: aiosqlite.Connection) -> int:
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, now_iso: str, folder: Path = HERE) -> list[str]:
    """Apply every migration newer than the database; return the names applied."""
    done = await current_version(db)
    applied: list[str] = []
    for migration in available(folder):
        if migration.version <= done:
            continue
        statements = [s.strip() for s in _split(migration.sql) if s.strip()]
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, now_iso),
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        applied.append(migration.name)
    return applied


def _split(sql: str) -> list[str]:
    """Split a migration into statements (no ';' inside string literals in our files)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return "\n".join(lines).split(";")
