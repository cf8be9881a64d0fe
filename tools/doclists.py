"""The README's lists that the code can produce: every slash command and every setting.

* :func:`command_list`: the commands the bot really syncs — the production bot started in the
  offline harness (``bench.harnessed.running``, as the tests start it), its synced schema walked
  to every runnable command — one line each, options as typed (``name:``, optional ``[name:]``),
  with the description Discord shows.
* :func:`settings_table`: every environment variable the configuration reads — found in the
  source of ``bot/**/config.py`` (a string constant that is a whole variable name) — with its
  default and meaning from ``.env.example``, the file a new setting is described in. A variable
  read but not described there is an error, not a silent gap (:func:`undescribed_settings`).

``tools.docfacts`` puts both between their markers in README.md and checks them.
"""

from __future__ import annotations

import ast
import asyncio
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bench.harnessed import running

ROOT = Path(__file__).resolve().parent.parent
ENV_EXAMPLE = ROOT / ".env.example"
SETTING_NAME = re.compile(r"^(DISCORD_TOKEN|PROJECTL_[A-Z0-9_]+)$")
SUBCOMMAND, GROUP = 1, 2


async def synced_commands() -> list[dict[str, Any]]:
    """The command schema the bot syncs, from the production bot in the offline harness."""
    with tempfile.TemporaryDirectory() as folder:
        async with running(Path(folder) / "commands.sqlite3") as harness:
            return [dict(command) for command in harness.commands]


def _option(option: Mapping[str, Any]) -> str:
    return f"{option['name']}:" if option.get("required") else f"[{option['name']}:]"


def command_lines(commands: list[dict[str, Any]]) -> list[str]:
    """One markdown bullet per runnable command, in the order Discord lists them."""
    lines: list[str] = []

    def walk(path: str, node: Mapping[str, Any]) -> None:
        options = list(node.get("options") or [])
        subs = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
        if not subs:
            typed = " ".join([path, *map(_option, options)])
            lines.append(f"- `/{typed}` — {node['description']}")
        for sub in subs:
            walk(f"{path} {sub['name']}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command)
    return lines


@cache
def commands_synced() -> tuple[dict[str, Any], ...]:
    """:func:`synced_commands`, once per process."""
    return tuple(asyncio.run(synced_commands()))


def command_options(commands: tuple[dict[str, Any], ...]) -> dict[tuple[str, ...], set[str]]:
    """Every command path (a group's too), in every language, and the option names it takes."""
    found: dict[tuple[str, ...], set[str]] = {}

    def names(node: Mapping[str, Any]) -> set[str]:
        return {node["name"], *(node.get("name_localizations") or {}).values()}

    def walk(paths: set[tuple[str, ...]], node: Mapping[str, Any]) -> None:
        options = list(node.get("options") or [])
        subs = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
        taken = set().union(*(names(o) for o in options if o not in subs))
        for path in paths:
            found[path] = taken
        for sub in subs:
            walk({(*path, name) for path in paths for name in names(sub)}, sub)

    for command in commands:
        walk({(name,) for name in names(command)}, command)
    return found


@cache
def command_list() -> str:
    """The README's command list (markdown), from the real command tree."""
    lines = command_lines(list(commands_synced()))
    return f"{len(lines)} commands (generated from the bot's command tree):\n\n" + "\n".join(lines)


@dataclass(frozen=True)
class Described:
    """One variable of ``.env.example``: its value there (the default) and the comment above it."""

    name: str
    default: str
    meaning: str


def read_settings() -> set[str]:
    """Every environment variable a ``config.py`` under ``bot/`` reads (by its source)."""
    found: set[str] = set()
    for path in sorted((ROOT / "bot").rglob("config.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if SETTING_NAME.match(node.value):
                    found.add(node.value)
    return found


def described_settings(text: str | None = None) -> list[Described]:
    """The variables ``.env.example`` lists, in its order, set (``NAME=value``) or shown commented
    out at their default (``#PROJECTL_NAME=value``); a variable right under another shares that
    one's comment."""
    text = ENV_EXAMPLE.read_text(encoding="utf-8") if text is None else text
    found: list[Described] = []
    comment: list[str] = []
    previous_was_variable = False
    for raw in text.splitlines():
        line = raw.strip()
        if SETTING_NAME.match(line.lstrip("#").strip().partition("=")[0]) and "=" in line:
            line = line.lstrip("#").strip()  # commented out: the variable at its default
        if line.startswith("#"):
            if previous_was_variable:
                comment = []
            comment.append(line.lstrip("#").strip())
            previous_was_variable = False
        elif "=" in line:
            name, _, value = line.partition("=")
            found.append(Described(name.strip(), value.strip(), " ".join(comment)))
            previous_was_variable = True
        else:
            comment, previous_was_variable = [], False
    return found


def undescribed_settings() -> list[str]:
    """One line per variable the configuration reads but ``.env.example`` does not describe, or
    the other way round."""
    described = {d.name for d in described_settings()}
    read = read_settings()
    return ([f"{name} is read by bot/**/config.py but .env.example does not describe it"
             for name in sorted(read - described)]
            + [f"{name} is in .env.example but no config.py reads it" for name in sorted(described - read)])


def settings_table() -> str:
    """The README's settings table (markdown), from the configuration and ``.env.example``."""
    read = read_settings()
    rows = ["| Variable | Default | Meaning |", "|---|---|---|"]
    for setting in described_settings():
        if setting.name in read:
            default = f"`{setting.default}`" if setting.default else "empty"
            meaning = setting.meaning.replace("|", "\\|")
            rows.append(f"| `{setting.name}` | {default} | {meaning} |")
    return "\n".join(rows)
