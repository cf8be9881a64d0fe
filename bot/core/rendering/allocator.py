"""Give the memory of finished renders back to the system (glibc's malloc).

A render allocates pixel buffers of hundreds of KB to a few MB and frees them a moment later.
glibc keeps freed memory for reuse: its mmap threshold rises each time such a buffer is freed, so
later buffers come from a heap, and a heap interleaved with small long-lived objects does not
shrink by itself; each thread that renders also gets a heap of its own. A process that had drawn
for 100 games held tens of MB that nothing used (docs/benchmarks.md, memory).

* :func:`limit_heap_growth`: one heap for every thread (the renders' threads mostly wait for the
  GIL anyway; two heaps measured 4–14 MB more after the same work).
* :func:`release_freed_memory`: ``malloc_trim``, which hands the free pages inside the heaps
  back (about 3 ms on a 100 MB heap) — in a render worker at most once a second, and with the
  in-process renderer whenever its last render in flight ends (the process is idle: the work
  costs no one any waiting).

Fixing the mmap threshold instead (every large buffer mapped and unmapped) freed about as much
but made each render some 40 % slower in CPU (page faults on every buffer). On other C libraries
both do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from functools import lru_cache
from typing import Any

M_ARENA_MAX = -8
ARENAS = 1
TRIM_EVERY_SECONDS = 1.0

_last_trim = 0.0
_trim_lock = threading.Lock()


@lru_cache(maxsize=1)
def _glibc() -> Any | None:
    """The C library when it is glibc (it has ``gnu_get_libc_version``), else None."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # noqa: B018 - present only in glibc
    except (OSError, AttributeError):
        return None
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    libc.mallopt.restype = ctypes.c_int
    libc.malloc_trim.argtypes = [ctypes.c_size_t]
    libc.malloc_trim.restype = ctypes.c_int
    return libc


def limit_heap_growth() -> bool:
    """At most :data:`ARENAS` heaps; True if applied (glibc). Call it early, once per process
    (the bot's, each render worker's), before threads start."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(M_ARENA_MAX, ARENAS))


def release_freed_memory(*, every: float = TRIM_EVERY_SECONDS, now: float | None = None) -> bool:
    """``malloc_trim`` unless the last one was less than ``every`` seconds ago; True if it ran.
    Safe from any thread (one trims, the others return at once)."""
    global _last_trim
    libc = _glibc()
    if libc is None:
        return False
    now = time.monotonic() if now is None else now
    if now - _last_trim < every or not _trim_lock.acquire(blocking=False):
        return False
    try:
        _last_trim = now
        libc.malloc_trim(0)
    finally:
        _trim_lock.release()
    return True
