"""The table's real pace on a simulated clock: per player median and 90th percentile from "your
turn" to the last action (quiet hours and vacation left out), over this game and the server's,
and the forecast of when the game ends, in ``/projectl status``, ``/projectl stats`` and the
reminders."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

from days_support import CHANNEL, START, act, current_user, days_bot, game_of, start_game, tick
from test_bot_support import final_reply

import engine
from bot.core.clock import ManualClock
from bot.core.days import pace
from bot.core.storage.days import ReminderPrefsRow, TurnTime
from bot.core.wording.locales import localise
from engine.state import Options, RowsTable

MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
H = timedelta(hours=1)


def test_quiet_hours_and_a_vacation_are_left_out() -> None:
    quiet = ReminderPrefsRow(1, quiet_start=time(22), quiet_end=time(7))
    assert pace.active_time(MONDAY.replace(hour=21), MONDAY.replace(hour=21) + 11 * H, quiet) == 2 * H
    assert pace.active_time(MONDAY, MONDAY + 2 * H, quiet) == 2 * H  # daytime: all of it
    assert pace.active_time(MONDAY, MONDAY + 2 * H, None) == 2 * H
    away = dataclasses.replace(quiet, vacation_from=MONDAY + 3 * H, vacation_until=date(2026, 12, 2))
    # Monday 09:00 to Wednesday 10:00: active 09:00-12:00 Monday and 07:00-10:00 Wednesday only
    assert pace.active_time(MONDAY, MONDAY + 49 * H, away) == 6 * H
    zoned = ReminderPrefsRow(1, quiet_start=time(22), quiet_end=time(7), timezone="America/Sao_Paulo")
    start = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)  # 21:00 in São Paulo (UTC-3)
    assert pace.active_time(start, start + 11 * H, zoned) == 2 * H


def test_median_and_90th_percentile() -> None:
    values = [h * H for h in range(1, 11)]
    found = pace.pace_of(values)
    assert found == pace.Pace(10, 5.5 * H, 9 * H)
    turns = [TurnTime(1, 0, 7, MONDAY, MONDAY + v) for v in values] + [TurnTime(2, 1, 7, MONDAY, MONDAY + H)]
    assert pace.paces(turns, {}, game_id=2) == {7: pace.Pace(1, H, H)}
    assert pace.paces(turns, {})[7].turns == 11


def test_the_forecast_from_the_decks_and_the_players_pace() -> None:
    state = engine.new_game(Options.for_players(2), 5)
    table = state.table
    assert isinstance(table, RowsTable)
    full = len(table.black_deck)
    state = state.evolve(round=3, table=dataclasses.replace(table, black_deck=table.black_deck[4:]))
    assert pace.rounds_left(state) == -(-(full - 4) // 2) + 1  # 2 black cards a round so far, then one more
    assert pace.rounds_left(engine.new_game(Options.for_players(2), 5)) is None  # round 1: not yet
    assert pace.rounds_left(state.evolve(last_round=4)) == 2
    turns = [TurnTime(9, 0, 100, MONDAY, MONDAY + 2 * H), TurnTime(9, 1, 200, MONDAY, MONDAY + 4 * H)]
    end = pace.forecast(state.evolve(last_round=4), [(0, 100), (1, 200)], turns, {}, MONDAY)
    assert end == MONDAY + 2 * (2 * H + 4 * H)
    assert pace.forecast(state, [(0, None), (1, None)], [], {}, MONDAY) is None  # nothing timed
    thursday = MONDAY + timedelta(days=3)
    line = pace.forecast_line(thursday, MONDAY)
    assert localise(line, None) == "At this pace the game ends around Thursday."
    assert localise(line, "pt-BR") == "Neste ritmo a partida termina por volta de quinta-feira."
    assert localise(pace.forecast_line(MONDAY + H, MONDAY), None) == "At this pace the game ends today."
    far = MONDAY + timedelta(days=9)
    assert localise(pace.forecast_line(far, MONDAY), None).endswith(f"<t:{int(far.timestamp())}:D>.")
    assert pace.forecast_line(None, MONDAY) is None


async def test_status_stats_and_the_reminder_show_the_pace(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "pace.sqlite3", clock) as h:
        await start_game(h)
        spent = {"alice": 2 * H, "bob": 5 * H}
        for _ in range(4):  # two rounds: each turn takes a black card, alice takes 2 h, bob 5 h
            user = await current_user(h)
            clock.advance(seconds=spent[user.name].total_seconds())
            for text in ("take black 1", "level1", "level1"):
                ix = await act(h, user, text)
                assert not final_reply(ix).content.startswith("Sorry"), final_reply(ix).content
        game = await game_of(h)
        assert game.state is not None and game.state.round == 3
        status = final_reply(await h.slash(h.user("alice"), CHANNEL, "projectl status"))
        lines = status.content.splitlines()
        assert "**Pace**, your turn to your last action (quiet hours and vacations left out):" in lines
        assert ("alice: this game median 2 h 0 min, 90% within 2 h 0 min (2 turns); "
                "this server median 2 h 0 min, 90% within 2 h 0 min (2 turns)") in lines
        assert any(line.startswith("bob: this game median 5 h 0 min") for line in lines)
        assert lines[-1].startswith("At this pace the game ends "), lines[-1]
        pt = final_reply(await h.slash(h.user("bob"), CHANNEL, "projectl status", locale="pt-BR"))
        assert "bob: nesta partida mediana 5 h 0 min, 90% em até 5 h 0 min (2 turnos)" in pt.content
        stats = final_reply(await h.slash(h.user("bob"), CHANNEL, "projectl stats"))
        [field] = stats.payload["embeds"][0]["fields"]
        assert field["name"].startswith("**Pace**")
        assert f"<@{h.user('bob').id}>: median 5 h 0 min, 90% within 5 h 0 min (2 turns)" in field["value"]
        user = await current_user(h)  # a later reminder (a nudge) carries the forecast
        clock.advance(minutes=1)
        assert await tick(h) == 1  # the turn's first DM
        clock.advance(hours=13)
        assert await tick(h) == 1
        assert "At this pace the game ends " in h.dms_to(user)[-1].content
