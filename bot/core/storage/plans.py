"""SQL for plan-ahead turns (migration 0013; the rules are in bot/core/play/plans.py).

A plan's progress (``played``, ``turn``) only ever moves inside the transaction that commits the
planned action (:func:`advance_write`), so the log and the plan can never disagree: after a crash
the plan resumes at the first step not in the log, and a second process that tried the same step
lost the game's revision check and wrote nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.storage.db import Storage, Write


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One planned action in the engine's notation, and the card it relies on, if any: the card
    a row slot showed when the plan was laid out (a take names a slot, not a card)."""

    action: str
    card: str | None = None


@dataclass(frozen=True, slots=True)
class PlanRow:
    game_id: int
    seat: int
    user_id: int
    steps: tuple[PlanStep, ...]
    played: int
    turn: int | None
    created_at: str

    @property
    def left(self) -> tuple[PlanStep, ...]:
        return self.steps[self.played:]


_COLUMNS = "game_id, seat, user_id, steps, played, turn, created_at"


def steps_text(steps: Sequence[PlanStep]) -> str:
    return json.dumps([{"action": s.action, "card": s.card} for s in steps], separators=(",", ":"))


def _row(row: Sequence[Any]) -> PlanRow:
    steps = tuple(PlanStep(str(s["action"]), None if s.get("card") is None else str(s["card"]))
                  for s in json.loads(str(row[3])))
    return PlanRow(int(row[0]), int(row[1]), int(row[2]), steps, int(row[4]),
                   None if row[5] is None else int(row[5]), str(row[6]))


class PlanStore:
    """The ``plans`` table, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, game_id: int, seat: int) -> PlanRow | None:
        row = await self.storage._job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone())
        return None if row is None else _row(row)

    async def of_game(self, game_id: int) -> list[PlanRow]:
        rows = await self.storage._job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())
        return [_row(row) for row in rows]

    async def save(self, game_id: int, seat: int, user_id: int, steps: Sequence[PlanStep]) -> None:
        """Keep ``steps`` as the seat's plan, replacing the one it had (from its first step)."""
        now = self.storage._now()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO plans ({_COLUMNS}) VALUES (?, ?, ?, ?, 0, NULL, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id,"
                " steps = excluded.steps, played = 0, turn = NULL, created_at = excluded.created_at",
                (game_id, seat, user_id, steps_text(steps), now))

        await self.storage._write(work)

    async def delete(self, game_id: int, seat: int) -> bool:
        """Drop the seat's plan; whether there was one."""
        def work(conn: sqlite3.Connection) -> bool:
            gone = conn.execute("DELETE FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat))
            return gone.rowcount > 0

        return await self.storage._write(work)


def advance_write(plan: PlanRow, turn: int) -> Write:
    """For the planned action's own transaction: one more step played, in ``turn``."""
    sql = "UPDATE plans SET played = played + 1, turn = ? WHERE game_id = ? AND seat = ? AND played = ?"
    return Write(sql, (turn, plan.game_id, plan.seat, plan.played))


def delete_write(plan: PlanRow) -> Write:
    """For the transaction of the plan's last step (or the turn that ends it): the plan is done."""
    return Write("DELETE FROM plans WHERE game_id = ? AND seat = ?", (plan.game_id, plan.seat))


def planned_write(game_id: int, revision: int) -> Write:
    """Mark the log row committed at ``revision`` as played by a plan."""
    return Write("UPDATE actions SET planned = 1 WHERE game_id = ? AND revision = ?", (game_id, revision))
