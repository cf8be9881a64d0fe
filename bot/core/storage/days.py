"""SQL for playing over days: reminder preferences, per-turn reminder rows, turn clocks, votes,
undo and the queries behind ``log`` and ``stats`` (tables from migration 0002).

It shares the :class:`~bot.core.storage.db.Storage` connection (one SQLite connection per bot keeps
transactions serialised) and its transaction helper, so storage stays the only package that
speaks SQL without this module editing ``db.py``.

Why the reminder rows look the way they do: a reminder is *claimed* — ``due_at`` moved on and
``sent_count`` bumped with a compare-and-set on the old ``due_at`` — in a committed transaction
**before** the DM is sent. A crash between the claim and the send loses that one reminder (the
next nudge still comes one interval later); it can never send one twice, even when a restarted
bot and a lingering one race. At-most-once is the right side to err on for a DM.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import aiosqlite

from bot.core.storage.db import FORGET_DRAFTS_SQL, Storage
from bot.core.storage.errors import StaleRevisionError
from bot.core.storage.game_rows import catalogue_writes
from bot.core.storage.revisions import check_revision
from bot.core.storage.rows import ActionRow, GameRow, StoredCatalogue
from bot.core.storage.transactions import InTransaction, Write

_log = logging.getLogger(__name__)


def ts(when: datetime) -> str:
    """One fixed text form for every time this module writes or compares (sorts as text)."""
    if when.tzinfo is None:
        raise ValueError("times must be timezone-aware")
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def parse_ts(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


@dataclass(frozen=True, slots=True)
class ReminderPrefsRow:
    """A player's reminder columns (defaults when the player has never been seen)."""

    user_id: int
    enabled: bool = True
    interval: timedelta = timedelta(hours=12)
    quiet_start: time | None = None
    quiet_end: time | None = None
    timezone: str = "UTC"
    vacation_until: date | None = None
    dms_closed: bool = False
    locale: str | None = None
    """The player's Discord language (migration 0005), for the DMs; None: English."""
    text_only: bool = False
    """Boards as text first, the image second (migration 0010, ``/projectl settings text_only:``)."""
    vacation_from: datetime | None = None
    """When ``vacation_until`` was set (migration 0010): a vacation runs from then (pace.py)."""
    heads_up: bool = False
    """A DM when the player before them starts their turn (migration 0012; opt-in)."""


@dataclass(frozen=True, slots=True)
class TurnTime:
    """One finished turn of a human player (a ``turns`` row, closed and not timed out)."""

    game_id: int
    seat: int
    user_id: int
    started: datetime
    ended: datetime


@dataclass(frozen=True, slots=True)
class TurnKey:
    """Which turn: the engine's turn number and phase, and the seat to move."""

    game_id: int
    turn: int
    phase: str
    seat: int


@dataclass(frozen=True, slots=True)
class TurnRow:
    key: TurnKey
    user_id: int
    channel_id: int
    started_at: datetime
    deadline_at: datetime | None
    due_at: datetime | None
    sent_count: int
    last_sent_at: datetime | None
    last_acted_at: datetime | None
    channel_fallback: bool
    timed_out_at: datetime | None
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class UndoneRow:
    game_id: int
    undo_revision: int
    seq: int
    seat: int
    user_id: int | None
    action: str
    revision: int
    created_at: str
    undone_at: str
    undone_by: int


_TURN_COLUMNS = (
    "game_id, turn, phase, seat, user_id, channel_id, started_at, deadline_at, due_at, sent_count,"
    " last_sent_at, last_acted_at, channel_fallback, timed_out_at, closed_at"
)
_KEY = "game_id = ? AND turn = ? AND phase = ? AND seat = ?"


def _key(key: TurnKey) -> tuple[int, int, str, int]:
    return (key.game_id, key.turn, key.phase, key.seat)


def _close_others(key: TurnKey, keep: Iterable[TurnKey], when: datetime) -> tuple[str, tuple[Any, ...]]:
    """The statement closing ``key``'s game's open turns but ``key`` and those of ``keep``."""
    kept = [key, *(other for other in keep if other.game_id == key.game_id and other != key)]
    unless = " AND ".join(f"NOT ({_KEY})" for _ in kept)
    return (f"UPDATE turns SET closed_at = ? WHERE game_id = ? AND closed_at IS NULL AND {unless}",
            (ts(when), key.game_id, *(value for other in kept for value in _key(other))))


TURN_TIMES = 2000
"""How many of a server's latest turns its pace is measured over."""

_PREFS_COLUMNS = ("reminders_enabled, reminder_interval_minutes, quiet_start, quiet_end, timezone,"
                  " vacation_until, dms_closed, locale, text_only, vacation_from, heads_up")


def _prefs(user_id: int, row: Any) -> ReminderPrefsRow:
    return ReminderPrefsRow(
        user_id, bool(row[0]), timedelta(minutes=int(row[1])),
        None if row[2] is None else time.fromisoformat(row[2]),
        None if row[3] is None else time.fromisoformat(row[3]),
        str(row[4]), None if row[5] is None else date.fromisoformat(row[5]), bool(row[6]),
        None if row[7] is None else str(row[7]), bool(row[8]), parse_ts(row[9]), bool(row[10]),
    )


_SAVE_PREFS = (
    "UPDATE players SET reminders_enabled = ?, reminder_interval_minutes = ?, quiet_start = ?,"
    " quiet_end = ?, timezone = ?, vacation_until = ?, dms_closed = 0, updated_at = ?,"
    " locale = COALESCE(?, locale), text_only = ?, vacation_from = ?, heads_up = ? WHERE user_id = ?")


def _save_prefs_params(user_id: int, prefs: ReminderPrefsRow, now: str) -> tuple[Any, ...]:
    return (int(prefs.enabled), int(prefs.interval.total_seconds() // 60),
            None if prefs.quiet_start is None else prefs.quiet_start.strftime("%H:%M"),
            None if prefs.quiet_end is None else prefs.quiet_end.strftime("%H:%M"),
            prefs.timezone, None if prefs.vacation_until is None else prefs.vacation_until.isoformat(),
            now, prefs.locale, int(prefs.text_only),
            None if prefs.vacation_from is None else ts(prefs.vacation_from), int(prefs.heads_up),
            user_id)


def _turn(row: Any) -> TurnRow:
    return TurnRow(
        TurnKey(int(row[0]), int(row[1]), str(row[2]), int(row[3])), int(row[4]), int(row[5]),
        datetime.fromisoformat(row[6]), parse_ts(row[7]), parse_ts(row[8]), int(row[9]), parse_ts(row[10]),
        parse_ts(row[11]), bool(row[12]), parse_ts(row[13]), parse_ts(row[14]),
    )


_ACTIVITY_SQL = f"UPDATE turns SET last_acted_at = ?, due_at = ? WHERE {_KEY} AND closed_at IS NULL"


def prefs_in(conn: sqlite3.Connection, user_id: int) -> ReminderPrefsRow:
    """``user_id``'s reminder settings (defaults for a player never seen), read on the
    connection's own thread (inside a job or a transaction)."""
    row = conn.execute(f"SELECT {_PREFS_COLUMNS} FROM players WHERE user_id = ?", (user_id,)).fetchone()
    return ReminderPrefsRow(user_id) if row is None else _prefs(user_id, row)


def turn_limit_in(conn: sqlite3.Connection, game_id: int) -> timedelta | None:
    """The game's turn clock (None: none), read on the connection's own thread."""
    row = conn.execute("SELECT turn_limit_hours FROM table_options WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None or row[0] is None else timedelta(hours=int(row[0]))


def _open_turn_in(
    conn: sqlite3.Connection, key: TurnKey, *, user_id: int, channel_id: int, started_at: datetime,
    deadline_at: datetime | None, due_at: datetime | None, keep: Iterable[TurnKey],
) -> TurnRow:
    """:meth:`DaysStore.open_turn`'s statements, inside the caller's transaction."""
    sql, params = _close_others(key, keep, started_at)
    conn.execute(sql, params)
    conn.execute(
        f"INSERT INTO turns ({_TURN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, 0,"
        " NULL, NULL) ON CONFLICT (game_id, turn, phase, seat) DO UPDATE SET closed_at = NULL",
        (*_key(key), user_id, channel_id, ts(started_at),
         None if deadline_at is None else ts(deadline_at), None if due_at is None else ts(due_at)),
    )
    return _turn(conn.execute(f"SELECT {_TURN_COLUMNS} FROM turns WHERE {_KEY}", _key(key)).fetchone())


class DaysStore:
    """Async access to the 0002 tables, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def _transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        return self.storage.transaction()

    def _now(self) -> str:
        return ts(self.storage.clock.now())

    async def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        return await self.storage.job(lambda conn: conn.execute(sql, params).fetchall())

    async def _fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return await self.storage.job(lambda conn: conn.execute(sql, params).fetchone())

    # -- reminder preferences -------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> ReminderPrefsRow:
        return await self.storage.job(lambda conn: prefs_in(conn, user_id))

    async def prefs_of(self, user_ids: Iterable[int]) -> dict[int, ReminderPrefsRow]:
        """Several players' settings in one read (those never seen are left out)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._fetchall(
            f"SELECT user_id, {_PREFS_COLUMNS} FROM players WHERE user_id IN ({marks})", tuple(wanted))
        return {int(row[0]): _prefs(int(row[0]), row[1:]) for row in rows}

    async def turn_times(self, guild_id: int | None, limit: int = TURN_TIMES) -> list[TurnTime]:
        """The server's latest ``limit`` finished, not timed-out turns of human players, newest
        first: what ``/projectl status``, ``stats`` and the reminders measure the pace from (one
        read; the latest turns are a server's present pace, and the reply stays quick)."""
        if guild_id is None:
            return []
        rows = await self._fetchall(
            "SELECT t.game_id, t.seat, t.user_id, t.started_at, t.closed_at FROM turns t"
            " JOIN games g ON g.id = t.game_id WHERE g.guild_id = ? AND t.closed_at IS NOT NULL"
            " AND t.timed_out_at IS NULL ORDER BY t.started_at DESC LIMIT ?", (guild_id, limit))
        return [TurnTime(int(r[0]), int(r[1]), int(r[2]), datetime.fromisoformat(r[3]),
                         datetime.fromisoformat(r[4])) for r in rows]

    async def save_prefs(self, prefs: ReminderPrefsRow, display_name: str) -> None:
        """Write every reminder column (creating the player if new), and ``locale`` unless it is
        None. Saving clears ``dms_closed``: a player who touches their settings gets a fresh DM
        attempt. To change some settings from what is stored, use :meth:`update_prefs`: a
        ``prefs`` read before another process saved would put that process's change back."""
        await self.update_prefs(prefs.user_id, display_name, lambda stored: prefs)

    async def update_prefs(self, user_id: int, display_name: str,
                           change: Callable[[ReminderPrefsRow], ReminderPrefsRow]) -> ReminderPrefsRow:
        """Read the player's settings, ``change`` them and save the result (as :meth:`save_prefs`
        does) in ONE transaction that holds the player's row, so that a change made at the same
        moment by another process (a ``/projectl settings`` in a server of another shard) is
        either read by this one or waits for it, never overwritten with what it replaced.
        ``change`` runs on the connection's thread (plain code, no awaiting); what it raises
        rolls everything back. Returns the settings as saved."""
        now = self._now()
        lock = " FOR UPDATE" if self.storage.dialect == "postgresql" else ""  # SQLite: BEGIN IMMEDIATE

        def work(conn: sqlite3.Connection) -> ReminderPrefsRow:
            conn.execute("INSERT INTO players (user_id, display_name, created_at, updated_at)"
                         " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                         (user_id, display_name, now, now))
            row = conn.execute(f"SELECT {_PREFS_COLUMNS} FROM players WHERE user_id = ?{lock}",
                               (user_id,)).fetchone()
            prefs = change(_prefs(user_id, row))
            conn.execute(_SAVE_PREFS, _save_prefs_params(user_id, prefs, now))
            return _prefs(user_id, conn.execute(f"SELECT {_PREFS_COLUMNS} FROM players WHERE user_id = ?",
                                                (user_id,)).fetchone())

        return await self.storage.write(work)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE players SET dms_closed = ? WHERE user_id = ?", (int(closed), user_id))

    # -- turns (reminders and the turn clock) -------------------------------------------------------

    async def open_turn(
        self, key: TurnKey, *, user_id: int, channel_id: int, started_at: datetime,
        deadline_at: datetime | None, due_at: datetime | None, keep: Iterable[TurnKey] = (),
    ) -> TurnRow:
        """Record that ``key`` began, closing the game's other open turns but those of ``keep``
        (the other turns still running: Line Clear's other marker holder), in one transaction.

        If the row already exists (the turn was undone and is starting again) it is reopened as it
        was: a reminder already sent for that turn is not sent again.
        """
        return await self.storage.write(lambda conn: _open_turn_in(  # one job: a turn post waits on it
            conn, key, user_id=user_id, channel_id=channel_id, started_at=started_at, deadline_at=deadline_at,
            due_at=due_at, keep=keep))

    async def start_turn(
        self, key: TurnKey, *, user_id: int, channel_id: int, started_at: datetime,
        due: Callable[[ReminderPrefsRow], datetime | None], keep: Iterable[TurnKey] = (),
    ) -> TurnRow:
        """:meth:`open_turn` for a turn that has just started: its first reminder ``due(prefs)``
        (plain code, run on the connection's thread) from the player's settings, its deadline from
        the table's turn clock, both read in the same transaction. Why one job: a turn end's post
        waits for it, and each job is a hop to the connection's thread and back (tens of
        microseconds, but milliseconds whenever the machine's cores are busy); reading the
        settings and the clock first cost two more hops on every turn end."""
        def work(conn: sqlite3.Connection) -> TurnRow:
            limit = turn_limit_in(conn, key.game_id)
            return _open_turn_in(conn, key, user_id=user_id, channel_id=channel_id, started_at=started_at,
                                 deadline_at=None if limit is None else started_at + limit,
                                 due_at=due(prefs_in(conn, user_id)), keep=keep)

        return await self.storage.write(work)

    async def reopen_turn(self, key: TurnKey, acted_at: datetime, due_at: datetime | None,
                          keep: Iterable[TurnKey] = ()) -> None:
        """After an undo: the undoer's turn is open again and they are acting right now (the
        game's other open turns close, but those of ``keep``, as in :meth:`open_turn`)."""
        async with self._transaction() as db:
            await db.execute(*_close_others(key, keep, acted_at))
            await db.execute(
                f"UPDATE turns SET closed_at = NULL, last_acted_at = ?, due_at = ? WHERE {_KEY}",
                (ts(acted_at), None if due_at is None else ts(due_at), *_key(key)),
            )

    async def close_turns(self, game_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("UPDATE turns SET closed_at = ? WHERE game_id = ? AND closed_at IS NULL",
                             (self._now(), game_id))

    async def close_turn(self, key: TurnKey) -> None:
        async with self._transaction() as db:
            await db.execute(f"UPDATE turns SET closed_at = ? WHERE {_KEY} AND closed_at IS NULL",
                             (self._now(), *_key(key)))

    async def close_turns_of_seat(self, game_id: int, seat: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE turns SET closed_at = ? WHERE game_id = ? AND seat = ? AND closed_at IS NULL",
                (self._now(), game_id, seat),
            )

    def close_seats_write(self, game_id: int, acting: Iterable[int], now: datetime) -> Write:
        """For an action's own transaction: close the game's open turns of every seat but
        ``acting`` (a Line Clear holder whose turn that action ended, while the other plays on)."""
        seats = sorted(set(acting))
        marks = ", ".join("?" * len(seats))
        unless = f" AND seat NOT IN ({marks})" if seats else ""
        return Write(f"UPDATE turns SET closed_at = ? WHERE game_id = ? AND closed_at IS NULL{unless}",
                     (ts(now), game_id, *seats))

    async def open_turns_of_user(self, user_id: int) -> list[TurnRow]:
        rows = await self._fetchall(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE user_id = ? AND closed_at IS NULL", (user_id,)
        )
        return [_turn(r) for r in rows]

    async def open_turns_beside(self, guild_id: int, user_id: int) -> list[tuple[TurnRow, int | None]]:
        """The open turns of every active game of ``guild_id`` that ``user_id`` has a seat in,
        oldest first, each with its game's latest table post (the inbox: whose move, since when)."""
        columns = ", ".join(f"t.{column.strip()}" for column in _TURN_COLUMNS.split(","))
        rows = await self._fetchall(
            f"SELECT {columns}, g.table_message_id FROM turns t JOIN games g ON g.id = t.game_id"
            " WHERE t.closed_at IS NULL AND g.status = 'active' AND g.guild_id = ?"
            " AND t.game_id IN (SELECT game_id FROM seats WHERE user_id = ?)"
            " ORDER BY t.started_at, t.game_id", (guild_id, user_id),
        )
        return [(_turn(row[:-1]), None if row[-1] is None else int(row[-1])) for row in rows]

    async def get_turn(self, key: TurnKey) -> TurnRow | None:
        row = await self._fetchone(f"SELECT {_TURN_COLUMNS} FROM turns WHERE {_KEY}", _key(key))
        return None if row is None else _turn(row)

    async def open_turn_of(self, game_id: int) -> TurnRow | None:
        row = await self._fetchone(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE game_id = ? AND closed_at IS NULL", (game_id,)
        )
        return None if row is None else _turn(row)

    async def due_turns(self, now: datetime) -> list[TurnRow]:
        """Open turns with a reminder due at or before ``now``."""
        rows = await self._fetchall(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE closed_at IS NULL AND due_at IS NOT NULL"
            " AND due_at <= ? ORDER BY due_at", (ts(now),),
        )
        return [_turn(r) for r in rows]

    async def claim_reminder(self, row: TurnRow, now: datetime, next_due: datetime | None) -> bool:
        """Compare-and-set: mark the due reminder as sent and plan the next. False if another
        worker claimed it first, the turn closed, or the player acted and moved it — or the turn
        clock ran out and its time-is-up has not been claimed yet (:meth:`claim_timeout` comes
        first and replaces the nudge, even when another process is ticking too)."""
        if row.due_at is None:
            return False
        sql = (f"UPDATE turns SET sent_count = sent_count + 1, last_sent_at = ?, due_at = ?"
               f" WHERE {_KEY} AND due_at = ? AND closed_at IS NULL"
               " AND (deadline_at IS NULL OR deadline_at > ? OR timed_out_at IS NOT NULL)")
        params: tuple[Any, ...] = (ts(now), None if next_due is None else ts(next_due), *_key(row.key),
                                   ts(row.due_at), ts(now))
        if self.storage.dialect == "postgresql":
            # Several bot processes tick at once: a row another one is claiming right now is
            # skipped instead of waited for (its compare-and-set would fail anyway).
            sql += f" AND ctid IN (SELECT ctid FROM turns WHERE {_KEY} FOR UPDATE SKIP LOCKED)"
            params += _key(row.key)
        async with self._transaction() as db:
            cursor = await db.execute(sql, params)
            return cursor.rowcount == 1

    async def reschedule(self, row: TurnRow, due_at: datetime | None) -> bool:
        """Move the next reminder of ``row``'s turn to ``due_at`` (re-planned from ``row``), if
        the turn is as ``row`` found it: False, and nothing changed, if a reminder was claimed or
        the player acted since (a DM just sent must not fall due again at once because a plan
        made from the row before it said so: re-read the row and plan again)."""
        unchanged = [_KEY, "closed_at IS NULL", "sent_count = ?"]
        expected: list[Any] = [*_key(row.key), row.sent_count]
        for column, value in (("due_at", row.due_at), ("last_acted_at", row.last_acted_at)):
            unchanged.append(f"{column} IS NULL" if value is None else f"{column} = ?")
            expected.extend(() if value is None else (ts(value),))
        async with self._transaction() as db:
            cursor = await db.execute(f"UPDATE turns SET due_at = ? WHERE {' AND '.join(unchanged)}",
                                      (None if due_at is None else ts(due_at), *expected))
            return cursor.rowcount == 1

    async def record_activity(self, key: TurnKey, acted_at: datetime, due_at: datetime | None) -> None:
        """The player acted in their turn: push the next reminder back (none while acting)."""
        write = self.activity_write(key, acted_at, due_at)
        await self.storage.write(lambda conn: conn.execute(write.sql, write.params))

    def activity_write(self, key: TurnKey, acted_at: datetime, due_at: datetime | None) -> Write:
        """:meth:`record_activity` as a statement for the action's own transaction
        (``GameManager.commit_writes``): an action and its reminder update cost one fsync."""
        return Write(_ACTIVITY_SQL, (ts(acted_at), None if due_at is None else ts(due_at), *_key(key)))

    async def activity_work(
        self, key: TurnKey, user_id: int, acted_at: datetime,
        due: Callable[[ReminderPrefsRow], datetime | None],
    ) -> Write | InTransaction:
        """:meth:`activity_write` with the next reminder ``due(prefs)`` from ``user_id``'s settings.

        On SQLite the settings are read inside the action's own transaction (an
        :class:`InTransaction`; ``due`` is plain code, run on the connection's thread): reading
        them first was a hop to the connection's thread and back on every action a player waits
        for. On PostgreSQL they are read first and the write joins as a plain :class:`Write`,
        which keeps the action's commit one statement sent from the bot's loop
        (``Storage.commit_action``)."""
        if self.storage.dialect == "postgresql":
            return self.activity_write(key, acted_at, due(await self.get_prefs(user_id)))

        def work(conn: sqlite3.Connection, now: str) -> None:
            prefs = prefs_in(conn, user_id)
            try:
                due_at = due(prefs)
            except Exception:  # as a failing commit hook is: logged, and the action commits without it
                _log.exception("planning %s's next reminder failed", user_id)
                return
            conn.execute(_ACTIVITY_SQL, (ts(acted_at), None if due_at is None else ts(due_at), *_key(key)))

        return InTransaction(work)

    async def claim_channel_fallback(self, key: TurnKey) -> bool:
        """At most one channel mention per turn replaces DMs: True for the first caller only."""
        async with self._transaction() as db:
            cursor = await db.execute(
                f"UPDATE turns SET channel_fallback = 1 WHERE {_KEY} AND channel_fallback = 0", _key(key)
            )
            return cursor.rowcount == 1

    async def expired_turns(self, now: datetime) -> list[TurnRow]:
        """Open turns whose clock ran out and which have not been announced yet."""
        rows = await self._fetchall(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE closed_at IS NULL AND timed_out_at IS NULL"
            " AND deadline_at IS NOT NULL AND deadline_at <= ? ORDER BY deadline_at", (ts(now),),
        )
        return [_turn(r) for r in rows]

    async def claim_timeout(self, key: TurnKey, now: datetime, next_due: datetime | None = None) -> bool:
        """Compare-and-set: the first caller announces the expired clock; True for it only. A
        ``next_due`` moves the next reminder in the same statement (the announcement replaces the
        nudge), so a worker that read the old ``due_at`` cannot claim that nudge any more."""
        sql = (f"UPDATE turns SET timed_out_at = ?, due_at = COALESCE(?, due_at) WHERE {_KEY}"
               " AND timed_out_at IS NULL AND closed_at IS NULL")
        params: tuple[Any, ...] = (ts(now), None if next_due is None else ts(next_due), *_key(key))
        if self.storage.dialect == "postgresql":  # as in claim_reminder: skip a row being claimed
            sql += f" AND ctid IN (SELECT ctid FROM turns WHERE {_KEY} FOR UPDATE SKIP LOCKED)"
            params += _key(key)
        async with self._transaction() as db:
            cursor = await db.execute(sql, params)
            return cursor.rowcount == 1

    # -- table options and votes ---------------------------------------------------------------

    async def set_turn_limit(self, game_id: int, hours: int | None) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO table_options (game_id, turn_limit_hours) VALUES (?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET turn_limit_hours = excluded.turn_limit_hours",
                (game_id, hours),
            )

    async def turn_limit(self, game_id: int) -> timedelta | None:
        return await self.storage.job(lambda conn: turn_limit_in(conn, game_id))

    async def cast_vote(self, key: TurnKey, voter_id: int, choice: str) -> dict[int, str]:
        """Record (or change) a vote; returns every vote on that turn, voter → choice."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO votes (game_id, turn, phase, seat, voter_id, choice, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, turn, phase, seat, voter_id)"
                " DO UPDATE SET choice = excluded.choice,"
                " created_at = excluded.created_at",
                (*_key(key), voter_id, choice, self._now()),
            )
        return await self.votes(key)

    async def votes(self, key: TurnKey) -> dict[int, str]:
        rows = await self._fetchall(f"SELECT voter_id, choice FROM votes WHERE {_KEY}", _key(key))
        return {int(r[0]): str(r[1]) for r in rows}

    # -- undo --------------------------------------------------------------------------------------

    async def last_action(self, game_id: int) -> ActionRow | None:
        row = await self._fetchone(
            "SELECT game_id, seq, seat, user_id, action, revision, created_at, planned = 1 FROM actions"
            " WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,),
        )
        return None if row is None else ActionRow(*row)

    async def undo_last_action(
        self, game_id: int, expected_revision: int, *, seq: int, state: str, state_schema: int,
        by_user_id: int, catalogue: StoredCatalogue | None = None,
    ) -> GameRow:
        """Move action ``seq`` (which must be the last) to ``undone_actions`` and store ``state``
        (the replay of the remaining log), bumping the revision — all in ONE transaction.
        ``catalogue``: as in ``Storage.start_game``."""
        now = self._now()
        async with self._transaction() as db:
            await check_revision(db, game_id, expected_revision, statuses=("active",))
            async with db.execute("SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,)) as cursor:
                last = await cursor.fetchone()
            if last is None or last[0] != seq:
                raise StaleRevisionError(f"Action {seq} is no longer the last of game {game_id}.")
            await db.execute(
                "INSERT INTO undone_actions (game_id, undo_revision, seq, seat, user_id, action, revision,"
                " created_at, undone_at, undone_by) SELECT game_id, ?, seq, seat, user_id, action, revision,"
                " created_at, ?, ? FROM actions WHERE game_id = ? AND seq = ?",
                (expected_revision + 1, now, by_user_id, game_id, seq),
            )
            await db.execute("DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
            for write in catalogue_writes(game_id, catalogue, now):
                await db.execute(write.sql, write.params)
            await db.execute(
                "UPDATE games SET state = ?, state_schema = ?, revision = revision + 1, updated_at = ?"
                " WHERE id = ?", (state, state_schema, self.storage.now_iso(), game_id),
            )
            await db.execute(FORGET_DRAFTS_SQL, (game_id,))
        return await self.storage.get_game(game_id)

    async def undone_actions(self, game_id: int) -> list[UndoneRow]:
        rows = await self._fetchall(
            "SELECT game_id, undo_revision, seq, seat, user_id, action, revision, created_at, undone_at,"
            " undone_by FROM undone_actions WHERE game_id = ? ORDER BY undo_revision", (game_id,),
        )
        return [UndoneRow(*r) for r in rows]

    # -- seats ---------------------------------------------------------------------------------------

    async def seat_to_policy(
        self, game_id: int, expected_revision: int, seat: int, *, policy: str, display_name: str,
    ) -> GameRow:
        """Hand an active game's human seat to a policy (AI), bumping the revision."""
        async with self._transaction() as db:
            await check_revision(db, game_id, expected_revision, statuses=("active",))
            await db.execute(
                "UPDATE seats SET replaced_user_id = COALESCE(replaced_user_id, user_id), user_id = NULL,"
                " policy = ?, display_name = ?"
                " WHERE game_id = ? AND seat = ?",
                (policy, display_name, game_id, seat),
            )
            await db.execute("UPDATE games SET revision = revision + 1, updated_at = ? WHERE id = ?",
                             (self.storage.now_iso(), game_id))
            await db.execute(FORGET_DRAFTS_SQL, (game_id,))
        return await self.storage.get_game(game_id)

    # -- history and statistics -----------------------------------------------------------------------

    async def latest_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's game in play, else its most recently finished one, else its lobby."""
        row = await self._fetchone(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active', 'finished')"
            " ORDER BY CASE status WHEN 'active' THEN 0 WHEN 'finished' THEN 1 ELSE 2 END, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else await self.storage.get_game(int(row[0]))
