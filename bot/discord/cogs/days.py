"""Playing over days, the parts every cog shares: the feature's services (:class:`Days`, on the
bot once :mod:`bot.discord.cogs.days_setup` has installed them), the ``pld:`` custom ids and the
answer to one of no known kind.

Buttons use the ``pld:`` prefix, not ``pl:``: discord.py runs *every* dynamic item whose
template matches, and ``pl:`` ids we do not own are answered by the core "unknown button".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord

from bot.core.days.turnclock import TurnClock
from bot.core.play.plan_outcomes import PlanOutcomes
from bot.core.storage.days import DaysStore
from bot.core.wording import texts

from ..reminders import ReminderScheduler
from ..services import FrontServices
from .common import reply

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
        await reply(interaction, texts.FORGED_BUTTON)


@dataclass(frozen=True, slots=True)
class Days:
    """The feature's services, reachable from commands as ``days_of(bot)``."""

    store: DaysStore
    reminders: ReminderScheduler
    turnclock: TurnClock
    plan_outcomes: PlanOutcomes
    """What each seat's last planned turn did, for ``/projectl-plan show`` (bot/discord/plans.py)."""


async def turn_limit_of(bot: FrontServices, game_id: int) -> timedelta | None:
    """The table's turn clock, for the core cogs' lobby and status texts (None: no clock, or this
    feature is not installed)."""
    return await bot.days.store.turn_limit(game_id) if bot.days is not None else None


def days_of(bot: FrontServices) -> Days:
    if bot.days is None:
        raise RuntimeError("play-over-days is not installed on this bot (cogs.days_setup.install)")
    return bot.days
