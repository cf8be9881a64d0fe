"""Images for the bot, rendered off the event loop.

The drawing code lives in :mod:`renders` (pure: state in, PNG bytes out). Drawing a board takes
tens of milliseconds, long enough to stall every other channel if done on the event loop, so each
call runs in a worker thread (``asyncio.to_thread``) and a semaphore keeps a burst of clicks from
starting dozens of renders at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol

from engine import GameState, Place


class Renderer(Protocol):
    """What the bot needs from an image renderer; tests may pass a faster fake."""

    async def table(self, state: GameState, names: Sequence[str]) -> bytes: ...

    async def mat(self, state: GameState, seat: int, names: Sequence[str]) -> bytes: ...

    async def results(self, state: GameState, names: Sequence[str]) -> bytes: ...

    async def preview(self, state: GameState, seat: int, place: Place, names: Sequence[str]) -> bytes: ...


class ThreadedRenderer:
    """The real renderer: :mod:`renders` functions run in a thread, at most ``parallel`` at once."""

    def __init__(self, parallel: int = 2) -> None:
        self._slots = asyncio.Semaphore(parallel)

    async def _run(self, name: str, *args: object) -> bytes:
        import renders

        function = getattr(renders, name)
        async with self._slots:
            return bytes(await asyncio.to_thread(function, *args))

    async def table(self, state: GameState, names: Sequence[str]) -> bytes:
        return await self._run("render_table", state, list(names))

    async def mat(self, state: GameState, seat: int, names: Sequence[str]) -> bytes:
        return await self._run("render_mat", state, seat, list(names))

    async def results(self, state: GameState, names: Sequence[str]) -> bytes:
        return await self._run("render_results", state, list(names))

    async def preview(self, state: GameState, seat: int, place: Place, names: Sequence[str]) -> bytes:
        return await self._run("render_preview", state, seat, place, list(names))
