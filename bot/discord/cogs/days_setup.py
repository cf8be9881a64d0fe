"""Wiring for playing over days: builds the reminder scheduler and turn clock, adds their
commands to the ``/projectl`` tree (``undo`` to ``play``; ``vote``, ``leave``, ``replace`` to
``table``; ``settings``, ``log``, ``stats`` directly — see :mod:`bot.discord.commandtree`) and their
persistent buttons to the bot.

The commands are free functions added to the existing group (rather than another mixin of the
group cog), so this feature plugs in with one call from ``setup_hook`` and one from ``close``.
"""

from __future__ import annotations

from bot.core.clock import ManualClock
from bot.core.days.turnclock import TurnClock
from bot.core.play.plan_outcomes import PlanOutcomes
from bot.core.storage.days import DaysStore

from ..commandtree import PLAY, TABLE, subgroup
from ..reminders import TICK_SECONDS, ReminderScheduler
from ..services import FrontServices
from . import absence, records, settings
from .days import Days, UnknownDaysButton


async def install(bot: FrontServices) -> Days:
    """Create the services, hook them into the manager, register commands and buttons, and
    start the scheduler: a ``tasks`` loop ticking every ``bot.reminder_tick_seconds`` (default
    :data:`~bot.discord.reminders.TICK_SECONDS`); on a :class:`ManualClock` there is no loop unless a tick
    is given, and tests move time and call ``tick()`` themselves."""
    store = DaysStore(bot.storage)
    tick = bot.reminder_tick_seconds
    if tick is None and not isinstance(bot.clock, ManualClock):
        tick = TICK_SECONDS
    scheduler = ReminderScheduler(bot, store, tick_seconds=tick)
    days = Days(store, scheduler, TurnClock(bot.manager, store, bot.clock), PlanOutcomes(bot.storage))
    bot.days = days
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


async def shutdown(bot: FrontServices) -> None:
    if bot.days is not None:
        await bot.days.reminders.stop()
