"""Builders for Discord API / gateway payloads.

Every dict here mirrors what Discord really sends (field names, string
snowflakes, ``discriminator: "0"``...), because discord.py's models index
many keys directly and silently diverge when a payload is too thin. Keeping
them in one module makes it easy to update when Discord adds fields.
"""

from __future__ import annotations

import datetime as dt
import mimetypes
import struct
import time
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from .models import FakeChannel, FakeMember, FakeRole
    from .world import World

DISCORD_EPOCH_MS = 1420070400000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
#: Placeholder hosts on the reserved ``.invalid`` TLD so nothing can resolve.
CDN_BASE = "https://cdn.harness.invalid"
GATEWAY_URL = "wss://gateway.harness.invalid"


class Snowflakes:
    """Monotonic snowflake generator anchored to the wall clock.

    Real timestamps matter: discord.py derives ``created_at`` from ids and
    ``Interaction.is_expired()`` compares it with now.
    """

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def user_payload(user_id: int, name: str, *, global_name: str | None = None,
                 bot: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": global_name,
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
        "collectibles": None,
    }
    if bot:
        data["bot"] = True
    return data


def bot_self_payload(world: World) -> dict[str, Any]:
    """``GET /users/@me`` / READY ``user`` for the bot account."""
    data = user_payload(world.bot_user_id, world.bot_name, bot=True)
    data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None})
    return data


def fake_user_payload(user: FakeMember) -> dict[str, Any]:
    return user_payload(user.id, user.name, global_name=user.global_name, bot=user.bot)


def member_payload(world: World, user: FakeMember, *,
                   with_permissions: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user": fake_user_payload(user),
        "roles": [str(r) for r in user.roles],
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "joined_at": world.joined_at,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_permissions:
        data["permissions"] = str(world.member_permissions(user))
    return data


def bot_member_payload(world: World) -> dict[str, Any]:
    return {
        "user": user_payload(world.bot_user_id, world.bot_name, bot=True),
        "roles": [str(world.bot_role.id)],
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "joined_at": world.joined_at,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
    }


def role_payload(role: FakeRole) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }


def channel_payload(world: World, channel: FakeChannel, *,
                    permissions_for: FakeMember | None = None) -> dict[str, Any]:
    if channel.is_dm:
        recipient = world.users[channel.recipient_id] if channel.recipient_id else None
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [fake_user_payload(recipient)] if recipient else [],
        }
        return data
    data = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": channel.topic,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if channel.is_thread:
        data.update({
            "parent_id": str(channel.parent_id), "owner_id": str(channel.owner_id or world.bot_user_id),
            "member_count": 1, "message_count": 0, "total_message_sent": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                "archive_timestamp": "2024-01-01T00:00:00+00:00"},
        })
        if channel.type == 12:
            data["thread_metadata"]["invitable"] = False
        del data["topic"], data["position"], data["permission_overwrites"]
    if channel.type == 15:
        data.update({"available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
                     "default_forum_layout": 0, "default_thread_rate_limit_per_user": 0})
    if permissions_for is not None:
        data["permissions"] = str(world.member_permissions(permissions_for))
    return data


def guild_create_payload(world: World) -> dict[str, Any]:
    """Full GUILD_CREATE: roles, channels and *all* members.

    ``member_count`` equals the member list so discord.py considers the guild
    chunked and never waits on a REQUEST_GUILD_MEMBERS round-trip.
    """
    members = [bot_member_payload(world)] + [
        member_payload(world, u) for u in world.users.values() if u.in_guild
    ]
    return {
        "id": str(world.guild_id),
        "name": world.guild_name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(world.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": world.preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "features": [],
        "roles": [role_payload(r) for r in world.roles.values()],
        "emojis": [],
        "stickers": [],
        "channels": [channel_payload(world, c) for c in world.guild_channels() if not c.is_thread],
        "threads": [channel_payload(world, c) for c in world.guild_channels() if c.is_thread],
        "members": members,
        "member_count": len(members),
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "incidents_data": None,
        "joined_at": world.joined_at,
        "large": False,
        "unavailable": False,
        "lazy": True,
        "nsfw": False,
    }


def ready_payload(world: World, session_id: str) -> dict[str, Any]:
    return {
        "v": 10,
        "user": bot_self_payload(world),
        "guilds": [{"id": str(world.guild_id), "unavailable": True}],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": GATEWAY_URL,
        "shard": [0, 1],
        "application": {"id": str(world.application_id), "flags": world.application_flags},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["us-east"],
        "user_settings": {},
        "auth": {},
    }


def app_info_payload(world: World) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``."""
    owner = user_payload(world.owner_id, "app-owner")
    return {
        "id": str(world.application_id),
        "name": world.bot_name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user_payload(world.bot_user_id, world.bot_name, bot=True),
        "owner": owner,
        "team": None,
        "verify_key": "0" * 64,
        "flags": world.application_flags,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}},
    }


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width/height of a PNG (Discord reports them on image attachments)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    return None


def attachment_payload(attachment_id: int, channel_id: int, filename: str, data: bytes,
                       description: str | None = None) -> dict[str, Any]:
    url = f"{CDN_BASE}/attachments/{channel_id}/{attachment_id}/{filename}"
    payload: dict[str, Any] = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": url.replace("cdn.", "media."),
        "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
        "flags": 0,
    }
    if description is not None:
        payload["description"] = description
    size = png_size(data)
    if size is not None:
        payload["width"], payload["height"] = size
    return payload


def default_permissions() -> int:
    """What ``@everyone`` gets in a freshly created guild."""
    return discord.Permissions(
        view_channel=True, send_messages=True, read_message_history=True, add_reactions=True,
        embed_links=True, attach_files=True, use_application_commands=True,
        use_external_emojis=True, create_public_threads=True, send_messages_in_threads=True,
        create_instant_invite=True, change_nickname=True, connect=True, speak=True,
    ).value


def manager_permissions() -> int:
    return discord.Permissions(manage_channels=True, manage_messages=True).value


def bot_permissions() -> int:
    return (discord.Permissions.text() | discord.Permissions(view_channel=True)).value


def interaction_payload(world: World, *, interaction_id: int, token: str, itype: int,
                        user: FakeMember, channel: FakeChannel, data: dict[str, Any],
                        message: dict[str, Any] | None = None,
                        locale: str = "en-US") -> dict[str, Any]:
    """An INTERACTION_CREATE ``d`` as Discord sends it for a guild-installed app."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": itype,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload(world, channel, permissions_for=None if channel.is_dm else user),
        "app_permissions": str(world.bot_permissions(None if channel.is_dm else channel)),
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "data": data,
    }
    if channel.is_dm:
        payload["user"] = fake_user_payload(user)
        payload["context"] = 1
        payload["authorizing_integration_owners"] = {"0": "0"}
    else:
        payload["guild_id"] = str(world.guild_id)
        payload["guild"] = {"id": str(world.guild_id), "locale": world.preferred_locale, "features": []}
        payload["guild_locale"] = world.preferred_locale
        payload["member"] = member_payload(world, user, with_permissions=True)
        payload["context"] = 0
        payload["authorizing_integration_owners"] = {"0": str(world.guild_id)}
    if message is not None:
        payload["message"] = message
    return payload
