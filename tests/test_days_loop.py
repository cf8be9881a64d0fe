"""The production reminder loop itself (the ``discord.ext.tasks`` loop the bot starts, not only
``tick()``): it first ticks once the bot is ready, outlives a tick that raises (logged, the next
tick runs), stops when the bot closes, and two bot processes over one SQLite file never send the
same reminder or time-is-up post twice.

The loops run at a fast pace (``reminder_tick_seconds``) on a ManualClock: real time only paces
the ticks, the clock decides what is due. Waits poll for an outcome with a generous timeout, so
a slow machine makes them slower, never flaky."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from days_support import START, current_user, days, days_bot, game_of, start_game, world_ids
from test_bot_support import open_table

from bot.core.clock import ManualClock
from bot.discord.reminders import ReminderScheduler

PACE = 0.02
"""Seconds between ticks in these tests (production: 60)."""


async def eventually(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait (real time) until ``condition()`` holds; fail naming ``what`` after ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for: {what}")
        await asyncio.sleep(PACE / 2)


class TickLog:
    """Wraps :meth:`ReminderScheduler.tick` for every scheduler: records which scheduler ticked and
    whether its bot was ready, and raises once when asked to (a bad row, a database hiccup)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ticks: list[tuple[ReminderScheduler, bool]] = []
        self.fail_next = False
        original = ReminderScheduler.tick
        log = self

        async def tick(scheduler: ReminderScheduler) -> int:
            log.ticks.append((scheduler, scheduler.bot.is_ready()))
            if log.fail_next:
                log.fail_next = False
                raise RuntimeError("tick exploded")
            return await original(scheduler)

        monkeypatch.setattr(ReminderScheduler, "tick", tick)

    def count(self, scheduler: ReminderScheduler | None = None) -> int:
        return sum(1 for s, _ in self.ticks if scheduler is None or s is scheduler)


async def test_loop_starts_on_ready_survives_a_failing_tick_and_stops_on_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = ManualClock(START)
    ticks = TickLog(monkeypatch)
    async with days_bot(tmp_path / "db.sqlite3", clock, reminder_tick_seconds=PACE) as h:
        scheduler = days(h).reminders
        assert scheduler.running
        await eventually(lambda: ticks.count() >= 3, "the loop to tick")
        assert all(ready for _, ready in ticks.ticks)              # never before the bot was ready
        await start_game(h)
        first = await current_user(h)
        with h.expect_errors() as errors:
            ticks.fail_next = True
            await eventually(lambda: not ticks.fail_next, "the failing tick")
        [error] = errors
        assert error.message == "reminder tick failed" and isinstance(error.exception, RuntimeError)
        assert scheduler.running                                   # the loop outlived it
        clock.advance(minutes=1)                                   # the turn DM falls due
        await eventually(lambda: len(h.dms_to(first)) == 1, "the next tick to send the turn DM")
        task = scheduler._loop.get_task() if scheduler._loop else None  # noqa: SLF001
        assert task is not None
        await h.bot.close()                                        # shutdown: the loop stops with it
        assert not scheduler.running and task.done()
        stopped_at = ticks.count()
        clock.advance(hours=12)                                    # a nudge is due, nobody sends it
        await asyncio.sleep(PACE * 10)
        assert ticks.count() == stopped_at and len(h.dms_to(first)) == 1


async def test_two_bot_processes_on_one_database_send_each_reminder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A restarted bot while the old one still runs, or two instances by mistake: both loops tick
    over the same rows; the conditional UPDATE that claims a row lets exactly one of them send."""
    clock = ManualClock(START)
    ticks = TickLog(monkeypatch)
    path = tmp_path / "db.sqlite3"
    users = ("alice", "bob", "carol")
    async with days_bot(path, clock, users, reminder_tick_seconds=PACE) as h1:
        alice, bob, carol = (h1.user(n) for n in users)
        await open_table(h1, alice, [bob], channel="general", turn_limit_days=1)
        await open_table(h1, bob, [carol], channel="games", turn_limit_days=1)
        await open_table(h1, carol, [alice], channel="random", turn_limit_days=1)
        channels = ("general", "games", "random")
        firsts: dict[str, str] = {}                              # channel -> the player to move
        for channel in channels:
            seat = (await game_of(h1, channel)).current
            assert seat is not None
            firsts[channel] = seat.name
        async with days_bot(path, clock, users, ids=world_ids(h1), reminder_tick_seconds=PACE) as h2:
            s1, s2 = days(h1).reminders, days(h2).reminders
            hs = (h1, h2)

            def dms(channel: str, start: str) -> int:
                """DMs (through either bot) to the player to move in ``channel``, about that game."""
                about = f"<#{h1.channel(channel).id}>"
                return sum(1 for h in hs for m in h.dms_to(firsts[channel])
                           if m.content.startswith(start) and about in m.content)

            async def both_tick() -> None:
                after = (ticks.count(s1), ticks.count(s2))
                await eventually(lambda: ticks.count(s1) >= after[0] + 5 and ticks.count(s2) >= after[1] + 5,
                                 "both loops to tick five times")

            clock.advance(minutes=1)                               # three turn DMs fall due at once
            await both_tick()
            assert all(dms(c, "Your turn") == 1 for c in channels)
            clock.advance(hours=12)                                # the first nudges
            await both_tick()
            assert all(dms(c, "Still your turn") == 1 for c in channels)
            clock.advance(hours=12)                                # the turn clocks run out
            await both_tick()
            for channel in channels:
                posts = [m for h in hs for m in h.channel_messages(channel) if "ran out" in m.content]
                assert len(posts) == 1, channel
                assert dms(channel, "⏰") == 1
                assert dms(channel, "Still your turn") == 1     # the time-is-up DM replaced that nudge
            # The two processes also race tick against tick, directly: loops stopped, as each
            # process runs its own ticks one after another.
            await s1.stop()
            await s2.stop()
            clock.advance(hours=12)                                # the next nudges fall due
            sent = 0
            for _ in range(5):
                sent += sum(await asyncio.gather(s1.tick(), s2.tick()))
            assert sent == 3
            assert all(dms(c, "Still your turn") == 2 for c in channels)
            assert all(not errors for errors in (h1.trap.errors, h2.trap.errors))
