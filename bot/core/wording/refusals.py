"""The engine's refusals as sentences of the bot: :func:`engine_text` keeps the engine's key
and fields, so :func:`bot.core.wording.locales.localise` shows a refusal in its reader's language.

It sits above :mod:`bot.core.wording.event_texts` (a waiting decision's refusal is worded with the turn
post's prompt), which sits above :mod:`bot.core.wording.locales`: the catalogues never import the
sentences built on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.wording.event_texts import decision_prompt, option_text
from bot.core.wording.locales import ENGINE_KEY, Joined, Text
from engine.errors import Keyed


def engine_text(error: Keyed) -> Text:
    """An engine refusal (an ``IllegalActionError``, a piece or cell the engine could not read) as
    a sentence the bot can show in its reader's language: the engine's English, keyed by its
    message key and carrying its fields. A catalogue translates it in its ``engine`` section:
    ``messages`` (by key, the same ``{fields}``) and ``words`` (English field values, like a
    row's colour, in that language); a piece is named with the ``images`` section's
    ``SHAPE_NAMES``, as the images name it."""
    return Text(ENGINE_KEY + error.key, str(error), _worded_fields(error.fields))


def _worded_fields(fields: Mapping[str, Any]) -> Mapping[str, Any]:
    """The refusal's fields, a waiting decision's (``choose.first``: its ``kind`` and ``about``
    beside the English ``prompt``) worded the way the turn post words it: the prompt as a sentence
    of bot/core/wording/texts.py, the options in the reader's notation. Any other refusal's fields
    unchanged."""
    if not {"prompt", "kind", "about", "options"} <= set(fields):
        return fields
    return {**fields,
            "prompt": decision_prompt(str(fields["kind"]), str(fields["about"]), str(fields["prompt"])),
            "options": Joined((option_text(str(o)) for o in fields["options"]), ", ")}
