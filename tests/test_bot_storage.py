"""Storage: migrations, WAL, one open game per channel, one transaction per action."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from bot.core.storage import ChannelBusyError, NewSeat, StaleRevisionError, Storage, migrations

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(storage_target: str) -> AsyncIterator[Storage]:
    """Each test below runs twice: on SQLite and on PostgreSQL (tests/conftest.py)."""
    storage = await Storage.open(storage_target, ManualClock(START))
    yield storage
    await storage.close()


async def count_rows_elsewhere(target: str, table: str) -> int:
    """COUNT(*) through a separate connection: what another process would see."""
    if target.startswith("postgresql://"):
        import asyncpg

        conn = await asyncpg.connect(target)
        try:
            return int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
        finally:
            await conn.close()
    with sqlite3.connect(target) as db:
        return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


async def new_game(store: Storage, channel: int = 10) -> int:
    options = {"reserve": 10, "unfinished_penalty": True, "difficulty": "normal"}
    game = await store.create_game(guild_id=1, channel_id=channel, host_id=5, variant="base", max_players=2,
                                   options=options, seed=99, seats=[NewSeat("alice", user_id=5)])
    return game.id


async def test_migrations_wal_and_versions(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    store = await Storage.open(path, ManualClock(START))
    latest = len(migrations.available())
    assert await store.schema_version() == latest >= 1
    assert await store.journal_mode() == "wal"
    await store.close()
    again = await Storage.open(path, ManualClock(START))  # re-opening applies nothing twice
    assert await again.schema_version() == latest
    await again.close()
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT version, name, applied_at FROM schema_version ORDER BY version").fetchall()
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert rows[0] == (1, "0001_initial", START.isoformat())
    assert {"games", "seats", "actions", "players", "schema_version"} <= tables


async def test_migration_numbers_must_be_consecutive(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);")
    (tmp_path / "0003_c.sql").write_text("CREATE TABLE c (x INTEGER);")
    with pytest.raises(RuntimeError, match="consecutive"):
        migrations.available(tmp_path)


async def test_failed_migration_leaves_previous_version(tmp_path: Path) -> None:
    import aiosqlite

    (tmp_path / "0001_a.sql").write_text("-- fine\nCREATE TABLE a (x INTEGER);")
    (tmp_path / "0002_b.sql").write_text("CREATE TABLE b (x INTEGER);\nCREATE TABLE a (x INTEGER);")
    db = await aiosqlite.connect(tmp_path / "x.sqlite3", isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        await migrations.migrate(db, START.isoformat(), tmp_path)
    assert await migrations.current_version(db) == 1
    async with db.execute("SELECT name FROM sqlite_master WHERE name = 'b'") as cursor:
        assert await cursor.fetchone() is None  # 0002 rolled back as a whole
    await db.close()


async def test_one_open_game_per_channel(store: Storage) -> None:
    game_id = await new_game(store)
    with pytest.raises(ChannelBusyError):
        await new_game(store)
    await new_game(store, channel=11)  # other channels are free
    game = await store.get_game(game_id)
    await store.set_status(game_id, game.revision, "cancelled")
    await new_game(store)  # a cancelled game frees the channel


async def test_commit_action_is_atomic_and_revisioned(store: Storage, storage_target: str) -> None:
    game_id = await new_game(store)
    game = await store.get_game(game_id)
    game = await store.replace_seats(game_id, game.revision, [NewSeat("alice", user_id=5),
                                                              NewSeat("Greedy bot 1", policy="greedy")])
    game = await store.start_game(game_id, game.revision, '{"s": 0}', 1)
    assert game.status == "active" and game.seats[1].user_id is None
    rev = game.revision
    game = await store.commit_action(game_id, rev, seat=0, user_id=5, action="level1", state='{"s": 1}',
                                     state_schema=1, finished=False)
    assert game.revision == rev + 1 and game.state == '{"s": 1}'
    with pytest.raises(StaleRevisionError):  # a retry of the same commit changes nothing
        await store.commit_action(game_id, rev, seat=0, user_id=5, action="level1", state='{"s": 2}',
                                  state_schema=1, finished=False)
    log = await store.actions(game_id)
    assert [(a.seq, a.action, a.revision, a.created_at) for a in log] == [
        (1, "level1", rev + 1, START.isoformat())]
    game = await store.commit_action(game_id, game.revision, seat=1, user_id=None, action="pass",
                                     state='{"s": 9}', state_schema=1, finished=True)
    assert game.status == "finished" and game.ended_at == START.isoformat()
    assert await count_rows_elsewhere(storage_target, "actions") == 2  # another process sees it


async def test_failed_commit_rolls_back_everything(store: Storage) -> None:
    game_id = await new_game(store)
    game = await store.get_game(game_id)
    game = await store.start_game(game_id, game.revision, '{"s": 0}', 1)
    with pytest.raises(sqlite3.IntegrityError):  # NOT NULL on action: fails after the log insert
        await store.commit_action(game_id, game.revision, seat=0, user_id=5, action=None,  # type: ignore[arg-type]
                                  state='{"s": 1}', state_schema=1, finished=False)
    after = await store.get_game(game_id)
    assert after.revision == game.revision and after.state == '{"s": 0}'
    assert await store.actions(game_id) == []


async def test_players_and_preferences(store: Storage) -> None:
    clock_player = await store.upsert_player(5, "alice")
    assert clock_player.mention_on_turn is True
    await store.upsert_player(5, "Alice A.")
    await store.set_preference(5, "mention_on_turn", 0)
    player = await store.get_player(5)
    assert player is not None and player.display_name == "Alice A." and player.mention_on_turn is False
    with pytest.raises(ValueError):
        await store.set_preference(5, "user_id; DROP TABLE games", 1)
