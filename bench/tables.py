"""Building managers, tables and database snapshots: shared by the bench and hardening tests.

Everything here goes through the public GameManager API, so what the benchmarks time and what the
tests break is the code path the bot uses.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from bot.core.clock import ManualClock
from bot.core.play.manager import Game, GameManager, TableSettings
from bot.core.storage import Storage

from .players import policy_factory

GUILD_ID = 1


def user_id(channel: int, seat: int) -> int:
    """Deterministic user ids: seat 0 of channel 42 is user 4200."""
    return channel * 100 + seat


async def open_manager(path: str | Path, *, seed: int = 7) -> GameManager:
    """A manager on a file (or ``":memory:"``) database, fixed seed, manual clock, bench policies."""
    clock = ManualClock()
    storage = await Storage.open(path, clock)
    return GameManager(storage, clock=clock, seed_source=lambda: seed, policies=policy_factory)


async def start_table(manager: GameManager, channel: int, players: int = 2, *, ai: int = 0) -> Game:
    """An active game in ``channel``: ``players`` humans (seat 0 hosts) plus ``ai`` policy seats."""
    seats = players + ai
    settings = TableSettings("solo", 1) if seats == 1 else TableSettings("base", seats)
    result = await manager.create_game(guild_id=GUILD_ID, channel_id=channel, host_id=user_id(channel, 0),
                                       host_name="player0", settings=settings)
    if result.started is not None:
        return result.game
    for seat in range(1, players):
        await manager.join(channel, user_id(channel, seat), f"player{seat}")
    for _ in range(ai):
        await manager.add_policy_seat(channel, user_id(channel, 0), "random")
    return (await manager.start(channel, user_id(channel, 0))).game


def snapshot(path: str | Path) -> dict[str, Any]:
    """Everything a refusal must not change: every game row (state JSON, revision, status, message
    ids), seats, players and the whole action log. Compare two snapshots with ``==``."""
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        tables = {}
        for table, order in (("games", "id"), ("seats", "game_id, seat"), ("actions", "game_id, seq"),
                             ("players", "user_id")):
            tables[table] = [dict(r) for r in db.execute(f"SELECT * FROM {table} ORDER BY {order}")]
    return tables
