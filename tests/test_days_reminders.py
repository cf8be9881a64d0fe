"""Turn reminders through the offline Discord harness, on a ManualClock: one DM per turn (none
while acting), nudges at the player's interval, quiet hours, vacation, reminders off, closed DMs,
and a restart on the same database file."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from days_support import (
    CHANNEL,
    START,
    act,
    current_user,
    days,
    days_bot,
    finish_turn,
    game_of,
    start_game,
    tick,
    world_ids,
)
from test_bot_support import final_reply

from bot.core.clock import ManualClock
from bot.core.storage.days import TurnKey


async def test_one_dm_per_turn_with_mat_and_jump_link(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        game = await start_game(h)
        first = await current_user(h)
        other = next(u for u in (h.user("alice"), h.user("bob")) if u.id != first.id)
        assert await tick(h) == 0                      # a minute's grace: the player may be watching
        clock.advance(minutes=1)
        assert await tick(h) == 1
        [dm] = h.dms_to(first)
        assert dm.content.startswith(f"Your turn in <#{game.channel_id}> — round 1, 3 actions.")
        table = h.channel_messages(CHANNEL)[-1]
        assert f"/{h.world.guild_id}/{game.channel_id}/{table.id}" in dm.content   # jump link
        assert dm.filenames == ["mat.png"]
        assert await tick(h) == 0                      # once per turn
        # Acting does not DM anyone; the turn passes, the other player gets theirs.
        await act(h, first, "level1")
        clock.advance(minutes=5)
        assert await tick(h) == 0
        await act(h, first, "level1")
        await act(h, first, "level1")
        assert h.dms_to(other) == []
        clock.advance(minutes=1)
        assert await tick(h) == 1
        assert len(h.dms_to(other)) == 1 and len(h.dms_to(first)) == 1


async def test_no_dm_while_acting_and_nudges_every_interval(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        await act(h, first, "level1")                  # within the grace: they are here
        clock.advance(minutes=2)
        assert await tick(h) == 0 and h.dms_to(first) == []
        clock.advance(hours=11, minutes=57)            # 11:59 after their action: not yet
        assert await tick(h) == 0
        clock.advance(minutes=1)                       # 12 h without a move: one nudge
        assert await tick(h) == 1
        [nudge] = h.dms_to(first)
        assert nudge.content.startswith("Still your turn in")
        clock.advance(hours=6)
        assert await tick(h) == 0                      # at most one per interval
        clock.advance(hours=6)
        assert await tick(h) == 1
        await act(h, first, "level1")
        await act(h, first, "level1")                  # turn over: no more nudges for them
        clock.advance(days=3)
        await tick(h)
        assert len(h.dms_to(first)) == 2


async def test_custom_interval_and_reminders_off(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        other = next(u for u in (h.user("alice"), h.user("bob")) if u.id != first.id)
        ix = await h.slash(first, CHANNEL, "projectl settings", interval_hours=2)
        assert final_reply(ix).ephemeral and "every 2 h" in final_reply(ix).content
        await h.slash(other, CHANNEL, "projectl settings", reminders=False)
        clock.advance(minutes=1)
        assert await tick(h) == 1
        clock.advance(hours=2)
        assert await tick(h) == 1
        assert len(h.dms_to(first)) == 2
        await finish_turn(h)
        clock.advance(days=2)
        assert await tick(h) == 0 and h.dms_to(other) == []


async def test_quiet_hours_delay_the_dm_to_their_end(tmp_path: Path) -> None:
    clock = ManualClock(START.replace(hour=21, minute=30))   # 22:30 in Paris (UTC+1 in January)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        for name in ("alice", "bob"):
            ix = await h.slash(h.user(name), CHANNEL, "projectl settings", quiet_hours="22:00-07:00",
                               timezone="Europe/Paris")
            assert "22:00–07:00 (Europe/Paris)" in final_reply(ix).content
        await start_game(h)
        first = await current_user(h)
        clock.advance(minutes=1)
        assert await tick(h) == 0
        clock.set(START.replace(hour=5, minute=59) .replace(day=2))  # 06:59 Paris
        assert await tick(h) == 0 and h.dms_to(first) == []
        clock.advance(minutes=1)                                      # 07:00 Paris
        assert await tick(h) == 1 and len(h.dms_to(first)) == 1


async def test_vacation_until_a_date(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        for name in ("alice", "bob"):
            await h.slash(h.user(name), CHANNEL, "projectl settings", vacation_until="2024-01-04")
        await start_game(h)
        first = await current_user(h)
        clock.advance(days=2)
        assert await tick(h) == 0 and h.dms_to(first) == []
        clock.set(START.replace(day=4, hour=0))                       # back: first DM, once
        assert await tick(h) == 1 and await tick(h) == 0
        assert h.dms_to(first)[0].content.startswith("Your turn")


async def test_bad_settings_change_nothing(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice = h.user("alice")
        for options, fragment in (
            ({"quiet_hours": "late"}, "22:00-07:00"),
            ({"timezone": "Mars/Olympus"}, "time zone"),
            ({"vacation_until": "2023-12-25"}, "after today"),
            ({"vacation_until": "next week"}, "YYYY-MM-DD"),
            ({"interval_hours": 3, "timezone": "Nowhere"}, "time zone"),
        ):
            ix = await h.slash(alice, CHANNEL, "projectl settings", **options)
            reply = final_reply(ix)
            assert reply.ephemeral and fragment.lower() in reply.content.lower(), reply.content
        prefs = await days(h).store.get_prefs(alice.id)
        assert prefs.interval.total_seconds() == 12 * 3600 and prefs.timezone == "UTC"
        choices = await h.autocomplete(alice, CHANNEL, "projectl settings", focused="timezone",
                                       timezone="paris")
        assert [c.value for c in choices] == ["Europe/Paris"]


async def test_closed_dms_fall_back_to_one_channel_mention(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        h.close_dms(first)
        posts = len(h.channel_messages(CHANNEL))
        clock.advance(minutes=1)
        assert await tick(h) == 1
        fallback = h.channel_messages(CHANNEL)[posts:]
        assert len(fallback) == 1 and f"<@{first.id}>" in fallback[0].content
        assert "couldn't send you a direct message" in fallback[0].content
        assert (await days(h).store.get_prefs(first.id)).dms_closed
        dm_attempts = len(h.calls_to("POST", "/channels/{channel_id}/messages"))
        for _ in range(4):                      # nudges in the same turn: no retry, no second mention
            clock.advance(hours=12)
            assert await tick(h) == 0
        assert len(h.calls_to("POST", "/channels/{channel_id}/messages")) == dm_attempts
        assert len(h.channel_messages(CHANNEL)) == posts + 1
        # Changing settings re-enables DMs; with DMs open again the next nudge arrives privately.
        h.open_dms(first)
        await h.slash(first, CHANNEL, "projectl settings", interval_hours=12)
        assert not (await days(h).store.get_prefs(first.id)).dms_closed
        clock.advance(hours=12)
        assert await tick(h) == 1
        assert h.dms_to(first)[-1].content.startswith("Still your turn")


async def test_flagged_player_one_dm_try_per_turn_then_dms_again(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        await days(h).store.set_dms_closed(first.id, True)      # a 403 in an earlier game
        h.close_dms(first)
        posts = len(h.channel_messages(CHANNEL))
        clock.advance(minutes=1)
        assert await tick(h) == 0          # turn start: the turn post already pinged them, no DM try
        attempts = len(h.calls_to("POST", "/channels/{channel_id}/messages"))
        clock.advance(hours=12)
        assert await tick(h) == 1          # first nudge: one DM try (403), then one channel mention
        assert len(h.calls_to("POST", "/channels/{channel_id}/messages")) == attempts + 2
        clock.advance(hours=12)
        assert await tick(h) == 0          # nothing more this turn, not even a DM try
        assert len(h.calls_to("POST", "/channels/{channel_id}/messages")) == attempts + 2
        assert len(h.channel_messages(CHANNEL)) == posts + 1
        # They open their DMs again: the first nudge of their next turn goes through and the flag
        # is cleared, with no settings change needed.
        await finish_turn(h)
        await finish_turn(h)
        h.open_dms(first)
        clock.advance(minutes=1)
        assert await tick(h) == 0          # their new turn starts: still no DM try at the start
        clock.advance(hours=12)
        assert await tick(h) == 1
        assert h.dms_to(first)[-1].content.startswith("Still your turn")
        assert not (await days(h).store.get_prefs(first.id)).dms_closed


async def test_restart_sends_due_reminders_once_and_none_twice(tmp_path: Path) -> None:
    clock = ManualClock(START)
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        first = await current_user(h)
        clock.advance(minutes=1)
        assert await tick(h) == 1               # the turn DM, before the "crash"
        ids = world_ids(h)
    clock.advance(hours=13)                     # the bot is down when the nudge falls due
    async with days_bot(path, clock, ids=ids) as h2:
        assert await tick(h2) == 1               # due reminders go out once after the restart...
        assert await tick(h2) == 0               # ...and never twice
        [nudge] = h2.dms_to(first.name)
        assert nudge.content.startswith("Still your turn")
        key = TurnKey(game.id, 1, "play", game.current.seat)  # type: ignore[union-attr]
        row = await days(h2).store.get_turn(key)
        assert row is not None and row.sent_count == 2
    async with days_bot(path, clock, ids=ids) as h3:  # a third start: nothing is due
        assert await tick(h3) == 0
        assert (await game_of(h3)).id == game.id


async def test_claimed_reminder_is_not_resent_after_a_crash(tmp_path: Path) -> None:
    """The crash window: a reminder claimed in the DB but never sent is lost, never doubled."""
    clock = ManualClock(START)
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        await start_game(h)
        first = await current_user(h)
        clock.advance(minutes=1)
        store = days(h).store
        [row] = await store.due_turns(clock.now())
        assert await store.claim_reminder(row, clock.now(), None)       # claimed, then "crash"
        assert not await store.claim_reminder(row, clock.now(), None)   # a racing worker loses
        ids = world_ids(h)
    async with days_bot(path, clock, ids=ids) as h2:
        assert await tick(h2) == 0 and h2.dms_to(first.name) == []


async def test_solo_player_is_not_dmed_between_their_own_turns(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice = h.user("alice")
        await h.slash(alice, CHANNEL, "projectl table new", variant="solo")
        clock.advance(minutes=1)
        assert await tick(h) == 1               # the game started: one DM
        for _ in range(3):
            await act(h, alice, "level1")        # turn 1 ends, turn 2 is hers again at once
        clock.advance(minutes=5)
        assert await tick(h) == 0 and len(h.dms_to(alice)) == 1


async def test_a_reminder_reads_the_players_preferences_once(tmp_path: Path) -> None:
    """Planning, language and delivery of one DM share one read of the player's preferences."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        store = days(h).store
        reads: list[int] = []
        read = store.get_prefs

        async def counted(user_id: int) -> object:
            reads.append(user_id)
            return await read(user_id)

        store.get_prefs = counted  # type: ignore[method-assign]  # counting the reads of one tick
        clock.advance(minutes=1)
        assert await tick(h) == 1
        assert len(h.dms_to(first)) == 1
        assert reads == [first.id]


async def test_a_vacation_past_a_year_is_refused_and_cannot_stop_the_turn_clock(tmp_path: Path) -> None:
    """``vacation_until:9999-12-31`` was saved; then no reminder time could be computed (past the
    year 9999), so the player's turn row, and with it the table's turn clock, never opened. Now it
    is refused and nothing is saved."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        alice = h.user("alice")
        for far in ("9999-12-31", "2025-01-02"):
            reply = final_reply(await h.slash(alice, CHANNEL, "projectl settings", vacation_until=far,
                                              quiet_hours="23:00-23:30", timezone="Etc/GMT+12"))
            assert reply.ephemeral and "a year" in reply.content, reply.content
        assert (await days(h).store.get_prefs(alice.id)).vacation_until is None
        reply = final_reply(await h.slash(alice, CHANNEL, "projectl settings", vacation_until="2025-01-01"))
        assert "2025-01-01" in reply.content  # a year from today is still fine


async def test_both_line_clear_holders_get_their_turn_dm_clock_and_inbox(tmp_path: Path) -> None:
    """Line Clear: two marker holders start their turns together, each with their own turn row.
    Opening the second holder's row closed the first's, so the first holder was never DMed, their
    clock never ran out and their inbox said nothing waited for them; and a holder whose turn was
    over while the other played on still read "your move" in their inbox."""
    clock = ManualClock(START)
    five = ("alice", "bob", "carol", "dave", "erin")
    async with days_bot(tmp_path / "db.sqlite3", clock, five) as h:
        await start_game(h, others=five[1:], players=5, turn_limit_days=1, ghost=False)
        game = await game_of(h)
        assert game.state is not None
        first, second = (h.user(game.seats[s].user_id) for s in game.state.acting_seats)
        clock.advance(minutes=1)
        assert await tick(h) == 2
        for holder in (first, second):
            [dm] = h.dms_to(holder)
            assert dm.content.startswith(f"Your turn in <#{game.channel_id}>"), dm.content
            mine = final_reply(await h.slash(holder, CHANNEL, "projectl-games mine")).content
            assert mine.partition("Waiting on others")[0].count(f"Game {game.id}]") == 1, mine
        for _ in range(3):                                   # the second holder plays their turn
            ix = await act(h, second, "level1")
            assert not final_reply(ix).content.startswith("Sorry"), final_reply(ix).content
        mine = final_reply(await h.slash(second, CHANNEL, "projectl-games mine")).content
        assert "No game on this server is waiting for you." in mine, mine
        assert f"<@{first.id}>'s move" in mine, mine
        clock.advance(days=1)
        await tick(h)
        timed_out = [m.content for m in h.channel_messages(CHANNEL) if m.content.startswith("⏰")]
        assert len(timed_out) == 1 and timed_out[0].startswith(f"⏰ {first.name}'s time"), timed_out
        assert any("ran out" in m.content for m in h.dms_to(first))
        assert not any("ran out" in m.content for m in h.dms_to(second))


async def test_an_action_and_its_reminder_rows_cost_the_fewest_storage_jobs(tmp_path: Path) -> None:
    """Each storage job is a hop to the connection's thread and back, which a player waits for
    (milliseconds whenever the machine's cores are busy: bench/latency.py's tail). A mid-turn
    action is two (the game's load; its commit, the reminder pushed back inside it), a turn end
    three (the next seat's plan read inside the commit too; then the new turn's row, with the
    player's settings and the turn clock read in the same job) — and the rows are what the
    reminders need."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        manager = h.bot.manager  # type: ignore[attr-defined]
        storage = manager.storage
        jobs: list[str] = []
        job = storage.job

        async def counted(work: Any) -> Any:
            jobs.append(getattr(work, "__qualname__", ""))
            return await job(work)

        storage.job = counted
        channel = h.channel(CHANNEL).id
        clock.advance(minutes=5)
        await manager.act(channel, first.id, "level1")
        assert len(jobs) == 2, jobs
        mid_turn = await days(h).store.open_turn_of((await game_of(h)).id)
        assert mid_turn is not None and mid_turn.last_acted_at == clock.now()
        assert mid_turn.due_at == clock.now() + timedelta(hours=12)  # pushed back by the action
        jobs.clear()
        game = await game_of(h)
        assert game.state is not None
        while game.current is not None and game.current.user_id == first.id:
            jobs.clear()
            game = (await manager.act(channel, first.id, "level1")).game
        assert len(jobs) == 3, jobs
        turn = await days(h).store.open_turn_of(game.id)
        assert turn is not None and turn.user_id != first.id and turn.started_at == clock.now()
        assert turn.due_at == clock.now() + timedelta(minutes=1) and turn.deadline_at is None
