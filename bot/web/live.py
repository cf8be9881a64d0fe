"""Live updates: every open page of a game learns of each commit in that game, from any front.

The manager's after-commit hooks (``on_action_committed``, ``on_game_finished``,
``on_game_cancelled``: a panel tap, a web action, an AI seat, a vote, a turn clock) hand this hub
the game as committed; the hub keeps the latest :class:`Game` per watched game and wakes its
pages. A page holds no queue: one flag ("something newer than what you sent") and the hub's
latest game, so a slow page skips straight to the newest view and its memory never grows. A
closed page's watch is dropped when its stream ends.

A seat's plan, kept or dropped from any front (``GameManager.on_plan_changed``), wakes only the
pages of that seat, with a flag and nothing of the plan: the page asks ``/api/plan`` for it, under
its own link's checks. A spectator's page and another seat's never hear of it.

Several processes sharing PostgreSQL: a commit made in another process fires no hook here, so
while pages watch a game the hub also reads its revision every :attr:`LiveGames.poll_seconds`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from bot.core.play.manager import Game, GameManager, Step

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0


class Watch:
    """One open page's subscription to one game."""

    __slots__ = ("closed", "game_id", "plan_news", "seat", "seen", "woken")

    def __init__(self, game_id: int, seen: int, seat: int | None = None) -> None:
        self.game_id = game_id
        self.seat = seat
        """The seat the page's link is for (None: a spectator's)."""
        self.seen = seen
        """The revision of the view this page was sent last."""
        self.plan_news = False
        """The seat's plan was kept or dropped since the page was last told."""
        self.woken = asyncio.Event()
        self.closed = False

    async def wait(self, timeout: float) -> bool:
        """Wait until woken (True) or ``timeout`` seconds pass (False)."""
        try:
            await asyncio.wait_for(self.woken.wait(), timeout)
        except TimeoutError:
            return False
        self.woken.clear()
        return True


class LiveGames:
    """The games open pages watch, and the latest committed state of each."""

    def __init__(self, manager: GameManager, *, poll_seconds: float | None = POLL_SECONDS) -> None:
        self.manager = manager
        self.poll_seconds = poll_seconds
        self._latest: dict[int, Game] = {}
        self._watches: dict[int, set[Watch]] = {}
        self._polls: dict[int, asyncio.Task[None]] = {}
        manager.on_action_committed.append(self._committed)
        manager.on_game_finished.append(self.publish)
        manager.on_game_cancelled.append(self.publish)
        manager.on_plan_changed.append(self.plan_changed)

    def detach(self) -> None:
        """Stop listening to the manager, wake and close every watch (the server is stopping)."""
        for hooks, hook in ((self.manager.on_action_committed, self._committed),
                            (self.manager.on_game_finished, self.publish),
                            (self.manager.on_game_cancelled, self.publish),
                            (self.manager.on_plan_changed, self.plan_changed)):
            with contextlib.suppress(ValueError):
                hooks.remove(hook)  # type: ignore[arg-type]
        for watches in self._watches.values():
            for watch in watches:
                watch.closed = True
                watch.woken.set()
        for task in self._polls.values():
            task.cancel()
        self._polls.clear()

    @property
    def watching(self) -> int:
        """Open pages, all games together (the bench and the tests read it)."""
        return sum(len(watches) for watches in self._watches.values())

    def latest(self, game_id: int) -> Game | None:
        return self._latest.get(game_id)

    async def _committed(self, game: Game, step: Step) -> None:
        await self.publish(game)

    async def publish(self, game: Game) -> None:
        """``game`` as just committed (or read): kept if newer than the one known, and its pages woken."""
        watches = self._watches.get(game.id)
        if not watches:
            return
        known = self._latest.get(game.id)
        if known is not None and (game.revision < known.revision or (
                game.revision == known.revision and game.status == known.status)):
            return
        self._latest[game.id] = game
        for watch in watches:
            if watch.seen < game.revision or game.status != "active":
                watch.woken.set()

    async def plan_changed(self, game_id: int, seat: int) -> None:
        """``seat``'s plan in ``game_id`` was kept or dropped: wake that seat's pages, no other."""
        for watch in self._watches.get(game_id, ()):
            if watch.seat is not None and watch.seat == seat:
                watch.plan_news = True
                watch.woken.set()

    @contextlib.contextmanager
    def watch(self, game: Game, seat: int | None = None) -> Iterator[Watch]:
        """Watch ``game`` (as the page's first view showed it) for as long as the block runs, for
        ``seat``'s page (None: a spectator's)."""
        watch = Watch(game.id, game.revision, seat)
        watches = self._watches.setdefault(game.id, set())
        watches.add(watch)
        known = self._latest.get(game.id)
        if known is None or known.revision < game.revision:
            self._latest[game.id] = game
        elif known.revision > game.revision:
            watch.woken.set()
        if self.poll_seconds is not None and game.id not in self._polls:
            self._polls[game.id] = asyncio.ensure_future(self._poll(game.id))
        try:
            yield watch
        finally:
            watches.discard(watch)
            if not watches:
                del self._watches[game.id]
                self._latest.pop(game.id, None)
                task = self._polls.pop(game.id, None)
                if task is not None:
                    task.cancel()

    async def _poll(self, game_id: int) -> None:
        """Read the game's revision now and then while pages watch it: commits made by another
        process sharing the database (and an undo, which fires no hook) reach them this way."""
        assert self.poll_seconds is not None
        while game_id in self._watches:
            await asyncio.sleep(self.poll_seconds)
            try:
                game = await self.manager.game(game_id)
            except Exception:  # a storage fault: the pages keep their view and the next poll retries
                log.info("reading game %s for its open pages failed", game_id, exc_info=True)
                continue
            if game is not None:
                await self.publish(game)
