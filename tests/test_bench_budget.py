"""The budget mechanism every bench reports through (bench.report, the registry bench.budgets) and
the docs it regenerates (bench.docs)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench import docs
from bench.budgets import AI_SUITES, BUDGETS, QUICK_SUITES, SCALE_SUITES, at_least, at_most, within
from bench.report import RESULTS_DIR_VARIABLE, BenchReport, discard_saved

ROOT = Path(__file__).resolve().parent.parent

DEMO = {
    "fast_ms": at_most(10, "speed", "demo", why="a fast thing"),
    "edge_ms": at_most(10, "speed", "demo", why="an edge"),
    "rate_per_s": at_least(10_000, "speed", "demo", why="a rate"),
}


def test_figures_pass_and_miss_against_their_registered_budgets(capsys: pytest.CaptureFixture[str]) -> None:
    report = BenchReport("demo", budgets=DEMO)
    report.add("fast_ms", 9.5, label="fast thing", unit="ms")
    report.add("edge_ms", 10.0, label="edge", unit="ms")
    report.add("rate_per_s", 9_000, label="rate", unit="actions/s", note="40 games")
    report.add("size_kb", 70.0, label="unbudgeted", unit="KB")
    report.info("count", 3)
    assert [c.key for c in report.missed] == ["rate_per_s"]
    assert report.finish() == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.strip().startswith("PASS  fast thing: 9.50 ms   budget <= 10") for line in out)
    assert any(line.strip() == "MISS  rate: 9,000 actions/s   budget >= 10,000 actions/s  (40 games)"
               for line in out)
    last = json.loads(out[-1])
    assert last["fast_ms"] == 9.5 and last["size_kb"] == 70.0 and last["count"] == 3
    assert last["within_budget"] is False
    assert last["budgets"]["rate_per_s"] == {"value": 9000, "limit": ">=", "budget": 10000, "ok": False}
    assert set(last["budgets"]) == {"fast_ms", "edge_ms", "rate_per_s"}


def test_all_budgets_met_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    report = BenchReport("demo", budgets={"a": at_most(2, "speed", "demo", why="a")})
    report.add("a", 1.0, label="a")
    assert report.finish() == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["within_budget"] is True


def test_a_budget_the_suite_never_recorded_is_missed(capsys: pytest.CaptureFixture[str]) -> None:
    """Dropping a measurement cannot silently drop its budget: the suite fails, naming it."""
    report = BenchReport("demo", budgets=DEMO)
    report.add("fast_ms", 1.0, label="fast thing", unit="ms")
    assert report.finish() == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.strip().startswith("MISS  an edge: not measured") for line in out)
    last = json.loads(out[-1])
    assert last["budgets"]["edge_ms"] == {"value": None, "limit": "<=", "budget": 10, "ok": False}
    assert "edge_ms" not in last  # no figure invented for it


def test_a_figure_has_one_entry_and_its_budget_one_suite() -> None:
    report = BenchReport("demo", budgets=DEMO)
    report.add("a", 1.0, label="a")
    with pytest.raises(ValueError):
        report.add("a", 2.0, label="a again")
    with pytest.raises(ValueError, match="belongs to demo"):
        BenchReport("other", budgets=DEMO).add("fast_ms", 1.0, label="fast thing")


def test_the_quick_bench_checks_every_speed_size_and_memory_budget() -> None:
    """Issue 25: ``make bench`` (the quick suites) holds every budget that is not about strength,
    ``make bench-ai`` the strength ones, ``make bench-scale`` the one that needs a PostgreSQL
    server (issue 30); every budget names a suite that exists."""
    for key, budget in BUDGETS.items():
        assert budget.suites and set(budget.suites) <= set(QUICK_SUITES + AI_SUITES + SCALE_SUITES), key
        if budget.kind == "strength":
            assert set(budget.suites) <= set(AI_SUITES), key
        elif set(budget.suites) <= set(SCALE_SUITES):
            assert key == "postgresql_2_speedup", key  # the quick bench cannot count on a server
        else:
            assert set(budget.suites) & set(QUICK_SUITES), key


def _save(name: str, key: str, value: float) -> None:
    report = BenchReport(name, budgets=DEMO)
    report.add(key, value, label=f"{name} figure", unit="ms", note="12 samples")
    report.finish()


def test_saved_reports_regenerate_their_own_blocks_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each suite has its own block: a run of one bench leaves the other's figures in place."""
    doc = tmp_path / "benchmarks.md"
    blocks = "\n\n".join(f"{docs.begin(s)}\nold {s} figures\n{docs.end(s)}" for s in ("engine", "bot", "ai"))
    doc.write_text(f"# Benchmarks\n\nintro\n\n{blocks}\n\n## After\nkept\n")
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path / "quick"))
    _save("bot", "x_ms", 11.0)
    _save("engine", "rate", 12_345)
    capsys.readouterr()
    assert docs.main(["--results", str(tmp_path / "quick"), "--doc", str(doc)]) == 0
    text = doc.read_text()
    assert "old engine figures" not in text and "old bot figures" not in text
    assert "old ai figures" in text  # the AI bench did not run: its figures stay
    assert text.startswith("# Benchmarks\n\nintro") and text.endswith("kept\n")
    assert "`python -m bench engine` on " in text and "cores" in text
    assert "| engine figure (`rate`) | **12,345 ms** | — |  | 12 samples |" in text
    assert text.index("engine figure") < text.index("bot figure")  # the document's order is kept
    again = text
    for report in docs.load_reports(tmp_path / "quick"):
        again = docs.rewrite(again, docs.section(report), report["bench"])
    assert again == text  # regenerating is idempotent


def test_a_budgeted_row_shows_its_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path))
    report = BenchReport("demo", budgets=DEMO)
    report.add("fast_ms", 11.0, label="fast thing", unit="ms", note="300 actions")
    report.finish()
    capsys.readouterr()
    block = docs.section(docs.load_reports(tmp_path)[0])
    assert "| fast thing (`fast_ms`) | **11 ms** | ≤ 10 ms | ✘ missed | 300 actions |" in block
    assert "| an edge (`edge_ms`) | not measured | ≤ 10 | ✘ missed |" in block


def _tracked_changes() -> str:
    """``git status --porcelain`` of the checkout (the test is skipped outside a git checkout)."""
    done = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain"], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return done.stdout


def test_a_bench_run_writes_its_figures_outside_the_tracked_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 47: a suite's report and ``python -m bench.docs`` without ``--doc`` (what ``make bench``
    runs) write into the results folder only; docs/benchmarks.md changes only through ``--doc``."""
    before, document = _tracked_changes(), (ROOT / "docs" / "benchmarks.md").read_bytes()
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path))
    _save("bot", "x_ms", 11.0)
    capsys.readouterr()
    assert docs.main(["--results", str(tmp_path)]) == 0
    assert "| bot figure (`x_ms`) | **11 ms** |" in (tmp_path / docs.FIGURES).read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.json", docs.FIGURES]
    assert (ROOT / "docs" / "benchmarks.md").read_bytes() == document
    assert _tracked_changes() == before
    assert docs.RESULTS.is_relative_to(ROOT)
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", str(docs.RESULTS / "bot.json")])
    assert ignored.returncode == 0  # the Makefile's results folder is git-ignored


def test_a_new_run_discards_the_suites_earlier_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A suite that stops before saving leaves no stale figures for ``bench.docs`` to publish."""
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path))
    _save("bot", "x_ms", 11.0)
    _save("engine", "rate", 1.0)
    capsys.readouterr()
    discard_saved("bot")
    discard_saved("renders")  # never saved: nothing to do
    assert [r["bench"] for r in docs.load_reports(tmp_path)] == ["engine"]


def test_docs_refuses_an_empty_results_folder(tmp_path: Path) -> None:
    assert docs.main(["--results", str(tmp_path), "--doc", str(tmp_path / "x.md")]) == 2


RANGE = {"rate": within(0.65, 0.80, "strength", "demo", why="a ladder step")}


@pytest.mark.parametrize(("value", "ok"),
                         [(0.64, False), (0.65, True), (0.72, True), (0.80, True), (0.81, False)])
def test_a_range_budget_misses_on_either_side(value: float, ok: bool,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A ladder step that wins too often misses as surely as one that wins too rarely; both ends count."""
    report = BenchReport("demo", budgets=RANGE)
    report.add("rate", value, label="rate", note="200 games")
    assert report.finish() == (0 if ok else 1)
    out = capsys.readouterr().out.strip().splitlines()
    verdict = "PASS" if ok else "MISS"
    expected = f"{verdict}  rate: {value:.2f}   budget 0.65..0.80  (200 games)"
    assert any(line.strip() == expected for line in out)
    assert json.loads(out[-1])["budgets"]["rate"] == {"value": value, "limit": "within",
                                                      "budget": [0.65, 0.8], "ok": ok}


def test_a_range_budget_unmeasured_is_missed_and_its_docs_row_shows_the_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path))
    unmeasured = within(1, 2, "strength", "demo", why="unmeasured")
    report = BenchReport("demo", budgets={**RANGE, "other": unmeasured})
    report.add("rate", 0.9, label="rate", note="200 games")
    assert report.finish() == 1
    assert [c.key for c in report.missed] == ["rate", "other"]
    capsys.readouterr()
    block = docs.section(docs.load_reports(tmp_path)[0])
    assert "| rate (`rate`) | **0.9** | 0.65–0.8 | ✘ missed | 200 games |" in block
    assert "| unmeasured (`other`) | not measured | 1–2 | ✘ missed |" in block


def test_a_range_is_not_empty() -> None:
    with pytest.raises(ValueError, match="empty"):
        within(0.8, 0.65, "strength", "demo", why="backwards")
