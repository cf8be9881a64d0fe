"""Storage: migrations from every earlier schema, corrupt rows, integrity.

* A database built at each earlier migration version (with a game in it, written with only the
  0001 columns every later version keeps) opens with the current code, migrates, and the game
  continues: loads, verifies against its log, accepts the next action.
* A corrupt state row stops only its own game — manager and Discord level — and the bot still
  starts (``resume()`` skips it).
* ``PRAGMA integrity_check`` is ``ok`` on every database these tests leave behind.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from harness import DiscordHarness
from test_bot_support import assert_refused, bot_of, open_table, running_bot

import bot.core.games
import engine
from bench.checks import integrity
from bench.players import choose_action
from bench.tables import open_manager, snapshot, start_table, user_id
from bot.core.errors import UnreadableGameError
from bot.core.storage import migrations
from engine.serialisation import cards_from_text, catalogue_key

MIGRATIONS = migrations.available()
NOW = "2024-01-01T00:00:00+00:00"


async def build_at_version(path: Path, version: int) -> None:
    """A database with exactly migrations 1..version applied (version 0: an empty file)."""
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrations.migrate(db, NOW, up_to=version)


OPTIONS_0001 = '{"difficulty": "normal", "reserve": 10, "unfinished_penalty": true}'


def SCHEMA_2(state: engine.GameState) -> str:  # noqa: N802 - names the stored form
    """``state`` as the bot stored it before state schema 3: with every card inside."""
    text = engine.serialisation.dumps(state)
    assert f'"schema":{engine.SCHEMA_VERSION}' in text
    return text.replace(f'"schema":{engine.SCHEMA_VERSION}', '"schema":2')


def old_game(path: Path, channel: int) -> tuple[int, engine.GameState]:
    """Insert a started 2-player game with six logged actions using only 0001's columns."""
    state = engine.new_game(engine.Options(players=2), 99)
    rng = random.Random(5)
    log: list[tuple[int, str]] = []
    for _ in range(6):
        action = choose_action(state, rng)
        log.append((state.current, str(action)))
        state = engine.apply(state, action).state
    with sqlite3.connect(path) as db:
        game_id = int(db.execute(
            "INSERT INTO games (guild_id, channel_id, status, host_id, variant, max_players, options, seed,"
            " state, state_schema, revision, created_at, updated_at)"
            " VALUES (1, ?, 'active', ?, 'base', 2, ?, 99, ?, ?, ?, ?, ?)",
            (channel, user_id(channel, 0), OPTIONS_0001, SCHEMA_2(state), 2, 3 + len(log), NOW, NOW),
        ).lastrowid or 0)
        for seat in range(2):
            user = user_id(channel, seat)
            db.execute("INSERT INTO seats (game_id, seat, user_id, display_name, policy, joined_at)"
                       " VALUES (?, ?, ?, ?, NULL, ?)", (game_id, seat, user, f"p{seat}", NOW))
            db.execute("INSERT INTO players (user_id, display_name, created_at, updated_at)"
                       " VALUES (?, ?, ?, ?)", (user, f"p{seat}", NOW, NOW))
        for seq, (seat, text) in enumerate(log, start=1):
            db.execute("INSERT INTO actions (game_id, seq, seat, user_id, action, revision, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_id, seq, seat, user_id(channel, seat), text, 3 + seq, NOW))
    return game_id, state


@pytest.mark.parametrize("version", range(len(MIGRATIONS)))
async def test_migrates_forward_from_every_version(version: int, tmp_path: Path) -> None:
    path = tmp_path / f"v{version}.sqlite3"
    await build_at_version(path, version)
    game_id = None
    if version >= 1:
        game_id, state = old_game(path, 50)
    manager = await open_manager(path)
    try:
        assert await manager.storage.schema_version() == len(MIGRATIONS)
        if game_id is not None:
            game = await manager.game_in_channel(50)
            assert game is not None and game.id == game_id and game.state == state
            assert await manager.verify(game_id)
            assert game.current is not None and game.current.user_id is not None
            assert game.catalogue_key is None  # its state still lists its cards
            await manager.act(50, game.current.user_id, choose_action(state, random.Random(1)))
            assert await manager.verify(game_id)
            row = await manager.storage.get_game(game_id)  # the next action stored it without them
            assert row.catalogue_key == catalogue_key(state.cards) and '"cards"' not in (row.state or "")
        fresh = await start_table(manager, 51, 2)
        await manager.act(51, user_id(51, 0), "level1")
        assert await manager.verify(fresh.id)
    finally:
        await manager.storage.close()
    assert integrity(path) == "ok"


async def test_states_are_stored_without_their_cards_which_are_kept_once(tmp_path: Path) -> None:
    """Each game's state names its catalogue (state schema 3, migration 0006); games dealt from
    one catalogue share one stored copy, and the stored state is a fraction of its full form."""
    path = tmp_path / "compact.sqlite3"
    manager = await open_manager(path)
    try:
        games = [await start_table(manager, channel, 2) for channel in (1, 2)]
        await manager.act(1, user_id(1, 0), "level1")
        for game in games:
            row = await manager.storage.get_game(game.id)
            assert row.state is not None and '"cards"' not in row.state
            state = engine.serialisation.loads(row.state, cards_from_text(row.catalogue or ""))
            assert row.catalogue_key == catalogue_key(state.cards)
            assert len(row.state) * 4 < len(engine.serialisation.dumps(state))
            assert await manager.verify(game.id)
    finally:
        await manager.storage.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM catalogues").fetchone()[0] == 1
    assert integrity(path) == "ok"


async def test_a_missing_catalogue_stops_only_its_game(tmp_path: Path) -> None:
    path = tmp_path / "lost.sqlite3"
    manager = await open_manager(path)
    broken = await start_table(manager, 1, 3)  # not 2: equal states would share one parsed state
    healthy = await start_table(manager, 2, 2)
    await manager.storage.close()
    with sqlite3.connect(path) as db:  # no foreign keys on this connection: the row can lose it
        db.execute("UPDATE games SET catalogue_key = ? WHERE id = ?", ("0" * 32, broken.id))
    bot.core.games._PARSED.clear()  # a restarted process: nothing parsed yet
    manager = await open_manager(path)
    try:
        assert [g.id for g in await manager.active_games()] == [healthy.id]
        with pytest.raises(UnreadableGameError):
            await manager.act(1, user_id(1, 0), "level1")
        assert (await manager.act(2, user_id(2, 0), "level1")).first is not None
    finally:
        await manager.storage.close()


CORRUPTIONS = {
    "not json": "{garbage",
    "truncated": None,  # filled in from the real state
    "empty object": "{}",
    "json list": "[1, 2, 3]",
    "future schema": None,
    "wrong types": None,
    "nul bytes": "\x00\x00\x00",
}


def corrupt(real: str, kind: str) -> str:
    if kind == "truncated":
        return real[: len(real) // 2]
    if kind == "future schema":
        current = f'"schema":{engine.SCHEMA_VERSION}'
        assert current in real
        return real.replace(current, '"schema":99')
    if kind == "wrong types":
        return real.replace('"players":[', '"players":[7,', 1)
    value = CORRUPTIONS[kind]
    assert value is not None
    return value


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
async def test_corrupt_state_stops_only_its_game(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "corrupt.sqlite3"
    manager = await open_manager(path)
    broken = await start_table(manager, 1, 2)
    healthy = await start_table(manager, 2, 2, ai=1)
    await manager.storage.close()
    with sqlite3.connect(path) as db:
        real = db.execute("SELECT state FROM games WHERE id = ?", (broken.id,)).fetchone()[0]
        db.execute("UPDATE games SET state = ? WHERE id = ?", (corrupt(real, kind), broken.id))
    before = snapshot(path)
    manager = await open_manager(path)
    try:
        assert [g.id for g in await manager.active_games()] == [healthy.id]
        await manager.resume()  # must not raise
        for attempt in (manager.act(1, user_id(1, 0), "level1"), manager.check_turn(1, user_id(1, 0)),
                        manager.cancel(1, user_id(1, 0)), manager.join(1, 999, "x")):
            with pytest.raises(UnreadableGameError) as refused:
                await attempt
            assert "could not be read" in refused.value.message
        assert snapshot(path) == before
        result = await manager.act(2, user_id(2, 0), "level1")
        assert result.first is not None and await manager.verify(healthy.id)
    finally:
        await manager.storage.close()
    assert integrity(path) == "ok"


async def test_corrupt_game_through_discord(tmp_path: Path) -> None:
    """One channel's game is corrupted while the bot runs and across a restart: that channel gets
    a clear ephemeral refusal for every command, the other channel plays on."""
    path = tmp_path / "bot.sqlite3"
    async with running_bot(path) as h:
        alice, bob, carol, dave = (h.add_user(n) for n in ("alice", "bob", "carol", "dave"))
        await open_table(h, alice, [bob], channel="games", players=2)
        await open_table(h, carol, [dave], channel="general", players=2)
        broken = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        healthy = await bot_of(h).manager.game_in_channel(h.channel("general").id)
        assert broken is not None and healthy is not None
        with sqlite3.connect(path) as db:
            db.execute("UPDATE games SET state = '{garbage' WHERE id = ?", (broken.id,))
        await _check_split(h, alice, carol, dave)
        ids = {u.name: u.id for u in (alice, carol, dave)}
    async with running_bot(path) as h:  # restart: resume() skips the broken game, the bot starts
        with sqlite3.connect(path) as db:  # the harness's new world has new channel ids: follow them
            for game, channel in ((broken, "games"), (healthy, "general")):
                db.execute("UPDATE games SET channel_id = ? WHERE id = ?", (h.channel(channel).id, game.id))
        await _check_split(h, *(h.add_user(name, ids[name]) for name in ("alice", "carol", "dave")))
    assert integrity(path) == "ok"


async def _check_split(h: DiscordHarness, alice, carol, dave) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(Path(bot_of(h).settings.db_path))
    for command, options in (("projectl status", {}), ("projectl play level1", {}),
                             ("projectl table cancel", {}),
                             ("projectl play act", {"text": "level1"}), ("projectl mat", {})):
        ix = await h.slash(alice, "games", command, **options)
        assert_refused(ix, "could not be read")
    assert await h.autocomplete(alice, "games", "projectl play take", focused="puzzle") == []
    after = snapshot(Path(bot_of(h).settings.db_path))
    assert after["games"][0] == before["games"][0] and after["actions"] == before["actions"]
    game = await bot_of(h).manager.game_in_channel(h.channel("general").id)
    assert game is not None and game.current is not None
    mover = carol if game.current.user_id == carol.id else dave
    ix = await h.slash(mover, "general", "projectl play level1")
    reply = ix.responses[-1]
    assert reply.ephemeral and "level1" in (reply.content or "")
