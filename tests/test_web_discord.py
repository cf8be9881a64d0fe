"""The web board inside the bot, through the offline Discord harness: the Board button on the turn
post and the Play panel (a private link for the clicker's seat, a read-only one for anyone else,
the Activity where it is set up), an action on the board giving the channel the same turn post a
panel action gives — once — and the server stopping with the bot."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
from harness import DiscordHarness
from test_bot_support import TOKEN, FakeRenderer, bot_of, final_reply, open_table, settings_for

from bot.core.clock import ManualClock
from bot.discord.app import ProjectLBot, create_bot
from bot.discord.board_button import hide_board_links

LINK = re.compile(r"(https://board\.example/board)#t=([A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)")


@asynccontextmanager
async def board_bot(db: Path, **settings: Any) -> AsyncIterator[DiscordHarness]:
    def make() -> ProjectLBot:
        chosen = dataclasses.replace(settings_for(db), web_bind=("127.0.0.1", 0),
                                     web_url="https://board.example", **settings)
        return create_bot(chosen, clock=ManualClock(), renderer=FakeRenderer(), seed_source=lambda: 1234)

    async with DiscordHarness(bot_factory=make, token=TOKEN, trap_loggers=("discord", "bot")) as h:
        yield h


async def test_the_board_button_answers_each_clicker_with_their_own_link(tmp_path: Path) -> None:
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
        await open_table(h, alice, [bob], players=2)
        bot = bot_of(h)
        game = await bot.manager.game_in_channel(h.channel("games").id)
        assert game is not None and bot.board_front is not None
        post = h.channel_messages("games")[-1]
        assert f"pl:board:{game.id}" in [b.custom_id for b in post.buttons]
        for user, seat in ((alice, 0), (bob, 1), (carol, None)):
            click = await h.click(user, post, f"pl:board:{game.id}")
            reply = final_reply(click)
            assert reply.ephemeral
            found = LINK.search(reply.content or "")
            assert found is not None, reply.content
            grant = bot.board_front.signer.verify(found[2], now=bot.board_front.now())
            assert (grant.game_id, grant.seat, grant.user_id) == (game.id, seat, user.id)


async def test_the_play_panel_carries_the_board_button(tmp_path: Path) -> None:
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game is not None
        post = h.channel_messages("games")[-1]
        current = alice if game.current is not None and game.current.user_id == alice.id else bob
        opened = final_reply(await h.click(current, post, f"plp:play:{game.id}"))
        assert opened.ephemeral and opened.message is not None
        panel = h.message(opened.message.id)
        assert f"pl:board:{game.id}" in [getattr(c, "custom_id", None) for c in panel.components]


async def test_with_the_activity_set_up_the_button_launches_it(tmp_path: Path) -> None:
    async with board_bot(tmp_path / "b.sqlite3", activity=True) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game is not None
        click = await h.click(bob, h.channel_messages("games")[-1], f"pl:board:{game.id}")
        assert [r.callback_type for r in click.responses if r.kind == "callback"] == [12]


async def test_a_turn_played_on_the_board_is_posted_in_the_channel_once(tmp_path: Path) -> None:
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        bot = bot_of(h)
        front, running = bot.board_front, bot._board
        assert front is not None and running is not None
        game = await bot.manager.game_in_channel(h.channel("games").id)
        assert game is not None
        assert game.current is not None and game.state is not None
        player, other = (alice, bob) if game.current.user_id == alice.id else (bob, alice)
        token = front.signer.sign(game.id, game.state.current, player.id, now=front.now())
        base = f"http://127.0.0.1:{running.port}"
        posts_before = len(h.channel_messages("games"))
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as http:
            for number in range(3):
                async with http.get(base + "/api/view") as answer:
                    view = await answer.json()
                async with http.post(base + "/api/act", json={"action": "level1",
                                                              "stamp": view["game"]["stamp"]}) as answer:
                    assert answer.status == 200, await answer.text()
                await front.settle()
                await h.settle()
                assert len(h.channel_messages("games")) == posts_before + (number == 2)
        posts = h.channel_messages("games")[posts_before:]
        assert len(posts) == 1 and posts[0].filenames == ["table.png"]
        assert f"<@{other.id}>" in (posts[0].content or "")  # pinged, as after a panel turn
    assert bot.board_front is None  # the bot closed: the board stopped with it


def test_board_links_never_reach_discord_pys_request_logs(caplog: Any) -> None:
    hide_board_links()
    hide_board_links()  # idempotent
    caplog.set_level(logging.DEBUG)
    logging.getLogger("discord.http").debug("POST %s with %s", "/webhooks/1/x",
                                            '{"content": "https://b.example/board#t=eyJnIjoxfQ.c2lnbmF0dXJl"}')
    assert "eyJnIjoxfQ" not in caplog.text and "c2lnbmF0dXJl" not in caplog.text
    assert "#t=…" in caplog.text


async def test_an_undo_on_the_board_is_told_in_the_channel(tmp_path: Path) -> None:
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        bot = bot_of(h)
        front, running = bot.board_front, bot._board
        assert front is not None and running is not None
        game = await bot.manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.current is not None and game.state is not None
        token = front.signer.sign(game.id, game.state.current, game.current.user_id or 0, now=front.now())
        base = f"http://127.0.0.1:{running.port}"
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as http:
            async with http.get(base + "/api/view") as answer:
                view = await answer.json()
            for action in ("level1", "undo"):
                async with http.post(base + "/api/act", json={"action": action,
                                                              "stamp": view["game"]["stamp"]}) as answer:
                    assert answer.status == 200, await answer.text()
                    view = (await answer.json())["view"]
        await h.settle()
        assert "took back their last action" in (h.channel_messages("games")[-1].content or "")


async def test_the_board_and_discord_keep_one_last_planned_turn(tmp_path: Path) -> None:
    """What a seat's last planned turn did is one record for both fronts: the board shows what
    ``/projectl-plan show`` says, and a plan laid out on either clears it for both."""
    async with board_bot(tmp_path / "b.sqlite3") as h:
        bot = bot_of(h)
        assert bot.board_front is not None and bot.days is not None
        assert bot.board_front.plan_outcomes is bot.days.plan_outcomes
