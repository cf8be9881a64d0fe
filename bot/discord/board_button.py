"""The **Board** button (on the turn post and the Play panel): the web board for the clicker.

It answers privately with a link signed for the clicker's seat in that game (a spectator's link,
read-only, for anyone else who may read it from there: bot/web/tokens.py), or — where the
application's Activity is set up (``PROJECTL_ACTIVITY``) — launches the Activity, which signs the
user in itself (bot/web/activity.py). A link is a key to the seat, so it is never logged:
:func:`hide_board_links` keeps discord.py's request logs from showing one.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.core.errors import BotError, StaleError
from bot.core.wording import texts
from bot.core.wording.locales import locale_code

from .cogs import common
from .readers import require_readable

BOARD_PREFIX = "pl:board"
_BOARD_LINK = re.compile(r"#t=[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+")
LOGGERS_THAT_SHOW_PAYLOADS = ("discord.http", "discord.webhook.async_")


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pl:board:(?P<game>[0-9]{1,19})"):
    """"Board": the clicker's private link (or the Activity) for one game."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=texts.BOARD_BUTTON, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{BOARD_PREFIX}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> BoardButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await answer_board(interaction, self.game_id)
        except Exception as error:  # noqa: BLE001 - every failure reaches the user politely
            await common.report_error(interaction, error)


async def answer_board(interaction: discord.Interaction, game_id: int) -> None:
    bot = common.bot_of(interaction)
    front = bot.board_front
    if front is None:
        raise BotError(texts.BOARD_OFF)
    # a button's id names any game a tampered client likes: a table of a private thread is watched
    # only by its players and from inside it (bot/core/records/access.py), as its log is read
    game = require_readable(interaction, await bot.manager.game(game_id), game_id)
    if game.state is None:
        raise StaleError(texts.STALE_GAME)
    if bot.settings.activity:
        await interaction.response.launch_activity()
        return
    seat = game.seat_of(interaction.user.id)
    url = front.link(bot.settings.board_url, game.id, None if seat is None else seat.seat,
                     interaction.user.id, locale=locale_code(interaction.locale))
    words = texts.BOARD_LINK if seat is not None else texts.BOARD_LINK_WATCH
    await common.reply(interaction, words.format(game_id=game.id, url=url), ephemeral=True)


class _HideBoardLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "#t=" in message:
            record.msg, record.args = _BOARD_LINK.sub("#t=…", message), ()
        return True


_HIDING = _HideBoardLinks()


def hide_board_links() -> None:
    """Keep board links out of discord.py's debug logs of request payloads (idempotent)."""
    for name in LOGGERS_THAT_SHOW_PAYLOADS:
        logger = logging.getLogger(name)
        if _HIDING not in logger.filters:
            logger.addFilter(_HIDING)
