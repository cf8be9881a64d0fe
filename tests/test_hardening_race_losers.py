"""Two bot processes over one database: the loser of a race is told the truth, privately
(issue 24, item 8).

Within one process the channel's lock orders requests, so the second sees the first's result.
Across processes (two shards during a hand-over, two deployments by mistake) each reads the game,
and the second write finds the revision moved. That loser used to hear "That button belongs to a
game that is no longer open here" — in public, after a public "thinking…". Now the request is
decided again on the game as it now is, and a refusal after a public "thinking…" is private.

Each race is made deterministic: process A's write is held at the storage until process B has
finished its own request, then let go.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from harness import DiscordHarness, InteractionRecord
from harness.world import World
from test_bot_support import TOKEN, bot_factory, bot_of, final_reply

from bot.core.wording import texts


@asynccontextmanager
async def two_processes(database: str) -> AsyncIterator[tuple[DiscordHarness, DiscordHarness]]:
    """Bots "a" and "b" over one database, in one Discord (the same server, users and messages)."""
    world = World()
    async with AsyncExitStack() as stack:
        a, b = [await stack.enter_async_context(DiscordHarness(
            bot_factory=bot_factory(database), token=TOKEN, world=world, trap_loggers=("discord", "bot")))
            for _ in range(2)]
        yield a, b


async def held_write(h: DiscordHarness, method: str, started: Callable[[], Awaitable[InteractionRecord]],
                     meanwhile: Callable[[], Awaitable[Any]]) -> InteractionRecord:
    """Run ``started`` in ``h``'s process with its first ``storage.<method>`` call held until
    ``meanwhile`` (the other process's request) has finished; then let it go on."""
    storage = bot_of(h).storage
    real = getattr(storage, method)
    reached, go = asyncio.Event(), asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> Any:
        setattr(storage, method, real)  # only the first write waits
        reached.set()
        await go.wait()
        return await real(*args, **kwargs)

    setattr(storage, method, held)
    task = asyncio.ensure_future(started())
    await asyncio.wait_for(reached.wait(), 30)
    await meanwhile()
    go.set()
    return await task


def everything_said(h: DiscordHarness) -> str:
    return "\n".join(str(call.json) for call in h.calls)


async def lobby_in(a: DiscordHarness, host: Any) -> Any:
    ix = await a.slash(host, "games", "projectl table new")
    assert ix.original is not None
    return ix.original


def game_id_of(lobby: Any) -> str:
    return lobby.buttons[0].custom_id.split(":")[-1]


async def two_seated(a: DiscordHarness) -> tuple[Any, Any, Any, str]:
    """A lobby opened by Host, with Ann seated: the users, the lobby message and the game id."""
    host, ann = a.add_user("Host"), a.add_user("Ann")
    lobby = await lobby_in(a, host)
    game_id = game_id_of(lobby)
    await a.click(ann, lobby, f"pl:lobby:join:{game_id}")
    return host, ann, lobby, game_id


async def test_the_loser_of_a_join_race_across_processes_is_seated(storage_target: str) -> None:
    async with two_processes(storage_target) as (a, b):
        host, ann, bob = a.add_user("Host"), a.add_user("Ann"), a.add_user("Bob")
        lobby = await lobby_in(a, host)
        game_id = game_id_of(lobby)
        await held_write(a, "replace_seats",
                         lambda: a.click(ann, lobby, f"pl:lobby:join:{game_id}"),
                         lambda: b.click(bob, lobby, f"pl:lobby:join:{game_id}"))
        game = await bot_of(b).manager.game_in_channel(a.channel("games").id)
        assert game is not None and [s.user_id for s in game.seats] == [host.id, bob.id, ann.id]
        assert texts.STALE_GAME not in everything_said(a)


async def test_the_loser_of_a_start_race_across_processes_hears_it_has_started(storage_target: str) -> None:
    async with two_processes(storage_target) as (a, b):
        host, ann, lobby, game_id = await two_seated(a)
        late = await held_write(a, "start_game",
                                lambda: a.click(host, lobby, f"pl:lobby:start:{game_id}"),
                                lambda: b.click(host, lobby, f"pl:lobby:start:{game_id}"))
        reply = final_reply(late)
        assert reply.ephemeral and reply.content == texts.START_ALREADY
        assert texts.STALE_GAME not in everything_said(a)
        game = await bot_of(a).manager.game_in_channel(a.channel("games").id)
        assert game is not None and game.status == "active" and game.revision == 2  # joined, started once


async def test_a_confirmed_cancel_that_loses_to_an_action_in_another_process_says_so(
    storage_target: str,
) -> None:
    """The host confirms "Cancel the game" while another process commits an action: the cancel
    was asked about the game as it was, so it changes nothing and says the game moved on (the
    host may ask again); the action stands, once."""
    async with two_processes(storage_target) as (a, b):
        host, ann, lobby, game_id = await two_seated(a)
        await a.click(host, lobby, f"pl:lobby:start:{game_id}")
        game = await bot_of(a).manager.game_in_channel(a.channel("games").id)
        assert game is not None and game.current is not None
        mover = host if game.current.user_id == host.id else ann
        asked = final_reply(await a.slash(host, "games", "projectl table cancel"))
        cancel = await held_write(a, "set_status",
                                  lambda: a.click(host, asked.message, asked.buttons[0].custom_id),
                                  lambda: b.slash(mover, "games", "projectl play level1"))
        assert (await bot_of(a).manager.game(game.id)).status == "active"  # type: ignore[union-attr]
        reply = final_reply(cancel)
        assert reply.ephemeral and "has moved on since you asked: nothing was cancelled" in reply.content
        assert texts.STALE_GAME not in everything_said(a)
        assert len(await bot_of(a).manager.log_tail(game.id, 5)) == 1  # the action stood, once


async def test_of_two_new_tables_in_one_channel_the_loser_is_refused_privately(storage_target: str) -> None:
    async with two_processes(storage_target) as (a, b):
        ann, bob = a.add_user("Ann"), a.add_user("Bob")
        loser = await held_write(a, "create_game",
                                 lambda: a.slash(ann, "games", "projectl table new"),
                                 lambda: b.slash(bob, "games", "projectl table new"))
        reply = final_reply(loser)
        assert reply.ephemeral and reply.content == texts.CHANNEL_BUSY
        public = [m.content for m in a.channel_messages("games")]
        assert not any(texts.CHANNEL_BUSY in text for text in public)
        assert sum("Project L" in text and "Host" in text for text in public) == 1  # Bob's lobby, alone
        game = await bot_of(a).manager.game_in_channel(a.channel("games").id)
        assert game is not None and game.host_id == bob.id
