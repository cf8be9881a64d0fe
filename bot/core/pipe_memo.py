"""Objects sent to a worker process once, then named: the game states of the render jobs.

A turn end sends the new state twice (the actor's mat to one worker, the table to the other) and
the table job the state the game's previous post showed too, which the same worker received with
that post. Pickling a state takes about 0.3 ms and unpickling it as long, on the path a player
waits on, four times per turn end. So:

* the bot's process pickles an object of the kept types once (:class:`Pickled`, shared by the
  workers) — the mat job and the table job send the same bytes;
* each worker keeps the last :data:`KEPT` such objects it received (:class:`Receiver`), and the
  bot's process, which knows which (:class:`Sender`), sends a later job a key in their place.

Only immutable objects may be kept (``GameState`` is a frozen dataclass): the worker's copy is
the object as it was when first sent. The two sides stay in step because the worker applies
each job's changes in the order they were made: the keys the sender forgot since the previous
job, then the new objects, then the job itself (a key in a job is never one it forgets).
"""

from __future__ import annotations

import io
import itertools
import pickle
from collections import OrderedDict
from typing import Any

KEPT = 32
"""Objects a worker keeps between jobs: a few per game whose images it draws."""
PICKLED = 16
"""Objects whose pickled bytes the bot's process keeps (the states of the last few actions)."""

Job = tuple[list[int], list[tuple[int, bytes]], bytes]
"""What crosses for one job: the keys forgotten, the new objects (key, pickle), the arguments'
pickle (kept objects in it are persistent ids)."""


class Pickled:
    """The pickled bytes of the last :data:`PICKLED` kept objects (each held, so its id is not
    reused while it is here)."""

    def __init__(self) -> None:
        self._bytes: OrderedDict[int, tuple[object, bytes]] = OrderedDict()

    def __call__(self, obj: object) -> bytes:
        entry = self._bytes.get(id(obj))
        if entry is not None and entry[0] is obj:
            self._bytes.move_to_end(id(obj))
            return entry[1]
        data = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
        self._bytes[id(obj)] = (obj, data)
        while len(self._bytes) > PICKLED:
            self._bytes.popitem(last=False)
        return data


class Sender:
    """The bot's side of one worker: which kept objects the worker has, under which key."""

    def __init__(self, kept: tuple[type, ...], pickled: Pickled) -> None:
        self.kept = kept
        self.pickled = pickled
        self._keys = itertools.count(1)
        self._known: OrderedDict[int, tuple[int, object]] = OrderedDict()

    def encode(self, args: tuple[Any, ...]) -> Job:
        """The job for ``args``; if they cannot be pickled, it raises and nothing changes."""
        before = self._known.copy()
        forgotten = []
        while len(self._known) > KEPT:  # before this job: none of its objects is forgotten
            forgotten.append(self._known.popitem(last=False)[1][0])
        new: list[tuple[int, bytes]] = []
        out = io.BytesIO()
        try:
            _KeyingPickler(out, self, new).dump(args)
        except BaseException:
            self._known = before
            raise
        return forgotten, new, out.getvalue()

    def _key(self, obj: object, new: list[tuple[int, bytes]]) -> int | None:
        if not isinstance(obj, self.kept):
            return None
        entry = self._known.get(id(obj))
        if entry is not None and entry[1] is obj:
            self._known.move_to_end(id(obj))
            return entry[0]
        key = next(self._keys)
        self._known[id(obj)] = (key, obj)
        new.append((key, self.pickled(obj)))
        return key


class Receiver:
    """The worker's side: the kept objects by key."""

    def __init__(self) -> None:
        self._objects: dict[int, object] = {}

    def decode(self, job: Job) -> tuple[Any, ...]:
        forgotten, new, data = job
        for key in forgotten:
            del self._objects[key]
        for key, pickled in new:
            self._objects[key] = pickle.loads(pickled)
        args: tuple[Any, ...] = _KeyedUnpickler(io.BytesIO(data), self._objects).load()
        return args


class _KeyingPickler(pickle.Pickler):
    """Pickles a kept object as its key (:meth:`Sender._key`)."""

    def __init__(self, file: io.BytesIO, sender: Sender, new: list[tuple[int, bytes]]) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.sender = sender
        self.new = new

    def persistent_id(self, obj: Any) -> int | None:
        return self.sender._key(obj, self.new)


class _KeyedUnpickler(pickle.Unpickler):
    """Reads a key as the kept object it names."""

    def __init__(self, file: io.BytesIO, objects: dict[int, object]) -> None:
        super().__init__(file)
        self.objects = objects

    def persistent_load(self, pid: Any) -> object:
        return self.objects[pid]
