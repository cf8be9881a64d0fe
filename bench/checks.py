"""Checks run on a database after a crash: nothing acknowledged is lost, nothing is corrupt.

Kept apart from the soak driver so tests can run the same checks on any database they built.
Raw ``sqlite3`` is used for what the Storage API does not expose (integrity, the log by revision);
``GameManager.verify`` does the replay, exactly as an operator would.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bot.manager import GameManager
from bot.storage import Storage


@dataclass(frozen=True, slots=True)
class Ack:
    """One line the crashing process printed after the manager returned (see bench.crashsim)."""

    kind: str  # "ACT" or "STATE"
    game_id: int
    revision: int
    text: str

    @classmethod
    def parse(cls, line: str) -> Ack | None:
        parts = line.rstrip("\n").split(" ", 3)
        if len(parts) != 4 or parts[0] not in ("ACT", "STATE"):
            return None
        return cls(parts[0], int(parts[1]), int(parts[2]), parts[3])


@dataclass
class CheckReport:
    """What one database check found; ``problems`` empty means everything held."""

    integrity: str = ""
    games: int = 0
    actions: int = 0
    acks_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def integrity(path: str | Path) -> str:
    """``PRAGMA integrity_check`` (plus the foreign-key check): ``"ok"`` when the file is sound."""
    with sqlite3.connect(path) as db:
        result = "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check"))
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
    return result if not broken else f"{result}; foreign keys: {broken[:5]}"


def check_acks(path: str | Path, acks: Iterable[Ack], report: CheckReport) -> None:
    """Every ACT is in the log at its revision with its text; every STATE revision was reached."""
    with sqlite3.connect(path) as db:
        for ack in acks:
            report.acks_checked += 1
            if ack.kind == "ACT":
                row = db.execute("SELECT action FROM actions WHERE game_id = ? AND revision = ?",
                                 (ack.game_id, ack.revision)).fetchone()
                if row is None or row[0] != ack.text:
                    report.problems.append(f"acknowledged {ack} but the log has {row}")
                continue
            row = db.execute("SELECT revision, status FROM games WHERE id = ?", (ack.game_id,)).fetchone()
            if row is None or row[0] < ack.revision:
                report.problems.append(f"acknowledged {ack} but the game row is {row}")
            elif ack.text == "cancelled" and row[1] != "cancelled":
                report.problems.append(f"acknowledged {ack} but the game is {row[1]}")


async def check_database(path: str | Path, acks: Iterable[Ack] = ()) -> CheckReport:
    """Integrity, acknowledgements, and ``verify`` (stored state == replayed log) for every game."""
    report = CheckReport(integrity=integrity(path))
    if report.integrity != "ok":
        report.problems.append(f"integrity_check: {report.integrity}")
    check_acks(path, acks, report)
    storage = await Storage.open(path)
    try:
        manager = GameManager(storage)
        rows = await storage.games_with_status("lobby", "active", "finished", "cancelled")
        report.games = len(rows)
        for row in rows:
            report.actions += len(await storage.actions(row.id))
            if not await manager.verify(row.id):
                report.problems.append(f"game {row.id}: stored state differs from the replayed log")
    finally:
        await storage.close()
    return report
