"""The suites of ``python -m bench``: the strong policy's games as jobs in a fixed, interleaved
order, the engine suite's and the AI suite's figures and budgets (the strong games themselves are
too long for the suite: fakes stand in for them), and the groups ``make bench`` runs."""

from __future__ import annotations

import ast
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import ai, expert, hints, ladder, league
from bench import docs as bench_docs
from bench import engine as engine_suite
from bench import ratings as bench_ratings
from bench.__main__ import GROUPS, main
from bench.budgets import AI_SUITES, QUICK_SUITES, SCALE_SUITES
from bench.report import BenchReport
from bench.strong import StrongGames, interleaved
from engine.policies import ExpertPolicy
from engine.state import Difficulty
from engine.sweep import EXPERT_SWEEP_BUDGET

ROOT = Path(__file__).resolve().parent.parent


def test_jobs_take_turns_between_opponents_and_difficulties() -> None:
    jobs = interleaved(3, 2, seed=10)
    assert len(jobs) == 2 * 3 + len(Difficulty) * 2
    assert len(set(jobs)) == len(jobs)
    first_round = [opponent for opponent, _, _ in jobs[:5]]
    assert first_round == ["greedy", "tuned", *(d.value for d in Difficulty)]
    assert all(seed == 10 + index for _, index, seed in jobs)
    # Seats alternate within each opponent: game i seats the strong policy at i % 2.
    assert [index for opponent, index, _ in jobs if opponent == "tuned"] == [0, 1, 2]
    assert {opponent for opponent, _, _ in interleaved(2, 0, seed=0, opponents=("greedy",))} == {"greedy"}


def _fake_strength(games: int, solo_games: int, *, workers: int, seed: int) -> dict[str, Any]:
    assert (games, solo_games, workers) == (ai.STRONG_GAMES, ai.STRONG_SOLO_GAMES, 2)
    return {
        "strong_vs_greedy_2p": 0.88, "strong_vs_tuned_greedy_2p": 0.74, "strong_decision_p95_s": 0.3,
        "strong_decision_mean_s": 0.1, "strong_solo_win_rate": {d.value: 0.5 for d in Difficulty},
        "strong_mean_margin": {"greedy": 9.0}, "strong_games": {"greedy": 400}, "strong_decisions": 9000,
    }


def _fake_tables(games: int, *, workers: int) -> StrongGames:
    assert (games, workers) == (ai.EXPERT_TABLE_GAMES, 2)
    rates = {"3p": 0.7, "4p": 0.55, "normal": 0.8, "unbeatable": 0.1}
    return StrongGames(results={kind: [(rate, 3.0, [0.1])] for kind, rate in rates.items()})


def test_an_expert_table_game_seats_the_expert_in_turn_and_counts_its_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One real 3-player game (index 1: the expert in seat 1; it wins this deal) and one Solo game
    (lost), played out. The expert searches on the sweep's small budget: the seating and the
    counting are the same code at any budget, and the bench's full one costs ten times the CPU."""
    monkeypatch.setattr(expert, "ExpertPolicy", functools.partial(ExpertPolicy, **EXPERT_SWEEP_BUDGET))
    result, margin, times = expert.play_table(("3p", 1, 2_000_004))
    assert result == 1.0 and margin >= 0
    assert (result > 0) == (margin >= 0) and times
    solo, _, _ = expert.play_table(("normal", 0, 2_000_000))
    assert solo in (0.0, 1.0)


def _fake_hints(count: int) -> dict[str, float]:
    return {"hint_regret_over_2": 2, "hint_regret_mean": 0.3, "hint_regret_max": 4.5, "hint_positions": count}


def test_the_hint_bench_measures_the_regret_of_real_hints_on_fixed_positions() -> None:
    """Two positions, really searched: the regret is a reference's value gap, never negative, and
    the positions are the same on every run (fixed deals)."""
    found = hints.positions(2)
    assert found == hints.positions(2) and all(s.actions_left == 3 and not s.is_over for s in found)
    figures = hints.bench_hints(2)
    assert figures["hint_positions"] == 2 and 0 <= figures["hint_regret_over_2"] <= 2
    assert 0.0 <= figures["hint_regret_mean"] <= figures["hint_regret_max"]


def test_ai_bench_reports_the_strength_figures_with_their_budgets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``make bench-ai`` plays 400 games per opponent and 134 Solo games per difficulty on two
    workers (the suite's defaults); a missed strength budget fails it."""
    monkeypatch.setattr(ai, "bench_strong", _fake_strength)
    monkeypatch.setattr(ai, "bench_ladder", _fake_ladder)
    monkeypatch.setattr(ai, "bench_hints", _fake_hints)
    monkeypatch.setattr(ai, "expert_tables", _fake_tables)
    monkeypatch.setattr(ai, "bench_league", _fake_league)
    code = ai.main(["--solo-games", "2", "--workers", "2"])
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    budgets = last["budgets"]
    assert budgets["hint_regret_over_2"] == {"value": 2, "limit": "<=", "budget": 3, "ok": True}
    assert last["hint_positions"] == ai.HINT_POSITIONS and last["hint_regret_max"] == 4.5
    assert budgets["expert_share_3p"] == {"value": 0.7, "limit": ">=", "budget": 0.66, "ok": True}
    assert budgets["expert_share_4p"]["ok"] and not budgets["expert_solo_win_rate_unbeatable"]["ok"]
    assert last["expert_table_mean_margin"]["normal"] == 3.0
    assert budgets["strong_vs_greedy_2p"] == {"value": 0.88, "limit": ">=", "budget": 0.85, "ok": True}
    assert budgets["strong_vs_tuned_greedy_2p"] == {"value": 0.74, "limit": ">=", "budget": 0.75, "ok": False}
    assert budgets["strong_decision_p95_s"] == {"value": 0.3, "limit": "<=", "budget": 0.5, "ok": True}
    assert last["strong_solo_win_rate"] == {d.value: 0.5 for d in Difficulty}
    assert all(last[f"strong_solo_win_rate_{d.value}"] == 0.5 for d in Difficulty)
    assert set(last["solo_greedy_win_rate"]) == {d.value for d in Difficulty}
    assert all(len(pair) == 2 for pair in last["solo_greedy_mean_scores"].values())
    assert budgets["ladder_medium_vs_greedy_2p"] == {"value": 0.6, "limit": "within", "budget": [0.65, 0.85],
                                                     "ok": False}
    assert budgets["ladder_strong_vs_medium_2p"]["ok"] and budgets["ladder_expert_vs_strong_2p"]["ok"]
    # The Expert against every other league member, whichever side of the pairing it is named on.
    assert budgets["league_expert_vs_greedy_2p"] == {"value": 0.9, "limit": ">=", "budget": 0.75, "ok": True}
    assert budgets["league_expert_vs_hoarder_2p"] == {"value": 0.7, "limit": ">=", "budget": 0.75,
                                                      "ok": False}
    assert {f"league_expert_vs_{m}_2p" for m in league.MEMBERS if m != "expert"} <= set(budgets)
    assert not last["within_budget"] and code == 1  # the missed figure fails the bench


def _fake_league(games: int, members: tuple[str, ...], *, workers: int, seed: int,
                 involving: str | None) -> dict[str, Any]:
    assert (games, workers, involving) == (ai.LEAGUE_AI_GAMES, 2, "expert")
    rows = {pairing: {"share": 0.1 if pairing.startswith("greedy") else 0.7 if "hoarder" in pairing else 0.8,
                      "games": games, "margin": 1.0} for pairing in league.pairings(members, "expert")}
    return {"pairings": rows, "first_seed": league.LEAGUE_SEED}


def _fake_ladder(games: int, *, workers: int, seed: int) -> dict[str, Any]:
    assert (games, workers) == (ladder.LADDER_GAMES, 2)
    return {"ladder_medium_vs_greedy_2p": 0.6, "ladder_strong_vs_medium_2p": 0.7,
            "ladder_expert_vs_strong_2p": 0.8, "ladder_mean_margin": {}, "ladder_games": {},
            "ladder_first_seed": ladder.LADDER_SEED}


def test_ladder_games_alternate_seats_on_held_out_deals() -> None:
    """Game i of each pair is dealt from 1,000,000 + i (seeds no tuning played), the pairs in turn."""
    jobs = ladder.ladder_jobs(3, seed=0)
    assert [pair for pair, _, _ in jobs[:3]] == list(ladder.PAIRS)
    assert all(seed == ladder.LADDER_SEED + index for _, index, seed in jobs)
    assert [index for pair, index, _ in jobs if pair == "expert_vs_strong"] == [0, 1, 2]


def test_ai_bench_plays_the_ladder_into_its_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real path from games to the JSON keys, on two games per pair; greedy against random
    stands in for each pair (a real Expert game takes half a minute)."""
    monkeypatch.setattr(ladder, "PAIRS", {pair: ("greedy", "random") for pair in ladder.PAIRS})
    code = ai.main(["--solo-games", "0", "--strong-games", "0", "--strong-solo-games", "0",
                    "--ladder-games", "2", "--workers", "1", "--expert-table-games", "0",
                    "--hint-positions", "0", "--league-games", "0"])
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for key in ("ladder_medium_vs_greedy_2p", "ladder_strong_vs_medium_2p", "ladder_expert_vs_strong_2p"):
        assert 0.0 <= last[key] <= 1.0
        assert last["budgets"][key]["limit"] == "within" and last["budgets"][key]["budget"] == [0.65, 0.85]
    assert last["ladder_games"] == {pair: 2 for pair in ladder.PAIRS}
    assert last["ladder_first_seed"] == 1_000_000
    assert code == 1  # the skipped strong games leave their budgets unmeasured


def _fake_games(games: int, solo_games: int, *, workers: int, seed: int,
                opponents: tuple[str, ...]) -> StrongGames:
    assert opponents == ("greedy",) and solo_games == 0
    times = [0.01 * i for i in range(1, 101)]
    return StrongGames(results={"greedy": [(1.0, 5.0, times)] * games})


def _fake_expert_games(games: int, *, workers: int, seed: int) -> StrongGames:
    times = [0.002 * i for i in range(1, 101)]
    return StrongGames(results={"strong": [(1.0, 4.0, times), (0.0, -2.0, times)] * (games // 2),
                                "greedy": [(1.0, 6.0, times)] * games})


def test_engine_bench_is_speed_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quick engine suite's JSON holds exactly the documented keys (tiny run): speed, the
    strong and expert decision percentiles over the searches of a few games, and the expert's
    win shares of those few games, with no budget (a smoke figure: the full count is a flag)."""
    monkeypatch.setattr(engine_suite, "RANDOM_GAMES", 2)
    monkeypatch.setattr(engine_suite, "GREEDY_GAMES", 1)
    monkeypatch.setattr(engine_suite, "REFERENCE_LOOPS", 1000)
    monkeypatch.setattr(engine_suite, "strong_games", _fake_games)
    monkeypatch.setattr(engine_suite, "expert_games", _fake_expert_games)
    code = engine_suite.main(["--strong-games", "3", "--expert-games", "2"])
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(last) == {
        "reference_loop_ms", "placements_ms", "random_actions_per_s", "random_games_per_s",
        "greedy_2p_game_s", "random_6p_line_clear_actions_per_s", "strong_decision_p95_s",
        "strong_decisions", "expert_decision_p95_s", "expert_vs_strong_2p", "expert_vs_greedy_2p",
        "expert_games", "expert_mean_margin", "budgets", "within_budget",
    }
    assert last["strong_decisions"] == 300 and last["strong_decision_p95_s"] == 0.96
    assert last["expert_vs_strong_2p"] == 0.5 and last["expert_vs_greedy_2p"] == 1.0
    assert last["expert_decision_p95_s"] == 0.192 and last["expert_games"] == {"strong": 2, "greedy": 2}
    assert set(last["budgets"]) == {
        "placements_ms", "random_actions_per_s", "strong_decision_p95_s", "expert_decision_p95_s",
    }
    assert code == (0 if last["within_budget"] else 1)  # speed is the bench's verdict, not the test's


def test_engine_bench_without_its_strong_games_misses_that_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine_suite, "RANDOM_GAMES", 1)
    monkeypatch.setattr(engine_suite, "GREEDY_GAMES", 1)
    assert engine_suite.main(["--strong-games", "0", "--expert-games", "0"]) == 1
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["budgets"]["strong_decision_p95_s"]["value"] is None
    assert last["budgets"]["expert_decision_p95_s"]["value"] is None


def test_a_bad_catalogue_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for suite in (engine_suite, ai):
        with pytest.raises(SystemExit) as stop:
            suite.main(["--catalogue", str(tmp_path / "missing.json")])
        assert stop.value.code == 2
        err = capsys.readouterr().err.strip()
        assert "cannot read catalogue file" in err and len(err.splitlines()) == 1


def test_groups_run_every_suite_in_its_own_process_and_fail_after_all(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m bench`` is the quick bench; ``full`` adds the AI and scale benches; a suite
    that misses a budget does not stop the ones after it, and the group exits 1."""
    assert GROUPS == {"quick": QUICK_SUITES, "full": QUICK_SUITES + AI_SUITES + SCALE_SUITES}
    ran: list[list[str]] = []

    def fake_run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        ran.append(command[1:])
        return subprocess.CompletedProcess(command, 1 if command[-1] == "engine" else 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    assert main([]) == 1
    assert ran == [["-m", "bench", suite] for suite in QUICK_SUITES]
    assert "missed (or a failure) in: engine" in capsys.readouterr().out
    ran.clear()
    assert main(["full"]) == 1
    assert [command[-1] for command in ran] == [*QUICK_SUITES, *AI_SUITES, *SCALE_SUITES]


def test_an_unknown_suite_is_refused() -> None:
    done = subprocess.run([sys.executable, "-m", "bench", "nonsense"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "usage: python -m bench" in done.stderr and "Traceback" not in done.stderr


def make_commands(target: str, *assignments: str) -> str:
    """What ``make <target>`` would run (``make -n``), the venv and the interpreter's detection left
    out (``STAMP=``, ``PYTHON=true``) so that nothing but the target's recipe is printed."""
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    return subprocess.run(["make", "-n", "-s", target, "STAMP=", "PYTHON=true", "PY=python", *assignments],
                          cwd=ROOT, env={**os.environ, "PYENV_VERSION": "system"}, capture_output=True,
                          text=True, check=True).stdout


def test_make_runs_the_groups() -> None:
    """``make bench`` is the quick group (``FULL=1``: all), ``make bench-ai`` the AI suite,
    ``make bench-scale`` the shard bench."""
    assert "python -m bench quick " in make_commands("bench")
    assert "python -m bench full " in make_commands("bench", "FULL=1")
    assert "python -m bench ai " in make_commands("bench-ai")
    assert "python -m bench scale " in make_commands("bench-scale")


def test_only_make_bench_docs_names_a_document() -> None:
    """Issue 47: the bench targets save into the git-ignored folder (bench.docs.RESULTS) and print;
    ``make bench-docs`` alone writes docs/benchmarks.md."""
    for target in ("bench", "bench-ai", "bench-scale"):
        commands = make_commands(target)
        assert f"PROJECTL_BENCH_DIR={bench_docs.RESULTS.name} " in commands, commands
        assert "--doc" not in commands and "docs/" not in commands, commands
    published = make_commands("bench-docs")
    assert "python -m bench.docs --results bench-output --doc docs/benchmarks.md" in published


def test_the_engine_and_the_renderer_never_import_the_benches() -> None:
    """The benches measure engine/ and renders/ from outside (bench/): never the other way."""
    for package in ("engine", "renders"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                else:
                    continue
                assert not any(name == "bench" or name.startswith("bench.") for name in names), path


def test_the_rating_figures_rate_one_game_again_and_again() -> None:
    """bench.ratings re-rates one finished game 40 times, taking its judged rows away each time:
    every table the rating step writes to (``rating_order`` too, migration 0020), or the quick
    bench's bot suite stops there with an IntegrityError."""
    report = BenchReport("bot")
    bench_ratings.quick_cases(report)
    figures = {case.key: case.value for case in report.cases}
    assert figures["rating_update_ms"] > 0 and figures["replay_step_p95_ms"] > 0 and figures["recap_mb"] > 0
