"""``/projectl help``, generated from the command tree, so it lists exactly the commands a player
can type — none that exist only as text for ``act``, none missing.

The Discord front walks its tree into :class:`CommandInfo` rows (``bot.discord.commandtree.
command_infos``); this module words them: a short orientation (``HELP_INTRO``), each group as a
heading with its commands under it, the actions typed with ``act`` (``HELP_ACT``), and how cells are
named. Names and descriptions are the commands' own, in the reader's language from the same
catalogue section Discord shows them from (``commands``), so the help reads as the command list does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.wording import texts
from bot.core.wording.locales import command_strings, locale_code, localise


@dataclass(frozen=True, slots=True)
class CommandInfo:
    """One slash command or group: its path of English names (``("projectl", "play", "take")``)
    and its English description, in the tree's order."""

    path: tuple[str, ...]
    description: str
    group: bool = False


def help_lines(commands: Sequence[CommandInfo], locale: Any) -> list[str]:
    """The help in ``locale``, a line each: the orientation, then every group's heading and its
    commands (a group's own subgroups after its commands), the top-level commands, the actions
    typed with ``act``, and the cells."""
    code = locale_code(locale) or ""
    names, descriptions = command_strings(code, "names"), command_strings(code, "descriptions")

    def typed(path: tuple[str, ...]) -> str:
        return "/" + " ".join(names.get(name, name) for name in path)

    def about(info: CommandInfo) -> str:
        return descriptions.get(info.description, info.description)

    lines: list[str] = [str(localise(texts.HELP_INTRO, locale))]
    groups = [info for info in commands if info.group]
    for group in groups:
        lines.append(str(localise(texts.HELP_HEADING.format(command=typed(group.path), about=about(group)),
                                  locale)))
        lines += [str(localise(texts.HELP_LINE.format(command=names.get(info.path[-1], info.path[-1]),
                                                      about=about(info)), locale))
                  for info in commands if not info.group and info.path[:-1] == group.path]
    lone = [info for info in commands if not info.group and len(info.path) == 1]
    if lone:
        lines.append(str(localise(texts.HELP_ALSO, locale)))
        lines += [str(localise(texts.HELP_LINE.format(command=typed(info.path), about=about(info)), locale))
                  for info in lone]
    lines += [str(localise(texts.HELP_ACT, locale)), str(localise(texts.HELP_CELLS, locale))]
    return lines
