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
import copy
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import discord

from .components import Button, Select, TextInput, modal_submit_components
from .errors import HarnessError, HarnessUsageError, SettleTimeout, TrappedError, TrappedErrors
from .gateway import FakeGateway
from .http import BlockedConnector, FakeDiscordAPI, install, uninstall
from .models import (
    Call,
    FakeChannel,
    FakeMember,
    FakeRole,
    InteractionRecord,
    MessageRecord,
    Response,
)
from .payloads import (
    fake_user_payload,
    guild_create_payload,
    interaction_payload,
    member_payload,
    ready_payload,
)
from .schema import CommandSchema
from .tasks import TaskTracker
from .traps import ErrorTrap
from .world import DEFAULT_CHANNELS, World

BotFactory = Callable[[], "discord.Client | Awaitable[discord.Client]"]
UserRef = FakeMember | int | str
ChannelRef = FakeChannel | str
MessageRef = MessageRecord | Response | InteractionRecord | int


class DiscordHarness:
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
    trap_loggers:
        Loggers whose ERROR records fail the test (add your bot's own).
    settle_timeout:
        Upper bound for ``settle()``; tests normally settle in milliseconds.
    ignore_task:
        Extra predicate for long-lived tasks ``settle()`` must not wait for.
    """

    def __init__(
        self,
        bot_factory: BotFactory,
        *,
        token: str = "offline-harness-token",
        guild_name: str = "Harness Guild",
        guild_id: int | None = None,
        channels: Iterable[str] = DEFAULT_CHANNELS,
        application_id: int | None = None,
        bot_name: str = "HarnessBot",
        sync_commands: bool = True,
        trap_loggers: Iterable[str] = ("discord",),
        settle_timeout: float = 5.0,
        ignore_task: Callable[[asyncio.Task[Any]], bool] | None = None,
    ) -> None:
        self._factory = bot_factory
        self.token = token
        self.sync_commands = sync_commands
        self.settle_timeout = settle_timeout
        self.world = World(guild_name=guild_name, guild_id=guild_id, channels=channels,
                           application_id=application_id, bot_name=bot_name)
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
        except BaseException:
            await self.stop(check=False)
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
            await self.gateway.feed(self.gateway.dispatch_frame(
                "READY", ready_payload(self.world, f"harness-session-{self.world.ids.next()}")))
            await self.gateway.feed(self.gateway.dispatch_frame(
                "GUILD_CREATE", guild_create_payload(self.world)))

        try:
            await self.tracker.run_as_bot_work(deliver())
            await asyncio.wait_for(self.bot.wait_until_ready(), timeout=self.settle_timeout)
        finally:
            state.guild_ready_timeout = previous_timeout
        self._ready = True
        try:
            await self.tracker.settle(min(self.settle_timeout, 1.0))
        except SettleTimeout:
            pass  # on_ready started background work; mark_baseline() will exclude it
        self._collect_task_errors()

    async def _sync_tree(self) -> None:
        tree = self.bot._connection._command_tree
        if tree is None:
            return
        await tree.sync()
        guild_ids = set(tree._guild_commands) | {g for (_, g, _) in tree._context_menus if g}
        for guild_id in sorted(guild_ids):
            await tree.sync(guild=discord.Object(id=guild_id))

    async def stop(self, *, check: bool = True) -> None:
        """Settle, close the bot, cancel leftovers, then fail on trapped errors."""
        try:
            if check and self._ready:
                await self.settle(raise_errors=False)
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
        if raise_errors:
            self.trap.raise_if_any()

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
        from .payloads import role_payload

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
            from .payloads import channel_payload

            self._pending_frames.append(
                self.gateway.dispatch_frame("CHANNEL_CREATE", channel_payload(self.world, channel)))
        return channel

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

    # -- users acting -----------------------------------------------------------

    def _channel_ref(self, channel: ChannelRef) -> FakeChannel:
        if isinstance(channel, FakeChannel):
            return channel
        return self.channel(channel)

    def _new_interaction(self, itype: int, user: FakeMember, channel: FakeChannel,
                         data: dict[str, Any], *, message: MessageRecord | None = None,
                         locale: str = "en-US") -> InteractionRecord:
        if not channel.is_dm and not user.in_guild:
            raise HarnessUsageError(f"{user.name} is not a member of the guild")
        if channel.is_dm and channel.recipient_id != user.id:
            raise HarnessUsageError(f"{user.name} cannot use another user's DM channel")
        ix_id = self.world.ids.next()
        token = f"harness-token-{ix_id}"
        payload = interaction_payload(
            self.world, interaction_id=ix_id, token=token, itype=itype, user=user, channel=channel,
            data=data, message=copy.deepcopy(message.payload) if message else None, locale=locale)
        record = InteractionRecord(id=ix_id, token=token, type=itype, user=user, channel=channel,
                                   payload=payload, message_id=message.id if message else None,
                                   harness=self)
        self.world.interactions[ix_id] = record
        return record

    async def _send(self, record: InteractionRecord, settle: bool) -> InteractionRecord:
        frame = self.gateway.dispatch_frame("INTERACTION_CREATE", copy.deepcopy(record.payload))
        await self.feed(frame, settle=settle)
        return record

    async def slash(self, user: UserRef, channel: ChannelRef, command: str, /, *,
                    options: Mapping[str, Any] | None = None, settle: bool = True,
                    locale: str = "en-US", **values: Any) -> InteractionRecord:
        """Run ``/command`` (``"group sub"`` for subcommands) as ``user``.

        Option values come from ``**values`` (or ``options=`` for names that
        clash with these keyword arguments) and are validated against the
        synced schema; ``None`` means "not provided". Users/channels/roles may
        be passed as harness objects; attachments as ``(filename, bytes)``.
        """
        member, chan = self.world.user(user), self._channel_ref(channel)
        built = self.schema.build(command, {**(options or {}), **values}, user=member, channel=chan)
        record = self._new_interaction(2, member, chan, built.data, locale=locale)
        return await self._send(record, settle)

    async def autocomplete(self, user: UserRef, channel: ChannelRef, command: str, /, *,
                           focused: str, options: Mapping[str, Any] | None = None,
                           locale: str = "en-US",
                           **values: Any) -> list[discord.app_commands.Choice[Any]]:
        """Type into option ``focused`` (its value = the typed text) and return
        the choices the bot answered with (callback type 8)."""
        member, chan = self.world.user(user), self._channel_ref(channel)
        built = self.schema.build(command, {**(options or {}), **values}, user=member, channel=chan,
                                  focused=focused)
        record = self._new_interaction(4, member, chan, built.data, locale=locale)
        await self._send(record, settle=True)
        response = record.response
        if response is None or response.callback_type != 8:
            raise AssertionError(f"bot did not answer autocomplete for {focused!r} of /{command}")
        return response.choices

    async def context_menu(self, user: UserRef, channel: ChannelRef, name: str,
                           target: FakeMember | MessageRecord, *,
                           settle: bool = True) -> InteractionRecord:
        """Run a user (target = member) or message (target = message) context menu."""
        member, chan = self.world.user(user), self._channel_ref(channel)
        if isinstance(target, MessageRecord):
            self._visible(member, self._message_ref(target))
        built = self.schema.build_context_menu(name, target, user=member, channel=chan)
        record = self._new_interaction(2, member, chan, built.data)
        return await self._send(record, settle)

    def _message_ref(self, message: MessageRef) -> MessageRecord:
        if isinstance(message, MessageRecord):
            rec: MessageRecord | None = self.world.messages.get(message.id)
        elif isinstance(message, Response):
            rec = message.message
        elif isinstance(message, InteractionRecord):
            rec = message.original
        else:
            rec = self.world.messages.get(int(message))
        if rec is None:
            raise HarnessUsageError(f"{message!r} is not a message the bot sent")
        if rec.deleted:
            raise HarnessUsageError(f"message {rec.id} was deleted")
        return rec

    def _visible(self, user: FakeMember, rec: MessageRecord) -> None:
        if rec.visible_to is not None and rec.visible_to != user.id:
            raise HarnessUsageError(f"{user.name} cannot see ephemeral message {rec.id}")
        channel = self.world.channels[rec.channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise HarnessUsageError(f"{user.name} cannot see a DM to someone else")

    async def click(self, user: UserRef, message: MessageRef, custom_id: str, *,
                    settle: bool = True) -> InteractionRecord:
        """Click the (enabled, non-link) button ``custom_id`` on a sent message."""
        member, rec = self.world.user(user), self._message_ref(message)
        self._visible(member, rec)
        comp = rec.component(custom_id)
        if not isinstance(comp, Button) or comp.url is not None:
            raise HarnessUsageError(f"{custom_id!r} is not a clickable button: {comp}")
        if comp.disabled:
            raise HarnessUsageError(f"button {custom_id!r} ({comp.label!r}) is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        record = self._new_interaction(3, member, self.world.channels[rec.channel_id], data,
                                       message=rec)
        return await self._send(record, settle)

    async def select(self, user: UserRef, message: MessageRef, custom_id: str,
                     values: Sequence[Any], *, settle: bool = True) -> InteractionRecord:
        """Choose ``values`` in select menu ``custom_id`` (option values, or
        harness users/channels/roles for entity selects)."""
        member, rec = self.world.user(user), self._message_ref(message)
        self._visible(member, rec)
        comp = rec.component(custom_id)
        if not isinstance(comp, Select):
            raise HarnessUsageError(f"{custom_id!r} is not a select menu: {comp}")
        if comp.disabled:
            raise HarnessUsageError(f"select {custom_id!r} is disabled")
        if not comp.min_values <= len(values) <= comp.max_values:
            raise HarnessUsageError(
                f"select {custom_id!r} takes {comp.min_values}..{comp.max_values} values")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp.type}
        if comp.type == 3:
            allowed = [o.value for o in comp.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessUsageError(f"{bad} not among options {allowed} of {custom_id!r}")
            data["values"] = [str(v) for v in values]
        else:
            data["values"], data["resolved"] = self._resolve_entities(values)
        record = self._new_interaction(3, member, self.world.channels[rec.channel_id], data,
                                       message=rec)
        return await self._send(record, settle)

    def _resolve_entities(self, values: Sequence[Any]) -> tuple[list[str], dict[str, Any]]:
        from .payloads import channel_payload, role_payload

        ids: list[str] = []
        resolved: dict[str, dict[str, Any]] = {}
        for value in values:
            if isinstance(value, FakeMember):
                resolved.setdefault("users", {})[str(value.id)] = fake_user_payload(value)
                member = member_payload(self.world, value, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            elif isinstance(value, FakeChannel):
                data = channel_payload(self.world, value)
                data["permissions"] = str(self.world.bot_permissions())
                resolved.setdefault("channels", {})[str(value.id)] = data
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
            else:
                raise HarnessUsageError(f"entity selects take harness objects, got {value!r}")
            ids.append(str(value.id))
        return ids, resolved

    async def submit_modal(self, user: UserRef, custom_id: str, values: Mapping[str, Any], *,
                           settle: bool = True) -> InteractionRecord:
        """Fill and submit the modal ``custom_id`` the bot opened for ``user``."""
        member = self.world.user(user)
        entry = next((e for e in reversed(self.world.open_modals)
                      if e[0] == member.id and e[1].custom_id == custom_id), None)
        if entry is None:
            shown = [m.custom_id for uid, m, _ in self.world.open_modals if uid == member.id]
            raise HarnessUsageError(f"no modal {custom_id!r} open for {member.name}; open: {shown}")
        _, modal, origin = entry
        fields = {c.custom_id: c for c in modal.components if hasattr(c, "custom_id")}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise HarnessUsageError(f"modal {custom_id!r} has no field(s) {unknown}; "
                                    f"fields: {sorted(fields)}")
        filled: dict[str, Any] = {}
        for cid, comp in fields.items():
            if isinstance(comp, TextInput):
                text = str(values.get(cid, comp.value or ""))
                if comp.required and not text:
                    raise HarnessUsageError(f"modal field {cid!r} is required")
                lo, hi = comp.min_length or 0, comp.max_length or 4000
                if text and not lo <= len(text) <= hi:
                    raise HarnessUsageError(f"modal field {cid!r} must be {lo}..{hi} chars")
                filled[cid] = text
            elif cid in values:
                filled[cid] = values[cid]
        self.world.open_modals.remove(entry)
        data = {"custom_id": custom_id,
                "components": modal_submit_components(modal.raw.get("components", []), filled)}
        source = self.world.messages.get(origin.message_id) if origin.message_id else None
        record = self._new_interaction(5, member, origin.channel, data, message=source)
        return await self._send(record, settle)

    async def say(self, user: UserRef, channel: ChannelRef, content: str, *,
                  settle: bool = True) -> MessageRecord:
        """Post a plain user message (MESSAGE_CREATE), e.g. for prefix commands.

        Intents are honoured like Discord does: no frame without
        guild_messages/dm_messages, and empty ``content`` without the
        message_content intent unless the bot is mentioned or it is a DM.
        """
        member = self.world.user(user)
        chan = self._channel_ref(channel)
        rec = self.api.create_message(chan, {"content": content}, [],
                                      author=fake_user_payload(member))
        intents = self.bot.intents
        if not (intents.dm_messages if chan.is_dm else intents.guild_messages):
            return rec
        data = copy.deepcopy(rec.payload)
        mentioned = f"<@{self.world.bot_user_id}>" in content
        if not (intents.message_content or chan.is_dm or mentioned):
            data["content"] = ""
        if not chan.is_dm:
            data["guild_id"] = str(self.world.guild_id)
            data["member"] = {k: v for k, v in member_payload(self.world, member).items()
                              if k != "user"}
        await self.dispatch("MESSAGE_CREATE", data, settle=settle)
        return rec

    # -- queries ----------------------------------------------------------------

    @property
    def calls(self) -> list[Call]:
        """Every REST and webhook call, in order."""
        return list(self.api.calls)

    def calls_to(self, method: str | None = None, path: str | None = None) -> list[Call]:
        """Calls filtered by HTTP method and route template (exact) or url substring."""
        return [c for c in self.api.calls
                if (method is None or c.method == method.upper())
                and (path is None or c.path == path or path in c.url_path)]

    @property
    def gateway_sent(self) -> list[dict[str, Any]]:
        """Frames the bot sent over the gateway (IDENTIFY, presence...)."""
        return self.gateway.sent if self.gateway else []

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The synced schema visible in the harness guild (guild + global)."""
        return self.schema.commands_for(self.world.guild_id)

    @property
    def messages(self) -> list[MessageRecord]:
        """All live messages (edits applied, deletions removed), oldest first."""
        return self.world.visible_messages()

    def message(self, message_id: int) -> MessageRecord:
        return self.world.messages[message_id]

    def channel_messages(self, channel: ChannelRef, *,
                         include_ephemeral: bool = False) -> list[MessageRecord]:
        """Live messages in ``channel``; ephemeral ones only if asked."""
        chan = self._channel_ref(channel)
        return [m for m in self.messages if m.channel_id == chan.id
                and (include_ephemeral or m.visible_to is None)]

    def dms_to(self, user: UserRef) -> list[MessageRecord]:
        """Messages the bot successfully delivered to ``user``'s DMs."""
        return [m for m in self.messages if m.channel_id == self.world.user(user).dm_channel.id]

    def responses_to(self, interaction: InteractionRecord) -> list[Response]:
        """Initial response, followups, edits and deletes for ``interaction``."""
        return list(interaction.responses)

    def last_response(self, interaction: InteractionRecord | None = None) -> Response:
        """Latest response to ``interaction`` (or to any interaction)."""
        order = {id(call): index for index, call in enumerate(self.api.calls)}
        pool = interaction.responses if interaction is not None else sorted(
            (r for i in self.world.interactions.values() for r in i.responses),
            key=lambda r: order.get(id(r.call), -1))
        if not pool:
            raise AssertionError(f"the bot never responded to {interaction or 'any interaction'}")
        return pool[-1]

    # -- errors -------------------------------------------------------------------

    @property
    def errors(self) -> list[TrappedError]:
        return list(self.trap.errors)

    def take_errors(self) -> list[TrappedError]:
        """Return and clear trapped errors (for tests that provoke them)."""
        return self.trap.take()

    def assert_no_errors(self) -> None:
        """Raise :class:`TrappedErrors` if any handler error was trapped."""
        self.trap.raise_if_any()

    def expect_errors(self) -> Any:
        """``with h.expect_errors() as errs:`` collects errors instead of failing."""
        return self.trap.expect()
