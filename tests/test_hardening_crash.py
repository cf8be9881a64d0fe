"""Crashes: SIGKILL the playing process at random moments; nothing acknowledged is ever lost.

The short version of ``make soak`` (``python -m bench.soak --kills 50``): see bench/soak.py for
the fault script and bench/checks.py for what is checked after every kill. The checker itself is
tested too, so a soak that reports "ok" means something.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bench.checks import Ack, check_database
from bench.soak import run_soak
from bench.tables import open_manager, start_table, user_id

KILLS = 5


def test_survives_random_kills(tmp_path: Path) -> None:
    report = run_soak(KILLS, seed=11, workdir=tmp_path, channels=4, max_play_s=0.5, log=False)
    print(f"crash soak: {report}")
    assert report.problems == []
    assert report.survived == report.kills == KILLS
    assert report.acks > 0 and report.final_run_actions >= 4 * 4
    assert report.continued_games > 0
    assert sqlite3.connect(tmp_path / "soak.sqlite3").execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_postgresql_survives_random_kills(tmp_path: Path, postgres_url: str) -> None:
    report = run_soak(KILLS, seed=12, workdir=tmp_path, channels=4, max_play_s=0.5, log=False,
                      database=postgres_url)
    print(f"crash soak (PostgreSQL): {report}")
    assert report.problems == []
    assert report.survived == report.kills == KILLS
    assert report.acks > 0 and report.final_run_actions >= 4 * 4
    assert report.continued_games > 0


async def test_checker_notices_a_lost_acknowledgement_on_postgresql(postgres_url: str) -> None:
    target = postgres_url
    manager = await open_manager(target)
    game = await start_table(manager, 5, 2)
    step = (await manager.act(5, user_id(5, 0), "level1")).first
    await manager.storage.close()
    assert step is not None
    assert (await check_database(target, [Ack("ACT", game.id, step.revision, "level1")])).ok
    assert not (await check_database(target, [Ack("ACT", game.id, step.revision + 1, "level1")])).ok


async def test_checker_notices_a_lost_action_and_a_tampered_state(tmp_path: Path) -> None:
    path = tmp_path / "check.sqlite3"
    manager = await open_manager(path)
    game = await start_table(manager, 5, 2)
    step = (await manager.act(5, user_id(5, 0), "level1")).first
    await manager.storage.close()
    assert step is not None
    good = Ack("ACT", game.id, step.revision, "level1")
    assert (await check_database(path, [good])).ok
    lost = Ack("ACT", game.id, step.revision + 1, "level1")
    assert not (await check_database(path, [lost])).ok
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET state = replace(state, '\"turn\":1', '\"turn\":2') WHERE id = ?",
                   (game.id,))
    report = await check_database(path, [good])
    assert any("differs" in p for p in report.problems)
