"""The bot's garbage-collector settings (bot/core/rendering/collector.py): the thresholds are set and the
start-up objects frozen only in a process that asked for it (the bot, the benches), never in a
test process that starts many bots."""

from __future__ import annotations

import gc

import pytest

from bot.core.rendering import collector


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


def test_a_job_worker_collects_between_jobs_what_cpython_would_have(monkeypatch: pytest.MonkeyPatch) -> None:
    """A render worker: automatic collections off after its start-up is frozen; between jobs
    the oldest generation whose count reached its threshold is collected (with the younger ones)."""
    calls: list[object] = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(("collect", *a)) or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "disable", lambda: calls.append("disable"))
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 7)
    assert collector.collect_between_jobs() == 7
    assert calls == [("collect",), "freeze", "disable"]
    monkeypatch.setattr(gc, "get_threshold", lambda: (2000, 10, 10))
    for counts, due in (((1999, 9, 9), -1), ((2000, 3, 0), 0), ((2500, 10, 4), 1), ((2000, 10, 10), 2),
                        ((10, 10, 10), -1)):
        calls.clear()
        monkeypatch.setattr(gc, "get_count", lambda counts=counts: counts)
        assert collector.collect_if_due() == due
        assert calls == ([] if due < 0 else [("collect", due)])
