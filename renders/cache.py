"""Drawing caches bounded by the bytes they hold, not by how many entries they have.

An entry count says nothing about memory: a planning card is ~700 KB of pixels, a piece icon a
few KB, so ``lru_cache(maxsize=32)`` on one and ``maxsize=256`` on the other gave a process
holding a hundred games some 50 MB of cached images. :func:`byte_lru` keeps the least recently
used entries whose sizes add up to at most its budget; the budgets of every cache in the
process are listed by :func:`budgets` and add up to :data:`RENDER_CACHE_BYTES`.

Renders run in threads (the bot's ``ThreadedRenderer``), so a cache is guarded by a lock; the
value is computed outside it (two threads may both draw a missing entry; both results are equal,
since drawing is pure).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

from PIL import Image

P = ParamSpec("P")
V = TypeVar("V")

MB = 1024 * 1024
RENDER_CACHE_BYTES = 33 * MB
"""What every drawing cache of one process may hold together (the sum of the budgets below)."""

WORKER_BUDGETS: dict[str, int] = {
    "renders.layers._SEGMENTS": 20 * MB,
    "renders.layers._PARTS": 12 * MB,
    "renders.layers._PART_IMAGES": 4 * MB,  # the parts used last, not compressed (~180 KB a panel)
    "renders.layers.TILES": 4 * MB,  # panels' boxes and tiles (~190 KB a box, 10-40 KB a tile)
    "renders.card.market_card": 11 * MB,  # every market face of the catalogue (86, ~126 KB each)
    "renders.card.mini_card": 6 * MB,
    "renders.indexed._DERIVED": 6 * MB,  # glyphs on their backgrounds: the table's panels' text
    "renders.indexed._BLENDS": 6 * MB,  # the catalogue's market cards on the page (~63 KB each)
    "renders.fonts.run": 4 * MB,  # the strings themselves (the glyphs above are kept per string)
}
"""The budgets a process that only draws (the bot's render workers, :func:`use_budgets`) gives
the image layers and the card images instead of the defaults. One worker draws the posts of
every busy channel routed to it, so what it keeps must cover them all: with 200 games
interleaved, the layers' defaults (3 MB and 2 MB) were
overrun long before a game's next post came round, and least-recently-used order then kept
nothing that was asked for again (measured over 200 interleaved 4-player games: table image
20.5 ms median with the defaults, 14.3 ms with these; the market faces alone missed 7,000 times
in 12,000 with 3 MB, 52 times with 8 MB). The faces and their blends hold the whole catalogue's
(86 cards, 10.8 and 5.4 MB) since a worker draws them all at start
(``bot.core.rendering.render.warm_market``).
The bot's own process, which draws in threads beside everything else, keeps the defaults."""

WORKER_RENDER_CACHE_BYTES = 87 * MB
"""What the drawing caches of a render worker may hold together: every default budget, with
:data:`WORKER_BUDGETS` in place of theirs, adds up to at most this."""


def image_bytes(image: Image.Image) -> int:
    """The pixel memory of a Pillow image (what dominates an entry's size)."""
    return image.width * image.height * len(image.getbands())


@dataclass(frozen=True, slots=True)
class CacheInfo:
    hits: int
    misses: int
    entries: int
    bytes: int
    max_bytes: int


class _ByteBounded(Generic[V]):
    """Entries kept least recently used first, dropped once their sizes add up to more than
    ``max_bytes``; thread-safe. A value larger than the whole budget is not kept."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()

    def _find(self, key: Hashable) -> tuple[V] | None:
        """``(value,)`` when ``key`` is kept (now the most recent), else None (a miss)."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return (found[0],)
            self._misses += 1
            return None

    def _keep(self, key: Hashable, value: V, cost: int) -> list[tuple[Hashable, V]]:
        """Keep ``value``; returns the entries dropped to make room for it (oldest first)."""
        if cost > self.max_bytes:
            return []
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= previous[1]
            self._entries[key] = (value, cost)
            self._bytes += cost
            return self._drop_oldest()

    def resize(self, max_bytes: int) -> None:
        """A new budget; where it shrank, the least recently used entries go at once."""
        with self._lock:
            self.max_bytes = max_bytes
            self._drop_oldest()

    def _drop_oldest(self) -> list[tuple[Hashable, V]]:
        """Drop least recently used entries until the rest fit (the lock held); returns them."""
        dropped: list[tuple[Hashable, V]] = []
        while self._bytes > self.max_bytes:
            key, (value, cost) = self._entries.popitem(last=False)
            self._bytes -= cost
            dropped.append((key, value))
        return dropped

    def __contains__(self, key: Hashable) -> bool:
        """Whether ``key`` is kept (its place in the order and the hit counts are left alone)."""
        with self._lock:
            return key in self._entries

    def keys(self) -> list[Hashable]:
        """The keys kept now, least recently used first (a snapshot)."""
        with self._lock:
            return list(self._entries)

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries), self._bytes, self.max_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self._hits = self._misses = 0


class ByteLRU(_ByteBounded[V], Generic[P, V]):
    """``function`` memoised within ``max_bytes`` (each value's size by ``size``)."""

    def __init__(self, function: Callable[P, V], max_bytes: int, size: Callable[[V], int]) -> None:
        super().__init__(max_bytes)
        self._function = function
        self._size = size
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> V:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self._find(key)
        if found is not None:
            return found[0]
        value = self._function(*args, **kwargs)
        self._keep(key, value, self._size(value))
        return value


class DerivedImages(_ByteBounded[tuple[Image.Image, Image.Image]]):
    """Images made from another image (a sprite's mask, a glyph over one background), remembered
    per source *object*: the key is ``id(source)``, so the source is kept referenced with its
    entry (its id stays its own) and both images count against ``max_bytes``."""

    def __init__(self, name: str, max_bytes: int) -> None:
        super().__init__(max_bytes)
        _CACHES[name] = self

    def get(self, source: Image.Image, what: tuple[object, ...],
            make: Callable[[], Image.Image]) -> Image.Image:
        """``make()`` for ``source`` and ``what``, remembered."""
        key = (id(source), *what)
        found = self._find(key)
        if found is not None and found[0][0] is source:
            return found[0][1]
        made = make()
        self._keep(key, (source, made), image_bytes(source) + image_bytes(made))
        return made


class HashedKey:
    """A key whose hash is computed once. The image layers' keys hold game state (cards, puzzles,
    options: dataclasses hashed field by field in Python), and a key is hashed at every dict
    operation — looked up, moved to the end, popped and stored again (callgrind, a 4-player turn
    end's table image: hashing 6.8 M instructions, 2.6 M with the layers' keys hashed once)."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: Hashable) -> None:
        self.value = value
        self._hash = hash(value)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HashedKey) and self._hash == other._hash and self.value == other.value


class KeptBytes(_ByteBounded[V]):
    """Values kept by a key their maker chose (the images of :mod:`renders.layers`), within
    ``max_bytes``: :meth:`find` what is kept, :meth:`keep` what was made with its size.

    ``spill``: called with each entry :meth:`keep` drops to make room (outside the lock), so a
    small cache of values ready to use can hand what it drops to a larger one that keeps them
    compressed. Entries a smaller budget drops (:meth:`resize`) are not spilled."""

    def __init__(self, name: str, max_bytes: int,
                 spill: Callable[[Hashable, V], None] | None = None) -> None:
        super().__init__(max_bytes)
        self._spill = spill
        _CACHES[name] = self

    def find(self, key: Hashable) -> V | None:
        found = self._find(key)
        return None if found is None else found[0]

    def keep(self, key: Hashable, value: V, cost: int) -> None:
        dropped = self._keep(key, value, cost)
        if self._spill is not None:
            for old_key, old_value in dropped:
                self._spill(old_key, old_value)

    def take(self, key: Hashable) -> V | None:
        """The value kept for ``key``, no longer kept (None if it was not)."""
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self._bytes -= found[1]
            return found[0]

    def take_all(self) -> list[tuple[Hashable, V]]:
        """Every entry, least recently used first, none kept any more."""
        with self._lock:
            entries = [(key, value) for key, (value, _) in self._entries.items()]
            self._entries.clear()
            self._bytes = 0
            return entries


_CACHES: dict[str, _ByteBounded[Any]] = {}


def byte_lru(max_bytes: int, size: Callable[[V], int]) -> Callable[[Callable[P, V]], ByteLRU[P, V]]:
    """Decorator: memoise the function within ``max_bytes`` (sizes measured by ``size``)."""

    def wrap(function: Callable[P, V]) -> ByteLRU[P, V]:
        cache = ByteLRU(function, max_bytes, size)
        _CACHES[f"{function.__module__}.{function.__qualname__}"] = cache
        return cache

    return wrap


def budgets() -> dict[str, int]:
    """Every byte-bounded cache of the process (by qualified name) and its budget."""
    return {name: cache.max_bytes for name, cache in _CACHES.items()}


def use_budgets(changed: dict[str, int]) -> None:
    """Give the named caches (names as :func:`budgets` lists them) new budgets, dropping their
    least recently used entries at once where a budget shrank."""
    for name, max_bytes in changed.items():
        _CACHES[name].resize(max_bytes)


@contextmanager
def budgets_while(changed: dict[str, int]) -> Iterator[None]:
    """:func:`use_budgets` until the block ends, then the budgets as they were: for code that
    measures a render worker's settings inside another process (the images' bench, run by the
    test suite too), which must not leave the worker's larger budgets to whatever runs next."""
    before = {name: _CACHES[name].max_bytes for name in changed}
    use_budgets(changed)
    try:
        yield
    finally:
        use_budgets(before)


def held() -> dict[str, CacheInfo]:
    """What each cache holds now: for tests and the memory benchmark's breakdown."""
    return {name: cache.cache_info() for name, cache in _CACHES.items()}


def clear_all() -> None:
    for cache in _CACHES.values():
        cache.cache_clear()
