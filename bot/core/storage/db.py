"""The SQLite store: the only code in the bot that speaks SQL.

Why the shape it has:

* The connection is opened, set up (WAL mode, ``synchronous``) and migrated in connecting.py, and
  work reaches it through :class:`~bot.core.storage.connection.StorageConnection` (one job per
  request, transactions taking turns), which :class:`Storage` extends.
* Optimistic concurrency: every change names the ``revision`` it was computed from and fails with
  :class:`StaleRevisionError` if someone else committed first. The manager's per-channel lock
  makes that rare; the check makes it safe even across processes or after a crash.
* Rows come back as frozen dataclasses (rows.py), never cursors, so callers cannot hold a
  transaction open.
* On PostgreSQL a round trip to the server is what costs (the bot's CPU and the server's), so the
  two hot paths are one statement each — a game read with its seats, an action committed with
  its lock, check, log row and read-back (:data:`_PG_COMMIT_ACTION`) — and run on the bot's own
  loop (``PgConnection.fetch_row``): 3 statements per action instead of 14 (docs/benchmarks.md).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

from bot.core.storage.connection import StorageConnection
from bot.core.storage.errors import ChannelBusyError, GameNotFoundError
from bot.core.storage.game_rows import (
    GAME_COLUMNS,
    GAME_FIELDS,
    PG_SEATS_JSON,
    REMEMBERED_CATALOGUES,
    game_row_of,
    game_row_reading_seats,
    game_row_with_seats_json,
    read_game,
    remember_catalogue,
    require_game,
    seats_of_json,
    store_catalogue,
)
from bot.core.storage.postgres import PgConnection
from bot.core.storage.revisions import (
    REVISION_SQL,
    bump_revision,
    check_revision_in_transaction,
    lock_game,
    refuse_unwritten_action,
)
from bot.core.storage.rows import (
    GAME_STATUSES,
    OPEN_STATUSES,
    ActionRow,
    GameRow,
    NewSeat,
    PlayerRow,
    StoredCatalogue,
)
from bot.core.storage.transactions import InTransaction, Write, read_scalar, run_in_transaction

PLAYER_PREFERENCES = ("mention_on_turn",)
"""Columns of ``players`` that :meth:`Storage.set_preference` may write. Later migrations that
add preference columns append their names here."""


class Storage(StorageConnection):
    """Async access to the bot's database. Create with :meth:`open`, finish with :meth:`close`."""

    # -- games -------------------------------------------------------------------------------

    async def create_game(
        self, *, guild_id: int | None, channel_id: int, host_id: int, variant: str,
        max_players: int, options: dict[str, Any], seed: int, seats: Iterable[NewSeat] = (),
        turn_limit_hours: int | None = None, channel_private: bool | None = None,
        parent_id: int | None = None,
    ) -> GameRow:
        """A new game in the lobby. Raises :class:`ChannelBusyError` if the channel has one.

        The game, its seats and its table options (``turn_limit_hours``: the turn clock) are one
        transaction, so a failure leaves no half-created lobby."""
        now = self.now_iso()
        new_seats = list(seats)

        def work(conn: sqlite3.Connection) -> GameRow:
            cursor = conn.execute(
                "INSERT INTO games (guild_id, channel_id, status, host_id, variant, max_players,"
                " options, seed, revision, created_at, updated_at, channel_private, parent_id)"
                " VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, host_id, variant, max_players,
                 json.dumps(options, sort_keys=True), seed, now, now,
                 None if channel_private is None else int(channel_private), parent_id),
            )
            game_id = int(cursor.fetchone()[0])
            for index, seat in enumerate(new_seats):
                _insert_seat(conn, game_id, index, seat, now)
            if turn_limit_hours is not None:
                conn.execute("INSERT INTO table_options (game_id, turn_limit_hours) VALUES (?, ?)",
                             (game_id, turn_limit_hours))
            return require_game(conn, game_id)

        try:
            return await self.write(work)
        except sqlite3.IntegrityError as error:
            if "games" in str(error) or "channel_id" in str(error):
                raise ChannelBusyError("This channel already has a game.") from error
            raise

    async def get_game(self, game_id: int) -> GameRow:
        game = await self.find_game(game_id)
        if game is None:
            raise GameNotFoundError(f"No game {game_id}.")
        return game

    async def find_game(self, game_id: int) -> GameRow | None:
        if self._direct is not None:
            return await self._read_game_direct(self._direct, "id = ?", (game_id,))
        return await self.job(lambda conn: read_game(conn, "id = ?", (game_id,)))

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The lobby or active game in ``channel_id``, if any."""
        where = "channel_id = ? AND status IN ('lobby', 'active')"
        if self._direct is not None:
            return await self._read_game_direct(self._direct, where, (channel_id,))
        return await self.job(lambda conn: read_game(conn, where, (channel_id,)))

    async def _read_game_direct(
        self, direct: PgConnection, where: str, params: Sequence[Any]
    ) -> GameRow | None:
        """PostgreSQL: :func:`read_game` as one statement on the bot's loop (``fetch_row``)."""
        row = await direct.fetch_row(
            f"SELECT {GAME_COLUMNS}, {PG_SEATS_JSON} FROM games WHERE {where}", params)
        return None if row is None else await self._game_direct(direct, row)

    @staticmethod
    async def _game_direct(direct: PgConnection, row: Sequence[Any]) -> GameRow:
        """A row of :data:`GAME_COLUMNS` and :data:`PG_SEATS_JSON` as a :class:`GameRow`, its
        catalogue read by ``fetch_row`` the first time its key is seen."""
        key = row[GAME_FIELDS.index("catalogue_key")]
        cards = None if key is None else REMEMBERED_CATALOGUES.get(str(key))
        if key is not None and cards is None:
            found = await direct.fetch_row("SELECT cards FROM catalogues WHERE catalogue_key = ?", (key,))
            cards = None if found is None else remember_catalogue(str(key), str(found[0]))
        return game_row_of(row[:-1], seats_of_json(row[-1]), cards)

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)

        def work(conn: sqlite3.Connection) -> list[GameRow]:
            rows = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
            ).fetchall()
            return [game_row_reading_seats(conn, row) for row in rows]

        return await self.job(work)

    async def open_games_under(self, parent_id: int) -> list[GameRow]:
        """The open (lobby or active) games whose channel belongs to ``parent_id``: its own and
        its threads' (migration 0018)."""
        return await self._open_games("parent_id = ?", (parent_id,))

    async def open_games_parent_unknown(self, guild_id: int) -> list[GameRow]:
        """The open games of server ``guild_id`` whose parent channel is not known (opened before
        migration 0018 and not looked up since)."""
        return await self._open_games("guild_id = ? AND parent_id IS NULL", (guild_id,))

    async def _open_games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {where} AND status IN ('lobby', 'active') ORDER BY id"

        def work(conn: sqlite3.Connection) -> list[GameRow]:
            return [game_row_reading_seats(conn, row) for row in conn.execute(sql, params).fetchall()]

        return await self.job(work)

    async def set_parent(self, game_id: int, parent_id: int) -> None:
        """Record the parent channel of a game whose parent was not known. A known one is kept (a
        channel never changes parent); this is no change to the game, whose revision stays."""
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET parent_id = ? WHERE id = ? AND parent_id IS NULL",
                         (parent_id, game_id))

        await self.write(work)

    async def iter_games_with_status(self, *statuses: str, batch: int = 64) -> AsyncIterator[GameRow]:
        """Like :meth:`games_with_status`, but ``batch`` rows at a time (by id): start-up walks
        every active game without holding them all in memory at once."""
        marks = ", ".join("?" for _ in statuses)

        def page(conn: sqlite3.Connection, after: int) -> list[GameRow]:
            return [game_row_reading_seats(conn, row) for row in conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks}) AND id > ? ORDER BY id LIMIT ?",
                (*statuses, after, batch),
            ).fetchall()]

        after = 0
        while True:
            rows = await self.job(functools.partial(page, after=after))
            for row in rows:
                yield row
            if len(rows) < batch:
                return
            after = rows[-1].id

    async def replace_seats(self, game_id: int, expected_revision: int, seats: Sequence[NewSeat]) -> GameRow:
        """Set the lobby's seats (in order), bumping the revision. Lobby only."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> GameRow:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=("lobby",))
            conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            for index, seat in enumerate(seats):
                _insert_seat(conn, game_id, index, seat, now)
            bump_revision(conn, game_id, now)
            return require_game(conn, game_id)

        return await self.write(work)

    async def set_options(self, game_id: int, expected_revision: int, options: dict[str, Any]) -> GameRow:
        """Replace a lobby's table options (e.g. rated or casual), bumping the revision. Lobby only."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> GameRow:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=("lobby",))
            conn.execute("UPDATE games SET options = ? WHERE id = ?",
                         (json.dumps(options, sort_keys=True), game_id))
            bump_revision(conn, game_id, now)
            return require_game(conn, game_id)

        return await self.write(work)

    async def start_game(
        self, game_id: int, expected_revision: int, state: str, state_schema: int,
        catalogue: StoredCatalogue | None = None,
    ) -> GameRow:
        """Lobby -> active with the initial state. ``catalogue``: the cards ``state`` was written
        without, stored (once) in the same transaction and named by the game."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> GameRow:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=("lobby",))
            store_catalogue(conn, game_id, catalogue, now)
            conn.execute(
                "UPDATE games SET status = 'active', state = ?, state_schema = ?,"
                " revision = revision + 1, updated_at = ? WHERE id = ?",
                (state, state_schema, now, game_id),
            )
            return require_game(conn, game_id)

        return await self.write(work)

    async def set_status(self, game_id: int, expected_revision: int, status: str,
                         also: Sequence[InTransaction] = ()) -> GameRow:
        """Move an open game to ``status`` (e.g. 'cancelled'); ``also`` run in the same transaction
        (a cancel that is rated: its rating step)."""
        if status not in GAME_STATUSES:
            raise ValueError(f"unknown status {status!r}")
        now = self.now_iso()
        ended = now if status in ("finished", "cancelled") else None

        def work(conn: sqlite3.Connection) -> GameRow:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=OPEN_STATUSES)
            conn.execute(
                "UPDATE games SET status = ?, revision = revision + 1, updated_at = ?,"
                " ended_at = COALESCE(?, ended_at) WHERE id = ?",
                (status, now, ended, game_id),
            )
            _forget_drafts(conn, game_id)
            for step in also:
                step.run(conn, now)
            return require_game(conn, game_id)

        return await self.write(work)

    async def commit_action(
        self, game_id: int, expected_revision: int, *, seat: int, user_id: int | None,
        action: str, state: str, state_schema: int, finished: bool,
        also: Sequence[Write | InTransaction] = (), catalogue: StoredCatalogue | None = None,
    ) -> GameRow:
        """Append ``action`` to the log and store the state it produced, in ONE transaction (and
        one thread round trip, the row read back included).

        ``also`` are further writes that belong to the same moment (e.g. the acting player's
        reminder being pushed back): they commit with the action, so an action costs one fsync.
        Raises :class:`StaleRevisionError` (and changes nothing) if the game moved on since
        ``expected_revision`` — which also makes a retried commit of the same action harmless.
        ``catalogue``: as in :meth:`start_game`, for a game whose row does not name it yet (one
        stored before migration 0006, on its first action since).
        """
        now = self.now_iso()
        if self.dialect == "postgresql":
            return await self._commit_action_postgres(
                game_id, expected_revision, seat=seat, user_id=user_id, action=action, state=state,
                state_schema=state_schema, finished=finished, also=also, catalogue=catalogue, now=now)

        def work(conn: sqlite3.Connection) -> GameRow:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=("active",))
            store_catalogue(conn, game_id, catalogue, now)
            seq = int(read_scalar(conn, "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?",
                                  (game_id,)))
            conn.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, action, revision, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, user_id, action, expected_revision + 1, now),
            )
            conn.execute(
                "UPDATE games SET state = ?, state_schema = ?, revision = revision + 1, updated_at = ?,"
                " status = CASE WHEN ? = 1 THEN 'finished' ELSE status END,"
                " ended_at = CASE WHEN ? = 1 THEN ? ELSE ended_at END WHERE id = ?",
                (state, state_schema, now, int(finished), int(finished), now, game_id),
            )
            if finished:
                _forget_drafts(conn, game_id)
            else:  # the acting seat's view changed; the other holder's draft may still stand (0009)
                conn.execute(FORGET_SEAT_DRAFTS_SQL, (game_id, seat))
            for write in also:
                if isinstance(write, Write):
                    conn.execute(write.sql, write.params)
                else:  # reads and writes that depend on what this transaction sees (ratings)
                    write.run(conn, now)
            return require_game(conn, game_id)

        return await self.write(work)

    async def _commit_action_postgres(
        self, game_id: int, expected_revision: int, *, seat: int, user_id: int | None, action: str,
        state: str, state_schema: int, finished: bool, also: Sequence[Write | InTransaction],
        catalogue: StoredCatalogue | None, now: str,
    ) -> GameRow:
        """:meth:`commit_action` on PostgreSQL: the game's lock, the revision check, the log row,
        the state, the drafts and the row read back are ONE statement (:data:`_PG_COMMIT_ACTION`),
        one round trip instead of ten. With nothing else to write it is its own transaction (the
        server commits it before answering, as it does ``COMMIT``); with ``also`` writes, the
        same statement and then they run inside one ``BEGIN`` ... ``COMMIT``, on the bot's loop
        (:meth:`PgConnection.fetch_row_then`), or on the connection's thread when a catalogue is
        to be stored or an :class:`InTransaction` reads (a rating step: plain blocking code)."""
        params = (game_id, expected_revision, state, state_schema, now, int(finished), seat, user_id, action)

        def commit(conn: sqlite3.Connection) -> GameRow:
            row = conn.execute(_PG_COMMIT_ACTION, params).fetchone()
            if row is None:  # nothing was written: say why, as check_revision_in_transaction would have
                found = conn.execute(REVISION_SQL, (game_id,)).fetchone()
                refuse_unwritten_action(found, game_id, expected_revision)
            return game_row_with_seats_json(conn, row)

        def work(conn: sqlite3.Connection) -> GameRow:
            if catalogue is not None:  # the game's lock before its row is written (no deadlock)
                lock_game(conn, game_id)
                store_catalogue(conn, game_id, catalogue, now)
            committed = commit(conn)
            for write in also:
                if isinstance(write, Write):
                    conn.execute(write.sql, write.params)
                else:
                    write.run(conn, now)
            return committed

        writes = [(write.sql, write.params) for write in also if isinstance(write, Write)]
        if len(writes) == len(also) and catalogue is None and self._direct is not None:
            # on a connection of its own, so nothing to wait for in _writing: the statement alone
            # (its own transaction), or it and the writes that join it in one transaction
            row = await self._direct.fetch_row_then(_PG_COMMIT_ACTION, params, writes)
            if row is None:
                found = await self._direct.fetch_row(REVISION_SQL, (game_id,))
                refuse_unwritten_action(found, game_id, expected_revision)
            return await self._game_direct(self._direct, row)
        async with self._writing:  # never inside another job's open transaction (see __init__)
            return await self.job(lambda conn: run_in_transaction(conn, work))

    async def set_message_ids(
        self, game_id: int, *, lobby_message_id: int | None = None, table_message_id: int | None = None,
    ) -> None:
        """Remember where the bot posted; does not bump the revision (it is not game state)."""

        def work(conn: sqlite3.Connection) -> None:
            if lobby_message_id is not None:
                conn.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?",
                             (lobby_message_id, game_id))
            if table_message_id is not None:
                conn.execute("UPDATE games SET table_message_id = ? WHERE id = ?",
                             (table_message_id, game_id))

        await self.write(work)

    # -- the action log ------------------------------------------------------------------------

    async def actions(self, game_id: int, *, after_seq: int = 0) -> list[ActionRow]:
        return await self.job(lambda conn: [ActionRow(*row) for row in conn.execute(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )])

    async def last_actions(
        self, game_id: int, limit: int, *, before_revision: int | None = None
    ) -> list[ActionRow]:
        """The last ``limit`` logged actions (before ``before_revision`` when given), oldest first:
        what a turn post shows, read without the rest of a long log."""
        bound = 2**62 if before_revision is None else before_revision
        rows = await self.job(lambda conn: conn.execute(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND revision < ?"
            " ORDER BY seq DESC LIMIT ?", (game_id, bound, limit),
        ).fetchall())
        return [ActionRow(*row) for row in reversed(rows)]

    # -- players -------------------------------------------------------------------------------

    async def upsert_player(self, user_id: int, display_name: str, locale: str | None = None) -> PlayerRow:
        """Create or rename a player; ``locale`` (their Discord language, for later DMs) is kept
        as it was when None."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> PlayerRow:
            conn.execute(
                "INSERT INTO players (user_id, display_name, created_at, updated_at, locale)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,"
                " updated_at = excluded.updated_at, locale = COALESCE(excluded.locale, players.locale)",
                (user_id, display_name, now, now, locale),
            )
            player = _read_player(conn, user_id)
            assert player is not None
            return player

        return await self.write(work)

    async def get_player(self, user_id: int) -> PlayerRow | None:
        return await self.job(lambda conn: _read_player(conn, user_id))

    async def set_preference(self, user_id: int, name: str, value: int | str | None) -> None:
        """Write one preference column (see :data:`PLAYER_PREFERENCES`) for a known player."""
        if name not in PLAYER_PREFERENCES:
            raise ValueError(f"unknown preference {name!r}")
        now = self.now_iso()
        await self.write(lambda conn: conn.execute(
            f"UPDATE players SET {name} = ?, updated_at = ? WHERE user_id = ?", (value, now, user_id)))

    # -- servers (migration 0007) ----------------------------------------------------------------

    async def server_locales(self) -> dict[int, str]:
        """Every server's chosen language for public posts (/projectl-server), by guild id; a
        server that follows its own preferred locale is absent. Read once at startup."""
        rows = await self.job(lambda conn: conn.execute(
            "SELECT guild_id, locale FROM server_settings WHERE locale IS NOT NULL").fetchall())
        return {int(guild_id): str(locale) for guild_id, locale in rows}

    async def set_server_locale(self, guild_id: int, locale: str | None, set_by: int) -> None:
        """Choose the language of a server's public posts; None follows the server's own
        preferred locale again."""
        now = self.now_iso()
        await self.write(lambda conn: conn.execute(
            "INSERT INTO server_settings (guild_id, locale, set_by, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
            " set_by = excluded.set_by, updated_at = excluded.updated_at",
            (guild_id, locale, set_by, now)))

    async def servers_with_plugin_ais(self) -> list[int]:
        """The servers whose lobbies offer plug-in AIs (migration 0014, ``/projectl-server``)."""
        rows = await self.job(lambda conn: conn.execute(
            "SELECT guild_id FROM server_settings WHERE plugin_ais <> 0").fetchall())
        return sorted(int(guild_id) for (guild_id,) in rows)

    async def set_server_plugin_ais(self, guild_id: int, enabled: bool, set_by: int) -> None:
        """Offer plug-in AIs in a server's lobbies, or stop offering them."""
        now = self.now_iso()
        await self.write(lambda conn: conn.execute(
            "INSERT INTO server_settings (guild_id, plugin_ais, set_by, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET plugin_ais = excluded.plugin_ais,"
            " set_by = excluded.set_by, updated_at = excluded.updated_at",
            (guild_id, int(enabled), set_by, now)))

    # -- generated secrets (migration 0016) -------------------------------------------------------

    async def kept_secret(self, name: str, candidate: str) -> str:
        """The secret kept under ``name``: ``candidate`` if none was kept yet (it is kept now), else
        the one kept first. Processes starting together all get the same value."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> str:
            conn.execute("INSERT INTO bot_secrets (name, value, created_at) VALUES (?, ?, ?)"
                         " ON CONFLICT (name) DO NOTHING", (name, candidate, now))
            return str(read_scalar(conn, "SELECT value FROM bot_secrets WHERE name = ?", (name,)))

        return await self.write(work)

    # -- Master drafts (migration 0008) ------------------------------------------------------------

    async def master_draft(self, game_id: int, seat: int, user_id: int, stamp: str | int) -> str | None:
        """The placements of the Master action ``user_id`` is building for ``seat`` (engine
        notation, in the order added: ``L3 on W07 at A1 A2 B2; 1 on B03 at C3``), if they built it
        at ``stamp`` (migration 0009: the seat's stamp, ``bot/core/play/seat_view.py``; a revision on a
        single-turn table): a draft made on another view of the game is never handed out."""
        found = await self.read_scalar(
            "SELECT placements FROM master_drafts WHERE game_id = ? AND seat = ? AND user_id = ?"
            " AND stamp = ?", (game_id, seat, user_id, str(stamp)))
        return None if found is None else str(found)

    async def save_master_draft(
        self, game_id: int, expected_revision: int, *, seat: int, user_id: int, placements: str,
        stamp: str | None = None,
    ) -> None:
        """Keep the seat's draft (replacing the one it had), built on ``expected_revision`` with
        the seat's ``stamp`` (default: the revision, a single-turn table's stamp). Raises
        :class:`StaleRevisionError` (and keeps nothing) if the game moved on since: the check and
        the write are one transaction, so a draft never outlives the seat's own commit after it."""
        now = self.now_iso()

        def work(conn: sqlite3.Connection) -> None:
            check_revision_in_transaction(conn, game_id, expected_revision, statuses=("active",))
            conn.execute(
                "INSERT INTO master_drafts (game_id, seat, user_id, revision, placements, updated_at, stamp)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
                " user_id = excluded.user_id, revision = excluded.revision, placements = excluded.placements,"
                " updated_at = excluded.updated_at, stamp = excluded.stamp",
                (game_id, seat, user_id, expected_revision, placements, now,
                 str(expected_revision) if stamp is None else stamp))

        await self.write(work)

    async def clear_master_draft(self, game_id: int, seat: int) -> None:
        """Forget the seat's draft (``master-clear``); nothing happens if it has none."""
        await self.write(lambda conn: conn.execute(
            "DELETE FROM master_drafts WHERE game_id = ? AND seat = ?", (game_id, seat)))


# -- helpers: plain sqlite3, run inside one Storage.job, on the connection's thread ------------


_ACTION_COLUMNS = "game_id, seq, seat, user_id, action, revision, created_at, planned = 1"


_PG_COMMIT_ACTION = f"""
WITH moved AS (
    UPDATE games SET state = $3, state_schema = $4, revision = revision + 1, updated_at = $5,
        status = CASE WHEN $6 = 1 THEN 'finished' ELSE status END,
        ended_at = CASE WHEN $6 = 1 THEN $5 ELSE ended_at END
    WHERE id = $1 AND (SELECT TRUE FROM pg_advisory_xact_lock($1)) AND revision = $2 AND status = 'active'
    RETURNING {GAME_COLUMNS}
), logged AS (
    INSERT INTO actions (game_id, seq, seat, user_id, action, revision, created_at)
    SELECT id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = $1), $7, $8, $9, revision, $5
    FROM moved
), forgotten AS (
    DELETE FROM master_drafts WHERE game_id = $1 AND ($6 = 1 OR seat = $7) AND EXISTS (SELECT FROM moved)
)
SELECT moved.*, {PG_SEATS_JSON.replace("games.id", "moved.id")} FROM moved
"""
"""PostgreSQL: one action committed in one statement (``Storage._commit_action_postgres``).

Why it is as safe as the transaction of separate statements it replaces: the game's advisory
lock (``lock_game``) is taken before the row is updated (the one-time condition runs first), so
a transaction of another process that checked the revision under that lock finishes before this
one touches the game; the row is updated only if its revision and status are still the expected
ones on its newest version (PostgreSQL re-checks the condition on a row changed meanwhile), so a
change committed by anyone since the action was computed makes the update, and with it the log
row and the draft deletion (which depend on it), not happen: nothing is written and the caller
gets :class:`StaleRevisionError`. Every revision change is made under that lock, so the log's
next ``seq`` and the seats read here are those of the revision the update matched. (A Master draft
another process saved while this statement waited for the lock may outlive it: a draft is never
handed out on a stamp other than its own, see ``master_draft``.)"""


def _read_player(conn: sqlite3.Connection, user_id: int) -> PlayerRow | None:
    row = conn.execute(
        "SELECT user_id, display_name, mention_on_turn, created_at, updated_at FROM players"
        " WHERE user_id = ?", (user_id,),
    ).fetchone()
    if row is None:
        return None
    return PlayerRow(int(row[0]), str(row[1]), bool(row[2]), str(row[3]), str(row[4]))


FORGET_DRAFTS_SQL = "DELETE FROM master_drafts WHERE game_id = ?"
"""Run with every change to a game's position that is not one seat's action (its end, an undo, a
seat handed over): its Master drafts were built on the position before. Reading them checks the
stamp anyway; this keeps the table to the drafts still playable."""
FORGET_SEAT_DRAFTS_SQL = "DELETE FROM master_drafts WHERE game_id = ? AND seat = ?"
"""Run with a seat's committed action (migration 0009): that seat's draft was built on its view
before the action; another seat's draft relies on that seat's own view, checked by its stamp."""


def _forget_drafts(conn: sqlite3.Connection, game_id: int) -> None:
    conn.execute(FORGET_DRAFTS_SQL, (game_id,))


def _insert_seat(conn: sqlite3.Connection, game_id: int, index: int, seat: NewSeat, now: str) -> None:
    conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, display_name, policy, joined_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, index, seat.user_id, seat.display_name, seat.policy, now),
    )
