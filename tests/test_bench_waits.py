"""``python -m bench waits`` (part of ``make bench``): its two budgets are recorded by the suite
and checked; the measurements themselves (fresh processes, busy cores) are faked here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import waits
from bench.budgets import BUDGETS, QUICK_SUITES, budgets_of


def test_the_suite_is_in_the_quick_bench_with_its_two_budgets() -> None:
    assert "waits" in QUICK_SUITES
    assert set(budgets_of("waits")) == {"first_table_after_start_ms", "ai_turn_busy_p95_s"}
    assert BUDGETS["first_table_after_start_ms"].value == 2000 and BUDGETS["ai_turn_busy_p95_s"].value == 3


def test_percentile_is_the_nearest_rank() -> None:
    assert waits.percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert waits.percentile([float(n) for n in range(1, 21)], 0.95) == 19.0
    assert waits.percentile([float(n) for n in range(1, 17)], 0.95) == 16.0
    assert waits.percentile([7.0], 0.95) == 7.0


@pytest.mark.parametrize(("turn_s", "ok"), [(2.4, True), (3.5, False)])
def test_the_report_holds_both_figures_against_their_budgets(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], turn_s: float, ok: bool,
) -> None:
    monkeypatch.setattr(waits, "first_tables", lambda starts: [900.0, 1200.0, 1000.0])

    async def turns(workdir: Path, count: int, **_: Any) -> list[float]:
        return [1.9] * (count - 1) + [turn_s]

    monkeypatch.setattr(waits, "ai_turns", turns)
    assert waits.main(["--turns", "10"]) == (0 if ok else 1)
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["first_table_after_start_ms"] == 1000.0
    assert last["ai_turn_busy_p95_s"] == turn_s
    assert last["within_budget"] is ok
