"""Channels that are gone: a deleted channel or thread, or a server the bot was removed from.

The games there end as cancelled (bot/core/play/gone.py decides and cancels) and each human
player gets one DM saying which table ended and why — unless their DMs are known to be closed,
as for every DM the bot sends unasked. An archived thread is not deleted: nothing happens to its
game (THREAD_UPDATE is not listened to here). A thread deleted with its parent channel arrives
as a thread delete of its own (discord.py dispatches one per cached thread)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.core.play.gone import GoneGame, end_games_in, end_games_of_server, gone_notice

from .cogs.days import days_of
from .services import FrontServices

log = logging.getLogger(__name__)


async def tell(bot: FrontServices, ended: list[GoneGame], channel: str | None, server: str | None,
               *, removed: bool = False) -> None:
    """DM each human player of each ended game (names as Discord last showed them)."""
    days = days_of(bot)
    for gone in ended:
        notice = gone_notice(gone.game, channel, server, removed=removed)
        for user_id in gone.user_ids:
            if (await days.store.get_prefs(user_id)).dms_closed:
                continue
            if await days.reminders.direct_message(user_id, notice, game=gone.game) == "closed":
                await days.store.set_dms_closed(user_id, True)


def install(bot: Any) -> None:
    """Listen for deleted channels and threads and for leaving a server."""

    async def on_guild_channel_delete(channel: discord.abc.GuildChannel) -> None:
        ended = await end_games_in(bot.manager, [channel.id])
        await tell(bot, ended, channel.name, channel.guild.name)

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        ended = await end_games_in(bot.manager, [payload.thread_id])
        thread = payload.thread
        guild = bot.get_guild(payload.guild_id)
        await tell(bot, ended, None if thread is None else thread.name,
                   None if guild is None else guild.name)

    async def on_guild_remove(guild: discord.Guild) -> None:
        ended = await end_games_of_server(bot.manager, guild.id)
        for gone in ended:
            channel = guild.get_channel_or_thread(gone.game.channel_id)
            await tell(bot, [gone], None if channel is None else channel.name, guild.name, removed=True)
        if ended:
            log.info("left server %s: %d game(s) cancelled", guild.id, len(ended))

    bot.add_listener(on_guild_channel_delete)
    bot.add_listener(on_raw_thread_delete)
    bot.add_listener(on_guild_remove)
