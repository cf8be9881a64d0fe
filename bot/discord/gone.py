"""Channels that are gone: a deleted channel or thread, or a server the bot was removed from.

The games there end as cancelled (bot/core/play/gone.py decides and cancels) and each human
player gets one DM saying which table ended and why — unless their DMs are known to be closed,
as for every DM the bot sends unasked. An archived thread is not deleted: nothing happens to its
game (THREAD_UPDATE is not listened to here). A deleted channel's threads go with it without a
THREAD_DELETE from Discord (discord.py makes one only for the threads it had cached): every game
in one of them ends with the channel, cached or not, and is named after the channel (one found
gone by looking it up is not: it may have gone earlier, while the bot was away). The events end
their games one at a time: discord.py's delete of such a cached thread, which follows the
channel's, finds its game already ended."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Literal

import discord

from bot.core.play.gone import (
    GONE,
    GoneGame,
    end_games_in,
    end_games_of_channel,
    end_games_of_server,
    gone_notice,
)

from .cogs.days import days_of
from .readers import parent_channel_id
from .services import FrontServices

log = logging.getLogger(__name__)

ASK_AGAIN_AFTER = 3600.0
"""Seconds before a channel Discord would not tell about is asked about again."""


async def tell(bot: FrontServices, ended: list[GoneGame], channel: str | None, server: str | None,
               *, removed: bool = False) -> None:
    """DM each human player of each ended game (names as Discord last showed them)."""
    days = days_of(bot)
    for gone in ended:
        notice = gone_notice(gone, channel, server, removed=removed)
        for user_id in gone.user_ids:
            if (await days.store.get_prefs(user_id)).dms_closed:
                continue
            if await days.reminders.direct_message(user_id, notice, game=gone.game) == "closed":
                await days.store.set_dms_closed(user_id, True)


async def parent_of(bot: Any, channel_id: int) -> int | Literal["gone"] | None:
    """The channel ``channel_id`` belongs to, from the cache or else from Discord (an archived
    thread is not cached): :data:`GONE` when Discord no longer has it, None when it cannot
    tell (the channel is hidden from the bot, Discord failed)."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.NotFound:
            return GONE
        except discord.HTTPException as error:
            log.info("could not look up channel %s: %s", channel_id, error)
            return None
    return parent_channel_id(channel)


class UntoldParents:
    """Asks :func:`parent_of`, and remembers for :data:`ASK_AGAIN_AFTER` the channels it could not
    tell of (hidden from the bot, Discord failing): an older game's channel like that would
    otherwise be fetched again at every channel delete of its server, each one waiting on it."""

    def __init__(self, bot: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        self._untold: dict[int, float] = {}
        """Channel id -> when it may be asked about again."""

    async def __call__(self, channel_id: int) -> int | Literal["gone"] | None:
        if self._untold.get(channel_id, 0.0) > self.clock():
            return None
        answer = await parent_of(self.bot, channel_id)
        if answer is None:
            self._untold[channel_id] = self.clock() + ASK_AGAIN_AFTER
        else:
            self._untold.pop(channel_id, None)
        return answer


def install(bot: Any) -> None:
    """Listen for deleted channels and threads and for leaving a server."""
    ending = asyncio.Lock()  # one event's games end before the next event's are looked for
    parents = UntoldParents(bot)

    async def on_guild_channel_delete(channel: discord.abc.GuildChannel) -> None:
        async with ending:
            ended = await end_games_of_channel(bot.manager, channel.id, channel.guild.id, parents)
        await tell(bot, ended, channel.name, channel.guild.name)

    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        async with ending:
            ended = await end_games_in(bot.manager, [payload.thread_id])
        thread = payload.thread
        guild = bot.get_guild(payload.guild_id)
        await tell(bot, ended, None if thread is None else thread.name,
                   None if guild is None else guild.name)

    async def on_guild_remove(guild: discord.Guild) -> None:
        async with ending:
            ended = await end_games_of_server(bot.manager, guild.id)
        for gone in ended:
            channel = guild.get_channel_or_thread(gone.game.channel_id)
            await tell(bot, [gone], None if channel is None else channel.name, guild.name, removed=True)
        if ended:
            log.info("left server %s: %d game(s) cancelled", guild.id, len(ended))

    bot.add_listener(on_guild_channel_delete)
    bot.add_listener(on_raw_thread_delete)
    bot.add_listener(on_guild_remove)
