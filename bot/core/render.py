"""Images for the bot, rendered off the event loop.

The drawing code lives in :mod:`renders` (pure: state in, PNG bytes out). Drawing a board takes
tens of milliseconds, long enough to stall every other channel if done on the event loop.

* :class:`ProcessRenderer` (the bot's default) draws in a pool of worker processes, one per
  core. Drawing is CPU work that mostly holds the GIL, so threads in the bot's own process
  share one core with each other *and* with the event loop; processes use every core and leave
  the loop free to acknowledge interactions. A state crosses to a worker pickled (~3 KB,
  half a millisecond); workers load fonts and palettes once, when the pool starts.
* :class:`ThreadedRenderer` runs the same functions in threads (no start-up cost; tools, tests).

Each call names the locale its labels are drawn in; the words come from that locale's catalogue
(``images`` in ``bot/core/locales/<code>.json``), looked up where the drawing runs.

With 100 channels ending a turn at once, the process pool brings the image followups' p99 from
about 4.7 s (two threads) to the figure ``python -m bench`` reports (docs/benchmarks.md).

A worker that dies (killed by the kernel's OOM killer, a segfault in a native library) breaks the
whole pool: every later job fails at once with ``BrokenProcessPool``. :class:`ProcessRenderer`
then starts a new pool and draws that image again, once; the caller of a render that still fails
posts its message without the image (bot/discord/cogs/common.py, :func:`~bot.discord.cogs.common.drawn`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

import engine
import renders
from engine import GameState, Place
from engine.actions import GhostSplit
from renders.cache import WORKER_BUDGETS, use_budgets

from .allocator import limit_heap_growth, release_freed_memory
from .locales import image_words, locale_code, localise, unescaped

log = logging.getLogger(__name__)


class Renderer(Protocol):
    """What the bot needs from an image renderer; tests may pass a faster fake.

    ``locale`` (a Discord locale or its code; None = English) is the language of the image's
    labels: the server's for a post everybody sees, the reader's own for a private reply."""

    async def table(
        self, state: GameState, names: Sequence[str], previous: GameState | None = None, *,
        locale: Any = None,
    ) -> bytes: ...

    async def mat(
        self, state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, *,
        locale: Any = None,
    ) -> bytes:
        """``seat``'s mat as ``viewer`` (a seat, or ``engine.visibility.NOBODY``) may see it;
        None = the owner's own view, which every private mat post is."""
        ...

    async def results(self, state: GameState, names: Sequence[str], *, locale: Any = None) -> bytes: ...

    async def preview(
        self, state: GameState, seat: int, place: Place, names: Sequence[str], *, locale: Any = None,
    ) -> bytes: ...

    async def master_preview(
        self, state: GameState, seat: int, placements: Sequence[Place], names: Sequence[str], *,
        locale: Any = None,
    ) -> bytes:
        """Every placement of a Master draft drawn together, to confirm the action."""
        ...

    async def ghost_split(self, split: GhostSplit, *, locale: Any = None) -> bytes: ...


class _NamedRenderer:
    """The :class:`Renderer` methods, each one call of a :mod:`renders` function by name, in a
    locale's words; a subclass decides where that call runs (``_run``)."""

    async def _run(self, name: str, locale: str | None, *args: object) -> bytes:
        raise NotImplementedError

    async def table(
        self, state: GameState, names: Sequence[str], previous: GameState | None = None, *,
        locale: Any = None,
    ) -> bytes:
        """The table; ``previous`` (the state the last turn post showed) frames what changed."""
        return await self._run("render_table", locale_code(locale), state, _shown(names, locale), previous)

    async def mat(
        self, state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, *,
        locale: Any = None,
    ) -> bytes:
        return await self._run("render_mat", locale_code(locale), state, seat, _shown(names, locale),
                               seat if viewer is None else viewer)

    async def results(self, state: GameState, names: Sequence[str], *, locale: Any = None) -> bytes:
        return await self._run("render_results", locale_code(locale), state, _shown(names, locale))

    async def preview(
        self, state: GameState, seat: int, place: Place, names: Sequence[str], *, locale: Any = None,
    ) -> bytes:
        return await self._run("render_preview", locale_code(locale), state, seat, place,
                               _shown(names, locale))

    async def master_preview(
        self, state: GameState, seat: int, placements: Sequence[Place], names: Sequence[str], *,
        locale: Any = None,
    ) -> bytes:
        return await self._run("render_master_preview", locale_code(locale), state, seat, tuple(placements),
                               _shown(names, locale))

    async def ghost_split(self, split: GhostSplit, *, locale: Any = None) -> bytes:
        return await self._run("render_ghost_split", locale_code(locale), split.ghost, split.pieces)

    async def recap(self, states: Sequence[GameState], names: Sequence[str], scores: Sequence[Sequence[int]],
                    swing: int | None, *, locale: Any = None) -> bytes:
        """A finished game's animated recap (renders/recap.py), drawn in the pool like any image."""
        return await self._run("render_recap", locale_code(locale), tuple(states), _shown(names, locale),
                               tuple(tuple(row) for row in scores), swing)


def _shown(names: Sequence[str], locale: Any) -> list[str]:
    """The seat names as drawn in ``locale``: an AI seat's name is a sentence of bot/core/texts.py
    (``Robô Guloso 1`` in Portuguese); a player's name as they wrote it (an image reads no
    markdown, so the escaped text the messages quote would show its backslashes)."""
    return [str(localise(unescaped(name), locale)) for name in names]


def _render(name: str, locale: str | None, *args: object) -> bytes:
    """One :mod:`renders` function (they are pure, so any worker will do), in ``locale``'s words:
    the ``images`` section of its catalogue, read once per process. Only the code crosses to a
    worker process, not the catalogue."""
    return bytes(getattr(renders, name)(*args, words=image_words(locale)))


def _render_in_worker(name: str, locale: str | None, *args: object) -> bytes:
    """:func:`_render` in a pool worker, whose freed buffers go back to the system once a second."""
    image = _render(name, locale, *args)
    release_freed_memory()
    return image


class ThreadedRenderer(_NamedRenderer):
    """The real renderer: :mod:`renders` functions run in a thread, at most ``parallel`` at once."""

    def __init__(self, parallel: int = 2) -> None:
        self._slots = asyncio.Semaphore(parallel)
        self._drawing = 0
        self._trimming: asyncio.Future[bool] | None = None

    async def _run(self, name: str, locale: str | None, *args: object) -> bytes:
        async with self._slots:
            self._drawing += 1
            try:
                return await asyncio.to_thread(_render, name, locale, *args)
            finally:
                self._drawing -= 1
                if self._drawing == 0:  # idle: what the renders freed goes back to the system,
                    self._trimming = asyncio.get_running_loop().run_in_executor(  # nobody waits
                        None, lambda: release_freed_memory(every=0.0))

    async def close(self) -> None:
        """Wait for the last hand-back of freed memory (nothing else runs in the background)."""
        if self._trimming is not None:
            await self._trimming


def _ready() -> bool:
    return True


def _warm_worker() -> None:
    """Load fonts, palettes and the drawing caches before the first real render, with the
    image layers' budgets of a process that only draws (:data:`renders.cache.WORKER_BUDGETS`)."""
    limit_heap_growth()
    use_budgets(WORKER_BUDGETS)

    state = engine.new_game(engine.Options(players=4), 1)
    names = [f"player {n}" for n in range(4)]
    renders.render_table(state, names)
    renders.render_mat(state, 0, names)


class ProcessRenderer(_NamedRenderer):
    """:mod:`renders` functions in a pool of ``workers`` processes (default: one per core).

    The pool is started lazily on the first render (or by :meth:`start`), with the ``spawn``
    method: the bot's process has threads (the database's, asyncio's), which ``fork`` must not
    copy. A pool broken by a dead worker is replaced, and the render retried once (:meth:`_run`).
    :meth:`close` shuts it down (the bot does so when it closes)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> ProcessPoolExecutor:
        """Create the pool and have every worker start (and warm up) now, in the background."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_worker,
            )
            for _ in range(self.workers):  # workers are spawned on demand: one job each
                self._pool.submit(_ready)
        return self._pool

    async def _run(self, name: str, locale: str | None, *args: object) -> bytes:
        loop = asyncio.get_running_loop()
        pool = self.start()
        try:
            return await loop.run_in_executor(pool, _render_in_worker, name, locale, *args)
        except BrokenProcessPool:
            log.warning("a render worker died: starting a new pool and drawing %s again", name)
            self._discard(pool)
        return await loop.run_in_executor(self.start(), _render_in_worker, name, locale, *args)

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken ``pool`` so the next render starts a new one (once: the renders that
        were waiting on it all see it break, and the first one here replaces it)."""
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)  # its workers are gone or going

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
