"""Deterministic waiting: know exactly which tasks the bot spawned.

discord.py never awaits handlers inline; every event, command, view callback
and modal submit runs in a fresh task. ``settle()`` must wait for those —
and their children — without waiting for unrelated tasks such as the test
itself or ``asyncio.gather`` wrappers around two harness calls (that would
deadlock). A loop task factory tags every task created while a
:data:`BOT_WORK` context variable is set; the harness sets it only while
feeding gateway frames and starting the bot, and children inherit it
through contextvars copying, so the tagged set is precisely "work caused by
Discord events".
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any

from .errors import SettleTimeout

#: How long anything in a test may wait for something that happens later (settling, a worker
#: replaced, a post drawn in the render pool) before it counts as never: two minutes, far above
#: the milliseconds it takes on a quiet machine, so a busy machine makes tests slower, not red.
SETTLE_CEILING = 120.0

#: Set (to the owning tracker) in contexts whose tasks count as bot work.
BOT_WORK: contextvars.ContextVar[TaskTracker | None] = contextvars.ContextVar(
    "harness_bot_work", default=None)


def _coro_qualname(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    return getattr(coro, "__qualname__", "") or ""


def default_ignored(task: asyncio.Task[Any]) -> bool:
    """Tasks that sleep by design and do not change anything visible soon.

    * view timeout watchers (minutes-long sleeps),
    * ``delete_after=``/``delete(delay=)`` deleters (``inner_call`` and
      ``Message.delete.<locals>.delete`` in discord.py),
    * ``discord.ext.tasks`` loops.
    """
    name = _coro_qualname(task)
    coro = task.get_coro()
    filename = getattr(getattr(coro, "cr_code", None), "co_filename", "")
    from_discord = "discord" in filename.replace("\\", "/").split("/")
    delayed_delete = name.endswith("<locals>.inner_call") or name.endswith("delete.<locals>.delete")
    return ("__timeout_task_impl" in name
            or (from_discord and delayed_delete)
            or name.endswith("Loop._loop"))


class TaskTracker:
    """Tags tasks created in BOT_WORK contexts and waits for them."""

    def __init__(self, ignore: Callable[[asyncio.Task[Any]], bool] | None = None) -> None:
        self.tracked: list[asyncio.Task[Any]] = []
        self.baseline: set[asyncio.Task[Any]] = set()
        self._extra_ignore = ignore
        self._ignored_by_default: dict[asyncio.Task[Any], bool] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_factory: Any = None

    # -- installation -----------------------------------------------------

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._previous_factory = loop.get_task_factory()
        loop.set_task_factory(self._factory)

    def uninstall(self) -> None:
        if self._loop is not None:
            self._loop.set_task_factory(self._previous_factory)
            self._loop = None

    def _factory(self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any],
                 **kwargs: Any) -> asyncio.Task[Any]:
        if self._previous_factory is not None:
            task = self._previous_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        ctx: contextvars.Context | None = kwargs.get("context")
        owner = ctx.get(BOT_WORK) if ctx is not None else BOT_WORK.get()
        if owner is self:
            self.tracked.append(task)
        return task

    def run_as_bot_work(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Start ``coro`` in a tagged context; every task it spawns is tracked."""
        ctx = contextvars.copy_context()
        ctx.run(BOT_WORK.set, self)
        assert self._loop is not None, "tracker not installed"
        return self._loop.create_task(coro, context=ctx)

    # -- waiting ------------------------------------------------------------

    def is_ignored(self, task: asyncio.Task[Any]) -> bool:
        if task in self.baseline or self._default_ignored(task):
            return True
        return bool(self._extra_ignore and self._extra_ignore(task))

    def _default_ignored(self, task: asyncio.Task[Any]) -> bool:
        """:func:`default_ignored`, asked once per task: a task's coroutine never changes, and
        ``settle`` asks about every sleeping view-timeout task on every pass."""
        found = self._ignored_by_default.get(task)
        if found is None:
            found = self._ignored_by_default[task] = default_ignored(task)
        return found

    def pending(self) -> list[asyncio.Task[Any]]:
        return [t for t in self.tracked if not t.done() and not self.is_ignored(t)]

    def mark_baseline(self) -> None:
        """Treat tasks still running now (bot background loops) as not-our-business."""
        self.baseline.update(t for t in self.tracked if not t.done())

    async def settle(self, timeout: float) -> None:
        """Wait until no tracked, non-ignored task is pending (or time out)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        quiet_rounds = 0
        while quiet_rounds < 3:
            pending = self.pending()
            if not pending:
                # Let call_soon callbacks (e.g. futures resolving) create tasks.
                quiet_rounds += 1
                await asyncio.sleep(0)
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                listing = "\n".join(f"  - {t.get_name()}: {_coro_qualname(t)}" for t in pending)
                raise SettleTimeout(f"{len(pending)} bot task(s) still running after {timeout}s:\n"
                                    f"{listing}\n(blocked on wait_for()/sleep? pass a larger "
                                    "timeout or an ignore_task predicate)")
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)

    def pop_finished(self) -> list[asyncio.Task[Any]]:
        """Remove and return finished tasks so their exceptions can be checked."""
        done = [t for t in self.tracked if t.done()]
        self.tracked = [t for t in self.tracked if not t.done()]
        for task in done:
            self._ignored_by_default.pop(task, None)
        return done

    async def cancel_all(self) -> None:
        """Cancel everything still running (teardown), waiting for it to unwind."""
        leftovers = [t for t in self.tracked if not t.done()]
        for task in leftovers:
            task.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=SETTLE_CEILING)


async def eventually(condition: Callable[[], object], *, ceiling: float = SETTLE_CEILING,
                     every: float = 0.01) -> None:
    """Return as soon as ``condition()`` is true, checking every ``every`` seconds; fail only
    after ``ceiling`` seconds. For what happens outside the tracked bot tasks (another process,
    a socket closing), so that a test waits on the event itself, not a fixed time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ceiling
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"still not true after {ceiling:g} s: {condition}")
        await asyncio.sleep(every)
