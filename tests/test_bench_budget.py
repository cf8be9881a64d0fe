"""The budget mechanism every bench reports through (engine.budget) and the docs it regenerates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import docs
from engine.budget import RESULTS_DIR_VARIABLE, BenchReport


def test_figures_pass_and_miss_against_their_budgets(capsys: pytest.CaptureFixture[str]) -> None:
    report = BenchReport("demo")
    report.add("fast_ms", 9.5, label="fast thing", unit="ms", at_most=10)
    report.add("edge_ms", 10.0, label="edge", unit="ms", at_most=10)
    report.add("rate_per_s", 9_000, label="rate", unit="actions/s", at_least=10_000)
    report.add("size_kb", 70.0, label="unbudgeted", unit="KB")
    report.info("count", 3)
    assert [c.key for c in report.missed] == ["rate_per_s"]
    assert report.finish() == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert any(line.strip().startswith("PASS  fast thing: 9.50 ms   budget <= 10") for line in out)
    assert any(line.strip().startswith("MISS  rate: 9,000 actions/s   budget >= 10,000") for line in out)
    last = json.loads(out[-1])
    assert last["fast_ms"] == 9.5 and last["size_kb"] == 70.0 and last["count"] == 3
    assert last["within_budget"] is False
    assert last["budgets"]["rate_per_s"] == {"value": 9000, "limit": ">=", "budget": 10000, "ok": False}
    assert set(last["budgets"]) == {"fast_ms", "edge_ms", "rate_per_s"}


def test_all_budgets_met_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    report = BenchReport("demo")
    report.add("a", 1.0, label="a", at_most=2)
    assert report.finish() == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["within_budget"] is True


def test_a_figure_has_one_budget_and_one_entry() -> None:
    report = BenchReport("demo")
    with pytest.raises(ValueError):
        report.add("a", 1.0, label="a", at_most=2, at_least=0)
    report.add("a", 1.0, label="a")
    with pytest.raises(ValueError):
        report.add("a", 2.0, label="a again")


def test_saved_reports_regenerate_the_docs_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(RESULTS_DIR_VARIABLE, str(tmp_path / "out"))
    for name, value in (("bot", 11.0), ("engine", 12_345)):
        report = BenchReport(name)
        report.add("x_ms" if name == "bot" else "rate", value, label=f"{name} figure", unit="ms",
                   at_most=12 if name == "bot" else None)
        report.finish()
    capsys.readouterr()
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\n\nintro\n\n{docs.BEGIN}\nold figures\n{docs.END}\n\n## After\nkept\n")
    assert docs.main(["--results", str(tmp_path / "out"), "--doc", str(doc)]) == 0
    text = doc.read_text()
    assert "old figures" not in text and text.startswith("# Benchmarks\n\nintro") and text.endswith("kept\n")
    assert "Measured on:" in text and "cores" in text
    engine_row = text.index("`python -m engine bench` | engine figure (`rate`) | **12,345 ms** | — |")
    bot_row = text.index("`python -m bench` | bot figure (`x_ms`) | **11 ms** | ≤ 12 ms | ✔ |")
    assert engine_row < bot_row  # engine, renders, then the bot, as make bench runs them
    again = docs.rewrite(text, docs.section(docs.load_reports(tmp_path / "out")))
    assert again == text  # regenerating is idempotent


def test_docs_refuses_an_empty_results_folder(tmp_path: Path) -> None:
    assert docs.main(["--results", str(tmp_path), "--doc", str(tmp_path / "x.md")]) == 2
