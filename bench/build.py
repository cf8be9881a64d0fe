"""Fill a database with many stored games quickly, for the memory benchmark.

Going through the manager would cost one fsync'd transaction per change (minutes for a thousand
games); the set-up is not what is measured, so rows are written directly — the same rows the
manager writes (0001 schema plus later defaults), in one transaction, after the current code has
created and migrated the file. Every game replays: ``GameManager.verify`` holds for each.
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import engine
from bot.core.storage import Storage
from engine import serialisation

from .players import choose_action
from .tables import user_id

NOW = "2024-01-01T00:00:00+00:00"
OPTIONS = json.dumps({"difficulty": "normal", "reserve": 10, "unfinished_penalty": True}, sort_keys=True)


GAME_SQL = (
    "INSERT INTO games (guild_id, channel_id, status, host_id, variant, max_players, options, seed,"
    " state, state_schema, revision, created_at, updated_at, ended_at)"
    " VALUES (1, ?, ?, ?, 'base', ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
CATALOGUE_SQL = ("INSERT INTO catalogues (catalogue_key, cards, created_at) VALUES (?, ?, ?)"
                 " ON CONFLICT (catalogue_key) DO NOTHING")
NAME_CATALOGUE_SQL = "UPDATE games SET catalogue_key = ? WHERE id = ?"
SEAT_SQL = ("INSERT INTO seats (game_id, seat, user_id, display_name, policy, joined_at)"
            " VALUES (?, ?, ?, ?, NULL, ?)")
PLAYER_SQL = ("INSERT OR IGNORE INTO players (user_id, display_name, created_at, updated_at)"
              " VALUES (?, ?, ?, ?)")
ACTION_SQL = ("INSERT INTO actions (game_id, seq, seat, user_id, action, revision, created_at)"
              " VALUES (?, ?, ?, ?, ?, ?, ?)")


def _game_rows(db: sqlite3.Connection, channel: int, status: str, players: int, moves: int,
               seed: int) -> None:
    """One game played ``moves`` random actions in, written as the manager stores it: the state
    without its cards, which are kept once in ``catalogues`` and named by the game's row (a state
    listing its cards is the legacy form, converted on a game's first action: measuring that
    conversion on every game would measure a migration, not the bot)."""
    rng = random.Random(seed)
    state = engine.new_game(engine.Options(players=players), seed)
    log: list[tuple[int, str]] = []
    for _ in range(moves):
        if state.is_over:
            break
        action = choose_action(state, rng)
        log.append((state.current, str(action)))
        state = engine.apply(state, action).state
    ended = None if status == "active" else NOW
    game_id = int(db.execute(GAME_SQL, (
        channel, status, user_id(channel, 0), players, OPTIONS, seed, serialisation.dumps(state, cards=False),
        state.schema,
        players + len(log), NOW, NOW, ended)).lastrowid or 0)
    key = serialisation.catalogue_key(state.cards)
    db.execute(CATALOGUE_SQL, (key, serialisation.catalogue_text(state.cards), NOW))
    db.execute(NAME_CATALOGUE_SQL, (key, game_id))
    for seat in range(players):
        db.execute(SEAT_SQL, (game_id, seat, user_id(channel, seat), f"player{seat}", NOW))
        db.execute(PLAYER_SQL, (user_id(channel, seat), f"player{seat}", NOW, NOW))
    db.executemany(ACTION_SQL, [(game_id, seq, seat, user_id(channel, seat), text, players + seq, NOW)
                                for seq, (seat, text) in enumerate(log, start=1)])


async def build(path: Path, *, games: int, active: int, moves: int = 40, seed: int = 1) -> list[int]:
    """``games`` stored games (``active`` of them open, the rest finished or cancelled), one per
    channel 10000+i. Returns the channels of the active games."""
    await _create(path)
    rng = random.Random(seed)
    channels = []
    with sqlite3.connect(path) as db:
        for index in range(games):
            channel = 10_000 + index
            status = "active" if index < active else rng.choice(("finished", "cancelled"))
            played = rng.randint(moves // 2, moves)
            _game_rows(db, channel, status, rng.randint(2, 4), played, seed * 100_003 + index)
            if status == "active":
                channels.append(channel)
    return channels


async def _create(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()
