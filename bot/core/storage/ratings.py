"""SQL for ratings (migrations 0011 and 0020; the rules are in docs/ratings.md, the maths in
bot/core/records/ratings.py).

Why the update runs inside the game-end transaction and reads there: a player can finish two
games in two channels (or two processes) at the same moment. Reading their rating before the
commit and writing it with the commit would let the second game overwrite the first's change.
:class:`RatingWork` is an :class:`~bot.core.storage.transactions.InTransaction` step of the action that
finishes the game: it reads the entrants' ratings, asks the pure rater for the new ones and writes
them before COMMIT, and ``rated_games`` (one row per game, inserted first with ``ON CONFLICT DO
NOTHING``) makes a second application of the same game a no-op.

Reading inside the transaction is not enough on PostgreSQL: at READ COMMITTED two transactions
(two processes, or shards) ending games of the same player can both read the rating before
either commits, and the later upsert (``mu = excluded.mu``) would erase the earlier change. So a
rated game's step first takes a transaction-scoped advisory lock per human entrant
(:func:`_lock_players`), in ascending key order so two steps never wait on each other in a
circle, and only then reads: the second step waits for the first one's COMMIT and reads its
result. The locks are keyed by player, not by row, because a new player has no row to lock with
``SELECT ... FOR UPDATE``. SQLite needs none: ``BEGIN IMMEDIATE`` already admits one writer.

The order a recompute rates games in is the commit order, ``rating_order.seq`` (migration 0020),
taken in the same transaction after those locks: of two games sharing a player, the second to
commit could only take its number once the first had committed, so it has the larger one;
games sharing no player do not change each other's ratings, so their order does not matter.
``games.ended_at`` is no such order: it is stamped before the commit, by each process's clock.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.core.storage.db import Storage
from bot.core.storage.transactions import InTransaction, read_scalar

Prior = tuple[float, float]
"""(mu, sigma) of one entrant on one ladder."""
CANCELLED_BY = "cancelled-by:"
"""The recorded reason of a game rated because a seated player cancelled it (then the user id)."""
PLAYER_LOCK_SPACE = 0x504C5250  # "PLRP": pg_advisory_xact_lock(PLAYER_LOCK_SPACE, <player key hash>)
RECOMPUTE_LOCK_KEY = 0x504C5241  # "PLRA": (key, 0), shared by every rating step, exclusive by a rebuild
"""Two-key advisory locks (a key space PostgreSQL keeps apart from the one-key game locks, and
first keys other than the migrations' one). A rebuild takes the recompute key exclusively before
any player's: a game ending meanwhile waits for it whole instead of holding a player the rebuild
needs while waiting for one the rebuild holds."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of a rated game: a human (``key`` 'user:<id>') or a fixed anchor (an AI kind, the
    Solo mastermind) whose ``fixed`` rating is used and never changed."""

    key: str
    seat: int
    rank: int
    """1 is first; equal ranks are a tie."""
    name: str = ""
    user_id: int | None = None
    fixed: Prior | None = None
    weight: float = 1.0
    """How much this result moves the entrant (Solo: by the margin against the mastermind; 0: not
    at all, nor is the game counted as theirs — the others at a cancelled game)."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    ladders: tuple[str, ...]
    entrants: tuple[Entrant, ...]
    reason: str | None = None
    """Recorded with a rated game only when it is rated for a reason of its own (a seated player
    cancelled it: ``cancelled-by:<user id>``)."""


@dataclass(frozen=True, slots=True)
class Casual:
    reason: str


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the store knows only inside the transaction: who held a seat later handed to an AI
    (``seats.replaced_user_id``), which of those seats' players were absent (a turn clock of
    theirs ran out in the game, ``turns.timed_out_at``, and they have not acted since), and
    whether anyone asked for a hint."""

    replaced: Mapping[int, int]
    hinted: bool
    absent: frozenset[int] = frozenset()
    """The replaced seats whose player let a turn clock run out while holding the seat and has
    not acted since (one who came back and played on was present)."""
    acted: bool = True
    """Whether the game's log has any action (a game cancelled before its first one is not rated)."""


Builder = Callable[[GameFacts], RatedGame | Casual | None]
"""The judge: None records nothing (a cancel that is not rated)."""
Rater = Callable[[Sequence[Entrant], Mapping[str, Prior]], dict[str, Prior]]
"""(entrants, the current ratings of the non-fixed ones that have one) -> new (mu, sigma) by key."""


@dataclass(frozen=True, slots=True)
class RatingRow:
    ladder: str
    player: str
    user_id: int
    display_name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    game_id: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def rating_work(game_id: int, build: Builder, rate: Rater, initial: Prior) -> InTransaction:
    """The step that rates ``game_id`` in the transaction that finishes it (or in a recompute)."""
    return InTransaction(lambda conn, now: apply_rating(conn, now, game_id, build, rate, initial))


def apply_rating(conn: sqlite3.Connection, now: str, game_id: int, build: Builder, rate: Rater,
                 initial: Prior) -> RatedGame | Casual | None:
    """Rate one game on ``conn`` (inside a transaction). None when it was already judged, or the
    judge recorded nothing."""
    outcome = build(read_facts(conn, game_id))
    if outcome is None:
        return None
    return _record(conn, now, game_id, outcome, rate, initial)


def read_facts(conn: sqlite3.Connection, game_id: int) -> GameFacts:
    """What the judge needs of ``game_id`` beyond its state (:class:`GameFacts`)."""
    replaced: dict[int, int] = {}
    absent: set[int] = set()
    for seat, user, timed_out in conn.execute(
            "SELECT s.seat, s.replaced_user_id, EXISTS (SELECT 1 FROM turns t WHERE t.game_id = s.game_id"
            " AND t.seat = s.seat AND t.user_id = s.replaced_user_id AND t.timed_out_at IS NOT NULL"
            " AND NOT EXISTS (SELECT 1 FROM turns back WHERE back.game_id = t.game_id AND back.seat = t.seat"
            " AND back.user_id = t.user_id AND back.last_acted_at > t.timed_out_at))"
            " FROM seats s WHERE s.game_id = ? AND s.replaced_user_id IS NOT NULL", (game_id,)):
        replaced[int(seat)] = int(user)
        if timed_out:
            absent.add(int(seat))
    hinted = conn.execute("SELECT 1 FROM hints WHERE game_id = ? AND used > 0 LIMIT 1",
                          (game_id,)).fetchone() is not None
    acted = conn.execute("SELECT 1 FROM actions WHERE game_id = ? LIMIT 1", (game_id,)).fetchone() is not None
    return GameFacts(replaced, hinted, frozenset(absent), acted)


def _record(conn: sqlite3.Connection, now: str, game_id: int, outcome: RatedGame | Casual, rate: Rater,
            initial: Prior) -> RatedGame | Casual | None:
    if isinstance(outcome, RatedGame):  # before anything is read (the module doc)
        _lock_players(conn, [e.key for e in outcome.entrants if e.fixed is None])
    claimed = conn.execute(
        "INSERT INTO rated_games (game_id, rated, reason, rated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO NOTHING",
        (game_id, int(isinstance(outcome, RatedGame)), outcome.reason, now))
    if claimed.rowcount == 0:
        return None  # rated before: never twice
    conn.execute("INSERT INTO rating_order (game_id) VALUES (?)", (game_id,))  # the commit order
    if isinstance(outcome, Casual):
        return outcome
    for ladder in outcome.ladders:
        priors: dict[str, Prior] = {}
        for entrant in outcome.entrants:
            if entrant.fixed is None:
                row = conn.execute("SELECT mu, sigma FROM ratings WHERE ladder = ? AND player = ?",
                                   (ladder, entrant.key)).fetchone()
                if row is not None:
                    priors[entrant.key] = (float(row[0]), float(row[1]))
        after = rate(outcome.entrants, priors)
        for entrant in outcome.entrants:
            if entrant.fixed is not None or entrant.user_id is None or entrant.weight == 0:
                continue  # an anchor, an AI, or a seat the result does not move (not one of its games)
            before = priors.get(entrant.key, initial)
            mu, sigma = after[entrant.key]
            name = entrant.name or str(read_scalar(conn, "SELECT display_name FROM players WHERE user_id = ?",
                                                   (entrant.user_id,)) or "")
            conn.execute(
                "INSERT INTO ratings (ladder, player, user_id, display_name, mu, sigma, ordinal, games,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (ladder, player) DO UPDATE SET"
                " display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma,"
                " ordinal = excluded.ordinal, games = ratings.games + 1, updated_at = excluded.updated_at",
                (ladder, entrant.key, entrant.user_id, name, mu, sigma, mu - 3 * sigma, now))
            conn.execute(
                "INSERT INTO rating_changes (game_id, ladder, player, seat, mu_before, sigma_before,"
                " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, ladder, entrant.key, entrant.seat, before[0], before[1], mu, sigma))
    return outcome


def player_lock_key(player: str) -> int:
    """The second key of ``player``'s advisory lock: a stable signed 32-bit hash of its key (two
    players sharing one only wait for each other)."""
    unsigned = zlib.crc32(player.encode("utf-8"))
    return unsigned - 2**32 if unsigned >= 2**31 else unsigned


def _lock_players(conn: sqlite3.Connection, players: Iterable[str]) -> None:
    """On PostgreSQL, hold ``players`` until this transaction ends: the recompute key shared, then
    each player's key, in ascending order (no two steps wait on each other in a circle)."""
    if getattr(conn, "dialect", "sqlite") != "postgresql":
        return
    conn.execute("SELECT pg_advisory_xact_lock_shared(?, 0)", (RECOMPUTE_LOCK_KEY,))
    for key in sorted({player_lock_key(player) for player in players}):
        conn.execute("SELECT pg_advisory_xact_lock(?, ?)", (PLAYER_LOCK_SPACE, key))


_RATING_COLUMNS = "ladder, player, user_id, display_name, mu, sigma, games"


class RatingStore:
    """Reads ratings, and rebuilds them, on the bot's :class:`Storage` connection."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def ladder(self, ladder: str, *, offset: int = 0, limit: int = 10) -> tuple[int, list[RatingRow]]:
        """(players on the ladder, one page of them best first: by mu - 3 sigma, then mu)."""

        def work(conn: sqlite3.Connection) -> tuple[int, list[RatingRow]]:
            total = conn.execute("SELECT COUNT(*) FROM ratings WHERE ladder = ?", (ladder,)).fetchone()[0]
            rows = conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE ladder = ?"
                " ORDER BY ordinal DESC, mu DESC, player LIMIT ? OFFSET ?",
                (ladder, limit, offset)).fetchall()
            return int(total), [_rating(row) for row in rows]

        return await self.storage.job(work)

    async def player(self, ladder: str, user_id: int, *, trend: int = 5) -> tuple[RatingRow | None,
                                                                                 list[RatingChange]]:
        """A player's rating on ``ladder`` and their last ``trend`` changes there, oldest first."""
        key = f"user:{user_id}"

        def work(conn: sqlite3.Connection) -> tuple[RatingRow | None, list[RatingChange]]:
            row = conn.execute(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE ladder = ? AND player = ?",
                               (ladder, key)).fetchone()
            changes = conn.execute(
                "SELECT c.game_id, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after"
                " FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE c.ladder = ? AND c.player = ?"
                " ORDER BY g.ended_at DESC, c.game_id DESC LIMIT ?", (ladder, key, trend)).fetchall()
            return (None if row is None else _rating(row),
                    [RatingChange(int(c[0]), *(float(v) for v in c[1:])) for c in reversed(changes)])

        return await self.storage.job(work)

    async def players(self, ladder: str, user_ids: Iterable[int]) -> dict[int, RatingRow]:
        """The ratings of ``user_ids`` on ``ladder`` (those that have one), in one query."""
        keys = [f"user:{u}" for u in user_ids]
        if not keys:
            return {}
        marks = ", ".join("?" for _ in keys)
        rows = await self.storage.job(lambda conn: conn.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE ladder = ? AND player IN ({marks})",
            (ladder, *keys)).fetchall())
        return {found.user_id: found for found in map(_rating, rows)}

    async def finished_game_ids(self) -> list[tuple[int, int | None]]:
        """Every game a recompute rates, in the order they were judged and committed
        (``rating_order.seq``, the module doc says why not ``ended_at``); a finished game never
        judged (one that ended before ratings existed) comes first, in the order it ended: (id,
        None) for each finished game, (id, canceller) for each game rated because a seated player
        cancelled it (its recorded reason names them)."""
        rows = await self.storage.job(lambda conn: conn.execute(
            "SELECT g.id, r.reason FROM games g LEFT JOIN rated_games r ON r.game_id = g.id"
            " LEFT JOIN rating_order o ON o.game_id = g.id"
            " WHERE g.status = 'finished' OR (g.status = 'cancelled' AND r.rated = 1 AND r.reason LIKE ?)"
            " ORDER BY COALESCE(o.seq, 0), g.ended_at, g.id", (f"{CANCELLED_BY}%",)).fetchall())
        return [(int(game_id), None) if reason is None or not str(reason).startswith(CANCELLED_BY)
                else (int(game_id), int(str(reason)[len(CANCELLED_BY):])) for game_id, reason in rows]

    async def facts(self, game_id: int) -> GameFacts:
        """:class:`GameFacts` of ``game_id`` as they stand (what a cancel's question is asked on)."""
        return await self.storage.job(lambda conn: read_facts(conn, game_id))

    async def judged(self, game_id: int) -> tuple[bool, str | None] | None:
        """(rated, why casual) for a game judged at its end; None if it never was."""
        row = await self.storage.job(lambda conn: conn.execute(
            "SELECT rated, reason FROM rated_games WHERE game_id = ?", (game_id,)).fetchone())
        return None if row is None else (bool(row[0]), None if row[1] is None else str(row[1]))

    async def rebuild(self, works: Sequence[InTransaction]) -> None:
        """Forget every rating and rate the games again with ``works``, in ONE transaction: a
        recompute that fails half-way leaves the ratings as they were."""

        def work(conn: sqlite3.Connection) -> None:
            if getattr(conn, "dialect", "sqlite") == "postgresql":  # games ending now wait (see the key)
                conn.execute("SELECT pg_advisory_xact_lock(?, 0)", (RECOMPUTE_LOCK_KEY,))
            for table in ("rating_changes", "ratings", "rated_games", "rating_order"):
                conn.execute(f"DELETE FROM {table}")
            now = self.storage.now_iso()
            for step in works:
                step.run(conn, now)

        await self.storage.write(work)

    async def snapshot(self) -> list[tuple[object, ...]]:
        """Every rating and change, sorted (what the recompute test compares)."""

        def work(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
            ratings = conn.execute("SELECT ladder, player, games, mu, sigma FROM ratings").fetchall()
            changes = conn.execute("SELECT game_id, ladder, player, seat, mu_before, sigma_before, mu_after,"
                                   " sigma_after FROM rating_changes").fetchall()
            judged = conn.execute("SELECT game_id, rated, reason FROM rated_games").fetchall()
            return sorted((("rating", *(_rounded(v) for v in r)) for r in ratings), key=repr) + \
                sorted((("change", *(_rounded(v) for v in c)) for c in changes), key=repr) + \
                sorted((("judged", *j) for j in judged), key=repr)

        return await self.storage.job(work)


def _rounded(value: object) -> object:
    return round(value, 9) if isinstance(value, float) else value


def _rating(row: Sequence[object]) -> RatingRow:
    return RatingRow(str(row[0]), str(row[1]), int(row[2]), str(row[3]),  # type: ignore[call-overload]
                     float(row[4]), float(row[5]), int(row[6]))  # type: ignore[arg-type, call-overload]
