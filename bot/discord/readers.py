"""Who may read a game, as the Discord front asks it: :func:`bot.core.records.access.may_read`
with the reader and place an interaction gives, and what the bot's cache says of the game's
channel now. Every command, button, list and autocomplete that shows or names a game goes
through :func:`may_read` (a list) or :func:`require_readable` (one game). A new game also keeps
its channel's parent (:func:`parent_channel_id`), whose deletion ends it (bot/core/play/gone.py).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import BadInputError
from bot.core.games import Game
from bot.core.records.access import GamePlace, Reader
from bot.core.records.access import may_read as rule
from bot.core.wording import texts


def channel_private(channel: Any) -> bool | None:
    """Whether ``channel`` is private: a private thread, or a channel (or a thread of one) that
    @everyone cannot see; None when the cache cannot tell (a thread whose parent it lacks)."""
    if getattr(channel, "type", None) is discord.ChannelType.private_thread:
        return True
    guild = getattr(channel, "guild", None)
    if guild is None or not hasattr(channel, "permissions_for"):
        return None
    try:
        return not channel.permissions_for(guild.default_role).view_channel
    except (discord.ClientException, AttributeError):
        return None


def parent_channel_id(channel: Any) -> int | None:
    """The channel ``channel`` belongs to: a thread's (or forum post's) parent, else the channel
    itself; None when the interaction gave only a partial channel."""
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return channel.id if isinstance(channel, discord.abc.GuildChannel) else None


def private_now(interaction: discord.Interaction, channel_id: int) -> bool | None:
    """Whether the channel ``channel_id`` of the interaction's server is private, as the bot's
    cache holds it now (None: not cached, e.g. an archived thread)."""
    guild = interaction.client.get_guild(interaction.guild_id) if interaction.guild_id else None
    channel = None if guild is None else guild.get_channel_or_thread(channel_id)
    return None if channel is None else channel_private(channel)


def reader_of(interaction: discord.Interaction) -> Reader:
    return Reader(interaction.user.id, interaction.guild_id, interaction.channel_id)


def may_read(interaction: discord.Interaction, place: GamePlace) -> bool:
    """Whether the interaction's user may see the game at ``place`` from where they ask."""
    return rule(place, reader_of(interaction), private_now(interaction, place.channel_id))


def require_readable(interaction: discord.Interaction, game: Game | None, game_id: int) -> Game:
    """``game`` (game ``game_id``, None when there is none), or one refusal for both a missing
    game and one the user may not read here: it says nothing of the game."""
    if game is None or not may_read(interaction, GamePlace.of(game)):
        raise BadInputError(texts.GAME_NOT_READABLE.format(game_id=game_id))
    return game
