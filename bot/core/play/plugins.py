"""Plug-in AIs at a table: chosen in a worker process, on the seat's view, within a time limit.

A plug-in (:mod:`engine.policies.plugins`: a package's entry point in ``projectl.policies``) is
code the bot did not write, so it runs as far from the game as the bot can put it:

* in a worker process of its own for each seat it plays (:class:`~bot.core.rendering.worker_pipe.PipeWorker`,
  started on that seat's first move), never on the event loop nor in the searches' pool, so
  what it keeps between moves is its own seat's;
* on the seat's view alone (:func:`~engine.policies.plugins.seat_view`, built here, in the bot's
  process): the worker never holds the game's state, so no plug-in can read the deck order, a
  face-down Finesse tile or a score pile hidden from its seat;
* within the AI seat's wall-clock budget (:data:`PLUGIN_BUDGET_S`): a worker that has not
  answered by then is killed (a new one starts for the next move) and the manager plays a legal
  fallback, as it does for a built-in policy that fails. Its answer is applied by the engine,
  which refuses what is illegal; every fallback is logged, and after ``PLUGIN_STRIKES`` in a row a
  built-in plays that seat for the rest of the game (``bot/core/play/ai_moves.py``).

Plug-ins are offered only on servers whose admins turned them on (``/projectl-server
plugin_ais:``, migration 0014: :class:`ServerPluginAIs`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import sys
from collections import OrderedDict
from collections.abc import Callable
from functools import partial

from bot.core.rendering.worker_pipe import PipeWorker
from bot.core.storage import Storage
from engine import Action, GameState
from engine.policies import POLICIES
from engine.policies.plugins import (
    PluginChooser,
    SeatView,
    answer_action,
    installed_plugins,
    plugin_factory,
    said,
    seat_view,
)

log = logging.getLogger("bot.plugins")

PLUGIN_BUDGET_S = 2.0
"""Wall-clock seconds a plug-in seat may think per action (the AI seats' budget, issue 50)."""
PLUGIN_MEMORY_BYTES = 4 << 30
"""The worker's address space (``RLIMIT_AS``, where the system has it): a plug-in that allocates
past it gets a MemoryError (its move falls back) instead of pushing the host out of memory."""
HIDDEN_ENV = re.compile(r"DISCORD_|PROJECTL_|.*(TOKEN|SECRET|PASSWORD|KEY)", re.IGNORECASE)
"""Environment variables the worker drops before any plug-in loads (the bot's token, its
settings, anything named like a credential)."""
MAX_WORKERS = 4
"""Plug-in workers alive at once (one per seat a plug-in plays; about 40 MB each, idle)."""
WORKER_START_S = 120.0
"""How long the worker may take to start (a spawned interpreter importing the engine: seconds on
a loaded machine); the budget counts from its answer to start-up, not from the spawn."""


def is_plugin(name: str) -> bool:
    """Whether a seat's policy name is a plug-in's (any name that is not a built-in policy)."""
    return name not in POLICIES


PLUGIN_NAME = re.compile(r"[a-z0-9_-]{1,32}")
"""The entry-point names a lobby can offer (they travel in a button's custom id and a seat's
stored policy); a plug-in named otherwise is left out."""


def plugin_names() -> tuple[str, ...]:
    """The installed plug-ins' names (entry points of ``projectl.policies``) a lobby can offer,
    built-ins' excluded, in a stable order."""
    return tuple(sorted(name for name in installed_plugins()
                        if is_plugin(name) and PLUGIN_NAME.fullmatch(name)))


class PluginError(Exception):
    """A plug-in's failure in the worker (an error, an answer that is no action), as its text."""


# -- the worker's side (module-level: the worker imports this module) ---------------------------

_factories: dict[str, Callable[[int], PluginChooser]] = {}


def _started(memory_bytes: int | None = PLUGIN_MEMORY_BYTES) -> None:
    """The worker's initializer, before any plug-in loads (on its first move): the bot's secrets
    out of the environment, standard output and error to nowhere (a plug-in's prints are not the
    bot's log), the address space capped at ``memory_bytes``."""
    for name in [name for name in os.environ if HIDDEN_ENV.match(name)]:
        del os.environ[name]
    nowhere = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(nowhere, fd)
    os.close(nowhere)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the worker's for life
    if memory_bytes is not None:
        try:
            import resource
        except ImportError:  # no such limit on this system
            return
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


def _idle() -> None:
    """After each move: nothing."""


def plugin_move(view: SeatView, seed: int, name: str) -> str:
    """In the worker: plug-in ``name``'s answer for ``view`` (seeded afresh each move), as action
    text for the engine to check. Whatever fails comes back as a :class:`PluginError` holding the
    failure's text: nothing of the plug-in's own (its exception class, a ``str`` subclass) is
    ever unpickled in the bot's process, which would import the plug-in there."""
    try:
        factory = _factories.get(name)
        if factory is None:
            factory = _factories[name] = plugin_factory(name)
        return str.__str__(str(answer_action(factory(seed).choose(view))))
    except Exception as error:  # noqa: BLE001 - the bot is told, as text
        raise PluginError(said(error)) from None


def plugin_seed(seed: int) -> int:
    """The seed a plug-in's factory is given for a move seeded ``seed``: a one-way digest, since
    the move's seed is the game's own with a few low bits changed, from which the real deal (deck
    order, hidden score piles) could be dealt again."""
    digest = hashlib.blake2b(seed.to_bytes(16, "big", signed=True), digest_size=8,
                             person=b"projectl-plugin").digest()
    return int.from_bytes(digest) >> 2


# -- the bot's side -----------------------------------------------------------------------------


class PluginTimeoutError(Exception):
    """A plug-in did not answer within its budget; its worker was killed."""


class PluginRunner:
    """The plug-in workers of one bot process, one per seat a plug-in plays (a game's id and the
    seat): what a plug-in keeps between moves (module state) holds its own seat's views only,
    never another seat's, whose own score pile is hidden from it. At most :data:`MAX_WORKERS`
    live at once (the least recently used is closed: it starts afresh on its seat's next move);
    one move at a time, each within ``budget_s``."""

    def __init__(self, budget_s: float = PLUGIN_BUDGET_S,
                 memory_bytes: int | None = PLUGIN_MEMORY_BYTES) -> None:
        self.budget_s = budget_s
        self.memory_bytes = memory_bytes
        self._workers: OrderedDict[tuple[int | None, int], PipeWorker] = OrderedDict()
        self._lock: asyncio.Lock | None = None

    async def move(self, state: GameState, seat: int, seed: int, name: str, *,
                   table: int | None = None) -> Action:
        """Plug-in ``name``'s action for ``seat`` in ``state`` (game ``table``), not yet checked
        against the rules: the manager applies it. Raises when the plug-in fails or runs out of
        time."""
        view = seat_view(state, seat)
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one move at a time: the budget counts this move's thinking only
            worker = await self._ready_worker((table, seat))
            try:
                text = await asyncio.wait_for(worker.submit(view, plugin_seed(seed), name), self.budget_s)
            except TimeoutError:
                await self._kill((table, seat), worker)
                raise PluginTimeoutError(f"plug-in {name!r} took over {self.budget_s} s") from None
        return answer_action(text)

    async def _ready_worker(self, key: tuple[int | None, int]) -> PipeWorker:
        worker = self._workers.get(key)
        if worker is None or worker.broken:
            while len(self._workers) >= MAX_WORKERS:
                _, oldest = self._workers.popitem(last=False)
                await oldest.close(timeout=2.0)
            worker = self._workers[key] = PipeWorker(partial(_started, self.memory_bytes), plugin_move,
                                                     _idle, name="projectl-plugins")
            await asyncio.wait_for(worker.ready, WORKER_START_S)
        self._workers.move_to_end(key)
        return worker

    async def _kill(self, key: tuple[int | None, int], worker: PipeWorker) -> None:
        self._workers.pop(key, None)
        worker.process.kill()
        worker.abandon()
        await asyncio.to_thread(worker.process.join, 10.0)

    async def close(self) -> None:
        workers, self._workers = list(self._workers.values()), OrderedDict()
        for worker in workers:
            await worker.close(timeout=2.0)


class ServerPluginAIs:
    """The servers (guild ids) whose admins offer plug-in AIs in their lobbies: read from storage
    on first use and kept (one process serves a guild); every change writes storage first."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._on: set[int] | None = None

    async def _servers(self) -> set[int]:
        if self._on is None:
            self._on = set(await self._storage.servers_with_plugin_ais())
        return self._on

    async def enabled(self, guild_id: int | None) -> bool:
        return guild_id in await self._servers()

    async def choose(self, guild_id: int, enabled: bool, *, by_user_id: int) -> None:
        await self._storage.set_server_plugin_ais(guild_id, enabled, by_user_id)
        on = await self._servers()
        (on.add if enabled else on.discard)(guild_id)

    async def offered(self, guild_id: int | None) -> tuple[str, ...]:
        """The plug-ins a lobby in ``guild_id`` offers: every installed one if the server turned
        them on, else none (nor outside a server)."""
        return plugin_names() if await self.enabled(guild_id) else ()
