"""What the running bot offers the code that serves a table, as a protocol: the game manager,
storage, renderer, clock, settings and the servers' chosen languages.

The Discord front (``bot.discord``) and the reminder loop receive these services rather than the
concrete Discord client class, so they are typed without importing it and can be driven by any
object that has them.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

from bot.core.clock import Clock
from bot.core.config import Settings
from bot.core.play.manager import ActionResult, GameManager
from bot.core.rendering.render import Renderer
from bot.core.storage import Storage
from bot.core.wording.server_locales import ServerLocales
from engine import GameState


class ResultPresenter(Protocol):
    """Tells a game's table about a result a front without a channel of its own committed (the
    web board): what a panel action gives the channel — the turn post at the turn's end, with its
    mentions. The Discord bot posts it; the offline board logs it. Called once per result, by the
    process that committed it."""

    def __call__(self, result: ActionResult, /) -> Awaitable[None]: ...


class BotServices(Protocol):
    """The services of one bot process (``bot.discord.app.ProjectLBot`` has them once its
    ``setup_hook`` has opened the database)."""

    settings: Settings
    clock: Clock
    renderer: Renderer
    storage: Storage
    manager: GameManager
    server_locales: ServerLocales
    """The language each server chose for public posts (bot/core/wording/server_locales.py)."""
    posted_states: dict[int, GameState]
    """Per game id, the state its last turn post showed (``bot.discord.turns.remember_posted``)."""

    async def present_result(self, result: ActionResult, /) -> None:
        """The :class:`ResultPresenter` of this front (the web board's actions are posted by it)."""
