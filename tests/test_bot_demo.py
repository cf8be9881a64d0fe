"""``python -m bot.demo`` (``make demo``): the requested game, and a Finesse table beside it whose
players earn credits and insert, each written as players would see it (table images, mats,
results, the log)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot import demo


def test_the_finesse_demo_table_earns_credits_and_inserts(tmp_path: Path) -> None:
    out = tmp_path / demo.FINESSE_FOLDER
    log = asyncio.run(demo.play(out, players=demo.FINESSE_PLAYERS, seed=demo.FINESSE_SEED,
                                finesse=True, quiet=True))
    text = log.read_text(encoding="utf-8")
    assert text.startswith("Project L demo: base game with Finesse")
    assert ": insert\n" in text and "paid 2 credits to insert an extra action" in text
    assert "+1 credit: " in text and "(Finesse: " in text
    assert "Replay of the stored log matches the stored state: True" in text
    for name in ("turn-000.png", "turn-001.png", "mat-1.png", "mat-2.png", "results.png", "recap.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    assert b"acTL" in (out / "recap.png").read_bytes()  # the recap is animated, a frame per round


def _recorded(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    async def fake_play(out: Path, **kwargs: Any) -> Path:
        calls.append({"out": out, **kwargs})
        return out / "log.txt"

    monkeypatch.setattr(demo, "play", fake_play)
    return calls


def test_the_demo_writes_a_finesse_table_alongside_the_requested_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _recorded(monkeypatch)
    assert demo.main(["--out", str(tmp_path)]) == 0
    requested, finesse = calls
    assert requested["out"] == tmp_path and not requested["finesse"]
    assert finesse["out"] == tmp_path / demo.FINESSE_FOLDER and finesse["finesse"]
    assert (finesse["players"], finesse["seed"]) == (demo.FINESSE_PLAYERS, demo.FINESSE_SEED)


def test_single_and_finesse_write_only_the_requested_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _recorded(monkeypatch)
    demo.main(["--out", str(tmp_path), "--single"])
    demo.main(["--out", str(tmp_path), "--finesse", "--players", "4"])
    assert [(c["finesse"], c["players"]) for c in calls] == [(False, 3), (True, 4)]


def test_the_demo_log_reads_as_players_would_read_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31, item 16: a Line Clear demo is called that, its first seat is a name (not "You
    (policy)"), final scores have no "puzzle(s)" or "-0 unfinished", and the count of table images
    it reports is the count it wrote."""
    out = tmp_path / "lc"
    log = asyncio.run(demo.play(out, players=5, seed=4))
    text = log.read_text()
    assert text.startswith("Project L demo: Line Clear game, seed 4")
    assert "You (policy)" not in text and demo.HOST_NAME in text
    assert "puzzle(s)" not in text and "-0 " not in text
    assert re.search(r"from \d+ puzzles?\b", text)
    written = len(list(out.glob("turn-*.png")))
    assert f"Wrote {written} table images" in capsys.readouterr().out
