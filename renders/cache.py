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
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import update_wrapper
from typing import Any, Generic, ParamSpec, TypeVar

from PIL import Image

P = ParamSpec("P")
V = TypeVar("V")

MB = 1024 * 1024
RENDER_CACHE_BYTES = 20 * MB
"""What every drawing cache of one process may hold together (the sum of the budgets below)."""


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


class ByteLRU(Generic[P, V]):
    """``function`` memoised; least recently used entries are dropped once their sizes (by
    ``size``) exceed ``max_bytes``. A value larger than the whole budget is returned, not kept."""

    def __init__(self, function: Callable[P, V], max_bytes: int, size: Callable[[V], int]) -> None:
        self._function = function
        self._size = size
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> V:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = self._function(*args, **kwargs)
        cost = self._size(value)
        if cost > self.max_bytes:
            return value
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= previous[1]
            self._entries[key] = (value, cost)
            self._bytes += cost
            while self._bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
        return value

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries), self._bytes, self.max_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self._hits = self._misses = 0


class DerivedImages:
    """Images made from another image (a sprite's mask, a glyph over one background), remembered
    per source *object*: the key is ``id(source)``, so the source is kept referenced with its
    entry (its id stays its own) and both images count against ``max_bytes``."""

    def __init__(self, name: str, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Image.Image, Image.Image, int]] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()
        _CACHES[name] = self

    def get(self, source: Image.Image, what: tuple[object, ...],
            make: Callable[[], Image.Image]) -> Image.Image:
        """``make()`` for ``source`` and ``what``, remembered."""
        key = (id(source), *what)
        with self._lock:
            found = self._entries.get(key)
            if found is not None and found[0] is source:
                self._entries.move_to_end(key)
                self._hits += 1
                return found[1]
            self._misses += 1
        made = make()
        cost = image_bytes(source) + image_bytes(made)
        if cost > self.max_bytes:
            return made
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= previous[2]
            self._entries[key] = (source, made, cost)
            self._bytes += cost
            while self._bytes > self.max_bytes:
                _, (_, _, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
        return made

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries), self._bytes, self.max_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self._hits = self._misses = 0


_CACHES: dict[str, ByteLRU[Any, Any] | DerivedImages] = {}


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


def held() -> dict[str, CacheInfo]:
    """What each cache holds now: for tests and the memory benchmark's breakdown."""
    return {name: cache.cache_info() for name, cache in _CACHES.items()}


def clear_all() -> None:
    for cache in _CACHES.values():
        cache.cache_clear()
