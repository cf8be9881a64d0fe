"""Writes to rows that several bot processes (Discord shards) share on one database: two Storage
instances on the same SQLite file or PostgreSQL database stand for two processes. Each test makes
the two interleave at the worst moment (a barrier after both have read) and asserts on what the
players get: no change lost, nothing done twice, the same answer for both."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.clock import ManualClock
from bot.core.storage import DaysStore, NewSeat, Storage, TurnKey
from bot.core.storage.days import ReminderPrefsRow
from bot.core.storage.errors import PlanChangedError
from bot.core.storage.plans import PlanStep, PlanStore, advance_write, delete_write

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
MEET_SECONDS = 1.0
"""How long one side waits for the other at a barrier: with the fix the other is held back by a
lock until this side commits, so the barrier times out and this side goes on alone."""


@pytest.fixture
async def two_processes(storage_target: str) -> AsyncIterator[tuple[Storage, Storage]]:
    clock = ManualClock(START)
    first, second = await Storage.open(storage_target, clock), await Storage.open(storage_target, clock)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def meeting() -> threading.Barrier:
    return threading.Barrier(2, timeout=MEET_SECONDS)


def meet(barrier: threading.Barrier) -> None:
    """Wait for the other side at ``barrier``, or go on alone once it is held back (or broken)."""
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass


PrefsChange = Callable[[ReminderPrefsRow], ReminderPrefsRow]


def met_after_reading(barrier: threading.Barrier) -> Callable[[PrefsChange], PrefsChange]:
    """Wrap a settings change so that it first meets the other process's, both having read."""
    def wrap(change: PrefsChange) -> PrefsChange:
        def apply(prefs: ReminderPrefsRow) -> ReminderPrefsRow:
            meet(barrier)
            return change(prefs)
        return apply
    return wrap


async def test_two_settings_changed_at_once_in_two_processes_are_both_kept(
        two_processes: tuple[Storage, Storage]) -> None:
    """A player turns text-only boards on in one server (one shard) while turning heads-up DMs
    on in another (another shard): each command reads the settings, changes its one option and
    saves them. Both options must be on afterwards; a save of every column from a read made
    before the other's commit would turn the other's option back off."""
    first, second = (DaysStore(storage) for storage in two_processes)
    await first.update_prefs(7, "carol", lambda prefs: prefs)  # the player is known, all defaults
    after_both_read = met_after_reading(meeting())

    await asyncio.gather(
        first.update_prefs(7, "carol", after_both_read(lambda prefs: replace(prefs, text_only=True))),
        second.update_prefs(7, "carol", after_both_read(lambda prefs: replace(prefs, heads_up=True))))
    kept = await first.get_prefs(7)
    assert kept.text_only and kept.heads_up


async def test_a_new_players_first_settings_in_two_processes_are_both_kept(
        two_processes: tuple[Storage, Storage]) -> None:
    """The same for a player the bot has never seen: both processes create the row at once."""
    first, second = (DaysStore(storage) for storage in two_processes)
    after_both_read = met_after_reading(meeting())

    await asyncio.gather(
        first.update_prefs(8, "dana", after_both_read(lambda prefs: replace(prefs, text_only=True))),
        second.update_prefs(8, "dana", after_both_read(lambda prefs: replace(prefs, enabled=False))))
    kept = await second.get_prefs(8)
    assert kept.text_only and not kept.enabled


async def active_game(store: Storage, channel: int = 10) -> int:
    game = await store.create_game(guild_id=1, channel_id=channel, host_id=5, variant="base", max_players=2,
                                   options={}, seed=99,
                                   seats=[NewSeat("alice", user_id=5), NewSeat("bob", user_id=6)])
    return (await store.start_game(game.id, game.revision, '{"s": 0}', 1)).id


OLD_PLAN = [PlanStep("take white 3"), PlanStep("take white 4"), PlanStep("take white 5")]
NEW_PLAN = [PlanStep("upgrade 2"), PlanStep("recycle 1")]


@pytest.mark.parametrize("last_step", [False, True])
async def test_a_plan_laid_out_again_while_the_old_one_plays_is_kept_whole(
        two_processes: tuple[Storage, Storage], last_step: bool) -> None:
    """Alice's plan is playing its step in the process running her server's shard (the plan was
    read, the step is being committed) when she lays out a new plan on the web board, served by
    another process. The step, from the old plan, is not committed (its progress finds no plan
    to write to), and nothing lands on the new plan: she is shown it whole, and it plays from its
    first step."""
    playing, planning = two_processes
    game_id = await active_game(playing)
    await PlanStore(playing).save(game_id, 0, 5, OLD_PLAN)
    read = await PlanStore(playing).get(game_id, 0)
    assert read is not None
    await PlanStore(planning).save(game_id, 0, 5, NEW_PLAN)  # meanwhile, on the board
    game = await playing.get_game(game_id)
    progress = delete_write(read) if last_step else advance_write(read, 1)
    with pytest.raises(PlanChangedError):
        await playing.commit_action(game_id, game.revision, seat=0, user_id=5, action="take white 3",
                                    state='{"s": 1}', state_schema=1, finished=False, also=[progress])
    after = await planning.get_game(game_id)
    assert after.revision == game.revision and after.state == game.state  # the step was not played
    kept = await PlanStore(planning).get(game_id, 0)
    assert kept is not None and list(kept.left) == NEW_PLAN


async def test_a_plan_stopped_early_drops_itself_not_the_one_laid_out_since(
        two_processes: tuple[Storage, Storage]) -> None:
    """The old plan stops at a step that no longer holds and is dropped: the plan alice laid out
    in the meantime, in another process, stays."""
    playing, planning = two_processes
    game_id = await active_game(playing)
    await PlanStore(playing).save(game_id, 0, 5, OLD_PLAN)
    read = await PlanStore(playing).get(game_id, 0)
    assert read is not None
    await PlanStore(planning).save(game_id, 0, 5, NEW_PLAN)
    assert await PlanStore(playing).forget(read) is False
    kept = await PlanStore(planning).get(game_id, 0)
    assert kept is not None and list(kept.left) == NEW_PLAN
    assert await PlanStore(playing).forget(kept) is True
    assert await PlanStore(playing).get(game_id, 0) is None


async def test_a_reminder_sent_while_the_player_changes_settings_is_not_sent_again_at_once(
        two_processes: tuple[Storage, Storage]) -> None:
    """Bob's turn DM is due. He saves his settings in one process, which re-plans his open turns
    from the rows it read; at that moment the process running his game's shard claims the due DM
    and sends it. The re-plan, made from the row as it was before that DM, must not set the DM
    due again: bob gets his turn DM once, and the next one an interval later."""
    ticking, saving = (DaysStore(storage) for storage in two_processes)
    game_id = await active_game(ticking.storage)
    key = TurnKey(game_id, 1, "play", 1)
    await ticking.open_turn(key, user_id=6, channel_id=10, started_at=START, deadline_at=None, due_at=START)
    (read_by_settings,) = await saving.open_turns_of_user(6)  # preferences_changed reads bob's turns
    (due,) = await ticking.due_turns(START)
    assert await ticking.claim_reminder(due, START, START + timedelta(hours=12))  # the DM goes out
    await saving.reschedule(read_by_settings, START)  # the first DM's time, planned from the old row
    assert await ticking.due_turns(START + timedelta(hours=1)) == []  # nothing more due for now
    (row,) = await ticking.open_turns_of_user(6)
    assert row.sent_count == 1 and row.due_at == START + timedelta(hours=12)


async def test_two_processes_starting_at_once_sign_board_links_with_the_same_key(
        two_processes: tuple[Storage, Storage]) -> None:
    """Without PROJECTL_WEB_SECRET each process starting generates a key and keeps the first one
    kept: two starting at the same moment must end up with the same key, or a link signed by one
    would be refused by the other (checked on many names at once, so the two do interleave)."""
    first, second = two_processes
    names = [f"web_board_{n}" for n in range(20)]
    kept = await asyncio.gather(*(store.kept_secret(name, f"{label}-{name}")
                                  for name in names for store, label in ((first, "a"), (second, "b"))))
    assert all(kept[i] == kept[i + 1] for i in range(0, len(kept), 2))
    assert {await first.kept_secret(name, "later") for name in names} == {await second.kept_secret(name, "x")
                                                                          for name in names}
