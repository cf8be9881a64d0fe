"""``DiscordHarness``: run any discord.py bot against an offline Discord.

Lifecycle (``async with DiscordHarness(bot_factory=...) as h``):

1. build the bot, patch the HTTP seams, ``await bot.login(token)`` (runs the
   bot's ``setup_hook``; a sync done there is captured as the schema);
2. build the gateway websocket over a fake socket, IDENTIFY, then feed READY
   and GUILD_CREATE so the cache looks like production;
3. if the bot did not sync commands itself, call ``tree.sync()`` for it;
4. tests drive users (``slash``/``click``/``submit_modal``...) and inspect
   ``calls``/``messages``/``responses_to``;
5. on exit: settle, close the bot, cancel stragglers, fail on trapped errors.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import Any, Self

import discord

from .actions import UserActions
from .errors import HarnessError, SettleTimeout, TrappedError, TrappedErrors
from .gateway import FakeGateway
from .http import FakeDiscordAPI
from .models import ChannelRef, FakeChannel, FakeMember, FakeRole, InteractionRecord, UserRef
from .patching import BlockedConnector, install, uninstall
from .payloads import (
    channel_payload,
    fake_user_payload,
    guild_create_payload,
    member_payload,
    ready_payload,
    role_payload,
)
from .queries import Queries
from .schema import CommandSchema
from .tasks import SETTLE_CEILING, TaskTracker
from .traps import ErrorTrap
from .world import DEFAULT_CHANNELS, World

BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]


def _describe(data: Mapping[str, Any]) -> str:
    """``"/ping tools counter"`` for commands, the custom_id for components/modals."""
    if "custom_id" in data:
        return str(data["custom_id"])
    parts, options = [data.get("name", "?")], data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(parts)


class DiscordHarness(UserActions, Queries):
    """An offline Discord for one bot: one guild, some channels, users, DMs.

    Parameters
    ----------
    bot_factory:
        Zero-argument callable (sync or async) returning a fresh, *not yet
        logged-in* ``discord.Client``/``commands.Bot``.
    token:
        Passed to ``bot.login``; never leaves the process.
    channels:
        Names of the guild's text channels.
    guild_id / application_id:
        Pin ids when the bot's configuration expects specific ones (e.g. a
        guild-scoped sync to ``DEV_GUILD_ID``).
    sync_commands:
        Call ``tree.sync()`` after READY if the bot did not sync itself.
    require_ack:
        Treat an interaction the bot never answered (once everything has
        settled) as a trapped error, as Discord would show "This
        interaction failed".
    trap_loggers:
        Loggers whose ERROR records fail the test (add your bot's own).
    settle_timeout:
        Upper bound for ``settle()``; tests normally settle in milliseconds. The default is a
        generous ceiling (two minutes) so that a busy machine only makes a test slower: it is
        never the reason one fails.
    ignore_task:
        Extra predicate for long-lived tasks ``settle()`` must not wait for.
    world:
        Share another harness's Discord (guild, channels, users, messages): two bot processes of
        one deployment, e.g. an ``AutoShardedBot`` per shard range. Each harness delivers to its
        own bot and checks only the interactions it delivered.

    A bot that is a ``discord.AutoShardedClient`` gets one READY per shard it runs (``shard``
    set as Discord sets it) and the guild only on the shard Discord computes for it
    (``(guild_id >> 22) % shard_count``); :attr:`runs_guild` says whether that is one of its.
    """

    def __init__(
        self,
        bot_factory: BotFactory,
        *,
        token: str = "T2ZmbGluZUhhcm5lc3M.AAAAAA.offline-harness-token-not-real",
        guild_name: str = "Harness Guild",
        guild_id: int | None = None,
        channels: Iterable[str] = DEFAULT_CHANNELS,
        application_id: int | None = None,
        bot_name: str = "HarnessBot",
        sync_commands: bool = True,
        require_ack: bool = True,
        trap_loggers: Iterable[str] = ("discord",),
        settle_timeout: float = SETTLE_CEILING,
        ignore_task: Callable[[asyncio.Task[Any]], bool] | None = None,
        world: World | None = None,
    ) -> None:
        self._factory = bot_factory
        self.token = token
        self.sync_commands = sync_commands
        self.require_ack = require_ack
        self.settle_timeout = settle_timeout
        self.world = world or World(guild_name=guild_name, guild_id=guild_id, channels=channels,
                                    application_id=application_id, bot_name=bot_name)
        self._delivered: set[int] = set()
        """Ids of the interactions this harness created: the ones it checks were answered."""
        self.trap = ErrorTrap(trap_loggers)
        self.schema = CommandSchema(self.world)
        self.api = FakeDiscordAPI(self.world, self.schema, self.trap)
        self.tracker = TaskTracker(ignore_task)
        self.bot: discord.Client = None  # type: ignore[assignment]
        self.gateway: FakeGateway = None  # type: ignore[assignment]
        self._pending_frames: list[dict[str, Any]] = []
        self._ready = False

    # -- lifecycle ----------------------------------------------------------

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            await self.stop(check=exc_type is None)
        finally:
            if exc is not None and self.trap.errors:
                # The test already failed; show what the bot logged as the likely cause.
                exc.add_note(str(TrappedErrors(self.trap.take())))

    async def start(self) -> None:
        """Log in, connect the fake gateway, deliver READY + GUILD_CREATE, sync."""
        loop = asyncio.get_running_loop()
        self.trap.install(loop)
        self.tracker.install(loop)
        try:
            bot = self._factory()
            if inspect.isawaitable(bot):
                bot = await bot
            if not isinstance(bot, discord.Client):
                raise HarnessError(f"bot_factory returned {type(bot).__name__}, not a discord.Client")
            self.bot = bot
            bot.http.connector = BlockedConnector()
            install(self.api, bot.http)
            await self.tracker.run_as_bot_work(bot.login(self.token))
            self.gateway = FakeGateway(bot, self._on_gateway_send)
            await self.tracker.run_as_bot_work(self.gateway.connect())
            await self._connect_ready()
            if self.sync_commands and not self.schema.synced:
                await self._sync_tree()
            self.tracker.mark_baseline()
            self.trap.raise_if_any()
        except BaseException as exc:
            await self.stop(check=False)
            if self.trap.errors:
                exc.add_note(str(TrappedErrors(self.trap.take())))
            raise

    async def _connect_ready(self) -> None:
        state = self.bot._connection
        # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE
        # before firing on_ready; both frames are queued before that wait starts,
        # so a tiny timeout loses nothing and keeps tests fast.
        previous_timeout = state.guild_ready_timeout
        state.guild_ready_timeout = 0.01

        async def deliver() -> None:
            # Same task, no await in between: _delay_ready sees the guild queued.
            for shard in self.shards:
                ours = shard == self.guild_shard
                ready = ready_payload(self.world, f"harness-session-{self.world.ids.next()}")
                if shard is not None:
                    ready["shard"] = [shard, self.bot.shard_count]
                    ready["guilds"] = ready["guilds"] if ours else []
                await self.gateway.feed(self.gateway.dispatch_frame("READY", ready))
                if ours:
                    await self.gateway.feed(self.gateway.dispatch_frame(
                        "GUILD_CREATE", guild_create_payload(self.world)))

        try:
            await self.tracker.run_as_bot_work(deliver())
            await asyncio.wait_for(self.bot.wait_until_ready(), timeout=self.settle_timeout)
        finally:
            state.guild_ready_timeout = previous_timeout
        self._ready = True
        # The bot's own on_ready handlers (e.g. posting turns resumed at start-up) are part of
        # starting: wait for them, however busy the machine; what they leave running is not.
        handlers = [t for t in self.tracker.pending() if t.get_name() == "discord.py: on_ready"]
        if handlers:
            await asyncio.wait(handlers, timeout=self.settle_timeout)
        try:
            await self.tracker.settle(min(self.settle_timeout, 1.0))
        except SettleTimeout:
            pass  # on_ready started background work; mark_baseline() will exclude it
        self._collect_task_errors()

    @property
    def shards(self) -> list[int | None]:
        """The shards the bot runs ([None]: not sharded)."""
        if not isinstance(self.bot, discord.AutoShardedClient):
            return [None]
        count = self.bot.shard_count or 1
        return list(self.bot.shard_ids) if self.bot.shard_ids is not None else list(range(count))

    @property
    def guild_shard(self) -> int | None:
        """The shard Discord sends the guild's events to (None: not sharded)."""
        if not isinstance(self.bot, discord.AutoShardedClient):
            return None
        return (self.world.guild_id >> 22) % (self.bot.shard_count or 1)

    @property
    def runs_guild(self) -> bool:
        """Discord would deliver the guild's interactions to this bot."""
        return self.guild_shard in self.shards

    async def _sync_tree(self) -> None:
        tree = self.bot._connection._command_tree
        if tree is None:
            return
        await tree.sync()
        guild_ids = set(tree._guild_commands) | {g for (_, g, _) in tree._context_menus if g}
        for guild_id in sorted(guild_ids):
            await tree.sync(guild=discord.Object(id=guild_id))

    async def stop(self, *, check: bool = True) -> None:
        """Settle, close the bot, cancel leftovers, then fail on trapped errors.

        With ``check=False`` (the test already failed) errors are still
        collected, briefly, so ``__aexit__`` can attach them to that failure.
        """
        try:
            if self._ready:
                try:
                    await self.settle(None if check else min(self.settle_timeout, 1.0),
                                      raise_errors=False)
                except SettleTimeout:
                    if check:
                        raise
        finally:
            try:
                if self.bot is not None and not self.bot.is_closed():
                    await self.bot.close()
                await self.tracker.cancel_all()
                self._collect_task_errors()
            finally:
                uninstall(self.api)
                self.tracker.uninstall()
                self.trap.uninstall()
                self._ready = False
        if check:
            self.trap.raise_if_any()

    # -- frames & waiting ---------------------------------------------------

    async def feed(self, frame: dict[str, Any], *, settle: bool = True) -> None:
        """Push a raw gateway frame (``{"op":0,"t":...,"s":...,"d":...}``)."""
        await self._flush_pending()
        await self.tracker.run_as_bot_work(self.gateway.feed(frame))
        if settle:
            await self.settle()

    async def dispatch(self, event: str, data: Any, *, settle: bool = True) -> None:
        """Feed a DISPATCH frame for ``event`` (e.g. ``"MESSAGE_REACTION_ADD"``)."""
        await self.feed(self.gateway.dispatch_frame(event, data), settle=settle)

    async def settle(self, timeout: float | None = None, *, raise_errors: bool = True) -> None:
        """Wait until every task spawned by delivered frames has finished.

        Raises :class:`TrappedErrors` if handlers logged errors meanwhile
        (unless ``raise_errors=False``) and :class:`SettleTimeout` if bot
        tasks are still running after ``timeout`` seconds.
        """
        await self._flush_pending()
        try:
            await self.tracker.settle(self.settle_timeout if timeout is None else timeout)
        finally:
            self._collect_task_errors()
        self._check_acknowledged()
        if raise_errors:
            self.trap.raise_if_any()

    def _check_acknowledged(self) -> None:
        """Everything settled: an interaction still unanswered never will be.

        Discord would show "This interaction failed" after 3 s, so this is a
        bot bug (forgotten response, unregistered view, swallowed error).
        """
        if not self.require_ack:
            return
        for ix in self.world.interactions.values():
            if ix.id not in self._delivered:
                continue
            if ix.response_type is None and not ix.expired and not ix.ack_checked:
                ix.ack_checked = True
                what = _describe(ix.payload["data"])
                self.trap.add(TrappedError(
                    "harness", f"interaction {ix.id} ({what!r}, type {ix.type}) by {ix.user.name} "
                    "was never acknowledged: Discord would show 'This interaction failed'", ""))

    def _collect_task_errors(self) -> None:
        for task in self.tracker.pop_finished():
            self.trap.check_task(task)

    async def _flush_pending(self) -> None:
        while self._pending_frames and self.gateway is not None:
            frame = self._pending_frames.pop(0)
            await self.tracker.run_as_bot_work(self.gateway.feed(frame))

    def _on_gateway_send(self, frame: dict[str, Any]) -> None:
        if frame.get("op") == 8:  # REQUEST_GUILD_MEMBERS: answer like Discord
            self.tracker.run_as_bot_work(self._answer_member_request(frame["d"]))

    async def _answer_member_request(self, request: Mapping[str, Any]) -> None:
        members = [u for u in self.world.users.values() if u.in_guild]
        if request.get("user_ids"):
            wanted = {int(i) for i in request["user_ids"]}
            members = [u for u in members if u.id in wanted]
        elif request.get("query"):
            members = [u for u in members if u.name.lower().startswith(request["query"].lower())]
        if request.get("limit"):
            members = members[: int(request["limit"])]
        data: dict[str, Any] = {
            "guild_id": str(self.world.guild_id),
            "members": [member_payload(self.world, u) for u in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if request.get("nonce"):
            data["nonce"] = request["nonce"]
        await self.gateway.feed(self.gateway.dispatch_frame("GUILD_MEMBERS_CHUNK", data))

    # -- world setup ----------------------------------------------------------

    def add_user(self, name: str, id: int | None = None, *, manage_channel: bool = False,
                 global_name: str | None = None) -> FakeMember:
        """Add a guild member (with a DM channel). ``manage_channel`` grants a
        role with Manage Channels + Manage Messages. After READY the bot is told
        via GUILD_MEMBER_ADD before the next interaction/settle."""
        user = self.world.add_user(name, id, manage_channel=manage_channel, global_name=global_name)
        self._member_event("GUILD_MEMBER_ADD", user)
        return user

    def set_preferred_locale(self, locale: str) -> None:
        """The server's preferred locale changes (an admin's Server Settings): later interactions
        carry it as ``guild_locale``, and after READY the bot is told by a GUILD_UPDATE (before
        the next interaction or settle)."""
        self.world.preferred_locale = locale
        if self._ready:
            guild = guild_create_payload(self.world)
            for key in ("channels", "threads", "members", "presences", "voice_states"):
                guild.pop(key, None)
            self._pending_frames.append(self.gateway.dispatch_frame("GUILD_UPDATE", guild))

    def _member_event(self, event: str, user: FakeMember) -> None:
        # Discord only sends member events to bots with the GUILD_MEMBERS intent.
        if self._ready and self.bot.intents.members:
            data = member_payload(self.world, user)
            data["guild_id"] = str(self.world.guild_id)
            self._pending_frames.append(self.gateway.dispatch_frame(event, data))

    def remove_user(self, user: UserRef) -> None:
        """The user leaves the guild (GUILD_MEMBER_REMOVE); their DMs keep working."""
        member = self.world.user(user)
        member.in_guild = False
        if self._ready and self.bot.intents.members:
            self._pending_frames.append(self.gateway.dispatch_frame("GUILD_MEMBER_REMOVE", {
                "guild_id": str(self.world.guild_id), "user": fake_user_payload(member)}))

    def add_role(self, name: str, *, permissions: int | discord.Permissions = 0) -> FakeRole:
        """Create a guild role (GUILD_ROLE_CREATE after READY)."""
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        role = FakeRole(self.world.ids.next(), name, value, position=len(self.world.roles))
        self.world.roles[role.id] = role
        if self._ready:
            self._pending_frames.append(self.gateway.dispatch_frame(
                "GUILD_ROLE_CREATE", {"guild_id": str(self.world.guild_id), "role": role_payload(role)}))
        return role

    def give_role(self, user: UserRef, role: FakeRole) -> None:
        """Add ``role`` to ``user`` (GUILD_MEMBER_UPDATE after READY)."""
        member = self.world.user(user)
        if role.id not in member.roles:
            member.roles.append(role.id)
        self._member_event("GUILD_MEMBER_UPDATE", member)

    def add_channel(self, name: str, *, topic: str | None = None) -> FakeChannel:
        """Add a text channel; announced with CHANNEL_CREATE after READY."""
        channel = self.world.add_channel(name, topic=topic)
        if self._ready:
            self._pending_frames.append(
                self.gateway.dispatch_frame("CHANNEL_CREATE", channel_payload(self.world, channel)))
        return channel

    def add_forum(self, name: str) -> FakeChannel:
        """Add a forum channel (its posts are threads: :meth:`add_thread`)."""
        channel = self.world.add_channel(name, forum=True)
        if self._ready:
            self._pending_frames.append(
                self.gateway.dispatch_frame("CHANNEL_CREATE", channel_payload(self.world, channel)))
        return channel

    def add_thread(self, parent: ChannelRef, name: str, *, owner: UserRef | None = None,
                   private: bool = False) -> FakeChannel:
        """A public thread in a text channel, or a post in a forum (``private``: a private thread
        of a text channel); announced with THREAD_CREATE after READY. Use it like any channel:
        ``h.slash(user, thread, ...)`` (the harness does not model who was invited to a private
        thread: a test sends from it only as its members)."""
        chan = parent if isinstance(parent, FakeChannel) else self.world.channel_named(parent)
        owner_id = self.world.user(owner).id if owner is not None else self.world.bot_user_id
        thread = self.world.add_thread(chan, name, owner_id=owner_id, private=private)
        if self._ready:
            data = channel_payload(self.world, thread)
            data["newly_created"] = True
            self._pending_frames.append(self.gateway.dispatch_frame("THREAD_CREATE", data))
        return thread

    def deny_bot(self, channel: ChannelRef, *permissions: str) -> None:
        """A channel overwrite denying the bot ``permissions`` (names as in
        ``discord.Permissions``, e.g. ``"attach_files"``): interactions there carry the reduced
        ``app_permissions`` and channel posts needing one get 403 / 50013."""
        chan = channel if isinstance(channel, FakeChannel) else self.world.channel_named(channel)
        chan.bot_denied |= discord.Permissions(**{p: True for p in permissions}).value

    def channel(self, name: str) -> FakeChannel:
        """A guild text channel by name (``"general"`` or ``"#general"``)."""
        return self.world.channel_named(name)

    def dm(self, user: UserRef) -> FakeChannel:
        """The DM channel between ``user`` and the bot."""
        return self.world.user(user).dm_channel

    def user(self, ref: UserRef) -> FakeMember:
        return self.world.user(ref)

    @property
    def users(self) -> list[FakeMember]:
        return list(self.world.users.values())

    @property
    def manager_role(self) -> FakeRole:
        return self.world.manager_role

    def close_dms(self, user: UserRef) -> None:
        """Make DMs to ``user`` fail with 403 / 50007, like privacy settings do."""
        self.world.user(user).dms_open = False

    def open_dms(self, user: UserRef) -> None:
        self.world.user(user).dms_open = True

    def expire(self, interaction: InteractionRecord) -> None:
        """Invalidate the token: later callbacks get 404 10062, webhooks 404 10015."""
        interaction.expired = True
