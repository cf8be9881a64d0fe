"""The inbox in Discord: ``/projectl-games mine`` lists a player's games on the server where it is
their move (oldest wait first) and those waiting on others; the **Next game waiting for you**
button under a finished turn's reply links the game that has waited longest for them. Both
answer privately (bot/core/days/inbox.py words them)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.core.days.inbox import Inbox, fitted_inbox_lines, games_left, inbox_of, next_waiting
from bot.core.days.pace import duration_text
from bot.core.errors import BadInputError, StaleError
from bot.core.storage.days import DaysStore
from bot.core.wording import texts
from bot.core.wording.locales import localise

from .cogs.common import MAX_CONTENT, bot_of, on_private_message, reply, report_error
from .services import FrontServices


async def inbox_for(bot: FrontServices, guild_id: int | None, user_id: int) -> Inbox:
    if guild_id is None:
        raise BadInputError(texts.NOT_A_GUILD)
    rows = await DaysStore(bot.storage).open_turns_beside(guild_id, user_id)
    return inbox_of(rows, guild_id, user_id, await games_left(rows, user_id, bot.manager.game))


@app_commands.command(name="mine",
                      description="Your games on this server: where it is your move, oldest first")
async def mine_command(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    inbox = await inbox_for(bot, interaction.guild_id, interaction.user.id)
    locale = interaction.locale
    lines = fitted_inbox_lines(inbox, bot.clock.now(),
                               lambda lines: len(joined(lines, locale)) <= MAX_CONTENT)
    await reply(interaction, joined(lines, locale))


def joined(lines: list[Any], locale: Any) -> str:
    """``lines`` as one message in ``locale`` (as :func:`clip` joins them, uncut)."""
    return "\n".join(str(localise(line, locale)).rstrip() for line in lines)


def next_game_view(game_id: int) -> discord.ui.View:
    """The button under the reply that ends a player's turn in game ``game_id``."""
    view = discord.ui.View(timeout=None)
    view.add_item(NextGameButton(game_id))
    return view


GAME_ID = re.compile(r"\d{1,19}")


class NextGameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"plg:next:(?P<rest>[\s\S]*)"):
    """**Next game waiting for you**: the id names the game just played, which is passed over
    (the move may have come straight back); it works after a restart. Any other ``plg:next:``
    id (forged or garbled: ``game_id`` None), or the button hung on any message but a private
    reply, is refused privately, not left unanswered."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(discord.ui.Button(label=texts.NEXT_GAME_BUTTON, style=discord.ButtonStyle.primary,
                                           custom_id=f"plg:next:{game_id or 0}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> NextGameButton:
        return cls(int(match["rest"]) if GAME_ID.fullmatch(match["rest"]) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.game_id is None or not on_private_message(interaction):  # garbled, or hung elsewhere
                raise StaleError(texts.FORGED_BUTTON)
            bot = bot_of(interaction)
            found = await inbox_for(bot, interaction.guild_id, interaction.user.id)
            waiting = next_waiting(found, self.game_id)
            if waiting is None:
                await reply(interaction, texts.NEXT_GAME_NONE)
                return
            await reply(interaction, texts.NEXT_GAME.format(
                game_id=waiting.game_id, link=waiting.link, channel=f"<#{waiting.channel_id}>",
                waited=duration_text(bot.clock.now() - waiting.since)))
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await report_error(interaction, error)
