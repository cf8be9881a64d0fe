"""Gone channels (bot/core/play/gone.py, bot/discord/gone.py): a deleted channel or thread, or a
server the bot was removed from, ends its open game as cancelled — kept in the records, off the
inbox — and DMs each human player why; an archived thread, an unrelated channel, a second delete
or a server that is only unavailable change nothing. A deleted channel ends its threads' games
too (Discord sends no thread delete for them), whether discord.py had those threads cached or not."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from days_support import START, days_bot, game_of
from harness.apierror import ApiError
from harness.payloads import channel_payload, guild_create_payload
from test_bot_restart import harness
from test_bot_support import bot_of, final_reply, open_table

from bot.core.clock import ManualClock
from bot.core.play.manager import TableSettings
from bot.core.storage import NewSeat, Storage


async def _status(h: Any, game_id: int) -> str:
    game = await h.bot.manager.game(game_id)
    assert game is not None
    return str(game.status)


def _gone_dms(h: Any, user: Any) -> list[str]:
    return [m.content for m in h.dms_to(user)
            if m.content and ("has ended" in m.content or "terminou" in m.content)]


async def test_deleting_the_channel_cancels_its_game_and_tells_the_players(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, users=("alice", "bob", "carol")) as h:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        h.add_channel("game_night")
        h.add_channel("other")
        await open_table(h, alice, [bob], channel="game_night", ai=1)
        await h.slash(carol, "other", "projectl table new", variant="solo")
        # bob's DMs are in Portuguese (his latest settings command's language)
        await h.slash(bob, "general", "projectl settings", heads_up=False, locale="pt-BR")
        game, other = await game_of(h, "game_night"), await game_of(h, "other")
        assert "Game " in final_reply(await h.slash(alice, "general", "projectl-games mine")).content

        await h.dispatch("CHANNEL_DELETE", channel_payload(h.world, h.channel("game_night")))
        assert await _status(h, game.id) == "cancelled"  # kept in the records, as cancelled
        assert await h.bot.manager.game_in_channel(game.channel_id) is None
        assert await _status(h, other.id) == "active"  # an unrelated channel's game plays on
        (to_alice,) = _gone_dms(h, alice)
        assert to_alice == (f"Game {game.id} in #game\\_night on Harness Guild has ended: its channel was "
                            "deleted. It is kept as cancelled; no rating changes.")
        (to_bob,) = _gone_dms(h, bob)
        assert to_bob.startswith(f"A partida {game.id} em #game\\_night no servidor Harness Guild terminou")
        assert _gone_dms(h, carol) == []
        mine = final_reply(await h.slash(alice, "general", "projectl-games mine")).content
        assert f"Game {game.id}]" not in mine

        await h.dispatch("CHANNEL_DELETE", channel_payload(h.world, h.channel("game_night")))
        await h.dispatch("CHANNEL_DELETE", channel_payload(h.world, h.channel("general")))
        assert len(_gone_dms(h, alice)) == 1 and len(_gone_dms(h, bob)) == 1  # nothing more
        assert await _status(h, other.id) == "active"


async def test_a_deleted_thread_ends_its_game_an_archived_one_does_not(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice, bob = h.user("alice"), h.user("bob")
        kept = h.add_thread("games", "Tuesday", owner=alice)
        doomed = h.add_thread("games", "**Friday**", owner=bob)
        await open_table(h, alice, [bob], channel=kept)
        await open_table(h, bob, [alice], channel=doomed)
        manager = h.bot.manager
        tuesday, friday = await manager.game_in_channel(kept.id), await manager.game_in_channel(doomed.id)

        archived = channel_payload(h.world, kept)
        archived["thread_metadata"]["archived"] = True
        await h.dispatch("THREAD_UPDATE", archived)
        assert await _status(h, tuesday.id) == "active"
        assert _gone_dms(h, alice) == []

        thread = {"id": str(doomed.id), "guild_id": str(h.world.guild_id), "parent_id": str(doomed.parent_id),
                  "type": 11}
        await h.dispatch("THREAD_DELETE", thread)
        assert await _status(h, friday.id) == "cancelled" and await _status(h, tuesday.id) == "active"
        for user in (alice, bob):
            (notice,) = _gone_dms(h, user)
            assert notice.startswith(f"Game {friday.id} in #\\*\\*Friday\\*\\* on Harness Guild has ended")
        await h.dispatch("THREAD_DELETE", thread)
        assert len(_gone_dms(h, alice)) == 1


def _delete(h: Any, channel: Any) -> dict[str, Any]:
    """Delete ``channel`` from Discord's world, with its threads (as Discord does), and return
    its CHANNEL_DELETE payload."""
    payload = channel_payload(h.world, channel)
    for thread in [c for c in h.world.channels.values() if c.parent_id == channel.id]:
        del h.world.channels[thread.id]
    del h.world.channels[channel.id]
    return payload


async def _archive(h: Any, thread: Any) -> None:
    """Archive ``thread``: discord.py drops it from its cache (as after a restart: an archived
    thread is not in GUILD_CREATE)."""
    archived = channel_payload(h.world, thread)
    archived["thread_metadata"]["archived"] = True
    await h.dispatch("THREAD_UPDATE", archived)
    assert h.bot.get_channel(thread.id) is None


async def test_a_deleted_channel_ends_its_threads_games_cached_or_not(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, users=("alice", "bob", "carol")) as h:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        h.add_channel("other")
        cached = h.add_thread("games", "Tuesday", owner=alice)
        uncached = h.add_thread("games", "Friday", owner=bob)
        elsewhere = h.add_thread("other", "Sunday", owner=carol)
        await open_table(h, alice, [bob], channel=cached)
        await open_table(h, bob, [alice], channel=uncached)
        await open_table(h, carol, [alice], channel=elsewhere)
        await h.slash(carol, "games", "projectl table new", variant="solo")
        manager = h.bot.manager
        tuesday, friday = await manager.game_in_channel(cached.id), await manager.game_in_channel(uncached.id)
        sunday, own = await manager.game_in_channel(elsewhere.id), await game_of(h, "games")
        await _archive(h, uncached)
        await _archive(h, elsewhere)
        asked = len(h.calls_to("GET", "/channels/{channel_id}"))

        await h.dispatch("CHANNEL_DELETE", _delete(h, h.channel("games")))
        for game in (tuesday, friday, own):
            assert await _status(h, game.id) == "cancelled"
        assert await _status(h, sunday.id) == "active"  # a thread of another channel plays on
        assert len(h.calls_to("GET", "/channels/{channel_id}")) == asked  # the parents were kept
        for user, games in ((alice, (tuesday, friday)), (bob, (tuesday, friday)), (carol, (own,))):
            notices = _gone_dms(h, user)
            assert sorted(notices) == sorted(
                f"Game {game.id} in #games on Harness Guild has ended: its channel was deleted. It is "
                "kept as cancelled; no rating changes." for game in games)
        await h.dispatch("THREAD_DELETE", {"id": str(cached.id), "guild_id": str(h.world.guild_id),
                                           "parent_id": str(cached.parent_id), "type": 11})
        assert len(_gone_dms(h, alice)) == 2  # told once


async def test_a_game_opened_before_parents_were_kept_is_looked_up(tmp_path: Path) -> None:
    """A game whose parent is not known (opened before migration 0018): the server's next channel
    delete asks the cache, else Discord — a channel Discord no longer has ends its game, one it
    has gets its parent recorded, and is not asked again."""
    clock = ManualClock(START)
    db = tmp_path / "db.sqlite3"
    async with days_bot(db, clock, users=("alice", "bob", "carol")) as h:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        h.add_channel("other")
        h.add_channel("third")
        doomed = h.add_thread("games", "Friday", owner=bob)
        kept = h.add_thread("other", "Sunday", owner=carol)
        await open_table(h, bob, [alice], channel=doomed)
        await open_table(h, carol, [alice], channel=kept)
        await h.slash(carol, "third", "projectl table new", variant="solo")
        manager = h.bot.manager
        friday, sunday = await manager.game_in_channel(doomed.id), await manager.game_in_channel(kept.id)
        third = await game_of(h, "third")
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE games SET parent_id = NULL")
        await _archive(h, doomed)
        await _archive(h, kept)

        await h.dispatch("CHANNEL_DELETE", _delete(h, h.channel("games")))
        assert await _status(h, friday.id) == "cancelled"
        assert {await _status(h, sunday.id), await _status(h, third.id)} == {"active"}
        (notice,) = _gone_dms(h, bob)  # Friday may have gone before #games: no channel is named
        assert notice == (f"Game {friday.id} on Harness Guild has ended: the channel or thread it was played "
                          "in was deleted. It is kept as cancelled; no rating changes.")
        looked_up = sorted(call.params["channel_id"] for call in h.calls_to("GET", "/channels/{channel_id}"))
        assert looked_up == sorted([doomed.id, kept.id])  # the cached channel was not asked about
        parents = {row.channel_id: row.parent_id for row in await manager.storage.games_with_status("active")}
        assert parents == {kept.id: h.channel("other").id, third.channel_id: third.channel_id}

        await h.dispatch("CHANNEL_DELETE", _delete(h, h.channel("other")))
        assert await _status(h, sunday.id) == "cancelled" and await _status(h, third.id) == "active"
        assert len(h.calls_to("GET", "/channels/{channel_id}")) == 2
        assert len(_gone_dms(h, carol)) == 1


async def test_a_channel_discord_will_not_tell_of_is_not_asked_about_at_every_delete(tmp_path: Path) -> None:
    """An older game whose channel the bot may not see (403): kept, and asked about once, not at
    each later channel delete of its server (each would wait on Discord again)."""
    clock = ManualClock(START)
    db = tmp_path / "db.sqlite3"
    async with days_bot(db, clock, users=("alice", "bob")) as h:
        alice, bob = h.user("alice"), h.user("bob")
        h.add_channel("other")
        h.add_channel("third")
        hidden = h.add_thread("other", "Friday", owner=bob)
        await open_table(h, bob, [alice], channel=hidden)
        friday = await h.bot.manager.game_in_channel(hidden.id)
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE games SET parent_id = NULL")
        await _archive(h, hidden)

        def refuse(call: Any) -> Any:
            raise ApiError(403, 50001, "Missing Access")

        h.api.add_route("GET", "/channels/{channel_id}", refuse)
        await h.dispatch("CHANNEL_DELETE", _delete(h, h.channel("games")))
        await h.dispatch("CHANNEL_DELETE", _delete(h, h.channel("third")))
        assert await _status(h, friday.id) == "active" and not _gone_dms(h, bob)
        asked = [call.params["channel_id"] for call in h.calls_to("GET", "/channels/{channel_id}")]
        assert asked == [hidden.id]


async def test_the_store_finds_a_channels_open_games_by_parent(storage_target: str) -> None:
    storage = await Storage.open(storage_target, ManualClock(START))
    try:
        def new(channel: int, parent: int | None, guild: int = 7) -> Any:
            return storage.create_game(
                guild_id=guild, channel_id=channel, host_id=1, variant="base", max_players=2,
                options=TableSettings(max_players=2).to_json(), seed=1,
                seats=[NewSeat("ann", user_id=1)], parent_id=parent)

        own, thread, ended, other, old, old_elsewhere = (
            await new(10, 10), await new(11, 10), await new(12, 10), await new(20, 20),
            await new(13, None), await new(30, None, guild=8))
        assert (own.parent_id, thread.parent_id, old.parent_id) == (10, 10, None)
        await storage.set_status(ended.id, ended.revision, "cancelled")
        assert [row.id for row in await storage.open_games_under(10)] == [own.id, thread.id]
        assert [row.id for row in await storage.open_games_parent_unknown(7)] == [old.id]
        await storage.set_parent(old.id, 10)
        await storage.set_parent(old.id, 99)  # a known parent is kept
        assert (await storage.get_game(old.id)).parent_id == 10
        assert (await storage.get_game(old.id)).revision == old.revision
        assert [row.id for row in await storage.open_games_under(10)] == [own.id, thread.id, old.id]
        assert await storage.open_games_parent_unknown(7) == []
        assert [row.id for row in await storage.open_games_parent_unknown(8)] == [old_elsewhere.id]
        assert other.parent_id == 20
    finally:
        await storage.close()


async def test_leaving_a_server_ends_its_games_an_outage_does_not(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice, bob = h.user("alice"), h.user("bob")
        h.add_channel("second")
        await open_table(h, alice, [bob], channel="games")
        await open_table(h, bob, [alice], channel="second")
        first, second = await game_of(h, "games"), await game_of(h, "second")
        h.close_dms(bob)

        await h.dispatch("GUILD_DELETE", {"id": str(h.world.guild_id), "unavailable": True})
        assert await _status(h, first.id) == "active"  # an outage: the server comes back

        await h.dispatch("GUILD_CREATE", guild_create_payload(h.world))
        await h.dispatch("GUILD_DELETE", {"id": str(h.world.guild_id), "unavailable": False})
        assert {await _status(h, first.id), await _status(h, second.id)} == {"cancelled"}
        notices = _gone_dms(h, alice)
        assert len(notices) == 2 and all("the bot was removed from that server" in n for n in notices)
        assert "#games on Harness Guild" in notices[0] + notices[1]
        assert _gone_dms(h, bob) == []
        assert (await h.bot.days.store.get_prefs(bob.id)).dms_closed  # 403: remembered, as for any DM


async def test_a_resumed_game_whose_channel_is_gone_is_logged_not_posted(tmp_path: Path, caplog: Any) -> None:
    """The channel went while the bot was away and the AI seat moves at start-up: nothing is
    posted or raised, one log line says so, and the game is left as it is (the guild may only be
    partly known yet: only a delete event cancels)."""
    import logging

    import engine
    from bot.core.play.manager import Game

    db = tmp_path / "away.sqlite3"
    async with harness(db) as first:
        alice = first.add_user("alice")
        await open_table(first, alice, [], players=2, ai=1)
        game = await bot_of(first).manager.game_in_channel(first.channel("games").id)
        assert game is not None and game.state is not None and game.current is not None
        assert game.current.user_id == alice.id
        state = game.state
        for text in ("level1", "level1", "level1"):  # committed, then the bot stopped before the AI moved
            outcome = engine.apply(state, engine.parse_action(text))
            row = await bot_of(first).storage.commit_action(
                game.id, game.revision, seat=state.current, user_id=alice.id, action=text,
                state=engine.serialisation.dumps(outcome.state), state_schema=1, finished=False)
            game, state = Game.from_row(row), outcome.state
        assert game.current is not None and game.current.is_ai

    caplog.set_level(logging.INFO, logger="bot")
    async with harness(db) as h:  # a new world: the games channel has another id, the old one is gone
        h.add_user("alice", alice.id)
        await h.settle()
        assert f"game {game.id}'s channel {game.channel_id} is not visible" in caplog.text
        resumed = await bot_of(h).manager.game(game.id)
        assert resumed is not None and resumed.status == "active" and resumed.current is not None
        assert resumed.current.user_id == alice.id  # the AI played on
        assert not any(m.filenames for m in h.channel_messages("games"))
