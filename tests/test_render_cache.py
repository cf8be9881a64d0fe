"""The drawing caches and the parsed-state cache are bounded by bytes (issue 15's memory budget)."""

from __future__ import annotations

import platform
import threading
import time

from PIL import Image

import engine
import renders
from bot.core import games
from bot.core.rendering.allocator import TRIM_EVERY_SECONDS, limit_heap_growth, release_freed_memory
from engine import serialisation
from renders import card, draw, fonts
from renders.cache import (
    RENDER_CACHE_BYTES,
    WORKER_BUDGETS,
    WORKER_RENDER_CACHE_BYTES,
    DerivedImages,
    budgets,
    budgets_while,
    byte_lru,
    held,
    image_bytes,
    use_budgets,
)


def test_entries_are_dropped_by_bytes_least_recently_used_first() -> None:
    drawn: list[int] = []

    @byte_lru(1000, len)
    def blob(n: int) -> bytes:
        drawn.append(n)
        return bytes(400)

    blob(1), blob(2), blob(1)  # 1 is now the most recently used
    blob(3)  # 1200 bytes > 1000: 2 goes
    info = blob.cache_info()
    assert (info.entries, info.bytes) == (2, 800)
    blob(1), blob(3)
    assert drawn == [1, 2, 3]
    blob(2)
    assert drawn == [1, 2, 3, 2]


def test_a_value_larger_than_the_budget_is_returned_but_not_kept() -> None:
    @byte_lru(100, len)
    def big(n: int) -> bytes:
        return bytes(n)

    assert len(big(500)) == 500
    assert big.cache_info().entries == 0 and big.cache_info().bytes == 0


def test_threads_drawing_at_once_keep_the_count_of_bytes_exact() -> None:
    @byte_lru(10_000, len)
    def blob(n: int) -> bytes:
        return bytes(100 + n % 7)

    def work(offset: int) -> None:
        for n in range(400):
            blob((n * 13 + offset) % 150)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    info = blob.cache_info()
    assert 0 < info.bytes <= 10_000
    assert info.entries * 100 <= info.bytes <= info.entries * 106  # each entry counted once


def test_every_drawing_cache_is_byte_bounded_and_the_budgets_add_up() -> None:
    for function in (card.market_card, card.mini_card, card._plan_card, draw.piece_sprite,
                     draw.disc_image, draw.arrow_sprite, fonts.run, fonts.get_font):
        assert f"{function.__module__}.{function.__qualname__}" in budgets()
    assert "renders.indexed._DERIVED" in budgets()
    drawing = {name: size for name, size in budgets().items() if name.startswith("renders.")}
    assert sum(drawing.values()) <= RENDER_CACHE_BYTES


def test_drawing_many_games_stays_within_the_budgets() -> None:
    names = ["Ana", "Bo", "Cy", "Di"]
    for seed in range(12):
        state = engine.new_game(engine.Options(players=4), seed)
        renders.render_table(state, names)
        for seat in range(4):
            renders.render_mat(state, seat, names)
    for name, info in held().items():
        assert info.bytes <= info.max_bytes, name
    assert held()["renders.card.market_card"].entries > 0


def test_derived_images_are_kept_per_source_object_within_their_bytes() -> None:
    derived = DerivedImages("tests.derived", 3 * 200)  # room for three (source + made) pairs
    sources = [Image.new("L", (10, 10), shade) for shade in range(5)]
    made = [derived.get(source, ("x",), lambda s=source: s.point(lambda v: 255 - v)) for source in sources]
    info = derived.cache_info()
    assert (info.entries, info.bytes) == (3, 600)
    assert derived.get(sources[4], ("x",), lambda: Image.new("L", (1, 1))) is made[4]  # kept
    assert derived.get(sources[0], ("x",), lambda: Image.new("L", (1, 1))) is not made[0]  # dropped
    equal_twin = sources[4].copy()  # same pixels, another object: not the same entry
    assert derived.get(equal_twin, ("x",), lambda: Image.new("L", (2, 2))).size == (2, 2)
    assert derived.cache_info().bytes <= derived.max_bytes


def test_image_bytes_counts_every_band() -> None:
    assert image_bytes(Image.new("RGBA", (10, 3))) == 120
    assert image_bytes(Image.new("L", (10, 3))) == 30


def test_remembered_states_stay_within_their_byte_budget(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(games, "_PARSED", type(games._PARSED)())
    monkeypatch.setattr(games, "_parsed_bytes", 0)
    states = [engine.new_game(engine.Options(players=2), seed) for seed in range(1, 7)]
    texts = [serialisation.dumps(state, cards=False) for state in states]  # what a commit stores
    budget = sum(len(text) for text in texts[-3:]) * games.PARSED_BYTES_PER_CHARACTER
    monkeypatch.setattr(games, "PARSED_STATES_BYTES", budget)
    assert [games._dump_state(state) for state in states] == texts
    assert list(games._PARSED) == texts[-3:] and games.parsed_states_bytes() == budget
    games._remember(texts[0], states[0])  # read again: the most recent now, the oldest goes
    assert list(games._PARSED)[-1] == texts[0] and texts[3] not in games._PARSED
    assert games.parsed_states_bytes() <= budget
    monkeypatch.setattr(games, "PARSED_STATES_BYTES", 10)
    games._remember(texts[1], states[1])  # larger than the whole budget: not kept
    assert texts[1] not in games._PARSED


def test_heap_settings_apply_on_glibc() -> None:
    assert limit_heap_growth() is (platform.libc_ver()[0] == "glibc")


def test_freed_memory_is_given_back_at_most_once_per_interval() -> None:
    if platform.libc_ver()[0] != "glibc":
        assert not release_freed_memory(every=0.0)
        return
    start = time.monotonic() + 1000.0  # later than any trim so far
    assert release_freed_memory(now=start)
    assert not release_freed_memory(now=start + TRIM_EVERY_SECONDS / 2)
    assert release_freed_memory(now=start + TRIM_EVERY_SECONDS)
    assert release_freed_memory(every=0.0, now=start + TRIM_EVERY_SECONDS)


def test_a_render_worker_s_budgets_add_up_and_apply_at_once() -> None:
    defaults = budgets()
    worker = {**defaults, **WORKER_BUDGETS}
    drawing = sum(size for name, size in worker.items() if name.startswith("renders."))
    assert drawing <= WORKER_RENDER_CACHE_BYTES
    try:
        names = ["Ana", "Bo", "Cy", "Di"]
        state = engine.new_game(engine.Options(players=4), 3)
        renders.render_table(state, names)
        use_budgets({"renders.layers._SEGMENTS": 1})  # shrunk below what it holds: emptied now
        assert held()["renders.layers._SEGMENTS"].bytes == 0
        use_budgets(WORKER_BUDGETS)
        assert budgets()["renders.layers._SEGMENTS"] == WORKER_BUDGETS["renders.layers._SEGMENTS"]
    finally:
        use_budgets({name: defaults[name] for name in WORKER_BUDGETS})
    assert budgets() == defaults


def test_budgets_while_gives_the_budgets_back_when_the_block_ends() -> None:
    """The images' bench measures a render worker's budgets inside the test process: they must
    not outlive it (the budgets-add-up check above failed when it ran after the bench's test)."""
    before = budgets()
    with budgets_while(WORKER_BUDGETS):
        assert all(budgets()[name] == size for name, size in WORKER_BUDGETS.items())
    assert budgets() == before
