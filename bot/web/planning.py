"""The board's Plan mode: a seat lays out its next turn on the page while others play.

Everything a plan means is decided by the core, as for ``/projectl-plan`` on Discord: each draft
is laid out by :func:`bot.core.play.plans.lay_out` on the table as the seat sees it, and a plan is
kept, shown and dropped through :mod:`bot.core.play.plan_keeping`. This module only reads the
page's bodies (the same action bodies as ``/api/act``) and answers with JSON: the seat's view of
the table after the steps laid out so far (``seat_view`` of that table, so the page's previews
and controls work unchanged), the plan kept, and what the last planned turn did. A spectator's
link plans nothing (403); a refusal changes nothing (422, with the step's number and the reason).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.errors import BotError
from bot.core.games import PlanOutcome
from bot.core.play import plan_keeping, plans
from bot.core.play.flow import ActingContext
from bot.core.play.manager import Game
from bot.core.storage import ActionRow
from bot.core.storage.plans import PlanRow, PlanStep
from bot.core.wording import texts
from bot.core.wording.locales import Notation, localise, without_markdown
from bot.web.acting import (
    BoardFront,
    NotJson,
    Refused,
    forbidden,
    parse_action_body,
    sentence,
    storage_refusal,
    unreadable,
)
from bot.web.view import Json, seat_view
from engine import Action
from engine.state import SIDES
from engine.visibility import hidden_scores

log = logging.getLogger(__name__)


class BoardPlans:
    """The plan requests of one board (routes in ``bot/web/server.py``)."""

    def __init__(self, front: BoardFront) -> None:
        self.front = front

    async def _seated(self, token: str | None) -> ActingContext:
        """The flow's context of the token's seat (403 for a spectator or a seat not its user's)."""
        grant, game = await self.front.grant(token)
        if grant.seat is None:
            raise forbidden()
        return ActingContext(game, grant.seat, grant.user_id, grant.locale)

    async def _planning(self, token: str | None) -> ActingContext:
        """:meth:`_seated`, in a game still in play: a link outlives its game, and a cancelled
        game keeps a table a plan could be laid out on, though no turn of it will ever start."""
        ctx = await self._seated(token)
        if ctx.game.status != "active":
            raise Refused(422, {"error": sentence(texts.PLAN_NOT_NOW, ctx.locale)})
        return ctx

    async def draft(self, token: str | None, body: Any) -> Json:
        """The table after the steps laid out so far, as the seat sees it: nothing is kept."""
        ctx = await self._planning(token)
        actions, side = _plan_body(body, ctx.locale)
        laid_out = _laid_out(ctx, actions, side)
        view = draft_view(ctx, laid_out, await self.front.recent(ctx.game), blind=self.front.signer.blind)
        return {"view": view, "plan": _draft_json(ctx, laid_out)}

    async def save(self, token: str | None, body: Any) -> Json:
        """Keep the steps as the seat's plan (in place of the one it had)."""
        ctx = await self._planning(token)
        actions, side = _plan_body(body, ctx.locale)
        if not actions:
            raise Refused(422, {"error": sentence(texts.PLAN_EMPTY, ctx.locale)})
        try:
            laid_out = await plan_keeping.save_plan(self.front.manager, ctx, actions, side=side)
        except BotError as error:
            raise Refused(422, {"error": sentence(error.message, ctx.locale)}) from None
        except Exception as error:  # nothing was kept: a storage fault is a 503 in the player's words
            raise storage_refusal(error, ctx.locale) from None
        # the plan kept is the one just written (from its first step): not read back, since a
        # read failing now would answer "something went wrong" about a plan that is kept
        kept = {"steps": _steps_json(laid_out.steps, ctx.locale), "played": 0, "side": laid_out.side}
        return {"plan": kept, "outcome": None,
                "said": _said(lambda: texts.PLAN_SAVED.format(steps=plans.step_lines(laid_out.steps)), ctx)}

    async def cancel(self, token: str | None) -> Json:
        """Drop the seat's plan (and the word on its last planned turn)."""
        ctx = await self._seated(token)
        try:
            dropped = await plan_keeping.cancel_plan(self.front.manager, ctx, outcome_too=True)
        except Exception as error:  # nothing was dropped: as for saving
            raise storage_refusal(error, ctx.locale) from None
        return {"plan": None, "outcome": None,  # nothing is left to read back
                "said": _said(lambda: texts.PLAN_CANCELLED if dropped else texts.PLAN_NONE, ctx)}

    async def show(self, token: str | None) -> Json:
        return await self._shown(await self._seated(token))

    async def _shown(self, ctx: ActingContext) -> Json:
        """The seat's plan (its steps still to play) and what its last planned turn did (a read a
        storage fault stops is a 503 in the player's words)."""
        try:
            plan = await plan_keeping.plan_of(self.front.manager.storage, ctx)
            outcome = await self.front.plan_outcomes.last(ctx.game.id, ctx.seat, ctx.user_id)
        except Exception as error:
            raise storage_refusal(error, ctx.locale) from None
        return {"plan": None if plan is None else _kept_json(plan, ctx.locale),
                "outcome": None if outcome is None else _outcome_json(outcome, ctx.locale)}


def _said(words: Callable[[], Any], ctx: ActingContext) -> str:
    """``words`` as the page shows them, said after a plan was kept or dropped: that change
    stands, so a sentence that cannot be made is logged and the page told it is done."""
    try:
        return without_markdown(str(localise(words(), ctx.locale)))
    except Exception:
        log.exception("game %s: telling what a plan change did failed", ctx.game.id)
        return sentence(texts.BOARD_DONE_CATCHING_UP, ctx.locale)


def draft_view(ctx: ActingContext, laid_out: plans.LaidOut, recent: Sequence[ActionRow] = (), *,
               blind: Callable[[str], str] = str) -> Json:
    """``seat_view`` of the table after the steps of ``laid_out`` for ``ctx``'s seat, with what a
    plan cannot know left out (the cards a step drew blind or brought into a row: stand-ins, since
    the decks were re-dealt) and the real table's stamp and players to move."""
    real = ctx.game.state
    assert real is not None
    game: Game = dataclasses.replace(ctx.game, state=laid_out.after)
    # a draft that ends the game must not show the score piles the real table still hides
    view = seat_view(ActingContext(game, ctx.seat, ctx.user_id, ctx.locale), recent, blind=blind,
                     hidden_too=hidden_scores(real, ctx.seat))
    view["game"]["stamp"] = blind(ctx.stamp)
    view["game"]["status"] = ctx.game.status
    view["undo"] = None
    for player in view["players"]:  # who is to move is the table's, not the draft's
        player["current"] = player["seat"] == real.current and not real.is_over
        player["acting"] = player["seat"] in real.acting_seats
    _leave_out(view, plans.unknown_cards(real, ctx.seat, laid_out), ctx.seat)
    return view


def _leave_out(view: Json, unknown: frozenset[str], seat: int) -> None:
    """``view`` without the cards in ``unknown`` (stand-ins: see ``plans.unknown_cards``): an
    empty slot in a row, no puzzle of the seat's, nothing offered on them."""
    if not unknown:
        return
    for row in view["table"]["rows"]:
        row["cards"] = [None if card is not None and card["id"] in unknown else card for card in row["cards"]]
    view["puzzles"] = [p for p in view["puzzles"] if p["card"] not in unknown]
    me = view["players"][seat]
    me["puzzles"] = [p for p in me["puzzles"] if p["id"] not in unknown]
    me["face_up"] = [card for card in me["face_up"] if card not in unknown]
    if me["completed_cards"] is not None:
        me["completed_cards"] = [card for card in me["completed_cards"] if card not in unknown]
    view["offers"] = [o for o in view["offers"] if o.get("card") not in unknown]
    view["placements"] = {shape: kept for shape, places in view["placements"].items()
                          if (kept := [p for p in places if p["card"] not in unknown])}
    for kind in ("master", "ambassador"):
        multi = view[kind]
        if multi is not None:
            per_card = {card: places for card, places in multi["per_card"].items() if card not in unknown}
            view[kind] = {**multi, "per_card": per_card} if per_card else None


def _plan_body(body: Any, locale: Any) -> tuple[list[Action], str | None]:
    """The actions (``steps``: the page's action bodies, in order) and the Line Clear ``side``."""
    if isinstance(body, NotJson):
        raise unreadable(texts.BOARD_NOT_JSON, locale)
    if not isinstance(body, dict) or not isinstance(body.get("steps"), list) \
            or len(body["steps"]) > plans.MAX_STEPS or body.get("side") not in (None, *SIDES):
        raise unreadable(texts.BOARD_PLAN_BODY.format(n=plans.MAX_STEPS), locale)
    actions: list[Action] = []
    for step in body["steps"]:
        action = parse_action_body(step, locale)
        if isinstance(action, str):  # "undo" is no step of a plan
            raise unreadable(texts.BOARD_NO_ACTION, locale)
        actions.append(action)
    return actions, body.get("side")


def _laid_out(ctx: ActingContext, actions: list[Action], side: str | None) -> plans.LaidOut:
    state = ctx.game.state
    assert state is not None
    try:  # no side chosen: the side of the seat's next turn, as a plan saved is laid out
        return plans.lay_out(state, ctx.seat, actions, side=plans.side_for(state, ctx.seat, side))
    except BotError as error:
        raise Refused(422, {"error": sentence(error.message, ctx.locale)}) from None


def _steps_json(steps: tuple[PlanStep, ...], locale: Any) -> list[Json]:
    return [{"action": step.action, "text": str(localise(Notation(step.action), locale)), "card": step.card}
            for step in steps]


def _draft_json(ctx: ActingContext, laid_out: plans.LaidOut) -> Json:
    return {"steps": _steps_json(laid_out.steps, ctx.locale), "open": laid_out.open, "side": laid_out.side}


def _kept_json(plan: PlanRow, locale: Any) -> Json:
    return {"steps": _steps_json(plan.left, locale), "played": plan.played, "side": plan.side}


def _outcome_json(outcome: PlanOutcome, locale: Any) -> Json:
    return {"played": [str(localise(Notation(a), locale)) for a in outcome.played],
            "left": [str(localise(Notation(a), locale)) for a in outcome.left],
            "stopped": bool(outcome.left) or outcome.reason is not None,
            "text": sentence(plans.outcome_words(outcome), locale)}

