"""The game's record: ``/projectl play undo``, ``/projectl log`` (paged, with Prev/Next buttons and the
end-of-game summary) and ``/projectl stats``. Text comes from :mod:`bot.core.records.history`."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.core.days import pace
from bot.core.errors import BadInputError, NoGameError
from bot.core.games import parse_stored_state, seat_name
from bot.core.play.manager import Game, Seat
from bot.core.play.undo import undo_last
from bot.core.records import history, ladder
from bot.core.records.ratings import server_ladder
from bot.core.records.results import seat_results
from bot.core.storage import Storage
from bot.core.storage.ratings import RatingStore
from bot.core.storage.stats import PlayerTotals, StatsStore
from bot.core.wording import texts
from bot.core.wording.describe import describe, mat_lines
from bot.core.wording.locales import Joined, Notation, localise
from engine import StateFormatError

from ..mentions import NOBODY
from ..panel_views import panel_for
from ..permissions import require_table_permissions
from ..readers import require_readable
from . import common
from .days import PREFIX, days_of, id_fields

LOG_COLOUR = discord.Colour.dark_teal()


# -- undo ------------------------------------------------------------------------------------------


@app_commands.command(name="undo",
                      description="Take back your last action (nobody acted since, no card revealed)")
async def undo_command(interaction: discord.Interaction) -> None:
    await take_back(interaction)


async def take_back(interaction: discord.Interaction) -> None:
    """Undo the user's last action and answer privately (with the turn panel for the move that
    is theirs again); the channel is told publicly. Shared by the command and the panel's Undo."""
    bot = common.bot_of(interaction)
    channel_id = common.channel_id_of(interaction)
    require_table_permissions(interaction)  # the table is told: the panel's Undo button checks too
    await common.defer(interaction)
    days = days_of(bot)
    done = await common.saved(interaction,
                              undo_last(bot.manager, days.store, channel_id, interaction.user.id))
    await days.reminders.after_undo(done.game, interaction.user.id)
    state = done.game.state
    assert state is not None
    mine = state.focused(done.seat)  # Line Clear: the undoer's own turn
    left = texts.ACTIONS_LEFT.format(n=mine.actions_left) if state.phase.value == "play" else ""
    mat = await common.drawn(bot.renderer.mat(state, done.seat, done.game.names, locale=interaction.locale),
                             f"seat {done.seat}'s mat in game {done.game.id}")
    panel = panel_for(done.game, interaction.user.id, None, mat_button=False)  # the mat is attached
    undone = Joined([texts.UNDO_DONE.format(action=Notation(done.action)), left,
                     "" if mat is not None else texts.IMAGE_MISSING], " ")
    about = describe(state, done.game.names, done.seat, mat=done.seat)
    seat = done.seat
    await common.board_reply(interaction, undone, common.pngs(mat, "mat.png", about),
                             lambda: mat_lines(state, done.game.names, seat),
                             view=panel.view if panel else None)
    channel = common.posting_channel(interaction)
    if channel is not None:
        name = done.game.seats[done.seat].name
        await channel.send(
            common.public(texts.UNDO_PUBLIC.format(name=name, action=Notation(done.action)), interaction))


# -- log -------------------------------------------------------------------------------------------


async def _log_game(interaction: discord.Interaction, game_id: int | None) -> Game:
    bot = common.bot_of(interaction)
    channel_id = common.channel_id_of(interaction)
    if game_id is None:
        row = await days_of(bot).store.latest_game_in_channel(channel_id)
        game = None if row is None else Game.from_row(row)
    else:
        return require_readable(interaction, await bot.manager.game(game_id), game_id)
    if game is None:
        raise NoGameError(texts.LOG_NO_GAME)
    return require_readable(interaction, game, game.id)


async def log_page(game: Game, bot: Any, number: int | None,
                   locale: Any = None) -> tuple[list[discord.Embed], discord.ui.View]:
    """Embeds for one page of the log (the last page by default), plus the summary when the game
    is over, and the Prev/Next buttons — in ``locale``, the reader's (the log is private)."""
    store = days_of(bot).store
    rows, undone = await store.storage.actions(game.id), await store.undone_actions(game.id)
    entries = history.log_entries(game, rows, undone)
    last_page = history.page_count(len(entries))
    shown, shown_entries = history.page(entries, number if number is not None else last_page)
    embed = discord.Embed(title=localise(history.page_title(game, shown, entries), locale), colour=LOG_COLOUR,
                          description="\n".join(e.shown(locale) for e in shown_entries)
                          or localise(texts.LOG_EMPTY, locale))
    embeds = [embed]
    if game.status == "finished" and game.state is not None:
        summary = [localise(line, locale) for line in history.summary_lines(game, rows)]
        embeds.append(discord.Embed(title=localise(texts.SUMMARY_TITLE.format(game_id=game.id), locale),
                                    colour=LOG_COLOUR, description="\n".join(summary)))
    view = discord.ui.View(timeout=None)
    pages = last_page
    view.add_item(LogButton(game.id, shown - 1, "prev", disabled=shown <= 1))
    view.add_item(LogButton(game.id, shown + 1, "next", disabled=shown >= pages))
    return embeds, common.localise_view(view, locale)


@app_commands.command(name="log",
                      description="The game's moves, 15 per page (finished: the summary)")
@app_commands.describe(page="Which page (default: the latest)", game="A game number, for an older game")
async def log_command(
    interaction: discord.Interaction, page: app_commands.Range[int, 1, 1000] | None = None,
    game: app_commands.Range[int, 1] | None = None,
) -> None:
    bot = common.bot_of(interaction)
    found = await _log_game(interaction, game)
    await common.defer(interaction)
    embeds, view = await log_page(found, bot, page, interaction.locale)
    files = []
    if found.status == "finished" and found.state is not None:
        files.append(common.png(await bot.renderer.results(found.state, found.names,
                                                                  locale=interaction.locale), "results.png",
                                    describe(found.state, found.names), interaction.locale))
    await interaction.followup.send(localise(texts.LOG_HINT, interaction.locale), embeds=embeds, view=view,
                                    files=files, ephemeral=True)


_LOG_ID = r"(?P<game>\d{1,19}):(?P<page>\d{1,6}):(?P<dir>prev|next)"


class LogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pld:log:(?P<rest>.*)"):
    """Prev / Next under a log page: re-renders the message with the asked page."""

    def __init__(self, game_id: int, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=texts.LOG_PREV if direction == "prev" else texts.LOG_NEXT, disabled=disabled,
            style=discord.ButtonStyle.secondary,
            custom_id=f"{PREFIX}:log:{game_id}:{max(page, 0)}:{direction}"))
        self.game_id, self.page = game_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> LogButton:
        fields = id_fields(_LOG_ID, match["rest"])
        if fields is None:
            return cls(0, 0, "prev")  # game 0 never exists: refused as stale
        return cls(int(fields["game"]), int(fields["page"]), fields["dir"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            common.require_private_page(interaction)
            bot = common.bot_of(interaction)
            game = require_readable(interaction, await bot.manager.game(self.game_id), self.game_id)
            embeds, view = await log_page(game, bot, max(self.page, 1), interaction.locale)
            await interaction.response.edit_message(embeds=embeds, view=view)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


# -- stats -----------------------------------------------------------------------------------------


@app_commands.command(name="stats",
                      description="This server's results: games, wins, scores")
async def stats_command(interaction: discord.Interaction) -> None:
    bot = common.bot_of(interaction)
    if interaction.guild_id is None:
        raise BadInputError(texts.NOT_A_GUILD)
    await common.defer(interaction)
    games, totals = await server_stats(days_of(bot).store.storage, interaction.guild_id)
    locale = interaction.locale  # the reply is private: the reader's language
    store = days_of(bot).store
    turns = await store.turn_times(interaction.guild_id)  # the pace: one read, and the players' settings
    prefs = await store.prefs_of({t.user_id for t in turns})
    lines = [localise(line, locale) for line in history.stats_lines(history.ranked(totals))]
    paced = [localise(line, locale) for line in pace.server_pace_lines(turns, prefs)]
    embed = discord.Embed(title=localise(texts.STATS_TITLE.format(games=games), locale), colour=LOG_COLOUR,
                          description="\n".join(lines[:40]) or localise(texts.STATS_EMPTY, locale))
    rated = [localise(line, locale) for line in await rating_lines(
        days_of(bot).store.storage, interaction.guild_id, [t.user_id for t in history.ranked(totals)][:40])]
    if paced:  # a field of its own: the pace, under the results
        embed.add_field(name=paced[0][:256], value="\n".join(paced[1:])[:1024], inline=False)
    embeds = [embed, discord.Embed(title=localise(texts.RATINGS_TITLE, locale), colour=LOG_COLOUR,
                                   description="\n".join(rated) or localise(texts.RATINGS_EMPTY, locale))]
    await interaction.followup.send(localise(texts.STATS_HINT, locale), embeds=embeds, ephemeral=True,
                                    allowed_mentions=NOBODY)


async def rating_lines(storage: Storage, guild_id: int, user_ids: list[int]) -> list[str]:
    """Each rated player's rating, rated games and trend on the server's ladder, best first."""
    store = RatingStore(storage)
    key = server_ladder(guild_id)
    found = await store.players(key, user_ids)
    lines = []
    for row in sorted(found.values(), key=lambda r: -(r.mu - 3 * r.sigma)):
        _, changes = await store.player(key, row.user_id)
        lines.append(ladder.rating_line(row, changes))
    return lines


async def server_stats(storage: Storage, guild_id: int) -> tuple[int, list[PlayerTotals]]:
    """(finished games, per-player totals) of a server: one aggregate query over
    ``game_results``. Games finished before that table existed get their rows here, once, a
    batch at a time (parsed without going through the manager's cache of live states)."""
    store = StatsStore(storage)
    skipped: set[int] = set()
    while batch := [row for row in await store.games_without_results(guild_id, limit=200 + len(skipped))
                    if row.id not in skipped]:
        results = {}
        for row in batch:
            try:
                state = parse_stored_state(row.state or "", row)
            except StateFormatError:
                state = None
            if state is None or not state.is_over:
                skipped.add(row.id)  # unreadable: left out, as the old per-request parse did
                continue
            seats = [Seat(s.seat, s.user_id, seat_name(s.display_name, s.policy, s.user_id), s.policy)
                     for s in row.seats]
            results[row.id] = (row.guild_id, seat_results(seats, state))
        await store.save_results(results)
    return await store.server_totals(guild_id)


PLAY_COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (undo_command,)
"""Under ``/projectl play`` (taking back a move is part of the turn)."""
COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (log_command, stats_command)
"""Directly under ``/projectl``."""
DYNAMIC_ITEMS = (LogButton,)
