"""Plan-ahead turns: lay out your next turn while it is not yours; it plays the moment it is.

In Project L most of a turn — placing pieces on your own puzzles — does not depend on what the
others do, so a player who cannot be there when their turn comes can leave it ready. The rules:

* **Laid out on the state as the seat sees it**: each step is checked by the engine on the table
  as it stands, as if the seat's turn started now (:func:`planning_states`; in Line Clear on
  either side of the table, since which marker the seat will hold is not known yet) — on the
  seat's own view (decks and hidden piles re-dealt, face-down tiles blank: ``seen_position``), so
  whether a plan is accepted never tells what a deck holds next. A plan holds
  at most one turn: up to its three actions, with Master and the choices it will have to make.
* **What a step relies on is kept with it**: a take names a row slot, so the card that slot shows
  now is kept and the step stops if another card lies there when it plays (taken by someone
  else). Other actions name their cards and pieces, so the engine's own check is the test (a
  reserve piece gone, a puzzle no longer yours).
* **Played when the turn starts** (``GameManager``), step by step, each a normal commit marked
  "planned" in the log, and stopped at the first step that is no longer legal or no longer the
  card planned; never past the end of that turn; the player is told privately what was played
  and what is left.

Pure: no SQL, no Discord (storage is ``bot/core/storage/plans.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import engine
from bot.core.errors import BadInputError, InvalidActionError
from bot.core.storage.plans import PlanStep
from bot.core.wording import texts
from bot.core.wording.refusals import engine_text
from engine import Action, GameState
from engine.events import PuzzleTaken
from engine.policies.plugins import seen_position
from engine.state import ACTIONS_PER_TURN, Phase, Turn

MAX_STEPS = 8
"""Steps in a plan: three actions, and the choices and Finesse steps a turn may bring."""
SIDES = ("left", "right")


def parse_plan(text: str) -> list[Action]:
    """The actions of a plan written as the engine's notation, one after another separated by
    ``;`` (a Master's own ``;`` between its placements is kept with it)."""
    actions: list[Action] = []
    master = ""  # the text of the Master just read, which a placement may continue
    for part in (piece.strip() for piece in text.split(";")):
        if not part:
            continue
        try:
            action = engine.parse_action(part)
        except engine.IllegalActionError as error:
            whole = _continued(master, part)  # "L3 on W07 at …" goes on the Master before it
            if whole is None:
                raise InvalidActionError(engine_text(error)) from error
            actions[-1], master = whole, f"{master}; {part}"
            continue
        actions.append(action)
        master = part if isinstance(action, engine.Master) else ""
    if not actions:
        raise BadInputError(texts.PLAN_EMPTY)
    if len(actions) > MAX_STEPS:
        raise BadInputError(texts.PLAN_TOO_LONG.format(n=MAX_STEPS))
    return actions


def _continued(master: str, part: str) -> Action | None:
    """The Master ``master`` with one more placement, ``part``; None if that is no Master."""
    if not master:
        return None
    try:
        return engine.parse_action(f"{master}; {part}")
    except engine.IllegalActionError:
        return None


def planning_states(state: GameState, seat: int) -> list[GameState]:
    """The table as it stands, with ``seat``'s turn starting now: what a plan is checked on."""
    fresh = replace(state, current=seat, actions_left=ACTIONS_PER_TURN, master_used=False,
                    black_taken=False, pending=(), held=())
    if not state.turns:
        return [fresh]
    return [replace(fresh, turns=(Turn(seat, side),)) for side in SIDES]


@dataclass(frozen=True, slots=True)
class LaidOut:
    """A plan the engine accepted on the table as it stands: its steps, with the cards they rely on."""

    steps: tuple[PlanStep, ...]


def lay_out(state: GameState, seat: int, actions: Sequence[Action]) -> LaidOut:
    """Check ``actions`` as ``seat``'s next turn; refuse (with the engine's reason and the step's
    number) a plan no side of the table would let it play, or one reaching past the turn."""
    if state.phase is not Phase.PLAY or state.options.variant == "solo":
        raise BadInputError(texts.PLAN_NOT_NOW)
    if seat in state.acting_seats:
        raise BadInputError(texts.PLAN_YOUR_TURN)
    problem: Any = None
    seen = seen_position(state, seat)  # what the seat may see: no deck order, no hidden tile
    for start in planning_states(seen, seat):
        try:
            return LaidOut(_simulate(start, seat, actions))
        except _Refused as refused:
            if problem is None or refused.at > problem[0]:
                problem = (refused.at, refused.reason)
    assert problem is not None
    raise InvalidActionError(texts.PLAN_STEP_REFUSED.format(n=problem[0] + 1, reason=problem[1]))


class _Refused(Exception):
    def __init__(self, at: int, reason: Any) -> None:
        super().__init__(str(reason))
        self.at, self.reason = at, reason


def _simulate(state: GameState, seat: int, actions: Sequence[Action]) -> tuple[PlanStep, ...]:
    steps: list[PlanStep] = []
    unknown: set[tuple[Any, int | None]] = set()  # row slots an earlier step refilled from a deck
    turn = state.turn
    for index, action in enumerate(actions):
        if seat not in state.acting_seats or state.turn != turn or state.phase is not Phase.PLAY:
            raise _Refused(index, texts.PLAN_PAST_THE_TURN)
        try:
            outcome = engine.apply(state, action, player=seat)
        except engine.IllegalActionError as error:
            raise _Refused(index, engine_text(error)) from error
        card = None
        for event in outcome.events:
            taken = isinstance(event, PuzzleTaken) and event.source == "row"
            if taken and isinstance(action, engine.TakePuzzle):
                assert isinstance(event, PuzzleTaken)
                slot = (event.colour, event.slot)
                card = None if slot in unknown else event.card
                unknown.add(slot)
        if isinstance(action, engine.Recycle):
            unknown.update((action.colour, slot) for slot in range(1, 5))
        steps.append(PlanStep(str(action), card))
        state = outcome.state
    return tuple(steps)


def step_problem(state: GameState, seat: int, step: PlanStep) -> tuple[Any, engine.Outcome | None]:
    """Why ``step`` cannot be played now (the engine's reason, or another card in the slot the
    plan took from), or None with the outcome of playing it."""
    try:
        action = engine.parse_action(step.action)
        outcome = engine.apply(state, action, player=seat)
    except engine.IllegalActionError as error:
        return engine_text(error), None
    if step.card is not None:
        taken = next((e.card for e in outcome.events if isinstance(e, PuzzleTaken)), None)
        if taken != step.card:
            return texts.PLAN_CARD_GONE.format(card=step.card), None
    return None, outcome


def plays_now(state: GameState, seat: int, turn: int | None) -> bool:
    """Whether a plan of ``seat`` that started in ``turn`` (None: not started) may play a step
    now: the seat holds the move in the play phase, in the same turn once started."""
    if state.phase is not Phase.PLAY:
        return False
    if state.turns:  # Line Clear: the seat holds a marker and its turn is not done
        holds = any(t.seat == seat and not t.done for t in state.turns)
    else:  # its own turn, not a decision it owes during someone else's
        holds = state.current == seat
    return holds and (turn is None or state.turn == turn)
