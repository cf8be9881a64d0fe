"""The web board with two shard processes over one PostgreSQL database: a page may reach either
process (behind one proxy), so the process that does NOT run the game's server shard must serve
the game, apply its actions, and post the turn in the channel itself — exactly once; both
processes sign links with the one key kept in the database; and a page open on one process sees
a move made through the other (its revision poll)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import aiohttp
from days_support import START, FirstLegal
from harness import DiscordHarness
from harness.world import World
from test_bot_support import TOKEN, FakeRenderer
from test_shards import CHANNEL, GUILD, SHARDS, game_in, open_lobby, shared_world

from bot.core.clock import ManualClock
from bot.core.config import Settings
from bot.core.shards import shard_of
from bot.discord.app import ProjectLBot, create_bot


def process(database: str, world: World, clock: ManualClock, shard: int) -> DiscordHarness:
    settings = dataclasses.replace(
        Settings(token=TOKEN, db_path=database, log_level="DEBUG", shard_count=SHARDS, shard_ids=(shard,)),
        web_bind=("127.0.0.1", 0), web_url="https://board.example")

    def make() -> ProjectLBot:
        return create_bot(settings, clock=clock, renderer=FakeRenderer(), seed_source=lambda: 1234,
                          policies=lambda name, seed: FirstLegal())

    return DiscordHarness(bot_factory=make, token=TOKEN, world=world, trap_loggers=("discord", "bot"))


@asynccontextmanager
async def two_processes(database: str) -> AsyncIterator[tuple[DiscordHarness, DiscordHarness]]:
    """(the process running the server's shard, the other one)."""
    world, clock = shared_world(), ManualClock(START)
    guild = shard_of(GUILD, SHARDS)
    async with AsyncExitStack() as stack:
        owner = await stack.enter_async_context(process(database, world, clock, guild))
        other = await stack.enter_async_context(process(database, world, clock, 1 - guild))
        yield owner, other


def base(h: DiscordHarness) -> str:
    bot: Any = h.bot
    return f"http://127.0.0.1:{bot._board.port}"


async def test_the_other_shards_process_plays_a_web_turn_and_posts_it_once(postgres_url: str) -> None:
    async with two_processes(postgres_url) as (owner, other):
        alice, bob = owner.user("alice"), owner.user("bob")
        lobby, game_id = await open_lobby(owner, alice)
        await owner.click(bob, lobby, f"pl:lobby:join:{game_id}")
        await owner.click(alice, lobby, f"pl:lobby:start:{game_id}")
        game = await game_in(owner)
        assert game.current is not None and game.current.user_id is not None and game.state is not None
        owner_bot: Any = owner.bot
        other_bot: Any = other.bot
        # one key for the deployment: a link the owner signs opens on the other process
        token = owner_bot.board_front.signer.sign(game.id, game.state.current, game.current.user_id,
                                                  now=owner_bot.board_front.now())
        headers = {"Authorization": f"Bearer {token}"}
        posts_before = len(owner.channel_messages(CHANNEL))
        async with aiohttp.ClientSession(headers=headers) as http, \
                http.get(base(owner) + "/api/events") as stream:
            first = await asyncio.wait_for(_next_view(stream), 30)
            for _ in range(3):  # a whole turn, on the process without the server's shard
                async with http.get(base(other) + "/api/view") as answer:
                    view = await answer.json()
                async with http.post(base(other) + "/api/act",
                                     json={"action": "level1", "stamp": view["game"]["stamp"]}) as answer:
                    assert answer.status == 200, await answer.text()
            # the page open on the owner sees the other process's commits (revision poll)
            seen = first
            while seen["game"]["revision"] < first["game"]["revision"] + 3:
                seen = await asyncio.wait_for(_next_view(stream), 30)
        await other_bot.board_front.settle()
        await other.settle()
        await owner.settle()
        posts = [m for m in owner.channel_messages(CHANNEL)[posts_before:] if m.filenames == ["table.png"]]
        assert len(posts) == 1  # posted by the process that committed, through the REST API


async def _next_view(stream: aiohttp.ClientResponse) -> Any:
    event = None
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "view":
            return json.loads(line[6:])
