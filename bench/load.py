"""Many games in one process: what one bot does per action, without Discord's network.

:func:`serve_action` is the bot's path for one action minus Discord: the manager (channel lock,
load, engine, one committed transaction) then the renderer it is given — when the turn changed,
the player's mat for the ephemeral confirmation and, drawn at the same time, the table (or
results) image — then a response
stub that only measures the message. The latency benchmark through the offline harness
(:mod:`bench.latency`) covers discord.py's own work; this module is for scale.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

from bot.core.play.manager import GameManager
from bot.core.rendering.render import Renderer

from .players import choose_action


@dataclass
class LoadResult:
    actions: int = 0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def serve_action(manager: GameManager, renderer: Renderer, channel: int, rng: random.Random) -> bool:
    """Play one action for the current player of ``channel`` as the bot would; False if none."""
    game = await manager.game_in_channel(channel)
    if game is None or game.current is None or game.current.user_id is None or game.state is None:
        return False
    result = await manager.act(channel, game.current.user_id, choose_action(game.state, rng))
    final, step = result.game, result.first
    assert final.state is not None and step is not None
    size = len(step.text)
    images: list[Awaitable[bytes]] = []
    if result.turn_changed or result.finished:  # as the bot: the mat comes when the turn is over
        images.append(renderer.mat(final.state, step.seat, final.names))
    if result.finished:
        images.append(renderer.results(final.state, final.names))
    elif result.turn_changed:
        images.append(renderer.table(final.state, final.names))
    # As the bot (bot/discord/cogs/common.py): the table is drawn while the mat is.
    size += sum(map(len, await asyncio.gather(*images)))
    return size > 0  # the response stub: Discord would get the text and these files


async def closed_loop(manager: GameManager, renderer: Renderer, channels: list[int], per_game: int,
                      seed: int = 1) -> LoadResult:
    """Every game acts again as soon as its previous action was answered (saturation)."""
    result = LoadResult()

    async def player(channel: int) -> None:
        rng = random.Random(seed * 1009 + channel)
        for _ in range(per_game):
            started = time.perf_counter()
            if not await serve_action(manager, renderer, channel, rng):
                return
            result.latencies_ms.append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(player(c) for c in channels))
    result.seconds = time.perf_counter() - started
    result.actions = len(result.latencies_ms)
    return result


async def open_loop(manager: GameManager, renderer: Renderer, channels: list[int], rate: float,
                    seconds: float, seed: int = 2) -> LoadResult:
    """Actions arrive at ``rate`` per second (Poisson) across the games, whatever the bot's speed:
    the latency a player sees when the table is busy but not saturated."""
    rng = random.Random(seed)
    result = LoadResult()
    tasks: list[asyncio.Task[None]] = []
    busy: set[int] = set()

    async def one(channel: int) -> None:
        started = time.perf_counter()
        try:
            if await serve_action(manager, renderer, channel, rng):
                result.latencies_ms.append((time.perf_counter() - started) * 1000)
        finally:
            busy.discard(channel)

    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        await asyncio.sleep(rng.expovariate(rate))
        idle = [c for c in channels if c not in busy]
        if idle:  # a player waits for their previous answer before clicking again
            channel = rng.choice(idle)
            busy.add(channel)
            tasks.append(asyncio.create_task(one(channel)))
    await asyncio.gather(*tasks)
    result.seconds = time.perf_counter() - began
    result.actions = len(result.latencies_ms)
    return result
