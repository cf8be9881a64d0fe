"""``python -m tools.docfacts``: what the docs state that the code can produce — numbers and whole
lists — written from the code (``--check``: only report the stale ones, exit 1).

A fact in a Markdown file is a marked span::

    the shipped catalogue has <!-- fact:base_white -->32<!-- /fact --> white cards

Only the text between the markers is rewritten. ``tests/test_docs.py`` runs the check, so a doc
whose number no longer matches the code fails the suite; ``python -m tools.docfacts`` fixes it.
Every fact a doc may name is in :data:`FACTS`; an unknown name fails the check too, so a typo
cannot hide a stale number. A generated block (a list or table on lines of its own) is marked the
same way, ``<!-- block:commands -->`` … ``<!-- /block -->``, and written from :data:`BLOCKS`
(README.md's command list and settings table, from ``tools/doclists.py``). The benchmark figures
have their own generator (``python -m bench.docs``): they come from a measurement, not the code.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from bot.core.days.reminder_policy import DEFAULT_INTERVAL
from bot.core.play.ai_moves import PLUGIN_STRIKES
from bot.core.play.plugins import MAX_WORKERS, PLUGIN_BUDGET_S, PLUGIN_MEMORY_BYTES
from bot.core.records import history, ladder
from bot.core.records.ratings import PROVISIONAL_GAMES
from engine.cards import Colour, PuzzleCard
from engine.catalogue import load_catalogue
from engine.sweep import GAMES_PER_TABLE, tables

from . import doclists

ROOT = Path(__file__).resolve().parent.parent
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "engine" / "data" / "README.md")
FACT = re.compile(r"<!-- fact:(?P<name>[a-z0-9_]+) -->(?P<value>.*?)<!-- /fact -->", re.DOTALL)
BLOCK = re.compile(r"<!-- block:(?P<name>[a-z0-9_]+) -->\n(?P<value>.*?)\n?<!-- /block -->", re.DOTALL)


@cache
def _cards() -> tuple[PuzzleCard, ...]:
    return load_catalogue().cards


def _count(colour: Colour | None = None, expansion: str | None = "any") -> str:
    cards = [c for c in _cards() if (colour is None or c.colour is colour)
             and (expansion == "any" or c.expansion == expansion)]
    return f"{len(cards):,}"


FACTS: dict[str, Callable[[], str]] = {
    "catalogue_cards": lambda: _count(),
    "base_white": lambda: _count(Colour.WHITE, None),
    "base_black": lambda: _count(Colour.BLACK, None),
    "ghost_white": lambda: _count(Colour.WHITE, "ghost"),
    "ghost_black": lambda: _count(Colour.BLACK, "ghost"),
    "sweep_tables": lambda: f"{len(tables()):,}",
    "sweep_games_per_table": lambda: f"{GAMES_PER_TABLE:,}",
    "plugin_budget_s": lambda: f"{PLUGIN_BUDGET_S:g}",
    "plugin_strikes": lambda: f"{PLUGIN_STRIKES}",
    "plugin_workers": lambda: f"{MAX_WORKERS}",
    "plugin_memory_gib": lambda: f"{PLUGIN_MEMORY_BYTES / 2**30:g}",
    "reminder_interval_hours": lambda: f"{DEFAULT_INTERVAL.total_seconds() / 3600:g}",
    "log_page_size": lambda: f"{history.PAGE_SIZE}",
    "ladder_page_size": lambda: f"{ladder.PAGE_SIZE}",
    "provisional_games": lambda: f"{PROVISIONAL_GAMES}",
}
"""Every fact a doc may state, by name: a function of the code that gives its text."""
BLOCKS: dict[str, Callable[[], str]] = {
    "commands": doclists.command_list,
    "settings": doclists.settings_table,
}
"""Every generated block a doc may hold, by name: a function of the code that gives its lines."""


def facts_in(text: str) -> list[tuple[str, str]]:
    """The ``(name, stated value)`` of every marked fact in ``text``."""
    return [(m["name"], m["value"]) for m in FACT.finditer(text)]


def rewrite(text: str) -> str:
    """``text`` with every marked fact and block set to what the code says now (unknown names kept)."""
    def current(match: re.Match[str]) -> str:
        produce = FACTS.get(match["name"])
        value = match["value"] if produce is None else produce()
        return f"<!-- fact:{match['name']} -->{value}<!-- /fact -->"

    def current_block(match: re.Match[str]) -> str:
        produce = BLOCKS.get(match["name"])
        value = match["value"] if produce is None else produce()
        return f"<!-- block:{match['name']} -->\n{value}\n<!-- /block -->"

    return BLOCK.sub(current_block, FACT.sub(current, text))


def stale(paths: tuple[Path, ...] = DOCS) -> list[str]:
    """One line per fact that is unknown or no longer what the code says."""
    problems = []
    for path in paths:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for name, value in facts_in(text):
            if name not in FACTS:
                problems.append(f"{where}: unknown fact {name!r} (tools/docfacts.py FACTS)")
            elif value != FACTS[name]():
                problems.append(f"{where}: {name} says {value!r}, the code says {FACTS[name]()!r}")
        for match in BLOCK.finditer(text):
            if match["name"] not in BLOCKS:
                problems.append(f"{where}: unknown block {match['name']!r} (tools/docfacts.py BLOCKS)")
            elif match["value"] != BLOCKS[match["name"]]():
                problems.append(f"{where}: the {match['name']} block is not what the code gives "
                                "(python -m tools.docfacts)")
    return problems + doclists.undescribed_settings()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.docfacts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report stale facts, change nothing")
    args = parser.parse_args(argv)
    problems = stale()
    if args.check:
        print("\n".join(problems) or "every fact is current")
        return 1 if problems else 0
    for path in DOCS:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if rewrite(text) != text:
                path.write_text(rewrite(text), encoding="utf-8")
                print(f"rewrote {path.relative_to(ROOT)}")
    unknown = stale()
    print("\n".join(unknown) or "every fact is current")
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main())
