"""discord.py's translator for the slash commands: names, descriptions and choices from the
catalogues of :mod:`bot.core.wording.locales`, installed on the command tree before every sync."""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.core.wording.locales import command_strings, language_names, locales

SECTION = {
    Where.command_name: "names", Where.group_name: "names", Where.parameter_name: "names",
    Where.command_description: "descriptions", Where.group_description: "descriptions",
    Where.parameter_description: "descriptions", Where.choice_name: "choices",
}
"""Which catalogue section a slash-command string is looked up in, by where it sits."""


class CatalogueTranslator(app_commands.Translator):
    """discord.py's translator for the slash commands, reading :func:`bot.core.wording.locales.catalogues`."""

    def __init__(self) -> None:
        # discord.py asks for every string in each of Discord's ~30 locales, at every sync (twice
        # a start: the limits check, then the sync itself); most have no catalogue, and for
        # those the answer is None before anything is looked up.
        self._translated = frozenset(locales())

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale.value not in self._translated:
            return None
        section = SECTION.get(context.location)
        if section is None or (section == "choices" and string.message in language_names()):
            return None
        return command_strings(locale.value, section).get(string.message)
