"""Languages the bot speaks besides English: one JSON catalogue per Discord locale in this folder.

English is the source and the fallback: a catalogue maps English text to its translation, so a
string with no entry (or a locale with no file) simply shows in English. Adding a language is
adding one file named after the Discord locale code (``pt-BR.json``, ``es-ES.json``…) with the
same keys as an existing one; the tests check that every catalogue covers every English string and
carries nothing unused.

``commands`` holds the slash-command strings, by kind: ``names`` (commands, groups, options —
Discord's name rules apply), ``descriptions`` and ``choices``. The Discord front's
``CatalogueTranslator`` (bot/discord/translator.py) hands them to discord.py, which puts them
in the synced payload as ``name_localizations`` and ``description_localizations``.

``texts`` holds the bot's sentences (by their names in ``bot/core/wording/texts.py``, see :func:`t`), and
``images`` the words the images draw (by their keys in ``renders.labels.ENGLISH``, see
:func:`image_words`; ``renders`` never reads a catalogue, the bot hands it the section).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from engine.messages import english_field, fill
from engine.pieces import Shape
from renders import labels

FOLDER = Path(__file__).parent


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
    strings: Mapping[str, str] = catalogues().get(locale, {}).get("commands", {}).get(section, {})
    return strings


# -- the bot's sentences (bot/core/wording/texts.py) -------------------------------------------------------


class Text(str):
    """One sentence of bot/core/wording/texts.py: the English text (it *is* that ``str``, so everything that
    handles it as English keeps working) that remembers its key and fields, so the place that sends
    it can show it in the reader's language (:func:`localise`).

    texts.py writes its sentences as plain ``str`` constants and :func:`keyed` turns them into
    ``Text`` when the module loads, so to the type checker they are ``str`` — which they are. The
    wording's functions (bot/core/wording/event_texts.py, …) are typed ``-> str`` for that reason: their
    result is a ``Text`` (or a :class:`Joined` of them) at run time, and nothing but
    :func:`localise` needs to know."""

    key: str
    fields: Mapping[str, Any]

    def __new__(cls, key: str, english: str, fields: Mapping[str, Any] | None = None) -> Text:
        text = super().__new__(cls, english)
        text.key, text.fields = key, dict(fields or {})
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # pickles and copies keep the key
        return (Text, (self.key, str(self), self.fields))

    def __add__(self, other: str) -> Joined:
        """A sentence followed by more text stays translatable, piece by piece."""
        return Joined((self, other))

    def __radd__(self, other: str) -> Joined:
        return Joined((other, self))

    def format(self, *args: Any, **fields: Any) -> str:
        """The English sentence filled in, still translatable (a :class:`Text`) when the fields are
        keywords, as texts.py writes them; plain text with positional ones."""
        if args:
            return str.format(self, *args, **fields)
        return Text(self.key, str.format(self, **fields), fields)


class Joined(str):
    """Several pieces shown as one text — sentences of bot/core/wording/texts.py (:class:`Text`) among plain
    strings such as names — joined by ``sep`` (itself a :class:`Text` or plain). It *is* the
    English join, and :func:`localise` shows each piece in the reader's language, so a message
    built from several sentences (a lobby, a status, a settings summary) is translated whole where
    it is sent, like a single :class:`Text`; a :class:`Text` field may hold one too."""

    parts: tuple[Any, ...]
    sep: str

    def __new__(cls, parts: Iterable[Any], sep: str = "") -> Joined:
        kept = tuple(part for part in parts if part != "")
        text = super().__new__(cls, str(sep).join(str(part) for part in kept))
        text.parts, text.sep = kept, sep
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # pickles and copies keep the pieces
        return (Joined, (self.parts, self.sep))

    def __add__(self, other: str) -> Joined:
        return Joined((self, other))

    def __radd__(self, other: str) -> Joined:
        return Joined((other, self))


_SENTENCES: dict[str, Any] = {}
"""The sentences of bot/core/wording/texts.py by name, as :func:`keyed` made them (it registers them here,
so this module, which texts.py builds on, never imports texts.py back)."""


def keyed(namespace: dict[str, Any]) -> None:
    """Turn every upper-case sentence of a texts module into a :class:`Text` named by its key (the
    sentences of a table of them, like ``RULES``, by ``RULES.<entry>``), and register them for
    :func:`english`."""
    for key, value in list(namespace.items()):
        if not key.isupper():
            continue
        if type(value) is str:
            namespace[key] = Text(key, value)
        elif isinstance(value, dict) and all(type(v) is str for v in value.values()):
            value.update({entry: Text(f"{key}.{entry}", v) for entry, v in value.items()})
        _SENTENCES[key] = namespace[key]


def english(key: str) -> Text | None:
    """The English sentence ``key`` (``NAME`` or ``NAME.entry``) of bot/core/wording/texts.py, if there is
    one."""
    name, _, entry = key.partition(".")
    value = _SENTENCES.get(name)
    if entry and isinstance(value, dict):
        value = value.get(entry)
    return value if isinstance(value, Text) else None


def locale_code(locale: Any) -> str | None:
    """A Discord locale (``discord.Locale``, its code, or None) as the code catalogues are named by."""
    if locale is None:
        return None
    return str(getattr(locale, "value", locale))


def t(key: str, locale: Any, **fields: Any) -> str:
    """The sentence ``key`` of bot/core/wording/texts.py in ``locale`` (English when the locale has no
    catalogue or no entry for it), filled in with ``fields`` (translated too when they are
    :class:`Text`)."""
    source = english(key)
    if source is None:
        raise KeyError(f"bot/core/wording/texts.py has no sentence {key!r}")
    code = locale_code(locale)
    template: str | None = catalogues().get(code or "", {}).get("texts", {}).get(key) if code else None
    if template is None:
        return source.format(**fields) if fields else str(source)
    shown = {name: with_card_colours(localise(value, locale), locale) for name, value in fields.items()}
    return template.format(**shown) if fields else template


CARD_IDS = re.compile(r"[WB]\d{2}(?:, [WB]\d{2})*")
"""A field that is a card id or a list of them (``W13``, ``B02, W07``)."""


def with_card_colours(value: Any, locale: Any) -> Any:
    """A field of a translated sentence with each card id shown as ``CARD_ID`` says in ``locale``
    (``W13 branco`` in pt-BR, where a reader takes B for *branco*); anything else as it is."""
    if not isinstance(value, str) or not CARD_IDS.fullmatch(value):
        return value
    code = locale_code(locale)
    section = catalogues().get(code or "", {}).get("texts", {}) if code else {}
    if not any(section.get(f"CARD_ID.{colour}", "{card}") != "{card}" for colour in "WB"):
        return value
    return ", ".join(section.get(f"CARD_ID.{card[0]}", "{card}").format(card=card)
                     for card in value.split(", "))


def image_words(locale: Any) -> Mapping[str, Any] | None:
    """The words the images print in ``locale``: its catalogue's ``images`` section, a translation
    of ``renders.labels.ENGLISH`` by key (None for English, or a locale without a catalogue)."""
    code = locale_code(locale)
    return catalogues().get(code, {}).get("images") if code else None


def localise(content: Any, locale: Any) -> Any:
    """``content`` in ``locale`` when it is a sentence of bot/core/wording/texts.py, an engine
    refusal (:func:`bot.core.wording.refusals.engine_text`), an action in the engine's notation
    (:class:`Notation`) or a :class:`Joined` of them; anything else (a player's name, a number, a
    plain f-string) as it is."""
    if isinstance(content, Text):
        if content.key.startswith(ENGINE_KEY):
            return _engine_sentence(content, locale)
        return t(content.key, locale, **content.fields)
    if isinstance(content, Joined):
        return str(localise(content.sep, locale)).join(str(localise(part, locale))
                                                       for part in content.parts)
    if isinstance(content, Notation):
        return notation_in(content, locale)
    return content


# -- the engine's refusals (engine/messages.py) ---------------------------------------------------

ENGINE_KEY = "engine:"
"""How a :class:`Text` made from an engine refusal is keyed: ``engine:<key of MESSAGES>``."""


def _engine_sentence(text: Text, locale: Any) -> str:
    code = locale_code(locale)
    section = catalogues().get(code, {}).get("engine", {}) if code else {}
    template = section.get("messages", {}).get(text.key[len(ENGINE_KEY):])
    if template is None:
        return str(text)
    words = section.get("words", {})
    with labels.speaking(image_words(locale)):
        shown = {name: with_card_colours(_engine_field(value, words, locale), locale)
                 for name, value in text.fields.items()}
    return fill(template, text.fields, shown)


def _engine_field(value: Any, words: Mapping[str, str], locale: Any) -> str:
    """An engine refusal's field in the current language: a piece by its translated name, an
    English word through ``words``, a list item by item; a sentence of bot/core/wording/texts.py, a notation
    or
    a join of them (see :func:`_worded_fields`) as :func:`localise` shows it."""
    if isinstance(value, (Text, Joined, Notation)):
        return str(localise(value, locale))
    if isinstance(value, Shape):
        return labels.piece_label(value.value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_engine_field(item, words, locale) for item in value)
    shown = english_field(value)
    return words.get(shown, shown)


def language_name(locale: str) -> str:
    """A locale's language as its speakers name it (a catalogue's ``language``; "English" for
    English), as /projectl-server offers it."""
    return str(catalogues().get(locale, {}).get("language", "English"))


def language_names() -> frozenset[str]:
    """Every language's own name, English's included. A language is offered under its own name
    in every locale (a reader looks for "Português", not its English name), so these choices carry
    no translations, and adding a catalogue never means editing the others."""
    return frozenset({language_name("en-US"), *(language_name(code) for code in locales())})


def public_locale(channel: Any, chosen: Mapping[int, str], *, guild_id: int | None = None,
                  preferred: Any = None) -> Any:
    """The language of a post everybody in ``channel`` sees — THE rule, every public text and
    image asks it: the language the server's admins chose with /projectl-server (``chosen``, by
    guild id: :class:`bot.core.wording.server_locales.ServerLocales`), else the server's preferred locale.
    ``guild_id`` and ``preferred`` stand in for a channel whose server the bot has not cached (an
    interaction carries both)."""
    guild = getattr(channel, "guild", None)
    server = getattr(guild, "id", None) or guild_id or getattr(channel, "guild_id", None)
    if server is not None and server in chosen:
        return chosen[server]
    return getattr(guild, "preferred_locale", None) or preferred


# -- actions in the engine's notation ---------------------------------------------------------


class Notation(str):
    """An action's text in the engine's (English) notation, as the log stores it. Shown to a
    reader in their language's notation words (the catalogue's ``notation`` section: ``take
    white 3`` reads ``pegar branco 3``), which the engine parses back to the same action."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (Notation, (str(self),))


_NOTATION_WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9-]*(?![\w-])")


def notation_in(text: str, locale: Any) -> str:
    """``text`` (an action in the engine's notation) with its notation words in ``locale``. Only
    whole lower-case words are swapped — card ids, shapes and cells are upper case or digits —
    and the option of a ``choose`` keeps its canonical shapes (``choose L3 to O4`` reads
    ``escolher L3 para O4``), so the result parses back to the same action."""
    code = locale_code(locale)
    words = catalogues().get(code or "", {}).get("notation", {}) if code else {}
    if not words:
        return str(text)
    return _NOTATION_WORD.sub(lambda match: words.get(match.group(), match.group()), str(text))


# -- names players chose ------------------------------------------------------------------------

_MARKDOWN = re.compile(r"[\\*_~|`\[\]]|^[>#-]")
"""What Discord reads as markdown in a name: emphasis, code, spoilers, strike-through, masked
links anywhere; a quote, heading or list at the start."""


_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Explicit bidi embeddings, overrides and isolates: one left open in a name (U+202E, the
right-to-left override) turns the rest of its line around. The marks (U+200E, U+200F, U+061C)
stay: they end nothing and start nothing."""


def escape_name(raw: str) -> str:
    """``raw`` (a name a player chose) safe to quote in a message: every markdown character
    backslashed and every ``@`` followed by a zero-width space, so ``**x**`` is not bold and
    ``<@123…>``, ``<@&…>``, ``@everyone`` neither ping nor even look like a mention, and without
    its explicit bidi controls (:data:`_BIDI_CONTROLS`), so it cannot reverse the words after it.
    Discord-free (discord.utils has the same two escapes, but the wording must not import Discord)."""
    return _MARKDOWN.sub(lambda match: "\\" + match[0], without_bidi_controls(raw)).replace("@", "@\u200b")


def without_bidi_controls(text: str) -> str:
    """``text`` without its explicit bidi controls (:data:`_BIDI_CONTROLS`): a name quoted in a
    line of text, in Discord or on a web page, cannot turn the words after it around."""
    return _BIDI_CONTROLS.sub("", text)


class PlayerName(str):
    """A name a player chose (their Discord display name): it *is* the escaped text
    (:func:`escape_name`), so every way it reaches a message — a sentence's field, a join, an
    f-string, ``+`` — quotes it safely, and the place names enter the wording (a seat loaded from
    storage, a user's name read from an interaction) wraps it once. ``raw`` is the name as the
    player wrote it, for what is not a message: the images, and storage (see :func:`unescaped`)."""

    raw: str

    def __new__(cls, raw: str) -> PlayerName:
        raw = raw.raw if isinstance(raw, PlayerName) else str(raw)  # never escaped twice
        name = super().__new__(cls, escape_name(raw))
        name.raw = raw
        return name

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlayerName, (self.raw,))


def unescaped(name: Any) -> Any:
    """``name`` as the player wrote it: a :class:`PlayerName`'s ``raw``, and a sentence naming
    one (``Easy AI (for Ana)``) refilled with the raw name — for an image, which draws names
    rather than reading markdown, and for storage, which keeps names as they were given."""
    if isinstance(name, PlayerName):
        return name.raw
    if isinstance(name, Text) and any(isinstance(value, PlayerName) for value in name.fields.values()):
        source = english(name.key)
        if source is not None:
            return source.format(**{key: unescaped(value) for key, value in name.fields.items()})
    return name


def as_written(content: Any) -> Any:
    """``content`` (a sentence of texts.py, a :class:`Joined` of them, a name) with every player's
    name in it, however deep, as the player wrote it (:func:`unescaped`): for plain text that no
    markdown reads, such as an image's alt text, where the backslashes of :func:`escape_name`
    would be read out ("\\*\\*Bo\\*\\*" for "**Bo**"), and without its explicit bidi controls
    (:func:`without_bidi_controls`), which would turn the rest of the text around."""
    if isinstance(content, PlayerName):
        return without_bidi_controls(content.raw)
    if isinstance(content, Joined):
        parts = [as_written(part) for part in content.parts]
        sep = as_written(content.sep)
        if sep is content.sep and all(new is old for new, old in zip(parts, content.parts, strict=True)):
            return content  # no name inside: kept as it is (most sentences of an alt text)
        return Joined(parts, sep)
    if isinstance(content, Text) and content.fields:
        fields = {key: as_written(value) for key, value in content.fields.items()}
        if all(fields[key] is value for key, value in content.fields.items()):
            return content
        source = english(content.key)
        return source.format(**fields) if source is not None else Text(content.key, str(content), fields)
    return content


NAME_STAND_IN = "\ue000{}\ue001"
"""Where a name goes while a sentence loses its markdown (private-use characters, which no
wording holds): the names are put back after, so a name is shown as typed, asterisks and
backquotes included."""


def without_markdown(line: str) -> str:
    """A sentence written for Discord without its markdown (bold, code): for plain text."""
    return line.replace("**", "").replace("`", "")


def plain_text(content: Any, locale: Any) -> str:
    """A sentence written for Discord (a sentence of texts.py, a :class:`Joined` of them) as plain
    text that no markdown reads — a web page, a file to take away: in ``locale``, without bold
    or code, each player's name as they wrote it (not escaped for Discord's markdown). Unlike
    :func:`as_written`, the sentence stays one of texts.py until it is put in ``locale``'s words."""
    names: list[str] = []
    return named(without_markdown(str(localise(_stand_ins(content, names), locale))), names)


def _stand_ins(content: Any, names: list[str]) -> Any:
    """``content`` with each player's name replaced by a :data:`NAME_STAND_IN`, the names (as
    written) appended to ``names`` in the stand-ins' order."""
    if isinstance(content, PlayerName):
        names.append(without_bidi_controls(content.raw))
        return NAME_STAND_IN.format(len(names) - 1)
    if isinstance(content, Text) and content.fields:
        fields = {key: _stand_ins(value, names) for key, value in content.fields.items()}
        source = english(content.key)  # its English filled in again: a sentence in a field shows as it
        return source.format(**fields) if source is not None else Text(content.key, str(content), fields)
    if isinstance(content, Joined):
        return Joined(tuple(_stand_ins(part, names) for part in content.parts), content.sep)
    return content


def named(line: str, names: list[str]) -> str:
    """``line`` with each :data:`NAME_STAND_IN` replaced by its name."""
    for index, name in enumerate(names):
        line = line.replace(NAME_STAND_IN.format(index), name)
    return line


def plain_name(name: Any, locale: Any) -> str:
    """A seat's name as plain text (a web page, which reads no markdown) in ``locale``: a
    player's as they wrote it (:func:`as_written`), an AI seat's sentence (``Easy AI 1``, ``Easy AI
    (for Ana)``) in that language, and no explicit bidi control (:func:`without_bidi_controls`: on
    the page, as in Discord, a name reverses nothing after it)."""
    return without_bidi_controls(str(localise(as_written(name), locale)))
