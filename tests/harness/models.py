"""Plain records the harness exposes to tests.

Tests get *harness-side* objects (``FakeMember``, ``FakeChannel``,
``MessageRecord``...) rather than discord.py models on purpose: they describe
what Discord's servers and the user's client know, independently of how the
bot's cache happens to represent them, so assertions stay valid even if the
bot's cache is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import discord

from .components import Button, Component, Modal, Select, parse_components, text_displays

if TYPE_CHECKING:
    from .world import World

EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass(eq=False)
class FakeRole:
    """A guild role as Discord stores it."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a DM channel (type 1), a forum (type 15), a public thread
    (type 11: a thread of a text channel, or a post in a forum) or a private thread (type 12: only
    its members and moderators see it) with its ``parent_id``."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient_id: int | None = None
    bot_denied: int = 0
    """Permissions a channel overwrite takes from the bot here (see ``h.deny_bot``)."""
    parent_id: int | None = None
    owner_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (11, 12)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(eq=False)
class FakeMember:
    """A human guild member; every member also owns a DM channel with the bot."""

    id: int
    name: str
    dm_channel: FakeChannel
    global_name: str | None = None
    roles: list[int] = field(default_factory=list)
    bot: bool = False
    dms_open: bool = True
    manage_channel: bool = False
    in_guild: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


FakeUser = FakeMember


@dataclass
class Call:
    """One outgoing HTTP request the bot made, exactly as discord.py built it.

    ``path`` is the route template (``/channels/{channel_id}/messages``) so
    tests can filter by endpoint; ``params`` holds the filled-in route
    parameters (numeric ones as ``int``); ``files`` is ``[(filename, bytes)]``
    read from the multipart form.
    """

    method: str
    path: str
    params: dict[str, Any]
    json: Any
    files: list[tuple[str, bytes]]
    reason: str | None
    kind: Literal["rest", "webhook"] = "rest"
    url_path: str = ""
    query: dict[str, Any] = field(default_factory=dict)
    status: int | None = None
    response: Any = None
    error: BaseException | None = None

    def __repr__(self) -> str:
        return f"<Call {self.method} {self.url_path or self.path} -> {self.status}>"


class _MessageLike:
    """Shared accessors over a Discord message-shaped payload."""

    def _view(self) -> Mapping[str, Any]:
        raise NotImplementedError

    def _file_list(self) -> list[tuple[str, bytes]]:
        raise NotImplementedError

    @property
    def content(self) -> str | None:
        return self._view().get("content")

    @property
    def flags(self) -> int:
        return int(self._view().get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def embeds(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(e) for e in self._view().get("embeds") or []]

    @property
    def components(self) -> list[Component]:
        return parse_components(self._view().get("components"))

    @property
    def texts(self) -> list[str]:
        """Text shown by components-v2 TextDisplay items (v2 messages have no content)."""
        return text_displays(self._view().get("components"))

    @property
    def buttons(self) -> list[Button]:
        return [c for c in self.components if isinstance(c, Button)]

    @property
    def selects(self) -> list[Select]:
        return [c for c in self.components if isinstance(c, Select)]

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return self._file_list()

    @property
    def filenames(self) -> list[str]:
        return [name for name, _ in self._file_list()]

    def component(self, custom_id: str) -> Component:
        """The component with this custom_id (``KeyError`` lists what exists)."""
        for comp in self.components:
            if getattr(comp, "custom_id", None) == custom_id:
                return comp
        ids = [getattr(c, "custom_id", None) for c in self.components]
        raise KeyError(f"no component {custom_id!r}; present: {ids}")

    def button(self, label: str) -> Button:
        """The button with this label (``KeyError`` lists the labels)."""
        for btn in self.buttons:
            if btn.label == label:
                return btn
        raise KeyError(f"no button labelled {label!r}; present: {[b.label for b in self.buttons]}")


@dataclass(eq=False)
class MessageRecord(_MessageLike):
    """A message as Discord currently shows it (edits applied).

    ``payload`` is the message object Discord would return; ``attachments``
    maps attachment ids to ``(filename, bytes)``; ``history`` keeps every
    previous payload so a test can check how a message evolved.
    """

    id: int
    channel_id: int
    payload: dict[str, Any]
    attachments: dict[int, tuple[str, bytes]] = field(default_factory=dict)
    interaction_id: int | None = None
    visible_to: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False

    def _view(self) -> Mapping[str, Any]:
        return self.payload

    def _file_list(self) -> list[tuple[str, bytes]]:
        return [self.attachments[int(a["id"])] for a in self.payload.get("attachments", [])
                if int(a["id"]) in self.attachments]

    @property
    def loading(self) -> bool:
        """True while a deferred ("Bot is thinking...") response is unanswered."""
        return bool(self.flags & LOADING)

    def __repr__(self) -> str:
        return f"<MessageRecord id={self.id} channel={self.channel_id} content={self.content!r}>"


@dataclass(eq=False)
class Response(_MessageLike):
    """One thing the bot did for an interaction: callback, followup, edit, delete.

    Message accessors (``content``, ``ephemeral``, ``components``...) read the
    message as Discord showed it right after this call (``snapshot``), so a
    followup that fills an ephemeral "thinking..." message reports
    ``ephemeral=True`` and a view-only edit still reports the content. For
    callbacks without a message (autocomplete, modal) they read ``payload``,
    the raw data the bot sent. ``files`` are the files uploaded by this call.
    """

    call: Call
    kind: Literal["callback", "followup", "edit", "delete"]
    interaction_id: int
    callback_type: int | None = None
    message: MessageRecord | None = None
    snapshot: dict[str, Any] | None = None
    sent_files: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def payload(self) -> Mapping[str, Any]:
        """The message-ish part of what the bot sent."""
        body = self.call.json or {}
        if self.kind == "callback":
            return body.get("data") or {}
        return body

    def _view(self) -> Mapping[str, Any]:
        return self.snapshot if self.snapshot is not None else self.payload

    def _file_list(self) -> list[tuple[str, bytes]]:
        return list(self.sent_files)

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def choices(self) -> list[discord.app_commands.Choice[Any]]:
        """Autocomplete choices (callback type 8)."""
        if self.callback_type != 8:
            return []
        return [discord.app_commands.Choice(name=c["name"], value=c["value"])
                for c in self.payload.get("choices", [])]

    @property
    def modal(self) -> Modal | None:
        from .components import parse_modal

        return parse_modal(self.payload) if self.callback_type == 9 else None

    def __repr__(self) -> str:
        return f"<Response {self.kind} type={self.callback_type} content={self.content!r}>"


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the harness sent, plus Discord's server-side state for it.

    Returned by ``h.slash``/``h.click``/...; pass it to ``h.responses_to``.
    """

    id: int
    token: str
    type: int
    user: FakeMember
    channel: FakeChannel
    payload: dict[str, Any]
    message_id: int | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    expired: bool = False
    ack_checked: bool = field(default=False, repr=False)
    responses: list[Response] = field(default_factory=list)
    world: World | None = field(default=None, repr=False)

    @property
    def response(self) -> Response | None:
        """The initial callback (type 4/5/6/7/8/9), if any."""
        return next((r for r in self.responses if r.kind == "callback"), None)

    @property
    def last(self) -> Response | None:
        return self.responses[-1] if self.responses else None

    @property
    def original(self) -> MessageRecord | None:
        """The message ``@original`` refers to now, if one exists."""
        if self.world is None or self.original_message_id is None:
            return None
        return self.world.messages.get(self.original_message_id)

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} user={self.user.name}>"


UserRef = FakeMember | int | str
ChannelRef = FakeChannel | str
MessageRef = MessageRecord | Response | InteractionRecord | int
