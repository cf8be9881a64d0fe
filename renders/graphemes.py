"""Where a line of text may be cut: between user-perceived characters (grapheme clusters), never
inside one, so a shortened or wrapped name never drops an accent from its letter, splits a
Devanagari conjunct or a Hangul syllable written in jamo, or leaves half an emoji sequence.

The rules of Unicode's text segmentation (UAX #29) that names need, from :mod:`unicodedata`:
a letter keeps the combining marks, spacing marks, variation selectors, emoji modifiers and tags
after it (GB9, GB9a); a zero-width joiner joins what follows it (GB11, loosely); Hangul jamo
join into syllables (GB6-GB8); regional indicators pair into flags (GB12-GB13); CR LF stays one.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_ZWJ = "\u200d"
_MARKS = frozenset({"Mn", "Me", "Mc"})


def _extends(char: str) -> bool:
    """A character that belongs to the cluster before it."""
    code = ord(char)
    return (
        unicodedata.category(char) in _MARKS
        or char in "\u200c\u200d"
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF  # emoji skin-tone modifiers
        or 0xE0020 <= code <= 0xE007F  # emoji tags
    )


def _jamo(char: str) -> str:
    """The Hangul syllable type of ``char``: L, V, T, LV, LVT or "" (none)."""
    code = ord(char)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


_JAMO_JOINS = {("L", "L"), ("L", "V"), ("L", "LV"), ("L", "LVT"), ("LV", "V"), ("LV", "T"), ("V", "V"),
               ("V", "T"), ("LVT", "T"), ("T", "T")}


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


@lru_cache(maxsize=2048)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` as its grapheme clusters, in logical order (joined, they are ``text``).

    >>> clusters("Zoe\u0308 이름")
    ('Z', 'o', 'e\u0308', ' ', '이', '름')
    """
    found: list[str] = []
    flags = 0  # regional indicators in a row so far
    for i, char in enumerate(text):
        before = text[i - 1] if i else ""
        joins = bool(found) and (
            _extends(char)
            or (before == "\r" and char == "\n")
            or before == _ZWJ
            or (_jamo(before), _jamo(char)) in _JAMO_JOINS
            or (_regional(char) and flags % 2 == 1)
        )
        flags = flags + 1 if _regional(char) else 0
        if joins:
            found[-1] += char
        else:
            found.append(char)
    return tuple(found)


def cuts(text: str) -> list[int]:
    """Every index of ``text`` at which it may be cut, from 1 to ``len(text)``."""
    ends: list[int] = []
    at = 0
    for cluster in clusters(text):
        at += len(cluster)
        ends.append(at)
    return ends
