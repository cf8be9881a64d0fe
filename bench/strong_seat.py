"""A searching AI seat (Strong, Expert) under load: how long until its whole turn is posted while
20 channels play?

One channel holds a 2-player game of a human (played by greedy, through ``GameManager.act``)
against the AI seat. Twenty other channels play at the same time, each acting again as soon as
its previous action was answered (:func:`bench.load.serve_action`: manager, real threaded
renderer, response stub), taking a fresh stored game when theirs ends. Timed per AI turn, in
wall-clock seconds (what the players wait): from the human's last action of their turn being sent
to the table image of the new turn being ready — the AI seat's three moves (each a search in
the manager's process pool, :mod:`bot.core.play.thinking`), their commits and the render included. The pool
is started before timing (a worker's start-up is paid once per bot, not per turn).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bot.core.play.manager import GameManager, TableSettings
from bot.core.rendering.render import ThreadedRenderer
from bot.core.storage import Storage
from engine.policies import GreedyPolicy

from . import build
from .load import serve_action

HUMAN = 1
STRONG_CHANNEL = 1


async def ai_turn_seconds(
    workdir: Path, *, policy: str = "strong", busy: int = 20, turns: int = 12, seed: int = 5,
) -> list[float]:
    """Seconds per turn of a ``policy`` seat (see the module docstring), ``turns`` of them."""
    path = workdir / f"{policy}_seat.sqlite3"
    spare = await build.build(path, games=busy * 4, active=busy * 4, moves=12, seed=seed)
    storage = await Storage.open(path)
    manager = GameManager(storage)
    renderer = ThreadedRenderer()
    stop = asyncio.Event()
    queue = list(spare)

    async def keep_busy(index: int) -> None:
        rng = random.Random(seed * 7919 + index)
        channel = queue.pop()
        while not stop.is_set():
            if not await serve_action(manager, renderer, channel, rng):
                if not queue:
                    return
                channel = queue.pop()

    timings: list[float] = []
    channel = STRONG_CHANNEL
    try:
        await _new_table(manager, channel, policy)
        game = await manager.game_in_channel(channel)
        assert game is not None and game.state is not None
        await manager.thinker.move(game.state, 0)  # start the worker processes before timing
        players = [asyncio.create_task(keep_busy(i)) for i in range(busy)]
        human = GreedyPolicy(seed)
        while len(timings) < turns:
            game = await manager.game_in_channel(channel)
            if game is None or game.state is None or game.current is None:
                channel += 1000
                await _new_table(manager, channel, policy)
                continue
            started = time.perf_counter()
            result = await manager.act(channel, HUMAN, human.choose(game.state))
            ai_moved = any(step.user_id is None for step in result.steps[1:])
            if ai_moved and result.game.state is not None:
                await renderer.table(result.game.state, result.game.names)
                timings.append(time.perf_counter() - started)
        stop.set()
        await asyncio.gather(*players)
    finally:
        stop.set()
        manager.thinker.close()
        await storage.close()
    return timings


async def _new_table(manager: GameManager, channel: int, policy: str) -> None:
    await manager.create_game(guild_id=1, channel_id=channel, host_id=HUMAN, host_name="human",
                              settings=TableSettings(max_players=2))
    await manager.add_policy_seat(channel, HUMAN, policy)
    await manager.start(channel, HUMAN)
