"""When is the next reminder DM due? Pure functions of a player's preferences and the clock.

Kept free of Discord, SQL and the real clock so every rule (quiet hours that wrap midnight,
daylight-saving jumps, vacations, the nudge interval) can be unit-tested with plain datetimes.
The scheduler (:mod:`bot.discord.reminders`) stores what these functions return and asks again after
each reminder is sent or the player acts.

Rules, in the order they apply:

1. Reminders off → never (``None``).
2. Vacation: no DM before 00:00 (the player's time zone) on the ``vacation_until`` date — the
   date they are *back*.
3. Quiet hours ``[start, end)`` in the player's time zone (``22:00``–``07:00`` wraps midnight):
   a DM that falls inside is delivered at the end of the quiet period instead.
4. Nudges: the next one is due ``interval`` after the later of the last reminder and the
   player's last action this turn, so a player who is busy acting is never nudged, and nobody
   gets more than one reminder per interval.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.core.wording import texts

DEFAULT_INTERVAL = timedelta(hours=12)
MIN_INTERVAL = timedelta(hours=1)
MAX_INTERVAL = timedelta(days=7)
_CLOCK_TEXT = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*$")


class PreferenceError(ValueError):
    """A preference value a player typed could not be understood (message is for the player)."""


@dataclass(frozen=True, slots=True)
class Preferences:
    """One player's reminder settings, shared by all their games."""

    enabled: bool = True
    interval: timedelta = DEFAULT_INTERVAL
    quiet_start: time | None = None
    quiet_end: time | None = None
    timezone: str = "UTC"
    vacation_until: date | None = None

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def has_quiet_hours(self) -> bool:
        start, end = self.quiet_start, self.quiet_end
        return start is not None and end is not None and start != end


# -- parsing what players type ------------------------------------------------------------------


def parse_clock(text: str) -> time:
    """``"22:00"``, ``"7"`` or ``"07:30"`` → a time of day."""
    match = _CLOCK_TEXT.match(text)
    if not match:
        raise PreferenceError(text)
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise PreferenceError(text)
    return time(hour, minute)


OFF_WORDS = frozenset({"", "off", "none", "no", "desligado", "desligar", "nenhum", "nenhuma", "não", "nao"})
"""What switches quiet hours or a vacation off, in every language the bot speaks (English, pt-BR)."""


def parse_quiet_hours(text: str) -> tuple[time, time] | None:
    """``"22:00-07:00"`` → (start, end); ``"off"``/``"none"``/empty → None (no quiet hours)."""
    cleaned = text.strip().lower()
    if cleaned in OFF_WORDS:
        return None
    parts = re.split(r"\s*(?:-|–|to)\s*", cleaned)
    if len(parts) != 2:
        raise PreferenceError(text)
    start, end = parse_clock(parts[0]), parse_clock(parts[1])
    if start == end:
        raise PreferenceError(text)
    return start, end


def parse_timezone(text: str) -> str:
    """An IANA zone name such as ``Europe/Paris`` (any letter case: ``europe/paris`` is fine);
    raises :class:`PreferenceError` if unknown."""
    name = text.strip().replace(" ", "_")
    if not name or ".." in name or name.startswith("/"):
        raise PreferenceError(text)
    known = {zone.lower(): zone for zone in available_timezones()}
    name = known.get(name.lower(), name)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise PreferenceError(text) from error
    return name


def parse_vacation(text: str, today: date) -> date | None:
    """``YYYY-MM-DD`` (the day you are back) or ``off``; a date in the past is refused, and so is
    one more than a year ahead: a longer absence is reminders off, and a date near the calendar's
    end (``9999-12-31``) leaves no moment to send a DM at, nor to open the player's turn clock."""
    cleaned = text.strip().lower()
    if cleaned in OFF_WORDS:
        return None
    try:
        when = date.fromisoformat(cleaned)
    except ValueError as error:
        raise PreferenceError(text) from error
    if not today < when <= a_year_after(today):
        raise PreferenceError(text)
    return when


def a_year_after(day: date) -> date:
    """The same day next year (1 March after a 29 February)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:
        return date(day.year + 1, 3, 1)


def interval_from_hours(hours: float) -> timedelta:
    """The nudge interval; refuses anything outside the allowed range (an old client can send any
    integer, and ``timedelta`` itself overflows on huge ones)."""
    if not MIN_INTERVAL / timedelta(hours=1) <= hours <= MAX_INTERVAL / timedelta(hours=1):
        raise PreferenceError(str(hours)[:12])
    return timedelta(hours=hours)


# -- the rules --------------------------------------------------------------------------------------


def deliverable_at(when: datetime, prefs: Preferences) -> datetime | None:
    """The earliest moment at or after ``when`` a DM may be sent (UTC), or None if never (also
    when it would fall past the calendar's end: a vacation saved before such dates were refused)."""
    if not prefs.enabled:
        return None
    try:
        return _deliverable_at(when, prefs)
    except OverflowError:
        return None


def _deliverable_at(when: datetime, prefs: Preferences) -> datetime:
    when = when.astimezone(UTC)
    zone = prefs.zone
    if prefs.vacation_until is not None:
        back = datetime.combine(prefs.vacation_until, time(0), tzinfo=zone).astimezone(UTC)
        when = max(when, back)
    if prefs.has_quiet_hours:
        end = quiet_end_after(when, prefs)
        if end is not None:
            when = end
    return when


def quiet_end_after(when: datetime, prefs: Preferences) -> datetime | None:
    """If ``when`` falls in quiet hours, the UTC moment they end; otherwise None."""
    assert prefs.quiet_start is not None and prefs.quiet_end is not None
    zone = prefs.zone
    local = when.astimezone(zone)
    start, end = prefs.quiet_start, prefs.quiet_end
    # The quiet period that could contain `when` started today or (if it wraps) yesterday.
    for start_day in (local.date(), local.date() - timedelta(days=1)):
        begin = datetime.combine(start_day, start, tzinfo=zone)
        end_day = start_day if end > start else start_day + timedelta(days=1)
        finish = datetime.combine(end_day, end, tzinfo=zone)
        if begin.astimezone(UTC) <= when < finish.astimezone(UTC):
            return finish.astimezone(UTC)
    return None


def first_reminder_due(turn_started: datetime, prefs: Preferences) -> datetime | None:
    """When the "your turn" DM goes out: at the turn start, unless quiet hours or a vacation."""
    return deliverable_at(turn_started, prefs)


def next_nudge_due(last_sent: datetime, last_acted: datetime | None, prefs: Preferences) -> datetime | None:
    """The nudge after a reminder sent at ``last_sent``: one interval after the later of that and
    the player's last action this turn (so acting pushes nudges back)."""
    anchor = last_sent if last_acted is None else max(last_sent, last_acted)
    return deliverable_at(anchor + prefs.interval, prefs)


def describe(prefs: Preferences) -> dict[str, str]:
    """Values for the settings summary a player sees (texts are filled in by the caller); the
    words among them are sentences of bot/core/wording/texts.py, so they show in the reader's language."""
    hours = prefs.interval.total_seconds() / 3600
    quiet = (
        f"{prefs.quiet_start:%H:%M}–{prefs.quiet_end:%H:%M}"
        if prefs.has_quiet_hours and prefs.quiet_start and prefs.quiet_end else texts.SETTINGS_NONE
    )
    return {
        "enabled": texts.SETTINGS_ON if prefs.enabled else texts.SETTINGS_OFF,
        "interval": texts.SETTINGS_HOURS.format(hours=f"{hours:g}"),
        "quiet": quiet,
        "timezone": prefs.timezone,
        "vacation": prefs.vacation_until.isoformat() if prefs.vacation_until else texts.SETTINGS_NONE,
    }
