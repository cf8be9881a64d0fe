"""Rebuild the subset fonts shipped in renders/fonts/ (a maintainer tool, not needed at run time).

Where the fonts come from: the Noto families as Debian packages them, all under the SIL Open Font
License 1.1 —

    apt-get install fonts-noto-core fonts-noto-cjk     # Debian 12: 20201225-1, 1:20220127+repack1-1
    .venv/bin/pip install fonttools                    # or: pip install -e '.[fonts]'
    .venv/bin/python tools/build_fonts.py

Each face is cut down to the characters a player's name or our labels can plausibly use, with
hinting and OpenType layout tables dropped (renders use Pillow's basic layout, which reads neither:
Arabic joining is done by renders.bidi with Unicode presentation forms instead). The script also
writes renders/fonts/coverage.json — which code points each face has, so renders pick a face per
character without fontTools at run time — and renders/fonts/OFL.txt with the copyright notices of
the source fonts and the licence text. Emoji are not shipped: renders drop them (see renders.fonts).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

OUT = Path(__file__).resolve().parent.parent / "renders" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_FACE = "Noto Sans CJK SC"  # one Pan-CJK face covers Chinese, Japanese and Korean names
LICENCE_SOURCE = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def span(first: int, last: int) -> set[int]:
    return set(range(first, last + 1))


def encodable(codec: str, candidates: set[int], below: int = 0x10000) -> set[int]:
    """The code points of ``candidates`` that a legacy national character set has (before ``below``).

    GB 2312, JIS X 0208, Big5's frequent-character level and KS X 1001's Hangul list the
    characters in everyday use, so together they cover nearly every name while keeping the CJK
    face about 2 MB instead of 16.
    """
    kept = set()
    for code in candidates:
        try:
            encoded = chr(code).encode(codec)
        except UnicodeEncodeError:
            continue
        if int.from_bytes(encoded, "big") < below:
            kept.add(code)
    return kept


LATIN = (
    span(0x20, 0x7E)
    | span(0xA0, 0x24F)  # Latin-1, Latin Extended-A and -B
    | span(0x300, 0x36F)  # combining accents
    | span(0x370, 0x3FF)  # Greek
    | span(0x400, 0x52F)  # Cyrillic and its supplement
    | span(0x1E00, 0x1EFF)  # Latin Extended Additional (Vietnamese)
    | span(0x1F00, 0x1FFF)  # Greek Extended
    | span(0x2000, 0x206F)  # punctuation: dashes, quotes, ellipsis
    | span(0x20A0, 0x20CF)  # currency
    | {0x2116, 0x2122, 0x2190, 0x2191, 0x2192, 0x2193, 0x2212, 0x2713, 0x2715, 0x25CF}
)
ARABIC = span(0x600, 0x6FF) | span(0x750, 0x77F) | span(0xFB50, 0xFDFF) | span(0xFE70, 0xFEFF)
HEBREW = span(0x590, 0x5FF) | span(0xFB1D, 0xFB4F)
HAN = span(0x4E00, 0x9FFF)
CJK_CHARS = (
    span(0x3000, 0x303F)  # CJK punctuation
    | span(0x3040, 0x30FF)  # kana
    | span(0x3130, 0x318F)  # Hangul compatibility jamo
    | span(0x31F0, 0x31FF)
    | span(0xFF01, 0xFF5E)  # full-width forms
    | encodable("gb2312", HAN)
    | encodable("shift_jis", HAN)
    | encodable("big5", HAN, below=0xC67F)  # Big5 level 1: frequent traditional characters
    | encodable("euc_kr", span(0xAC00, 0xD7A3))  # the 2,350 Hangul syllables of KS X 1001
)

# (output file, source, face name inside a collection or None, code points)
FACES: list[tuple[str, Path, str | None, set[int]]] = [
    ("NotoSans-Regular.ttf", NOTO / "NotoSans-Regular.ttf", None, LATIN),
    ("NotoSansArabic-Regular.ttf", NOTO / "NotoSansArabic-Regular.ttf", None, ARABIC),
    ("NotoSansHebrew-Regular.ttf", NOTO / "NotoSansHebrew-Regular.ttf", None, HEBREW),
    ("NotoSansCJK-Regular.otf", CJK, CJK_FACE, CJK_CHARS),
]


def load(source: Path, face: str | None) -> TTFont:
    if face is None:
        return TTFont(source)
    for font in TTCollection(source).fonts:
        if font["name"].getDebugName(4) == face:
            return font
    raise SystemExit(f"{source} has no face named {face!r}")


def cut(font: TTFont, codes: set[int]) -> TTFont:
    options = subset.Options()
    options.layout_features = []  # basic layout reads no GSUB/GPOS
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright and licence records
    options.name_languages = [0x409]
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "DSIG", "VORG"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codes & set(font.getBestCmap())))
    subsetter.subset(font)
    return font


def ranges(codes: list[int]) -> list[list[int]]:
    """Sorted code points as [first, last] runs (compact for coverage.json)."""
    out: list[list[int]] = []
    for code in codes:
        if out and code == out[-1][1] + 1:
            out[-1][1] = code
        else:
            out.append([code, code])
    return out


def licence_text(notices: list[str]) -> str:
    """The copyright notices of the source fonts followed by the OFL 1.1 text Debian ships."""
    text = LICENCE_SOURCE.read_text(encoding="utf-8")
    match = re.search(r"^License: SIL-1\.1\n((?: .*\n)+)", text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no OFL text found in {LICENCE_SOURCE}")
    body = "\n".join("" if line.strip() == "." else line[1:] for line in match.group(1).splitlines())
    header = "\n".join(sorted(set(notices)))
    return f"{header}\n\nThese fonts are subsets of the Noto fonts, licensed as follows.\n\n{body}\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    coverage: dict[str, list[list[int]]] = {}
    notices: list[str] = []
    for filename, source, face, codes in FACES:
        font = cut(load(source, face), codes)
        notice = font["name"].getDebugName(0)
        if notice:
            notices.append(notice.strip())
        font.save(OUT / filename)
        coverage[filename] = ranges(sorted(font.getBestCmap()))
        size = (OUT / filename).stat().st_size
        print(f"{filename}: {len(font.getBestCmap())} characters, {size // 1024} KB")
    (OUT / "coverage.json").write_text(json.dumps(coverage, separators=(",", ":")) + "\n")
    (OUT / "OFL.txt").write_text(licence_text(notices), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
