"""Game states sent to a render worker once, as their stored text, then named.

A turn end sends the new state twice (the actor's mat to one worker, the table to the other) and
the table job the state the game's previous post showed too, which the same worker received with
that post. Pickled, a state took about 0.24 ms to write and 0.27 ms to read (CPU; some 40
slotted dataclasses, each through Python code), on the path a player waits on, up to four times
per turn end. So:

* a state crosses as its stored text (``engine.serialisation.dumps`` without the cards: 0.04 ms
  to write, 0.07 ms to read, a third of the bytes), written once for both jobs (:class:`Encoded`,
  shared by the workers); the cards it names (its catalogue, the same for every state of a game)
  cross once per worker;
* each worker keeps the last :data:`KEPT` states it received (:class:`Receiver`), and the bot's
  process, which knows which (:class:`Sender`), sends a later job a key in their place.

States are immutable (frozen dataclasses), so the worker's copy stays the state that was sent.
The two sides stay in step because the worker applies each job's changes in the order they were
made: the keys the sender forgot since the previous job, then the new catalogues and states,
then the job itself (a key in a job is never one it forgets).
"""

from __future__ import annotations

import io
import itertools
import pickle
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from engine import GameState, serialisation
from engine.cards import PuzzleCard

KEPT = 32
"""States a worker keeps between jobs: a few per game whose images it draws."""
CATALOGUES = 8
"""Catalogues a worker keeps (one per set of expansions in play)."""
ENCODED = 16
"""States whose text the bot's process keeps (those of the last few actions)."""

Job = tuple[list[int], list[str], list[tuple[str, str]], list[tuple[int, str, str]], bytes]
"""What crosses for one job: the state keys and catalogue keys forgotten, the new catalogues
(key, text), the new states (key, catalogue key, text), and the arguments' pickle (with each
state in it as its key)."""


class Encoded:
    """The text of the last :data:`ENCODED` states and of their catalogues (each state held, so
    its id is not reused while it is here)."""

    def __init__(self) -> None:
        self._states: OrderedDict[int, tuple[GameState, str, str]] = OrderedDict()
        self._catalogues: dict[str, str] = {}

    def state(self, state: GameState) -> tuple[str, str]:
        """The state's catalogue key and text."""
        entry = self._states.get(id(state))
        if entry is not None and entry[0] is state:
            self._states.move_to_end(id(state))
            return entry[1], entry[2]
        key = serialisation.catalogue_key(state.cards)
        text = serialisation.dumps(state, cards=False)
        if key not in self._catalogues:
            while self._catalogues and len(self._catalogues) >= CATALOGUES:
                del self._catalogues[next(iter(self._catalogues))]
            self._catalogues[key] = serialisation.catalogue_text(state.cards)
        self._states[id(state)] = (state, key, text)
        while len(self._states) > ENCODED:
            self._states.popitem(last=False)
        return key, text

    def catalogue(self, key: str, cards: Mapping[str, PuzzleCard]) -> str:
        text = self._catalogues.get(key)
        return serialisation.catalogue_text(cards) if text is None else text


class Sender:
    """The bot's side of one worker: which states and catalogues the worker has, under which key."""

    def __init__(self, encoded: Encoded) -> None:
        self.encoded = encoded
        self._keys = itertools.count(1)
        self._known: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
        self._catalogues: OrderedDict[str, None] = OrderedDict()

    def encode(self, args: tuple[Any, ...]) -> Job:
        """The job for ``args``; if they cannot be pickled, it raises and nothing changes."""
        known, catalogues = self._known.copy(), self._catalogues.copy()
        forgotten: list[int] = []
        while len(self._known) > KEPT:  # before this job: none of its states is forgotten
            forgotten.append(self._known.popitem(last=False)[1][0])
        dropped: list[str] = []
        while len(self._catalogues) > CATALOGUES:
            dropped.append(self._catalogues.popitem(last=False)[0])
        job = _JobPickler(self)
        try:
            job.dump(args)
        except BaseException:
            self._known, self._catalogues = known, catalogues
            raise
        return forgotten, dropped, job.new_catalogues, job.new_states, job.out.getvalue()

    def key(self, state: GameState, job: _JobPickler) -> int:
        entry = self._known.get(id(state))
        if entry is not None and entry[1] is state:
            self._known.move_to_end(id(state))
            return entry[0]
        catalogue, text = self.encoded.state(state)
        if catalogue in self._catalogues:
            self._catalogues.move_to_end(catalogue)
        else:
            self._catalogues[catalogue] = None
            job.new_catalogues.append((catalogue, self.encoded.catalogue(catalogue, state.cards)))
        key = next(self._keys)
        self._known[id(state)] = (key, state)
        job.new_states.append((key, catalogue, text))
        return key


class Receiver:
    """The worker's side: the states and catalogues by key."""

    def __init__(self) -> None:
        self._states: dict[int, GameState] = {}
        self._catalogues: dict[str, dict[str, PuzzleCard]] = {}

    def decode(self, job: Job) -> tuple[Any, ...]:
        forgotten, dropped, catalogues, states, data = job
        for key in forgotten:
            del self._states[key]
        for name in dropped:
            del self._catalogues[name]
        for name, text in catalogues:
            self._catalogues[name] = serialisation.cards_from_text(text)
        for key, name, text in states:
            self._states[key] = serialisation.loads(text, self._catalogues[name])
        args: tuple[Any, ...] = _KeyedUnpickler(io.BytesIO(data), self._states).load()
        return args


class _JobPickler(pickle.Pickler):
    """Pickles a job's arguments with each state as its key (:meth:`Sender.key`), collecting
    what the worker does not have yet."""

    def __init__(self, sender: Sender) -> None:
        self.out = io.BytesIO()
        super().__init__(self.out, pickle.HIGHEST_PROTOCOL)
        self.sender = sender
        self.new_catalogues: list[tuple[str, str]] = []
        self.new_states: list[tuple[int, str, str]] = []

    def persistent_id(self, obj: Any) -> int | None:
        return self.sender.key(obj, self) if isinstance(obj, GameState) else None


class _KeyedUnpickler(pickle.Unpickler):
    """Reads a key as the state it names."""

    def __init__(self, file: io.BytesIO, states: dict[int, GameState]) -> None:
        super().__init__(file)
        self.states = states

    def persistent_load(self, pid: Any) -> object:
        return self.states[pid]
