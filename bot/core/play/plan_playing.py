"""Playing a seat's plan (bot/core/play/plans.py) when its turn starts: step by step, each step its
own commit with the plan's progress written in the same transaction, stopped at the first step
that no longer holds, at the end of the turn, or when the player replaced or cancelled the plan
meanwhile (that progress write then fails the step's commit: nothing of a stale plan plays), with
what was played and what was left for the player (:class:`PlanOutcome`). Its own module because
it is the one way a human seat moves without its player, and it commits only through the
manager's own commit (``commit``)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

import engine
from bot.core.errors import StaleError
from bot.core.games import Game, PlanOutcome, Seat, Step
from bot.core.play import plans
from bot.core.storage import Storage
from bot.core.storage.errors import PlanChangedError
from bot.core.storage.plans import PlanRow, PlanStore, advance_write, delete_write
from bot.core.storage.transactions import InTransaction, Write
from bot.core.wording import texts
from engine import Action

log = logging.getLogger(__name__)


class PlannedCommit(Protocol):
    """``GamesCore._commit`` (games_core.py): apply and commit one action (``outcome``: already
    applied), ``planned`` writes (the plan's progress) joining its transaction."""

    async def __call__(
        self, game: Game, seat: int, user_id: int | None, action: Action,
        outcome: engine.Outcome | None = None, *, planned: Sequence[Write | InTransaction] | None = None,
    ) -> tuple[Step, Game]: ...


async def play_planned_turn(
    game: Game, storage: Storage, commit: PlannedCommit, *, known: Mapping[int, PlanRow] | None = None,
) -> tuple[list[Step], Game, PlanOutcome | None, Exception | None]:
    """The plan of one seat whose turn has started, played step by step (each its own commit,
    its progress written in the same transaction), stopped at the first step that no longer
    holds or at the end of the turn. Nothing to play: no steps and no outcome. ``known``: the
    game's plans (seat to plan) as read by the commit that made ``game``, so none is read again
    at first. A plan replaced or cancelled before its first step played is read again: the one
    laid out in its place plays (or, cancelled, nothing), and nothing is said of the old one,
    which never played."""
    if game.state is None or game.status != "active":
        return [], game, None, None
    store = PlanStore(storage)
    for reading in range(PLAN_READS):
        for seat in game.state.acting_seats:
            holder = game.seats[seat]
            if holder.user_id is None or not plans.plays_now(game.state, seat, None):
                continue
            plan = (known.get(seat) if known is not None and reading == 0
                    else await store.get(game.id, seat))
            if plan is None:
                continue
            if (plan.user_id != holder.user_id or not plan.left
                    or not plans.plays_now(game.state, seat, plan.turn)):
                await store.forget(plan)  # the seat changed hands, or the plan's turn is over
                continue
            played = await _play_plan(game, holder, plan, store, commit)
            if played is not None:
                return played
            break  # changed before its first step: the seats' plans are read again
        else:
            return [], game, None, None
    return [], game, None, None


PLAN_READS = 3
"""How often a seat's plans are read when each read one was replaced before its first step
played (a player changing it again and again as their turn starts): then nothing plays now."""


async def _play_plan(
    game: Game, holder: Seat, plan: PlanRow, store: PlanStore, commit: PlannedCommit,
) -> tuple[list[Step], Game, PlanOutcome | None, Exception | None] | None:
    """``plan`` played (see :func:`play_planned_turn`); None if it was replaced or cancelled
    before its first step was committed (nothing of it played, nothing to tell)."""
    assert holder.user_id is not None
    steps: list[Step] = []
    reason: Any = None
    changed = False
    while plan.left:
        state = game.state
        assert state is not None
        if not plans.plays_now(state, holder.seat, plan.turn):
            reason = texts.PLAN_PAST_THE_TURN
            break
        problem, outcome = plans.step_problem(state, holder.seat, plan.left[0])
        if problem is not None or outcome is None:
            reason = problem
            break
        ends = len(plan.left) == 1 or not plans.plays_now(outcome.state, holder.seat, state.turn)
        progress = delete_write(plan) if ends else advance_write(plan, state.turn)
        try:
            step, game = await commit(game, holder.seat, holder.user_id,
                                      engine.parse_action(plan.left[0].action), outcome,
                                      planned=[progress])
        except PlanChangedError:  # replaced or cancelled since it was read: nothing more of it plays
            log.info("the plan of game %s seat %s changed while it played", game.id, holder.seat)
            if not steps:
                return None
            reason = texts.PLAN_CHANGED_MEANWHILE
            changed = True
            break
        except StaleError:  # another process played this step: it plays on from there
            log.info("game %s moved on in another process; its planned turn plays on there", game.id)
            return steps, game, None, None
        except Exception as error:  # the caller reports it; the plan resumes at start-up
            log.info("planned turn in game %s stopped after %d step(s): %r", game.id, len(steps), error)
            return steps, game, None, error
        steps.append(step)
        plan = replace(plan, played=plan.played + 1, turn=state.turn)
        if ends:
            if plan.left:
                reason = texts.PLAN_PAST_THE_TURN
            break
    stopped: Exception | None = None
    if (plan.left or reason is not None) and not changed:  # a changed plan is the player's new one
        try:
            await store.forget(plan)  # not a plan laid out since, in another process
        except Exception as error:  # the steps played stand; the plan is dropped when next looked at
            log.warning("dropping a plan in game %s failed: %r", game.id, error)
            stopped = error
    assert game.state is not None
    left_now = (game.state.focused(holder.seat).actions_left
                if plans.plays_now(game.state, holder.seat, None) else 0)
    outcome_ = PlanOutcome(game.id, holder.seat, holder.user_id, tuple(s.text for s in steps),
                           tuple(step.action for step in plan.left), reason, left_now)
    return steps, game, outcome_, stopped
