"""SQL for one-off DMs held to the end of their player's quiet hours or vacation (``held_dms``,
migration 0017; the rules are ``ReminderScheduler.send_or_hold``'s).

A held DM is claimed as a reminder is (bot/core/storage/days.py): its row is deleted, if it is
still the one read, in a committed transaction **before** it is sent. A crash between the two
loses that DM; it is never sent twice, even by two processes ticking at once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.storage.days import parse_ts, ts
from bot.core.storage.db import Storage


@dataclass(frozen=True, slots=True)
class HeldRow:
    key: str
    user_id: int
    game_id: int | None
    content: str
    """The DM's words, stored (bot/core/wording/stored.py)."""
    due_at: datetime
    held_at: datetime


_COLUMNS = "hold_key, user_id, game_id, content, due_at, held_at"


def _row(row: Sequence[Any]) -> HeldRow:
    due, held = parse_ts(row[4]), parse_ts(row[5])
    assert due is not None and held is not None
    return HeldRow(str(row[0]), int(row[1]), None if row[2] is None else int(row[2]), str(row[3]), due, held)


class HeldStore:
    """The ``held_dms`` table, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def hold(self, key: str, user_id: int, game_id: int | None, content: str, due_at: datetime) -> None:
        """Hold ``content`` for ``user_id`` until ``due_at``, in place of any DM held under ``key``."""
        now = ts(self.storage.clock.now())

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO held_dms ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hold_key)"
                " DO UPDATE SET user_id = excluded.user_id, game_id = excluded.game_id,"
                " content = excluded.content, due_at = excluded.due_at, held_at = excluded.held_at",
                (key, user_id, game_id, content, ts(due_at), now))

        await self.storage.write(work)

    async def drop(self, key: str) -> None:
        """Forget the DM held under ``key``, if any (a newer one was sent in its place)."""
        await self.storage.write(lambda conn: conn.execute(
            "DELETE FROM held_dms WHERE hold_key = ?", (key,)))

    async def due(self, now: datetime) -> list[HeldRow]:
        """The DMs whose time has come, the first due first."""
        rows = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM held_dms WHERE due_at <= ? ORDER BY due_at, held_at, hold_key",
            (ts(now),)).fetchall())
        return [_row(row) for row in rows]

    async def of_user(self, user_id: int) -> list[HeldRow]:
        rows = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM held_dms WHERE user_id = ? ORDER BY due_at, hold_key",
            (user_id,)).fetchall())
        return [_row(row) for row in rows]

    async def claim(self, row: HeldRow) -> bool:
        """Compare-and-delete: True for the one caller that takes ``row`` to send it; False if
        another did, or it was replaced or moved since it was read."""
        def work(conn: sqlite3.Connection) -> bool:
            gone = conn.execute(
                "DELETE FROM held_dms WHERE hold_key = ? AND user_id = ? AND content = ? AND due_at = ?",
                (row.key, row.user_id, row.content, ts(row.due_at)))
            return gone.rowcount == 1

        return await self.storage.write(work)

    async def due_now(self, user_id: int, now: datetime) -> None:
        """The player's settings changed: each DM held for them is looked at again at the next tick."""
        await self.storage.write(lambda conn: conn.execute(
            "UPDATE held_dms SET due_at = ? WHERE user_id = ? AND due_at > ?", (ts(now), user_id, ts(now))))
