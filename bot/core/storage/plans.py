"""SQL for plan-ahead turns (migration 0013; the rules are in bot/core/play/plans.py) and what
each seat's last planned turn did (``plan_outcomes``, migrations 0017 and 0021).

A plan's progress (``played``, ``turn``) only ever moves inside the transaction that commits the
planned action (:func:`advance_write`), so the log and the plan can never disagree: after a crash
the plan resumes at the first step not in the log, and a second process that tried the same step
lost the game's revision check and wrote nothing.

A plan replaced or cancelled while it plays (the board, another tab or process, between two of
its steps) plays nothing more: the progress write of each step requires the plan it was read as
(:data:`_THIS_PLAN`, at the count of steps it had played) and, finding none, raises
:class:`~bot.core.storage.errors.PlanChangedError`, which rolls the step's whole commit back.

A seat's outcome is old news once it lays out another plan: :meth:`PlanStore.save` deletes it in
the plan's own transaction, so a new plan is never shown beside the last one's word.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.storage.db import Storage
from bot.core.storage.errors import PlanChangedError
from bot.core.storage.transactions import InTransaction, Write


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
    side: str | None = None
    """The Line Clear side it was laid out on (migration 0019; None elsewhere)."""

    @property
    def left(self) -> tuple[PlanStep, ...]:
        return self.steps[self.played:]


@dataclass(frozen=True, slots=True)
class OutcomeRow:
    """What a seat's last planned turn did (``bot.core.games.PlanOutcome`` as stored)."""

    game_id: int
    seat: int
    user_id: int
    played: tuple[str, ...]
    left: tuple[str, ...]
    reason: str | None
    """Why it stopped early, as stored words (bot/core/wording/stored.py); None: it did not."""
    actions_left: int
    kept_at: str


_COLUMNS = "game_id, seat, user_id, steps, played, turn, created_at, side"
_OUTCOME_COLUMNS = "game_id, seat, user_id, played, unplayed, reason, actions_left, kept_at"
_FORGET_OUTCOME = "DELETE FROM plan_outcomes WHERE game_id = ? AND seat = ?"


def steps_text(steps: Sequence[PlanStep]) -> str:
    return json.dumps([{"action": s.action, "card": s.card} for s in steps], separators=(",", ":"))


def _row(row: Sequence[Any]) -> PlanRow:
    steps = tuple(PlanStep(str(s["action"]), None if s.get("card") is None else str(s["card"]))
                  for s in json.loads(str(row[3])))
    return PlanRow(int(row[0]), int(row[1]), int(row[2]), steps, int(row[4]),
                   None if row[5] is None else int(row[5]), str(row[6]),
                   None if row[7] is None else str(row[7]))


def _outcome(row: Sequence[Any]) -> OutcomeRow:
    return OutcomeRow(int(row[0]), int(row[1]), int(row[2]), tuple(json.loads(str(row[3]))),
                      tuple(json.loads(str(row[4]))), None if row[5] is None else str(row[5]),
                      int(row[6]), str(row[7]))


def plans_read(game_id: int, found: dict[int, PlanRow]) -> InTransaction:
    """Read ``game_id``'s plans into ``found`` (seat to plan) inside the transaction this joins:
    a commit that hands the move on reads the plans there, in the same storage job, instead of
    one more job after it (``GamesCore._commit``; each job is a hop to the connection's thread
    that a turn end waits for)."""
    def work(conn: sqlite3.Connection, now: str) -> None:
        rows = conn.execute(f"SELECT {_COLUMNS} FROM plans WHERE game_id = ?", (game_id,)).fetchall()
        found.clear()
        found.update((plan.seat, plan) for plan in map(_row, rows))

    return InTransaction(work)


class PlanStore:
    """The ``plans`` table, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, game_id: int, seat: int) -> PlanRow | None:
        row = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone())
        return None if row is None else _row(row)

    async def of_game(self, game_id: int) -> list[PlanRow]:
        rows = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_COLUMNS} FROM plans WHERE game_id = ? ORDER BY seat", (game_id,)).fetchall())
        return [_row(row) for row in rows]

    async def save(self, game_id: int, seat: int, user_id: int, steps: Sequence[PlanStep],
                   side: str | None = None) -> None:
        """Keep ``steps`` (laid out on Line Clear's ``side``) as the seat's plan, replacing the one
        it had (from its first step), and forget what its last planned turn did, in the same
        transaction."""
        now = self.storage.now_iso()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO plans ({_COLUMNS}) VALUES (?, ?, ?, ?, 0, NULL, ?, ?)"
                " ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id,"
                " steps = excluded.steps, played = 0, turn = NULL, created_at = excluded.created_at,"
                " side = excluded.side",
                (game_id, seat, user_id, steps_text(steps), now, side))
            conn.execute(_FORGET_OUTCOME, (game_id, seat))

        await self.storage.write(work)

    async def delete(self, game_id: int, seat: int, *, outcome_too: bool = False) -> bool:
        """Drop the seat's plan (and with ``outcome_too`` what its last planned turn did, in the
        same transaction); whether there was a plan."""
        def work(conn: sqlite3.Connection) -> bool:
            gone = conn.execute("DELETE FROM plans WHERE game_id = ? AND seat = ?", (game_id, seat))
            if outcome_too:
                conn.execute(_FORGET_OUTCOME, (game_id, seat))
            return gone.rowcount > 0

        return await self.storage.write(work)

    async def forget(self, plan: PlanRow) -> bool:
        """Drop ``plan`` (one that stopped, or can no longer play), unless the seat's player laid
        out another since it was read; whether it was dropped."""
        return await self.storage.write(
            lambda conn: conn.execute(f"DELETE FROM plans WHERE {_THIS_PLAN}", _this_plan(plan)).rowcount > 0)

    # -- what the last planned turn did ---------------------------------------------------------

    async def keep_outcome(self, game_id: int, seat: int, user_id: int, played: Sequence[str],
                           left: Sequence[str], reason: str | None, actions_left: int, *,
                           keep_at_most: int) -> None:
        """Keep what the seat's planned turn did in place of its last one, and drop the first kept
        of all seats' beyond ``keep_at_most`` — one transaction."""
        now = self.storage.now_iso()
        row = (game_id, seat, user_id, json.dumps(list(played)), json.dumps(list(left)), reason,
               actions_left, now)
        # `kept` numbered by the database (migration 0021), unique however many write; kept again,
        # a seat's outcome takes a new number, the latest. SQLite's writers take turns, so the row
        # is replaced; on PostgreSQL two processes keeping the same seat's at once would both find
        # no row to replace and one insert would fail on the other's: an upsert waits for it, and
        # its EXCLUDED row carries the new number drawn for the insert.
        upsert = self.storage.dialect == "postgresql"
        insert = f"INSERT INTO plan_outcomes ({_OUTCOME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

        def work(conn: sqlite3.Connection) -> None:
            if upsert:
                conn.execute(insert + " ON CONFLICT (game_id, seat) DO UPDATE SET kept = EXCLUDED.kept,"
                             " user_id = EXCLUDED.user_id, played = EXCLUDED.played,"
                             " unplayed = EXCLUDED.unplayed, reason = EXCLUDED.reason,"
                             " actions_left = EXCLUDED.actions_left, kept_at = EXCLUDED.kept_at", row)
            else:
                conn.execute(_FORGET_OUTCOME, (game_id, seat))
                conn.execute(insert, row)
            conn.execute(
                "DELETE FROM plan_outcomes WHERE kept <="
                " (SELECT kept FROM plan_outcomes ORDER BY kept DESC LIMIT 1 OFFSET ?)", (keep_at_most,))

        await self.storage.write(work)

    async def outcome(self, game_id: int, seat: int) -> OutcomeRow | None:
        """What the seat's last planned turn did, if it is kept."""
        row = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_OUTCOME_COLUMNS} FROM plan_outcomes WHERE game_id = ? AND seat = ?",
            (game_id, seat)).fetchone())
        return None if row is None else _outcome(row)


_THIS_PLAN = "game_id = ? AND seat = ? AND user_id = ? AND steps = ?"
"""The seat's plan as it was read: a plan laid out again since (on the board, in another process
or another task, while this one was playing a step) is another plan, which the old one's progress
must never be written to (its first step marked played without being played) nor its end delete."""


def _this_plan(plan: PlanRow) -> tuple[Any, ...]:
    return (plan.game_id, plan.seat, plan.user_id, steps_text(plan.steps))


def advance_write(plan: PlanRow, turn: int) -> InTransaction:
    """For the planned action's own transaction: one more step played, in ``turn``. Raises
    :class:`PlanChangedError` (the action is not committed) if the seat's plan is no longer
    ``plan`` as read, with as many steps played: replaced or cancelled since."""
    sql = f"UPDATE plans SET played = played + 1, turn = ? WHERE {_THIS_PLAN} AND played = ?"
    return _required(plan, sql, (turn, *_this_plan(plan), plan.played))


def delete_write(plan: PlanRow) -> InTransaction:
    """For the transaction of the plan's last step (or the turn that ends it): the plan is done.
    Raises :class:`PlanChangedError` as :func:`advance_write` does (a plan laid out since in its
    place stays, and the step is not committed)."""
    return _required(plan, f"DELETE FROM plans WHERE {_THIS_PLAN} AND played = ?",
                     (*_this_plan(plan), plan.played))


def _required(plan: PlanRow, sql: str, params: tuple[Any, ...]) -> InTransaction:
    """``sql`` inside the step's transaction, which it fails unless it changed ``plan``'s row."""
    def run(conn: sqlite3.Connection, now: str) -> None:
        if conn.execute(sql, params).rowcount != 1:
            raise PlanChangedError(f"the plan of game {plan.game_id} seat {plan.seat} changed")

    return InTransaction(run)


def planned_write(game_id: int, revision: int) -> Write:
    """Mark the log row committed at ``revision`` as played by a plan."""
    return Write("UPDATE actions SET planned = 1 WHERE game_id = ? AND revision = ?", (game_id, revision))
