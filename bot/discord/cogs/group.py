"""Slash commands and their button partners. Cogs parse and authorise; the manager does the work.

All game commands live under one ``/projectl`` group; the server admins' settings are their own
``/projectl-server`` command (bot/discord/cogs/server.py). Each module contributes a mixin of commands
(``TableCommands``, ``PlayCommands``, ``InfoCommands``) and :class:`ProjectLCog` combines them,
because discord.py builds one group per ``GroupCog`` and collects commands from its bases.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from ..services import FrontServices
from .info import InfoCommands
from .play import PlayCommands
from .table import TableCommands


@app_commands.guild_only()
class ProjectLCog(TableCommands, PlayCommands, InfoCommands, commands.GroupCog,
                  group_name="projectl", group_description="Play Project L in this channel"):
    """The /projectl command group."""

    def __init__(self, bot: FrontServices) -> None:
        self.bot = bot

