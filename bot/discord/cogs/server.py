"""``/projectl-server``: settings a server's admins choose for the whole server — the language of
the bot's public posts there, and whether its lobbies offer plug-in AIs (bot/core/play/plugins.py).

Its own top-level command, not a ``/projectl`` subcommand, for two reasons: Discord hides it from
everyone without **Manage Server** (``default_member_permissions``, which applies to a whole
top-level command), and ``/projectl`` has almost no room left in Discord's 4000 characters per
language. Discord lets admins grant a command to other roles, so the permission is checked here
as well: only a member who may manage the server changes, or even sees, its settings.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.core.errors import BotError
from bot.core.play.plugins import plugin_names
from bot.core.wording import texts
from bot.core.wording.locales import Joined, language_name, locale_code, locales

from . import common

FOLLOW = "server"
"""The ``language`` choice that follows the server's own preferred locale again."""
ENGLISH = "en-US"


class NotServerAdminError(BotError):
    """Only a member who may manage the server changes its settings; nothing was changed."""


def language_choices() -> list[app_commands.Choice[str]]:
    """English, every language the bot has a catalogue for, and "follow the server"."""
    offered = [ENGLISH, *locales()]
    return [*(app_commands.Choice(name=language_name(code), value=code) for code in offered),
            app_commands.Choice(name="Follow the server's preferred locale", value=FOLLOW)]


def shown_language(locale: object) -> str:
    """The language public posts come out in for ``locale``: its name when the bot speaks it,
    else English (the fallback every catalogue lookup takes)."""
    code = locale_code(locale)
    return language_name(code) if code in locales() else language_name(ENGLISH)


def plugin_ais_text(enabled: bool) -> str:
    """What an admin reads after turning plug-in AIs on (with the installed ones) or off."""
    if not enabled:
        return texts.SERVER_PLUGIN_AIS_OFF
    names = ", ".join(f"`{name}`" for name in plugin_names())
    return texts.SERVER_PLUGIN_AIS_ON.format(names=names or texts.SERVER_PLUGIN_AIS_NONE)


def may_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return perms.manage_guild or perms.administrator


@app_commands.command(name="projectl-server",
                      description="Project L settings for this server (Manage Server)")
@app_commands.describe(language="Language of the bot's public posts in this server",
                       plugin_ais="Offer the plug-in AIs installed beside the bot in this server's lobbies")
@app_commands.choices(language=language_choices())
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
async def server_command(interaction: discord.Interaction,
                         language: app_commands.Choice[str] | None = None,
                         plugin_ais: bool | None = None) -> None:
    if not may_manage(interaction):
        raise NotServerAdminError(texts.SERVER_ADMINS_ONLY)
    bot = common.bot_of(interaction)
    guild_id = interaction.guild_id
    assert guild_id is not None  # guild_only
    said: list[str] = []
    if plugin_ais is not None:
        await common.saved(interaction, bot.manager.plugin_servers.choose(guild_id, plugin_ais,
                                                                          by_user_id=interaction.user.id))
        said.append(plugin_ais_text(plugin_ais))
        if language is None:
            await common.reply(interaction, said[0])
            return
    if language is not None:
        chosen = None if language.value == FOLLOW else language.value
        await common.saved(interaction, bot.server_locales.choose(guild_id, chosen,
                                                                  by_user_id=interaction.user.id))
    shown = shown_language(common.server_locale(interaction))
    if language is None:
        current = (texts.SERVER_LANGUAGE_IS_CHOSEN if guild_id in bot.server_locales
                   else texts.SERVER_LANGUAGE_IS_FOLLOWED)
    else:
        current = (texts.SERVER_LANGUAGE_FOLLOWED if language.value == FOLLOW
                   else texts.SERVER_LANGUAGE_CHOSEN)
    said.append(current.format(language=shown))  # both choices made at once: both confirmed
    await common.reply(interaction, Joined(said, "\n"))
