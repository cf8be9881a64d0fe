"""SQLite's log checkpoints run beside the commits, never inside one (bot/core/storage/checkpoints.py).

* The bot's connection never checkpoints by itself (``wal_autocheckpoint`` is 0), so no commit a
  player waits for copies the log or syncs the database file.
* Every ``every`` commits a ``PASSIVE`` checkpoint copies the whole log, on its own thread.
* A log past the limit is emptied (``TRUNCATE``), so the file cannot grow without bound.
* Closing the store leaves no ``-wal`` file and every commit in the database file.
* A checkpoint that fails is logged; the commit that started it does not notice.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.core.storage import Storage, checkpoints
from bot.core.storage.checkpoints import CheckpointResult, WalCheckpoints


async def _store_checkpointing_every(path: Path, every: int) -> Storage:
    store = await Storage.open(path)
    assert store.checkpoints is not None
    store.checkpoints.close()
    store.checkpoints = WalCheckpoints(str(path), every=every)
    return store


async def _commit(store: Storage, count: int, first_user: int = 1) -> None:
    for user in range(first_user, first_user + count):
        await store.upsert_player(user, f"player {user}")


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


async def test_the_bots_connection_never_checkpoints_by_itself(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "games.sqlite3")
    try:
        assert await store.read_scalar("PRAGMA wal_autocheckpoint") == 0
        assert await store.journal_mode() == "wal"
    finally:
        await store.close()


async def test_memory_databases_have_no_checkpoints() -> None:
    store = await Storage.open(":memory:")
    try:
        assert store.checkpoints is None
        await _commit(store, 3)
    finally:
        await store.close()


async def test_a_checkpoint_copies_the_whole_log_every_so_many_commits(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = await _store_checkpointing_every(path, every=5)
    assert store.checkpoints is not None
    try:
        await _commit(store, 4)
        assert store.checkpoints.wait() is None  # four commits: none started yet
        await _commit(store, 1, first_user=5)
        result = store.checkpoints.wait()
        assert result is not None and result.busy == 0
        assert result.log_pages > 0 and result.copied_pages == result.log_pages
        assert store.checkpoints.completed == 1
        # the database file alone (log ignored) now holds the five players
        with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as reader:
            assert reader.execute("SELECT COUNT(*) FROM players").fetchone() == (5,)
    finally:
        await store.close()


async def test_a_log_past_the_limit_is_emptied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.sqlite3"
    store = await _store_checkpointing_every(path, every=2)
    assert store.checkpoints is not None
    try:
        await _commit(store, 2)
        first = store.checkpoints.wait()
        assert first is not None and _wal(path).stat().st_size > 0
        monkeypatch.setattr(checkpoints, "LOG_PAGES_LIMIT", first.log_pages)
        await _commit(store, 2, first_user=3)
        emptied = store.checkpoints.wait()
        assert emptied == CheckpointResult(0, 0, 0)
        assert _wal(path).stat().st_size == 0
        await _commit(store, 1, first_user=5)  # and the log starts over as usual
        assert await store.read_scalar("SELECT COUNT(*) FROM players") == 5
    finally:
        await store.close()


async def test_closing_leaves_every_commit_in_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = await _store_checkpointing_every(path, every=3)
    await _commit(store, 7)
    await store.close()
    assert not _wal(path).exists()
    with sqlite3.connect(path) as reader:
        assert reader.execute("SELECT COUNT(*) FROM players").fetchone() == (7,)


async def test_a_failed_checkpoint_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    nowhere = WalCheckpoints(str(tmp_path / "missing" / "games.sqlite3"), every=1)
    with caplog.at_level(logging.WARNING, logger=checkpoints.__name__):
        nowhere.after_commit()
        assert nowhere.wait() is None
    nowhere.close()
    assert nowhere.completed == 0
    assert "checkpoint" in caplog.text and "tried again later" in caplog.text
