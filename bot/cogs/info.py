"""Looking at the game: ``/projectl status``, ``mat``, ``rules``, ``help``. Nothing here changes a game,
and nothing is secret except deck order, so anyone may look at any mat."""

from __future__ import annotations

import discord
from discord import app_commands

from .. import texts
from ..errors import BadInputError, NotInGameError
from ..manager import Game
from . import common


def status_header(game: Game) -> str:
    assert game.state is not None
    state = game.state
    current = game.current
    phase = {"play": "playing", "finishing": "Finishing Touches", "over": "over"}[state.phase.value]
    who = f"{current.name} to play ({state.actions_left} action(s) left)" if current else ""
    if state.phase.value == "finishing" and current:
        who = f"{current.name} is making Finishing Touches"
    lines = [texts.STATUS_HEADER.format(round=state.round, phase=phase, current=who)]
    if state.end_triggered:
        lines.append(f"The end is triggered: round {state.last_round} is the last.")
    return "\n".join(lines)


async def send_mat(interaction: discord.Interaction, game: Game, seat: int | None) -> None:
    """Show a mat privately: ``seat``, or the clicker's own when None."""
    if game.state is None:
        raise BadInputError(texts.NOT_STARTED)
    if seat is None:
        mine = game.seat_of(interaction.user.id)
        if mine is None:
            raise NotInGameError(texts.NOT_IN_GAME)
        seat = mine.seat
    await common.defer(interaction)
    image = await common.bot_of(interaction).renderer.mat(game.state, seat, game.names)
    await common.reply(interaction, texts.MAT_OF.format(name=game.seats[seat].name),
                       files=[common.png(image, "mat.png")])


class InfoCommands:
    """Mixed into the /projectl group cog (see bot/cogs/__init__.py)."""

    @app_commands.command(name="status", description="Show the table (only you see the reply)")
    async def status(self, interaction: discord.Interaction) -> None:
        game = await common.require_game(interaction)
        if game.state is None:
            from .table import lobby_content

            await common.reply(interaction, lobby_content(game))
            return
        await common.defer(interaction)
        image = await common.bot_of(interaction).renderer.table(game.state, game.names)
        await common.reply(interaction, status_header(game), files=[common.png(image, "table.png")])

    @app_commands.command(name="mat", description="Show a player's mat: supply, puzzles, score pile")
    @app_commands.describe(player="Whose mat (default: yours)", seat="Or a seat number, e.g. for an AI seat")
    async def mat(
        self, interaction: discord.Interaction, player: discord.Member | None = None,
        seat: app_commands.Range[int, 1, 4] | None = None,
    ) -> None:
        game = await common.require_game(interaction)
        index: int | None = None
        if player is not None:
            found = game.seat_of(player.id)
            if found is None:
                raise NotInGameError(texts.NO_SUCH_PLAYER.format(name=player.display_name))
            index = found.seat
        elif seat is not None:
            if seat > len(game.seats):
                raise BadInputError(texts.NO_SUCH_PLAYER.format(name=f"Seat {seat}"))
            index = seat - 1
        await send_mat(interaction, game, index)

    @app_commands.command(name="rules", description="Short rules, per action")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=k, value=k) for k in texts.RULES])
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        await common.reply(interaction, texts.RULES[topic])

    @app_commands.command(name="help", description="How to play Project L here")
    async def help(self, interaction: discord.Interaction) -> None:
        await common.reply(interaction, texts.HELP)
