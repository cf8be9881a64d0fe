"""What simulated users can do: slash commands, autocomplete, context menus,
button clicks, selects, modal submits and plain messages.

Every action builds the payload Discord's *client* would produce, after
checking the action is possible for a real user (command synced and
permitted, button rendered and enabled, modal actually open, message
visible), then feeds it through the gateway. That is what keeps tests
honest: nothing reaches the bot that Discord would not deliver.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from .components import Button, Select, TextInput, modal_submit_components
from .copying import json_copy
from .errors import HarnessUsageError
from .models import (
    ChannelRef,
    FakeChannel,
    FakeMember,
    FakeRole,
    InteractionRecord,
    MessageRecord,
    MessageRef,
    Response,
    UserRef,
)
from .payloads import (
    channel_payload,
    fake_user_payload,
    interaction_payload,
    member_payload,
    role_payload,
    user_payload,
)

if TYPE_CHECKING:
    from .gateway import FakeGateway
    from .http import FakeDiscordAPI
    from .schema import CommandSchema
    from .world import World


class UserActions:
    """Mixin for :class:`~harness.core.DiscordHarness`: users acting."""

    if TYPE_CHECKING:
        world: World
        _delivered: set[int]
        schema: CommandSchema
        api: FakeDiscordAPI
        gateway: FakeGateway
        bot: discord.Client

        async def feed(self, frame: dict[str, Any], *, settle: bool = True) -> None: ...

        async def dispatch(self, event: str, data: Any, *, settle: bool = True) -> None: ...

    def _channel_ref(self, channel: ChannelRef) -> FakeChannel:
        if isinstance(channel, FakeChannel):
            return channel
        return self.world.channel_named(channel)

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
            data=data, message=json_copy(message.payload) if message else None, locale=locale)
        record = InteractionRecord(id=ix_id, token=token, type=itype, user=user, channel=channel,
                                   payload=payload, message_id=message.id if message else None,
                                   world=self.world)
        self.world.interactions[ix_id] = record
        self._delivered.add(ix_id)  # this harness answers for it (the world may be shared)
        return record

    async def _send(self, record: InteractionRecord, settle: bool) -> InteractionRecord:
        frame = self.gateway.dispatch_frame("INTERACTION_CREATE", json_copy(record.payload))
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
                    settle: bool = True, locale: str = "en-US") -> InteractionRecord:
        """Click the (enabled, non-link) button ``custom_id`` on a sent message, from a client in
        ``locale``."""
        member, rec = self.world.user(user), self._message_ref(message)
        self._visible(member, rec)
        comp = rec.component(custom_id)
        if not isinstance(comp, Button) or comp.url is not None:
            raise HarnessUsageError(f"{custom_id!r} is not a clickable button: {comp}")
        if comp.disabled:
            raise HarnessUsageError(f"button {custom_id!r} ({comp.label!r}) is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        record = self._new_interaction(3, member, self.world.channels[rec.channel_id], data,
                                       message=rec, locale=locale)
        return await self._send(record, settle)

    async def select(self, user: UserRef, message: MessageRef, custom_id: str,
                     values: Sequence[Any], *, settle: bool = True,
                     locale: str = "en-US") -> InteractionRecord:
        """Choose ``values`` in select menu ``custom_id`` (option values, or
        harness users/channels/roles for entity selects), from a client in ``locale``."""
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
                                       message=rec, locale=locale)
        return await self._send(record, settle)

    def _mentioned(self, user_id: int) -> dict[str, Any]:
        if user_id == self.world.bot_user_id:
            return user_payload(user_id, self.world.bot_name, bot=True)
        if user_id in self.world.users:
            return fake_user_payload(self.world.users[user_id])
        raise HarnessUsageError(f"message mentions unknown user id {user_id}")

    def _resolve_entities(self, values: Sequence[Any]) -> tuple[list[str], dict[str, Any]]:
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
        rec = self.api.messages.create(chan, {"content": content}, [],
                                      author=fake_user_payload(member))
        rec.payload["mentions"] = [self._mentioned(int(uid)) for uid in
                                   dict.fromkeys(re.findall(r"<@!?(\d+)>", content))]
        intents = self.bot.intents
        if not (intents.dm_messages if chan.is_dm else intents.guild_messages):
            return rec
        data = json_copy(rec.payload)
        mentioned = f"<@{self.world.bot_user_id}>" in content
        if not (intents.message_content or chan.is_dm or mentioned):
            data["content"] = ""
        if not chan.is_dm:
            data["guild_id"] = str(self.world.guild_id)
            data["member"] = {k: v for k, v in member_payload(self.world, member).items()
                              if k != "user"}
        await self.dispatch("MESSAGE_CREATE", data, settle=settle)
        return rec
