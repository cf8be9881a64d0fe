"""Wiring for playing over days: builds the reminder scheduler and turn clock, adds their
commands to the ``/projectl`` tree (``undo`` to ``play``; ``vote``, ``leave``, ``replace`` to
``table``; ``settings``, ``log``, ``stats`` directly — see :mod:`bot.discord.commandtree`) and their
persistent buttons to the bot.

The commands are free functions added to the existing group (rather than another mixin of the
group cog), so this feature plugs in with one call from ``setup_hook`` and one from ``close``.
Buttons use the ``pld:`` prefix, not ``pl:``: discord.py runs *every* dynamic item whose
template matches, and ``pl:`` ids we do not own are answered by the core "unknown button".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot.core import texts
from bot.core.clock import ManualClock
from bot.core.storage.days import DaysStore
from bot.core.turnclock import TurnClock

from ..commandtree import PLAY, TABLE, subgroup
from ..reminders import TICK_SECONDS, ReminderScheduler

if TYPE_CHECKING:
    from ..app import ProjectLBot

PREFIX = "pld"
MAX_ID = 2**63 - 1
"""Ids in custom ids end up in SQLite, whose integers are signed 64-bit."""
KINDS = ("vote", "leave", "log")


def id_fields(pattern: str, text: str) -> dict[str, str] | None:
    """The named fields of ``text`` if it fully matches ``pattern`` and every ``\\d`` field fits
    SQLite; None for anything forged or from another version (the click is then refused)."""
    match = re.fullmatch(pattern, text)
    if match is None:
        return None
    fields = match.groupdict()
    if any(v.isdecimal() and int(v) > MAX_ID for v in fields.values()):
        return None
    return fields


class UnknownDaysButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"pld:(?!(?:vote|leave|log):).*"):
    """A ``pld:`` id of no known kind: answered, politely, rather than left to time out."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=f"{PREFIX}:unknown"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> UnknownDaysButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        from .common import reply

        await reply(interaction, texts.FORGED_BUTTON)


@dataclass(frozen=True, slots=True)
class Days:
    """The feature's services, reachable from commands as ``days_of(bot)``."""

    store: DaysStore
    reminders: ReminderScheduler
    turnclock: TurnClock


async def turn_limit_of(bot: Any, game_id: int) -> timedelta | None:
    """The table's turn clock, for the core cogs' lobby and status texts (None: no clock, or this
    feature is not installed)."""
    days = getattr(bot, "days", None)
    return await days.store.turn_limit(game_id) if isinstance(days, Days) else None


def days_of(bot: Any) -> Days:
    days = getattr(bot, "days", None)
    if not isinstance(days, Days):
        raise RuntimeError("play-over-days is not installed on this bot (bot.cogs.days.install)")
    return days


async def install(bot: ProjectLBot) -> Days:
    """Create the services, hook them into the manager, register commands and buttons, and
    start the scheduler: a ``tasks`` loop ticking every ``bot.reminder_tick_seconds`` (default
    :data:`~bot.discord.reminders.TICK_SECONDS`); on a :class:`ManualClock` there is no loop unless a tick
    is given, and tests move time and call ``tick()`` themselves."""
    from . import absence, records, settings

    store = DaysStore(bot.storage)
    tick: float | None = getattr(bot, "reminder_tick_seconds", None)
    if tick is None and not isinstance(bot.clock, ManualClock):
        tick = TICK_SECONDS
    scheduler = ReminderScheduler(bot, store, tick_seconds=tick)
    days = Days(store, scheduler, TurnClock(bot.manager, store, bot.clock))
    bot.days = days  # type: ignore[attr-defined]
    scheduler.install()
    scheduler.announce_timeout = absence.announcer(bot)
    places = {PLAY: records.PLAY_COMMANDS, TABLE: absence.COMMANDS,
              None: (*settings.COMMANDS, *records.COMMANDS)}
    for where, commands in places.items():
        group = subgroup(bot.tree, where)
        for command in commands:
            group.add_command(command)
    bot.add_dynamic_items(*absence.DYNAMIC_ITEMS, *records.DYNAMIC_ITEMS, UnknownDaysButton)
    await scheduler.start()
    return days


async def shutdown(bot: ProjectLBot) -> None:
    days = getattr(bot, "days", None)
    if isinstance(days, Days):
        await days.reminders.stop()
