"""The docs stay true: their numbers come from the code, their images are what the code draws,
and every Python example in them runs.

* Facts: a number the code can produce is a marked span (``tools/docfacts.py``); a stale or
  unknown one fails here, and ``python -m tools.docfacts`` rewrites them.
* Images: ``python -m renders examples`` draws the README's images again; each must match the
  committed file (within the same small tolerance as the golden tests, for Pillow versions).
* Examples: every fenced ``python`` block of README.md and docs/*.md runs as written, in a fresh
  interpreter, from the repository's root (a block that defines ``test_`` functions runs under
  pytest, as the test file it shows). A block that cannot run as written is not an example.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from renders.examples import write_examples
from tools import docfacts, doclists

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
CHANGED_PIXEL = 64
"""A pixel differs when one of its channels moved by more than this (0–255): another Pillow's
anti-aliasing moves edges by less; a changed word or shape moves its pixels by far more."""
IMAGE_TOLERANCE = 40
"""How many pixels may differ: a letter changed in a label is more."""


def test_every_fact_in_the_docs_is_current() -> None:
    assert docfacts.stale() == []


def test_a_stale_fact_is_caught_and_rewritten(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("We ship <!-- fact:catalogue_cards -->3<!-- /fact --> cards and "
                   "<!-- fact:no_such_fact -->9<!-- /fact --> others.")
    problems = docfacts.stale((doc,))
    assert any("catalogue_cards says '3'" in p for p in problems)
    assert any("unknown fact 'no_such_fact'" in p for p in problems)
    fixed = docfacts.rewrite(doc.read_text())
    assert f"<!-- fact:catalogue_cards -->{docfacts.FACTS['catalogue_cards']()}<!-- /fact -->" in fixed


def image_difference(committed: Path, drawn: Path) -> float:
    with Image.open(committed) as a, Image.open(drawn) as b:
        if a.size != b.size:
            return float(a.width * a.height)
        diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
        changed = diff.point(lambda level: 255 if level > CHANGED_PIXEL // 3 else 0)
        return ImageStat.Stat(changed).sum[0] / 255


def test_the_readme_images_are_what_the_code_draws(tmp_path: Path) -> None:
    drawn = {path.name: path for path in write_examples(tmp_path)}
    committed = {path.name: path for path in (ROOT / "docs" / "images").glob("*.png")}
    assert set(drawn) == set(committed), "python -m renders examples docs/images"
    stale = {name: round(image_difference(committed[name], drawn[name]), 2) for name in drawn
             if image_difference(committed[name], drawn[name]) > IMAGE_TOLERANCE}
    assert not stale, f"stale images {stale}: run python -m renders examples docs/images"


def test_a_changed_image_is_caught(tmp_path: Path) -> None:
    [first, *_] = write_examples(tmp_path / "a")
    with Image.open(first) as image:
        changed = image.convert("RGB")
    changed.paste((255, 0, 255), (0, 0, 12, 12))  # a patch the size of a letter
    changed.save(tmp_path / "changed.png")
    assert image_difference(first, tmp_path / "changed.png") > IMAGE_TOLERANCE


def python_blocks() -> list[tuple[str, str]]:
    found = []
    for doc in MARKDOWN:
        text = doc.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((f"{doc.relative_to(ROOT)}:{line}", match.group(1)))
    return found


BLOCKS = python_blocks()


def test_the_docs_have_examples() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[where for where, _ in BLOCKS])
def test_every_python_example_in_the_docs_runs(where: str, code: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "tests"))),
           "PROJECTL_BENCH_DIR": str(tmp_path)}
    if re.search(r"^(async )?def test_", code, re.MULTILINE):
        example = tmp_path / "test_example.py"
        example.write_text(code)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
                   "-c", str(ROOT / "pyproject.toml"), str(example)]
    else:
        command = [sys.executable, "-c", code]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{where} does not run:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def test_the_generated_blocks_are_checked(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("Settings:\n<!-- block:settings -->\n| old |\n<!-- /block -->\n"
                   "<!-- block:no_such_block -->\nx\n<!-- /block -->\n")
    problems = docfacts.stale((doc,))
    assert any("the settings block is not what the code gives" in p for p in problems)
    assert any("unknown block 'no_such_block'" in p for p in problems)
    fixed = docfacts.rewrite(doc.read_text())
    assert f"<!-- block:settings -->\n{doclists.settings_table()}\n<!-- /block -->" in fixed


def test_the_readme_lists_every_command_and_setting() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"<!-- block:commands -->\n{doclists.command_list()}\n<!-- /block -->" in readme
    assert f"<!-- block:settings -->\n{doclists.settings_table()}\n<!-- /block -->" in readme
    listed = doclists.command_lines(list(doclists.commands_synced()))
    assert any(line.startswith("- `/projectl-games leaderboard") for line in listed)
    assert {"PROJECTL_SHARD_COUNT", "PROJECTL_SHARD_IDS"} <= doclists.read_settings()


def test_a_setting_the_config_reads_must_be_described() -> None:
    described = doclists.described_settings("# the token\nDISCORD_TOKEN=\n# a\nA=1\nB=\n\nC=")
    assert [(d.name, d.default, d.meaning) for d in described] == [
        ("DISCORD_TOKEN", "", "the token"), ("A", "1", "a"), ("B", "", "a"), ("C", "", "")]
    commented = doclists.described_settings(
        "# the file\n#PROJECTL_DB_PATH=x.db\n# the level\n# PROJECTL_LOG_LEVEL=INFO")
    assert [(d.name, d.default, d.meaning) for d in commented] == [
        ("PROJECTL_DB_PATH", "x.db", "the file"), ("PROJECTL_LOG_LEVEL", "INFO", "the level")]
    assert doclists.undescribed_settings() == []


COMMAND_MENTION = re.compile(r"`/(projectl[^`]*)`")


def test_every_command_the_docs_name_exists_with_those_options() -> None:
    """A command written in the docs (`/projectl log [page:]`, `/projectl mesa nova`) is one the
    bot has, in some language, and takes every option named beside it."""
    known = doclists.command_options(doclists.commands_synced())
    wrong = []
    for doc in MARKDOWN:
        for mention in COMMAND_MENTION.findall(doc.read_text(encoding="utf-8")):
            words = mention.split()
            length = max((n for n in range(1, len(words) + 1) if tuple(words[:n]) in known), default=0)
            if not length:
                wrong.append(f"{doc.name}: /{mention} is no command")
                continue
            options = known[tuple(words[:length])]
            for word in words[length:]:
                name = word.strip("[]").rstrip(":")
                if (word.endswith((":", ":]")) or word.startswith("[")) and name not in options:
                    wrong.append(f"{doc.name}: /{mention} — {words[:length]} takes no {name!r}")
    assert not wrong, "\n".join(wrong)


PATH_MENTION = re.compile(r"(?<![\w./-])((?:engine|renders|bot|bench|tools|tests|docs)/[\w./<>*-]*[\w>*])")
"""A path in the repository; one with ``*`` or ``<…>`` in it is a pattern, not checked."""
MODULE_MENTION = re.compile(r"`((?:engine|renders|bot|bench|tools)(?:\.\w+)+)")


def _module_exists(dotted: str) -> bool:
    """``bot.core.play.flow`` or ``bot.core.play.flow.act`` (a name inside a module) exists."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


def test_every_file_and_module_the_docs_name_exists() -> None:
    """A path (`bot/core/play/flow.py`, `tests/harness/`) or module (`bot.core.play.flow`) named in
    the docs is there: a file moved or renamed fails here until the docs follow it."""
    missing = []
    for doc in MARKDOWN:
        text = doc.read_text(encoding="utf-8")
        for path in sorted(set(PATH_MENTION.findall(text))):
            if not set("*<>") & set(path) and not (ROOT / path.rstrip("/.")).exists():
                missing.append(f"{doc.name}: {path}")
        for dotted in sorted(set(MODULE_MENTION.findall(text))):
            if not _module_exists(dotted):
                missing.append(f"{doc.name}: {dotted}")
    assert not missing, "\n".join(missing)


DOCS_LINE_BUDGET = 2500
"""docs/*.md together: short enough to read, and what is long belongs in commits or code."""
FOR_WHOM = re.compile(r"^# .+\n\n\*For [^\n]+\*$", re.MULTILINE)


def test_the_docs_stay_short_and_say_whom_they_are_for() -> None:
    docs = sorted((ROOT / "docs").glob("*.md"))
    lines = sum(len(doc.read_text(encoding="utf-8").splitlines()) for doc in docs)
    assert lines <= DOCS_LINE_BUDGET, f"docs/*.md hold {lines} lines (at most {DOCS_LINE_BUDGET})"
    for doc in (ROOT / "README.md", *docs):
        assert FOR_WHOM.match(doc.read_text(encoding="utf-8")), \
            f"{doc.name} must open with its title, then one line '*For …*' saying whom it is for"
