"""Checks run on a database after a crash: nothing acknowledged is lost, nothing is corrupt.

Kept apart from the soak driver so tests can run the same checks on any database they built, a
SQLite file or a ``postgresql://`` URL. The log and the game rows are read through the Storage
API (both engines); raw ``sqlite3`` only for what SQLite alone has (``PRAGMA integrity_check``);
``GameManager.verify`` does the replay, exactly as an operator would.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.play.manager import GameManager
from bot.core.storage import Storage
from bot.core.storage.postgres import is_postgres_url


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


async def check_acks(storage: Storage, acks: Iterable[Ack], report: CheckReport) -> None:
    """Every ACT is in the log at its revision with its text; every STATE revision was reached."""
    logs: dict[int, dict[int, str]] = {}
    for ack in acks:
        report.acks_checked += 1
        if ack.kind == "ACT":
            if ack.game_id not in logs:
                logs[ack.game_id] = {row.revision: row.action for row in await storage.actions(ack.game_id)}
            logged = logs[ack.game_id].get(ack.revision)
            if logged != ack.text:
                report.problems.append(f"acknowledged {ack} but the log has {logged!r}")
            continue
        row = await storage.find_game(ack.game_id)
        if row is None or row.revision < ack.revision:
            found = None if row is None else (row.revision, row.status)
            report.problems.append(f"acknowledged {ack} but the game row is {found}")
        elif ack.text == "cancelled" and row.status != "cancelled":
            report.problems.append(f"acknowledged {ack} but the game is {row.status}")


async def check_database(target: str | Path, acks: Iterable[Ack] = ()) -> CheckReport:
    """Integrity (SQLite), acknowledgements, and ``verify`` (stored state == replayed log) for
    every game, on a SQLite file or a PostgreSQL URL."""
    report = CheckReport(integrity="ok" if is_postgres_url(str(target)) else integrity(target))
    if report.integrity != "ok":
        report.problems.append(f"integrity_check: {report.integrity}")
    storage = await Storage.open(str(target))
    try:
        await check_acks(storage, acks, report)
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
