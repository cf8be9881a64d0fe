"""Languages the bot speaks besides English: one JSON catalogue per Discord locale in this folder.

English is the source and the fallback: a catalogue maps English text to its translation, so a
string with no entry (or a locale with no file) simply shows in English. Adding a language is
adding one file named after the Discord locale code (``pt-BR.json``, ``es-ES.json``…) with the
same keys as an existing one; the tests check that every catalogue covers every English string and
carries nothing unused.

``commands`` holds the slash-command strings, by kind: ``names`` (commands, groups, options —
Discord's name rules apply), ``descriptions`` and ``choices``. :class:`CatalogueTranslator` hands
them to discord.py, which puts them in the synced payload as ``name_localizations`` and
``description_localizations``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

FOLDER = Path(__file__).parent
SECTION = {
    Where.command_name: "names", Where.group_name: "names", Where.parameter_name: "names",
    Where.command_description: "descriptions", Where.group_description: "descriptions",
    Where.parameter_description: "descriptions", Where.choice_name: "choices",
}
"""Which catalogue section a slash-command string is looked up in, by where it sits."""


@cache
def catalogues() -> Mapping[str, Mapping[str, Any]]:
    """Every catalogue in this folder, by locale code (read once; they ship with the code)."""
    return {path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(FOLDER.glob("*.json"))}


def locales() -> list[str]:
    """The locale codes the bot has a catalogue for (English, the source, has none)."""
    return list(catalogues())


def command_strings(locale: str, section: str) -> Mapping[str, str]:
    """One section (``names``, ``descriptions``, ``choices``) of a locale's command strings."""
    return catalogues().get(locale, {}).get("commands", {}).get(section, {})


class CatalogueTranslator(app_commands.Translator):
    """discord.py's translator for the slash commands, reading :func:`catalogues`."""

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        section = SECTION.get(context.location)
        if section is None:
            return None
        return command_strings(locale.value, section).get(string.message)
