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
    """Its seats' names as stored (read them with ``bot.core.games.seat_name`` and ``policies``)."""
    guild_id: int
    channel_id: int
    channel_private: bool | None
    """Whether its channel was private when it opened (None: not known)."""
    host_id: int
    user_ids: tuple[int, ...]
    """Its seated humans."""
    policies: tuple[str | None, ...] = ()
    """Each seat's AI (None: a human's seat), in the order of ``names``."""
    seat_user_ids: tuple[int | None, ...] = ()
    """Each seat's user (None: an AI seat), in the order of ``names``."""


class ReplayStore:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def finished_games(self, guild_id: int, *, starting: str = "",
                             limit: int = 25) -> list[FinishedGame]:
        """The server's finished games, newest first; ``starting``: only ids that begin with it."""

        def work(conn: sqlite3.Connection) -> list[FinishedGame]:
            rows = conn.execute(
                "SELECT id, ended_at, channel_id, channel_private, host_id FROM games"
                " WHERE guild_id = ? AND status = 'finished'"
                " AND CAST(id AS TEXT) LIKE ? ORDER BY ended_at DESC, id DESC LIMIT ?",
                (guild_id, f"{starting}%", limit)).fetchall()
            seated: dict[int, list[tuple[str, int | None, str | None]]] = {int(row[0]): [] for row in rows}
            if seated:  # every listed game's seats in one read
                marks = ", ".join("?" * len(seated))
                for game_id, name, user_id, policy in conn.execute(
                        f"SELECT game_id, display_name, user_id, policy FROM seats WHERE game_id IN ({marks})"
                        " ORDER BY game_id, seat", tuple(seated)).fetchall():
                    seated[int(game_id)].append((str(name), user_id, None if policy is None else str(policy)))
            found = []
            for game_id, ended, channel_id, private, host_id in rows:
                seats = seated[int(game_id)]
                found.append(FinishedGame(
                    int(game_id), None if ended is None else str(ended), tuple(n for n, _, _ in seats),
                    guild_id, int(channel_id), None if private is None else bool(private), int(host_id),
                    tuple(int(u) for _, u, _ in seats if u is not None), tuple(p for _, _, p in seats),
                    tuple(None if u is None else int(u) for _, u, _ in seats)))
            return found

        return await self.storage.job(work)

    async def last_finished(self, channel_id: int) -> int | None:
        """The channel's most recently finished game."""
        row = await self.storage.job(lambda conn: conn.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status = 'finished'"
            " ORDER BY ended_at DESC, id DESC LIMIT 1", (channel_id,)).fetchone())
        return None if row is None else int(row[0])
