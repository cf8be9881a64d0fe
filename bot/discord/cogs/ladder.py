"""``/projectl-games``: ratings ladders (``leaderboard``), the lobby's ``rated`` switch, and the
replays, recaps and exported records of finished games (docs/ratings.md, docs/replays.md), and a
player's inbox (``mine``, bot/discord/inbox.py).

Why a top-level command of its own: ``/projectl`` has almost none of Discord's 4,000 characters
per command left in pt-BR (tests/test_hardening_limits.py), and these commands look at finished
games rather than play one. Everything here answers privately except the ``rated`` switch, which
the whole table should see; every message sends ``allowed_mentions`` explicitly and every name is
escaped (``PlayerName``).
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import BadInputError, NoGameError, StaleError
from bot.core.games import Game, seat_name
from bot.core.records import ladder, replay
from bot.core.records.access import GamePlace
from bot.core.records.export import export_game
from bot.core.storage.ratings import RatingStore
from bot.core.storage.replays import ReplayStore
from bot.core.wording import texts
from bot.core.wording.describe import describe
from bot.core.wording.locales import Joined, localise, plain_text

from .. import inbox, recaps
from ..mentions import NOBODY
from ..readers import may_read, require_readable
from . import common
from .days import id_fields
from .table import refresh_lobby_message

ROOT = "projectl-games"
PREFIX = "plg"
COLOUR = discord.Colour.dark_gold()
CANDIDATES = 200
"""Finished games the autocomplete reads to offer the newest 25 the user may read."""

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
            common.require_private_page(interaction)
            embed, view = await leaderboard_page(common.bot_of(interaction), interaction.guild_id, self.scope,
                                                 self.which, self.page, interaction.locale)
            await interaction.response.edit_message(embed=embed, view=view)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


class UnknownGamesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                         template=r"plg:(?!(?:lb|rp|next):).*"):
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
    game = await common.saved(interaction, bot.manager.set_rated(common.channel_id_of(interaction),
                                                                 interaction.user.id, value))
    locale = common.server_locale(interaction)
    await interaction.response.send_message(localise(texts.RATED_ON if value else texts.RATED_OFF, locale),
                                            allowed_mentions=NOBODY)
    await refresh_lobby_message(interaction, game)  # the lobby says rated or casual


# -- replay ----------------------------------------------------------------------------------------


async def finished_game(interaction: discord.Interaction, game_id: int | None) -> Game:
    """The finished game asked for (default: the channel's last one), if the user may read it
    from here (:mod:`bot.discord.readers`)."""
    bot = common.bot_of(interaction)
    if game_id is None:
        game_id = await ReplayStore(bot.storage).last_finished(common.channel_id_of(interaction))
        if game_id is None:
            raise NoGameError(texts.REPLAY_NONE)
    game = require_readable(interaction, await bot.manager.game(game_id), game_id)
    if game.status != "finished" or game.state is None:
        raise BadInputError(texts.REPLAY_NOT_HERE.format(game_id=game_id))
    return game


async def replay_message(bot: Any, game: Game, number: int, locale: Any,
                         ) -> tuple[discord.Embed, discord.File | None, discord.ui.View]:
    """Step ``number`` of ``game``'s replay: its table image (one render), its turn's log lines in
    the viewer's language, and the First / ‹ / › / Last buttons with the "jump to turn" menu."""
    steps = replay.cached_steps(game, await bot.manager.log(game.id))
    step = steps[min(max(number, 0), len(steps) - 1)]
    last = len(steps) - 1
    lines = [entry.shown(locale) for entry in step.entries] or [localise(texts.REPLAY_START, locale)]
    heading = texts.REPLAY_TITLE.format(game_id=game.id, step=step.number, last=last, round=step.round)
    embed = discord.Embed(title=localise(heading, locale),
                          colour=COLOUR, description=common.clip(lines, 4000, locale=locale))
    before = None if step.previous is None else replay.revealed(step.previous)
    shown = replay.revealed(step.state)  # the game is over: its image and alt text hide nothing
    drawing = bot.renderer.table(shown, game.names, before, locale=locale)
    image = await common.drawn(drawing, f"step {step.number} of game {game.id}'s replay")
    about = describe(shown, game.names)
    file = None if image is None else common.png(image, "replay.png", about, locale)
    if file is not None:
        embed.set_image(url="attachment://replay.png")
    view = discord.ui.View(timeout=None)
    for kind, target, label in (("first", 0, texts.REPLAY_FIRST), ("prev", step.number - 1, "‹"),
                                ("next", step.number + 1, "›"), ("last", last, texts.REPLAY_LAST)):
        view.add_item(ReplayItem(discord.ui.Button(
            label=label, custom_id=f"{PREFIX}:rp:{game.id}:{max(0, min(target, last))}:{kind}",
            style=discord.ButtonStyle.secondary, row=0,
            disabled=(target < 0 or target > last or (kind in ("first", "last") and target == step.number)))))
    options = [discord.SelectOption(
        label=str(localise(texts.REPLAY_OPTION_START if n == 0 else
                           texts.REPLAY_OPTION.format(step=n, round=steps[n].round), locale)),
        value=str(n), default=n == step.number) for n in replay.jump_targets(len(steps), step.number)]
    view.add_item(ReplayItem(discord.ui.Select(custom_id=f"{PREFIX}:rp:{game.id}:jump", options=options,
                                               placeholder=texts.REPLAY_JUMP, row=1)))
    return embed, file, common.localise_view(view, locale)


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The server's finished games the user may read from here, newest first (the ids that start
    with what was typed), each with its seats' names as plain text: Discord shows a choice's name
    as it is (a markdown escape would show as a backslash)."""
    bot = common.bot_of(interaction)
    if interaction.guild_id is None:
        return []
    typed = "".join(ch for ch in current if ch.isdigit())[:19]
    candidates = await ReplayStore(bot.storage).finished_games(interaction.guild_id, starting=typed,
                                                               limit=CANDIDATES)
    found = [g for g in candidates if may_read(interaction, GamePlace.of_listed(g))][:25]
    return [app_commands.Choice(name=plain_text(texts.GAME_CHOICE.format(game_id=g.id, names=Joined(
        [seat_name(name, policy, user) for name, policy, user in zip(g.names, g.policies, g.seat_user_ids,
                                                                     strict=True)], ", ")),
        interaction.locale)[:100], value=g.id) for g in found]


@app_commands.command(name="replay",
                      description="Step through a finished game, turn by turn (only you see it)")
@app_commands.describe(game="A finished game of this server (default: this channel's last)")
@app_commands.autocomplete(game=game_choices)
async def replay_command(interaction: discord.Interaction,
                         game: app_commands.Range[int, 1] | None = None) -> None:
    bot = common.bot_of(interaction)
    found = await finished_game(interaction, game)
    await common.defer(interaction)
    embed, file, view = await replay_message(bot, found, 0, interaction.locale)
    await interaction.followup.send(localise(texts.REPLAY_HINT, interaction.locale), embed=embed, view=view,
                                    files=[file] if file else [], ephemeral=True, allowed_mentions=NOBODY)


_RP_ID = r"(?P<game>\d{1,19}):(?P<tail>\d{1,6}:(?:first|prev|next|last)|jump)"


class ReplayItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"plg:rp:(?P<rest>.*)"):
    """A replay's buttons and its "jump to turn" menu: the id names the game and the step, so the
    private message steps on after a restart; each tap renders that one step."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        fields = id_fields(_RP_ID, str(getattr(item, "custom_id", "")).removeprefix(f"{PREFIX}:rp:"))
        self.game_id = None if fields is None else int(fields["game"])
        tail = "jump" if fields is None else fields["tail"]
        self.step = None if tail == "jump" else int(tail.split(":")[0])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> ReplayItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            step = self.step
            if isinstance(self.item, discord.ui.Select):
                values = list(self.item.values)
                step = int(values[0]) if len(values) == 1 and values[0].isdecimal() else None
            if self.game_id is None or step is None:
                raise StaleError(texts.FORGED_BUTTON)
            common.require_private_page(interaction)
            bot = common.bot_of(interaction)
            game = await finished_game(interaction, self.game_id)
            await interaction.response.defer()
            embed, file, view = await replay_message(bot, game, step, interaction.locale)
            await interaction.edit_original_response(embed=embed, attachments=[file] if file else [],
                                                     view=view)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


@app_commands.command(name="recap", description="The animated recap of a finished game")
@app_commands.describe(game="A finished game of this server (default: this channel's last)")
@app_commands.autocomplete(game=game_choices)
async def recap_command(interaction: discord.Interaction,
                        game: app_commands.Range[int, 1] | None = None) -> None:
    bot = common.bot_of(interaction)
    found = await finished_game(interaction, game)
    await common.defer(interaction)
    text, file = await recaps.recap_message(bot, found, interaction.locale)
    await interaction.followup.send(str(localise(text, interaction.locale)), files=[file] if file else [],
                                    ephemeral=True, allowed_mentions=NOBODY)


@app_commands.command(name="export",
                      description="A finished game's record and log, as files (only you see them)")
@app_commands.describe(game="A finished game of this server (default: this channel's last)")
@app_commands.autocomplete(game=game_choices)
async def export_command(interaction: discord.Interaction,
                         game: app_commands.Range[int, 1] | None = None) -> None:
    bot = common.bot_of(interaction)
    found = await finished_game(interaction, game)
    await common.defer(interaction)
    exported = export_game(found, await bot.manager.log(found.id), interaction.locale)
    files = [discord.File(io.BytesIO(exported.record.encode("utf-8")), exported.record_name),
             discord.File(io.BytesIO(exported.log.encode("utf-8")), exported.log_name)]
    await interaction.followup.send(localise(texts.EXPORT_HINT.format(game_id=found.id), interaction.locale),
                                    files=files, ephemeral=True, allowed_mentions=NOBODY)


COMMANDS: tuple[app_commands.Command[Any, ..., Any], ...] = (
    leaderboard_command, rated_command, replay_command, recap_command, export_command, inbox.mine_command)
DYNAMIC_ITEMS = (LeaderboardButton, ReplayItem, inbox.NextGameButton, UnknownGamesButton)


def install(bot: Any) -> None:
    """Add ``/projectl-games`` and its buttons (called from ``ProjectLBot.setup_hook``)."""
    bot.tree.add_command(make_group())
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
