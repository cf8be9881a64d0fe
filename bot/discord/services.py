"""The running bot as the Discord front sees it: :class:`FrontServices` (the core's
:class:`~bot.core.services.BotServices` plus the Discord client's own parts) and the
:class:`Handlers` its buttons and menus call.

Buttons (``bot/discord/views.py``, ``bot/discord/panel_views.py``) sit below the cogs: the cogs
build them into their replies. What a button *does* is a cog's flow (``perform`` in
``cogs/play.py``, ``take_back`` in ``cogs/records.py``…), so a button reaches it through the bot's
:class:`Handlers`, which the app fills from the cogs, instead of importing the cog above it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord
from discord import app_commands

from bot.core.errors import OutOfDateError
from bot.core.play.manager import Chooser, Game
from bot.core.services import BotServices
from bot.core.storage.faults import FaultLog
from bot.web.acting import BoardFront
from engine import Action, Place

if TYPE_CHECKING:
    from .cogs.days import Days


class Perform(Protocol):
    """Apply one action for the interaction's user and answer (``cogs.play.perform``)."""

    def __call__(self, interaction: discord.Interaction, action: Action | str | None = None, *,
                 expected_stamp: str | None = None, game_id: int | None = None,
                 choose: Chooser | None = None) -> Awaitable[None]: ...


class MasterConfirm(Protocol):
    """Play the user's Master draft (``cogs.play.master_confirm``)."""

    def __call__(self, interaction: discord.Interaction, *, expected_stamp: str | None = None,
                 game_id: int | None = None, draft: str | None = None) -> Awaitable[None]: ...


@dataclass(frozen=True, slots=True)
class Handlers:
    """The flows the persistent buttons and menus run, by what they do."""

    perform: Perform
    show_preview: Callable[[discord.Interaction, int, str, Place], Awaitable[None]]
    """A placement's preview with its Confirm button (``cogs.play.show_preview``)."""
    master_confirm: MasterConfirm
    master_clear: Callable[[discord.Interaction, int | None], Awaitable[None]]
    take_back: Callable[[discord.Interaction], Awaitable[None]]
    """Undo the user's last action (``cogs.records.take_back``)."""
    lobby_button: Callable[[discord.Interaction, str, int], Awaitable[None]]
    """Join, Leave, Add AI, Start, Cancel on a lobby (``cogs.table.lobby_button``)."""
    send_mat: Callable[[discord.Interaction, Game, int | None], Awaitable[None]]
    """A mat, privately (``cogs.info.send_mat``)."""
    refuse_out_of_date: Callable[[discord.Interaction, OutOfDateError], Awaitable[None]]
    """An offer whose seat's view changed, refused with the fresh panel
    (``panel_views.refuse_out_of_date``)."""


class FrontServices(BotServices, Protocol):
    """What the cogs, views and the reminder loop use of the running Discord client."""

    handlers: Handlers
    days: Days | None
    """Playing over days (reminders, turn clock), once ``cogs.days_setup.install`` has run."""
    reminder_tick_seconds: float | None
    fault_log: FaultLog
    """Storage faults players hit, logged once in a while (bot/core/storage/faults.py)."""
    board_front: BoardFront | None
    """The web board (bot/web), once its server runs; None when it is off."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    async def wait_until_ready(self) -> None: ...

    def is_closed(self) -> bool: ...


def services_of(interaction: discord.Interaction) -> FrontServices:
    """The bot an interaction arrived at: discord.py types ``interaction.client`` as a plain
    ``discord.Client``; in this program it is always ``bot.discord.app.ProjectLBot``."""
    return cast(FrontServices, interaction.client)
