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

_GAME_COLUMNS = (
    "id, guild_id, channel_id, status, host_id, variant, max_players, options, seed, state, "
    "state_schema, revision, lobby_message_id, table_message_id, created_at, updated_at, ended_at, "
    "catalogue_key, channel_private, parent_id"
)


_GAME_FIELDS = tuple(column.strip() for column in _GAME_COLUMNS.split(","))
"""The names of :data:`_GAME_COLUMNS`, which are :class:`GameRow`'s fields."""


def _read_game(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> GameRow | None:
    if getattr(conn, "dialect", "sqlite") == "postgresql":  # one round trip, seats included
        row = conn.execute(f"SELECT {_GAME_COLUMNS}, {_PG_SEATS_JSON} FROM games WHERE {where}",
                           params).fetchone()
        return None if row is None else _game_row_with_seats(conn, row)
    row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where}", params).fetchone()
    return None if row is None else _game_row(conn, row)


def _require_game(conn: sqlite3.Connection, game_id: int) -> GameRow:
    game = _read_game(conn, "id = ?", (game_id,))
    if game is None:
        raise GameNotFoundError(f"No game {game_id}.")
    return game


def _game_row(conn: sqlite3.Connection, row: Sequence[Any]) -> GameRow:
    seats = tuple(SeatRow(*seat) for seat in conn.execute(
        "SELECT seat, user_id, display_name, policy, joined_at FROM seats WHERE game_id = ? ORDER BY seat",
        (row[0],),
    ))
    key = row[_GAME_FIELDS.index("catalogue_key")]
    return _game_row_of(row, seats, None if key is None else _catalogue_cards(conn, str(key)))


_PG_SEATS_JSON = (
    "(SELECT json_agg(json_build_array(seat, user_id, display_name, policy, joined_at) ORDER BY seat)"
    " FROM seats WHERE seats.game_id = games.id)"
)
"""PostgreSQL: a game's seats as one JSON column of its own row, so that reading a game is one
round trip to the server instead of two (a round trip costs the bot a thread hop and the server
a statement; on SQLite the second read is an in-process call and stays as it is)."""


def _game_row_with_seats(conn: sqlite3.Connection, row: Sequence[Any]) -> GameRow:
    """A row of :data:`_GAME_COLUMNS` followed by :data:`_PG_SEATS_JSON` (PostgreSQL)."""
    key = row[_GAME_FIELDS.index("catalogue_key")]
    cards = None if key is None else _catalogue_cards(conn, str(key))
    return _game_row_of(row[:-1], _seats_of_json(row[-1]), cards)


def _seats_of_json(text: str | None) -> tuple[SeatRow, ...]:
    return () if text is None else tuple(SeatRow(*seat) for seat in json.loads(text))


def _game_row_of(row: Sequence[Any], seats: tuple[SeatRow, ...], cards: str | None) -> GameRow:
    """A :class:`GameRow` of a row of :data:`_GAME_COLUMNS`, its seats, and its catalogue's cards."""
    values = dict(zip(_GAME_FIELDS, row, strict=True))
    try:
        values["options"] = json.loads(values["options"])
    except (TypeError, ValueError):
        values["options"] = {}  # unreadable options: the manager refuses this one game, not all
    key = values.pop("catalogue_key")
    private = values.pop("channel_private")
    return GameRow(**values, seats=seats, catalogue_key=key, catalogue=cards,
                   channel_private=None if private is None else bool(private))


_CATALOGUES: OrderedDict[str, str] = OrderedDict()


CATALOGUES_KEPT = 8
"""Catalogue texts remembered by key. A key is a hash of its cards, so the text under it never
changes, in any database: every read of a game hands out the same string instead of reading
(and copying) the ~8 KB of cards again. A server normally has one catalogue."""


def _catalogue_cards(conn: sqlite3.Connection, key: str) -> str | None:
    """The cards stored under ``key`` (None if the row is missing: that game is unreadable)."""
    text = _CATALOGUES.get(key)
    if text is None:
        found = read_scalar(conn, "SELECT cards FROM catalogues WHERE catalogue_key = ?", (key,))
        if found is None:
            return None
        text = _remember_catalogue(key, str(found))
    return text


def _remember_catalogue(key: str, cards: str) -> str:
    _CATALOGUES[key] = cards
    while len(_CATALOGUES) > CATALOGUES_KEPT:
        _CATALOGUES.popitem(last=False)
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


def _store_catalogue(
    conn: sqlite3.Connection, game_id: int, catalogue: StoredCatalogue | None, now: str
) -> None:
    for write in catalogue_writes(game_id, catalogue, now):
        conn.execute(write.sql, write.params)
