"""One action end to end through the bot: the offline harness delivers ``/projectl play act``.

What is timed, per action: the gateway frame reaching discord.py, command parsing, the defer
callback, the manager (channel lock, load, engine apply, one fsync'd commit on a file database),
the real threaded renderer (the mat; the table image when the turn changes, posted to the
channel), and the followup — until every task the interaction started has finished
(``settle``). The renderer is warmed first, as the bot's render workers warm themselves when
they start (``bot.core.render.warm_renders``). Only the network is missing; the harness's own
bookkeeping is included, so the figures slightly overstate the bot.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from bot.core.render import ThreadedRenderer

from .harnessed import open_table, running
from .players import choose_action


async def harness_latencies(workdir: Path, actions: int = 300, seed: int = 3) -> list[float]:
    """Milliseconds per action over ``actions`` actions of 2-player games (new ones as they end)."""
    rng = random.Random(seed)
    timings: list[float] = []
    renderer = ThreadedRenderer()
    async with running(workdir / "latency.sqlite3", renderer=renderer, seed=seed) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        for warm in range(3):  # fonts, caches, first-use imports: not what a player waits for
            await h.slash(alice, "general", "projectl help" if warm else "projectl rules")
        await renderer.warm()  # as every render worker of the real bot warms up when it starts
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
