"""Requests that must not grow with history: a server with 5,000 finished games, a game with a
3,000-row log, start-up with many active games. Each figure is measured beside the way the bot
used to do the same request (``*_before_*`` keys), in the same run on the same database.

* ``/projectl stats`` at 5,000 finished games: the aggregate over ``game_results`` (what the bot
  does now), the one-off first call on a database upgraded from before that table (every game's
  results computed once), and parsing every finished game (what every request used to do).
* A turn post at a 3,000-row log: reading the lines it shows (the log tail) against reading the
  whole log, and one whole turn-ending action through the manager at 3,000 rows against 30.
* ``resume()`` over 5,000 finished and 300 active games: peak Python memory while it walks the
  active games in batches, against building the list of every active game first.

Databases are written directly (as :mod:`bench.build` does): finished games are copies of a few
dozen greedy games played to the end, each copy's state made unique (its ``rng_state``) so no
cache can serve one game for another; the long log is a real game whose players exchange pieces
turn after turn, so it replays.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import engine
from bot.core.play.manager import Game, GameManager, Seat
from bot.core.records import history
from bot.core.records.results import seat_results
from bot.core.storage import Storage
from bot.core.storage.stats import result_writes
from bot.discord.cogs.records import server_stats
from engine import GameState, TakeLevelOne, Upgrade, serialisation
from engine.policies import policy_by_name

from .build import ACTION_SQL, GAME_SQL, NOW, OPTIONS, PLAYER_SQL, SEAT_SQL, build
from .players import policy_factory
from .tables import open_manager, user_id

FINISHED = 5000
LONG_LOG = 3000
TEMPLATES = 24
PLAYERS_IN_SERVER = 60


def _played_to_the_end(seed: int) -> tuple[int, GameState]:
    players = 2 + seed % 3
    state = engine.new_game(engine.Options(players=players), seed)
    policies = [policy_by_name("greedy", seed * 8 + s) for s in range(players)]
    while not state.is_over:
        state = engine.apply(state, policies[state.current].choose(state)).state
    return players, state


def build_finished(path: Path, games: int = FINISHED, seed: int = 5, *, results: bool = False) -> None:
    """``games`` finished games in guild 1, seated from a pool of players. Without ``results``
    they have no result rows (as a database upgraded from before migration 0003 has them); with
    it each game has the rows the bot writes in the commit that finishes a game."""
    rng = random.Random(seed)
    templates = [_played_to_the_end(seed * 1000 + i) for i in range(TEMPLATES)]
    serialised = [serialisation.state_to_json(state) for _, state in templates]  # once per template
    with sqlite3.connect(path) as db:
        for index in range(games):
            players, state = templates[index % TEMPLATES]
            data = serialised[index % TEMPLATES]
            data["rng_state"] = (state.rng_state + index) % 2**62  # unique text: no cache hits
            text = json.dumps(data, sort_keys=True, separators=(",", ":"))
            channel = 50_000 + index
            values = (channel, "finished", user_id(channel, 0), players, OPTIONS, state.seed, text,
                      state.schema, 10, NOW, NOW, NOW)
            game_id = int(db.execute(GAME_SQL, values).lastrowid or 0)
            seats = [Seat(seat, 900_000 + member, f"member{member}")
                     for seat, member in enumerate(rng.sample(range(PLAYERS_IN_SERVER), players))]
            db.executemany(SEAT_SQL, [(game_id, s.seat, s.user_id, s.name, NOW) for s in seats])
            db.executemany(PLAYER_SQL, [(s.user_id, s.name, NOW, NOW) for s in seats])
            if results:
                for write in result_writes(game_id, 1, seat_results(seats, state)):
                    db.execute(write.sql, write.params)
        if not results:
            db.execute("DELETE FROM game_results")


def _exchanging(state: GameState) -> engine.Action:
    """Climb to a level-3 piece, then swap it for the other level-3 shape turn after turn: the
    game never ends and every action is legal, so the log grows as long as wanted."""
    legal = engine.legal_actions(state)
    for wanted in (
        lambda a: isinstance(a, Upgrade) and a.give.level == a.take.level == 3,
        lambda a: isinstance(a, Upgrade) and a.take.level == a.give.level + 1 and a.take.level <= 3,
        lambda a: isinstance(a, TakeLevelOne),
    ):
        found = [a for a in legal if wanted(a)]
        if found:
            return found[0]
    return legal[0]


def build_long_log(path: Path, channel: int, rows: int) -> None:
    """An active 2-player game in ``channel`` with ``rows`` logged actions, at the start of a turn."""
    state = engine.new_game(engine.Options(players=2), 17)
    log: list[tuple[int, str]] = []
    while len(log) < rows or state.actions_left != engine.state.ACTIONS_PER_TURN:
        action = _exchanging(state)
        log.append((state.current, str(action)))
        state = engine.apply(state, action).state
    with sqlite3.connect(path) as db:
        values = (channel, "active", user_id(channel, 0), 2, OPTIONS, 17, serialisation.dumps(state),
                  state.schema,
                  2 + len(log), NOW, NOW, None)
        game_id = int(db.execute(GAME_SQL, values).lastrowid or 0)
        for seat in range(2):
            db.execute(SEAT_SQL, (game_id, seat, user_id(channel, seat), f"player{seat}", NOW))
            db.execute(PLAYER_SQL, (user_id(channel, seat), f"player{seat}", NOW, NOW))
        db.executemany(ACTION_SQL, [(game_id, seq, seat, user_id(channel, seat), text, 2 + seq, NOW)
                                    for seq, (seat, text) in enumerate(log, start=1)])


async def _ms(work: Callable[[], Awaitable[Any]], repeats: int = 1) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        await work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def stats_figures(workdir: Path, finished: int = FINISHED, compare: bool = True) -> dict[str, float]:
    """``/projectl stats`` over ``finished`` games. With ``compare``, on a database upgraded from
    before ``game_results`` (so the first call records every game's results, and the old way,
    parsing every game, is timed too); without it, on one whose rows the bot wrote as it went
    (about 15 s less: the first call is most of it)."""
    path = workdir / "stats5000.sqlite3"
    storage = await Storage.open(path)
    await storage.close()
    build_finished(path, finished, results=not compare)
    storage = await Storage.open(path)
    figures: dict[str, float] = {}
    try:
        async def parse_every_game() -> None:
            rows = await storage.games_with_status("finished")
            history.server_stats([Game.from_row(r) for r in rows])

        if compare:
            figures["stats_5000_before_ms"] = round(await _ms(parse_every_game), 1)
            figures["stats_5000_first_call_ms"] = round(await _ms(lambda: server_stats(storage, 1)), 1)
        figures["stats_5000_games_ms"] = round(await _ms(lambda: server_stats(storage, 1), repeats=5), 2)
    finally:
        await storage.close()
    return figures


async def log_figures(workdir: Path, long_log: int = LONG_LOG) -> dict[str, float]:
    path = workdir / "log3000.sqlite3"
    storage = await Storage.open(path)
    await storage.close()
    build_long_log(path, 70, long_log)
    build_long_log(path, 71, 30)
    manager = await open_manager(path)
    try:
        long_game = await manager.game_in_channel(70)
        assert long_game is not None
        tail = await _ms(lambda: manager.log_tail(long_game.id, 3), repeats=20)
        whole = await _ms(lambda: manager.log(long_game.id), repeats=5)
        turns = {}
        for channel, rows in ((70, long_log), (71, 30)):
            turns[rows] = await _ms(lambda channel=channel: _one_turn(manager, channel), repeats=5)
    finally:
        await manager.storage.close()
    return {"log_tail_3000_rows_ms": round(tail, 2), "log_tail_before_3000_rows_ms": round(whole, 2),
            "turn_3000_rows_ms": round(turns[long_log] / 3, 2), "turn_30_rows_ms": round(turns[30] / 3, 2)}


async def _one_turn(manager: GameManager, channel: int) -> None:
    """Three actions (a whole turn) of the current player, then the turn post's log tail."""
    for _ in range(3):
        game = await manager.game_in_channel(channel)
        assert game is not None and game.state is not None and game.current is not None
        result = await manager.act(channel, game.current.user_id or 0, _exchanging(game.state))
    first = result.first
    assert first is not None and result.turn_changed
    await manager.log_tail(game.id, 2, before_revision=first.revision)


async def resume_figures(
    workdir: Path, active: int = 300, finished: int = FINISHED, compare: bool = True,
) -> dict[str, float]:
    path = workdir / "resume.sqlite3"
    await build(path, games=active, active=active, moves=30, seed=9)
    build_finished(path, games=finished, seed=6)
    storage = await Storage.open(path)
    try:
        manager = GameManager(storage, policies=policy_factory)

        async def peak_mb(work: Callable[[], Awaitable[Any]]) -> float:
            tracemalloc.start()
            await work()
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            return peak / 1e6

        async def list_first() -> None:
            for game in await manager.active_games():
                assert game.state is not None

        before = await peak_mb(list_first) if compare else None
        streamed = await peak_mb(manager.resume)
        started = time.perf_counter()
        await manager.resume()
        seconds = time.perf_counter() - started
    finally:
        await storage.close()
    figures = {"resume_peak_mb": round(streamed, 3),
               "resume_ms_per_active_game": round(seconds * 1000 / active, 2)}
    if before is not None:
        figures["resume_before_peak_mb"] = round(before, 3)
    return figures


def run(
    workdir: Path, *, finished: int = FINISHED, long_log: int = LONG_LOG, active: int = 300,
    compare: bool = True,
) -> dict[str, float]:
    """Every figure (keys name the full sizes; tests run it smaller). Without ``compare`` the two
    slow old ways (parsing every finished game for the stats, listing every active game before
    ``resume()``) are not measured: their ``*_before_*`` keys are left out."""
    figures: dict[str, float] = {}
    figures.update(asyncio.run(stats_figures(workdir, finished, compare)))
    figures.update(asyncio.run(log_figures(workdir, long_log)))
    figures.update(asyncio.run(resume_figures(workdir, active, finished, compare)))
    return figures
