"""Image followups under load: 100 channels end a turn at the same moment.

Ending a turn is the expensive action: the bot answers the player privately with their mat and
posts the table image to the channel (:func:`bot.discord.turns.respond_to_result`). Here every one
of ``channels`` games is brought to the last action of a turn, then all of them act at once; for
each, the time from that moment until both images are ready is the *image followup* latency (the
Discord upload itself is not included: the network is not what this machine controls). The run
is repeated ``rounds`` times and split into where the time went: waiting for the commit (channel
lock, engine, one fsync'd transaction) and drawing the two images (queueing for a renderer
included). ``python -m bench bot`` reports it for the threaded and the process-pool renderer.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import engine
from bot.core.play.manager import GameManager
from bot.core.rendering.render import Renderer
from bot.core.storage import Storage

from . import build
from .load import percentile
from .players import choose_action, policy_factory


@dataclass
class ImageRun:
    """Milliseconds per channel and round: until committed, and until both images were ready."""

    committed_ms: list[float] = field(default_factory=list)
    images_ms: list[float] = field(default_factory=list)

    def figures(self, prefix: str) -> dict[str, float]:
        return {
            f"{prefix}_p50_ms": round(percentile(self.images_ms, 50), 1),
            f"{prefix}_p99_ms": round(percentile(self.images_ms, 99), 1),
            f"{prefix}_commit_p99_ms": round(percentile(self.committed_ms, 99), 1),
            f"{prefix}_samples": float(len(self.images_ms)),
        }


async def _to_last_action(manager: GameManager, channel: int, rng: random.Random) -> bool:
    """Play until the current player has one action left in the play phase (False: no game)."""
    for _ in range(12):
        game = await manager.game_in_channel(channel)
        if game is None or game.state is None or game.current is None or game.current.user_id is None:
            return False
        if game.state.phase is engine.Phase.PLAY and game.state.actions_left == 1:
            return True
        await manager.act(channel, game.current.user_id, choose_action(game.state, rng))
    return False


async def _end_turn(manager: GameManager, renderer: Renderer, channel: int, rng: random.Random,
                    started: float, run: ImageRun) -> None:
    game = await manager.game_in_channel(channel)
    assert game is not None and game.state is not None and game.current is not None
    result = await manager.act(channel, game.current.user_id or 0, choose_action(game.state, rng))
    run.committed_ms.append((time.perf_counter() - started) * 1000)
    final, step = result.game, result.first
    assert final.state is not None and step is not None
    draw = renderer.results if result.finished else renderer.table
    board = asyncio.ensure_future(draw(final.state, final.names))  # as the bot: both at once
    await renderer.mat(final.state, step.seat, final.names)
    await board
    run.images_ms.append((time.perf_counter() - started) * 1000)


async def image_followups(workdir: Path, make_renderer: Callable[[], Renderer], *, channels: int = 100,
                          rounds: int = 3, seed: int = 5, name: str = "images") -> ImageRun:
    """``rounds`` times: ``channels`` games end a turn at the same moment (see the module doc)."""
    path = workdir / f"{name}.sqlite3"
    games = await build.build(path, games=channels, active=channels, moves=10, seed=seed)
    storage = await Storage.open(path)
    renderer = make_renderer()
    run = ImageRun()
    try:
        manager = GameManager(storage, policies=policy_factory)
        rng = random.Random(seed)
        warm = await manager.game_in_channel(games[0])
        assert warm is not None and warm.state is not None
        ready = getattr(renderer, "ready", None)
        if ready is not None:  # every render worker started and warmed, as after the bot's start-up
            await ready()
        await asyncio.gather(*(renderer.table(warm.state, warm.names) for _ in range(4)))  # fonts, pools
        for _ in range(rounds):
            ready = [c for c in games if await _to_last_action(manager, c, rng)]
            started = time.perf_counter()
            await asyncio.gather(*(_end_turn(manager, renderer, c, random.Random(c), started, run)
                                   for c in ready))
    finally:
        close = getattr(renderer, "close", None)
        if close is not None:
            await close()
        await storage.close()
    return run
