"""Shared fixtures. Position-building helpers live in tests/positions.py (import from there)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from positions import game

from bot.board import Board, open_board
from engine import GameState

# The conftest files hold no doctests: collected as modules under --doctest-modules, this one and
# tests/browser/conftest.py would both be imported as the module "conftest".
collect_ignore = ["conftest.py", "browser/conftest.py"]


@pytest.fixture
def two_players() -> GameState:
    """A fresh 2-player game (seed 1) from the shipped catalogue."""
    return game(2, seed=1)


@pytest.fixture
def solo_game() -> GameState:
    """A fresh Solo game (seed 1, Normal difficulty)."""
    return game(1, seed=1)


# -- the web API tests: a two-seat offline board on port 0 and a session to call it ------------


@pytest.fixture
async def board(tmp_path: Path) -> AsyncIterator[Board]:
    """Both seats human (seed 11): a test plays either side through the API."""
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), seed=11)
    try:
        yield opened
    finally:
        await opened.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


# -- storage backends: every storage test runs on SQLite and on a real PostgreSQL server ---------

_PG: dict[str, object] = {}


def _pg_server() -> object:
    """The session's PostgreSQL server (started on first use), or the reason there is none."""
    if "server" not in _PG:
        try:
            import asyncpg  # noqa: F401

            from bot.core.storage.pg_server import PgServer

            _PG["server"] = PgServer.start()
        except Exception as error:  # noqa: BLE001 - any reason means: skip the PostgreSQL runs
            _PG["server"] = None
            _PG["why"] = f"PostgreSQL runs skipped: {error}"
    return _PG["server"]


@pytest.fixture(params=["sqlite", "postgresql"])
async def storage_target(request: pytest.FixtureRequest, tmp_path) -> str:  # type: ignore[no-untyped-def]
    """Where a test's Storage lives: a SQLite file, or a fresh database on the test run's own
    PostgreSQL server (skipped, with the reason, when this machine has none)."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    server = _pg_server()
    if server is None:
        pytest.skip(str(_PG["why"]))
    from bot.core.storage.pg_server import create_database

    _PG["count"] = int(_PG.get("count", 0)) + 1  # type: ignore[call-overload]
    return await create_database(server, f"t{_PG['count']}")  # type: ignore[arg-type]


@pytest.fixture
async def postgres_url() -> str:
    """A fresh database on the test run's PostgreSQL server, for tests of several processes."""
    server = _pg_server()
    if server is None:
        pytest.skip(str(_PG["why"]))
    from bot.core.storage.pg_server import create_database

    _PG["count"] = int(_PG.get("count", 0)) + 1  # type: ignore[call-overload]
    return await create_database(server, f"t{_PG['count']}")  # type: ignore[arg-type]


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if _PG.get("why"):
        terminalreporter.write_line(str(_PG["why"]), yellow=True)


def pytest_sessionfinish(session, exitstatus) -> None:  # type: ignore[no-untyped-def]
    server = _PG.get("server")
    if server is not None:
        server.stop()  # type: ignore[attr-defined]
