"""(being written) /projectl commands: play."""

from __future__ import annotations

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    """Register this module's commands on the bot's /projectl group."""
