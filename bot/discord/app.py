"""Building the bot: ``create_bot(settings)`` wires storage, manager, renderer, cogs and buttons.

Everything the bot depends on is passed in (clock, renderer, seed source, policies), so tests and
the offline harness build exactly the production bot with a fake clock or a fixed seed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot.core.clock import Clock, SystemClock
from bot.core.config import Settings
from bot.core.play.manager import ActionResult, Game, GameManager, PolicyFactory
from bot.core.play.plan_outcomes import PlanOutcomes
from bot.core.play.undo import UndoResult
from bot.core.rendering.collector import freeze_startup
from bot.core.rendering.render import ProcessRenderer, Renderer
from bot.core.shards import runs_guild
from bot.core.storage import Storage
from bot.core.storage.faults import FaultLog
from bot.core.wording import texts
from bot.core.wording.locales import Notation, localise
from bot.core.wording.server_locales import ServerLocales
from bot.discord.mentions import NOBODY
from bot.web.acting import BoardFront
from bot.web.activity import ActivitySignIn, DiscordCodeExchanger
from bot.web.server import PortTakenError, RunningBoard, start_board_server
from bot.web.tokens import SECRET_NAME, TokenSigner, new_secret
from engine import GameState

from . import gone, panel_views, permissions, plans, views
from .board_button import hide_board_links
from .cogs import advice, days_setup, info, ladder, play, reading, records, table
from .cogs.common import channel_locale, report_error
from .cogs.days import Days
from .cogs.group import ProjectLCog
from .cogs.server import server_command
from .commandtree import sync_checked
from .options import check_options
from .services import Handlers
from .translator import CatalogueTranslator
from .turns import post_turn

log = logging.getLogger(__name__)
T = TypeVar("T")

INTENTS_NOTE = (
    "Default intents only: slash commands and buttons arrive as interactions, which carry the "
    "user and their display name, so the bot needs neither message content nor the member list."
)


class ProjectLTree(discord.app_commands.CommandTree[discord.Client]):
    """The command tree: every command passes the posting-permission check
    (bot/discord/permissions.py), and an error a command raises is answered as the buttons' are
    (``report_error``: a refusal privately, anything else logged)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        check_options(interaction)  # every option of its declared kind, before discord.py reads it
        return await permissions.check_command(interaction)

    async def on_error(self, interaction: discord.Interaction,
                       error: discord.app_commands.AppCommandError, /) -> None:
        await report_error(interaction, error)


class ProjectLBot(commands.Bot):
    """The Project L bot. ``manager`` and ``storage`` exist once ``setup_hook`` has run."""

    def __init__(
        self, settings: Settings, *, clock: Clock | None = None, renderer: Renderer | None = None,
        seed_source: Callable[[], int] | None = None, policies: PolicyFactory | None = None,
        reminder_tick_seconds: float | None = None,
    ) -> None:
        sharding: dict[str, Any] = {}  # shard_count: int | None, shard_ids: list[int] | None
        if isinstance(self, discord.AutoShardedClient):
            sharding = {"shard_count": settings.shard_count,
                        "shard_ids": None if settings.shard_ids is None else list(settings.shard_ids)}
        super().__init__(
            **sharding,
            command_prefix=commands.when_mentioned,  # no prefix commands: slash only
            tree_cls=ProjectLTree,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=NOBODY,  # a send that names nobody pings nobody (bot/discord/mentions.py)
        )
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        self.renderer: Renderer = renderer or ProcessRenderer()
        self._seed_source = seed_source
        self._policies = policies
        self.reminder_tick_seconds = reminder_tick_seconds
        """Seconds between reminder ticks; None: every 60 s, or no loop on a ManualClock."""
        self._storage: Storage | None = None
        self._manager: GameManager | None = None
        self._server_locales: ServerLocales | None = None
        self.fault_log = FaultLog()
        """Storage faults players hit, logged once in a while (bot/core/storage/faults.py)."""
        self._resumed: list[ActionResult] = []
        self.posted_states: dict[int, GameState] = {}
        """Per game id, the state its last turn post showed (turns.remember_posted)."""
        self.board_front: BoardFront | None = None
        """The web board's services, once ``setup_hook`` has started its server (None: off)."""
        self._board: RunningBoard | None = None
        self.days: Days | None = None
        """Playing over days, once ``setup_hook`` has installed it (cogs/days_setup.py)."""
        self.handlers = Handlers(
            perform=play.perform, show_preview=play.show_preview, master_confirm=play.master_confirm,
            master_clear=play.master_clear, take_back=records.take_back, lobby_button=table.lobby_button,
            send_mat=info.send_mat, refuse_out_of_date=panel_views.refuse_out_of_date)
        """What the persistent buttons do: the cogs' flows (bot/discord/services.py)."""

    async def setup_hook(self) -> None:
        """Open the database (migrating it), resume games, register commands and buttons, sync."""
        self.storage = await Storage.open(self.settings.db_path, self.clock)
        self.server_locales = ServerLocales(self.storage)
        await self.server_locales.load()
        self.manager = GameManager(
            self.storage, clock=self.clock, seed_source=self._seed_source, policies=self._policies,
            cards=self.settings.load_cards(), ai_turn_seconds=self.settings.ai_turn_seconds,
        )
        self._resumed = await self.manager.resume(
            lambda game: runs_guild(self.settings, game.guild_id))  # others' are theirs to post
        start_renderer = getattr(self.renderer, "start", None)
        if start_renderer is not None:  # render workers warm up while the bot connects
            start_renderer()
        await self.add_cog(ProjectLCog(self))
        self.tree.add_command(server_command)
        for command in reading.COMMANDS:  # /projectl-describe, /projectl-catchup (cogs/reading.py)
            self.tree.add_command(command)
        await days_setup.install(self)  # reminders, turn clock, undo, log, stats: docs/play-over-days.md
        advice.install(self)  # hint and review: bot/discord/cogs/advice.py
        ladder.install(self)  # /projectl-games: ratings, replays, recaps (its own 4,000 characters)
        plans.install(self)  # /projectl-plan: plan-ahead turns (bot/core/play/plans.py)
        gone.install(self)  # a deleted channel or thread, a server left: its games end (bot/discord/gone.py)
        self.add_dynamic_items(*views.DYNAMIC_ITEMS, *panel_views.DYNAMIC_ITEMS, table.CancelButton)
        await self._start_board()
        await self._sync()
        freeze_startup()  # what start-up built is never scanned again (bot/core/rendering/collector.py)

    async def _start_board(self) -> None:
        """Start the web board's server (docs/web-board.md) where PROJECTL_WEB_BIND asks; a port
        that is taken is said in one sentence, and the bot runs on without the board."""
        bind = self.settings.web_bind
        if bind is None:
            return
        hide_board_links()
        if self.settings.log_level != "DEBUG":  # a line per page request: for debugging only
            logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
        secret = self.settings.web_secret or await self.storage.kept_secret(SECRET_NAME, new_secret())
        front = BoardFront(self.manager, TokenSigner(secret), self.present_result,
                           present_undo=self.present_undo, plan_outcomes=self._shared_plan_outcomes())
        sign_in = None
        if self.settings.activity and self.settings.client_secret and self.application_id is not None:
            client_id = str(self.application_id)
            sign_in = ActivitySignIn(front, self.manager,
                                     DiscordCodeExchanger(client_id, self.settings.client_secret,
                                                          self.settings.token), client_id)
        try:
            self._board = await start_board_server(front, *bind, sign_in=sign_in)
        except PortTakenError as error:
            assert front.live is not None
            front.live.detach()
            log.error("%s", error)
            return
        self.board_front = front
        log.info("the web board listens on %s:%s (links: %s)", self._board.host, self._board.port,
                 self.settings.board_url)

    def _shared_plan_outcomes(self) -> PlanOutcomes:
        """The board shows the same last planned turn as ``/projectl-plan show``, and a plan laid
        out on either front clears it on both: one :class:`PlanOutcomes` (play-over-days')."""
        return PlanOutcomes() if self.days is None else self.days.plan_outcomes

    async def _sync(self) -> None:
        """Sync the command tree — after checking it fits Discord, which would otherwise refuse
        the whole sync and leave players with yesterday's commands (see bot/discord/commandtree.py)."""
        if self.tree.translator is None:  # every language's command names (bot/core/wording/locales)
            await self.tree.set_translator(CatalogueTranslator())
        guild = discord.Object(id=self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await sync_checked(self.tree, guild)

    async def on_ready(self) -> None:
        log.info("connected as %s; %d game(s) resumed with AI moves", self.user, len(self._resumed))
        resumed, self._resumed = self._resumed, []
        for result in resumed:
            channel = self.get_channel(result.game.channel_id)
            if channel is None:  # deleted while the bot was away, or hidden from it: nowhere to post
                log.info("game %s's channel %s is not visible: its resumed turn is not posted",
                         result.game.id, result.game.channel_id)
            elif isinstance(channel, discord.abc.Messageable):
                try:
                    await post_turn(self, channel, result)
                except discord.HTTPException:
                    log.warning("could not post resumed turn in channel %s", result.game.channel_id)
            for outcome in result.plans:  # a planned turn a restart finished: its player is told now
                await plans.tell(self, outcome)

    async def present_result(self, result: ActionResult, /) -> None:
        """A result the web board committed, told to its channel as a panel action's is: the turn
        post at the turn's end (its mentions included); DMs and reminders follow from the
        manager's hooks. Posted through the REST API, so any process sharing the database can
        post for a channel on another shard — the committing one does, once."""
        if not (result.turn_changed or result.finished):
            return
        game = result.game
        try:
            await post_turn(self, self._channel_of(game), result)
        except discord.HTTPException:
            log.warning("could not post game %s's turn in channel %s", game.id, game.channel_id)

    async def present_undo(self, done: UndoResult, user_id: int, /) -> None:
        """An action taken back on the web board, told as ``/projectl play undo`` tells it: the
        turn clock reopened, and one line in the channel."""
        if self.days is not None:
            await self.days.reminders.after_undo(done.game, user_id)
        channel = self._channel_of(done.game)
        line = texts.UNDO_PUBLIC.format(name=done.game.seats[done.seat].name,
                                        action=Notation(str(done.action)))
        try:
            await channel.send(localise(line, channel_locale(self, channel)))
        except discord.HTTPException:
            log.warning("could not tell channel %s about an undo", done.game.channel_id)

    def _channel_of(self, game: Game) -> discord.abc.Messageable:
        """The game's channel, to post in: cached on this shard, else by id (any process sharing
        the database may post for a channel another shard holds)."""
        cached = self.get_channel(game.channel_id)
        if isinstance(cached, discord.abc.Messageable):
            return cached
        return self.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def close(self) -> None:
        try:
            if self._board is not None:  # open pages' streams end, results in flight are posted
                board, self._board, self.board_front = self._board, None, None
                await board.stop()
            await days_setup.shutdown(self)
            await super().close()
        finally:
            close_renderer = getattr(self.renderer, "close", None)
            if close_renderer is not None:  # the render worker processes
                await close_renderer()
            if self._manager is not None:
                self._manager.thinker.close()
                await self._manager.plugins.close()
            if self._storage is not None:
                await self._storage.close()
                self._storage = None

    # The services setup_hook opens (the database, and what is built on it). Every interaction,
    # button and reminder comes after setup_hook, so reading one earlier is a bug, said so.

    @property
    def storage(self) -> Storage:
        """The database (bot/core/storage)."""
        return _opened(self._storage, "storage")

    @storage.setter
    def storage(self, storage: Storage) -> None:
        self._storage = storage

    @property
    def manager(self) -> GameManager:
        """The game manager (bot/core/play/manager.py)."""
        return _opened(self._manager, "manager")

    @manager.setter
    def manager(self, manager: GameManager) -> None:
        self._manager = manager

    @property
    def server_locales(self) -> ServerLocales:
        """The language each server chose for public posts (bot/core/wording/server_locales.py)."""
        return _opened(self._server_locales, "server_locales")

    @server_locales.setter
    def server_locales(self, server_locales: ServerLocales) -> None:
        self._server_locales = server_locales


def _opened(service: T | None, name: str) -> T:
    if service is None:
        raise RuntimeError(f"the bot's {name} is opened by setup_hook, which has not run (or it closed)")
    return service


class ShardedProjectLBot(ProjectLBot, commands.AutoShardedBot):
    """The same bot running the Discord shards its settings name (``shard_ids`` of
    ``shard_count``): one of several processes sharing one PostgreSQL database (docs/deploy.md)."""


def create_bot(
    settings: Settings, *, clock: Clock | None = None, renderer: Renderer | None = None,
    seed_source: Callable[[], int] | None = None, policies: PolicyFactory | None = None,
    reminder_tick_seconds: float | None = None,
) -> ProjectLBot:
    """A fresh, not-yet-logged-in bot. Start it with ``bot.start(settings.token)``. With
    ``settings.shard_count`` it is a :class:`ShardedProjectLBot`."""
    kind = ShardedProjectLBot if settings.shard_count is not None else ProjectLBot
    return kind(settings, clock=clock, renderer=renderer, seed_source=seed_source, policies=policies,
                       reminder_tick_seconds=reminder_tick_seconds)
