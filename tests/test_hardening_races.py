"""Races: duplicate clicks and commands apply once; channels never wait for each other.

Manager level first (the per-channel lock and the optimistic revision are what make this hold,
tested directly on a file database like production's), then the same through Discord: 50 clicks
or commands all delivered while the channel's lock is held (so none is handled before the last
arrives), each answered — one applied, the rest refused ephemerally — and one channel's held lock
not delaying another channel's command.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from harness import SETTLE_CEILING, eventually

import engine
from bench.checks import integrity
from bench.harnessed import open_table, placement_preview, running
from bench.limits import check_call
from bench.players import choose_action
from bench.tables import open_manager, snapshot, start_table, user_id
from bot.core.errors import BotError, StaleError
from bot.core.play.manager import GameManager, TableSettings

N = 50


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    manager = await open_manager(tmp_path / "races.sqlite3")
    yield manager
    await manager.storage.close()
    assert integrity(tmp_path / "races.sqlite3") == "ok"


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
        # blocked by A's lock, B would wait forever: the ceiling only says when to stop waiting
        result = await asyncio.wait_for(manager.act(2, user_id(2, 0), "level1"), timeout=SETTLE_CEILING)
        assert result.first is not None
        await asyncio.sleep(0.05)
        assert not waiting.done()
        logged = {a["game_id"] for a in snapshot(tmp_path / "races.sqlite3")["actions"]}
        assert logged == {free.id}
    assert (await asyncio.wait_for(waiting, timeout=SETTLE_CEILING)).first is not None
    assert len(await manager.log(held.id)) == 1


# -- through Discord ---------------------------------------------------------------------------


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Any]:
    async with running(tmp_path / "discord-races.sqlite3") as harness:
        yield harness
        problems = [p for c in harness.calls for p in check_call(c.method, c.path, c.json, c.files)]
        assert problems == []
    assert integrity(tmp_path / "discord-races.sqlite3") == "ok"


def answered(ix: Any) -> Any:
    """The interaction's final answer (not the "thinking..." deferral), or None yet."""
    replies = [r for r in ix.responses if not r.deferred]
    return replies[-1] if replies else None


def split(ixs: list[Any], refusal: str) -> tuple[list[Any], list[Any]]:
    """(applied, refused): every interaction answered; refusals ephemeral and saying ``refusal``."""
    applied, refused = [], []
    for ix in ixs:
        reply = answered(ix)
        assert reply is not None, f"{ix} was not answered"
        text = (reply.content or "").lower()
        (refused if refusal in text else applied).append(ix)
        if refusal in text:
            assert reply.ephemeral, reply
    return applied, refused


def logged(h: Any) -> int:
    return len(snapshot(Path(h.bot.settings.db_path))["actions"])


async def test_fifty_clicks_on_one_confirm_button(h: Any) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    game = await open_table(h, alice, [bob])
    mover = h.user(game.current.user_id)
    preview, confirm = await placement_preview(h, mover)
    before = logged(h)
    async with h.bot.manager.lock(game.channel_id):  # all 50 delivered before any is handled
        clicks = [await h.click(mover, preview, confirm, settle=False) for _ in range(N)]
    await h.settle()
    applied, refused = split(clicks, "out of date")
    assert len(applied) == 1 and len(refused) == N - 1
    assert logged(h) == before + 1


async def test_fifty_identical_commands(h: Any) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    game = await open_table(h, alice, [bob])
    mover = h.user(game.current.user_id)
    card = game.state.table.white_row[0]
    await h.slash(mover, "games", "projectl play take", puzzle="white 1")
    await h.slash(mover, "games", "projectl play level1")
    before = logged(h)
    spots = await h.autocomplete(mover, "games", "projectl play place", focused="cells", piece="1",
                                 puzzle=card)
    spot = spots[0]
    async with h.bot.manager.lock(game.channel_id):
        sent = [await h.slash(mover, "games", "projectl play place", piece="1", puzzle=card, cells=spot.value,
                              settle=False) for _ in range(N)]
    await h.settle()
    applied = [ix for ix in sent if answered(ix).files]  # the confirmation carries the mat
    assert len(applied) == 1 and logged(h) == before + 1
    for ix in sent:
        if ix not in applied:
            assert answered(ix).ephemeral and answered(ix).content


async def test_fifty_players_race_for_three_seats(h: Any) -> None:
    host = h.add_user("host")
    crowd = [h.add_user(f"p{i}") for i in range(N)]
    lobby = (await h.slash(host, "games", "projectl table new", players=4)).original
    join = lobby.buttons[0].custom_id
    channel = h.channel("games").id
    async with h.bot.manager.lock(channel):
        clicks = [await h.click(user, lobby, join, settle=False) for user in crowd]
    await h.settle()
    _, refused = split(clicks, "full")
    game = await h.bot.manager.game_in_channel(h.channel("games").id)
    assert len(game.seats) == 4 and len(refused) == N - 3
    start = join.replace(":join:", ":start:")
    async with h.bot.manager.lock(channel):  # else the first start removes the buttons mid-way
        starts = [await h.click(host, lobby, start, settle=False) for _ in range(N)]
    await h.settle()
    _, refused = split(starts, "already started")
    assert len(refused) == N - 1
    assert (await h.bot.manager.game(game.id)).status == "active"


async def test_a_held_channel_does_not_delay_another_through_discord(h: Any) -> None:
    alice, bob, carol, dave = (h.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    first = await open_table(h, alice, [bob], channel="games")
    second = await open_table(h, carol, [dave], channel="general")
    async with h.bot.manager.lock(first.channel_id):
        held = await h.slash(h.user(first.current.user_id), "games", "projectl play level1", settle=False)
        free = await h.slash(h.user(second.current.user_id), "general", "projectl play level1", settle=False)
        await eventually(lambda: answered(free) is not None)
        assert answered(free) is not None and answered(free).content.startswith("Done: `level1`")
        assert answered(held) is None
    await h.settle()
    assert answered(held) is not None and answered(held).content.startswith("Done: `level1`")
