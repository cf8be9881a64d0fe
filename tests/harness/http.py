"""Offline Discord REST + interaction-webhook API.

discord.py funnels every REST call through ``HTTPClient.request`` and every
interaction-token call through ``AsyncWebhookAdapter.request``. Both are
patched at class level for the lifetime of a harness, dispatch to the
:class:`FakeDiscordAPI` owning that client/session, and *raise* if no harness
owns it — so a test can never reach the network by accident.

Answers imitate Discord closely (status codes, JSON error codes such as
40060 "already acknowledged" or 50007 "cannot send messages to this user")
and errors are raised as the real ``discord.HTTPException`` subclasses so the
bot's own error handling is what gets exercised.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any
from urllib.parse import unquote

import aiohttp
import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from .components import Modal, parse_components, parse_modal
from .errors import TrappedError, UnsupportedRoute
from .models import EPHEMERAL, LOADING, Call, FakeChannel, InteractionRecord, MessageRecord, Response
from .payloads import (
    app_info_payload,
    attachment_payload,
    bot_self_payload,
    channel_payload,
    fake_user_payload,
    member_payload,
    now_iso,
    user_payload,
)
from .schema import CommandSchema, validate_sync_payload
from .traps import ErrorTrap
from .world import World

Handler = Callable[[Call], Any | Awaitable[Any]]
_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 429: "Too Many Requests", 500: "Internal Server Error"}
#: Interaction response types each interaction type may use.
_ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
_SUPPRESS_EMBEDS, _SILENT, _COMPONENTS_V2 = 1 << 2, 1 << 12, 1 << 15


class FakeResponse:
    """The bits of ``aiohttp.ClientResponse`` that ``discord.HTTPException`` reads."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = _REASONS.get(status, "Error")
        self.headers: dict[str, str] = {"content-type": "application/json"}


class ApiError(Exception):
    """Raised by route handlers; converted to the matching discord exception."""

    def __init__(self, status: int, code: int, message: str,
                 errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = dict(errors)

    def to_exception(self) -> discord.HTTPException:
        response = FakeResponse(self.status)
        cls: type[discord.HTTPException] = discord.HTTPException
        if self.status == 403:
            cls = discord.Forbidden
        elif self.status == 404:
            cls = discord.NotFound
        elif self.status >= 500:
            cls = discord.DiscordServerError
        return cls(response, self.body)  # type: ignore[arg-type]


def _form_error(field: str, message: str, code: str = "BASE_TYPE_INVALID") -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body",
                    {field: {"_errors": [{"code": code, "message": message}]}})


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


class BlockedConnector(aiohttp.BaseConnector):
    """aiohttp connector that refuses every connection (belt and braces)."""

    async def _create_connection(self, req: Any, traces: Any, timeout: Any) -> Any:  # noqa: ANN401
        raise aiohttp.ClientConnectionError(f"offline harness: network access to {req.url} blocked")


class FakeDiscordAPI:
    """Routes captured calls to handlers that mutate the shared :class:`World`."""

    def __init__(self, world: World, schema: CommandSchema, trap: ErrorTrap) -> None:
        self.world = world
        self.schema = schema
        self.trap = trap
        self.calls: list[Call] = []
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
        body, files = _read_form(form, copy.deepcopy(body))
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
        call.response = result
        # discord.py mutates payload dicts in place; never hand out our state.
        return copy.deepcopy(result)

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
        r("POST", "/channels/{channel_id}/typing", lambda c: None)
        r("POST", "/channels/{channel_id}/messages", self._post_message)
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

    # channel messages (bot REST)

    def _post_message(self, call: Call) -> dict[str, Any]:
        channel = self._channel(call.params["channel_id"])
        if channel.is_dm:
            recipient = self.world.users[channel.recipient_id]  # type: ignore[index]
            if not recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
        body = dict(call.json or {})
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions may hide
        record = self.create_message(channel, body, call.files)
        return record.payload

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
        self.edit_message(rec, call.json or {}, call.files)
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
                        snapshot=copy.deepcopy(message.payload) if message else None,
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
            raise _form_error("type", f"Interaction response type {rtype} is invalid here")
        message: MessageRecord | None = None
        if rtype == 4:
            message = self.create_message(ix.channel, data, call.files, interaction=ix)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self.create_message(ix.channel, {"content": "", "flags": flags}, [],
                                          interaction=ix, allow_empty=True)
        elif rtype in (6, 7):
            message = self.world.messages[ix.message_id]  # type: ignore[index]
            if rtype == 7:
                self.edit_message(message, data, call.files)
        elif rtype == 8:
            choices = data.get("choices") or []
            if len(choices) > 25:
                raise _form_error("data.choices", "Must be 25 or fewer in length.")
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
            raise _form_error("data.title", "Must be between 1 and 45 in length.")
        if not 1 <= len(data.get("components") or []) <= 5:
            raise _form_error("data.components", "Must be between 1 and 5 in length.")
        return parse_modal(data)

    def _followup(self, call: Call) -> dict[str, Any] | None:
        ix = self._interaction(call, callback=False)
        if ix.response_type not in (4, 5, 6, 7):
            raise ApiError(404, 10015, "Unknown Webhook")
        body = dict(call.json or {})
        original = self.world.messages.get(ix.original_message_id or 0)
        if ix.response_type == 5 and original is not None and original.loading:
            # Discord fills the "thinking..." message with the first followup,
            # keeping the ephemerality chosen when deferring.
            body["flags"] = (int(body.get("flags") or 0) & ~EPHEMERAL) | (original.flags & EPHEMERAL)
            self.edit_message(original, body, call.files)
            message = original
        else:
            message = self.create_message(ix.channel, body, call.files, interaction=ix)
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
        self.edit_message(rec, call.json or {}, call.files)
        self._record(ix, call, "edit", message=rec)
        return rec.payload

    def _webhook_delete(self, call: Call) -> None:
        ix, rec = self._webhook_message(call)
        rec.deleted = True
        self._record(ix, call, "delete", message=rec)

    # -- message model ------------------------------------------------------

    def _check_body(self, body: Mapping[str, Any]) -> None:
        content = body.get("content") or ""
        if len(content) > 2000:
            raise _form_error("content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        if len(body.get("embeds") or []) > 10:
            raise _form_error("embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        raw = body.get("components") or []
        v2 = bool(int(body.get("flags") or 0) & _COMPONENTS_V2)
        if not v2 and len(raw) > 5:
            raise _form_error("components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        if not v2:
            for index, row in enumerate(raw):
                if row.get("type") != 1 or not 1 <= len(row.get("components", [])) <= 5:
                    raise _form_error(f"components.{index}", "Invalid action row",
                                      "COMPONENT_LAYOUT_WIDTH_EXCEEDED")
        ids = [getattr(c, "custom_id", None) for c in parse_components(raw)]
        ids = [i for i in ids if i is not None]
        if len(ids) != len(set(ids)):
            raise _form_error("components", "Component custom id cannot be duplicated",
                              "COMPONENT_CUSTOM_ID_DUPLICATED")
        if any(len(i) > 100 for i in ids):
            raise _form_error("components", "custom_id must be 100 or fewer in length.")

    def _attachments(self, rec: MessageRecord, spec: list[Mapping[str, Any]] | None,
                     files: list[tuple[str, bytes]]) -> None:
        """Apply Discord's attachment rules: ``attachments`` lists what to keep/add."""
        old = {int(a["id"]): a for a in rec.payload.get("attachments", [])}
        if spec is None:
            spec = [{"id": a} for a in old] + [{"id": i} for i in range(len(files))]
        out: list[dict[str, Any]] = []
        for item in spec:
            ref = int(item["id"])
            if ref in old:
                out.append(old[ref])
            elif 0 <= ref < len(files):
                filename = item.get("filename") or files[ref][0]
                data = files[ref][1]
                att_id = self.world.ids.next()
                payload = attachment_payload(att_id, rec.channel_id, filename, data,
                                             item.get("description"))
                self.world.cdn[payload["url"]] = data
                rec.attachments[att_id] = (filename, data)
                out.append(payload)
            else:
                raise _form_error("attachments", f"Unknown attachment id {ref}")
        rec.payload["attachments"] = out

    def create_message(self, channel: FakeChannel, body: Mapping[str, Any],
                       files: list[tuple[str, bytes]], *, interaction: InteractionRecord | None = None,
                       allow_empty: bool = False, author: dict[str, Any] | None = None) -> MessageRecord:
        """Create and store a message the way Discord would echo it back."""
        self._check_body(body)
        if not allow_empty and not (body.get("content") or body.get("embeds") or files
                                    or body.get("components") or body.get("sticker_ids")
                                    or body.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        mid = self.world.ids.next()
        flags = int(body.get("flags") or 0)
        payload: dict[str, Any] = {
            "id": str(mid),
            "type": 0,
            "channel_id": str(channel.id),
            "author": author or user_payload(self.world.bot_user_id, self.world.bot_name, bot=True),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [self._embed(e) for e in body.get("embeds") or []],
            "pinned": False,
            "flags": flags,
            "components": copy.deepcopy(list(body.get("components") or [])),
        }
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        if "message_reference" in body:
            payload["type"] = 19
            payload["message_reference"] = dict(body["message_reference"])
        if interaction is not None:
            app_id = str(self.world.application_id)
            payload.update(
                type=20 if interaction.type == 2 else 0,
                webhook_id=app_id,
                application_id=app_id,
                interaction_metadata={
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "user": fake_user_payload(interaction.user),
                    "authorizing_integration_owners": interaction.payload.get(
                        "authorizing_integration_owners", {}),
                },
            )
        rec = MessageRecord(id=mid, channel_id=channel.id, payload=payload,
                            interaction_id=interaction.id if interaction else None,
                            visible_to=interaction.user.id if interaction and flags & EPHEMERAL else None)
        self._attachments(rec, body.get("attachments"), files)
        self.world.messages[mid] = rec
        return rec

    def edit_message(self, rec: MessageRecord, body: Mapping[str, Any],
                     files: list[tuple[str, bytes]]) -> None:
        """Apply a partial edit; keys absent from ``body`` are left untouched."""
        self._check_body({**rec.payload, **body})
        rec.history.append(copy.deepcopy(rec.payload))
        if "content" in body:
            rec.payload["content"] = body["content"] or ""
        if "embeds" in body:
            rec.payload["embeds"] = [self._embed(e) for e in body["embeds"] or []]
        if "components" in body:
            rec.payload["components"] = copy.deepcopy(list(body["components"] or []))
        # Ephemerality is fixed at creation; the loading flag ends with any edit.
        fixed = rec.flags & EPHEMERAL
        editable = int(body["flags"]) if body.get("flags") is not None else rec.flags
        rec.payload["flags"] = (editable & ~(EPHEMERAL | LOADING)) | fixed
        if "attachments" in body or files:
            self._attachments(rec, body.get("attachments"), files)
        rec.payload["edited_timestamp"] = None if rec.history[-1]["flags"] & LOADING else now_iso()

    @staticmethod
    def _embed(embed: Mapping[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(dict(embed))
        data.setdefault("type", "rich")
        return data


# -- class-level patches -------------------------------------------------------

_BY_HTTP: dict[HTTPClient, FakeDiscordAPI] = {}
_BY_SESSION: dict[aiohttp.ClientSession, FakeDiscordAPI] = {}
_ORIGINALS: dict[str, Any] = {}


def _api_for_http(http: HTTPClient) -> FakeDiscordAPI:
    api = _BY_HTTP.get(http)
    if api is None:
        raise RuntimeError("network blocked: discord HTTPClient used outside of a DiscordHarness")
    session = getattr(http, "_HTTPClient__session", None)
    if isinstance(session, aiohttp.ClientSession) and session not in _BY_SESSION:
        api.session = session
        _BY_SESSION[session] = api
    return api


async def _patched_request(self: HTTPClient, route: Route, *, files: Any = None, form: Any = None,
                           **kwargs: Any) -> Any:
    return await _api_for_http(self).handle_rest(route, files=files, form=form, **kwargs)


async def _patched_webhook_request(self: AsyncWebhookAdapter, route: Route, session: Any, *,
                                   payload: Any = None, multipart: Any = None, proxy: Any = None,
                                   proxy_auth: Any = None, files: Any = None, reason: str | None = None,
                                   auth_token: str | None = None, params: Any = None) -> Any:
    api = _BY_SESSION.get(session)
    if api is None:
        token = getattr(route, "webhook_token", None)
        api = next((a for a in _BY_HTTP.values()
                    if any(i.token == token for i in a.world.interactions.values())), None)
    if api is None:
        raise RuntimeError("network blocked: webhook request outside of a DiscordHarness")
    return await api.handle_webhook(route, payload=payload, multipart=multipart, reason=reason,
                                    params=params)


async def _patched_cdn(self: HTTPClient, url: str) -> bytes:
    api = _api_for_http(self)
    if url not in api.world.cdn:
        raise ApiError(404, 0, "asset not found").to_exception()
    return api.world.cdn[url]


async def _blocked_ws_connect(self: HTTPClient, url: str, *, compress: int = 0) -> Any:
    raise RuntimeError("network blocked: the harness feeds gateway frames directly")


def install(api: FakeDiscordAPI, http: HTTPClient) -> None:
    """Route ``http``'s traffic to ``api``; patch the classes on first use."""
    if not _BY_HTTP:
        _ORIGINALS.update(
            request=HTTPClient.request, get_from_cdn=HTTPClient.get_from_cdn,
            ws_connect=HTTPClient.ws_connect, webhook=AsyncWebhookAdapter.request,
        )
        HTTPClient.request = _patched_request  # type: ignore[method-assign]
        HTTPClient.get_from_cdn = _patched_cdn  # type: ignore[method-assign]
        HTTPClient.ws_connect = _blocked_ws_connect  # type: ignore[method-assign]
        AsyncWebhookAdapter.request = _patched_webhook_request  # type: ignore[method-assign]
    api.http_client = http
    _BY_HTTP[http] = api


def uninstall(api: FakeDiscordAPI) -> None:
    """Forget ``api``; restore discord.py's methods when no harness is left."""
    if api.http_client is not None:
        _BY_HTTP.pop(api.http_client, None)
    for session in [s for s, a in _BY_SESSION.items() if a is api]:
        del _BY_SESSION[session]
    if not _BY_HTTP and _ORIGINALS:
        HTTPClient.request = _ORIGINALS.pop("request")  # type: ignore[method-assign]
        HTTPClient.get_from_cdn = _ORIGINALS.pop("get_from_cdn")  # type: ignore[method-assign]
        HTTPClient.ws_connect = _ORIGINALS.pop("ws_connect")  # type: ignore[method-assign]
        AsyncWebhookAdapter.request = _ORIGINALS.pop("webhook")  # type: ignore[method-assign]
