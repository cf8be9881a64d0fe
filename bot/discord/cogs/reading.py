"""``/projectl-describe`` and ``/projectl-catchup``: the table as text for a screen reader, and what
changed since your last turn — both private.

Top-level commands of their own, not ``/projectl`` subcommands: Discord counts the names,
descriptions and choices of a command with all its subcommands against one 4,000-character
budget per language, and ``/projectl`` has almost none of it left in pt-BR (docs/bot.md). Each
builds one :class:`bot.core.play.flow.ReadingContext` (one load of the game) and presents its lines.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.core.play import flow

from . import common

TABLE, ME = "table", "me"


@app_commands.command(name="projectl-describe",
                      description="The table or your mat as text, a line per item (only you see it)")
@app_commands.describe(view="The whole table (default) or your own mat")
@app_commands.choices(view=[app_commands.Choice(name="the table", value=TABLE),
                            app_commands.Choice(name="my mat", value=ME)])
@app_commands.guild_only()
async def describe_command(interaction: discord.Interaction,
                           view: app_commands.Choice[str] | None = None) -> None:
    bot = common.bot_of(interaction)
    ctx = await flow.reader(bot.manager, common.channel_id_of(interaction), interaction.user.id,
                            interaction.locale)
    lines = ctx.mat_lines() if view is not None and view.value == ME else ctx.table_lines()
    await common.send_lines(interaction, lines)


@app_commands.command(name="projectl-catchup",
                      description="What changed since your last turn (only you see it)")
@app_commands.guild_only()
async def catchup_command(interaction: discord.Interaction) -> None:
    bot = common.bot_of(interaction)
    ctx = await flow.reader(bot.manager, common.channel_id_of(interaction), interaction.user.id,
                            interaction.locale)
    await common.defer(interaction)
    await common.send_lines(interaction, await ctx.catch_up(bot.manager))


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (describe_command, catchup_command)
