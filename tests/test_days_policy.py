"""bot.core.days.reminder_policy: when the next reminder is due. Pure functions, plain datetimes."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.core.days.reminder_policy import (
    PreferenceError,
    Preferences,
    deliverable_at,
    describe,
    first_reminder_due,
    interval_from_hours,
    next_nudge_due,
    parse_clock,
    parse_quiet_hours,
    parse_timezone,
    parse_vacation,
)
from bot.core.wording.locales import t


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


NIGHT = Preferences(quiet_start=time(22), quiet_end=time(7), timezone="Europe/Paris")


def test_default_is_immediate_and_every_twelve_hours() -> None:
    prefs = Preferences()
    assert first_reminder_due(utc(2024, 1, 1, 12), prefs) == utc(2024, 1, 1, 12)
    assert next_nudge_due(utc(2024, 1, 1, 12), None, prefs) == utc(2024, 1, 2, 0)


def test_reminders_off_means_never() -> None:
    prefs = Preferences(enabled=False)
    assert first_reminder_due(utc(2024, 1, 1), prefs) is None
    assert next_nudge_due(utc(2024, 1, 1), None, prefs) is None


def test_acting_pushes_the_nudge_back() -> None:
    prefs = Preferences(interval=timedelta(hours=6))
    assert next_nudge_due(utc(2024, 1, 1, 0), utc(2024, 1, 1, 4), prefs) == utc(2024, 1, 1, 10)
    assert next_nudge_due(utc(2024, 1, 1, 5), utc(2024, 1, 1, 4), prefs) == utc(2024, 1, 1, 11)


@pytest.mark.parametrize(("now", "expected"), [
    (utc(2024, 1, 1, 20, 59), utc(2024, 1, 1, 20, 59)),   # 21:59 Paris: before quiet hours
    (utc(2024, 1, 1, 21, 0), utc(2024, 1, 2, 6, 0)),      # 22:00 Paris: quiet until 07:00 Paris
    (utc(2024, 1, 1, 23, 30), utc(2024, 1, 2, 6, 0)),     # after midnight UTC, still the same night
    (utc(2024, 1, 2, 3, 0), utc(2024, 1, 2, 6, 0)),       # 04:00 Paris
    (utc(2024, 1, 2, 6, 0), utc(2024, 1, 2, 6, 0)),       # 07:00 Paris: the end is not quiet
])
def test_quiet_hours_that_wrap_midnight(now: datetime, expected: datetime) -> None:
    assert deliverable_at(now, NIGHT) == expected


def test_quiet_hours_within_one_day_and_in_summer_time() -> None:
    lunch = Preferences(quiet_start=time(12), quiet_end=time(14), timezone="America/New_York")
    assert deliverable_at(utc(2024, 7, 1, 17), lunch) == utc(2024, 7, 1, 18)   # 13:00 EDT -> 14:00 EDT
    assert deliverable_at(utc(2024, 7, 1, 19), lunch) == utc(2024, 7, 1, 19)
    assert deliverable_at(utc(2024, 7, 1, 22), NIGHT) == utc(2024, 7, 2, 5)    # 00:00 CEST -> 07:00 CEST


def test_daylight_saving_night_is_an_hour_shorter() -> None:
    # Night of 30-31 March 2024 in Paris: clocks go from 02:00 to 03:00.
    assert deliverable_at(utc(2024, 3, 30, 23), NIGHT) == utc(2024, 3, 31, 5)


def test_vacation_then_quiet_hours() -> None:
    away = Preferences(vacation_until=date(2024, 1, 10), timezone="Europe/Paris",
                       quiet_start=time(22), quiet_end=time(7))
    # Back on the 10th at 00:00 Paris, which is inside quiet hours: 07:00 Paris.
    assert deliverable_at(utc(2024, 1, 5, 12), away) == utc(2024, 1, 10, 6)
    assert deliverable_at(utc(2024, 1, 11, 12), away) == utc(2024, 1, 11, 12)
    plain = Preferences(vacation_until=date(2024, 1, 10))
    assert next_nudge_due(utc(2024, 1, 9, 0), None, plain) == utc(2024, 1, 10, 0)


def test_parsing_what_players_type() -> None:
    assert parse_clock("7") == time(7) and parse_clock("07:30") == time(7, 30)
    assert parse_quiet_hours("22:00-07:00") == (time(22), time(7))
    assert parse_quiet_hours("23 to 6") == (time(23), time(6))
    assert parse_quiet_hours("off") is None
    assert parse_timezone(" Asia/Tokyo ") == "Asia/Tokyo"
    assert parse_timezone("america/new york") == "America/New_York"
    assert parse_vacation("2024-02-01", date(2024, 1, 1)) == date(2024, 2, 1)
    assert parse_vacation("none", date(2024, 1, 1)) is None
    assert interval_from_hours(1) == timedelta(hours=1)
    for bad in ("25:00-07:00", "22:00", "10-10", "noon-midnight"):
        with pytest.raises(PreferenceError):
            parse_quiet_hours(bad)
    for zone in ("Mars/Base", "../etc/passwd", ""):
        with pytest.raises(PreferenceError):
            parse_timezone(zone)
    for day in ("2024-01-01", "2023-05-05", "tomorrow"):
        with pytest.raises(PreferenceError):
            parse_vacation(day, date(2024, 1, 1))
    for hours in (0, 169):
        with pytest.raises(PreferenceError):
            interval_from_hours(hours)


def test_describe() -> None:
    assert describe(NIGHT) == {"enabled": "on", "interval": "12 h", "quiet": "22:00–07:00",
                               "timezone": "Europe/Paris", "vacation": "none"}


def test_quiet_hours_and_vacation_are_switched_off_by_the_portuguese_keyword_the_refusal_names() -> None:
    assert "`desligado`" in t("BAD_QUIET_HOURS", "pt-BR") and "`desligado`" in t("BAD_VACATION", "pt-BR")
    assert parse_quiet_hours("desligado") is None and parse_quiet_hours("Off") is None
    assert parse_vacation("desligado", date(2026, 1, 1)) is None


def test_a_vacation_is_at_most_a_year_ahead_and_one_saved_past_the_calendar_never_raises() -> None:
    assert parse_vacation("2025-01-01", date(2024, 1, 1)) == date(2025, 1, 1)
    assert parse_vacation("2025-03-01", date(2024, 2, 29)) == date(2025, 3, 1)
    for far in ("2025-01-02", "9999-12-31"):
        with pytest.raises(PreferenceError):
            parse_vacation(far, date(2024, 1, 1))
    # saved before the limit: no moment to send at, and no OverflowError for whoever asks
    saved = Preferences(quiet_start=time(23), quiet_end=time(23, 30), timezone="Etc/GMT+12",
                        vacation_until=date.max)
    now = datetime(2024, 1, 1, 12, tzinfo=UTC)
    assert first_reminder_due(now, saved) is None and next_nudge_due(now, now, saved) is None
