"""A game's row as SQL reads it: its columns, its seats (on PostgreSQL as one JSON column of the
same row, one round trip) and its catalogue's cards, remembered by key, and the writes that keep
a catalogue. Its own module because db.py's reads and commits and the stores beside it (stats,
days) turn rows into :class:`GameRow` the same way."""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from bot.core.storage.errors import GameNotFoundError
from bot.core.storage.rows import GameRow, SeatRow, StoredCatalogue
from bot.core.storage.transactions import Write, read_scalar

GAME_COLUMNS = (
    "id, guild_id, channel_id, status, host_id, variant, max_players, options, seed, state, "
    "state_schema, revision, lobby_message_id, table_message_id, created_at, updated_at, ended_at, "
    "catalogue_key, channel_private, parent_id"
)
"""The columns of ``games`` every read of a game selects, in :class:`GameRow`'s field order."""


GAME_FIELDS = tuple(column.strip() for column in GAME_COLUMNS.split(","))
"""The names of :data:`GAME_COLUMNS`, which are :class:`GameRow`'s fields."""


def read_game(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> GameRow | None:
    """The one game ``where`` (SQL over ``games``, with ``params``) selects, with its seats and
    cards, or None: on the connection's own thread, in one round trip on PostgreSQL."""
    if getattr(conn, "dialect", "sqlite") == "postgresql":  # one round trip, seats included
        row = conn.execute(f"SELECT {GAME_COLUMNS}, {PG_SEATS_JSON} FROM games WHERE {where}",
                           params).fetchone()
        return None if row is None else game_row_with_seats_json(conn, row)
    row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE {where}", params).fetchone()
    return None if row is None else game_row_reading_seats(conn, row)


def require_game(conn: sqlite3.Connection, game_id: int) -> GameRow:
    """Game ``game_id`` as :func:`read_game` reads it; :class:`GameNotFoundError` if it is gone."""
    game = read_game(conn, "id = ?", (game_id,))
    if game is None:
        raise GameNotFoundError(f"No game {game_id}.")
    return game


def game_row_reading_seats(conn: sqlite3.Connection, row: Sequence[Any]) -> GameRow:
    """A row of :data:`GAME_COLUMNS` as a :class:`GameRow`, its seats and catalogue read on
    ``conn`` (SQLite, where a second read is an in-process call)."""
    seats = tuple(SeatRow(*seat) for seat in conn.execute(
        "SELECT seat, user_id, display_name, policy, joined_at FROM seats WHERE game_id = ? ORDER BY seat",
        (row[0],),
    ))
    key = row[GAME_FIELDS.index("catalogue_key")]
    return game_row_of(row, seats, None if key is None else _catalogue_cards(conn, str(key)))


PG_SEATS_JSON = (
    "(SELECT json_agg(json_build_array(seat, user_id, display_name, policy, joined_at) ORDER BY seat)"
    " FROM seats WHERE seats.game_id = games.id)"
)
"""PostgreSQL: a game's seats as one JSON column of its own row, so that reading a game is one
round trip to the server instead of two (a round trip costs the bot a thread hop and the server
a statement; on SQLite the second read is an in-process call and stays as it is)."""


def game_row_with_seats_json(conn: sqlite3.Connection, row: Sequence[Any]) -> GameRow:
    """A row of :data:`GAME_COLUMNS` followed by :data:`PG_SEATS_JSON` (PostgreSQL)."""
    key = row[GAME_FIELDS.index("catalogue_key")]
    cards = None if key is None else _catalogue_cards(conn, str(key))
    return game_row_of(row[:-1], seats_of_json(row[-1]), cards)


def seats_of_json(text: str | None) -> tuple[SeatRow, ...]:
    """The seats of :data:`PG_SEATS_JSON` (None: a game with no seats)."""
    return () if text is None else tuple(SeatRow(*seat) for seat in json.loads(text))


def game_row_of(row: Sequence[Any], seats: tuple[SeatRow, ...], cards: str | None) -> GameRow:
    """A :class:`GameRow` of a row of :data:`GAME_COLUMNS`, its seats, and its catalogue's cards."""
    values = dict(zip(GAME_FIELDS, row, strict=True))
    try:
        values["options"] = json.loads(values["options"])
    except (TypeError, ValueError):
        values["options"] = {}  # unreadable options: the manager refuses this one game, not all
    key = values.pop("catalogue_key")
    private = values.pop("channel_private")
    return GameRow(**values, seats=seats, catalogue_key=key, catalogue=cards,
                   channel_private=None if private is None else bool(private))


REMEMBERED_CATALOGUES: OrderedDict[str, str] = OrderedDict()
"""Catalogue cards by key, oldest first, at most :data:`CATALOGUES_KEPT` (see there)."""


CATALOGUES_KEPT = 8
"""Catalogue texts remembered by key. A key is a hash of its cards, so the text under it never
changes, in any database: every read of a game hands out the same string instead of reading
(and copying) the ~8 KB of cards again. A server normally has one catalogue."""


def _catalogue_cards(conn: sqlite3.Connection, key: str) -> str | None:
    """The cards stored under ``key`` (None if the row is missing: that game is unreadable)."""
    text = REMEMBERED_CATALOGUES.get(key)
    if text is None:
        found = read_scalar(conn, "SELECT cards FROM catalogues WHERE catalogue_key = ?", (key,))
        if found is None:
            return None
        text = remember_catalogue(key, str(found))
    return text


def remember_catalogue(key: str, cards: str) -> str:
    """Keep ``cards`` under ``key`` in :data:`REMEMBERED_CATALOGUES` (forgetting the oldest past
    :data:`CATALOGUES_KEPT`) and hand them back."""
    REMEMBERED_CATALOGUES[key] = cards
    while len(REMEMBERED_CATALOGUES) > CATALOGUES_KEPT:
        REMEMBERED_CATALOGUES.popitem(last=False)
    return cards


def catalogue_writes(game_id: int, catalogue: StoredCatalogue | None, now: str) -> list[Write]:
    """Keep ``catalogue`` (once per key) and name it as the game's; nothing when None."""
    if catalogue is None:
        return []
    return [
        Write("INSERT INTO catalogues (catalogue_key, cards, created_at) VALUES (?, ?, ?)"
              " ON CONFLICT (catalogue_key) DO NOTHING", (catalogue.key, catalogue.cards, now)),
        Write("UPDATE games SET catalogue_key = ? WHERE id = ?", (catalogue.key, game_id)),
    ]


def store_catalogue(
    conn: sqlite3.Connection, game_id: int, catalogue: StoredCatalogue | None, now: str
) -> None:
    """Run :func:`catalogue_writes` on ``conn``, inside the transaction that starts the game (or
    commits its first action, for a game stored before its row named a catalogue)."""
    for write in catalogue_writes(game_id, catalogue, now):
        conn.execute(write.sql, write.params)
