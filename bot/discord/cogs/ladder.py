"""``/projectl-games``: ratings ladders (``leaderboard``), the lobby's ``rated`` switch, and the
replays and recaps of finished games (docs/ratings.md, docs/replays.md).

Why a top-level command of its own: ``/projectl`` has almost none of Discord's 4,000 characters
per command left in pt-BR (tests/test_hardening_limits.py), and these commands look at finished
games rather than play one. Everything here answers privately except the ``rated`` switch, which
the whole table should see; every message sends ``allowed_mentions`` explicitly and every name is
escaped (``PlayerName``).
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.core import ladder, texts
from bot.core.errors import BadInputError, StaleError
from bot.core.locales import localise
from bot.core.storage.ratings import RatingStore

from ..mentions import NOBODY
from . import common
from .days import id_fields

ROOT = "projectl-games"
PREFIX = "plg"
COLOUR = discord.Colour.dark_gold()

SCOPE_CHOICES = [app_commands.Choice(name="this server", value="server"),
                 app_commands.Choice(name="all servers", value="all")]
LADDER_CHOICES = [app_commands.Choice(name="multiplayer", value="multi"),
                  app_commands.Choice(name="solo normal", value="solo-normal"),
                  app_commands.Choice(name="solo hard", value="solo-hard"),
                  app_commands.Choice(name="solo unbeatable", value="solo-unbeatable")]


def make_group() -> app_commands.Group:
    """The ``/projectl-games`` command (one per bot: a tree owns its commands)."""
    group = app_commands.Group(name=ROOT, description="Ratings, replays and recaps of finished games",
                               guild_only=True)
    for command in COMMANDS:
        group.add_command(command)
    return group


# -- leaderboard -----------------------------------------------------------------------------------


async def leaderboard_page(bot: Any, guild_id: int | None, scope: str, which: str, page: int,
                           locale: Any) -> tuple[discord.Embed, discord.ui.View]:
    key = ladder.ladder_key(scope, which, guild_id)
    store = RatingStore(bot.storage)
    total, _ = await store.ladder(key, limit=0)
    pages = ladder.pages_of(total)
    shown = min(max(page, 1), pages)
    offset = (shown - 1) * ladder.PAGE_SIZE
    _, rows = await store.ladder(key, offset=offset, limit=ladder.PAGE_SIZE)
    lines = [localise(line, locale) for line in ladder.leaderboard_lines(rows, offset)]
    body = "\n".join(lines) or localise(texts.LEADERBOARD_EMPTY, locale)
    if which == "multi":
        body += "\n\n" + localise(ladder.ai_levels(), locale)
    embed = discord.Embed(title=localise(ladder.title(scope, which, shown, pages), locale), colour=COLOUR,
                          description=body)
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(scope, which, shown - 1, "prev", disabled=shown <= 1))
    view.add_item(LeaderboardButton(scope, which, shown + 1, "next", disabled=shown >= pages))
    return embed, common.localise_view(view, locale)


@app_commands.command(name="leaderboard", description="Ratings ladder: this server's or all servers'")
@app_commands.describe(scope="This server (default) or all servers",
                       ladder="Multiplayer (default) or a Solo difficulty", page="Which page (default: 1)")
@app_commands.choices(scope=SCOPE_CHOICES, ladder=LADDER_CHOICES)
async def leaderboard_command(
    interaction: discord.Interaction, scope: app_commands.Choice[str] | None = None,
    ladder: app_commands.Choice[str] | None = None, page: app_commands.Range[int, 1, 10000] | None = None,
) -> None:
    bot = common.bot_of(interaction)
    if interaction.guild_id is None:
        raise BadInputError(texts.NOT_A_GUILD)
    await common.defer(interaction)
    embed, view = await leaderboard_page(bot, interaction.guild_id, scope.value if scope else "server",
                                         ladder.value if ladder else "multi", page or 1, interaction.locale)
    await interaction.followup.send(localise(texts.LEADERBOARD_HINT, interaction.locale), embed=embed,
                                    view=view, ephemeral=True, allowed_mentions=NOBODY)


_LB_ID = (r"(?P<scope>server|all):(?P<ladder>multi|solo-normal|solo-hard|solo-unbeatable)"
          r":(?P<page>\d{1,6}):(?P<dir>prev|next)")


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"plg:lb:(?P<rest>.*)"):
    """‹ / › under a leaderboard page: the message shows the asked page instead (no state kept:
    the id says which ladder and page, so it works after a restart)."""

    def __init__(self, scope: str, which: str, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=texts.LOG_PREV if direction == "prev" else texts.LOG_NEXT, disabled=disabled,
            style=discord.ButtonStyle.secondary,
            custom_id=f"{PREFIX}:lb:{scope}:{which}:{max(page, 0)}:{direction}"))
        self.scope, self.which, self.page = scope, which, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> LeaderboardButton:
        fields = id_fields(_LB_ID, match["rest"])
        if fields is None:
            return cls("", "", -1, "prev")  # refused in the callback
        return cls(fields["scope"], fields["ladder"], int(fields["page"]), fields["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.page < 0:
                raise StaleError(texts.FORGED_BUTTON)
            embed, view = await leaderboard_page(common.bot_of(interaction), interaction.guild_id, self.scope,
                                                 self.which, self.page, interaction.locale)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


class UnknownGamesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"plg:(?!(?:lb|rp):).*"):
    """A ``plg:`` id of no known kind: answered, politely, rather than left to time out."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=f"{PREFIX}:unknown"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> UnknownGamesButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await common.reply(interaction, texts.FORGED_BUTTON)


# -- rated / casual --------------------------------------------------------------------------------


@app_commands.command(name="rated", description="Host, in the lobby: make this table rated or casual")
@app_commands.describe(value="On (default for every table): rated; off: casual")
async def rated_command(interaction: discord.Interaction, value: bool) -> None:
    bot = common.bot_of(interaction)
    await bot.manager.set_rated(common.channel_id_of(interaction), interaction.user.id, value)
    locale = common.server_locale(interaction)
    await interaction.response.send_message(localise(texts.RATED_ON if value else texts.RATED_OFF, locale),
                                            allowed_mentions=NOBODY)


COMMANDS: tuple[app_commands.Command[Any, ..., Any], ...] = (leaderboard_command, rated_command)
DYNAMIC_ITEMS = (LeaderboardButton, UnknownGamesButton)


def install(bot: Any) -> None:
    """Add ``/projectl-games`` and its buttons (called from ``ProjectLBot.setup_hook``)."""
    bot.tree.add_command(make_group())
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
