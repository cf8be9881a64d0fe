"""The play-over-days and stats stores on both engines, the migrations kept in step, and what
several bot processes sharing one PostgreSQL rely on: per-game serialisation, and reminders and
held DMs claimed exactly once. PostgreSQL is a real server started by the test run (tests/conftest.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from bot.core.storage import DaysStore, NewSeat, StaleRevisionError, Storage, StoredCatalogue, TurnKey
from bot.core.storage.errors import PlanChangedError
from bot.core.storage.held import HeldStore
from bot.core.storage.plans import OutcomeRow, PlanStep, PlanStore, advance_write, delete_write
from bot.core.storage.stats import ResultRow, StatsStore

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def store(storage_target: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(storage_target, ManualClock(START))
    yield storage
    await storage.close()


async def active_game(store: Storage, channel: int = 10) -> int:
    game = await store.create_game(guild_id=1, channel_id=channel, host_id=5, variant="base", max_players=2,
                                   options={"reserve": 10}, seed=99,
                                   seats=[NewSeat("alice", user_id=5), NewSeat("bob", user_id=2**60)])
    game = await store.start_game(game.id, game.revision, '{"s": 0}', 1)
    return game.id


async def test_discord_sized_ids_and_the_days_tables(store: Storage) -> None:
    big = 2**62 + 7  # Discord snowflakes need 64 bits
    game_id = await active_game(store, channel=big)
    assert (await store.get_game(game_id)).channel_id == big
    days = DaysStore(store)
    key = TurnKey(game_id, 1, "play", 0)
    row = await days.open_turn(key, user_id=5, channel_id=big, started_at=START,
                               deadline_at=START + timedelta(hours=24), due_at=START + timedelta(hours=1))
    assert row.due_at == START + timedelta(hours=1) and row.channel_id == big
    assert [r.key for r in await days.due_turns(START + timedelta(hours=2))] == [key]
    assert await days.claim_reminder(row, START + timedelta(hours=2), START + timedelta(hours=14))
    assert not await days.claim_reminder(row, START + timedelta(hours=2), None)  # claimed once
    assert await days.claim_channel_fallback(key) and not await days.claim_channel_fallback(key)
    assert await days.claim_timeout(key, START + timedelta(hours=25))
    assert not await days.claim_timeout(key, START + timedelta(hours=25))
    await days.set_turn_limit(game_id, 24)
    await days.set_turn_limit(game_id, 48)
    assert await days.turn_limit(game_id) == timedelta(hours=48)
    await days.cast_vote(key, 2**60, "skip")
    assert await days.cast_vote(key, 2**60, "remove") == {2**60: "remove"}
    prefs = await days.get_prefs(7)
    await days.save_prefs(prefs, "carol")
    assert (await days.get_prefs(7)).enabled is True


async def test_an_actions_joined_writes_commit_with_it_and_not_without_it(store: Storage) -> None:
    """``commit_action``'s ``also`` writes (a reminder pushed back) are kept with the action, the
    log row, the state and the seats read back; an action refused as stale keeps none of them
    (on PostgreSQL the commit is one statement, and the writes join it in one transaction)."""
    game_id = await active_game(store)
    days = DaysStore(store)
    key = TurnKey(game_id, 1, "play", 0)
    await days.open_turn(key, user_id=5, channel_id=10, started_at=START, deadline_at=None,
                         due_at=START + timedelta(minutes=1))
    pushed = days.activity_write(key, START + timedelta(minutes=2), START + timedelta(hours=3))
    game = await store.get_game(game_id)
    after = await store.commit_action(game_id, game.revision, seat=0, user_id=5, action="level1",
                                      state='{"s": 1}', state_schema=1, finished=False, also=[pushed])
    assert after.revision == game.revision + 1 and after.state == '{"s": 1}'
    assert [seat.display_name for seat in after.seats] == ["alice", "bob"] and after.seats[1].user_id == 2**60
    assert after.options == {"reserve": 10} and after == await store.get_game(game_id)
    assert [(row.seq, row.action, row.revision) for row in await store.actions(game_id)] == [
        (1, "level1", after.revision)]
    assert [row.key for row in await days.due_turns(START + timedelta(hours=2))] == []  # pushed back
    later = days.activity_write(key, START + timedelta(minutes=3), START + timedelta(minutes=4))
    with pytest.raises(StaleRevisionError):
        await store.commit_action(game_id, game.revision, seat=0, user_id=5, action="level1",
                                  state='{"s": 2}', state_schema=1, finished=False, also=[later])
    assert await store.get_game(game_id) == after and len(await store.actions(game_id)) == 1
    assert [row.key for row in await days.due_turns(START + timedelta(hours=2))] == []  # not the stale one's


async def test_a_players_text_only_setting_round_trips(store: Storage) -> None:
    """``text_only`` (migration 0010) is stored per player, like the reminder settings."""
    days = DaysStore(store)
    assert (await days.get_prefs(8)).text_only is False  # never seen: images as usual
    await days.save_prefs(replace(await days.get_prefs(8), text_only=True), "dana")
    assert (await days.get_prefs(8)).text_only is True
    await days.save_prefs(replace(await days.get_prefs(8), enabled=False), "dana")  # other settings keep it
    assert (await days.get_prefs(8)).text_only is True


async def test_undo_seat_to_policy_and_stats(store: Storage) -> None:
    game_id = await active_game(store)
    game = await store.get_game(game_id)
    game = await store.commit_action(game_id, game.revision, seat=0, user_id=5, action="take white 3",
                                     state='{"s": 1}', state_schema=1, finished=False)
    days = DaysStore(store)
    last = await days.last_action(game_id)
    assert last is not None and last.seq == 1
    game = await days.undo_last_action(game_id, game.revision, seq=1, state='{"s": 0}', state_schema=1,
                                       by_user_id=5)
    assert await store.actions(game_id) == [] and len(await days.undone_actions(game_id)) == 1
    game = await days.seat_to_policy(game_id, game.revision, 1, policy="greedy", display_name="bot")
    assert game.seats[1].is_policy
    stats = StatsStore(store)
    rows = (ResultRow(0, 5, "alice", 30, True, False), ResultRow(1, None, "bot", 20, False, False))
    game = await store.commit_action(game_id, game.revision, seat=0, user_id=5, action="pass",
                                     state='{"s": 9}', state_schema=1, finished=True)
    await stats.save_results({game_id: (1, rows)})
    await stats.save_results({game_id: (1, rows)})  # saving again replaces, never duplicates
    games, totals = await stats.server_totals(1)
    assert games == 1 and [(t.user_id, t.wins) for t in totals] == [(5, 1)]
    assert (await days.latest_game_in_channel(10)).id == game_id  # type: ignore[union-attr]


async def test_a_catalogue_is_stored_once_and_read_with_every_game_naming_it(store: Storage) -> None:
    """Migration 0006: a state written without its cards names its catalogue, kept once per key
    whatever the number of games (or commits) naming it; every read of the game brings it back.
    A game stored before (no catalogue) gets one with the commit that first names it."""
    catalogue = StoredCatalogue("k" * 32, '[{"id": "W01"}]')
    first = await store.create_game(guild_id=1, channel_id=20, host_id=5, variant="base", max_players=2,
                                    options={}, seed=1, seats=[NewSeat("alice", user_id=5)])
    first = await store.start_game(first.id, first.revision, '{"s": 0}', 3, catalogue)
    assert (first.catalogue_key, first.catalogue) == (catalogue.key, catalogue.cards)
    old_id = await active_game(store, channel=21)  # started without a catalogue: the old form
    old = await store.get_game(old_id)
    assert old.catalogue_key is None and old.catalogue is None
    old = await store.commit_action(old_id, old.revision, seat=0, user_id=5, action="pass", state='{"s": 1}',
                                    state_schema=3, finished=False, catalogue=catalogue)
    assert (old.catalogue_key, old.catalogue) == (catalogue.key, catalogue.cards)
    again = await store.commit_action(first.id, first.revision, seat=0, user_id=5, action="pass",
                                      state='{"s": 1}', state_schema=3, finished=False)
    assert again.catalogue == catalogue.cards and (await store.get_game(old_id)).catalogue == catalogue.cards
    assert await store.read_scalar("SELECT COUNT(*) FROM catalogues") == 1
    undone = await DaysStore(store).undo_last_action(old_id, old.revision, seq=1, state='{"s": 0}',
                                                     state_schema=3, by_user_id=5, catalogue=catalogue)
    assert undone.catalogue_key == catalogue.key
    assert await store.read_scalar("SELECT COUNT(*) FROM catalogues") == 1


async def test_a_servers_language_is_chosen_changed_and_reset(store: Storage) -> None:
    """Migration 0007: one row per server (Discord-sized ids); None follows the server's own
    preferred locale again, so the server drops out of what the bot caches."""
    big = 2**62 + 11
    assert await store.server_locales() == {}
    await store.set_server_locale(big, "pt-BR", set_by=2**60)
    await store.set_server_locale(7, "en-US", set_by=5)
    assert await store.server_locales() == {big: "pt-BR", 7: "en-US"}
    await store.set_server_locale(big, None, set_by=5)
    assert await store.server_locales() == {7: "en-US"}
    assert await store.read_scalar("SELECT COUNT(*) FROM server_settings") == 2


async def test_a_master_draft_round_trips_at_its_revision_only(store: Storage) -> None:
    """Migration 0008: a seat's Master draft is read back as written (its placements in the order
    added), by its player, at the revision it was built on, and never at another; saving again
    replaces it; a draft for a game that moved on is refused; a commit, a clear and the game's end
    delete drafts."""
    big = 2**60  # bob's Discord-sized id
    game_id = await active_game(store)
    game = await store.get_game(game_id)
    first, both = "2 on W02 at A1 A2", "2 on W02 at A1 A2; 1 on W01 at C3"
    await store.save_master_draft(game_id, game.revision, seat=1, user_id=big, placements=first)
    await store.save_master_draft(game_id, game.revision, seat=1, user_id=big, placements=both)
    await store.save_master_draft(game_id, game.revision, seat=0, user_id=5, placements="1 on W05 at A1")
    assert await store.master_draft(game_id, 1, big, game.revision) == both
    assert await store.master_draft(game_id, 1, 5, game.revision) is None  # not bob's
    assert await store.master_draft(game_id, 1, big, game.revision + 1) is None  # another position
    await store.clear_master_draft(game_id, 0)
    assert await store.master_draft(game_id, 0, 5, game.revision) is None
    assert await store.master_draft(game_id, 1, big, game.revision) == both  # only seat 0's went
    moved = await store.commit_action(game_id, game.revision, seat=1, user_id=big, action="level1",
                                      state='{"s": 1}', state_schema=1, finished=False)
    assert await store.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0  # the commit forgot it
    with pytest.raises(StaleRevisionError):  # built on the position before that commit
        await store.save_master_draft(game_id, game.revision, seat=1, user_id=big, placements=first)
    assert await store.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0
    await store.save_master_draft(game_id, moved.revision, seat=1, user_id=big, placements=first)
    await store.set_status(game_id, moved.revision, "cancelled")
    assert await store.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0


async def test_an_undo_or_a_seat_handed_to_an_ai_forgets_the_games_master_drafts(store: Storage) -> None:
    """Both change the position without a commit: a draft built before either can never be played,
    so it does not stay behind in the table."""
    game_id = await active_game(store)
    days = DaysStore(store)
    game = await store.commit_action(game_id, (await store.get_game(game_id)).revision, seat=0, user_id=5,
                                     action="level1", state='{"s": 1}', state_schema=1, finished=False)
    await store.save_master_draft(game_id, game.revision, seat=0, user_id=5, placements="1 on W05 at A1")
    game = await days.undo_last_action(game_id, game.revision, seq=1, state='{"s": 0}', state_schema=1,
                                       by_user_id=5)
    assert await store.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0
    await store.save_master_draft(game_id, game.revision, seat=1, user_id=2**60, placements="1 on W05 at A1")
    await days.seat_to_policy(game_id, game.revision, 1, policy="greedy", display_name="bot")
    assert await store.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0


async def test_a_seats_last_planned_turn_is_kept_once_until_its_next_plan(store: Storage) -> None:
    """Migration 0017: one outcome per seat, read back as written, kept again in its place; the
    seat's next plan forgets it in the plan's own transaction; a plan dismissed with it (the board)
    forgets both; past the bound the first kept goes first."""
    game_id, big = await active_game(store), 2**60
    plans = PlanStore(store)
    reason = '{"en":"W11 is gone.","fields":{},"text":"PLAN_CARD_GONE"}'
    await plans.keep_outcome(game_id, 1, big, ["level1"], ["take white 3", "level1"], reason, 2,
                             keep_at_most=9)
    row = await plans.outcome(game_id, 1)
    assert row == OutcomeRow(game_id, 1, big, ("level1",), ("take white 3", "level1"), reason, 2,
                             row.kept_at if row else "")
    await plans.keep_outcome(game_id, 1, big, ["level1"] * 3, [], None, 0, keep_at_most=9)
    row = await plans.outcome(game_id, 1)
    assert row is not None
    assert (row.played, row.left, row.reason, row.actions_left) == (("level1",) * 3, (), None, 0)
    assert await store.read_scalar("SELECT COUNT(*) FROM plan_outcomes") == 1
    assert await plans.outcome(game_id, 0) is None
    await plans.save(game_id, 1, big, [PlanStep("level1")])
    assert await plans.outcome(game_id, 1) is None and await plans.get(game_id, 1) is not None
    await plans.keep_outcome(game_id, 1, big, ["level1"], [], None, 2, keep_at_most=9)
    assert await plans.delete(game_id, 1)  # a plan dropped on Discord: its last turn's word stays
    assert await plans.outcome(game_id, 1) is not None
    assert not await plans.delete(game_id, 1, outcome_too=True)  # dismissed on the board
    assert await plans.outcome(game_id, 1) is None
    for seat in range(4):
        await plans.keep_outcome(game_id, seat, 5, ["level1"], [], None, 2, keep_at_most=3)
    assert [await plans.outcome(game_id, seat) is None for seat in range(4)] == [True, False, False, False]
    await plans.keep_outcome(game_id, 1, 5, ["pass"], [], None, 2, keep_at_most=3)  # kept again: the latest
    await plans.keep_outcome(game_id, 0, 5, ["level1"], [], None, 2, keep_at_most=3)
    assert [await plans.outcome(game_id, seat) is None for seat in range(4)] == [False, False, True, False]


async def test_a_planned_step_commits_only_while_its_plan_is_the_one_read(store: Storage) -> None:
    """A planned step's progress requires the plan as it was read: replaced or cancelled since
    (another process, the board), the step is not committed at all — on PostgreSQL too, where
    the action's commit is one statement and the progress joins it in one transaction."""
    game_id = await active_game(store)
    plans = PlanStore(store)
    await plans.save(game_id, 0, 5, [PlanStep("level1"), PlanStep("level1")])
    read = await plans.get(game_id, 0)
    assert read is not None
    game = await store.get_game(game_id)
    after = await store.commit_action(game_id, game.revision, seat=0, user_id=5, action="level1",
                                      state='{"s": 1}', state_schema=1, finished=False,
                                      also=[advance_write(read, 1)])
    assert after.revision == game.revision + 1
    stored = await plans.get(game_id, 0)
    assert stored is not None and stored.played == 1
    for change in ("replaced", "cancelled"):
        if change == "replaced":
            await plans.save(game_id, 0, 5, [PlanStep("take white 1")])
        else:
            await plans.delete(game_id, 0)
        for progress in (advance_write(stored, 1), delete_write(stored)):
            with pytest.raises(PlanChangedError):
                await store.commit_action(game_id, after.revision, seat=0, user_id=5, action="level1",
                                          state='{"s": 2}', state_schema=1, finished=False, also=[progress])
            assert await store.get_game(game_id) == after and len(await store.actions(game_id)) == 1
    assert await plans.get(game_id, 0) is None


async def test_plan_outcomes_kept_at_the_same_moment_get_distinct_numbers(storage_target: str) -> None:
    """Planned turns end at the same moment in two bot processes sharing the database: each
    outcome kept gets its own number in ``kept``, so "the first kept goes first" drops exactly the
    oldest. On PostgreSQL two transactions open at once used to read the same ``MAX(kept)``."""
    first = await Storage.open(storage_target, ManualClock(START))
    second = await Storage.open(storage_target, ManualClock(START))
    try:
        games = [await active_game(first, channel=300 + n) for n in range(2)]
        written, release = threading.Event(), threading.Event()
        plain_write = second.write

        async def held_open(work: Callable[[sqlite3.Connection], object]) -> object:
            def then_wait(conn: sqlite3.Connection) -> object:
                done = work(conn)
                written.set()
                release.wait(timeout=1)  # SQLite: the other writer waits for this COMMIT meanwhile
                return done
            return await plain_write(then_wait)

        second.write = held_open  # type: ignore[method-assign,assignment]
        for other_game in (games[1], games[0]):  # another seat's, then the same seat's
            written.clear()
            release.clear()
            slow = asyncio.create_task(
                PlanStore(second).keep_outcome(games[0], 0, 5, ["level1"], [], None, 2, keep_at_most=1000))
            await asyncio.to_thread(written.wait, 5)  # its row is written, its transaction still open
            keeping = asyncio.create_task(
                PlanStore(first).keep_outcome(other_game, 0, 6, ["pass"], [], None, 2, keep_at_most=1000))
            await asyncio.sleep(0.2)  # PostgreSQL: the same seat's insert waits on the open one
            release.set()
            await asyncio.gather(slow, keeping)
        kept_last = await PlanStore(first).outcome(games[0], 0)
        assert kept_last is not None and kept_last.played == ("pass",)  # the later keep is the one kept
        second.write = plain_write  # type: ignore[method-assign]

        async def keep(store: Storage, game_id: int, seat: int) -> None:
            await PlanStore(store).keep_outcome(game_id, seat, 5, ["level1"], [], None, 2, keep_at_most=1000)

        await asyncio.gather(*(keep(store, game_id, seat) for game_id in games for seat in range(1, 4)
                               for store in (first, second)))
        numbers = dict(await first.job(lambda conn: conn.execute(
            "SELECT game_id * 10 + seat, kept FROM plan_outcomes").fetchall()))
        assert len(numbers) == 8 and len(set(numbers.values())) == 8
        oldest = min(numbers, key=numbers.__getitem__)
        await PlanStore(second).keep_outcome(games[0], 9, 5, ["pass"], [], None, 2, keep_at_most=8)
        assert await PlanStore(first).outcome(oldest // 10, oldest % 10) is None  # the first kept went first
        assert await first.read_scalar("SELECT COUNT(*) FROM plan_outcomes") == 8
    finally:
        await first.close()
        await second.close()

async def test_a_held_dm_is_kept_replaced_looked_at_again_and_claimed_once(store: Storage) -> None:
    """Migration 0017: a DM held under a key replaces the one held under it; it is due at its time
    (or at once when its player's settings change); claimed once, and not once replaced since read;
    the game it is about being cancelled changes nothing."""
    game_id, big = await active_game(store), 2**60
    held = HeldStore(store)
    later = START + timedelta(hours=8)
    await held.hold("plan:1:1", big, game_id, '"first"', later)
    await held.hold("plan:1:1", big, game_id, '"second"', later)
    await held.hold("other", 5, None, '"x"', later + timedelta(hours=1))
    assert await held.due(START) == []
    [row] = await held.due(later)
    assert (row.key, row.user_id, row.game_id, row.content, row.due_at) == (
        "plan:1:1", big, game_id, '"second"', later)
    await held.due_now(5, START + timedelta(minutes=1))  # back from vacation
    assert [r.key for r in await held.due(START + timedelta(minutes=1))] == ["other"]
    await held.hold("plan:1:1", big, game_id, '"third"', later)  # replaced after it was read
    assert not await held.claim(row)
    [row] = [r for r in await held.due(later) if r.key == "plan:1:1"]
    assert row.content == '"third"' and await held.claim(row) and not await held.claim(row)
    await held.drop("other")
    assert await held.due(later + timedelta(days=1)) == []
    await held.hold("plan:1:0", 5, game_id, '"y"', later)
    game = await store.get_game(game_id)
    await store.set_status(game_id, game.revision, "cancelled")
    assert [(r.key, r.game_id) for r in await held.of_user(5)] == [("plan:1:0", game_id)]


# -- several processes on one PostgreSQL ------------------------------------------------------------


async def test_both_backends_have_the_same_tables_and_columns(tmp_path: Path, postgres_url: str) -> None:
    """The one migration set, translated for PostgreSQL, gives the same schema on both engines."""
    import asyncpg

    lite = await Storage.open(tmp_path / "schema.sqlite3", ManualClock(START))
    await lite.close()
    with sqlite3.connect(tmp_path / "schema.sqlite3") as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                           " AND name NOT LIKE 'sqlite_%'")]
        sqlite_schema = {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}
    pg = await Storage.open(postgres_url, ManualClock(START))
    await pg.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch("SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema = 'public'")
    finally:
        await conn.close()
    pg_schema: dict[str, set[str]] = {}
    for row in rows:
        pg_schema.setdefault(row["table_name"], set()).add(row["column_name"])
    assert pg_schema == sqlite_schema


async def test_two_processes_commit_to_one_game_one_at_a_time(postgres_url: str) -> None:
    """Two stores (two bot processes) race to commit on the same revision: exactly one wins, the
    other gets StaleRevisionError, and the log has one row."""
    first = await Storage.open(postgres_url, ManualClock(START))
    second = await Storage.open(postgres_url, ManualClock(START))
    try:
        game_id = await active_game(first)
        game = await first.get_game(game_id)

        async def commit(store: Storage, text: str) -> str:
            try:
                await store.commit_action(game_id, game.revision, seat=0, user_id=5, action=text,
                                          state=f'{{"a": "{text}"}}', state_schema=1, finished=False)
            except StaleRevisionError:
                return "stale"
            return "ok"

        outcomes = await asyncio.gather(*(commit(s, f"act{i}") for i in range(6) for s in (first, second)))
        assert sorted(outcomes).count("ok") == 1
        assert len(await second.actions(game_id)) == 1
    finally:
        await first.close()
        await second.close()


async def test_reminders_fire_once_across_two_processes(postgres_url: str) -> None:
    first = await Storage.open(postgres_url, ManualClock(START))
    second = await Storage.open(postgres_url, ManualClock(START))
    try:
        days = DaysStore(first)
        for channel in range(40):
            game_id = await active_game(first, channel=100 + channel)
            await days.open_turn(TurnKey(game_id, 1, "play", 0), user_id=5, channel_id=100 + channel,
                                 started_at=START, deadline_at=None, due_at=START + timedelta(minutes=1))
        now = START + timedelta(hours=1)

        async def tick(store: Storage) -> int:
            worker = DaysStore(store)
            claimed = 0
            for row in await worker.due_turns(now):
                claimed += await worker.claim_reminder(row, now, None)
            return claimed

        counts = await asyncio.gather(tick(first), tick(second))
        assert sum(counts) == 40
        assert await DaysStore(second).due_turns(now) == []
    finally:
        await first.close()
        await second.close()


async def test_held_dms_are_claimed_once_across_two_processes(postgres_url: str) -> None:
    first = await Storage.open(postgres_url, ManualClock(START))
    second = await Storage.open(postgres_url, ManualClock(START))
    try:
        for n in range(40):
            await HeldStore(first).hold(f"plan:{n}:0", 5, None, '"x"', START + timedelta(minutes=1))
        now = START + timedelta(hours=1)

        async def tick(store: Storage) -> int:
            held = HeldStore(store)
            return sum([await held.claim(row) for row in await held.due(now)])

        counts = await asyncio.gather(tick(first), tick(second))
        assert sum(counts) == 40 and await HeldStore(second).due(now) == []
    finally:
        await first.close()
        await second.close()


async def test_the_inbox_reads_the_open_turns_of_a_players_games_on_one_server(store: Storage) -> None:
    days = DaysStore(store)
    first, second, elsewhere = [await active_game(store, channel=c) for c in (10, 11, 12)]
    await store.set_message_ids(first, table_message_id=2**61)
    await days.open_turn(TurnKey(second, 1, "play", 1), user_id=2**60, channel_id=11,
                         started_at=START, deadline_at=None, due_at=None)
    await days.open_turn(TurnKey(first, 1, "play", 0), user_id=5, channel_id=10,
                         started_at=START + timedelta(hours=1), deadline_at=None, due_at=None)
    await days.open_turn(TurnKey(elsewhere, 1, "play", 0), user_id=5, channel_id=12,
                         started_at=START, deadline_at=None, due_at=None)
    await days.close_turns(elsewhere)
    found = await days.open_turns_beside(1, 5)
    assert [(row.key.game_id, row.user_id, message) for row, message in found] == [
        (second, 2**60, None), (first, 5, 2**61)]
    assert await days.open_turns_beside(2, 5) == []
    assert await days.open_turns_beside(1, 77) == []
