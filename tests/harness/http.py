"""Offline Discord REST + interaction-webhook API (the route handlers).

:mod:`.patching` hands every call discord.py makes to
:meth:`FakeDiscordAPI.handle_rest` / :meth:`FakeDiscordAPI.handle_webhook`.
Each call is recorded as a :class:`Call` and answered the way Discord would
(status codes, JSON error codes such as 40060 "already acknowledged", 50007
"cannot send messages to this user", 10062 "unknown interaction"), raising
the real ``discord.HTTPException`` subclasses so the bot's own error
handling is what gets exercised.

What it answers:

* ``POST /channels/{id}/messages`` (multipart files too): a message (snowflake id, the bot as
  author, attachments with their size and a PNG's width and height); 403 / 50013 when
  ``h.deny_bot`` took a permission the post needs. A DM channel, then 403 / 50007 after
  ``h.close_dms(user)``. PATCH / DELETE / GET of a message (edit history kept); 404 / 10008 when
  unknown. An empty message, over 2,000 characters or 10 embeds, bad action rows or a duplicate
  custom id: 400 / 50006 or 50035.
* ``DELETE /channels/{id}``: the channel (with its threads) leaves the world; a thread needs Manage
  Threads, another channel Manage Channels, else 403 / 50013. No CHANNEL_DELETE / THREAD_DELETE
  frame follows (a test that needs one dispatches it).
* An interaction callback (``with_response=1``) as discord.py expects it; a second initial
  response 400 / 40060; a response type wrong for the interaction 400 / 50035; an expired token
  (``h.expire(ix)``) 404 / 10062 (webhooks 10015); a followup before any response 404 / 10015. The
  first followup after a deferred response fills the "thinking…" message; ``@original`` after a
  component's deferred update is the component's message.
* A route not implemented: :class:`UnsupportedRoute`, raised in the bot and trapped (the test
  fails); add it with ``h.api.add_route(method, path, handler)``. A handler gets the ``Call`` and
  returns the JSON body (``None``: 204) or raises :class:`ApiError`, which becomes the matching
  ``discord.HTTPException``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any
from urllib.parse import unquote

import aiohttp
import discord
from discord.http import HTTPClient, Route

from .apierror import ApiError, form_error
from .components import Modal, parse_modal
from .copying import json_copy
from .errors import TrappedError, UnsupportedRoute
from .messages import MessageStore
from .models import EPHEMERAL, LOADING, Call, FakeChannel, InteractionRecord, MessageRecord, Response
from .payloads import (
    app_info_payload,
    bot_self_payload,
    channel_payload,
    fake_user_payload,
    member_payload,
    user_payload,
)
from .schema import CommandSchema, validate_sync_payload
from .traps import ErrorTrap
from .world import World

Handler = Callable[[Call], Any | Awaitable[Any]]
#: Interaction response types each interaction type may use (12: LAUNCH_ACTIVITY, for an app with
#: Activities enabled: after a command or a component).
_ALLOWED_CALLBACKS = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}


def _route_params(route: Route) -> dict[str, Any]:
    """Recover ``{name: value}`` by matching the concrete URL to the template."""
    names = re.findall(r"{(\w+)}", route.path)
    if not names:
        return {}
    pattern = re.escape(route.path)
    for name in names:
        pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>[^/]+)")
    match = re.search(pattern + "$", route.url.split("?")[0])
    if match is None:
        return {}
    out: dict[str, Any] = {}
    for key, value in match.groupdict().items():
        value = unquote(value)
        out[key] = int(value) if value.isdigit() else value
    return out


def _read_form(form: Iterable[Mapping[str, Any]] | None, body: Any) -> tuple[Any, list[tuple[str, bytes]]]:
    """Split discord.py's multipart parts into (payload_json, [(filename, bytes)])."""
    files: list[tuple[str, bytes]] = []
    for part in form or []:
        if part["name"] == "payload_json":
            body = json.loads(part["value"])
            continue
        value = part["value"]
        if hasattr(value, "read"):
            pos = value.tell()
            data = value.read()
            value.seek(pos)
        else:
            data = bytes(value)
        files.append((part.get("filename") or part["name"], data))
    return body, files


class FakeDiscordAPI:
    """Routes captured calls to handlers that mutate the shared :class:`World`."""

    def __init__(self, world: World, schema: CommandSchema, trap: ErrorTrap) -> None:
        self.world = world
        self.schema = schema
        self.trap = trap
        self.calls: list[Call] = []
        self.messages = MessageStore(world)
        self.http_client: HTTPClient | None = None
        self.session: aiohttp.ClientSession | None = None
        self._routes: dict[tuple[str, str], Handler] = {}
        self._install_default_routes()

    # -- plumbing -----------------------------------------------------------

    def add_route(self, method: str, path: str, handler: Handler) -> None:
        """Answer ``method path`` (route template) with ``handler(call)``.

        The handler returns the JSON body (``None`` for 204) or raises
        :class:`ApiError`. Replaces any built-in handler for that route.
        """
        self._routes[(method.upper(), path)] = handler

    def _capture(self, kind: str, route: Route, body: Any, form: Iterable[Mapping[str, Any]] | None,
                 reason: str | None, query: Mapping[str, Any] | None) -> Call:
        body, files = _read_form(form, json_copy(body))
        url_path = route.url.split("/api/v", 1)[-1]
        url_path = url_path[url_path.find("/"):] if "/" in url_path else url_path
        return Call(method=route.method, path=route.path, params=_route_params(route), json=body,
                    files=files, reason=reason, kind=kind,  # type: ignore[arg-type]
                    url_path=url_path, query=dict(query or {}))

    async def handle_rest(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        call = self._capture("rest", route, kwargs.get("json"), form, kwargs.get("reason"),
                             kwargs.get("params"))
        return await self._dispatch(call)

    async def handle_webhook(self, route: Route, *, payload: Any = None, multipart: Any = None,
                             reason: str | None = None, params: Any = None) -> Any:
        call = self._capture("webhook", route, payload, multipart, reason, params)
        return await self._dispatch(call)

    async def _dispatch(self, call: Call) -> Any:
        self.calls.append(call)
        # A real request always yields to the loop; so must we, or concurrent
        # handlers could never interleave and races would stay hidden.
        await asyncio.sleep(0)
        handler = self._routes.get((call.method, call.path))
        if handler is None:
            err = UnsupportedRoute(f"{call.method} {call.path} is not implemented by the harness "
                                   f"(params={call.params}); add it with h.api.add_route()")
            call.error = err
            self.trap.add(TrappedError("harness", str(err), "", err))
            raise err
        try:
            result = handler(call)
            if inspect.isawaitable(result):
                result = await result
        except ApiError as e:
            exc = e.to_exception()
            call.status, call.response, call.error = e.status, e.body, exc
            raise exc from None
        call.status = 204 if result is None else 200
        # discord.py mutates payload dicts in place; never hand out (or log) live state.
        call.response = json_copy(result)
        return json_copy(result)

    # -- routes ---------------------------------------------------------------

    def _install_default_routes(self) -> None:
        r = self.add_route
        r("GET", "/users/@me", lambda c: bot_self_payload(self.world))
        r("GET", "/oauth2/applications/@me", lambda c: app_info_payload(self.world))
        r("GET", "/gateway/bot", lambda c: {"url": "wss://gateway.harness.invalid", "shards": 1})
        r("PUT", "/applications/{application_id}/commands", self._sync_commands)
        r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._sync_commands)
        r("GET", "/applications/{application_id}/commands", lambda c: self.schema.global_commands)
        r("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
          lambda c: self.schema.guild_commands.get(c.params["guild_id"], []))
        r("POST", "/users/@me/channels", self._open_dm)
        r("GET", "/users/{user_id}", self._get_user)
        r("GET", "/guilds/{guild_id}/members/{member_id}", self._get_member)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("DELETE", "/channels/{channel_id}", self._delete_channel)
        r("POST", "/channels/{channel_id}/typing", lambda c: None)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
        r("POST", "/channels/{channel_id}/threads", self._start_thread)
        r("GET", "/channels/{channel_id}/messages", self._history)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_channel_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message)
        for method in ("PUT", "DELETE"):
            r(method, "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
              lambda c: None)
        # Interaction webhooks
        r("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self._callback)
        r("POST", "/webhooks/{webhook_id}/{webhook_token}", self._followup)
        for suffix in ("@original", "{message_id}"):
            path = "/webhooks/{webhook_id}/{webhook_token}/messages/" + suffix
            r("GET", path, self._webhook_get)
            r("PATCH", path, self._webhook_edit)
            r("DELETE", path, self._webhook_delete)

    # commands

    def _sync_commands(self, call: Call) -> list[dict[str, Any]]:
        if call.params["application_id"] != self.world.application_id:
            raise ApiError(403, 50001, "Missing Access")
        payload = list(call.json or [])
        errors = validate_sync_payload(payload)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        return self.schema.overwrite(call.params.get("guild_id"), payload)

    # users / channels

    def _open_dm(self, call: Call) -> dict[str, Any]:
        try:
            user = self.world.users[int(call.json["recipient_id"])]
        except (KeyError, TypeError, ValueError):
            raise ApiError(400, 50033, "Invalid Recipient(s)") from None
        return channel_payload(self.world, user.dm_channel)

    def _get_user(self, call: Call) -> dict[str, Any]:
        uid = call.params["user_id"]
        if uid == self.world.bot_user_id:
            return user_payload(uid, self.world.bot_name, bot=True)
        if uid not in self.world.users:
            raise ApiError(404, 10013, "Unknown User")
        return fake_user_payload(self.world.users[uid])

    def _get_member(self, call: Call) -> dict[str, Any]:
        user = self.world.users.get(call.params["member_id"])
        if call.params["guild_id"] != self.world.guild_id or user is None or not user.in_guild:
            raise ApiError(404, 10007, "Unknown Member")
        return member_payload(self.world, user)

    def _channel(self, channel_id: Any) -> FakeChannel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _get_channel(self, call: Call) -> dict[str, Any]:
        return channel_payload(self.world, self._channel(call.params["channel_id"]))

    def _delete_channel(self, call: Call) -> dict[str, Any]:
        channel = self._channel(call.params["channel_id"])
        if not channel.is_dm:
            allowed = discord.Permissions(self.world.bot_permissions(channel))
            if not (allowed.manage_threads if channel.is_thread else allowed.manage_channels):
                raise ApiError(403, 50013, "Missing Permissions")
        data = channel_payload(self.world, channel)
        for thread in [c for c in self.world.channels.values() if c.parent_id == channel.id]:
            del self.world.channels[thread.id]
        del self.world.channels[channel.id]
        return data

    # channel messages (bot REST)

    def _post_message(self, call: Call) -> dict[str, Any]:
        channel = self._channel(call.params["channel_id"])
        if channel.is_dm:
            recipient = self.world.users[channel.recipient_id]  # type: ignore[index]
            if not recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        body = dict(call.json or {})
        if not channel.is_dm:  # like Discord: 403 50013 for each permission the post needs
            allowed = discord.Permissions(self.world.bot_permissions(channel))
            send = allowed.send_messages_in_threads if channel.is_thread else allowed.send_messages
            needs = [send, not call.files or allowed.attach_files,
                     not body.get("embeds") or allowed.embed_links]
            if not all(needs):
                raise ApiError(403, 50013, "Missing Permissions")
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions may hide
        record = self.messages.create(channel, body, call.files)
        return record.payload

    def _start_thread(self, call: Call) -> dict[str, Any]:
        """A thread without a starter message (``TextChannel.create_thread``), or a forum post."""
        parent = self._channel(call.params["channel_id"])
        body = dict(call.json or {})
        allowed = discord.Permissions(self.world.bot_permissions(parent))
        if parent.type == 0 and not allowed.create_public_threads:
            raise ApiError(403, 50013, "Missing Permissions")
        if parent.type == 15 and not allowed.send_messages:
            raise ApiError(403, 50013, "Missing Permissions")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error("name", "Must be between 1 and 100 in length.")
        thread = self.world.add_thread(parent, name, owner_id=self.world.bot_user_id)
        data = channel_payload(self.world, thread)
        if parent.type == 15:  # a forum post opens with its first message
            first = self.messages.create(thread, dict(body.get("message") or {}), call.files)
            data["message"] = first.payload
        return data

    def _history(self, call: Call) -> list[dict[str, Any]]:
        channel = self._channel(call.params["channel_id"])
        limit = int(call.query.get("limit", 50))
        msgs = [m for m in self.world.visible_messages()
                if m.channel_id == channel.id and m.visible_to is None]
        before, after = call.query.get("before"), call.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
        return [m.payload for m in reversed(msgs)][:limit]

    def _channel_message(self, call: Call) -> MessageRecord:
        self._channel(call.params["channel_id"])
        rec = self.world.messages.get(call.params["message_id"])
        if (rec is None or rec.deleted or rec.channel_id != call.params["channel_id"]
                or rec.visible_to is not None):
            raise ApiError(404, 10008, "Unknown Message")
        return rec

    def _get_channel_message(self, call: Call) -> dict[str, Any]:
        return self._channel_message(call).payload

    def _edit_channel_message(self, call: Call) -> dict[str, Any]:
        rec = self._channel_message(call)
        if int(rec.payload["author"]["id"]) != self.world.bot_user_id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.messages.edit(rec, call.json or {}, call.files)
        return rec.payload

    def _delete_channel_message(self, call: Call) -> None:
        self._channel_message(call).deleted = True

    # interaction callback / webhooks

    def _interaction(self, call: Call, *, callback: bool) -> InteractionRecord:
        ix = self.world.interactions.get(call.params["webhook_id"]) if callback else next(
            (i for i in self.world.interactions.values() if i.token == call.params["webhook_token"]),
            None)
        valid = (ix is not None and not ix.expired and ix.token == call.params["webhook_token"]
                 and (callback or call.params["webhook_id"] == self.world.application_id))
        if not valid:
            if callback:
                raise ApiError(404, 10062, "Unknown interaction")
            raise ApiError(404, 10015, "Unknown Webhook")
        assert ix is not None
        return ix

    def _record(self, ix: InteractionRecord, call: Call, kind: str, *, callback_type: int | None = None,
                message: MessageRecord | None = None) -> Response:
        resp = Response(call=call, kind=kind, interaction_id=ix.id,  # type: ignore[arg-type]
                        callback_type=callback_type, message=message,
                        snapshot=json_copy(message.payload) if message else None,
                        sent_files=list(call.files))
        ix.responses.append(resp)
        return resp

    def _callback(self, call: Call) -> dict[str, Any] | None:
        ix = self._interaction(call, callback=True)
        if ix.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        rtype = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        if rtype not in _ALLOWED_CALLBACKS.get(ix.type, set()) or (
                rtype in (6, 7) and ix.message_id is None):
            raise form_error("type", f"Interaction response type {rtype} is invalid here")
        message: MessageRecord | None = None
        if rtype == 4:
            message = self.messages.create(ix.channel, data, call.files, interaction=ix)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self.messages.create(ix.channel, {"content": "", "flags": flags}, [],
                                          interaction=ix, allow_empty=True)
        elif rtype in (6, 7):
            message = self.world.messages[ix.message_id]  # type: ignore[index]
            if rtype == 7:
                self.messages.edit(message, data, call.files)
        elif rtype == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise form_error("data.choices", "Must be 25 or fewer in length.")
        elif rtype == 9:
            self._validate_modal(data)
            self.world.open_modals.append((ix.user.id, parse_modal(data), ix))
        ix.response_type = rtype
        if message is not None:
            ix.original_message_id = message.id
        self._record(ix, call, "callback", callback_type=rtype, message=message)
        if str(call.query.get("with_response", "")).lower() not in ("1", "true"):
            return None
        info: dict[str, Any] = {"id": str(ix.id), "type": ix.type,
                                "response_message_loading": rtype == 5,
                                "response_message_ephemeral": bool(message and message.ephemeral)}
        resource: dict[str, Any] = {"type": rtype}
        if message is not None:
            info["response_message_id"] = str(message.id)
            resource["message"] = message.payload
        return {"interaction": info, "resource": resource}

    def _validate_modal(self, data: Mapping[str, Any]) -> Modal:
        if not 1 <= len(data.get("title", "")) <= 45:
            raise form_error("data.title", "Must be between 1 and 45 in length.")
        if not 1 <= len(data.get("components") or []) <= 5:
            raise form_error("data.components", "Must be between 1 and 5 in length.")
        return parse_modal(data)

    def _followup(self, call: Call) -> dict[str, Any] | None:
        ix = self._interaction(call, callback=False)
        if ix.response_type not in (4, 5, 6, 7):
            raise ApiError(404, 10015, "Unknown Webhook")
        body = dict(call.json or {})
        original = self.world.messages.get(ix.original_message_id or 0)
        if ix.response_type == 5 and original is not None and original.loading and not original.deleted:
            # Discord fills the "thinking..." message with the first followup,
            # keeping the ephemerality chosen when deferring (once it is deleted,
            # a followup is a new message of its own).
            body["flags"] = (int(body.get("flags") or 0) & ~EPHEMERAL) | (original.flags & EPHEMERAL)
            self.messages.edit(original, body, call.files)
            message = original
        else:
            message = self.messages.create(ix.channel, body, call.files, interaction=ix)
        self._record(ix, call, "followup", message=message)
        return message.payload if str(call.query.get("wait", "0")).lower() in ("1", "true") else None

    def _webhook_message(self, call: Call) -> tuple[InteractionRecord, MessageRecord]:
        ix = self._interaction(call, callback=False)
        target = call.params.get("message_id", ix.original_message_id)
        rec = self.world.messages.get(target) if target is not None else None
        belongs = rec is not None and (rec.interaction_id == ix.id or rec.id == ix.original_message_id)
        if rec is None or rec.deleted or not belongs:
            raise ApiError(404, 10008, "Unknown Message")
        return ix, rec

    def _webhook_get(self, call: Call) -> dict[str, Any]:
        return self._webhook_message(call)[1].payload

    def _webhook_edit(self, call: Call) -> dict[str, Any]:
        ix, rec = self._webhook_message(call)
        self.messages.edit(rec, call.json or {}, call.files)
        self._record(ix, call, "edit", message=rec)
        return rec.payload

    def _webhook_delete(self, call: Call) -> None:
        ix, rec = self._webhook_message(call)
        rec.deleted = True
        self._record(ix, call, "delete", message=rec)
