"""The bot's default renderer draws in worker processes: the same images as drawing in-process,
for every kind of image, and a clean shutdown. Images are compared by their pixels and palette
(tests/images.py: a worker's deflate stream may differ from this process's)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import discord
import pytest
from images import shown

import engine
import renders
from bench.beside_recap import tables_beside_recap
from bot.core.rendering.render import ProcessRenderer, Route, ThreadedRenderer, warm_market
from bot.core.wording.locales import image_words
from engine import Colour
from renders.cache import WORKER_BUDGETS, budgets_while, clear_all, held
from renders.samples import names_for, play


async def test_process_pool_draws_what_the_renders_draw() -> None:
    states = list(play(engine.Options(players=3), 11))
    middle = next(s for s in states[len(states) // 2:]
                  if any(isinstance(a, engine.Place) for a in engine.legal_actions(s)))
    place = next(a for a in engine.legal_actions(middle) if isinstance(a, engine.Place))
    names = names_for(middle)
    renderer = ProcessRenderer(workers=2)
    try:
        table, mat = await asyncio.gather(renderer.table(middle, names), renderer.mat(middle, 1, names))
        assert shown(table) == shown(renders.render_table(middle, names))
        assert shown(mat) == shown(renders.render_mat(middle, 1, names))
        results = await renderer.results(states[-1], names)
        assert shown(results) == shown(renders.render_results(states[-1], names))
        preview = await renderer.preview(middle, middle.current, place, names)
        assert shown(preview) == shown(renders.render_preview(middle, middle.current, place, names))
        words = image_words("pt-BR")  # a locale crosses to the worker as its code
        portuguese = await renderer.table(middle, names, locale=discord.Locale.brazil_portuguese)
        assert shown(portuguese) == shown(renders.render_table(middle, names, words=words)) != shown(table)
        mat = await renderer.mat(middle, 1, names, locale="pt-BR")
        assert shown(mat) == shown(renders.render_mat(middle, 1, names, words=words))
    finally:
        await renderer.close()
    await renderer.close()  # closing twice is harmless


async def test_threaded_renderer_draws_in_the_locale_asked() -> None:
    states = list(play(engine.Options(players=2), 5))
    names = names_for(states[-1])
    renderer = ThreadedRenderer()
    portuguese = await renderer.results(states[-1], names, locale="pt-BR")
    assert shown(portuguese) == shown(renders.render_results(states[-1], names, words=image_words("pt-BR")))
    french = await renderer.results(states[-1], names, locale="fr")  # no French: English
    assert shown(french) == shown(renders.render_results(states[-1], names))


def test_a_game_s_images_go_to_its_own_worker_unless_that_one_is_far_busier() -> None:
    renderer = ProcessRenderer(workers=2)
    assert {renderer.worker_for(Route(seed)) for seed in (4, 6, 8)} == {0}  # a seed names one worker
    assert renderer.worker_for(Route(7)) == 1
    renderer._waiting[:] = [ProcessRenderer.AFFINITY_SLACK, 0]
    assert renderer.worker_for(Route(4)) == 0  # a little busier: the game stays where its bands are
    renderer._waiting[:] = [ProcessRenderer.AFFINITY_SLACK + 1, 0]
    assert renderer.worker_for(Route(4)) == 1  # far busier: the idle core takes it
    assert renderer.worker_for(None) == 1  # no game (a ghost split): the least busy


def test_a_recap_takes_the_least_busy_worker_and_turn_images_go_round_it() -> None:
    """A recap (a third of a second) must not hold up the turn posts of the games whose images
    its worker draws: while it is drawn there, their tables and mats go to the other worker."""
    renderer = ProcessRenderer(workers=2)
    renderer._waiting[:] = [1, 0]
    assert renderer.worker_for(Route(4, slow=True)) == 1  # not the game's own worker: the idle one
    renderer._waiting[:] = [ProcessRenderer.SLOW_WEIGHT, 0]  # worker 0 draws a recap
    assert renderer.worker_for(Route(4)) == 1 and renderer.worker_for(Route(7, 0)) == 1
    renderer._waiting[:] = [ProcessRenderer.SLOW_WEIGHT, ProcessRenderer.AFFINITY_SLACK + 1]
    assert renderer.worker_for(Route(4)) == 1  # three images ahead beat a recap ahead


async def test_a_recap_counts_as_slow_while_it_is_drawn_and_not_after() -> None:
    """The weight a recap adds to its worker is taken off again when it is done (or fails)."""
    renderer = ProcessRenderer(workers=2)
    seen: list[list[int]] = []

    class Worker:
        ready = asyncio.get_running_loop().create_future()
        ready.set_result(None)  # warmed up: it draws (a warming one's images are drawn in-process)

        async def submit(self, name: str, locale: str | None, *args: object) -> bytes:
            seen.append(list(renderer._waiting))
            return b"png"

    renderer._started = lambda index: Worker()  # type: ignore[method-assign, assignment, return-value]
    states = list(play(engine.Options(players=2), 5))[:2]
    assert await renderer.recap(states, names_for(states[-1]), [[0, 0], [1, 0]], None) == b"png"
    assert seen == [[ProcessRenderer.SLOW_WEIGHT, 0]] and renderer._waiting == [0, 0]


async def test_another_game_s_tables_are_drawn_while_a_recap_is() -> None:
    """Real workers (the bench's run, once): a game whose images prefer the worker a recap took
    gets its tables one after another meanwhile. Queued behind the recap, as before the slow lane,
    it got one table per recap, drawn when the recap was done."""
    figures = await tables_beside_recap(trials=1)
    assert figures["tables_beside_recap_count"] >= 5


def test_a_worker_s_warm_up_leaves_no_market_face_to_draw() -> None:
    """warm_market draws every card of the catalogue face up (a worker's budgets keep them all):
    the first tables of later games, whatever cards they deal, draw no face."""
    with budgets_while(WORKER_BUDGETS):
        clear_all()
        state = engine.new_game(engine.Options(players=2), 3)
        whites = sum(card.colour is Colour.WHITE for card in state.cards.values())
        tables = -(-whites // 4) + -(-(len(state.cards) - whites) // 4)
        assert warm_market(state, names_for(state)) == tables
        drawn = held()["renders.card.market_card"].misses
        for seed in range(6):
            game = engine.new_game(engine.Options(players=2 + seed % 3), 100 + seed)
            renders.render_table(game, names_for(game))
        assert held()["renders.card.market_card"].misses == drawn
        clear_all()


@pytest.mark.parametrize("workers", [1, 2, 3, 4])
def test_a_seat_s_mat_is_drawn_beside_its_game_s_table_not_behind_it(workers: int) -> None:
    """A turn end draws the table and the actor's mat at once: with two or more workers, no
    seat's mat shares its game's table's worker, and each seat keeps one worker (its bands)."""
    renderer = ProcessRenderer(workers=workers)
    for seed in range(8):
        table = renderer.worker_for(Route(seed))
        for seat in range(6):
            mat = renderer.worker_for(Route(seed, seat))
            assert mat == renderer.worker_for(Route(seed, seat))
            assert (mat != table) if workers > 1 else (mat == table == 0)


_LATER_GAMES = """
import engine, renders
from bot.core.rendering.render import warm_renders
from renders import indexed
from renders.samples import names_for, play
warm_renders()
warmed = indexed.text_lut.cache_info().misses
for players, seed in ((2, 100), (3, 101)):
    shown = None
    for state in play(engine.Options(players=players), seed, policy="greedy"):
        if shown is None or (state.turn, state.current) != (shown.turn, shown.current):
            renders.render_table(state, names_for(state), shown)
            renders.render_mat(state, state.current, names_for(state))
            shown = state
    renders.render_results(state, names_for(state))
print(warmed, indexed.text_lut.cache_info().misses - warmed)
"""


def test_a_warmed_worker_builds_no_text_colour_table_in_a_later_game() -> None:
    """What a render worker does when it starts (``warm_renders``) leaves nothing for a real game
    to build on first use: in a fresh process (every cache empty), games of 2 and 3 players
    drawn after the warm-up build no new text colour table (each costs some 10 ms: the tail of
    the first turn posts)."""
    out = subprocess.run([sys.executable, "-c", _LATER_GAMES], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    warmed, later = map(int, out.stdout.split())
    assert warmed >= 10 and later == 0


async def test_ready_starts_every_worker_and_waits_for_its_warm_up() -> None:
    """What a bench awaits before timing renders: every worker process is up (its warm-up has
    run: it says so before its first job), not only the one a first image went to."""
    renderer = ProcessRenderer(workers=2)
    try:
        await renderer.ready()
        workers = renderer.start()  # the same workers, already started
        assert all(worker.ready.done() and worker.process.is_alive() for worker in workers)
        pids = {worker.pid for worker in workers}
        assert len(pids) == 2 and os.getpid() not in pids
    finally:
        await renderer.close()
    assert not any(worker.process.is_alive() for worker in workers)  # closed: no process left


def test_threads_drawing_at_once_draw_the_images_one_thread_draws() -> None:
    """ThreadedRenderer draws two images at once, sharing the drawing caches: what two threads
    fill while both draw must be what one thread draws alone (pixels, tests/images.py)."""
    states = list(play(engine.Options(players=3), 11))[::40]
    names = names_for(states[0])
    jobs = [(kind, state) for state in states for kind in ("table", "mat")]

    def draw(job: tuple[str, engine.GameState]) -> bytes:
        kind, state = job
        if kind == "table":
            return renders.render_table(state, names)
        return renders.render_mat(state, state.current, names)

    alone = [shown(draw(job)) for job in jobs]
    renders.cache.clear_all()
    with ThreadPoolExecutor(2) as pool:
        together = [shown(image) for image in pool.map(draw, jobs)]
    assert together == alone
