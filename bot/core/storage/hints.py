"""SQL for hints (table from migration 0004): how many hints each seat of a game has used."""

from __future__ import annotations

import sqlite3

from bot.core.storage.db import Storage
from bot.core.storage.revisions import lock_game


class HintStore:
    """Counts ``/projectl play hint`` per game and seat, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def count_hint(self, game_id: int, seat: int) -> int | None:
        """Record one more hint for the seat while the game is running; returns how many it has
        used now, or None (nothing recorded) when the game is no longer active. Taken under the
        game's lock (as an action's commit is), so a hint counted before the game's last action
        is one its rating sees, and none is counted after it."""
        def work(conn: sqlite3.Connection) -> int | None:
            lock_game(conn, game_id)
            status = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
            if status is None or status[0] != "active":
                return None
            conn.execute(
                "INSERT INTO hints (game_id, seat, used) VALUES (?, ?, 1)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET used = used + 1", (game_id, seat))
            row = conn.execute(
                "SELECT used FROM hints WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            return int(row[0])

        return await self.storage.write(work)

    async def hints_used(self, game_id: int) -> dict[int, int]:
        """{seat: hints used} for the seats that used any."""
        rows = await self.storage.job(lambda conn: conn.execute(
            "SELECT seat, used FROM hints WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())
        return {int(seat): int(used) for seat, used in rows}
