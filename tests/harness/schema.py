"""Synced command schema, plus builders that only emit what Discord would.

The schema is *captured* from the bot's own ``tree.sync()`` call, never
written by hand, so slash-command tests break as soon as the bot's command
definitions and the test's expectations drift apart. Discord's client only
lets users pick existing (sub)commands, valid option types, in-range values
and listed choices; :meth:`CommandSchema.build` enforces the same rules and
raises :class:`SchemaError` before anything reaches the bot.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from .errors import SchemaError
from .models import FakeChannel, FakeMember, FakeRole
from .payloads import attachment_payload, channel_payload, fake_user_payload, member_payload, role_payload
from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3, 4, 5, 6, 7, 8, 9, 10, 11)
TYPE_NAMES = {1: "subcommand", 2: "subcommand group", 3: "string", 4: "integer", 5: "boolean",
              6: "user", 7: "channel", 8: "role", 9: "mentionable", 10: "number", 11: "attachment"}
_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
_MAX_SAFE_INT = 2**53


def _as_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _err(code: str, message: str) -> dict[str, Any]:
    return {"_errors": [{"code": code, "message": message}]}


def _validate_options(options: list[Mapping[str, Any]], errors: dict[str, Any], depth: int) -> None:
    if len(options) > 25:
        errors["options"] = _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        return
    kinds = {o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options}
    if len(kinds) > 1:
        errors["options"] = _err("APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                 "Sub-commands cannot be mixed with other option types.")
    seen_optional = False
    names: set[str] = set()
    for index, opt in enumerate(options):
        err: dict[str, Any] = {}
        name = opt.get("name", "")
        if not _NAME_RE.match(name) or name != name.lower():
            err["name"] = _err("APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        if name in names:
            err["name"] = _err("APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate name")
        names.add(name)
        if not 1 <= len(opt.get("description", "")) <= 100:
            err["description"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        otype = opt.get("type")
        if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if otype == SUB_COMMAND_GROUP and depth > 0:
                err["type"] = _err("APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups nest once.")
            if otype == SUB_COMMAND_GROUP and any(
                    o.get("type") != SUB_COMMAND for o in opt.get("options", [])):
                err["options"] = _err("APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                                      "Groups can only contain sub-commands.")
            else:
                _validate_options(list(opt.get("options") or []), err, depth + 1)
        else:
            if opt.get("required"):
                if seen_optional:
                    err["required"] = _err("APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                           "Required options must be placed before non-required options")
            else:
                seen_optional = True
            if len(opt.get("choices") or []) > 25:
                err["choices"] = _err("BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if opt.get("choices") and opt.get("autocomplete"):
                err["autocomplete"] = _err("APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                                           "Autocomplete cannot be set with choices.")
        if err:
            errors.setdefault("options", {})[str(index)] = err


def validate_sync_payload(payload: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Return Discord-style form errors for a bulk-overwrite body, or None."""
    errors: dict[str, Any] = {}
    if sum(1 for c in payload if c.get("type", 1) == 1) > 100:
        errors["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Max 100 commands"}]
    seen: set[tuple[str, int]] = set()
    for index, cmd in enumerate(payload):
        err: dict[str, Any] = {}
        ctype = cmd.get("type", 1)
        name = cmd.get("name", "")
        if (name, ctype) in seen:
            err["name"] = _err("APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command {name!r}")
        seen.add((name, ctype))
        if ctype == 1:
            if not _NAME_RE.match(name) or name != name.lower():
                err["name"] = _err("APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
            if not 1 <= len(cmd.get("description", "")) <= 100:
                err["description"] = _err("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            _validate_options(list(cmd.get("options") or []), err, 0)
        if err:
            errors[str(index)] = err
    return errors or None


@dataclass
class BuiltCommand:
    """The ``data`` of an APPLICATION_COMMAND(_AUTOCOMPLETE) interaction."""

    data: dict[str, Any]
    command: Mapping[str, Any]
    leaf: Mapping[str, Any]
    attachments: dict[str, bytes] = field(default_factory=dict)


class CommandSchema:
    """Application commands as Discord stores them after bulk overwrites."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        #: Raw bodies of every bulk overwrite, in order (for assertions).
        self.sync_payloads: list[tuple[int | None, list[dict[str, Any]]]] = []
        self._ids: dict[tuple[int | None, str, int], int] = {}

    @property
    def synced(self) -> bool:
        return bool(self.sync_payloads)

    def overwrite(self, guild_id: int | None, payload: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Store a bulk overwrite and return the ApplicationCommand objects."""
        stored: list[dict[str, Any]] = []
        for cmd in payload:
            ctype = int(cmd.get("type", 1))
            key = (guild_id, cmd["name"], ctype)
            cmd_id = self._ids.setdefault(key, self.world.ids.next())
            data: dict[str, Any] = {
                "id": str(cmd_id),
                "application_id": str(self.world.application_id),
                "version": str(self.world.ids.next()),
                "type": ctype,
                "name": cmd["name"],
                "name_localizations": cmd.get("name_localizations"),
                "description": cmd.get("description", ""),
                "description_localizations": cmd.get("description_localizations"),
                "options": list(cmd.get("options") or []),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "contexts": cmd.get("contexts"),
                "integration_types": cmd.get("integration_types") or [0],
                "nsfw": cmd.get("nsfw", False),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_payloads.append((guild_id, [dict(c) for c in payload]))
        return stored

    def commands_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        """Commands a user sees in this guild (guild ones first) or in DMs."""
        scoped = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return scoped + self.global_commands

    def find(self, name: str, guild_id: int | None, ctype: int = 1) -> dict[str, Any]:
        for cmd in self.commands_for(guild_id):
            if cmd["name"] == name and cmd["type"] == ctype:
                return cmd
        if not self.synced:
            raise SchemaError("no commands were synced; did the bot call tree.sync()?")
        names = sorted(c["name"] for c in self.commands_for(guild_id) if c["type"] == ctype)
        kind = {1: "/", 2: "user command ", 3: "message command "}.get(ctype, "")
        elsewhere = [gid for gid, cmds in self.guild_commands.items()
                     if gid != guild_id and any(c["name"] == name for c in cmds)]
        hint = (f" (it was synced to guild {elsewhere[0]}: pass guild_id={elsewhere[0]} "
                "to DiscordHarness)") if elsewhere else ""
        raise SchemaError(f"{kind}{name} is not a synced command here{hint}; available: {names}")

    # -- interaction data builders -----------------------------------------

    def check_access(self, cmd: Mapping[str, Any], user: FakeMember, in_dm: bool) -> None:
        """Discord hides commands the user may not run; refuse them the same way."""
        if in_dm:
            contexts = cmd.get("contexts")
            allowed = (1 in contexts) if contexts is not None else cmd.get("dm_permission", True)
            if not allowed or "guild_id" in cmd:
                raise SchemaError(f"/{cmd['name']} is not available in DMs")
            return
        required = cmd.get("default_member_permissions")
        if required is not None:
            perms = self.world.member_permissions(user)
            admin = bool(perms & discord.Permissions(administrator=True).value)
            if not admin and (int(required) == 0 or perms & int(required) != int(required)):
                raise SchemaError(f"{user.name} lacks default_member_permissions for /{cmd['name']}")

    def build(self, path: str, values: Mapping[str, Any], *, user: FakeMember, channel: FakeChannel,
              focused: str | None = None) -> BuiltCommand:
        """Build interaction ``data`` for ``/path`` with ``values``.

        ``focused`` switches to autocomplete rules: the focused option must
        have ``autocomplete`` and carries the raw typed string; required
        options may still be missing.
        """
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise SchemaError("empty command path")
        in_dm = channel.is_dm
        root = self.find(parts[0], None if in_dm else self.world.guild_id)
        self.check_access(root, user, in_dm)
        node: Mapping[str, Any] = root
        chain: list[Mapping[str, Any]] = []
        for part in parts[1:]:
            subs = [o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            match = next((o for o in subs if o["name"] == part), None)
            if match is None:
                raise SchemaError(f"/{' '.join(parts)}: no subcommand {part!r}; "
                                  f"available: {[o['name'] for o in subs]}")
            chain.append(match)
            node = match
        options = list(node.get("options") or [])
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options):
            raise SchemaError(f"/{' '.join(parts)} needs a subcommand: {[o['name'] for o in options]}")

        values = {k: v for k, v in values.items() if v is not None}
        known = {o["name"]: o for o in options}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise SchemaError(f"/{' '.join(parts)} has no option(s) {unknown}; options: {sorted(known)}")
        if focused is not None:
            opt = known.get(focused)
            if opt is None or not opt.get("autocomplete"):
                raise SchemaError(f"option {focused!r} of /{' '.join(parts)} has no autocomplete")
        else:
            missing = [o["name"] for o in options if o.get("required") and o["name"] not in values]
            if missing:
                raise SchemaError(f"/{' '.join(parts)} is missing required option(s) {missing}")

        resolved: dict[str, dict[str, Any]] = {}
        built = BuiltCommand(data={}, command=root, leaf=node)
        out: list[dict[str, Any]] = []
        for opt in options:
            name = opt["name"]
            if name == focused:
                raw = values.get(name, "")
                out.append({"type": opt["type"], "name": name, "value": str(raw), "focused": True})
            elif name in values:
                value = self._convert(opt, values[name], resolved, built, channel)
                out.append({"type": opt["type"], "name": name, "value": value})
        for sub in reversed(chain):
            entry: dict[str, Any] = {"type": sub["type"], "name": sub["name"]}
            if out:
                entry["options"] = out
            out = [entry]
        data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1}
        if out:
            data["options"] = out
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in root:
            data["guild_id"] = root["guild_id"]
        built.data = data
        return built

    def build_context_menu(self, name: str, target: Any, *, user: FakeMember,
                           channel: FakeChannel) -> BuiltCommand:
        """``data`` for a user (target is a member) or message context menu."""
        from .models import MessageRecord

        if isinstance(target, FakeMember):
            ctype, resolved = 2, {"users": {str(target.id): fake_user_payload(target)}}
            if not channel.is_dm and target.in_guild:
                member = member_payload(self.world, target, with_permissions=True)
                member.pop("user")
                resolved["members"] = {str(target.id): member}
        elif isinstance(target, MessageRecord):
            ctype, resolved = 3, {"messages": {str(target.id): target.payload}}
        else:
            raise SchemaError(f"context menu target must be a FakeMember or MessageRecord, not {target!r}")
        cmd = self.find(name, None if channel.is_dm else self.world.guild_id, ctype)
        self.check_access(cmd, user, channel.is_dm)
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": ctype,
                                "target_id": str(target.id), "resolved": resolved}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        return BuiltCommand(data=data, command=cmd, leaf=cmd)

    def _convert(self, opt: Mapping[str, Any], value: Any, resolved: dict[str, dict[str, Any]],
                 built: BuiltCommand, channel: FakeChannel) -> Any:
        otype, name = opt["type"], opt["name"]
        where = f"option {name!r} ({TYPE_NAMES.get(otype, otype)})"
        if otype == STRING:
            if not isinstance(value, str):
                raise SchemaError(f"{where} expects str, got {value!r}")
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise SchemaError(f"{where}: length must be within [{lo}, {hi}]")
        elif otype in (INTEGER, NUMBER):
            ok_types = (int,) if otype == INTEGER else (int, float)
            if isinstance(value, bool) or not isinstance(value, ok_types):
                raise SchemaError(f"{where} expects {TYPE_NAMES[otype]}, got {value!r}")
            lo, hi = opt.get("min_value", -_MAX_SAFE_INT), opt.get("max_value", _MAX_SAFE_INT)
            if not lo <= value <= hi:
                raise SchemaError(f"{where}: {value} not within [{lo}, {hi}]")
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise SchemaError(f"{where} expects bool, got {value!r}")
        elif otype in (USER, MENTIONABLE) and self._is_user(value):
            user = self.world.user(value)
            resolved.setdefault("users", {})[str(user.id)] = fake_user_payload(user)
            if not channel.is_dm and user.in_guild:
                member = member_payload(self.world, user, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        elif otype == USER:
            raise SchemaError(f"{where}: unknown user {value!r}")
        elif otype in (ROLE, MENTIONABLE):
            role = value if isinstance(value, FakeRole) else self.world.roles.get(_as_int(value))
            if role is None:
                raise SchemaError(f"{where}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role_payload(role)
            return str(role.id)
        elif otype == CHANNEL:
            ch = value if isinstance(value, FakeChannel) else self.world.channels.get(_as_int(value))
            if ch is None or ch.is_dm:
                raise SchemaError(f"{where}: unknown guild channel {value!r}")
            allowed = opt.get("channel_types")
            if allowed and ch.type not in allowed:
                raise SchemaError(f"{where}: channel type {ch.type} not in {allowed}")
            resolved.setdefault("channels", {})[str(ch.id)] = channel_payload(self.world, ch)
            resolved["channels"][str(ch.id)]["permissions"] = str(self.world.bot_permissions())
            return str(ch.id)
        elif otype == ATTACHMENT:
            if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
                raise SchemaError(f"{where} expects (filename, bytes), got {type(value).__name__}")
            att_id = self.world.ids.next()
            payload = attachment_payload(att_id, channel.id, value[0], value[1])
            self.world.cdn[payload["url"]] = value[1]
            resolved.setdefault("attachments", {})[str(att_id)] = payload
            return str(att_id)
        else:
            raise SchemaError(f"{where}: unsupported value {value!r}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise SchemaError(f"{where}: {value!r} is not one of the choices "
                              f"{[c['value'] for c in choices]}")
        return value

    def _is_user(self, value: Any) -> bool:
        if isinstance(value, FakeMember):
            return True
        try:
            return int(value) in self.world.users
        except (TypeError, ValueError):
            return False
