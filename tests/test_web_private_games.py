"""A table in a private thread stays read only by its players and from inside the thread
(bot/core/records/access.py) on the web board too: nobody gets a link to watch it by tampering
with what their client sends — a Board button's id sent from another channel, or the Activity's
channel id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from test_bot_private_tables import NOT_READABLE, forged, table_in
from test_bot_support import assert_refused, bot_of, final_reply
from test_web_discord import LINK, board_bot

from bot.board import CHANNEL_ID, open_board
from bot.web.activity import ActivityInstance, ActivitySignIn, DiscordCodeExchanger, SignedIn, SignInError
from bot.web.server import make_app


async def test_a_forged_board_button_gives_no_link_to_a_private_table(tmp_path: Path) -> None:
    """Carol cannot see the private thread where Alice and Bob play: a Board button carrying its
    game's id, clicked from #general, must not hand her a link that watches it."""
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
        secret = h.add_thread("games", "secret table", owner=alice, private=True)
        hidden = await table_in(h, secret, "alice", "bob")
        click = await forged(h, carol, h.channel("general"), f"pl:board:{hidden.id}")
        reply = final_reply(click)
        assert not LINK.search(reply.content or ""), "a watcher's link to a private table"
        assert_refused(click, NOT_READABLE)
        # its players, from anywhere, still get their own seat's link
        for user, seat in ((alice, 0), (bob, 1)):
            found = LINK.search(final_reply(await forged(h, user, h.channel("general"),
                                                         f"pl:board:{hidden.id}")).content or "")
            assert found is not None
            front = bot_of(h).board_front
            assert front is not None
            assert front.signer.verify(found[2], now=front.now()).seat == seat
        # anyone inside the thread: Discord showed it to them
        assert LINK.search(final_reply(await forged(h, carol, secret, f"pl:board:{hidden.id}")).content or "")


OUTSIDER = 99
"""A Discord user who holds no seat at the board's game."""


class Instances:
    """Discord's side of the Activity for the tests: each code signs a user in, each instance id
    runs in a channel with some users (what Discord answers about an instance)."""

    def __init__(self, instances: dict[str, tuple[int, set[int]]]) -> None:
        self.instances = instances
        self.asked: list[str] = []

    async def exchange(self, code: str) -> SignedIn:
        return SignedIn(int(code), f"access-{code}")

    async def instance(self, instance_id: str) -> ActivityInstance | None:
        self.asked.append(instance_id)
        found = self.instances.get(instance_id)
        return None if found is None else ActivityInstance(found[0], frozenset(found[1]))


async def test_the_activity_watches_only_the_channel_discord_says_the_user_is_in(
        tmp_path: Path) -> None:
    """The channel id the Activity's page posts is the client's word: an outsider running the
    Activity in his own channel, posting the id of a channel he cannot see, must get no link to
    its game — nor learn whether one is played there. Discord's word (the instance he is in, and
    its channel) decides; a player gets their own seat as before."""
    board = await open_board(tmp_path, players=2, human_seats=(0, 1))
    exchanger = Instances({"his-own": (CHANNEL_ID + 1, {OUTSIDER}), "theirs": (CHANNEL_ID, {board.users[0]}),
                           "joined": (CHANNEL_ID, {board.users[0], OUTSIDER})})
    sign_in = ActivitySignIn(board.front, board.manager, exchanger, "1234")
    try:
        async with TestClient(TestServer(make_app(board.front, sign_in=sign_in))) as client:
            async def token(user: int, **body: Any) -> tuple[int, Any]:
                answer = await client.post("/api/activity/token", json={"code": str(user), **body})
                return answer.status, await answer.json()

            nowhere = await token(OUTSIDER, channel_id=str(CHANNEL_ID + 5), instance_id="his-own")
            for forged in ("his-own", "theirs", "gone", None):
                status, answer = await token(OUTSIDER, channel_id=str(CHANNEL_ID), instance_id=forged)
                assert "token" not in answer, forged
                assert (status, answer) == nowhere, forged  # the same as a channel with no game
            for bent in ("../../users/@me", "x" * 200, 12):
                status, _ = await token(OUTSIDER, channel_id=str(CHANNEL_ID), instance_id=bent)
                assert status == 400, bent
            assert not [asked for asked in exchanger.asked if "/" in asked or len(asked) > 100]

            status, answer = await token(OUTSIDER, channel_id=str(CHANNEL_ID), instance_id="joined")
            assert status == 200 and answer["seat"] is None  # in the channel's Activity: a watcher
            status, answer = await token(board.users[1], channel_id=str(CHANNEL_ID))
            assert status == 200 and answer["seat"] == 1  # a player reads their game from anywhere
    finally:
        await board.stop()


async def test_discords_word_on_an_instance_is_read_with_the_bots_token() -> None:
    """The real exchanger asks Discord's API for the instance (as the bot), reads its channel and
    users; an instance Discord does not know is None, any other failure a sign-in error."""
    seen: list[tuple[str, str | None]] = []

    async def instance(request: web.Request) -> web.Response:
        seen.append((request.path, request.headers.get("Authorization")))
        if request.match_info["instance"] == "gone":
            return web.json_response({"message": "Unknown"}, status=404)
        if request.match_info["instance"] == "broken":
            return web.json_response({"users": "?"})
        location = {"id": "gc-7-70", "kind": "gc", "channel_id": "70", "guild_id": "7"}
        return web.json_response({"application_id": "1234", "instance_id": request.match_info["instance"],
                                  "location": location, "users": ["5", "6"]})

    app = web.Application()
    app.router.add_get("/applications/1234/activity-instances/{instance}", instance)
    async with TestServer(app) as server:
        api = str(server.make_url(""))
        exchanger = DiscordCodeExchanger("1234", "client-secret", "bot.token.here", api=api)
        assert await exchanger.instance("i-1-gc-7-70") == ActivityInstance(70, frozenset({5, 6}))
        assert await exchanger.instance("gone") is None
        with pytest.raises(SignInError):
            await exchanger.instance("broken")
    assert seen[0] == ("/applications/1234/activity-instances/i-1-gc-7-70", "Bot bot.token.here")
