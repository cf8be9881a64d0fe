"""SQL for ``/projectl stats``: per-seat results of finished games (table from migration 0003).

Why a table: the statistics used to parse every finished game of the server on each request
(11.5 s for 5,000 games). Now a game's results are written once, in the transaction of the
action that finished it (:func:`result_writes`, passed to ``Storage.commit_action``), and a
request is one aggregate query. Games finished before migration 0003 have no rows yet; the
caller lists them with :meth:`StatsStore.games_without_results` and saves theirs once.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.core.storage.db import Storage
from bot.core.storage.game_rows import GAME_COLUMNS, game_row_reading_seats
from bot.core.storage.rows import GameRow
from bot.core.storage.transactions import Write


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat of a finished game."""

    seat: int
    user_id: int | None
    display_name: str
    score: int | None
    won: bool
    left: bool


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One human player's aggregate over a server's finished games."""

    user_id: int
    display_name: str
    played: int
    wins: int
    left: int
    average: float | None


_INSERT = ("INSERT INTO game_results (game_id, seat, guild_id, user_id, display_name, score, won,"
           " left_game) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
           " guild_id = excluded.guild_id, user_id = excluded.user_id, display_name = excluded.display_name,"
           " score = excluded.score, won = excluded.won, left_game = excluded.left_game")


def result_writes(game_id: int, guild_id: int | None, rows: tuple[ResultRow, ...]) -> list[Write]:
    """The statements that record ``rows``, for ``Storage.commit_action(also=...)``."""
    return [Write(_INSERT, (game_id, r.seat, guild_id, r.user_id, r.display_name, r.score, int(r.won),
                            int(r.left))) for r in rows]


class StatsStore:
    """Reads and writes ``game_results`` on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def games_without_results(self, guild_id: int, *, limit: int = 200) -> list[GameRow]:
        """Up to ``limit`` finished games of the server that have no result rows (finished before
        0003), read in one job. Save theirs with :meth:`save_results`, then ask again."""

        def work(conn: sqlite3.Connection) -> list[GameRow]:
            rows = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games g WHERE guild_id = ? AND status = 'finished'"
                " AND NOT EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id) ORDER BY id LIMIT ?",
                (guild_id, limit),
            ).fetchall()
            return [game_row_reading_seats(conn, row) for row in rows]

        return await self.storage.job(work)

    async def save_results(self, games: dict[int, tuple[int | None, tuple[ResultRow, ...]]]) -> None:
        """Record the results of several games — ``{game id: (guild id, rows)}`` — in one
        transaction. A game with no rows gets none (it is asked for again next time)."""
        writes = [write for game_id, (guild_id, rows) in games.items()
                  for write in result_writes(game_id, guild_id, rows)]
        await self.storage.write(lambda conn: [conn.execute(w.sql, w.params) for w in writes])

    async def server_totals(self, guild_id: int) -> tuple[int, list[PlayerTotals]]:
        """(finished games with results, per human player totals) for one server, in one query
        each; the display name is the one of the player's latest game."""

        def work(conn: sqlite3.Connection) -> tuple[int, list[PlayerTotals]]:
            games = conn.execute(
                "SELECT COUNT(DISTINCT game_id) FROM game_results WHERE guild_id = ?", (guild_id,)
            ).fetchone()[0]
            rows = conn.execute(
                "SELECT user_id, COUNT(*), SUM(won), SUM(left_game),"
                " AVG(CASE WHEN left_game = 0 THEN score END),"
                " (SELECT display_name FROM game_results n WHERE n.guild_id = ?"
                "  AND n.user_id = r.user_id ORDER BY n.game_id DESC LIMIT 1)"
                " FROM game_results r WHERE guild_id = ? AND user_id IS NOT NULL GROUP BY user_id",
                (guild_id, guild_id),
            ).fetchall()
            return int(games), [PlayerTotals(int(u), str(name), int(p), int(w), int(left),
                                             None if avg is None else float(avg))
                                for u, p, w, left, avg, name in rows]

        return await self.storage.job(work)
