"""The animated recap of a finished game (bot/core/records/recap.py, renders/recap.py): posted after the
results when a game ends, and on demand with ``/projectl-games recap``.

It sits below the turn post (bot/discord/turns.py calls :func:`post_recap` after the results), so
it imports no cog. The recap is drawn in the render pool; when a game ends it is posted by a task
of its own, so the results post and the player's answer never wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.core.games import Game
from bot.core.records import recap
from bot.core.wording import texts
from bot.core.wording.describe import describe_recap
from bot.core.wording.locales import Joined, Notation, Text, localise

from .cogs.common import channel_locale, png
from .mentions import NOBODY
from .services import FrontServices

log = logging.getLogger("bot")
MAX_BYTES = 10 * 1024 * 1024
"""Discord's attachment limit (the recap is far below it; a bigger one is not sent)."""
_TASKS: set[asyncio.Task[None]] = set()


async def recap_message(bot: FrontServices, game: Game, locale: Any) -> tuple[Joined, discord.File | None]:
    """The recap's sentence (the swing named) and its animated PNG, drawn in the render pool."""
    plan = recap.plan(game, await bot.manager.log(game.id))
    swing = plan.swing
    named: str | Text
    if swing is None:
        named = texts.RECAP_NO_SWING
    else:
        delta = f"{swing.delta:+d}"
        named = texts.RECAP_SWING.format(name=game.names[swing.seat], action=Notation(swing.action),
                                         round=swing.round, delta=delta)
    frame = None if swing is None else swing.frame
    image = await bot.renderer.recap(plan.states, game.names, plan.scores, frame,  # type: ignore[attr-defined]
                                     locale=locale)
    about = describe_recap(plan.states[-1], game.names, game.id, plan.scores, named)
    file = png(image, "recap.png", about, locale) if len(image) <= MAX_BYTES else None
    return Joined((texts.RECAP_TITLE.format(game_id=game.id), named), " "), file


async def _post(bot: FrontServices, channel: discord.abc.Messageable, game: Game) -> None:
    try:
        locale = channel_locale(bot, channel)
        text, file = await recap_message(bot, game, locale)
        if file is not None:
            await channel.send(str(localise(text, locale)), file=file, allowed_mentions=NOBODY)
    except Exception:  # the results are out; a recap that cannot be drawn is only logged
        log.exception("the recap of game %s could not be posted", game.id)


def post_recap(bot: FrontServices, channel: discord.abc.Messageable, game: Game) -> None:
    """Post the recap after the results, in a task of its own (kept until it is done)."""
    if not hasattr(bot.renderer, "recap"):
        return  # a test's stand-in renderer without recaps
    task = asyncio.get_running_loop().create_task(_post(bot, channel, game))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
