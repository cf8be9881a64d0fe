"""One action end to end through the bot: the offline harness delivers ``/projectl play act``.

What is timed, per action: the gateway frame reaching discord.py, command parsing, the defer
callback, the manager (channel lock, load, engine apply, one fsync'd commit on a file database),
the bot's renderer (the mat; the table image when the turn changes, posted to the channel),
and the followup — until every task the interaction started has finished (``settle``).

The renderer is the bot's default, :class:`~bot.core.rendering.render.ProcessRenderer` (one render worker
per core), started and warmed first as the bot does at start-up; ``renderer="threaded"`` draws in
threads of the bot's own process instead (:class:`~bot.core.rendering.render.ThreadedRenderer`, the demo's),
sharing the interpreter with the event loop: what the bench reported until 2026-12-03, now
``action_threaded_p99_ms`` beside it (about the same p99: the tail is the images' own time).
Only the network is missing; the harness's own bookkeeping is included, so the figures slightly
overstate the bot.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Literal

from bot.core.rendering.render import ProcessRenderer, ThreadedRenderer

from .harnessed import open_table, running
from .players import choose_action


async def harness_latencies(
    workdir: Path, actions: int = 300, seed: int = 3, renderer: Literal["process", "threaded"] = "process",
) -> list[float]:
    """Milliseconds per action over ``actions`` actions of 2-player games (new ones as they end)."""
    rng = random.Random(seed)
    timings: list[float] = []
    drawing = ProcessRenderer() if renderer == "process" else ThreadedRenderer()
    database = workdir / f"latency-{renderer}.sqlite3"
    async with running(database, renderer=drawing, seed=seed) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        for warm in range(3):  # fonts, caches, first-use imports: not what a player waits for
            await h.slash(alice, "general", "projectl help" if warm else "projectl rules")
        if isinstance(drawing, ProcessRenderer):
            await drawing.ready()  # the bot starts its render workers when it starts
        else:
            await drawing.warm()
        while len(timings) < actions:
            game = await h.bot.manager.game_in_channel(h.channel("games").id)
            if game is None or game.revision > 400:
                if game is not None:
                    await h.slash(h.user(game.host_id), "games", "projectl table cancel")
                game = await open_table(h, alice, [bob])
            text = str(choose_action(game.state, rng))
            started = time.perf_counter()
            await h.slash(h.user(game.current.user_id), "games", "projectl play act", text=text)
            timings.append((time.perf_counter() - started) * 1000)
    return timings
