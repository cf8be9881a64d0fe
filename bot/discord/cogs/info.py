"""Looking at the game: ``/projectl status``, ``mat``, ``rules``, ``help``. Nothing here changes a game,
and nothing is secret except deck order, so anyone may look at any mat."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.days import pace
from bot.core.days.turn_limits import clock_line, status_clock_line
from bot.core.days.turnclock import turn_keys
from bot.core.errors import BadInputError, NotInGameError
from bot.core.play.manager import Game
from bot.core.wording import texts
from bot.core.wording.describe import describe, mat_lines, table_lines
from bot.core.wording.event_texts import finesse_rule, finesse_tile
from bot.core.wording.help import help_lines
from bot.core.wording.locales import Joined, PlayerName, localise
from engine import final_round
from engine.errors import quoted
from engine.expansions.finesse import view as finesse_view
from engine.variants import VARIANTS
from engine.visibility import NOBODY

from ..commandtree import command_infos
from ..services import FrontServices
from . import common
from .days import days_of, turn_limit_of
from .table import lobby_content

MAX_SEATS = max(variant.max_players for variant in VARIANTS.values())
"""The most seats a table can have (Line Clear's six): `/projectl mat seat:` accepts each."""


async def rules_topics(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The rules topics (one per action and per mode the engine plays), by their names in the
    asker's language, those matching what they typed first. An autocomplete rather than static
    choices: eighteen topics' names in every language would not fit /projectl's 4,000 characters."""
    typed = current.strip().lower()
    named = [(str(localise(texts.RULES_TOPICS[key], interaction.locale)), key) for key in texts.RULES]
    matching = [(name, key) for name, key in named if typed in name.lower() or typed in key]
    return [app_commands.Choice(name=name[:100], value=key) for name, key in matching[:25]]


def status_header(game: Game, clock: str = "") -> Joined:
    """The status reply's text, built from sentences of bot/core/wording/texts.py (shown in the reader's
    language); ``clock`` is the turn clock line (:func:`clock_status`), if any."""
    assert game.state is not None
    state = game.state
    current = game.current
    who: str = ""
    if state.phase.value == "finishing" and current:
        who = texts.STATUS_FINISHING.format(name=current.name)
    elif current:
        who = Joined((texts.STATUS_TO_PLAY.format(name=game.seats[seat].name,
                                                  n=state.focused(seat).actions_left)
                      for seat in state.acting_seats), texts.STATUS_AND)
    lines = [texts.STATUS_HEADER.format(round=state.round, phase=texts.STATUS_PHASE[state.phase.value],
                                        current=who)]
    if state.end_triggered:
        lines.append(texts.STATUS_END_TRIGGERED.format(round=final_round(state)))
    if clock:
        lines.append(clock)
    return Joined(lines, "\n")


async def clock_status(bot: FrontServices, game: Game) -> str:  # a Text or Joined of them
    """``Turn clock: 1 day per turn · Uma's time runs out in 5 hours``; "" at a table without one."""
    limit = await turn_limit_of(bot, game.id)
    if limit is None:
        return ""
    lines: list[str] = []
    for key in turn_keys(game):                          # one line per seat holding a turn
        row = await days_of(bot).store.get_turn(key)
        if row is not None:
            lines.append(status_clock_line(limit, game.seats[key.seat], row.deadline_at, bot.clock.now(),
                                           row.last_acted_at))
    return Joined(lines, "\n") if lines else clock_line(limit)


async def send_mat(interaction: discord.Interaction, game: Game, seat: int | None) -> None:
    """Show a mat privately: ``seat``, or the clicker's own when None."""
    if game.state is None:
        raise BadInputError(texts.NOT_STARTED)
    mine = game.seat_of(interaction.user.id)
    if seat is None:
        if mine is None:  # `/projectl status` and `mat` suggest nothing once the game has ended
            raise NotInGameError(texts.NOT_IN_GAME if game.status == "active" else
                                 texts.NOT_IN_FINISHED_GAME if game.status == "finished" else texts.GAME_OVER)
        seat = mine.seat
    await common.defer(interaction)
    viewer = NOBODY if mine is None else mine.seat  # another's mat hides a face-down score pile
    image = await common.bot_of(interaction).renderer.mat(game.state, seat, game.names, viewer,
                                                             locale=interaction.locale)
    about = describe(game.state, game.names, viewer, mat=seat)
    state, names, owner = game.state, game.names, seat
    lines = ((lambda: mat_lines(state, names, owner)) if viewer == owner  # one's own mat, in full
             else (lambda: list(about.parts)))  # another's: what its image says, a sentence a line
    await common.board_reply(interaction, texts.MAT_OF.format(name=game.seats[seat].name),
                             [common.png(image, "mat.png", about)], lines)


async def pace_status(bot: FrontServices, game: Game, reader: int) -> list[object]:
    """The status lines of the table's pace and the forecast (``bot/core/days/pace.py``): two reads,
    the server's finished turns and the seated players' settings (for their quiet hours)."""
    if bot.days is None or game.state is None:
        return []
    store = bot.days.store
    turns = await store.turn_times(game.guild_id)
    users = {s.user_id for s in game.seats if s.user_id is not None} | {reader}
    prefs = await store.prefs_of(users)
    now = bot.clock.now()
    timezone = prefs[reader].timezone if reader in prefs else "UTC"
    end = pace.forecast_line(pace.game_forecast(game, turns, prefs, now), now, timezone)
    return [*pace.pace_lines(game, turns, prefs), *([end] if end is not None else [])]


class InfoCommands(commands.Cog):
    """Mixed into the /projectl group cog (see bot/discord/cogs/__init__.py)."""

    @app_commands.command(name="status", description="Show the table (only you see the reply)")
    async def status(self, interaction: discord.Interaction) -> None:
        game = await common.require_game(interaction)
        bot = common.bot_of(interaction)
        if game.state is None:
            await common.reply(interaction, lobby_content(game, await turn_limit_of(bot, game.id)))
            return
        await common.defer(interaction)
        image = await bot.renderer.table(game.state, game.names, locale=interaction.locale)  # a private reply
        header = status_header(game, await clock_status(bot, game))
        paced = await pace_status(bot, game, interaction.user.id)
        if paced:
            header = Joined([header, *paced], "\n")
        about = describe(game.state, game.names)
        mine = game.seat_of(interaction.user.id)
        state, viewer = game.state, None if mine is None else mine.seat
        await common.board_reply(interaction, header, [common.png(image, "table.png", about)],
                                 lambda: table_lines(state, game.names, viewer))

    @app_commands.command(name="mat", description="Show a player's mat: supply, puzzles, score pile")
    @app_commands.describe(player="Whose mat (default: yours)", seat="Or a seat number (e.g. an AI)")
    async def mat(
        self, interaction: discord.Interaction, player: discord.Member | None = None,
        seat: app_commands.Range[int, 1, MAX_SEATS] | None = None,
    ) -> None:
        game = await common.require_game(interaction)
        index: int | None = None
        if player is not None:
            found = game.seat_of(player.id)
            if found is None:
                raise NotInGameError(texts.NO_SUCH_PLAYER.format(name=PlayerName(player.display_name)))
            index = found.seat
        elif seat is not None:
            if not 1 <= seat <= len(game.seats):  # Discord checks the range; an old client may send anything
                raise BadInputError(texts.NO_SUCH_SEAT.format(seat=str(seat)[:6], count=len(game.seats)))
            index = seat - 1
        await send_mat(interaction, game, index)

    @app_commands.command(name="rules", description="Short rules, per action and mode")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.autocomplete(topic=rules_topics)
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        if topic not in texts.RULES:  # typed by hand, or an old client's static choice
            topics = ", ".join(f"`{key}`" for key in texts.RULES)
            raise BadInputError(texts.RULES_UNKNOWN.format(topic=quoted(topic.replace("`", "")),
                                                           topics=topics))  # a short prefix only
        text: str = texts.RULES[topic]
        if topic == "finesse":
            text = Joined((text, await _live_tile_line(interaction)), "")
        await common.reply(interaction, text)

    @app_commands.command(name="help", description="How to play Project L here")
    async def help(self, interaction: discord.Interaction) -> None:
        tree = common.bot_of(interaction).tree
        await common.send_lines(interaction, help_lines(command_infos(tree), interaction.locale))


async def _live_tile_line(interaction: discord.Interaction) -> str:
    """With a Finesse game in this channel: the live tile's rule in a sentence ('' otherwise)."""
    game = await common.manager_of(interaction).game_in_channel(common.channel_id_of(interaction))
    fv = finesse_view(game.state) if game is not None and game.state is not None else None
    if fv is None:
        return ""
    live = fv.live
    if live is not None:
        return texts.FINESSE_LIVE.format(tile=finesse_tile(live), rule=finesse_rule(live), left=len(fv.row))
    why = texts.FINESSE_FACE_DOWN if fv.row else texts.FINESSE_ALL_GONE
    return texts.FINESSE_NONE_LIVE.format(why=why)
