"""Two bot processes of one deployment, end to end: each an ``AutoShardedBot`` running one of two
Discord shards, over one PostgreSQL database (the test run's own server), in one offline Discord.

Discord delivers a server's interactions to the process running its shard; when the processes
restart with their shard ids swapped, the channel's next interactions reach the other process,
which must carry on with buttons the first one posted. Per-game serialisation must hold across
the processes (both may still get a click for the same game during a hand-over), and reminders
and turn clocks must fire exactly once, from the process that has the channel.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager

from days_support import START, FirstLegal
from harness import DiscordHarness, FakeMember, MessageRecord
from harness.world import World
from test_bot_support import TOKEN, FakeRenderer, final_reply, open_table

from bot.core.clock import ManualClock
from bot.core.config import Settings
from bot.core.play.manager import Game
from bot.core.shards import runs_guild, shard_of
from bot.discord.app import ProjectLBot, ShardedProjectLBot, create_bot
from bot.discord.cogs.days import days_of

SHARDS = 2
GUILD = (12345 << 22) + 42
"""A server whose events Discord sends to shard 1 of 2."""
CHANNEL = "games"


def process(database: str, world: World, clock: ManualClock, shard: int) -> DiscordHarness:
    """One bot process running ``shard`` of :data:`SHARDS`, as ``python -m bot`` with
    PROJECTL_DATABASE_URL, PROJECTL_SHARD_COUNT=2 and PROJECTL_SHARD_IDS=<shard> builds it."""
    settings = Settings(token=TOKEN, db_path=database, log_level="DEBUG", shard_count=SHARDS,
                        shard_ids=(shard,))

    def make() -> ProjectLBot:
        return create_bot(settings, clock=clock, renderer=FakeRenderer(), seed_source=lambda: 1234,
                          policies=lambda name, seed: FirstLegal())

    return DiscordHarness(bot_factory=make, token=TOKEN, world=world, trap_loggers=("discord", "bot"))


@asynccontextmanager
async def deployment(database: str, world: World, clock: ManualClock,
                     guild_shard_on: str) -> AsyncIterator[tuple[DiscordHarness, DiscordHarness]]:
    """Processes "a" and "b" started together; ``guild_shard_on`` names the one that runs the
    server's shard (Discord sends it the server's interactions). Yields (that one, the other)."""
    guild = shard_of(GUILD, SHARDS)
    shards = {"a": guild, "b": 1 - guild} if guild_shard_on == "a" else {"a": 1 - guild, "b": guild}
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(process(database, world, clock, shards["a"]))
        b = await stack.enter_async_context(process(database, world, clock, shards["b"]))
        owner, other = (a, b) if guild_shard_on == "a" else (b, a)
        assert owner.runs_guild and not other.runs_guild
        yield owner, other


def shared_world() -> World:
    world = World(guild_id=GUILD)
    for index, name in enumerate(("alice", "bob")):
        world.add_user(name, 1000 + index)
    return world


def manager_of(h: DiscordHarness) -> ProjectLBot:
    assert isinstance(h.bot, ShardedProjectLBot)
    return h.bot


async def game_in(h: DiscordHarness) -> Game:
    game = await manager_of(h).manager.game_in_channel(h.channel(CHANNEL).id)
    assert game is not None
    return game


async def current_player(h: DiscordHarness) -> FakeMember:
    game = await game_in(h)
    assert game.current is not None and game.current.user_id is not None
    return h.user(game.current.user_id)


async def open_lobby(h: DiscordHarness, host: FakeMember) -> tuple[MessageRecord, str]:
    """A two-player lobby opened by ``host``, and its game id (as its buttons carry it)."""
    lobby = (await h.slash(host, CHANNEL, "projectl table new", players=2)).original
    assert lobby is not None
    return lobby, lobby.buttons[0].custom_id.rsplit(":", 1)[1]


def turn_post(h: DiscordHarness) -> MessageRecord:
    return next(m for m in reversed(h.channel_messages(CHANNEL)) if m.filenames == ["table.png"])


def test_discord_formula_for_a_servers_shard() -> None:
    assert shard_of(GUILD, SHARDS) == 1 and shard_of(GUILD, 3) == 12345 % 3 and shard_of(None, 4) == 0
    sharded = Settings(token=TOKEN, shard_count=2, shard_ids=(0,))
    assert not runs_guild(sharded, GUILD) and runs_guild(sharded, GUILD + (1 << 22))
    assert runs_guild(Settings(token=TOKEN), GUILD)
    assert runs_guild(Settings(token=TOKEN, shard_count=2), GUILD)  # no ids: every shard


async def test_only_the_process_running_the_servers_shard_has_it(postgres_url: str) -> None:
    async with deployment(postgres_url, shared_world(), ManualClock(START), "a") as (owner, other):
        assert owner.bot.get_guild(GUILD) is not None and other.bot.get_guild(GUILD) is None
        assert owner.bot.shard_count == other.bot.shard_count == SHARDS
        sent = [f["d"]["shard"] for h in (owner, other) for f in h.gateway_sent if f.get("op") == 2]
        assert sorted(map(tuple, sent)) == [(0, 2), (1, 2)]  # each IDENTIFY names its own shard


async def test_a_channel_moves_to_the_other_process_and_its_buttons_still_work(postgres_url: str) -> None:
    world, clock = shared_world(), ManualClock(START)
    alice, bob = world.user("alice"), world.user("bob")
    async with deployment(postgres_url, world, clock, "a") as (first, _):
        lobby, game_id = await open_lobby(first, alice)
    # Both processes restart with their shard ids swapped: the server's shard is now on "b".
    async with deployment(postgres_url, world, clock, "b") as (second, _):
        join = await second.click(bob, lobby, f"pl:lobby:join:{game_id}")  # a button "a" posted
        assert final_reply(join).kind == "edit" and "2/2" in (lobby.content or "")
        await second.click(alice, lobby, f"pl:lobby:start:{game_id}")
        game = await game_in(second)
        assert game.status == "active"
        player = await current_player(second)
        done = await second.slash(player, CHANNEL, "projectl play act", text="level1")
        assert final_reply(done).content.startswith("Done: `level1`")
        post = turn_post(second)
    async with deployment(postgres_url, world, clock, "a") as (third, _):
        mat = await third.click(bob, post, f"pl:mat:{game_id}")  # posted by "b", pressed on "a"
        assert final_reply(mat).filenames == ["mat.png"] and final_reply(mat).ephemeral
        player = await current_player(third)
        done = await third.slash(player, CHANNEL, "projectl play act", text="level1")
        assert final_reply(done).content.startswith("Done: `level1`")
        assert await manager_of(third).manager.verify(int(game_id))


async def test_one_game_is_changed_by_one_process_at_a_time(postgres_url: str) -> None:
    """During a hand-over both processes can get a click for the same game: the actions are
    applied one after the other (the game's PostgreSQL advisory lock), none is lost, and a second
    Start of the same lobby is refused."""
    world, clock = shared_world(), ManualClock(START)
    alice, bob = world.user("alice"), world.user("bob")
    async with deployment(postgres_url, world, clock, "a") as (a, b):
        lobby, game_id = await open_lobby(a, alice)
        await a.click(bob, lobby, f"pl:lobby:join:{game_id}")
        starts = [await h.click(alice, lobby, f"pl:lobby:start:{game_id}", settle=False) for h in (a, b)]
        await asyncio.gather(a.settle(), b.settle())
        assert sum(final_reply(ix).content.startswith("Sorry") for ix in starts) <= 1
        assert len([m for m in a.channel_messages(CHANNEL) if m.filenames == ["table.png"]]) == 1
        before = await game_in(a)
        player = await current_player(a)
        assert before.state is not None and before.state.actions_left >= 2
        moves = [await h.slash(player, CHANNEL, "projectl play act", text="level1", settle=False)
                 for h in (a, b)]
        await asyncio.gather(a.settle(), b.settle())
        replies = [final_reply(ix).content for ix in moves]
        assert all(reply.startswith("Done: `level1`") for reply in replies), replies
        after = await game_in(b)
        assert after.revision == before.revision + 2
        log = await manager_of(a).manager.storage.actions(after.id)
        assert [row.action for row in log][-2:] == ["level1", "level1"]
        assert await manager_of(b).manager.verify(after.id)


async def test_a_reminder_and_a_turn_clock_fire_once_from_the_process_with_the_channel(
        postgres_url: str) -> None:
    """Both processes tick (at once, and the other one first): the turn's reminder DM goes out
    once, and the time-is-up post (with its vote buttons) is posted once in the channel — by the
    process that has the channel, which the other must leave it to rather than claim it."""
    world, clock = shared_world(), ManualClock(START)
    alice, bob = world.user("alice"), world.user("bob")
    async with deployment(postgres_url, world, clock, "b") as (owner, other):
        await open_table(owner, alice, [bob], channel=CHANNEL, turn_limit_days=1)
        player = await current_player(owner)
        dms_before = len(owner.dms_to(player))
        clock.advance(minutes=1)
        sent = await asyncio.gather(*(days_of(h.bot).reminders.tick() for h in (other, owner, other)))
        await asyncio.gather(owner.settle(), other.settle())
        assert sorted(sent) == [0, 0, 1]
        assert len(owner.dms_to(player)) == dms_before + 1
        posts_before = len(owner.channel_messages(CHANNEL))
        clock.advance(days=2)  # the turn clock runs out
        for h in (other, other, owner, owner):
            await days_of(h.bot).reminders.tick()
            await h.settle()
        new_posts = owner.channel_messages(CHANNEL)[posts_before:]
        votes = [m for m in new_posts if any(b.custom_id.startswith("pld:vote:") for b in m.buttons)]
        assert len(votes) == 1, [m.content for m in new_posts]
