"""What each seat's last planned turn did, for the player to see when they ask: the board page
(the manager hands it every outcome, ``on_plan_played``; shown until the player dismisses it or
lays out a new plan) and ``/projectl-plan show`` on Discord (kept by ``bot/discord/plans.py``
as it tells the player, so a DM held back or undeliverable is not the only word of it).

Kept in memory, the latest per seat and at most :data:`MAX_KEPT` in all: after a restart the page
still shows what was played through the log, whose planned lines are marked.
"""

from __future__ import annotations

import contextlib

from bot.core.games import PlanOutcome
from bot.core.play.manager import GameManager

MAX_KEPT = 1024


class PlanOutcomes:
    """The last :class:`PlanOutcome` of each (game, seat), from the moment :meth:`attach` is called."""

    def __init__(self) -> None:
        self._last: dict[tuple[int, int], PlanOutcome] = {}
        self._manager: GameManager | None = None

    def attach(self, manager: GameManager) -> None:
        self._manager = manager
        manager.on_plan_played.insert(0, self.keep)  # before any hook that waits on the network

    def detach(self) -> None:
        if self._manager is not None:
            with contextlib.suppress(ValueError):
                self._manager.on_plan_played.remove(self.keep)
            self._manager = None

    async def keep(self, outcome: PlanOutcome) -> None:
        key = (outcome.game_id, outcome.seat)
        self._last.pop(key, None)
        self._last[key] = outcome
        while len(self._last) > MAX_KEPT:
            del self._last[next(iter(self._last))]

    def last(self, game_id: int, seat: int, user_id: int) -> PlanOutcome | None:
        """The seat's last outcome, if it was this user's plan."""
        outcome = self._last.get((game_id, seat))
        return outcome if outcome is not None and outcome.user_id == user_id else None

    def forget(self, game_id: int, seat: int) -> None:
        self._last.pop((game_id, seat), None)
