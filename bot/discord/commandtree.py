"""Where every slash command sits, and the check that the tree fits Discord before it is synced.

``/projectl`` is one command with subcommand groups (Discord nests once: command → group →
subcommand):

* ``/projectl play …`` — turn actions (take, draw, level1, upgrade, place, recycle, Master, done,
  pass, act, undo; later choose, the Ghost action, insert, hint);
* ``/projectl table …`` — the table itself: new, cancel, leave, vote, replace;
* ``/projectl status|mat|log|stats|rules|help|settings`` — looking, and personal settings.

Discord refuses a whole sync — every command, not just the new one — when one level has more than
25 entries, a group sits inside a group, or one top-level command's names, descriptions and
choices exceed 4000 characters together. :func:`tree_problems` checks exactly that on the payload
the sync would send, and the bot refuses to sync (and to start) when it finds anything, so a
command added in the wrong place fails every test run instead of production.

Translations (bot/core/wording/locales) travel in the same payload as ``name_localizations`` and
``description_localizations``; Discord applies its rules to each language's strings and counts the
4000 characters per language, so :func:`tree_problems` checks the command as every locale sees it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.core.wording.help import CommandInfo

ROOT = "projectl"
PLAY, TABLE = "play", "table"
MAX_ENTRIES = 25
"""Subcommands and groups per level, options per subcommand, choices per option."""
MAX_TEXT = 4000
"""Names, descriptions and choice names/values of one top-level command, all levels together."""
MAX_NAME, MAX_DESCRIPTION = 32, 100
NAME = re.compile(r"^[-_'\w]{1,32}$")
"""Discord's name rule (letters and digits of any script, ``-``, ``_``, ``'``), lower case only."""
_SUBCOMMAND, _GROUP = 1, 2


def subgroup(tree: app_commands.CommandTree[Any], name: str | None) -> app_commands.Group:
    """``/projectl`` itself (``name`` None) or one of its groups, to add commands to."""
    root = tree.get_command(ROOT)
    if not isinstance(root, app_commands.Group):
        raise RuntimeError("the /projectl group must be registered first (bot.discord.app: the ProjectLCog)")
    if name is None:
        return root
    group = root.get_command(name)
    if not isinstance(group, app_commands.Group):
        raise RuntimeError(f"/projectl has no group {name!r}")
    return group


def command_infos(tree: app_commands.CommandTree[Any], guild: Any = None) -> list[CommandInfo]:
    """Every slash command and group of ``tree`` (for ``guild``; None: the global ones), in the
    tree's order, a group before its commands: what ``/projectl help`` lists
    (:func:`bot.core.wording.help.help_lines`), so the help is the command list itself."""
    found: list[CommandInfo] = []

    def walk(command: Any) -> None:
        if isinstance(command, app_commands.Group):
            found.append(CommandInfo(tuple(command.qualified_name.split()), str(command.description), True))
            for child in command.commands:
                walk(child)
        elif isinstance(command, app_commands.Command):
            found.append(CommandInfo(tuple(command.qualified_name.split()), str(command.description)))

    for command in tree.get_commands(guild=guild):
        walk(command)
    return found


def tree_payload(tree: app_commands.CommandTree[Any], guild: Any = None) -> list[dict[str, Any]]:
    """What ``tree.sync()`` would send for ``guild`` (None: the global commands)."""
    return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]


async def translated_payload(tree: app_commands.CommandTree[Any],
                             guild: Any = None) -> list[dict[str, Any]]:
    """What ``tree.sync()`` sends for ``guild``, translations included (as discord.py builds it)."""
    translator = tree.translator
    if translator is None:
        return tree_payload(tree, guild)
    return [await command.get_translated_payload(tree, translator)
            for command in tree.get_commands(guild=guild)]


async def sync_checked(tree: app_commands.CommandTree[Any], guild: Any = None) -> None:
    """Upload ``guild``'s commands (None: the global ones) once they pass :func:`tree_problems`.

    The payload checked is the one sent: ``tree.sync()`` would build (and translate, every string
    in every locale) the whole tree a second time, most of a start's CPU. Failures are raised as
    ``tree.sync()`` raises them."""
    payload = await translated_payload(tree, guild)
    problems = tree_problems(payload)
    if problems:
        raise RuntimeError("the command tree breaks Discord's limits: " + "; ".join(problems))
    application_id = tree.client.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    http = tree.client.http
    try:
        if guild is None:
            await http.bulk_upsert_global_commands(application_id, payload=payload)
        else:
            await http.bulk_upsert_guild_commands(application_id, guild.id, payload=payload)
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:
            raise app_commands.CommandSyncFailure(error, tree.get_commands(guild=guild)) from None
        raise


def in_locale(item: Mapping[str, Any], locale: str | None) -> dict[str, Any]:
    """``item`` (a command, option or choice) as Discord shows it in ``locale``: each name and
    description replaced by its translation where there is one (None: the English original)."""
    view = dict(item)
    if locale is not None:
        for key in ("name", "description"):
            translated = (item.get(f"{key}_localizations") or {}).get(locale)
            if translated is not None:
                view[key] = translated
    for key in ("options", "choices"):
        if item.get(key):
            view[key] = [in_locale(child, locale) for child in item[key]]
    return view


def payload_locales(item: Mapping[str, Any]) -> set[str]:
    """Every locale that has a translation somewhere in ``item``."""
    found = set(item.get("name_localizations") or {}) | set(item.get("description_localizations") or {})
    for key in ("options", "choices"):
        for child in item.get(key) or []:
            found |= payload_locales(child)
    return found


def tree_problems(commands: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every way ``commands`` (a sync payload) breaks Discord's size, naming and nesting rules,
    in English and in every locale it carries translations for."""
    problems: list[str] = []
    for command in commands:
        for locale in [None, *sorted(payload_locales(command))]:
            view = in_locale(command, locale)
            where = f"/{view.get('name')}" + (f" [{locale}]" if locale else "")
            problems += _level(view, where, depth=0)
            problems += _texts(view, where, top=True)
            size = _text_size(view)
            if size > MAX_TEXT:
                problems.append(f"{where}: {size} characters of names, descriptions and choices "
                                f"(Discord allows {MAX_TEXT}); shorten descriptions or split the command")
    return problems


def text_size(command: Mapping[str, Any]) -> int:
    """Characters of one command that count against :data:`MAX_TEXT` (for headroom reports)."""
    return _text_size(command)


def _level(node: Mapping[str, Any], where: str, depth: int) -> list[str]:
    problems: list[str] = []
    options = list(node.get("options") or [])
    if len(options) > MAX_ENTRIES:
        problems.append(f"{where}: {len(options)} entries (Discord allows {MAX_ENTRIES}); "
                        f"move some into a group")
    for option in options:
        path = f"{where} {option.get('name')}"
        kind = int(option.get("type", 0))
        if kind == _GROUP and depth > 0:
            problems.append(f"{path}: a group inside a group (Discord nests groups once)")
        if kind in (_SUBCOMMAND, _GROUP):
            problems += _level(option, path, depth + 1)
        elif len(option.get("choices") or []) > MAX_ENTRIES:
            problems.append(f"{path}: {len(option['choices'])} choices (Discord allows {MAX_ENTRIES})")
    return problems


def _texts(item: Mapping[str, Any], where: str, *, top: bool = False) -> list[str]:
    """Names and descriptions of ``item`` and everything under it against Discord's rules."""
    problems: list[str] = []
    name, description = str(item.get("name", "")), str(item.get("description", ""))
    if not top:
        where = f"{where} {name}"
    if not NAME.match(name) or name != name.lower():
        problems.append(f"{where}: name {name!r} must be 1-{MAX_NAME} lower-case letters, digits, - _ '")
    if not 1 <= len(description) <= MAX_DESCRIPTION:
        problems.append(f"{where}: description of {len(description)} characters "
                        f"(Discord allows 1-{MAX_DESCRIPTION})")
    for choice in item.get("choices") or []:
        if not 1 <= len(str(choice.get("name", ""))) <= MAX_DESCRIPTION:
            problems.append(f"{where}: choice {choice.get('name')!r} must be 1-{MAX_DESCRIPTION} characters")
    for option in item.get("options") or []:
        problems += _texts(option, where)
    return problems


def _text_size(item: Mapping[str, Any]) -> int:
    size = len(str(item.get("name", ""))) + len(str(item.get("description", "")))
    for choice in item.get("choices") or []:
        size += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return size + sum(_text_size(o) for o in item.get("options") or [])
