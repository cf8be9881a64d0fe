"""Games in threads and forum posts (issue 10, section 3): one game per thread is how servers
run days-long games, and ``/projectl table new thread:`` opens its own."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused, final_reply, replies

from bench.harnessed import running, stale_slash
from bench.tables import snapshot
from bot.core.errors import ChannelBusyError
from bot.core.wording import texts
from bot.core.wording.locales import t


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "threads.sqlite3") as harness:
        yield harness


FULL = sqlite3.OperationalError("database or disk is full")


def failing(error: Exception) -> Any:
    async def fail(*args: Any, **kwargs: Any) -> Any:
        raise error
    return fail


async def play_a_turn_start(h: Any, where: Any, host: Any, guest: Any) -> Any:
    """Open, join, start and play one action in ``where``; returns the game."""
    lobby = (await h.slash(host, where, "projectl table new", players=2)).original
    gid = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(guest, lobby, f"pl:lobby:join:{gid}")
    await h.click(host, lobby, f"pl:lobby:start:{gid}")
    game = await h.bot.manager.game_in_channel(where.id)
    mover = host if game.current.user_id == host.id else guest
    assert final_reply(await h.slash(mover, where, "projectl play level1")).content.startswith("Done")
    return await h.bot.manager.game_in_channel(where.id)


async def test_games_live_in_threads_and_forum_posts(h: Any) -> None:
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    tuesday = h.add_thread("games", "Tuesday game", owner=alice)
    wednesday = h.add_thread("games", "Wednesday game", owner=bob)
    forum = h.add_forum("board-games")
    post = h.add_thread(forum, "Project L, slow game", owner=carol)
    games = [await play_a_turn_start(h, where, host, guest)
             for where, host, guest in ((tuesday, alice, bob), (wednesday, bob, carol), (post, carol, alice))]
    assert len({g.id for g in games}) == 3 and all(g.revision >= 1 for g in games)
    for where in (tuesday, wednesday, post):
        assert any(m.filenames == ["table.png"] for m in h.channel_messages(where))
    assert h.channel_messages("games") == []  # the parent channel stays quiet
    await play_a_turn_start(h, h.channel("games"), alice, carol)  # and can hold its own game


async def test_new_can_open_its_own_thread(h: Any) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    ix = await h.slash(alice, "games", "projectl table new", players=2, thread="Friday night")
    reply = final_reply(ix)
    assert reply.ephemeral and "Your table is open in" in reply.content
    (thread,) = [c for c in h.world.channels.values() if c.is_thread]
    assert thread.name == "Friday night" and thread.parent_id == h.channel("games").id
    assert f"<#{thread.id}>" in reply.content
    lobby = h.channel_messages(thread)[-1]
    gid = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(bob, lobby, f"pl:lobby:join:{gid}")
    await h.click(alice, lobby, f"pl:lobby:start:{gid}")
    game = await h.bot.manager.game_in_channel(thread.id)
    assert game is not None and game.status == "active"
    assert await h.bot.manager.game_in_channel(h.channel("games").id) is None
    solo = final_reply(await h.slash(bob, "games", "projectl table new", variant="solo", thread="Bob vs AI"))
    assert "Your table is open in" in solo.content
    bobs = next(c for c in h.world.channels.values() if c.is_thread and c.name == "Bob vs AI")
    assert any(m.filenames == ["table.png"] for m in h.channel_messages(bobs))


async def test_threads_need_their_own_permissions(h: Any) -> None:
    alice = h.add_user("alice")
    db = Path(h.bot.settings.db_path)
    before = snapshot(db)
    inside = h.add_thread("general", "already a thread")
    assert_refused(await h.slash(alice, inside, "projectl table new", thread="nested"), "text channel")
    h.deny_bot("games", "create_public_threads")
    denied = await h.slash(alice, "games", "projectl table new", thread="x")
    assert_refused(denied, "**Create Public Threads**")
    # refused before the thread: an AI kind off the list (an old client's) and watching a base table
    unknown = {"thread": "y", "variant": "solo", "watch": "easy"}
    assert_refused(await stale_slash(h, alice, "general", "projectl table new", unknown), "AI")
    assert_refused(await h.slash(alice, "general", "projectl table new", thread="y", watch="greedy"), "AI")
    quiet = h.add_thread("random", "muted")
    h.deny_bot(quiet, "send_messages_in_threads")
    reply = assert_refused(await h.slash(alice, quiet, "projectl table new"), "**Send Messages in Threads**")
    assert "**Send Messages**" not in reply
    assert snapshot(db) == before
    assert [c.name for c in h.world.channels.values() if c.is_thread] == ["already a thread", "muted"]


async def test_a_table_that_could_not_be_made_leaves_no_thread(h: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The thread is opened before the game (the game lives in it): when the game cannot be made
    after all — a storage fault, another table there first — the thread goes too, and the user
    hears why; where the bot may not delete it, they hear that it is left, and where."""
    alice = h.add_user("alice")
    manager = h.bot.manager

    def threads() -> list[str]:
        return [c.name for c in h.world.channels.values() if c.is_thread]

    monkeypatch.setattr(h.bot.storage, "create_game", failing(FULL))
    with h.expect_errors():
        full = await h.slash(alice, "games", "projectl table new", thread="Friday")
    assert assert_refused(full) == texts.STORAGE_FAULT["full"]  # nothing was changed: true now
    assert threads() == []
    monkeypatch.setattr(manager, "create_game", failing(ChannelBusyError(texts.CHANNEL_BUSY)))
    busy = await h.slash(alice, "games", "projectl table new", thread="Friday")
    assert assert_refused(busy) == texts.CHANNEL_BUSY
    assert threads() == []
    h.deny_bot("games", "manage_threads")  # may open a thread, not delete one
    kept = await h.slash(alice, "games", "projectl table new", thread="Friday", locale="pt-BR")
    (left,) = [c for c in h.world.channels.values() if c.is_thread]
    said = [r.content for r in kept.responses if r.content]
    assert said == [t("CHANNEL_BUSY", "pt-BR"),
                    t("THREAD_LEFT_BEHIND", "pt-BR").format(thread=f"<#{left.id}>")], said
    assert all(r.ephemeral for r in replies(kept)) and h.channel_messages(left) == []
    monkeypatch.undo()
    assert "Your table is open in" in final_reply(await h.slash(alice, "games", "projectl table new",
                                                                thread="Saturday")).content
    # saved, then failing (a Solo table that could not be dealt): the thread and the truth stay
    monkeypatch.setattr(manager, "_start_locked", failing(FULL))
    with h.expect_errors():
        solo = await h.slash(alice, "general", "projectl table new", variant="solo", thread="Solo")
    home = next(c for c in h.world.channels.values() if c.is_thread and c.name == "Solo")
    said = [r.content for r in solo.responses if r.content]
    assert said == [texts.STORAGE_FAULT_AFTER_COMMIT["full"],
                    texts.TABLE_IN_THREAD.format(thread=f"<#{home.id}>")]
    assert await manager.game_in_channel(home.id) is not None
