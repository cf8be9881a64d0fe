"""Words kept in storage to be shown later, in whichever language their reader has by then: a
sentence of bot/core/wording/texts.py (a :class:`~bot.core.wording.locales.Text`), an engine
refusal, an action's :class:`~bot.core.wording.locales.Notation`, a :class:`Joined` of them, as
JSON text — not a pickle (nothing stored can run code when read), and not the English alone
(which a reader in pt-BR would then get).

What a value is stored as: a plain string, number, boolean or null as itself; a list or tuple as
an array (read back as a tuple); the rest as an object naming its kind — ``{"text": key, "en":
english, "fields": {...}}``, ``{"joined": [...], "sep": ...}``, ``{"notation": text}``, ``{"name":
raw}`` (a :class:`~bot.core.wording.locales.PlayerName`), ``{"enum": class, "value": value}`` (the
engine's pieces, colours…). Anything else is kept as its English text.

Read back, a sentence this version of the bot no longer has is shown in the English it was
stored with rather than failing; an engine refusal whose key is unknown already is
(:func:`~bot.core.wording.locales.localise`).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any

from bot.core.wording.locales import ENGINE_KEY, Joined, Notation, PlayerName, Text, english
from engine.cards import Ambassador, Colour, LevelUp
from engine.messages import english as engine_english
from engine.pieces import Shape
from engine.state import Difficulty, Phase

ENUMS: Mapping[str, type[enum.Enum]] = {
    kind.__name__: kind for kind in (Shape, Colour, LevelUp, Ambassador, Phase, Difficulty)}
"""The engine's enumerations a refusal's fields may hold, by name (others are kept as their value)."""


def dumps(content: Any) -> str:
    """``content`` as JSON text (see the module doc)."""
    return json.dumps(to_json(content), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def loads(text: str) -> Any:
    """What :func:`dumps` kept, shown as it was in every language; ValueError for text that is
    not stored words (not JSON, or kept in a shape this bot cannot read)."""
    data = json.loads(text)
    try:
        return from_json(data)
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"not stored words: {error!r}") from None


def to_json(value: Any) -> Any:
    if isinstance(value, Text):
        return {"text": value.key, "en": str(value),
                "fields": {name: to_json(field) for name, field in value.fields.items()}}
    if isinstance(value, Joined):
        return {"joined": [to_json(part) for part in value.parts], "sep": to_json(value.sep)}
    if isinstance(value, Notation):
        return {"notation": str(value)}
    if isinstance(value, PlayerName):
        return {"name": value.raw}
    if isinstance(value, enum.Enum):
        if ENUMS.get(type(value).__name__) is type(value):
            return {"enum": type(value).__name__, "value": value.value}
        return str(value.value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return str(value)


def from_json(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(from_json(item) for item in data)
    if not isinstance(data, dict):
        return data
    if "text" in data:
        key, shown = str(data["text"]), str(data["en"])
        fields = {str(name): from_json(field) for name, field in data["fields"].items()}
        if not _fits(key, fields):
            return shown  # a sentence this bot no longer has, or not with these fields: as stored
        return Text(key, shown, fields)
    if "joined" in data:
        return Joined((from_json(part) for part in data["joined"]), from_json(data["sep"]))
    if "notation" in data:
        return Notation(data["notation"])
    if "name" in data:
        return PlayerName(data["name"])
    if "enum" in data:
        kind = ENUMS.get(str(data["enum"]))
        return str(data["value"]) if kind is None else kind(data["value"])
    raise ValueError(f"not stored words: {data!r}")


def _fits(key: str, fields: Mapping[str, Any]) -> bool:
    """Whether this bot has the sentence ``key`` and can fill it in with ``fields`` (its
    translations have the English's fields): one kept by a bot whose sentence had other fields
    would otherwise fail where it is shown."""
    try:
        if key.startswith(ENGINE_KEY):
            engine_english(key[len(ENGINE_KEY):], fields)
        else:
            source = english(key)
            if source is None:
                return False
            str.format(source, **fields)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return False
    return True
