"""The garbage collector of a long-running bot process: what it scans, and how often.

A full collection walks every object the collector tracks. After start-up that is some 75,000
objects that live as long as the process (modules, discord.py's command tree, the catalogue, the
resumed games), and a full collection then came once every hundred-odd actions and stopped the
event loop for tens of milliseconds: the slowest actions of ``python -m bench bot``
(``action_p999_ms``) were the ones it fell into. Counted in the offline harness: 76,000 tracked
objects right after start-up, 108,000 after 100 actions (tests/test_collector.py holds the
mechanism, docs/benchmarks.md the figures).

* :func:`freeze_startup`, once the bot is ready (after ``resume()``): one collection, then
  ``gc.freeze()`` moves every survivor to the permanent generation, which no collection scans
  again. They are still freed by reference counting; only a cycle among them would stay (nothing
  of start-up is dropped while the process runs).
* :func:`tune_collector`, first thing in ``python -m bot``: a young generation of
  :data:`YOUNG_THRESHOLD` allocations instead of 2,000. An action allocates thousands of objects
  (a parsed state, its events, the messages), nearly all freed by reference counting before the
  next action, so a young collection finds little; fewer of them means fewer middle and full
  collections behind them too (150 harness actions ran 39 young, 4 middle collections).

A render worker (bot/core/rendering/render.py) works in jobs, and a collection that falls inside one delays
the image a player waits for: 96 turn ends drawn after a worker's warm-up ran 20 young and 2
middle collections, the middle ones 6–8 ms each (tail of ``action_p99_ms``). So a worker freezes
what its warm-up built and turns automatic collections off (:func:`collect_between_jobs`), and
runs the ones CPython would have run once each image is written back (:func:`collect_if_due`),
when nobody waits.

Both bot settings are process-wide, so the bot's entry point and the benches that stand for it enable them
(:func:`tune_collector` arms :func:`freeze_startup`); a test process that starts many bots does
not.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""Allocations (net of frees) of tracked objects between two young collections (CPython: 2,000)."""
OLDER_THRESHOLDS = (10, 10)
"""CPython's own: a middle collection every 10 young ones, a full one every 10 middle ones."""

_tuned = False


def tune_collector() -> None:
    """Set the collector's thresholds for the bot and arm :func:`freeze_startup`."""
    global _tuned
    gc.set_threshold(YOUNG_THRESHOLD, *OLDER_THRESHOLDS)
    _tuned = True


def freeze_startup() -> int:
    """Once start-up is done: collect, then keep every survivor out of later collections.
    Returns how many objects are frozen (0 when :func:`tune_collector` was not called: tests)."""
    if not _tuned:
        return 0
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def tuned() -> bool:
    return _tuned


def collect_between_jobs() -> int:
    """For a process that works in jobs, once it has started: collect, freeze the survivors
    (as :func:`freeze_startup`), and leave the collections to :func:`collect_if_due`, called
    between jobs. Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    gc.disable()
    return gc.get_freeze_count()


def collect_if_due() -> int:
    """The collection CPython would have run by now with its thresholds (the oldest generation
    whose count reached its threshold, and every younger one); -1 if none was due. The counts
    grow while automatic collections are off, so nothing is missed, only moved."""
    due = -1
    for generation, (count, threshold) in enumerate(zip(gc.get_count(), gc.get_threshold(), strict=True)):
        if count < threshold:
            break
        due = generation
    if due >= 0:
        gc.collect(due)
    return due
