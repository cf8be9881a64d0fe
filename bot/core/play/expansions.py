"""The ``expansions`` option of ``/projectl table new``: one text naming the expansions a table plays.

Four expansions are switched on by a word each — ``ambassador``, ``phoenix``, ``finesse``,
``finesse_ambassador``, the engine's own ``Options`` flags — in one option rather than a
true/false option each: four options' names and descriptions in every language would not fit
``/projectl``'s 4,000 characters (pt-BR is the tightest). Ghost Piece keeps an option of its own,
because its default follows the seats.

The host picks a combination from the autocomplete (:func:`suggestions`, in their language) or
types the words, separated by commas or ``+``; each word may be the flag's name or the
expansion's name in English or in the host's language (with or without "pack"), accents and case
aside. What the words
allow together is the engine's question (``engine.check_options``, asked by
``TableSettings.validate``): ``finesse_ambassador`` without ``finesse`` is refused there, with the
engine's sentence.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import replace
from functools import cache
from typing import Any

from bot.core.errors import BadInputError
from bot.core.wording import texts
from bot.core.wording.locales import Joined, localise
from engine import Options, check_options
from engine.errors import IllegalActionError, quoted

EXPANSIONS = ("ambassador", "phoenix", "finesse", "finesse_ambassador")
"""The words, in the order a combination is written (each an ``engine.Options`` flag)."""
_SEPARATORS = re.compile(r"[,+;/&]")
_NONE = frozenset({"", "none", "no", "off", "nenhuma", "nenhum", "-"})


def _plain(text: str) -> str:
    """``text`` as compared: no accents, lower case, runs of spaces and hyphens as one ``_``."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[\s_-]+", "_", bare.strip().lower()).strip("_")


_PACK = re.compile(r"(^|_)(pack|pacote|expansion|expansao)(?=_|$)")
"""The words a name may go without: "Ambassador Pack" is "ambassador", "Pacote Embaixador" "embaixador"."""


def _words(locale: Any) -> dict[str, str]:
    """Every spelling of every expansion -> its flag: the flag, its English name, its name in
    ``locale``, each also without "pack" (or "pacote")."""
    words: dict[str, str] = {}
    for flag in EXPANSIONS:
        for spelling in (flag, texts.RULES_TOPICS[flag], str(localise(texts.RULES_TOPICS[flag], locale))):
            plain = _plain(spelling)
            words[plain] = flag
            words[_PACK.sub("", plain).strip("_")] = flag
    return words


def parse(text: str | None, locale: Any = None) -> dict[str, bool]:
    """The flags ``text`` switches on (each expansion named by its flag, or its name in English or
    in ``locale``), every other expansion off. None, "" and "none" are no expansion. A word that
    names none is refused, quoted, with the words there are."""
    chosen: set[str] = set()
    if text is not None:
        words = _words(locale)
        for part in _SEPARATORS.split(text):
            word = _plain(part)
            if word in _NONE:
                continue
            if word not in words:
                raise BadInputError(texts.EXPANSIONS_UNKNOWN.format(
                    word=quoted(part.replace("`", "")), words=", ".join(f"`{flag}`" for flag in EXPANSIONS)))
            chosen.add(words[word])
    return {flag: flag in chosen for flag in EXPANSIONS}


@cache
def combinations() -> tuple[tuple[str, ...], ...]:
    """Every combination a table may play, fewest expansions first, as the engine allows it
    (``engine.check_options``: ``finesse_ambassador`` only with ``finesse``; 11 in all, within
    Discord's 25 suggestions)."""
    return tuple(combo for size in range(1, len(EXPANSIONS) + 1)
                 for combo in itertools.combinations(EXPANSIONS, size) if _allowed(combo))


def _allowed(combo: tuple[str, ...]) -> bool:
    """Whether the engine opens a 2-player table with just these expansions."""
    try:
        flags: dict[str, Any] = dict.fromkeys(combo, True)
        check_options(replace(Options(players=2), **flags))
    except IllegalActionError:
        return False
    return True


def name_of(combo: tuple[str, ...], locale: Any) -> str:
    """``Phoenix + Finesse + Finesse Ambassador Pack``: a combination's names in ``locale``."""
    return " + ".join(str(localise(texts.RULES_TOPICS[flag], locale)) for flag in combo)


def value_of(combo: tuple[str, ...]) -> str:
    """``phoenix,finesse,finesse_ambassador``: what a suggestion fills in (read by :func:`parse`)."""
    return ",".join(combo)


def suggestions(current: str, locale: Any) -> list[tuple[str, str]]:
    """(name in ``locale``, value) of every combination holding each expansion ``current`` names
    so far — a word typed in part matches every expansion it begins (or is part of)."""
    words = _words(locale)
    typed = [_plain(part) for part in _SEPARATORS.split(current)]
    wanted: list[set[str]] = []
    for word in typed:
        if word in _NONE:
            continue
        matches = {flag for spelling, flag in words.items() if word in spelling}
        if not matches:
            return []
        wanted.append(matches)
    return [(name_of(combo, locale), value_of(combo)) for combo in combinations()
            if all(matches & set(combo) for matches in wanted)]


def lobby_line(rules: Any) -> Joined:
    """The lobby's words for the expansions ``rules`` (an ``engine.Options``) plays, in the reader's
    language: ", Phoenix on, Finesse expansion on"…"""
    lines = {"finesse": texts.LOBBY_FINESSE, "finesse_ambassador": texts.LOBBY_FINESSE_AMBASSADOR,
             "ambassador": texts.LOBBY_AMBASSADOR, "phoenix": texts.LOBBY_PHOENIX}
    return Joined(lines[flag] for flag in EXPANSIONS if getattr(rules, flag))
