"""Edges of the command surface (issue 10, section 3): clients with an older command list,
numbers outside the ranges Discord enforces, and refusals that must not echo a huge input."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused

from bench.fuzz import FREE_TEXT_OPTIONS, STRING, leaves
from bench.harnessed import open_table, running, stale_slash
from bench.tables import snapshot
from bot.core.wording import texts


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "edges.sqlite3") as harness:
        yield harness


async def two_players(h: Any) -> tuple[Any, Any]:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    game = await open_table(h, alice, [bob])
    mover = alice if game.current.user_id == alice.id else bob
    return mover, (bob if mover is alice else alice)


async def test_an_old_command_list_gets_a_clear_answer(h: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Commands and options the bot no longer has (here: the paths from before the play/table
    groups, and a renamed option): the player is told the list changed, a WARNING without a
    traceback is logged, nothing changes."""
    mover, _ = await two_players(h)
    db = Path(h.bot.settings.db_path)
    before = snapshot(db)
    caplog.set_level(logging.WARNING)
    cases = [("projectl take", {"puzzle": "white 1"}), ("projectl level1", {}), ("projectl new", {}),
             ("projectl play take", {"slot": "white 1"}), ("projectl nonsense", {}), ("projectl play", {})]
    for path, options in cases:
        caplog.clear()
        assert_refused(await stale_slash(h, mover, "games", path, options), "command list has just changed")
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "stale" in r.message]
        assert len(warnings) == 1 and warnings[0].exc_info is None, path
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    ix = await stale_slash(h, mover, "games", "projectl take", {"puzzle": "wh"}, autocomplete="puzzle")
    assert ix.response is not None and ix.response.callback_type == 8 and ix.response.choices == []
    assert snapshot(db) == before


@pytest.mark.parametrize("seat", [0, -1, 3, 5, 2**53])
async def test_out_of_range_seat_numbers_are_refused(h: Any, seat: int) -> None:
    """Discord keeps `seat` within 1-4 for an up-to-date client; an old or tampered one may send
    anything, and seat 0 used to show the last seat's mat (Python's index -1)."""
    mover, _ = await two_players(h)
    ix = await stale_slash(h, mover, "games", "projectl mat", {"seat": seat})
    assert_refused(ix, "no seat", "1 to 2")
    assert len(ix.responses[-1].content) < 120


HUGE = {
    "projectl play act": {"text": "x" * 6000},
    "projectl play take": {"puzzle": "q" * 6000},
    "projectl play place": {"piece": "L" * 6000, "puzzle": "W01", "cells": "A1"},
    "projectl play upgrade": {"give": "9" * 6000, "take": "L3"},
    "projectl play recycle": {"row": "white", "order": "1 " * 3000},
    "projectl settings": {"timezone": "Europe/" + "z" * 5000},
}


@pytest.mark.parametrize("path", sorted(HUGE))
async def test_refusals_quote_only_a_short_prefix(h: Any, path: str) -> None:
    mover, _ = await two_players(h)
    reply = assert_refused(await h.slash(mover, "games", path, options=HUGE[path]))
    assert len(reply) < 300, reply  # the input is 6,000 characters: at most a short prefix is quoted
    assert texts.UNEXPECTED not in reply


async def test_no_text_option_echoes_a_huge_value(h: Any) -> None:
    """Every text option of every command (the synced list, so new ones are covered), given 6,000
    characters while the others hold plausible values: the answer quotes at most a short prefix,
    and it is never the apology for a bug."""
    mover, _ = await two_players(h)
    tried = 0
    for leaf in leaves(h.commands):
        required = [o for o in leaf.options if o.get("required")]
        if any(int(o["type"]) != STRING for o in required):
            continue  # a member or a number is needed too: covered by the tests above
        for option in leaf.options:
            if int(option["type"]) != STRING or option.get("choices") or option["name"] in FREE_TEXT_OPTIONS:
                continue
            values = {o["name"]: (o["choices"][0]["value"] if o.get("choices") else "1") for o in required}
            values[option["name"]] = "q" * 6000
            ix = await stale_slash(h, mover, "games", leaf.path, values)
            answers = [r.content or "" for r in ix.responses if not r.deferred]
            assert answers, (leaf.path, option["name"])
            assert all("q" * 30 not in text.lower() and text != texts.UNEXPECTED for text in answers), \
                (leaf.path, option["name"], answers[-1][:200])
            tried += 1
    assert tried >= 15


NUMBERS = [0, -1, 5, 169, 10**6, 2**53, -(2**53)]
"""Integers an old or tampered client can send where Discord's current ranges would not let it."""


@pytest.mark.parametrize("path,option", [
    ("projectl mat", "seat"), ("projectl log", "page"), ("projectl log", "game"),
    ("projectl settings", "interval_hours"), ("projectl table new", "players"),
    ("projectl table new", "turn_limit_days"), ("projectl table new", "reserve"),
])
async def test_numbers_outside_discords_ranges_are_refused(h: Any, path: str, option: str) -> None:
    """Every integer option, fed values outside its synced range: a clear private answer (never
    the apology for a bug), and nothing written unless the value is one the command accepts."""
    mover, _ = await two_players(h)
    db = Path(h.bot.settings.db_path)
    leaf = next(o for o in _leaf_options(h, path) if o["name"] == option)
    low, high = leaf.get("min_value"), leaf.get("max_value")
    choices = [c["value"] for c in leaf.get("choices") or []]
    for number in NUMBERS:
        legal = (low is None or number >= low) and (high is None or number <= high) and \
            (not choices or number in choices)
        if legal:
            continue
        before = snapshot(db)
        reply = assert_refused(await stale_slash(h, mover, "random", path, {option: number}))
        assert reply != texts.UNEXPECTED and len(reply) < 400, (path, option, number)
        assert snapshot(db) == before, (path, option, number)


def _leaf_options(h: Any, path: str) -> list[dict[str, Any]]:
    node: dict[str, Any] = next(c for c in h.commands if c["name"] == path.split()[0])
    for part in path.split()[1:]:
        node = next(o for o in node["options"] if o["name"] == part)
    return list(node.get("options") or [])
