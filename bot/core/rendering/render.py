"""Images for the bot, rendered off the event loop.

The drawing code lives in :mod:`renders` (pure: state in, PNG bytes out). Drawing a board takes
tens of milliseconds, long enough to stall every other channel if done on the event loop.

* :class:`ProcessRenderer` (the bot's default) draws in worker processes, one per core, each
  game's images in the same one (whose caches hold that game's last post). Drawing is CPU
  work that mostly holds the GIL, so threads in the bot's own process
  share one core with each other *and* with the event loop; processes use every core and leave
  the loop free to acknowledge interactions. A job crosses to a worker over a socket the event
  loop reads itself (:mod:`bot.core.rendering.worker_pipe`), a game state in it as its stored text, once
  per worker (:mod:`bot.core.rendering.pipe_memo`); workers load fonts and palettes once, when they start.
* :class:`ThreadedRenderer` runs the same functions in threads (no start-up cost; tools, tests).

Each call names the locale its labels are drawn in; the words come from that locale's catalogue
(``images`` in ``bot/core/wording/locales/<code>.json``), looked up where the drawing runs.

With 100 channels ending a turn at once, the worker processes bring the image followups' p99
from about 4.7 s (two threads) to the figure ``python -m bench`` reports (docs/benchmarks.md).

A worker that dies (killed by the kernel's OOM killer, a segfault in a native library) fails every
job it had (:class:`~bot.core.rendering.worker_pipe.WorkerDied`). :class:`ProcessRenderer` then starts a new
worker and draws that image again, once; the caller of a render that still fails posts its
message without the image (bot/discord/cogs/common.py, :func:`~bot.discord.cogs.common.drawn`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import engine
import renders
from bot.core.rendering.allocator import limit_heap_growth, release_freed_memory
from bot.core.rendering.collector import collect_between_jobs, collect_if_due
from bot.core.rendering.pipe_memo import Encoded
from bot.core.rendering.worker_pipe import PipeWorker, WorkerDied
from bot.core.wording.locales import image_words, locale_code, localise, unescaped
from engine import Colour, GameState, Place
from engine.actions import GhostSplit
from engine.state import RowsTable
from renders.cache import WORKER_BUDGETS, use_budgets
from renders.fonts import warm_families
from renders.layers import spill_pending
from renders.samples import play

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Route:
    """Which of a game's images this is, for a renderer that keeps each game's images in one
    place (:class:`ProcessRenderer`): ``game`` (its seed) names the game, ``seat`` a seat's mat
    (None: the table, the results, a preview — one image at a time).

    Why a seat is named: a turn end draws the table and the actor's mat at once, and the player
    waits for both, so a mat must not queue behind its game's table. A route of ``seed + 1 +
    seat`` put every odd seat's mat on the table's worker when there are two workers (half the
    turn ends of a two-player game drew their two images one after the other).

    ``slow``: an image that holds a worker some eighty times as long as a table image (a finished
    game's animated recap, about a third of a second): it goes to the least busy worker, and the
    images other games would have drawn there go to another worker meanwhile
    (:meth:`ProcessRenderer.worker_for`), so no turn post waits behind it while a core is free."""

    game: int
    seat: int | None = None
    slow: bool = False


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

    async def _run(self, name: str, locale: str | None, *args: object, route: Route | None = None) -> bytes:
        """Draw ``name(*args)``; ``route`` lets a renderer send one game's images to the same
        place (:class:`ProcessRenderer`); None: anywhere."""
        raise NotImplementedError

    async def table(
        self, state: GameState, names: Sequence[str], previous: GameState | None = None, *,
        locale: Any = None,
    ) -> bytes:
        """The table; ``previous`` (the state the last turn post showed) frames what changed."""
        return await self._run("render_table", locale_code(locale), state, _shown(names, locale), previous,
                               route=Route(state.seed))

    async def mat(
        self, state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, *,
        locale: Any = None,
    ) -> bytes:
        return await self._run("render_mat", locale_code(locale), state, seat, _shown(names, locale),
                               seat if viewer is None else viewer, route=Route(state.seed, seat))

    async def results(self, state: GameState, names: Sequence[str], *, locale: Any = None) -> bytes:
        return await self._run("render_results", locale_code(locale), state, _shown(names, locale),
                               route=Route(state.seed))

    async def preview(
        self, state: GameState, seat: int, place: Place, names: Sequence[str], *, locale: Any = None,
    ) -> bytes:
        return await self._run("render_preview", locale_code(locale), state, seat, place,
                               _shown(names, locale), route=Route(state.seed))

    async def master_preview(
        self, state: GameState, seat: int, placements: Sequence[Place], names: Sequence[str], *,
        locale: Any = None,
    ) -> bytes:
        return await self._run("render_master_preview", locale_code(locale), state, seat, tuple(placements),
                               _shown(names, locale), route=Route(state.seed))

    async def ghost_split(self, split: GhostSplit, *, locale: Any = None) -> bytes:
        return await self._run("render_ghost_split", locale_code(locale), split.ghost, split.pieces)

    async def recap(self, states: Sequence[GameState], names: Sequence[str], scores: Sequence[Sequence[int]],
                    swing: int | None, *, locale: Any = None) -> bytes:
        """A finished game's animated recap (renders/recap.py), drawn in a worker like any image."""
        return await self._run("render_recap", locale_code(locale), tuple(states), _shown(names, locale),
                               tuple(tuple(row) for row in scores), swing,
                               route=Route(states[0].seed if states else 0, slow=True))


def _shown(names: Sequence[str], locale: Any) -> list[str]:
    """The seat names as drawn in ``locale``: an AI seat's name is a sentence of bot/core/wording/texts.py
    (``Robô Guloso 1`` in Portuguese); a player's name as they wrote it (an image reads no
    markdown, so the escaped text the messages quote would show its backslashes)."""
    return [str(localise(unescaped(name), locale)) for name in names]


def _render(name: str, locale: str | None, *args: object) -> bytes:
    """One :mod:`renders` function (they are pure, so any worker will do), in ``locale``'s words:
    the ``images`` section of its catalogue, read once per process. Only the code crosses to a
    worker process, not the catalogue."""
    return bytes(getattr(renders, name)(*args, words=image_words(locale)))


def _idle_chores() -> None:
    """The threaded renderer's work nobody waits for, once no image is being drawn: the parts
    dropped from the layers' cache compressed (:func:`renders.layers.spill_pending`), then freed
    memory handed back."""
    spill_pending()
    release_freed_memory(every=0.0)


class ThreadedRenderer(_NamedRenderer):
    """The real renderer: :mod:`renders` functions run in a thread, at most ``parallel`` at once."""

    def __init__(self, parallel: int = 2) -> None:
        self._slots = asyncio.Semaphore(parallel)
        self._drawing = 0
        self._trimming: asyncio.Future[None] | None = None

    async def _run(self, name: str, locale: str | None, *args: object, route: Route | None = None) -> bytes:
        async with self._slots:
            self._drawing += 1
            try:
                return await asyncio.to_thread(_render, name, locale, *args)
            finally:
                self._drawing -= 1
                if self._drawing == 0:  # idle: the parts set aside are compressed and what the
                    self._trimming = asyncio.get_running_loop().run_in_executor(  # renders freed
                        None, _idle_chores)  # goes back to the system; nobody waits

    async def warm(self) -> None:
        """Fill the drawing caches now (:func:`warm_renders`, in a thread), as each worker of
        :class:`ProcessRenderer` does when it starts: a bench that times actions calls this
        first, so it measures the bot after start-up, not its first game."""
        async with self._slots:
            await asyncio.to_thread(warm_renders)

    async def close(self) -> None:
        """Wait for the last hand-back of freed memory (nothing else runs in the background)."""
        if self._trimming is not None:
            await self._trimming


WARM_PLAYERS = 4
WARM_SEED = 1
"""The deal of the game :func:`warm_renders` plays (any fixed deal: the run must not vary)."""


def warm_renders(*, whole_market: bool = False) -> None:
    """Draw a whole short game as a turn post would — the table at every turn change (framing
    what changed), the mat of the seat to act, the final results — so the drawing caches a first
    real game would fill (text colour tables, glyphs, card art, panels) are full before one; then
    the strings of the families that game drew (every puzzle's id, the numbers a game counts
    through) at the sizes it drew them (:func:`renders.fonts.warm_families`); with
    ``whole_market``, every card of the catalogue face up in the market (:func:`warm_market`:
    a render worker's budgets hold them all).

    Why a whole game: each colour of text over each background builds its lookup table on first
    use (some 10 ms each), and about 16 of them appear only in the middle and at the end of a game
    (a finished puzzle, a piece's letter on its own colour, the results), so a renderer warmed on
    a new game alone paid them in the first turn posts players waited for (bench/latency.py's
    tail). Four greedy seats: after their game, greedy games of 2–4 players drew no new table
    (tests/test_render_pool.py); no clock, no randomness beyond the deal."""
    names = [f"player {seat + 1}" for seat in range(WARM_PLAYERS)]
    shown: GameState | None = None
    state = shown
    for state in play(engine.Options(players=WARM_PLAYERS), WARM_SEED, policy="greedy"):
        if shown is None or (state.turn, state.current) != (shown.turn, shown.current) or state.is_over:
            renders.render_table(state, names, shown)
            renders.render_mat(state, state.current, names)
            shown = state
    if state is not None:
        renders.render_results(state, names)
        warm_families(state.cards)
        if whole_market:
            warm_market(state, names)
    spill_pending()


def warm_market(state: GameState, names: Sequence[str]) -> int:
    """Draw every card of ``state``'s catalogue face up in the market rows (a row's worth at a
    time, on ``state`` otherwise), so that no card's first appearance in a real game draws its
    face; returns how many tables were drawn (none for a market without rows).

    Why: a card coming into the market for the first time in a worker drew its face and blended
    it onto the page, some 0.5 ms a card; the latency bench's turn-end tables with such a card
    took 4.96 ms on average against 2.61 without (22 of 158), and they were its slowest (5.2–8.4
    ms, a row refilled with four new cards). The catalogue's 86 faces take 10.8 MB of the
    worker's 11 MB for them, their blends 5.4 MB of its 6 MB (:data:`renders.cache.WORKER_BUDGETS`)."""
    table = state.table
    if not isinstance(table, RowsTable):
        return 0
    drawn = 0
    for colour in (Colour.WHITE, Colour.BLACK):
        slots = len(table.row(colour))
        ids = sorted(card_id for card_id, card in state.cards.items() if card.colour is colour)
        for first in range(0, len(ids), slots):
            row: tuple[str | None, ...] = tuple(ids[first:first + slots])
            row += (None,) * (slots - len(row))
            shown = replace(table, white_row=row) if colour is Colour.WHITE else replace(table, black_row=row)
            renders.render_table(replace(state, table=shown), names)
            drawn += 1
    return drawn


def warm_render_worker() -> None:
    """Load fonts, palettes and the drawing caches before the first real render
    (:func:`warm_renders`), with the image layers' budgets of a process that only draws
    (:data:`renders.cache.WORKER_BUDGETS`); then freeze what that built and collect garbage
    only between images (:func:`~bot.core.rendering.collector.collect_between_jobs`)."""
    limit_heap_growth()
    use_budgets(WORKER_BUDGETS)
    warm_renders(whole_market=True)
    release_freed_memory()
    collect_between_jobs()


def _after_render() -> None:
    """A worker's chores once its image is written back, when nobody waits for them: the parts
    its image dropped from the layers' cache compressed (:func:`renders.layers.spill_pending`),
    the collections that came due while it drew, and freed memory handed back (at most once a
    second)."""
    spill_pending()
    collect_if_due()
    release_freed_memory()


class ProcessRenderer(_NamedRenderer):
    """:mod:`renders` functions in ``workers`` processes (default: one per core), each a
    :class:`~bot.core.rendering.worker_pipe.PipeWorker` whose socket the event loop reads itself, so that a
    game's images go to the same worker every time.

    Why the same worker: a turn post draws again only the bands that changed since the game's
    previous post (:mod:`renders.layers`), and those are kept in the worker that drew them. Sent
    to whichever worker was free, each worker had to keep every busy game's bands; a game stays
    on the worker its seed names (:meth:`worker_for`) unless that one has
    :data:`AFFINITY_SLACK` more images waiting than the least busy, which then takes it (so two
    busy games on one worker never leave the other core idle). A seat's mat goes to a worker of its
    own that is never its game's table's (:class:`Route`; its bands are its own too), so a turn
    end's table and mat are drawn side by side.

    Why not a :class:`~concurrent.futures.ProcessPoolExecutor` per worker (until 2026-12-04): its
    jobs cross two threads of the bot's process each way: hand-over and hand-back measured
    2.5–5 ms of a slow turn end on a quiet machine (docs/benchmarks.md, bot/core/rendering/worker_pipe.py).
    A worker writes its image back before it hands freed memory to the system (``malloc_trim``,
    ~3 ms at most once a second), which then delays no one.

    Workers are started lazily on the first render (or by :meth:`start`), on the running event
    loop, with the ``spawn`` method. A dead worker is replaced, and the render retried once
    (:meth:`_run`). :meth:`close` shuts them down (the bot does so when it closes).

    Until a worker has warmed up (its start and :func:`warm_render_worker`: some 15 s of drawing on a
    busy 2-core machine), the images routed to it are drawn in the bot's own process instead, in
    a thread, one at a time (:meth:`_draw_here`): the first table after a start is ready in a
    fraction of a second (``first_table_after_start_ms``, docs/benchmarks.md) rather than after
    the warm-up, and the worker takes over once it says it is ready."""

    AFFINITY_SLACK = 2
    SLOW_WEIGHT = 80
    """What a slow image (:attr:`Route.slow`) counts for among a worker's waiting images: about
    the table images a recap's time would draw (some 330 ms against 4 ms), so a worker drawing one
    is passed over until the others have about as much work queued."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._workers: list[PipeWorker | None] = [None] * self.workers
        self._waiting = [0] * self.workers
        self._closing: set[asyncio.Task[None]] = set()
        self._encoded = Encoded()  # a turn end's state is written once for its mat and its table
        self._here: tuple[asyncio.AbstractEventLoop | None, asyncio.Semaphore] = (None, asyncio.Semaphore(1))
        """The images drawn in this process while the workers warm up, one at a time (per loop)."""

    def start(self) -> list[PipeWorker]:
        """Start every worker now (each warms up in the background); from the event loop."""
        return [self._started(worker) for worker in range(self.workers)]

    async def ready(self) -> None:
        """Start every worker (:meth:`start`) and wait until each has warmed up: a bench that
        times renders calls this first, so it measures the bot after start-up."""
        await asyncio.gather(*(worker.ready for worker in self.start()))

    def _started(self, index: int) -> PipeWorker:
        worker = self._workers[index]
        if worker is not None and (worker.broken or worker.loop is not asyncio.get_running_loop()):
            self._discard(index, worker)  # dead, or left by an event loop that has ended
            worker = None
        if worker is None:
            worker = PipeWorker(warm_render_worker, _render, _after_render, name=f"render worker {index}",
                                encoded=self._encoded)
            self._workers[index] = worker
        return worker

    def worker_for(self, route: Route | None) -> int:
        """The index of the worker that draws an image routed by ``route`` (see the class doc):
        the one its game's seed names, unless that one is :data:`AFFINITY_SLACK` images busier
        than the least busy; a slow image or one of no game goes to the least busy."""
        least = min(range(self.workers), key=self._waiting.__getitem__)
        if route is None or route.slow:
            return least
        preferred = route.game % self.workers
        if route.seat is not None and self.workers > 1:  # a mat: never the table's worker
            preferred = (preferred + 1 + route.seat % (self.workers - 1)) % self.workers
        if self._waiting[preferred] > self._waiting[least] + self.AFFINITY_SLACK:
            return least
        return preferred

    async def _run(self, name: str, locale: str | None, *args: object, route: Route | None = None) -> bytes:
        index = self.worker_for(route)
        if not self._started(index).ready.done():  # still warming up: drawn here meanwhile
            return await self._draw_here(name, locale, *args)
        weight = self.SLOW_WEIGHT if route is not None and route.slow else 1
        self._waiting[index] += weight
        try:
            worker = self._started(index)
            try:
                return bytes(await worker.submit(name, locale, *args))
            except WorkerDied:
                log.warning("a render worker died: starting a new one and drawing %s again", name)
                self._discard(index, worker)
            return bytes(await self._started(index).submit(name, locale, *args))
        finally:
            self._waiting[index] -= weight

    async def _draw_here(self, name: str, locale: str | None, *args: object) -> bytes:
        """One image drawn in this process, in a thread, while its worker warms up; one at a time
        (the drawing holds the GIL, which the event loop needs too)."""
        loop = asyncio.get_running_loop()
        if self._here[0] is not loop:  # a semaphore belongs to one event loop, as the workers do
            self._here = (loop, asyncio.Semaphore(1))
        async with self._here[1]:
            return await asyncio.to_thread(_render, name, locale, *args)

    def _discard(self, index: int, worker: PipeWorker) -> None:
        """Forget ``worker`` so the next render starts a new one (once: the renders that were
        waiting on it all see it die, and the first one here replaces it); it is reaped in the
        background."""
        if self._workers[index] is worker:
            self._workers[index] = None
            if worker.loop is asyncio.get_running_loop():
                task = asyncio.ensure_future(worker.close(timeout=0))
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
            else:  # its loop has ended: close its socket here (the worker reads end-of-file)
                worker.abandon()
                worker.process.join(1)
                if worker.process.is_alive():
                    worker.process.kill()
                    worker.process.join()

    async def close(self) -> None:
        workers, self._workers = self._workers, [None] * self.workers
        for worker in workers:
            if worker is not None:
                await worker.close()
        if self._closing:
            await asyncio.gather(*self._closing)
