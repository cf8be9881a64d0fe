"""What each seat's last planned turn did, for the player to see when they ask: the board page
(the manager hands it every outcome, ``on_plan_played``; shown until the player dismisses it or
lays out a new plan) and ``/projectl-plan show`` on Discord (kept by ``bot/discord/plans.py``
as it tells the player, so a DM held back or undeliverable is not the only word of it).

Kept in storage (``plan_outcomes``, migration 0017), so a restarted bot, or another process on
the same database, shows it too: the latest per seat, at most :data:`MAX_KEPT` in all (the first
kept goes first), forgotten in the transaction that saves the seat's next plan; its reason as
words shown in the reader's language (bot/core/wording/stored.py). Keeping it never fails what
was played: a storage fault is logged, and the log still marks the planned actions.
"""

from __future__ import annotations

import contextlib
import logging

from bot.core.games import PlanOutcome
from bot.core.play.manager import GameManager
from bot.core.storage import Storage
from bot.core.storage.plans import OutcomeRow, PlanStore
from bot.core.wording import stored

log = logging.getLogger(__name__)

MAX_KEPT = 1024


class PlanOutcomes:
    """The last :class:`PlanOutcome` of each (game, seat), in ``storage`` (by default that of the
    manager :meth:`attach` is given)."""

    def __init__(self, storage: Storage | None = None) -> None:
        self._storage = storage
        self._manager: GameManager | None = None
        self._kept: PlanOutcome | None = None
        """The outcome kept last: the board's hook and ``/projectl-plan``'s word are handed the
        same one when both fronts run, and it is written once."""

    def attach(self, manager: GameManager) -> None:
        self._manager = manager
        if self._storage is None:
            self._storage = manager.storage
        manager.on_plan_played.insert(0, self.keep)  # before any hook that waits on the network

    def detach(self) -> None:
        if self._manager is not None:
            with contextlib.suppress(ValueError):
                self._manager.on_plan_played.remove(self.keep)
            self._manager = None

    def _store(self) -> PlanStore:
        if self._storage is None:
            raise RuntimeError("PlanOutcomes has no storage: give it one, or attach() it to a manager")
        return PlanStore(self._storage)

    async def keep(self, outcome: PlanOutcome) -> None:
        """Keep ``outcome`` as its seat's last; a storage fault is logged, never raised (the
        planned turn is committed, and its DM still goes)."""
        if outcome is self._kept:
            return
        reason = None if outcome.reason is None else stored.dumps(outcome.reason)
        try:
            await self._store().keep_outcome(
                outcome.game_id, outcome.seat, outcome.user_id, outcome.played, outcome.left, reason,
                outcome.actions_left, keep_at_most=MAX_KEPT)
        except Exception:
            log.exception("keeping what the planned turn of game %s seat %s did failed",
                          outcome.game_id, outcome.seat)
            return
        self._kept = outcome

    async def last(self, game_id: int, seat: int, user_id: int) -> PlanOutcome | None:
        """The seat's last outcome, if it was this user's plan."""
        row = await self._store().outcome(game_id, seat)
        return None if row is None or row.user_id != user_id else _outcome(row)


def _outcome(row: OutcomeRow) -> PlanOutcome | None:
    try:
        reason = None if row.reason is None else stored.loads(row.reason)
    except ValueError:  # an unreadable row (json's errors are ValueErrors): as if none was kept
        log.warning("the kept outcome of game %s seat %s is unreadable", row.game_id, row.seat)
        return None
    return PlanOutcome(row.game_id, row.seat, row.user_id, row.played, row.left, reason, row.actions_left)
