"""The strong policy's bench figures: every game is a job in a fixed, interleaved order, and
``python -m engine bench`` reports the four issue figures with their budgets (the games
themselves are too long for the suite: a fake ``bench_strong`` stands in for them here)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from engine import bench
from engine.__main__ import main
from engine.bench_strong import interleaved
from engine.state import Difficulty


def test_jobs_take_turns_between_opponents_and_difficulties() -> None:
    jobs = interleaved(3, 2, seed=10)
    assert len(jobs) == 2 * 3 + len(Difficulty) * 2
    assert len(set(jobs)) == len(jobs)
    first_round = [opponent for opponent, _, _ in jobs[:5]]
    assert first_round == ["greedy", "tuned", *(d.value for d in Difficulty)]
    assert all(seed == 10 + index for _, index, seed in jobs)
    # Seats alternate within each opponent: game i seats the strong policy at i % 2.
    assert [index for opponent, index, _ in jobs if opponent == "tuned"] == [0, 1, 2]


def _make_bench_arguments() -> list[str]:
    """The arguments ``make bench`` gives ``python -m engine bench`` (read from the Makefile, so
    the test follows it: 400 games per opponent, seats alternating, two workers)."""
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    line = next(row for row in makefile.splitlines() if "-m engine bench" in row)
    words = shlex.split(line.split("-m engine", 1)[1].split("||", 1)[0])
    assert words[0] == "bench"
    return words


def _fake_figures(games: int, solo_games: int, *, workers: int, seed: int) -> dict[str, Any]:
    assert (games, solo_games, workers) == (400, 134, 2)
    return {
        "strong_vs_greedy_2p": 0.88, "strong_vs_tuned_greedy_2p": 0.74, "strong_decision_p95_s": 0.3,
        "strong_decision_mean_s": 0.1, "strong_solo_win_rate": {d.value: 0.5 for d in Difficulty},
        "strong_mean_margin": {"greedy": 9.0}, "strong_games": {"greedy": 400}, "strong_decisions": 9000,
    }


def test_bench_reports_the_strong_figures_with_their_budgets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench, "RANDOM_GAMES", 2)
    monkeypatch.setattr(bench, "GREEDY_GAMES", 1)
    monkeypatch.setattr(bench, "bench_strong", _fake_figures)
    code = main([*_make_bench_arguments(), "--solo-games", "2"])
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    budgets = last["budgets"]
    assert budgets["strong_vs_greedy_2p"] == {"value": 0.88, "limit": ">=", "budget": 0.85, "ok": True}
    assert budgets["strong_vs_tuned_greedy_2p"] == {"value": 0.74, "limit": ">=", "budget": 0.75, "ok": False}
    assert budgets["strong_decision_p95_s"] == {"value": 0.3, "limit": "<=", "budget": 0.5, "ok": True}
    assert last["strong_solo_win_rate"] == {d.value: 0.5 for d in Difficulty}
    assert all(last[f"strong_solo_win_rate_{d.value}"] == 0.5 for d in Difficulty)
    assert not last["within_budget"] and code == 1  # the missed figure fails the bench
