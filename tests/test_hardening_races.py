"""Races: duplicate clicks and commands apply once; channels never wait for each other.

Manager level (no Discord): the per-channel lock and the optimistic revision are what make this
hold, so they are tested directly, with a file database like production's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bench.players import choose_action
from bench.tables import open_manager, snapshot, start_table, user_id
from bot.errors import BotError, StaleError
from bot.manager import GameManager, TableSettings

N = 50


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    manager = await open_manager(tmp_path / "races.sqlite3")
    yield manager
    await manager.storage.close()


async def outcomes(calls: list) -> tuple[list, list[BaseException]]:
    """Run the calls at once; split results from exceptions (anything not a BotError re-raised)."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    for error in errors:
        if not isinstance(error, BotError):
            raise error
    return [r for r in results if not isinstance(r, BaseException)], errors


async def test_fifty_clicks_on_one_confirmation_apply_once(manager: GameManager) -> None:
    game = await start_table(manager, 10, 2)
    player = user_id(10, 0)
    done, refused = await outcomes([
        manager.act(10, player, "level1", expected_revision=game.revision) for _ in range(N)
    ])
    assert len(done) == 1 and len(refused) == N - 1
    assert all(isinstance(e, StaleError) and e.message for e in refused)
    assert len(await manager.log(game.id)) == 1
    assert await manager.verify(game.id)


async def test_fifty_identical_commands_apply_once(manager: GameManager) -> None:
    """Commands that name their target (a start, a join, a placement on given cells) are refused
    the second time because the first changed the game: nothing is applied twice."""
    host, guest = user_id(11, 0), user_id(11, 1)
    made, refused = await outcomes([
        manager.create_game(guild_id=1, channel_id=11, host_id=host, host_name="h", settings=TableSettings())
        for _ in range(N)
    ])
    assert len(made) == 1 and len(refused) == N - 1
    joined, refused = await outcomes([manager.join(11, guest, "g") for _ in range(N)])
    assert len(joined) == 1 and len(refused) == N - 1
    started, refused = await outcomes([manager.start(11, host) for _ in range(N)])
    assert len(started) == 1 and len(refused) == N - 1
    game = started[0].game
    assert game.state is not None
    state = game.state
    for _ in range(3):  # get a placement available: take level-1s and a puzzle
        if engine.placements_for(state.cards, state.players[state.current]):
            break
        result = await manager.act(11, user_id(11, state.current), choose_action(state, _rng()))
        state = result.game.state
        assert state is not None
    places = engine.placements_for(state.cards, state.players[state.current])
    if places:
        before = len(await manager.log(game.id))
        placed, refused = await outcomes([
            manager.act(11, user_id(11, state.current), places[0]) for _ in range(N)
        ])
        assert len(placed) == 1 and len(refused) == N - 1
        assert len(await manager.log(game.id)) == before + 1
    cancelled, refused = await outcomes([manager.cancel(11, host) for _ in range(N)])
    assert len(cancelled) == 1 and len(refused) == N - 1
    assert await manager.verify(game.id)


def _rng():  # type: ignore[no-untyped-def]
    import random

    return random.Random(3)


async def test_channels_play_at_the_same_time(manager: GameManager) -> None:
    """Twenty channels opening, starting and playing at once: every commit lands, none interferes."""
    channels = range(100, 120)
    games = await asyncio.gather(*(start_table(manager, c, 2) for c in channels))

    async def play(channel: int, moves: int) -> None:
        rng = _rng()
        for _ in range(moves):
            game = await manager.game_in_channel(channel)
            assert game is not None and game.state is not None and game.current is not None
            await manager.act(channel, user_id(channel, game.current.seat), choose_action(game.state, rng))

    await asyncio.gather(*(play(c, 6) for c in channels))
    for game in games:
        assert len(await manager.log(game.id)) == 6
        assert await manager.verify(game.id)


async def test_a_held_channel_does_not_block_another(manager: GameManager, tmp_path: Path) -> None:
    """Hold channel A's lock (a slow action in progress): B acts at once, A's action waits."""
    held = await start_table(manager, 1, 2)
    free = await start_table(manager, 2, 2)
    async with manager.lock(1):
        waiting = asyncio.create_task(manager.act(1, user_id(1, 0), "level1"))
        result = await asyncio.wait_for(manager.act(2, user_id(2, 0), "level1"), timeout=2)
        assert result.first is not None
        await asyncio.sleep(0.05)
        assert not waiting.done()
        logged = {a["game_id"] for a in snapshot(tmp_path / "races.sqlite3")["actions"]}
        assert logged == {free.id}
    assert (await asyncio.wait_for(waiting, timeout=2)).first is not None
    assert len(await manager.log(held.id)) == 1
