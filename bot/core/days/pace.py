"""The table's real pace: how long each player takes from "your turn" to their last action, and
when the game will end at that pace (``/projectl status``, ``/projectl stats``, the reminders).

A turn's time is read from the ``turns`` rows the reminders and the turn clock keep (migration
0002): from ``started_at`` (the turn began) to ``closed_at`` (the next turn began, i.e. the
player's turn-ending action, or the game ended). A turn that timed out is left out (the player
never acted), as are turns still open. The player's own quiet hours and their vacation (from the
day they set it, ``vacation_from``, migration 0010, to the day they are back) are taken out of each
turn's time: nobody is slow while asleep or away. Only a player's present settings are known, so
an older vacation that has since been replaced is not taken out (docs/bot.md, issue 26).

The forecast uses wall-clock times (quiet hours included, since the table waits through them):
the rounds left (to the end already triggered, or: the deck that ends the game divided by how
fast it has gone down per round so far, plus the one round that follows the trigger) times a
round's time (each human seat's median turn, this game's or else the server's; Line Clear's two
holders play at once, so half of it). Pure functions; the callers read the rows once per reply.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import engine
from bot.core.games import Game
from bot.core.storage.days import ReminderPrefsRow, TurnTime
from bot.core.wording import texts
from engine.state import GameState, LineClearTable, SoloTable

MAX_DAYS = 400
"""A turn longer than this many days is counted up to it (quiet hours are summed day by day)."""


@dataclass(frozen=True, slots=True)
class Pace:
    """A player's turn times: how many turns, their median and 90th percentile."""

    turns: int
    median: timedelta
    p90: timedelta


def away_intervals(start: datetime, end: datetime,
                   prefs: ReminderPrefsRow) -> list[tuple[datetime, datetime]]:
    """The parts of [start, end) the player was asleep (quiet hours) or on vacation, merged."""
    spans: list[tuple[datetime, datetime]] = []
    zone = ZoneInfo(prefs.timezone)
    qs, qe = prefs.quiet_start, prefs.quiet_end
    if qs is not None and qe is not None and qs != qe:
        first = start.astimezone(zone).date() - timedelta(days=1)
        last = min(end, start + timedelta(days=MAX_DAYS)).astimezone(zone).date()
        day = first
        while day <= last:
            begin = datetime.combine(day, qs, tzinfo=zone).astimezone(UTC)
            end_day = day if qe > qs else day + timedelta(days=1)  # quiet hours may wrap midnight
            finish = datetime.combine(end_day, qe, tzinfo=zone).astimezone(UTC)
            spans.append((begin, finish))
            day += timedelta(days=1)
    if prefs.vacation_until is not None and prefs.vacation_from is not None:
        back = datetime.combine(prefs.vacation_until, time(0), tzinfo=zone).astimezone(UTC)
        spans.append((prefs.vacation_from, back))
    clipped = sorted((max(a, start), min(b, end)) for a, b in spans if min(b, end) > max(a, start))
    merged: list[tuple[datetime, datetime]] = []
    for a, b in clipped:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def active_time(start: datetime, end: datetime, prefs: ReminderPrefsRow | None) -> timedelta:
    """[start, end) without the player's quiet hours and vacation (all of it without settings)."""
    whole = max(end - start, timedelta(0))
    if prefs is None:
        return whole
    return whole - sum((b - a for a, b in away_intervals(start, end, prefs)), timedelta(0))


def percentile(values: Sequence[timedelta], q: float) -> timedelta:
    """The nearest-rank ``q`` percentile (0 < q <= 100) of ``values`` (not empty)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: Sequence[timedelta]) -> timedelta:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def pace_of(values: Sequence[timedelta]) -> Pace | None:
    return Pace(len(values), median(values), percentile(values, 90)) if values else None


def paces(turns: Iterable[TurnTime], prefs: Mapping[int, ReminderPrefsRow],
          game_id: int | None = None) -> dict[int, Pace]:
    """Each user's pace over ``turns`` (only ``game_id``'s when given), their quiet hours and
    vacation left out."""
    times: dict[int, list[timedelta]] = defaultdict(list)
    for turn in turns:
        if game_id is None or turn.game_id == game_id:
            times[turn.user_id].append(active_time(turn.started, turn.ended, prefs.get(turn.user_id)))
    return {user: pace for user, values in times.items() if (pace := pace_of(values)) is not None}


def rounds_left(state: GameState) -> float | None:
    """How many rounds the game has left, counting the one being played; None when it cannot be
    told yet (the deck that ends the game has not gone down: the first round)."""
    if state.is_over:
        return 0.0
    last = engine.final_round(state)
    if last is not None:
        return float(last - state.round + 1)
    table = state.table
    start = engine.initial_state(state).table
    if isinstance(table, SoloTable):
        assert isinstance(start, SoloTable)
        left, used = len(table.deck), len(start.deck) - len(table.deck)
    else:
        assert not isinstance(start, SoloTable)
        left, used = len(table.black_deck), len(start.black_deck) - len(table.black_deck)
    played = state.round - 1
    if used <= 0 or played <= 0:
        return None
    return math.ceil(left / (used / played)) + 1.0  # down to empty, then the round after the trigger


def forecast(state: GameState, seats: Sequence[tuple[int, int | None]], game_turns: Iterable[TurnTime],
             server: Mapping[int, Pace], now: datetime) -> datetime | None:
    """When the game ends at this pace (``seats``: (seat, user id or None for an AI)); None when
    it cannot be told (no turn timed yet, or the first round). Wall-clock medians: the table waits
    through quiet hours too."""
    left = rounds_left(state)
    if left is None or state.is_over:
        return None
    walls: dict[int, list[timedelta]] = defaultdict(list)
    for turn in game_turns:
        walls[turn.seat].append(turn.ended - turn.started)
    per_round = timedelta(0)
    known = False
    for seat, user in seats:
        if user is None:
            continue  # an AI seat plays at once
        if walls.get(seat):
            per_round += median(walls[seat])
            known = True
        elif user in server:
            per_round += server[user].median
            known = True
    if not known:
        return None
    if isinstance(state.table, LineClearTable):
        per_round /= 2  # two holders play at once
    return now + per_round * left


# -- in words -------------------------------------------------------------------------------------


def duration_text(span: timedelta) -> Any:
    """``45 min``, ``2 h 10 min``, ``3 d 4 h`` (rounded to the minute)."""
    minutes = max(0, round(span.total_seconds() / 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return texts.DURATION_DAYS.format(d=days, h=hours)
    if hours:
        return texts.DURATION_HOURS.format(h=hours, m=mins)
    return texts.DURATION_MINUTES.format(m=mins)


def figures_text(pace: Pace | None) -> Any:
    if pace is None:
        return texts.PACE_NONE
    return texts.PACE_FIGURES.format(median=duration_text(pace.median), p90=duration_text(pace.p90),
                                     turns=pace.turns)


def pace_lines(game: Game, turns: Sequence[TurnTime], prefs: Mapping[int, ReminderPrefsRow]) -> list[Any]:
    """``/projectl status``: each human seat's pace, this game's and over the server's games."""
    here, server = paces(turns, prefs, game.id), paces(turns, prefs)
    lines: list[Any] = []
    for seat in game.seats:
        if seat.user_id is None:
            continue
        lines.append(texts.PACE_LINE.format(name=seat.name,
                                            game=figures_text(here.get(seat.user_id)),
                                            server=figures_text(server.get(seat.user_id))))
    return [texts.PACE_TITLE, *lines] if lines else []


def server_pace_lines(turns: Sequence[TurnTime], prefs: Mapping[int, ReminderPrefsRow],
                      limit: int = 10) -> list[Any]:
    """``/projectl stats``: the server's players' pace, those with the most turns first (by
    mention: an embed pings nobody)."""
    found = sorted(paces(turns, prefs).items(), key=lambda item: (-item[1].turns, item[0]))[:limit]
    if not found:
        return []
    return [texts.PACE_TITLE, *(texts.PACE_SERVER_LINE.format(user_id=user, figures=figures_text(pace))
                                for user, pace in found)]


def game_forecast(game: Game, turns: Sequence[TurnTime], prefs: Mapping[int, ReminderPrefsRow],
                  now: datetime) -> datetime | None:
    """:func:`forecast` for ``game`` from the server's turn rows (read once by the caller)."""
    if game.state is None:
        return None
    return forecast(game.state, [(s.seat, s.user_id) for s in game.seats],
                    [t for t in turns if t.game_id == game.id], paces(turns, prefs), now)


def forecast_line(end: datetime | None, now: datetime, timezone: str = "UTC") -> Any:
    """``At this pace the game ends around Thursday.`` (the reader's time zone): today, a weekday
    within the week, else a date Discord shows in the reader's own format; None when unknown."""
    if end is None:
        return None
    zone = ZoneInfo(timezone)
    days = (end.astimezone(zone).date() - now.astimezone(zone).date()).days
    if days <= 0:
        return texts.FORECAST_TODAY
    if days < 7:
        return texts.FORECAST_DAY.format(day=texts.WEEKDAYS[str(end.astimezone(zone).weekday())])
    return texts.FORECAST_DATE.format(ts=int(end.timestamp()))
