"""Right-to-left text for one line: Arabic letters joined, then characters put in visual order.

Renders draw with Pillow's basic layout on every machine (it gives the same pixels whether or not
Pillow was built with libraqm), and basic layout neither joins Arabic letters nor reverses
right-to-left runs. This module does both before drawing, so "علي" and "שרה" read correctly:

* :func:`shape_arabic` replaces each Arabic letter by its contextual form (isolated, initial,
  medial, final) from Unicode's Arabic Presentation Forms, including the lam-alef ligatures. The
  table is derived from :mod:`unicodedata`, so there is nothing hand-typed to get wrong.
* :func:`visual_order` applies the parts of the Unicode Bidirectional Algorithm (UAX #9) that a
  single line without explicit embeddings needs: weak types (W1-W7), bracket pairs and neutrals
  (N0-N2), implicit levels (I1-I2), reordering (L2) and mirrored brackets (L4).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

_FORMS = ("isolated", "final", "initial", "medial")
_ALEFS = frozenset("\u0622\u0623\u0625\u0627")
_LAM = "\u0644"
_TATWEEL = "\u0640"
_MIRROR = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


@lru_cache(maxsize=1)
def _presentation_forms() -> tuple[dict[tuple[str, str], str], dict[tuple[str, str], str]]:
    """(letter, form) -> presentation character, and (alef, form) -> lam-alef ligature."""
    letters: dict[tuple[str, str], str] = {}
    ligatures: dict[tuple[str, str], str] = {}
    for block in (range(0xFB50, 0xFE00), range(0xFE70, 0xFF00)):
        for code in block:
            parts = unicodedata.decomposition(chr(code)).split()
            if len(parts) < 2 or parts[0].strip("<>") not in _FORMS:
                continue
            form, bases = parts[0].strip("<>"), [chr(int(p, 16)) for p in parts[1:]]
            if len(bases) == 1:
                letters.setdefault((bases[0], form), chr(code))
            elif len(bases) == 2 and bases[0] == _LAM and bases[1] in _ALEFS:
                ligatures.setdefault((bases[1], form), chr(code))
    return letters, ligatures


def _joining(char: str) -> str:
    """'D' joins both sides, 'R' only to the letter before it, 'C' (tatweel) joins both,
    'T' is transparent (a vowel mark), 'U' does not join."""
    if char == _TATWEEL:
        return "C"
    if unicodedata.category(char) == "Mn":
        return "T"
    letters, _ = _presentation_forms()
    if (char, "medial") in letters or (char, "initial") in letters:
        return "D"
    if (char, "final") in letters:
        return "R"
    return "U"


def shape_arabic(text: str) -> str:
    """``text`` with Arabic letters in their contextual presentation forms (logical order kept)."""
    if not any("\u0600" <= c <= "\u06ff" or "\u0750" <= c <= "\u077f" for c in text):
        return text
    letters, ligatures = _presentation_forms()
    kinds = [_joining(c) for c in text]

    def neighbour(i: int, step: int) -> str:
        i += step
        while 0 <= i < len(text) and kinds[i] == "T":
            i += step
        return kinds[i] if 0 <= i < len(text) else "U"

    out: list[str] = []
    skip = -1
    for i, char in enumerate(text):
        if i == skip:
            continue
        if kinds[i] not in "DR":
            out.append(char)
            continue
        joins_before = neighbour(i, -1) in "DC"
        if char == _LAM:
            j = i + 1
            while j < len(text) and kinds[j] == "T":
                j += 1
            if j < len(text) and text[j] in _ALEFS:
                ligature = ligatures.get((text[j], "final" if joins_before else "isolated"))
                if ligature is not None:
                    out.append(ligature)
                    out.extend(text[i + 1 : j])  # vowel marks between lam and alef
                    skip = j
                    continue
        joins_after = kinds[i] == "D" and neighbour(i, 1) in "DRC"
        form = {
            (True, True): "medial",
            (True, False): "final",
            (False, True): "initial",
            (False, False): "isolated",
        }[(joins_before, joins_after)]
        out.append(letters.get((char, form), letters.get((char, "isolated"), char)))
    return "".join(out)


def _types(text: str, base: str) -> list[str]:
    """Bidi classes after the weak-type rules W1-W7, with neutrals as 'N'."""
    raw = [unicodedata.bidirectional(c) or "L" for c in text]
    types: list[str] = []
    last_strong = base
    for t in raw:
        if t == "NSM":  # W1: a mark takes the type of what it sits on
            t = types[-1] if types else base
        if t in ("L", "R", "AL"):
            last_strong = t
        if t == "EN" and last_strong == "AL":  # W2
            t = "AN"
        if t == "EN" and last_strong == "L":  # W7
            t = "L"
        if t == "AL":  # W3
            t = "R"
        types.append(t if t in ("L", "R", "EN", "AN") else "N")
    return types


def _bracket_pairs(text: str, types: list[str], base: str) -> None:
    """N0: a bracket pair takes the direction of what it encloses, so "Ana (שרה) 2" keeps its
    brackets around the Hebrew word. Changes ``types`` in place."""
    opening = {")": "(", "]": "[", "}": "{"}
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    for i, char in enumerate(text):
        if char in "([{":
            stack.append(i)
        elif char in opening and stack and text[stack[-1]] == opening[char]:
            pairs.append((stack.pop(), i))
    for start, end in sorted(pairs):
        inside = {"R" if t in ("R", "EN", "AN") else t for t in types[start + 1 : end]} - {"N"}
        if not inside:
            continue
        if base in inside:
            direction = base
        else:
            before = next((t for t in reversed(types[:start]) if t != "N"), base)
            before = "R" if before in ("R", "EN", "AN") else before
            direction = before  # the opposite direction only when the context has it too
        types[start] = types[end] = direction


def base_direction(text: str) -> str:
    """'R' when the first strongly directional character is right-to-left, else 'L' (P2-P3)."""
    for char in text:
        t = unicodedata.bidirectional(char)
        if t in ("R", "AL"):
            return "R"
        if t == "L":
            return "L"
    return "L"


def visual_order(text: str, base: str | None = None) -> str:
    """The characters of one line of logical-order ``text`` in the order they are drawn.

    ``base`` is the paragraph direction, 'L' or 'R'; None takes it from the text (P2-P3)."""
    if not any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        return text
    base = base or base_direction(text)
    types = _types(text, base)
    _bracket_pairs(text, types, base)
    # N1/N2: a run of neutrals between two same directions takes it (numbers count as R), else base.
    strong = ["R" if t in ("R", "EN", "AN") else t for t in types]
    resolved = list(types)
    i = 0
    while i < len(types):
        if types[i] != "N":
            i += 1
            continue
        j = i
        while j < len(types) and types[j] == "N":
            j += 1
        before = strong[i - 1] if i > 0 else base
        after = strong[j] if j < len(types) else base
        fill = before if before == after else base
        resolved[i:j] = [fill] * (j - i)
        i = j
    # I1/I2: implicit levels.
    base_level = 1 if base == "R" else 0
    levels = []
    for t in resolved:
        if base_level == 0:
            levels.append({"L": 0, "R": 1}.get(t, 2))
        else:
            levels.append(1 if t == "R" else 2)
    chars = [_MIRROR.get(c, c) if level % 2 else c for c, level in zip(text, levels, strict=True)]
    # L2: from the highest level down, reverse every run at that level or above.
    order = list(range(len(chars)))
    for level in range(max(levels), 0, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return "".join(chars[k] for k in order)


@lru_cache(maxsize=2048)
def visual(text: str) -> str:
    """Logical ``text`` ready for a left-to-right drawing engine: joined, then reordered.

    Every string in the images is a line of a left-to-right interface ("שרה to play" keeps
    "to play" after the name), so the paragraph direction is left-to-right; a right-to-left
    name inside it still reads right-to-left."""
    return visual_order(shape_arabic(text), "L")
