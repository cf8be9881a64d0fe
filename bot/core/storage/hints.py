"""SQL for hints (table from migration 0004): how many hints each seat of a game has used."""

from __future__ import annotations

import sqlite3

from bot.core.storage.db import Storage


class HintStore:
    """Counts ``/projectl play hint`` per game and seat, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def count_hint(self, game_id: int, seat: int) -> int:
        """Record one more hint for the seat; returns how many it has used now."""
        def work(conn: sqlite3.Connection) -> int:
            conn.execute(
                "INSERT INTO hints (game_id, seat, used) VALUES (?, ?, 1)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET used = used + 1", (game_id, seat))
            row = conn.execute(
                "SELECT used FROM hints WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            return int(row[0])

        return await self.storage._write(work)

    async def hints_used(self, game_id: int) -> dict[int, int]:
        """{seat: hints used} for the seats that used any."""
        rows = await self.storage._job(lambda conn: conn.execute(
            "SELECT seat, used FROM hints WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())
        return {int(seat): int(used) for seat, used in rows}
