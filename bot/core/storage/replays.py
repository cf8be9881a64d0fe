"""SQL for replays and recaps: which finished games a server has (for autocomplete) and a
channel's last one (the default game of ``/projectl-games replay`` and ``recap``)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.core.storage.db import Storage


@dataclass(frozen=True, slots=True)
class FinishedGame:
    id: int
    ended_at: str | None
    names: tuple[str, ...]


class ReplayStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def finished_games(self, guild_id: int, *, starting: str = "",
                             limit: int = 25) -> list[FinishedGame]:
        """The server's finished games, newest first; ``starting``: only ids that begin with it."""

        def work(conn: sqlite3.Connection) -> list[FinishedGame]:
            rows = conn.execute(
                "SELECT id, ended_at FROM games WHERE guild_id = ? AND status = 'finished'"
                " AND CAST(id AS TEXT) LIKE ? ORDER BY ended_at DESC, id DESC LIMIT ?",
                (guild_id, f"{starting}%", limit)).fetchall()
            found = []
            for game_id, ended in rows:
                names = tuple(str(n) for (n,) in conn.execute(
                    "SELECT display_name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)))
                found.append(FinishedGame(int(game_id), None if ended is None else str(ended), names))
            return found

        return await self.storage._job(work)

    async def last_finished(self, channel_id: int) -> int | None:
        """The channel's most recently finished game."""
        row = await self.storage._job(lambda conn: conn.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'finished'"
            " ORDER BY ended_at DESC, id DESC LIMIT 1", (channel_id,)).fetchone())
        return None if row is None else int(row[0])
