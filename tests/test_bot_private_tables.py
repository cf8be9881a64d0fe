"""A table in a private thread is read only by its players (from anywhere) and from inside the
thread (bot/core/records/access.py, docs/replays.md): from another channel, someone who cannot see
the thread gets the same refusal, or an empty list, from every command, button and autocomplete
that would show or name its game — its log while it is played, the replay list, the replay, the
recap, the review and a mat once it is over. A game of a public channel stays readable by all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from days_support import START, days_bot
from harness import DiscordHarness, FakeChannel, FakeMember, InteractionRecord
from test_bot_support import assert_refused, final_reply, open_table

from bot.core.clock import ManualClock
from bot.core.play.manager import Game, TableSettings
from bot.core.records.access import GamePlace, Reader, may_read
from bot.core.storage import NewSeat, Storage
from bot.core.storage.replays import ReplayStore
from engine.policies import policy_by_name

NOT_READABLE = "you can read from here"


async def table_in(h: DiscordHarness, channel: FakeChannel | str, host: str, other: str) -> Game:
    await open_table(h, h.user(host), [h.user(other)], channel=channel if isinstance(channel, str)
                     else channel.name)
    chan = h.channel(channel) if isinstance(channel, str) else channel
    game = await h.bot.manager.game_in_channel(chan.id)  # type: ignore[attr-defined]
    assert game is not None and game.status == "active"
    return game  # type: ignore[no-any-return]


async def finish(h: DiscordHarness, game: Game) -> None:
    manager = h.bot.manager  # type: ignore[attr-defined]
    policy = policy_by_name("greedy", 1)
    while (found := await manager.game(game.id)) is not None and found.status != "finished":
        assert found.state is not None and found.current is not None and found.current.user_id
        await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))
    await h.settle()


async def forged(h: DiscordHarness, user: FakeMember, channel: FakeChannel,
                 custom_id: str) -> InteractionRecord:
    """A click on a button with any id, sent from ``channel`` (a tampered client, or a button of
    an old private message): the raw payload carries a message that shows only that button."""
    anchor = h.world.visible_messages()[-1]
    record = h._new_interaction(3, user, channel, {"custom_id": custom_id, "component_type": 2},  # noqa: SLF001
                                message=anchor)
    shown = record.payload["message"]
    shown["channel_id"] = str(channel.id)
    shown["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}]}]
    shown["flags"] = 64  # a private reply's copy (pagers redraw only private pages)
    return await h._send(record, True)  # type: ignore[no-any-return]  # noqa: SLF001


def refused(ix: InteractionRecord) -> None:
    reply = final_reply(ix)
    assert_refused(ix, NOT_READABLE)
    assert not reply.embeds and not reply.buttons


async def choices(h: DiscordHarness, user: FakeMember, channel: FakeChannel | str, command: str) -> list[int]:
    found = await h.autocomplete(user, channel, command, focused="game", game="")
    return [int(c.value) for c in found]


async def test_a_private_thread_table_is_read_only_by_its_players_and_from_inside(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), ("alice", "bob", "carol", "dan")) as h:
        alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
        general = h.channel("general")
        secret = h.add_thread("games", "secret table", owner=alice, private=True)
        hidden = await table_in(h, secret, "alice", "bob")
        assert hidden.channel_private is True
        shown = await table_in(h, "random", "carol", "dan")
        assert shown.channel_private is False

        # live: the log by number, and its Prev/Next buttons
        refused(await h.slash(carol, general, "projectl log", game=hidden.id))
        refused(await forged(h, carol, general, f"pld:log:{hidden.id}:1:next"))
        refused(await forged(h, carol, general, f"pl:mat:{hidden.id}"))
        assert final_reply(await h.slash(bob, general, "projectl log", game=hidden.id)).embeds
        assert final_reply(await h.slash(bob, general, "projectl log", game=shown.id)).embeds

        await finish(h, hidden)
        await finish(h, shown)

        # over: the replay list, the replay and its buttons, the recap, the log, the review
        for command in ("projectl-games replay", "projectl-games recap", "projectl-games export"):
            assert await choices(h, carol, general, command) == [shown.id]
            assert sorted(await choices(h, bob, general, command)) == sorted([hidden.id, shown.id])
        refused(await h.slash(carol, general, "projectl-games replay", game=hidden.id))
        refused(await forged(h, carol, general, f"plg:rp:{hidden.id}:1:next"))
        refused(await h.slash(carol, general, "projectl-games recap", game=hidden.id))
        refused(await h.slash(carol, general, "projectl-games export", game=hidden.id))  # no record, no log
        refused(await h.slash(carol, general, "projectl log", game=hidden.id))
        refused(await forged(h, carol, general, f"pld:review:{hidden.id}"))
        refused(await forged(h, carol, general, f"pld:log:{hidden.id}:1:prev"))

        # its players, anywhere; anyone, from inside the thread (Discord showed it to them)
        assert final_reply(await h.slash(bob, general, "projectl-games replay", game=hidden.id)).embeds
        exported = final_reply(await h.slash(bob, general, "projectl-games export", game=hidden.id))
        assert exported.ephemeral and len(exported.files) == 2
        assert final_reply(await h.slash(alice, "random", "projectl log", game=hidden.id)).embeds
        assert final_reply(await h.slash(carol, secret, "projectl-games replay")).embeds
        assert hidden.id in await choices(h, carol, secret, "projectl-games replay")
        # a public channel's game: everybody on the server, as before
        assert final_reply(await h.slash(bob, general, "projectl-games replay", game=shown.id)).embeds


def place(private: bool | None, players: frozenset[int] = frozenset({1})) -> GamePlace:
    return GamePlace(guild_id=7, channel_id=70, channel_private=private, players=players)


def test_the_rule_takes_the_safe_side_when_the_channel_is_not_known() -> None:
    outsider, inside, player = Reader(9, 7, 71), Reader(9, 7, 70), Reader(1, 7, 71)
    stranger = Reader(9, 8, 71)  # another server
    cases: list[tuple[Any, ...]] = [
        (place(False), outsider, None, True), (place(False), outsider, False, True),
        (place(False), outsider, True, False),  # made private since: private
        (place(None), outsider, False, True), (place(None), outsider, None, False),
        (place(True), outsider, False, False), (place(True), inside, None, True),
        (place(True), player, True, True), (place(False), stranger, False, False),
        (place(True), Reader(9, None, None), None, False),
    ]
    for where, reader, now, expected in cases:
        assert may_read(where, reader, now) is expected, (where, reader, now)


async def test_the_store_keeps_a_channels_privacy_on_both_backends(storage_target: str) -> None:
    storage = await Storage.open(storage_target, ManualClock(START))
    try:
        rows = []
        for channel, private in ((20, True), (21, False), (22, None)):
            row = await storage.create_game(
                guild_id=7, channel_id=channel, host_id=1, variant="base", max_players=2,
                options=TableSettings(max_players=2).to_json(),
                seed=1, seats=[NewSeat("ann", user_id=1), NewSeat("Easy AI", policy="greedy")],
                channel_private=private)
            assert row.channel_private is private
            rows.append(await storage.set_status(row.id, row.revision, "finished"))
        listed = {g.channel_id: g for g in await ReplayStore(storage).finished_games(7)}
        assert [listed[c].channel_private for c in (20, 21, 22)] == [True, False, None]
        assert listed[20].user_ids == (1,) and listed[20].names == ("ann", "Easy AI")
        places = [GamePlace.of_listed(listed[r.channel_id]) for r in rows]
        assert places == [GamePlace.of(Game.from_row(r)) for r in rows]
    finally:
        await storage.close()
