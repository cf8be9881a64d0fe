"""A game ends while another plays on: the other's table images while the recap is drawn.

When a game ends the bot draws its animated recap in the render pool, one image that holds a
worker for a third of a second or more (a long game's, over a second). Until 2026-12-05 the recap
went to its game's own worker like any of its images, and a game whose images that worker also
draws waited behind it: a turn post held up by 1.15–1.26 s (two runs, on this 2-core machine). A
recap now takes the least busy worker and the others' images go round it
(:class:`bot.core.rendering.render.Route`'s ``slow``). Here, with the bot's
:class:`~bot.core.rendering.render.ProcessRenderer`
(one worker per core, warmed), a whole 2-player game's recap is drawn ``trials`` times while a
second game, whose images prefer the worker the recap takes, asks for a table image every 20 ms;
the figure is the p99 of those tables' time (submission to PNG).
"""

from __future__ import annotations

import asyncio
import time

import engine
from bot.core.rendering.render import ProcessRenderer, Route
from renders.samples import names_for, play

from .load import percentile


async def tables_beside_recap(trials: int = 4, every_s: float = 0.02) -> dict[str, float]:
    """Milliseconds of the other game's table images while recaps are drawn (p50, p99, count)."""
    renderer = ProcessRenderer(workers=2)
    await renderer.ready()
    try:
        ended = list(play(engine.Options(players=2), 5))
        rounds = ended[::6]  # a frame every few actions: about a round each, as the bot's plan
        scores = [[0, 0] for _ in rounds]
        # Both workers idle: the recap takes the first, and the other game is one whose images
        # (routed by the state's seed) prefer that worker too.
        recap_worker = renderer.worker_for(Route(ended[0].seed, slow=True))
        games = (list(play(engine.Options(players=2), seed)) for seed in range(6, 40))
        playing = next(states for states in games
                       if renderer.worker_for(Route(states[0].seed)) == recap_worker)
        names = names_for(playing[0])
        timings: list[float] = []
        drawn = 0
        for _ in range(trials):
            recap = asyncio.ensure_future(renderer.recap(rounds, names_for(ended[-1]), scores, None))
            await asyncio.sleep(0.005)  # the recap is in its worker
            while not recap.done():
                started = time.perf_counter()
                await renderer.table(playing[drawn % len(playing)], names)
                timings.append((time.perf_counter() - started) * 1000)
                drawn += 3
                await asyncio.sleep(every_s)
            await recap
    finally:
        await renderer.close()
    return {"tables_beside_recap_p50_ms": round(percentile(timings, 50), 1),
            "tables_beside_recap_p99_ms": round(percentile(timings, 99), 1),
            "tables_beside_recap_count": len(timings)}
