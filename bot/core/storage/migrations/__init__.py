"""Numbered schema migrations: ``NNNN_name.sql`` files in this folder, applied in order.

Applied versions are recorded in ``schema_version``; each file runs in its own transaction, so a
crash mid-migration leaves the database at the previous version. The connection must be in
autocommit mode (``isolation_level=None``): transactions here are explicit. To change the schema, add the
next number (never edit a released file): e.g. ``0002_reminder_prefs.sql``, and give its new tables
and columns rows in tests/test_migration_rows.py (which fails until they have some), so that every
later migration is tried on them.
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


class NewerSchemaError(RuntimeError):
    """The database was written by a newer version of the bot: opening it could corrupt it."""


def refuse_newer(version: int, known: int) -> None:
    """Raise :class:`NewerSchemaError` when a database at schema ``version`` is newer than the
    ``known`` migrations of this bot."""
    if version > known:
        raise NewerSchemaError(
            f"the database is at schema version {version}, newer than this bot's {known}: "
            "it was written by a newer version of the bot; upgrade the bot (or point it at "
            "another database)")


MIGRATION_LOCK_KEY = 0x50524A4C  # "PRJL": the PostgreSQL advisory lock migrations take
"""Taken in the two-key form (``MIGRATION_LOCK_KEY, 0``), whose key space PostgreSQL keeps apart
from the one-key form each game's lock takes (its id): no game id can ever wait on a migration."""
_CREATE_VERSIONS = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


def _is_postgres(db: aiosqlite.Connection) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


async def _read_version(db: aiosqlite.Connection) -> int:
    async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def _begin_locked(db: aiosqlite.Connection) -> None:
    """Start a transaction that holds the migration lock, so that of several processes starting
    at once exactly one reads the version and migrates while the others wait, then read the
    version it wrote: SQLite's ``BEGIN IMMEDIATE`` takes the write lock (waiting up to the busy
    timeout, which the connection sets before anything else), PostgreSQL an advisory lock held
    until the transaction ends."""
    await db.execute("BEGIN IMMEDIATE")
    if _is_postgres(db):
        await db.execute("SELECT pg_advisory_xact_lock(?, 0)", (MIGRATION_LOCK_KEY,))


async def current_version(db: aiosqlite.Connection) -> int:
    """The newest migration applied to ``db`` (0 for a new database)."""
    await _begin_locked(db)
    try:
        await db.execute(_CREATE_VERSIONS)
        version = await _read_version(db)
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    await db.execute("COMMIT")
    return version


async def migrate(
    db: aiosqlite.Connection, now_iso: str, folder: Path = HERE, *, up_to: int | None = None,
) -> list[str]:
    """Apply every migration newer than the database; return the names applied.

    Each migration is one transaction that takes the migration lock FIRST and only then reads the
    version, so a migration is applied exactly once however many processes start together; a
    process that finds the database current takes the lock once, not once per migration (six
    processes starting together would otherwise queue ~100 times for it on a busy machine). A
    database from a newer bot (a version this folder does not have) raises
    :class:`NewerSchemaError` before anything is written.

    ``up_to``: stop once the database is at that version, as a bot of that version left it (for
    tests that build a database of an older schema and fill it with that schema's rows:
    tests/test_migration_rows.py). The bot never passes it: it always migrates to the newest."""
    known = available(folder)
    if up_to is not None and not 0 <= up_to <= len(known):
        raise ValueError(f"no schema version {up_to}: the migrations are 1 to {len(known)}")
    stop_at = len(known) if up_to is None else up_to
    applied: list[str] = []
    while True:
        await _begin_locked(db)
        try:
            await db.execute(_CREATE_VERSIONS)
            done = await _read_version(db)
            refuse_newer(done, len(known))
            if done >= stop_at:
                await db.execute("COMMIT")
                return applied
            migration = known[done]
            for statement in (s.strip() for s in _split(migration.sql)):
                if statement:
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


def _split(sql: str) -> list[str]:
    """Split a migration into statements (no ';' inside string literals in our files)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return "\n".join(lines).split(";")
