"""``/projectl settings``: a player's reminder preferences, shared by all their games.

Every option is optional; with none the command just shows the current settings. All values are
checked before anything is saved, so a typo changes nothing and says what was expected.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import discord
from discord import app_commands

from bot.core.days import reminder_policy as policy
from bot.core.errors import BadInputError
from bot.core.storage.days import ReminderPrefsRow
from bot.core.wording import texts
from bot.core.wording.locales import Joined, locale_code
from engine.errors import quoted

from ..reminders import preferences
from . import common
from .days import days_of

_ZONES: list[str] = []


def summary(prefs: ReminderPrefsRow) -> Joined:
    shown = policy.describe(preferences(prefs))
    dms = texts.SETTINGS_DMS_CLOSED if prefs.dms_closed else ""
    reminders = texts.SETTINGS_SUMMARY.format(**shown, dms=dms)
    boards = texts.SETTINGS_TEXT_ONLY.format(
        value=texts.SETTINGS_ON if prefs.text_only else texts.SETTINGS_OFF)
    heads_up = texts.SETTINGS_HEADS_UP.format(
        value=texts.SETTINGS_ON if prefs.heads_up else texts.SETTINGS_OFF)
    return Joined([reminders, boards, heads_up], "\n")


def updated(
    prefs: ReminderPrefsRow, *, today_utc: datetime, reminders: bool | None,
    interval_hours: int | None, quiet_hours: str | None, timezone: str | None, vacation_until: str | None,
) -> ReminderPrefsRow:
    """The new preferences, or :class:`BadInputError` naming the first value that is wrong."""
    new = prefs
    if reminders is not None:
        new = replace(new, enabled=reminders)
    if interval_hours is not None:
        try:
            new = replace(new, interval=policy.interval_from_hours(interval_hours))
        except policy.PreferenceError as error:
            raise BadInputError(texts.BAD_INTERVAL) from error
    if timezone is not None:
        try:
            new = replace(new, timezone=policy.parse_timezone(timezone))
        except policy.PreferenceError as error:
            raise BadInputError(texts.BAD_TIMEZONE.format(text=quoted(timezone))) from error
    if quiet_hours is not None:
        try:
            quiet = policy.parse_quiet_hours(quiet_hours)
        except policy.PreferenceError as error:
            raise BadInputError(texts.BAD_QUIET_HOURS) from error
        new = replace(new, quiet_start=quiet[0] if quiet else None, quiet_end=quiet[1] if quiet else None)
    if vacation_until is not None:
        today = today_utc.astimezone(ZoneInfo(new.timezone)).date()
        try:
            back = policy.parse_vacation(vacation_until, today)
        except policy.PreferenceError as error:
            raise BadInputError(texts.BAD_VACATION) from error
        # a vacation runs from the moment it is set (the pace leaves it out: bot/core/days/pace.py)
        new = replace(new, vacation_until=back, vacation_from=None if back is None else today_utc)
    return new


@app_commands.command(name="settings",
                      description="Your turn reminders: DMs, quiet hours, vacation")
@app_commands.describe(
    reminders="DM me when my turn starts, and nudge me later",
    interval_hours="Hours between nudges (default 12)",
    quiet_hours="No DMs then, e.g. 22:00-07:00 (or off)",
    timezone="Your time zone, e.g. Europe/Paris",
    vacation_until="No DMs until this day, YYYY-MM-DD (or off)",
    text_only="Boards as text first, then the image",
    heads_up="A DM when the player before you starts their turn",
)
async def settings_command(
    interaction: discord.Interaction, reminders: bool | None = None,
    interval_hours: app_commands.Range[int, 1, 168] | None = None, quiet_hours: str | None = None,
    timezone: str | None = None, vacation_until: str | None = None, text_only: bool | None = None,
    heads_up: bool | None = None,
) -> None:
    bot = common.bot_of(interaction)
    days = days_of(bot)
    user = interaction.user
    current = await days.store.get_prefs(user.id)
    given = (reminders, interval_hours, quiet_hours, timezone, vacation_until, text_only, heads_up)
    if all(value is None for value in given):
        await common.reply(interaction, summary(current))
        return
    locale = locale_code(interaction.locale)
    # a typo is refused before anything is written
    updated(current, today_utc=bot.clock.now(), reminders=reminders, interval_hours=interval_hours,
            quiet_hours=quiet_hours, timezone=timezone, vacation_until=vacation_until)

    def change(stored: ReminderPrefsRow) -> ReminderPrefsRow:
        """The options given, applied to the settings as stored when they are saved (not as read
        above: another shard may have saved others since, and they are kept)."""
        new = updated(stored, today_utc=bot.clock.now(), reminders=reminders, interval_hours=interval_hours,
                      quiet_hours=quiet_hours, timezone=timezone, vacation_until=vacation_until)
        if text_only is not None:
            new = replace(new, text_only=text_only)
        if heads_up is not None:
            new = replace(new, heads_up=heads_up)
        return replace(new, dms_closed=False, locale=locale)

    kept = await common.saved(interaction, days.store.update_prefs(user.id, user.display_name, change))
    await days.reminders.preferences_changed(user.id)
    await common.reply(interaction, texts.SETTINGS_SAVED.format(summary=summary(kept)))


@settings_command.autocomplete("timezone")
async def _timezone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    if not _ZONES:
        _ZONES.extend(sorted(available_timezones()))
    needle = current.strip().lower().replace(" ", "_")
    if not needle:
        return [app_commands.Choice(name=z, value=z) for z in ("UTC", "Europe/London", "America/New_York")]
    found = [z for z in _ZONES if needle in z.lower()]
    return [app_commands.Choice(name=z, value=z) for z in found[:25]]


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (settings_command,)
