"""Discord's documented limits, checked on what the bot actually sends.

Discord rejects a whole command sync (or a message) for one field over a limit, and the rejection
only shows in production. These checks run on payloads the offline harness captured, so the build
fails first. They are written from Discord's API reference, independently of the harness's own
validation, so a gap in one is caught by the other. Each function returns a list of problems
(empty = fine) with a path to the offending field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

NAME = re.compile(r"^[-_\w]{1,32}$")
CHAT_INPUT, USER_MENU, MESSAGE_MENU = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
MAX_GLOBAL_SLASH, MAX_MENUS = 100, 5
MAX_OPTIONS = MAX_CHOICES = 25
COMMAND_TEXT_BUDGET = 4000
"""Names, descriptions and choice names/values of one command together (Discord's 4000 rule)."""
CONTENT, EMBEDS, EMBED_TOTAL = 2000, 10, 6000
ROWS, PER_ROW, CUSTOM_ID, LABEL = 5, 5, 100, 80
SELECT_OPTIONS, OPTION_TEXT, PLACEHOLDER = 25, 100, 150
FILES, FILE_BYTES = 10, 10 * 1024 * 1024
EMBED_FIELDS = {"title": 256, "description": 4096, "footer.text": 2048, "author.name": 256}


def check_commands(commands: Iterable[Mapping[str, Any]]) -> list[str]:
    """A bulk-overwrite payload (``PUT .../commands``) as Discord validates it."""
    problems: list[str] = []
    commands = list(commands)
    kinds = [int(c.get("type", CHAT_INPUT)) for c in commands]
    if kinds.count(CHAT_INPUT) > MAX_GLOBAL_SLASH:
        problems.append(f"{kinds.count(CHAT_INPUT)} slash commands (max {MAX_GLOBAL_SLASH})")
    for kind in (USER_MENU, MESSAGE_MENU):
        if kinds.count(kind) > MAX_MENUS:
            problems.append(f"{kinds.count(kind)} context menus of type {kind} (max {MAX_MENUS})")
    names = [(c.get("type", CHAT_INPUT), c.get("name")) for c in commands]
    if len(names) != len(set(names)):
        problems.append("duplicate command names")
    for command in commands:
        where = f"/{command.get('name')}"
        kind = int(command.get("type", CHAT_INPUT))
        if kind == CHAT_INPUT:
            problems += _name_and_description(command, where)
            problems += _options(command.get("options") or [], where, depth=0)
            for locale in [None, *sorted(_locales(command))]:
                total = _text_size(command, locale)
                if total > COMMAND_TEXT_BUDGET:
                    problems.append(f"{where} [{locale or 'en'}]: {total} characters of "
                                    f"names/descriptions/choices (max 4000)")
        else:
            name = str(command.get("name", ""))
            if not 1 <= len(name) <= 32:
                problems.append(f"{where}: context menu name must be 1-32 characters")
            if command.get("description"):
                problems.append(f"{where}: context menus have no description")
    return problems


def _name_and_description(item: Mapping[str, Any], where: str) -> list[str]:
    problems = []
    names = {None: item.get("name", ""), **(item.get("name_localizations") or {})}
    for locale, name in names.items():
        name = str(name)
        if not NAME.match(name) or name != name.lower():
            problems.append(f"{where} [{locale or 'en'}]: name {name!r} must match "
                            f"^[-_\\w]{{1,32}}$ in lowercase")
    descriptions = {None: item.get("description", ""), **(item.get("description_localizations") or {})}
    for locale, description in descriptions.items():
        if not 1 <= len(str(description)) <= 100:
            problems.append(f"{where} [{locale or 'en'}]: description must be 1-100 characters, "
                            f"has {len(str(description))}")
    return problems


def _options(options: list[Mapping[str, Any]], where: str, depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options/subcommands (max {MAX_OPTIONS})")
    seen_optional = False
    names = [o.get("name") for o in options]
    if len(names) != len(set(names)):
        problems.append(f"{where}: duplicate option names")
    kinds = {int(o.get("type", 0)) for o in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        problems.append(f"{where}: subcommands cannot be mixed with plain options")
    for option in options:
        path = f"{where} {option.get('name')}"
        kind = int(option.get("type", 0))
        problems += _name_and_description(option, path)
        if kind == SUB_COMMAND_GROUP:
            if depth > 0:
                problems.append(f"{path}: a group may only sit directly under a command")
            if any(int(o.get("type", 0)) != SUB_COMMAND for o in option.get("options") or []):
                problems.append(f"{path}: a group may only contain subcommands")
            problems += _options(option.get("options") or [], path, depth + 1)
            continue
        if kind == SUB_COMMAND:
            problems += _options(option.get("options") or [], path, depth + 1)
            inner = {int(o.get("type", 0)) for o in option.get("options") or []}
            if inner & {SUB_COMMAND, SUB_COMMAND_GROUP}:
                problems.append(f"{path}: a subcommand cannot contain subcommands")
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(f"{path}: required option after an optional one")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{path}: {len(choices)} choices (max {MAX_CHOICES})")
        if choices and option.get("autocomplete"):
            problems.append(f"{path}: autocomplete and choices are exclusive")
        for choice in choices:
            problems += _choice(choice, path)
    return problems


def _choice(choice: Mapping[str, Any], where: str) -> list[str]:
    problems = []
    for name in [choice.get("name", ""), *(choice.get("name_localizations") or {}).values()]:
        if not 1 <= len(str(name)) <= 100:
            problems.append(f"{where}: choice name must be 1-100 characters: {name!r}")
    value = choice.get("value")
    if isinstance(value, str) and len(value) > 100:
        problems.append(f"{where}: choice value longer than 100 characters")
    return problems


def _shown(item: Mapping[str, Any], key: str, locale: str | None) -> str:
    """``item[key]`` as a client in ``locale`` sees it (the translation, else the original)."""
    return str((item.get(f"{key}_localizations") or {}).get(locale, item.get(key, "")))


def _locales(item: Mapping[str, Any]) -> set[str]:
    found = set(item.get("name_localizations") or {}) | set(item.get("description_localizations") or {})
    for key in ("options", "choices"):
        for child in item.get(key) or []:
            found |= _locales(child)
    return found


def _text_size(item: Mapping[str, Any], locale: str | None = None) -> int:
    """Discord's 4000-character count, for one locale (each language is counted on its own)."""
    size = len(_shown(item, "name", locale)) + len(_shown(item, "description", locale))
    for choice in item.get("choices") or []:
        size += len(_shown(choice, "name", locale)) + len(str(choice.get("value", "")))
    return size + sum(_text_size(o, locale) for o in item.get("options") or [])


def check_message(body: Mapping[str, Any], where: str = "message") -> list[str]:
    """A message body (REST create/edit, interaction response data, webhook followup)."""
    problems: list[str] = []
    content = body.get("content") or ""
    if len(content) > CONTENT:
        problems.append(f"{where}: content has {len(content)} characters (max {CONTENT})")
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"{where}: {len(embeds)} embeds (max {EMBEDS})")
    total = 0
    for index, embed in enumerate(embeds):
        total += _embed(embed, f"{where} embed {index}", problems)
    if total > EMBED_TOTAL:
        problems.append(f"{where}: embeds total {total} characters (max {EMBED_TOTAL})")
    problems += check_components(body.get("components") or [], int(body.get("flags") or 0), where)
    choices = body.get("choices")
    if choices is not None:
        if len(choices) > MAX_CHOICES:
            problems.append(f"{where}: {len(choices)} autocomplete choices (max {MAX_CHOICES})")
        for choice in choices:
            problems += _choice(choice, f"{where} autocomplete")
    return problems


def _embed(embed: Mapping[str, Any], where: str, problems: list[str]) -> int:
    size = 0
    for key, limit in EMBED_FIELDS.items():
        head, _, tail = key.partition(".")
        value = embed.get(head)
        text = str((value or {}).get(tail, "") if tail else (value or ""))
        size += len(text)
        if len(text) > limit:
            problems.append(f"{where}: {key} has {len(text)} characters (max {limit})")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(f"{where}: {len(fields)} fields (max 25)")
    for field in fields:
        name, value = str(field.get("name", "")), str(field.get("value", ""))
        size += len(name) + len(value)
        if len(name) > 256 or len(value) > 1024:
            problems.append(f"{where}: a field is over 256/1024 characters")
    return size


def check_components(rows: list[Mapping[str, Any]], flags: int, where: str) -> list[str]:
    """Action rows of buttons and selects (components v1; v2 layouts are checked per item)."""
    problems: list[str] = []
    if not flags & (1 << 15) and len(rows) > ROWS:
        problems.append(f"{where}: {len(rows)} action rows (max {ROWS})")
    for index, row in enumerate(rows):
        items = row.get("components") or []
        if int(row.get("type", 0)) == 1:
            selects = sum(1 for c in items if int(c.get("type", 0)) in (3, 5, 6, 7, 8))
            if len(items) > PER_ROW or (selects and len(items) != 1):
                problems.append(f"{where}: row {index} holds {len(items)} items ({selects} selects)")
        for item in items or [row]:
            problems += _component(item, f"{where} row {index}")
    return problems


def _component(item: Mapping[str, Any], where: str) -> list[str]:
    problems: list[str] = []
    custom_id = item.get("custom_id")
    if custom_id is not None and not 1 <= len(str(custom_id)) <= CUSTOM_ID:
        problems.append(f"{where}: custom_id {custom_id!r} is {len(str(custom_id))} characters (max 100)")
    if len(str(item.get("label") or "")) > LABEL:
        problems.append(f"{where}: label over {LABEL} characters")
    if len(str(item.get("placeholder") or "")) > PLACEHOLDER:
        problems.append(f"{where}: placeholder over {PLACEHOLDER} characters")
    options = item.get("options")
    if options is not None:
        if not 1 <= len(options) <= SELECT_OPTIONS:
            problems.append(f"{where}: select has {len(options)} options (1-{SELECT_OPTIONS})")
        for option in options:
            for key in ("label", "value", "description"):
                if len(str(option.get(key) or "")) > OPTION_TEXT:
                    problems.append(f"{where}: select option {key} over {OPTION_TEXT} characters")
        if int(item.get("max_values", 1)) > len(options) or int(item.get("min_values", 1)) > len(options):
            problems.append(f"{where}: min/max values exceed the option count")
    return problems


def check_files(files: list[tuple[str, bytes]], where: str) -> list[str]:
    problems = []
    if len(files) > FILES:
        problems.append(f"{where}: {len(files)} attachments (max {FILES})")
    for name, data in files:
        if len(data) > FILE_BYTES:
            problems.append(f"{where}: {name} is {len(data)} bytes (max {FILE_BYTES})")
    return problems


def check_call(method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> list[str]:
    """Any captured outgoing request: command syncs, messages, interaction callbacks."""
    where = f"{method} {path}"
    if path.endswith("/commands") and method == "PUT":
        return check_commands(body or [])
    problems = check_files(files, where)
    if not isinstance(body, Mapping):
        return problems
    data = body.get("data") if "type" in body and "data" in body else body
    if isinstance(data, Mapping):
        problems += check_message(data, where)
        if "title" in data and "components" in data and "custom_id" in data:  # a modal
            if len(str(data["title"])) > 45:
                problems.append(f"{where}: modal title over 45 characters")
    return problems
