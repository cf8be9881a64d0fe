"""The bot's garbage-collector settings (bot/core/collector.py): the thresholds are set and the
start-up objects frozen only in a process that asked for it (the bot, the benches), never in a
test process that starts many bots."""

from __future__ import annotations

import gc

import pytest

from bot.core import collector


def test_freeze_does_nothing_unless_the_collector_was_tuned(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(collector, "_tuned", False)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    assert collector.freeze_startup() == 0
    assert calls == []


def test_tuned_collector_sets_thresholds_then_freezes(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    monkeypatch.setattr(collector, "_tuned", False)
    monkeypatch.setattr(gc, "set_threshold", lambda *t: calls.append(t))
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 123)
    collector.tune_collector()
    assert collector.tuned()
    assert collector.freeze_startup() == 123
    assert calls == [(collector.YOUNG_THRESHOLD, *collector.OLDER_THRESHOLDS), "collect", "freeze"]


def test_the_bot_entry_point_tunes_the_collector() -> None:
    """``python -m bot`` tunes it before anything else is built (the ready bot then freezes)."""
    source = open("bot/__main__.py", encoding="utf-8").read()
    main = source[source.index("def main("):]
    assert main.index("tune_collector()") < main.index("Settings.from_env()")
