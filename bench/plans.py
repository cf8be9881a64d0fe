"""A planned action against a tapped one (issue 49), in the bot suite beside ``action_p50_ms``.

Both are measured at the manager, on SQLite, where the two differ: a tapped ``level1`` is one
``GameManager.act``; a planned turn is what the manager plays when the turn comes (the plan read
once, then each step checked and committed with its progress), timed as ``play_policies`` does it
after the mover's last action was committed, and divided by its steps. Same games, same actions.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any

import engine
from bot.core.clock import ManualClock
from bot.core.games import Game
from bot.core.play import plans
from bot.core.play.manager import GameManager, TableSettings
from bot.core.storage import Storage
from bot.core.storage.plans import PlanStore
from engine import serialisation

PLANNED = "level1; level1; level1"


async def planned_against_tapped(workdir: Path, games: int = 12, turns: int = 6) -> dict[str, Any]:
    storage = await Storage.open(workdir / "plans.sqlite3", ManualClock(datetime(2026, 1, 1, tzinfo=UTC)))
    manager = GameManager(storage, seed_source=lambda: 11)
    tapped: list[float] = []
    planned: list[float] = []
    try:
        for number in range(games):
            channel = 70_000 + number
            await manager.create_game(guild_id=1, channel_id=channel, host_id=1, host_name="ann",
                                      settings=TableSettings(max_players=2))
            await manager.join(channel, 2, "ben")
            game = (await manager.start(channel, 1)).game
            for _ in range(turns):
                assert game.state is not None and game.current is not None
                mover = game.current
                waiting = game.seats[1 - mover.seat]
                try:
                    steps = plans.lay_out(game.state, waiting.seat, plans.parse_plan(PLANNED)).steps
                except Exception:  # noqa: BLE001 - the reserve ran short: the game has served
                    break
                await PlanStore(storage).save(game.id, waiting.seat, waiting.user_id or 0, steps)
                for _ in range(2):
                    began = time.perf_counter()
                    game = (await manager.act(channel, mover.user_id or 0, "level1")).game
                    tapped.append((time.perf_counter() - began) * 1000)
                game = await _last_action_behind_the_managers_back(storage, game, mover.seat, mover.user_id)
                began = time.perf_counter()
                result = await manager.play_policies(channel)
                spent = (time.perf_counter() - began) * 1000
                assert result is not None
                played = sum(1 for step in result.steps if step.planned)
                if played:
                    planned.append(spent / played)
                game = result.game
    finally:
        await storage.close()
    return {"planned_action_p50_ms": round(median(planned), 2),
            "tapped_action_manager_p50_ms": round(median(tapped), 2),
            "planned_to_tapped_p50_ratio": round(median(planned) / median(tapped), 2),
            "planned_turns": len(planned)}


async def _last_action_behind_the_managers_back(storage: Storage, game: Game, seat: int,
                                                user_id: int | None) -> Game:
    """The mover's turn-ending ``level1`` committed straight to storage: the planned turn is then
    all that ``play_policies`` has to play."""
    assert game.state is not None
    outcome = engine.apply(game.state, engine.parse_action("level1"), player=seat)
    row = await storage.commit_action(
        game.id, game.revision, seat=seat, user_id=user_id, action="level1",
        state=serialisation.dumps(outcome.state), state_schema=outcome.state.schema, finished=False)
    return Game.from_row(row)
