"""The turn clock reaches the people it concerns (issue 16), checked on what Discord receives:
the absent player is told (DM, or one channel mention when DMs are closed), the time-is-up post
pings exactly the players who may vote, a decision pings and DMs the player concerned and a
removal reads as a removal, reminders after the deadline say it ran out, and the lobby, the start
post and ``/projectl status`` show the clock.

Each test gets the same bot (``h``: alice, bob and carol, on ``clock`` set to ``START``); most play
at ``table``, the three of them on a one-day turn clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from days_support import (
    CHANNEL,
    START,
    THREE,
    act,
    current_user,
    days,
    days_bot,
    game_of,
    others,
    pinged_users,
    sent_json,
    start_game,
    tick,
    world_ids,
)
from harness import DiscordHarness, FakeMember
from test_bot_support import assert_refused, final_reply, open_table, replies

from bot.core.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def h(tmp_path: Path, clock: ManualClock) -> AsyncIterator[DiscordHarness]:
    """A bot on ``clock`` with alice, bob and carol (nobody seated yet)."""
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as harness:
        yield harness


@dataclass(frozen=True)
class ClockedTable:
    absent: FakeMember
    """The player to move: the tests let their clock run out."""
    voters: list[FakeMember]
    """The two other players, who may vote on the absent one."""


@pytest.fixture
async def table(h: DiscordHarness) -> ClockedTable:
    """alice, bob and carol playing on a one-day turn clock, nobody's time run out yet."""
    await start_game(h, others=("bob", "carol"), turn_limit_days=1)
    absent = await current_user(h)
    return ClockedTable(absent, await others(h, absent))


def dm_posts(h: DiscordHarness) -> int:
    """How many messages the bot tried to send in DM channels (sent or refused with 403)."""
    dm_ids = {c.id for c in h.world.channels.values() if c.guild_id is None}
    return sum(1 for c in h.calls_to("POST", "/channels/{channel_id}/messages")
               if c.params.get("channel_id") in dm_ids)


async def test_time_is_up_dms_the_absent_player_and_pings_exactly_the_voters(
    h: DiscordHarness, clock: ManualClock,
) -> None:
    h.add_user("eve")
    await open_table(h, h.user("alice"), [h.user("bob"), h.user("carol")], channel=CHANNEL, ai=1,
                     turn_limit_days=2)
    absent = await current_user(h)
    voters = await others(h, absent)
    assert len(voters) == 2                                   # the AI seat and eve do not vote
    posts = len(h.channel_messages(CHANNEL))
    clock.advance(days=2)
    await tick(h)
    [post] = [m for m in h.channel_messages(CHANNEL)[posts:] if "ran out" in m.content]
    assert all(f"<@{v.id}>" in post.content for v in voters)
    assert f"<@{absent.id}>" not in post.content and absent.name in post.content
    assert "2 days per turn" in post.content and "2 of 2" in post.content
    assert pinged_users(sent_json(h, post)) == {v.id for v in voters}
    dm = h.dms_to(absent)[-1]
    assert dm.content.startswith("⏰ Your time for this turn")
    assert "skip your turn or remove you" in dm.content and "play now" in dm.content
    assert f"/{h.world.guild_id}/" in dm.content                # jump link back to the table
    for user in (*voters, h.user("eve")):
        assert not any("ran out" in m.content for m in h.dms_to(user))
    told = len(h.dms_to(absent))
    clock.advance(hours=1)
    assert await tick(h) == 0                                 # once per turn
    assert len(h.dms_to(absent)) == told


async def test_time_is_up_falls_back_to_one_channel_mention_when_dms_are_closed(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    absent = table.absent
    h.close_dms(absent)
    clock.advance(minutes=1)
    await tick(h)                                             # turn DM refused: flagged, one mention
    assert (await days(h).store.get_prefs(absent.id)).dms_closed
    posts, attempts = len(h.channel_messages(CHANNEL)), dm_posts(h)
    clock.advance(days=1)
    await tick(h)
    new = h.channel_messages(CHANNEL)[posts:]
    [fallback] = [m for m in new if m.content.startswith(f"<@{absent.id}>, your time")]
    assert "skip your turn or remove you" in fallback.content and "play now" in fallback.content
    assert pinged_users(sent_json(h, fallback)) == {absent.id}
    assert dm_posts(h) == attempts        # flagged as closed: straight to the channel, no DM try
    assert h.dms_to(absent) == []


async def test_time_is_up_mentions_once_when_dms_are_closed_but_not_yet_known(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    absent = table.absent
    await act(h, absent, "level1")                            # acting: no turn DM is tried
    h.close_dms(absent)
    posts = len(h.channel_messages(CHANNEL))
    clock.advance(days=1)
    await tick(h)
    mentions = [m for m in h.channel_messages(CHANNEL)[posts:] if m.content.startswith(f"<@{absent.id}>")]
    assert len(mentions) == 1 and "your time for this turn ran out" in mentions[0].content
    assert (await days(h).store.get_prefs(absent.id)).dms_closed


@pytest.mark.parametrize("reminders", [True, False])
async def test_time_is_up_waits_for_the_end_of_quiet_hours_and_goes_once_from_two_processes(
    tmp_path: Path, clock: ManualClock, reminders: bool,
) -> None:
    """The absent player's time runs out at 12:00 UTC, inside their quiet hours (11:00-15:00): the
    voters are told at once, the player is DMed at 15:00 — with their reminders off too, since it
    concerns their seat — and once, though two bot processes tick over the same database."""
    path = tmp_path / "shared.sqlite3"
    async with days_bot(path, clock, THREE) as h1:
        await start_game(h1, others=("bob", "carol"), turn_limit_days=1)
        absent = await current_user(h1)
        await h1.slash(absent, CHANNEL, "projectl settings", quiet_hours="11:00-15:00", timezone="UTC",
                       reminders=reminders)
        async with days_bot(path, clock, THREE, ids=world_ids(h1)) as h2:
            def told() -> list[str]:
                return [m.content for h in (h1, h2) for m in h.dms_to(h.user(absent.name))
                        if m.content.startswith("⏰")]

            clock.advance(days=1)                                  # 12:00: the clock runs out
            await asyncio.gather(tick(h1), tick(h2))
            assert len([m for h in (h1, h2) for m in h.channel_messages(CHANNEL)
                        if "ran out" in m.content]) == 1           # the voters are told now
            assert told() == []                                    # the absent player is asleep
            clock.set(START + timedelta(days=1, hours=2, minutes=59))
            await asyncio.gather(tick(h1), tick(h2))
            assert told() == []
            clock.advance(minutes=1)                               # 15:00: quiet hours are over
            await asyncio.gather(tick(h1), tick(h2))
            [dm] = told()
            assert "skip your turn or remove you" in dm and "play now" in dm
            clock.advance(hours=1)
            await asyncio.gather(tick(h1), tick(h2))
            assert len(told()) == 1


async def test_a_time_is_up_dm_held_through_quiet_hours_is_dropped_once_the_player_has_played(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    """Held till morning, "play now to keep your seat" would be false once the player has played
    (at 13:00, in their quiet hours): it is not sent."""
    absent = table.absent
    await h.slash(absent, CHANNEL, "projectl settings", quiet_hours="11:00-15:00", timezone="UTC")
    clock.advance(days=1)
    await tick(h)
    clock.advance(hours=1)
    await act(h, absent, "level1")
    clock.advance(hours=3)
    await tick(h)
    assert not any(m.content.startswith("⏰") for m in h.dms_to(absent))
    assert await days(h).reminders.held.of_user(absent.id) == []


async def test_a_vote_to_skip_pings_and_dms_the_player(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    absent, (first, second) = table.absent, table.voters
    clock.advance(days=1)
    await tick(h)
    told = len(h.dms_to(absent))
    await h.slash(first, CHANNEL, "projectl table vote", choice="skip")
    await h.slash(second, CHANNEL, "projectl table vote", choice="skip")
    [post] = [m for m in h.channel_messages(CHANNEL) if m.content.startswith("The table voted")]
    assert post.content == f"The table voted to skip <@{absent.id}>'s turn."
    assert pinged_users(sent_json(h, post)) == {absent.id}
    [dm] = h.dms_to(absent)[told:]
    assert "voted to skip your turn" in dm.content and f"<#{h.channel(CHANNEL).id}>" in dm.content
    turn_post = h.channel_messages(CHANNEL)[-1]
    assert turn_post.content.startswith(f"⚖ {absent.name}'s turn was skipped. (table vote)")
    assert f"**{absent.name}**: `skip`" not in turn_post.content   # not shown as their own move


async def test_a_vote_to_remove_is_worded_as_a_removal_and_reaches_the_player(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    vic, (first, second) = table.absent, table.voters
    clock.advance(days=1)
    await tick(h)
    told = len(h.dms_to(vic))
    await h.slash(first, CHANNEL, "projectl table vote", choice="remove")
    ix = await h.slash(second, CHANNEL, "projectl table vote", choice="remove")
    assert final_reply(ix).ephemeral
    channel = [m.content for m in h.channel_messages(CHANNEL)]
    [post] = [m for m in h.channel_messages(CHANNEL) if m.content.startswith("The table voted")]
    assert post.content == f"The table voted to remove <@{vic.id}> from the game."
    assert pinged_users(sent_json(h, post)) == {vic.id}
    assert not any(f"{vic.name} left the game" in text for text in channel)
    assert any(f"⚖ {vic.name} was removed from the game; their pieces went back to the reserve" in text
               and "(table vote)" in text for text in channel)
    [dm] = h.dms_to(vic)[told:]
    assert "voted to remove you from the game" in dm.content and "cannot win" in dm.content
    ix = await h.slash(first, CHANNEL, "projectl log")
    last = final_reply(ix).embeds[0].description.splitlines()[-1]
    assert f"{vic.name} was removed from the game" in last and "(table vote)" in last
    assert "left the game" not in last


async def test_a_decision_for_a_player_with_closed_dms_pings_them_once(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    absent, (first, second) = table.absent, table.voters
    await act(h, absent, "level1")
    clock.advance(days=1)
    await tick(h)
    h.close_dms(absent)                        # closed after the time-is-up DM went through
    posts = len(h.channel_messages(CHANNEL))
    await h.slash(first, CHANNEL, "projectl table vote", choice="skip")
    await h.slash(second, CHANNEL, "projectl table vote", choice="skip")
    pings = [m for m in h.channel_messages(CHANNEL)[posts:] if f"<@{absent.id}>" in m.content]
    assert [m.content for m in pings] == [f"The table voted to skip <@{absent.id}>'s turn."]
    assert (await days(h).store.get_prefs(absent.id)).dms_closed


async def test_reminders_after_the_deadline_say_the_clock_ran_out(
    h: DiscordHarness, clock: ManualClock, table: ClockedTable,
) -> None:
    absent = table.absent
    deadline = int((START + timedelta(days=1)).timestamp())
    clock.advance(minutes=1)
    await tick(h)
    [first] = h.dms_to(absent)
    assert f"The table's turn clock runs out <t:{deadline}:R>." in first.content
    clock.set(START + timedelta(days=1))
    await tick(h)                               # the time-is-up DM counts as this turn's nudge
    told = len(h.dms_to(absent))
    clock.advance(hours=11, minutes=59)
    assert await tick(h) == 0 and len(h.dms_to(absent)) == told
    clock.advance(minutes=1)
    assert await tick(h) == 1
    nudge = h.dms_to(absent)[-1]
    assert nudge.content.startswith("Still your turn")
    assert (f"Your turn clock ran out <t:{deadline}:R>; the table can vote to skip your turn or "
            "remove you.") in nudge.content
    assert "runs out" not in nudge.content
    await act(h, absent, "level1")              # back: they keep their seat, no vote
    clock.advance(hours=12)
    assert await tick(h) == 1
    back = h.dms_to(absent)[-1]
    assert "you have played since: no vote" in back.content and "can vote" not in back.content


async def test_reminders_leave_out_a_clock_nobody_can_vote_on(h: DiscordHarness, clock: ManualClock) -> None:
    alice = h.user("alice")
    await open_table(h, alice, [], channel=CHANNEL, ai=1, turn_limit_days=1)
    clock.advance(minutes=1)
    assert await tick(h) == 1
    clock.advance(days=2)
    await tick(h)
    assert h.dms_to(alice) and all("clock" not in m.content for m in h.dms_to(alice))


async def test_lobby_start_post_and_status_show_the_turn_clock(h: DiscordHarness, clock: ManualClock) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    ix = await h.slash(alice, CHANNEL, "projectl table new", turn_limit_days=1)
    lobby = ix.original
    assert lobby is not None and not lobby.ephemeral
    assert "Turn clock: 1 day per turn" in lobby.content
    [confirmation] = [r for r in replies(ix) if r.ephemeral]
    assert confirmation.content.startswith("Turn clock: 1 day per turn.")
    assert "vote to skip" in confirmation.content
    game = await game_of(h)
    await h.click(bob, lobby, f"pl:lobby:join:{game.id}")
    assert "Turn clock: 1 day per turn" in h.message(lobby.id).content     # still there after a join
    lobby_status = final_reply(await h.slash(bob, CHANNEL, "projectl status")).content
    assert "Turn clock: 1 day per turn" in lobby_status
    await h.click(alice, h.message(lobby.id), f"pl:lobby:start:{game.id}")
    started = h.message(lobby.id).content
    assert started.startswith("The game has started!") and "Turn clock: 1 day per turn" in started
    absent = await current_user(h)
    deadline = int((START + timedelta(days=1)).timestamp())
    status = final_reply(await h.slash(bob, CHANNEL, "projectl status")).content
    assert f"Turn clock: 1 day per turn · {absent.name}'s time runs out <t:{deadline}:R>" in status
    clock.advance(days=1, minutes=1)
    status = final_reply(await h.slash(bob, CHANNEL, "projectl status")).content
    assert f"{absent.name}'s time ran out <t:{deadline}:R>: the other players may vote" in status


async def test_a_clock_of_several_days_is_said_in_days(h: DiscordHarness) -> None:
    ix = await h.slash(h.user("alice"), CHANNEL, "projectl table new", turn_limit_days=3)
    assert "Turn clock: 3 days per turn" in ix.original.content
    assert final_reply(ix).content.startswith("Turn clock: 3 days per turn.")


async def test_a_table_without_a_clock_says_so_in_the_lobby_only(h: DiscordHarness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    ix = await h.slash(alice, CHANNEL, "projectl table new")
    assert "Turn clock: none" in ix.original.content
    assert [r for r in replies(ix) if r.ephemeral] == []
    game = await game_of(h)
    await h.click(bob, ix.original, f"pl:lobby:join:{game.id}")
    await h.click(alice, h.message(ix.original.id), f"pl:lobby:start:{game.id}")
    assert "Turn clock" not in h.message(ix.original.id).content
    assert "Turn clock" not in final_reply(await h.slash(bob, CHANNEL, "projectl status")).content


async def test_solo_refuses_a_turn_clock_and_creates_nothing(h: DiscordHarness) -> None:
    alice = h.user("alice")
    ix = await h.slash(alice, CHANNEL, "projectl table new", variant="solo", turn_limit_days=2)
    assert_refused(ix, "Solo", "turn_limit_days")
    assert await h.bot.manager.game_in_channel(h.channel(CHANNEL).id) is None  # type: ignore[attr-defined]


async def test_the_final_summary_tells_a_removal_from_leaving(h: DiscordHarness, clock: ManualClock) -> None:
    game = await start_game(h, turn_limit_days=1)
    vic = await current_user(h)
    [voter] = await others(h, vic)
    clock.advance(days=1)
    await tick(h)
    await h.slash(voter, CHANNEL, "projectl table vote", choice="remove")   # 1 of 1 decides
    game = await h.bot.manager.game(game.id)  # type: ignore[attr-defined]
    assert game.status == "finished"           # one player left, with nothing to place: over
    ix = await h.slash(voter, CHANNEL, "projectl log")
    page, summary = final_reply(ix).embeds
    assert f"**{vic.name}**: removed by a table vote — completed none" in summary.description
    assert "left the game" not in summary.description
    ix = await h.slash(vic, CHANNEL, "projectl table vote", choice="skip")
    assert_refused(ix, "no Project L game")
