"""The first images after a start do not wait for the render workers' warm-up: while a worker has
not said it is ready, the images routed to it are drawn in the bot's own process (the same
pixels), and once it is ready it draws them again. A fake worker stands in for the process, so
nothing here depends on how long a real warm-up takes; the real one is timed by
``python -m bench waits`` (``first_table_after_start_ms``)."""

from __future__ import annotations

import asyncio

from images import shown

import engine
import renders
from bot.core.rendering.render import ProcessRenderer
from renders.samples import names_for, play


class WarmingWorker:
    """A worker whose warm-up ends when the test says so; counts the jobs it was sent."""

    def __init__(self) -> None:
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.jobs: list[str] = []

    async def submit(self, name: str, locale: str | None, *args: object) -> bytes:
        self.jobs.append(name)
        return b"drawn by the worker"


async def test_images_are_drawn_here_while_the_worker_warms_up_and_by_it_after() -> None:
    states = list(play(engine.Options(players=2), 5))
    state, names = states[len(states) // 2], names_for(states[-1])
    renderer = ProcessRenderer(workers=1)
    worker = WarmingWorker()
    renderer._started = lambda index: worker  # type: ignore[method-assign, assignment, return-value]

    table, mat = await asyncio.gather(renderer.table(state, names), renderer.mat(state, 0, names))
    assert worker.jobs == []  # the worker is still warming up: nothing waited for it
    assert shown(table) == shown(renders.render_table(state, names))
    assert shown(mat) == shown(renders.render_mat(state, 0, names))
    assert renderer._waiting == [0]  # drawn here: no worker counted as busy

    worker.ready.set_result(None)
    assert await renderer.table(state, names) == b"drawn by the worker"
    assert worker.jobs == ["render_table"]


async def test_a_worker_whose_start_up_failed_is_not_drawn_around() -> None:
    """A worker whose start-up failed has a finished ``ready``: the job goes to it (a real one
    then fails it with WorkerDied and the renderer starts a new one), so no failure leaves the
    images drawn in the bot's process for good."""
    states = list(play(engine.Options(players=2), 5))
    renderer = ProcessRenderer(workers=1)
    worker = WarmingWorker()
    worker.ready.set_exception(RuntimeError("start-up failed"))
    worker.ready.exception()  # retrieved: not logged as never retrieved
    renderer._started = lambda index: worker  # type: ignore[method-assign, assignment, return-value]
    assert await renderer.table(states[-1], names_for(states[-1])) == b"drawn by the worker"
    assert worker.jobs == ["render_table"]
