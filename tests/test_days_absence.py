"""Turn clocks and absent players through the harness: the timeout post, votes to skip or remove,
leaving an active game, handing a seat to an AI, and spectators who may look but not act."""

from __future__ import annotations

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
    forge_click,
    game_of,
    others,
    pinged_users,
    sent_json,
    start_game,
    tick,
)
from harness import ApiError, DiscordHarness, FakeMember
from test_bot_support import assert_refused, final_reply, open_table

import engine
from bot.core.clock import ManualClock


async def timed_out(h: DiscordHarness, clock: ManualClock) -> tuple[FakeMember, list[FakeMember]]:
    """Start a three-player game with a 2-day clock and let the first player's time run out."""
    await start_game(h, others=("bob", "carol"), turn_limit_days=2)
    absent = await current_user(h)
    clock.advance(days=2)
    assert await tick(h) >= 1
    return absent, await others(h, absent)


async def test_timeout_post_then_majority_votes_to_skip(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, (first_voter, second_voter) = await timed_out(h, clock)
        posts = h.channel_messages(CHANNEL)
        post = next(m for m in reversed(posts) if "time for this turn ran out" in m.content)
        assert absent.name in post.content and "2 of 2" in post.content
        assert await tick(h) == 0                                  # announced once
        skip = next(b for b in post.buttons if b.label.startswith("Vote: skip"))
        ix = await h.click(first_voter, post, skip.custom_id)
        reply = final_reply(ix)
        assert reply.ephemeral and "skip 1" in reply.content
        assert ix.responses[0].callback_type == 5  # acknowledged ("thinking…") before the vote is counted
        assert (await game_of(h)).current.user_id == absent.id     # one vote of two: nothing yet
        # The absent player cannot vote on their own turn; a spectator cannot vote at all.
        assert_refused(await h.slash(absent, CHANNEL, "projectl table vote", choice="skip"), "own turn")
        eve = h.add_user("eve")
        assert_refused(await h.slash(eve, CHANNEL, "projectl table vote", choice="skip"), "not playing")
        ix = await h.slash(second_voter, CHANNEL, "projectl table vote", choice="skip")
        assert final_reply(ix).ephemeral
        assert ix.responses[0].callback_type == 5  # the deciding vote commits: acknowledged first
        game = await game_of(h)
        assert game.current is not None and game.current.user_id != absent.id
        texts = [m.content for m in h.channel_messages(CHANNEL)]
        assert any("voted to skip" in t and f"<@{absent.id}>" in t for t in texts)
        log = await h.bot.manager.log(game.id)  # type: ignore[attr-defined]
        assert log[-1].action == "skip" and log[-1].user_id == second_voter.id
        assert await h.bot.manager.verify(game.id)  # type: ignore[attr-defined]
        # The old buttons are now for a finished turn.
        assert_refused(await h.click(first_voter, post, skip.custom_id), "already over")
        ix = await h.slash(first_voter, CHANNEL, "projectl log")
        last_line = final_reply(ix).embeds[0].description.splitlines()[-1]
        assert "⚖" in last_line and "turn was skipped" in last_line and "(table vote)" in last_line


async def test_no_timeout_post_when_no_other_human_waits(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice = h.user("alice")
        await open_table(h, alice, [], channel=CHANNEL, ai=1, turn_limit_days=1)
        assert (await current_user(h)).id == alice.id          # the AI seat never waits
        posts = len(h.channel_messages(CHANNEL))
        clock.advance(days=1)
        await tick(h)                                   # no other human waits: nothing to announce
        assert len(h.channel_messages(CHANNEL)) == posts


async def test_no_vote_once_the_absent_player_is_back(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, (voter, _) = await timed_out(h, clock)
        await act(h, absent, "level1")
        assert_refused(await h.slash(voter, CHANNEL, "projectl table vote", choice="skip"), "is back")


async def test_votes_wait_for_the_clock_and_need_a_limit(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        await start_game(h, others=("bob", "carol"), turn_limit_days=1)
        absent = await current_user(h)
        voter = (await others(h, absent))[0]
        clock.advance(hours=23)
        assert_refused(await h.slash(voter, CHANNEL, "projectl table vote", choice="remove"),
                       "still has time")
    async with days_bot(tmp_path / "other.sqlite3", clock, THREE) as h:
        await start_game(h, others=("bob", "carol"))
        absent = await current_user(h)
        voter = (await others(h, absent))[0]
        clock.advance(days=30)
        assert await tick(h) >= 0
        assert_refused(await h.slash(voter, CHANNEL, "projectl table vote", choice="skip"), "no turn clock")


async def test_majority_votes_to_remove(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, (first_voter, second_voter) = await timed_out(h, clock)
        await h.slash(first_voter, CHANNEL, "projectl table vote", choice="remove")
        await h.slash(second_voter, CHANNEL, "projectl table vote", choice="skip")  # split: no majority
        assert (await game_of(h)).current.user_id == absent.id
        await h.slash(second_voter, CHANNEL, "projectl table vote", choice="remove")  # changes their mind
        game = await game_of(h)
        seat = next(s for s in game.seats if s.user_id == absent.id)
        assert game.state is not None and game.state.players[seat.seat].removed
        assert game.state.players[seat.seat].puzzles == ()
        assert game.current is not None and game.current.user_id != absent.id
        assert (await h.bot.manager.log(game.id))[-1].action == f"remove {seat.seat + 1}"  # type: ignore[attr-defined]
        assert any("voted to remove" in m.content for m in h.channel_messages(CHANNEL))
        ix = await h.slash(absent, CHANNEL, "projectl table vote", choice="skip")
        assert_refused(ix, "out of this game")


async def test_leave_an_active_game(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        await start_game(h, others=("bob", "carol"))
        leaver = (await others(h, await current_user(h)))[0]   # not the current player
        ix = await h.slash(leaver, CHANNEL, "projectl table leave")
        confirm = final_reply(ix)
        assert confirm.ephemeral and "for good" in confirm.content
        assert (await game_of(h)).state.players[(await game_of(h)).seat_of(leaver.id).seat].removed is False
        left = await h.click(leaver, confirm.message, confirm.buttons[0].custom_id)
        assert left.responses[0].callback_type == 6  # acknowledged before the seat is removed
        game = await game_of(h)
        seat = game.seat_of(leaver.id)
        assert game.state is not None and seat is not None and game.state.players[seat.seat].removed
        assert any(f"{leaver.name} left the game" in m.content for m in h.channel_messages(CHANNEL))
        assert_refused(await h.slash(leaver, CHANNEL, "projectl table leave"), "already out of this game")
        assert await h.bot.manager.verify(game.id)  # type: ignore[attr-defined]


async def test_leave_in_the_lobby_and_by_a_stranger(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        alice, bob = h.user("alice"), h.user("bob")
        ix = await h.slash(alice, CHANNEL, "projectl table new")
        await h.click(bob, ix.original, f"pl:lobby:join:{(await game_of(h)).id}")
        left = final_reply(await h.slash(bob, CHANNEL, "projectl table leave"))
        assert left.content == "You left the table."
        assert len((await game_of(h)).seats) == 1
        assert_refused(await h.slash(h.user("carol"), CHANNEL, "projectl table leave"), "not at this table")


async def test_host_replaces_an_absent_player_by_an_ai(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice, bob = h.user("alice"), h.user("bob")
        await start_game(h)
        if (await current_user(h)).id == alice.id:       # make it Bob's turn: the AI then plays at once
            for _ in range(3):
                await act(h, alice, "level1")
        assert (await current_user(h)).id == bob.id
        assert_refused(await h.slash(bob, CHANNEL, "projectl table replace", player=alice), "only the host")
        assert_refused(await h.slash(alice, CHANNEL, "projectl table replace", player=alice), "yourself")
        eve = h.add_user("eve")
        assert_refused(await h.slash(alice, CHANNEL, "projectl table replace", player=eve), "not playing")
        ix = await h.slash(alice, CHANNEL, "projectl table replace", player=bob, ai="random")
        assert "now played by Random AI (for bob)" in final_reply(ix).content
        game = await game_of(h)
        seat = next(s for s in game.seats if s.name == "Random AI (for bob)")
        assert seat.is_ai and seat.policy == "random"
        assert game.current is not None and game.current.user_id == alice.id   # the AI played its turn
        log = await h.bot.manager.log(game.id)  # type: ignore[attr-defined]
        assert [row.user_id for row in log[-3:]] == [None, None, None]
        assert await h.bot.manager.verify(game.id)  # type: ignore[attr-defined]
        # Bob is no longer seated: his commands are refused like a spectator's.
        assert_refused(await h.slash(bob, CHANNEL, "projectl play level1"), "not playing")
        assert days(h).store is not None


async def test_spectators_may_look_but_not_act(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        eve = h.add_user("eve")
        before = await game_of(h)
        for command, options in (("projectl play level1", {}), ("projectl play act", {"text": "level1"}),
                                 ("projectl play undo", {}), ("projectl table leave", {}),
                                 ("projectl table vote", {"choice": "skip"})):
            ix = await h.slash(eve, CHANNEL, command, **options)
            assert_refused(ix, "not playing")
        assert (await game_of(h)).revision == before.revision
        ix = await h.slash(eve, CHANNEL, "projectl mat", player=h.user("bob"))
        mat = final_reply(ix)
        assert mat.ephemeral and mat.filenames == ["mat.png"]
        ix = await h.slash(eve, CHANNEL, "projectl status")
        assert final_reply(ix).filenames == ["table.png"]
        ix = await h.slash(eve, CHANNEL, "projectl log")
        assert final_reply(ix).ephemeral and final_reply(ix).embeds
        assert isinstance(engine.RemovePlayer(0), engine.RemovePlayer)


async def test_forged_days_buttons_are_refused_and_change_nothing(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        await start_game(h, others=("bob", "carol"), turn_limit_days=1)
        game = await game_of(h)
        message = h.channel_messages(CHANNEL)[-1]
        carol = h.user("carol")
        huge = "9" * 19
        for custom_id in (f"pld:vote:{huge}:1:play:0:skip", f"pld:vote:{game.id}:1:play:0:maybe",
                          "pld:vote:", f"pld:leave:{game.id}:{carol.id}:{huge}", "pld:leave:x",
                          f"pld:log:{huge}:1:next", "pld:log:1:1:sideways", "pld:nonsense", "pld:"):
            ix = await forge_click(h, carol, message, custom_id)
            reply = final_reply(ix)
            assert reply.ephemeral and reply.content, custom_id
        after = await game_of(h)
        assert after.revision == game.revision


async def test_two_votes_completing_a_majority_at_once_skip_one_turn(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, ("alice", "bob", "carol", "dave")) as h:
        await start_game(h, others=("bob", "carol", "dave"), turn_limit_days=1)
        absent = await current_user(h)
        clock.advance(days=1)
        await tick(h)
        first, second, third = await others(h, absent)
        await h.slash(first, CHANNEL, "projectl table vote", choice="skip")     # 1 of the 2 needed
        both = [await h.slash(u, CHANNEL, "projectl table vote", choice="skip", settle=False)
                for u in (second, third)]
        await h.settle()
        game = await game_of(h)
        log = await h.bot.manager.log(game.id)  # type: ignore[attr-defined]
        assert [row.action for row in log] == ["skip"]
        replies = [final_reply(ix).content for ix in both]
        assert sum("recorded" in r for r in replies) == 1, replies
        assert sum("already over" in r or "still has time" in r for r in replies) == 1, replies
        assert game.current is not None and game.current.user_id != absent.id


@pytest.mark.parametrize("back_index", [0, 1])
async def test_a_typed_vote_in_line_clear_concerns_the_holder_whose_clock_ran_out(
        tmp_path: Path, back_index: int) -> None:
    """Line Clear (two marker holders at once): `/projectl table vote` without a button is about
    the holder whose time ran out and who has not played since — not whichever holder the game
    happens to show first."""
    clock = ManualClock(START)
    five = ("alice", "bob", "carol", "dave", "erin")
    async with days_bot(tmp_path / "db.sqlite3", clock, five) as h:
        await start_game(h, others=five[1:], players=5, turn_limit_days=1, ghost=False)
        game = await game_of(h)
        assert game.state is not None and len(game.state.acting_seats) == 2
        holders = [h.user(game.seats[s].user_id) for s in game.state.acting_seats]
        back, absent = holders[back_index], holders[1 - back_index]
        clock.advance(days=1, hours=1)
        await tick(h)
        ix = await act(h, back, "level1")                      # one holder is back in time
        assert not final_reply(ix).content.startswith("Sorry"), final_reply(ix).content
        voter = next(h.user(s.user_id) for s in game.seats
                     if s.user_id not in (back.id, absent.id))
        reply = final_reply(await h.slash(voter, CHANNEL, "projectl table vote", choice="skip"))
        assert reply.ephemeral and "skip 1" in reply.content, reply.content


async def test_a_voter_who_is_next_to_move_is_pinged_and_dmed_at_once(tmp_path: Path) -> None:
    """Issue 31, item 15: the vote is a table decision, not the voter's move, so when the deciding
    voter is the next to play, the turn post pings them (allowed_mentions names them) and their
    turn DM goes out at the next tick — not 12 hours later as a nudge of a turn they "were acting"."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, voters = await timed_out(h, clock)
        game = await game_of(h)
        seat = game.seat_of(absent.id)
        assert seat is not None
        following = h.user(game.seats[(seat.seat + 1) % len(game.seats)].user_id)  # type: ignore[arg-type]
        other = next(v for v in voters if v.id != following.id)
        await h.slash(other, CHANNEL, "projectl table vote", choice="skip")
        dms_before = len(h.dms_to(following))
        await h.slash(following, CHANNEL, "projectl table vote", choice="skip")  # the deciding vote
        game = await game_of(h)
        assert game.current is not None and game.current.user_id == following.id
        post = next(m for m in reversed(h.channel_messages(CHANNEL))
                    if any(b.custom_id.startswith("plp:play:") for b in m.buttons))
        assert f"<@{following.id}>" in post.content, post.content
        assert following.id in (pinged_users(sent_json(h, post)) or set())
        assert await tick(h) >= 1  # no time passes: the DM is due at once
        dms = h.dms_to(following)[dms_before:]
        assert any(f"<#{h.channel(CHANNEL).id}>" in m.content and "Your turn" in m.content for m in dms), \
            [m.content for m in dms]


def refuse_channel_posts(h: DiscordHarness) -> None:
    """Discord refuses the bot's posts in the channel from now on (an override the interaction's
    permissions did not show, a thread locked meanwhile)."""
    def forbidden(call: object) -> None:
        raise ApiError(403, 50013, "Missing Permissions")

    h.api.add_route("POST", "/channels/{channel_id}/messages", forbidden)


def said_saved_not_unchanged(ix: object) -> str:
    """The user's last private word: it says the decision is saved, never that nothing changed."""
    reply = final_reply(ix)
    assert reply.ephemeral
    assert "nothing was changed" not in reply.content and "saved" in reply.content, reply.content
    return str(reply.content)


async def test_a_leave_discord_will_not_post_is_not_called_unchanged(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        await start_game(h, others=("bob", "carol"))
        leaver = (await others(h, await current_user(h)))[0]
        confirm = final_reply(await h.slash(leaver, CHANNEL, "projectl table leave"))
        refuse_channel_posts(h)
        said_saved_not_unchanged(await h.click(leaver, confirm.message, confirm.buttons[0].custom_id))
        game = await game_of(h)
        assert game.state is not None and game.state.players[game.seat_of(leaver.id).seat].removed


async def test_a_replacement_discord_will_not_post_is_not_called_unchanged(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice, bob = h.user("alice"), h.user("bob")
        await start_game(h)
        refuse_channel_posts(h)
        said_saved_not_unchanged(await h.slash(alice, CHANNEL, "projectl table replace", player=bob))
        assert (await game_of(h)).seat_of(bob.id) is None  # the AI has the seat


async def test_a_deciding_vote_discord_will_not_post_is_not_called_unchanged(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, (first_voter, second_voter) = await timed_out(h, clock)
        await h.slash(first_voter, CHANNEL, "projectl table vote", choice="skip")
        refuse_channel_posts(h)
        said_saved_not_unchanged(await h.slash(second_voter, CHANNEL, "projectl table vote", choice="skip"))
        assert (await game_of(h)).current.user_id != absent.id  # the turn was skipped


@pytest.mark.parametrize("how", ["leave", "replace"])
async def test_a_vote_that_becomes_a_majority_when_a_voter_goes_decides(tmp_path: Path, how: str) -> None:
    """Three players, the first's time ran out: one voter votes to remove (1 of the 2 needed),
    then the other voter leaves (or the host hands their seat to an AI). The vote on record is now
    a majority of the voters left (1 of 1): it decides then, as it would have had it been cast
    then; it used to stand unapplied, the game waiting on the absent player for nobody knew what."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        absent, voters = await timed_out(h, clock)
        host = h.user("alice")
        if how == "replace" and host.id in (v.id for v in voters):
            voter, goer = host, next(v for v in voters if v.id != host.id)
        else:
            voter, goer = (voters[0], voters[1]) if voters[1].id != host.id else (voters[1], voters[0])
        reply = final_reply(await h.slash(voter, CHANNEL, "projectl table vote", choice="remove"))
        assert reply.content.endswith("2 needed."), reply.content
        game_id = (await game_of(h)).id
        if how == "leave":
            confirm = final_reply(await h.slash(goer, CHANNEL, "projectl table leave"))
            await h.click(goer, confirm.message, confirm.buttons[0].custom_id)
        else:
            await h.slash(host, CHANNEL, "projectl table replace", player=goer)
        game = await h.bot.manager.game(game_id)  # type: ignore[attr-defined]
        seat = game.seat_of(absent.id)           # (with two players left after a leave, it is over)
        assert game.state is not None and seat is not None and game.state.players[seat.seat].removed
        posts = [m.content for m in h.channel_messages(CHANNEL)]
        assert any(f"The table voted to remove <@{absent.id}>" in p for p in posts), posts
        assert any("voted to remove you" in m.content for m in h.dms_to(absent))
