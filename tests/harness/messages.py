"""Discord's message semantics: creation, partial edits, attachments, limits.

Bots and interaction webhooks share these rules, so both the REST routes and
the interaction routes go through :class:`MessageStore`. Limits Discord
enforces (2000 chars, 10 embeds, 5 action rows of 5, unique custom ids,
no empty messages) are enforced here so a bot bug fails in tests the way it
would fail in production: with a 400 ``discord.HTTPException``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .apierror import ApiError, form_error
from .components import parse_components
from .copying import json_copy
from .models import EPHEMERAL, LOADING, FakeChannel, InteractionRecord, MessageRecord
from .payloads import attachment_payload, fake_user_payload, now_iso, user_payload
from .world import World

_COMPONENTS_V2 = 1 << 15


def _embed(embed: Mapping[str, Any]) -> dict[str, Any]:
    data = json_copy(dict(embed))
    data.setdefault("type", "rich")
    return data


def check_body(body: Mapping[str, Any]) -> None:
    """Reject what Discord rejects with 400 / 50035."""
    content = body.get("content") or ""
    if len(content) > 2000:
        raise form_error("content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    if len(body.get("embeds") or []) > 10:
        raise form_error("embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    raw = body.get("components") or []
    if not int(body.get("flags") or 0) & _COMPONENTS_V2:
        if len(raw) > 5:
            raise form_error("components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for index, row in enumerate(raw):
            if row.get("type") != 1 or not 1 <= len(row.get("components", [])) <= 5:
                raise form_error(f"components.{index}", "Invalid action row",
                                 "COMPONENT_LAYOUT_WIDTH_EXCEEDED")
    ids = [cid for c in parse_components(raw) if (cid := getattr(c, "custom_id", None)) is not None]
    if len(ids) != len(set(ids)):
        raise form_error("components", "Component custom id cannot be duplicated",
                         "COMPONENT_CUSTOM_ID_DUPLICATED")
    if any(len(i) > 100 for i in ids):
        raise form_error("components", "custom_id must be 100 or fewer in length.")


class MessageStore:
    """Creates and edits :class:`MessageRecord` objects inside the world."""

    def __init__(self, world: World) -> None:
        self.world = world

    def create(self, channel: FakeChannel, body: Mapping[str, Any], files: list[tuple[str, bytes]], *,
               interaction: InteractionRecord | None = None, allow_empty: bool = False,
               author: dict[str, Any] | None = None) -> MessageRecord:
        """Store a new message and return it as Discord would echo it back."""
        check_body(body)
        if not allow_empty and not (body.get("content") or body.get("embeds") or files
                                    or body.get("components") or body.get("sticker_ids")
                                    or body.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")
        world = self.world
        mid = world.ids.next()
        flags = int(body.get("flags") or 0)
        payload: dict[str, Any] = {
            "id": str(mid),
            "type": 0,
            "channel_id": str(channel.id),
            "author": author or user_payload(world.bot_user_id, world.bot_name, bot=True),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [_embed(e) for e in body.get("embeds") or []],
            "pinned": False,
            "flags": flags,
            "components": json_copy(list(body.get("components") or [])),
        }
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        if "message_reference" in body:
            payload["type"] = 19
            payload["message_reference"] = dict(body["message_reference"])
        if interaction is not None:
            app_id = str(world.application_id)
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
        world.messages[mid] = rec
        return rec

    def edit(self, rec: MessageRecord, body: Mapping[str, Any], files: list[tuple[str, bytes]]) -> None:
        """Apply a partial edit; keys absent from ``body`` are left untouched."""
        check_body({**rec.payload, **body})
        rec.history.append(json_copy(rec.payload))
        if "content" in body:
            rec.payload["content"] = body["content"] or ""
        if "embeds" in body:
            rec.payload["embeds"] = [_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            rec.payload["components"] = json_copy(list(body["components"] or []))
        # Ephemerality is fixed at creation; the loading flag ends with any edit.
        fixed = rec.flags & EPHEMERAL
        editable = int(body["flags"]) if body.get("flags") is not None else rec.flags
        rec.payload["flags"] = (editable & ~(EPHEMERAL | LOADING)) | fixed
        if "attachments" in body or files:
            self._attachments(rec, body.get("attachments"), files)
        # Filling a deferred "thinking..." message does not show as an edit.
        rec.payload["edited_timestamp"] = None if rec.history[-1]["flags"] & LOADING else now_iso()

    def _attachments(self, rec: MessageRecord, spec: list[Mapping[str, Any]] | None,
                     files: list[tuple[str, bytes]]) -> None:
        """Discord's rule: ``attachments`` lists existing ids to keep and upload
        indices (``files[n]``) to add; without it, uploads are appended."""
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
                raise form_error("attachments", f"Unknown attachment id {ref}")
        rec.payload["attachments"] = out
