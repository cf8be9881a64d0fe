"""Every option of every command checked against what the command declares, before discord.py
reads it.

Discord's client only sends what a command declares (an integer for ``players``, one of the
choices for ``variant``, a member that exists), but a forged payload can send anything, and
discord.py passes an integer, string or boolean option's value on as it came (``players:
"four"`` reaches ``TableSettings`` as a string, a number that is not one fails inside discord.py).
So the command tree's check (:class:`bot.discord.app.ProjectLTree`) holds each option to its
declared kind first, for every command and for autocomplete, and a value of another kind is
refused with one sentence, privately, changing nothing. A value of the right kind outside today's
range or choices is left to the command: a client with an older command list may send a retired
choice the command still understands (``watch: strong``), or a seat number it refuses in its own
words ("no seat 0: 1 to 2"). An option the command does not have is a stale client's
(:class:`~discord.app_commands.CommandSignatureMismatch`, answered as such).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Kind

from bot.core.errors import BotError
from bot.core.wording import texts

MAX_SAFE_INTEGER = 2 ** 53
"""Discord's integer options lie between -2^53 and 2^53."""
_RESOLVED = {Kind.user: ("users",), Kind.channel: ("channels",), Kind.role: ("roles",),
             Kind.mentionable: ("users", "roles"), Kind.attachment: ("attachments",)}
"""Where a payload carries the object an option of each snowflake kind names."""
_GROUPS = (Kind.subcommand.value, Kind.subcommand_group.value)


class OptionRefusedError(BotError, app_commands.CheckFailure):
    """An option's value is not of the kind its command declares; nothing was done."""


def check_options(interaction: discord.Interaction) -> None:
    """Refuse (:class:`OptionRefusedError`) a slash command or autocomplete whose options are not
    those its command declares, each of its declared kind."""
    if interaction.type not in (discord.InteractionType.application_command,
                                discord.InteractionType.autocomplete):
        return
    data: Mapping[str, Any] = interaction.data or {}
    command = interaction.command
    if data.get("type", 1) != 1 or not isinstance(command, app_commands.Command):
        return  # a context menu has no options; an unknown command is refused by the tree
    declared = {p.display_name: p for p in command.parameters}
    resolved = data.get("resolved")
    completing = interaction.type is discord.InteractionType.autocomplete
    for option in leaf_options(data):
        parameter = declared.get(str(option.get("name")))
        if parameter is None:
            raise app_commands.CommandSignatureMismatch(command)
        if not fits(option, parameter, resolved if isinstance(resolved, Mapping) else {}, completing):
            raise OptionRefusedError(texts.OPTION_NOT_ACCEPTED.format(name=parameter.display_name))


def leaf_options(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The options of the subcommand invoked (under its group and subcommand entries); a
    malformed list counts as an option of no name, refused."""
    options = data.get("options") or []
    while isinstance(options, list) and options and isinstance(options[0], Mapping) \
            and options[0].get("type") in _GROUPS:
        options = options[0].get("options") or []
    if not isinstance(options, list):
        return [{}]
    return [o if isinstance(o, Mapping) else {} for o in options]


def fits(option: Mapping[str, Any], parameter: app_commands.Parameter, resolved: Mapping[str, Any],
         completing: bool) -> bool:
    """Whether ``option`` (as the payload sent it) is a value ``parameter`` takes. The option an
    autocomplete is for carries the text typed so far, whatever its kind."""
    kind = parameter.type
    if option.get("type") != kind.value or "value" not in option:
        return False
    value = option["value"]
    if option.get("focused"):
        return completing and isinstance(value, str)
    if kind in _RESOLVED:
        return _names_an_object(value, _RESOLVED[kind], resolved, completing)
    return _of_kind(value, kind)


def _of_kind(value: Any, kind: Kind) -> bool:
    """A JSON value of ``kind`` (an integer within Discord's ±2^53, a finite number)."""
    if kind is Kind.string:
        return isinstance(value, str)
    if kind is Kind.boolean:
        return isinstance(value, bool)
    if kind is Kind.integer:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_SAFE_INTEGER
    if kind is Kind.number:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return False


def _names_an_object(value: Any, where: tuple[str, ...], resolved: Mapping[str, Any],
                     completing: bool) -> bool:
    """A snowflake that the payload resolves (an autocomplete carries no resolved objects)."""
    if not isinstance(value, str) or not value.isdecimal() or len(value) > 20:
        return False
    return completing or any(isinstance(resolved.get(key), Mapping) and value in resolved[key]
                             for key in where)
