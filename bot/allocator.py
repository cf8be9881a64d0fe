"""Keep the C allocator from holding on to memory the images have finished with.

A render allocates pixel buffers of hundreds of KB to a few MB and frees them a moment later.
glibc's malloc raises its mmap threshold each time such a buffer is freed, so later buffers come
from the heap instead, and a heap interleaved with small long-lived objects cannot shrink: the
process grew by tens of MB that Python no longer used. Each thread that renders also gets its own
heap ("arena"). Fixing the threshold (buffers of 128 KB and more are mapped, and unmapped when
freed) and capping the arenas keeps the resident size near what is really live
(``python -m bench`` measures it). Other C libraries: nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

M_ARENA_MAX = -8
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_BYTES = 128 * 1024
"""glibc's initial threshold; setting it explicitly stops the dynamic raising."""
ARENAS = 2
"""The event loop's thread and the render threads share two heaps (2 cores: little contention)."""


def limit_heap_growth() -> bool:
    """Apply the settings above when the C library is glibc; True if it was. Call it early, before
    threads start, once per process (the bot's, each render worker's)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
        libc.gnu_get_libc_version  # noqa: B018 - present only in glibc
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    applied = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)) and bool(mallopt(M_ARENA_MAX, ARENAS))
    if not applied:
        log.warning("mallopt refused the heap settings; memory may grow with renders")
    return applied
