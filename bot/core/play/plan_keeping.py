"""A seat's plan kept, shown and dropped: the one path every front takes (the Discord command and
form, the web board's Plan mode), so the rules of ``bot/core/play/plans.py`` are applied once.

Each function takes the flow's context of the seated user (``flow.onlooker`` on Discord, the
board's verified seat on the web), built once per request. A plan kept or dropped is announced
through ``GameManager.on_plan_changed`` (the seat's other open board pages ask for it again).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.play import plans
from bot.core.play.flow import ActingContext
from bot.core.play.manager import GameManager
from bot.core.storage import Storage
from bot.core.storage.plans import PlanRow, PlanStore
from engine import Action
from engine.state import Phase


async def save_plan(manager: GameManager, ctx: ActingContext, actions: Sequence[Action], *,
                    side: str | None = None) -> plans.LaidOut:
    """Lay out ``actions`` as the seat's next turn on the table as it sees it (refused with the
    engine's reason otherwise) and keep it, with its Line Clear side, in place of the plan it had;
    what the seat's last planned turn did is forgotten in the same transaction (old news beside
    a new plan). With no ``side`` chosen (Discord's command and form choose none), the side of
    the seat's next turn (:func:`plans.side_for`); failing that, the side of the plan it
    replaces is tried first."""
    assert ctx.game.state is not None
    side = plans.side_for(ctx.game.state, ctx.seat, side)
    first = None
    if side is None and ctx.game.state.turns:
        kept = await plan_of(manager.storage, ctx)
        first = None if kept is None else kept.side
    laid_out = plans.lay_out(ctx.game.state, ctx.seat, actions, side=side, first=first)
    await PlanStore(manager.storage).save(ctx.game.id, ctx.seat, ctx.user_id, laid_out.steps, laid_out.side)
    await manager.plan_changed(ctx.game.id, ctx.seat)
    return laid_out


async def plan_of(storage: Storage, ctx: ActingContext) -> PlanRow | None:
    """The seat's plan, if it is this user's (a seat that changed hands keeps no one else's) and
    it can still play: the seat is in the game (one that left or was removed never plays its
    plan) and the game still in its play phase (a plan kept when the last round ended never
    plays: Finishing Touches or the game's end come instead of the seat's turn)."""
    if _never_plays(ctx):
        return None
    plan = await PlanStore(storage).get(ctx.game.id, ctx.seat)
    return None if plan is None or plan.user_id != ctx.user_id else plan


async def cancel_plan(manager: GameManager, ctx: ActingContext, *, outcome_too: bool = False) -> bool:
    """Drop the seat's plan (with ``outcome_too``, and what its last planned turn did, in the
    same transaction: the board's Dismiss); whether there was one (a seat out of the game had
    none to play, as has a game past its play phase)."""
    dropped = await PlanStore(manager.storage).delete(ctx.game.id, ctx.seat, outcome_too=outcome_too)
    await manager.plan_changed(ctx.game.id, ctx.seat)
    return dropped and not _never_plays(ctx)


def _never_plays(ctx: ActingContext) -> bool:
    """Whether no plan of the seat will ever play: it left the game or was removed, or the game
    is past its play phase (Finishing Touches, over, cancelled)."""
    state = ctx.game.state
    return state is not None and (state.players[ctx.seat].removed or state.phase is not Phase.PLAY
                                  or ctx.game.status != "active")
