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

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import engine
from bot.core.errors import BadInputError, InvalidActionError, NotInGameError
from bot.core.games import PlanOutcome
from bot.core.storage.plans import PlanStep
from bot.core.wording import texts
from bot.core.wording.locales import Joined, Notation
from bot.core.wording.refusals import engine_text
from engine import Action, GameState
from engine.events import PuzzleTaken
from engine.expansions.ambassador import ambassador_options
from engine.policies.hidden import visible_cards
from engine.policies.plugins import seen_position
from engine.state import ACTIONS_PER_TURN, Phase, Turn
from engine.variants.line_clear import next_side

MAX_STEPS = 8
"""Steps in a plan: three actions, and the choices and Finesse steps a turn may bring."""
SIDES = ("left", "right")


STEP_BREAK = re.compile(r"[;\r\n]")
"""What separates a plan's steps."""


def parse_plan(text: str) -> list[Action]:
    """The actions of a plan written as the engine's notation, one after another separated by
    ``;`` or a line break (the Plan form's box has several lines); a Master's own ``;`` between
    its placements is kept with it."""
    actions: list[Action] = []
    master = ""  # the text of the Master just read, which a placement may continue
    for part in (piece.strip() for piece in STEP_BREAK.split(text)):
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


def planning_states(state: GameState, seat: int, side: str | None = None,
                    first: str | None = None) -> list[GameState]:
    """The table as it stands, with ``seat``'s turn starting now: what a plan is checked on (in
    Line Clear on ``side`` of the table, or on either when None: ``first`` first, if given)."""
    fresh = replace(state, current=seat, actions_left=ACTIONS_PER_TURN, master_used=False,
                    black_taken=False, pending=(), held=())
    if not state.turns:
        return [fresh]
    order = sorted(SIDES, key=lambda one: one != first)  # a stable sort: left before right otherwise
    return [replace(fresh, turns=(Turn(seat, one),)) for one in order if side is None or one == side]


def plannable(state: GameState, seat: int | None) -> bool:
    """Whether ``seat`` may lay out a plan now: a seat of a multiplayer game in play, out of turn,
    still in the game (a seat that left or was removed has no next turn)."""
    return (seat is not None and state.phase is Phase.PLAY and state.options.variant != "solo"
            and seat not in state.acting_seats and not state.players[seat].removed)


def refuse_unless_plannable(state: GameState, seat: int) -> None:
    """Refuse, with the reason, a plan ``seat`` could not lay out now (:func:`plannable`): also
    asked before a front shows its plan form, so nobody types a plan only to have it refused."""
    if state.phase is not Phase.PLAY or state.options.variant == "solo":
        raise BadInputError(texts.PLAN_NOT_NOW)
    if state.players[seat].removed:  # never to move again: its plan would never play
        raise NotInGameError(texts.PLAN_REMOVED)
    if seat in state.acting_seats:
        raise BadInputError(texts.PLAN_YOUR_TURN)


@dataclass(frozen=True, slots=True)
class LaidOut:
    """A plan the engine accepted on the table as it stands: its steps, with the cards they rely on;
    and, for a page that lays a plan out step by step, the table after them as the seat sees it."""

    steps: tuple[PlanStep, ...]
    after: GameState
    """The seat's view of the table once the steps are played (decks re-dealt: ``seen_position``,
    so a card drawn or refilled from a deck is a stand-in: :func:`unknown_cards`)."""
    open: bool = False
    """Whether another step could follow: the planned turn is not over after them."""
    side: str | None = None
    """The Line Clear side it was laid out on (None elsewhere)."""


def side_for(state: GameState, seat: int, chosen: str | None) -> str | None:
    """The Line Clear side a plan of ``seat`` is laid out on: the one ``chosen``, else the side of
    its next turn (:func:`next_side`: the markers pass clockwise, so the one that reaches it first
    is known; a plan on the other side would rely on rows its turn will not see). Every front
    saving or drafting a plan asks here (None outside Line Clear)."""
    return chosen or next_side(state, seat)


def lay_out(state: GameState, seat: int, actions: Sequence[Action], *, side: str | None = None,
            first: str | None = None) -> LaidOut:
    """Check ``actions`` as ``seat``'s next turn (in Line Clear on ``side``, or on the first side
    that allows it, trying ``first`` first: the side of the plan being changed); refuse (with the
    engine's reason and the step's number) a plan no side of the table would let it play, or one
    reaching past the turn."""
    refuse_unless_plannable(state, seat)
    problem: Any = None
    seen = seen_position(state, seat)  # what the seat may see: no deck order, no hidden tile
    starts = planning_states(seen, seat, side, first)
    if not starts:
        raise BadInputError(texts.PLAN_NOT_NOW)
    for start in starts:
        try:
            return _simulate(start, seat, actions)
        except _Refused as refused:
            if problem is None or refused.at > problem[0]:
                problem = (refused.at, refused.reason)
    assert problem is not None
    raise InvalidActionError(texts.PLAN_STEP_REFUSED.format(n=problem[0] + 1, reason=problem[1]))


class _Refused(Exception):
    def __init__(self, at: int, reason: Any) -> None:
        super().__init__(str(reason))
        self.at, self.reason = at, reason


def _simulate(state: GameState, seat: int, actions: Sequence[Action]) -> LaidOut:
    steps: list[PlanStep] = []
    unknown: set[tuple[Any, int | None]] = set()  # row slots an earlier step refilled from a deck
    turn, start = state.turn, state
    for index, action in enumerate(actions):
        if seat not in state.acting_seats or state.turn != turn or state.phase is not Phase.PLAY:
            raise _Refused(index, texts.PLAN_PAST_THE_TURN)
        if (decision := table_decision(action)) is not None:
            raise _Refused(index, decision)
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
    still = seat in state.acting_seats and state.turn == turn and state.phase is Phase.PLAY
    side = next((t.side for t in start.turns if t.seat == seat), None)
    return LaidOut(tuple(steps), state, still, side)


def next_steps(state: GameState, seat: int, actions: Sequence[Action]) -> list[str]:
    """What a plan of ``actions`` could go on with (``/projectl-plan set``'s suggestions): each
    action the engine would let ``seat`` play after them on the table as it sees it, in notation
    (a Master or an Ambassador action as its verb, to be typed on); none once the turn is full,
    and none naming a card the seat cannot know now (one drawn blind or refilled from a deck in
    the plan: a stand-in from the re-dealt decks). In Line Clear on the side of the seat's next
    turn (``next_side``), where a plan kept without a side is laid out. Refused as
    :func:`lay_out` refuses."""
    laid_out = lay_out(state, seat, actions, side=side_for(state, seat, None))
    if not laid_out.open:
        return []
    after = laid_out.after.focused(seat)
    hidden = unknown_cards(state, seat, laid_out)
    offered = [str(action) for action in engine.legal_actions(after) if table_decision(action) is None]
    if engine.master_options(after) is not None:
        offered.append("master ")
    if ambassador_options(after) is not None:
        offered.append("ambassador ")
    known = [text for text in offered if not any(card in text.split() for card in hidden)]
    return sorted(known, key=lambda text: SUGGESTED_FIRST.get(text.split(" ", 1)[0], len(SUGGESTED_FIRST)))


SUGGESTED_FIRST = {verb: rank for rank, verb in enumerate(
    ("choose", "level1", "take", "draw", "place", "upgrade", "master", "ambassador"))}
"""The order :func:`next_steps` offers kinds of action in (a list shows 25): a pending choice
first, then the usual moves; recycling, with its many orders, and anything else after them."""


def table_decision(action: Action) -> Any:
    """Why ``action`` may not be in a plan, when it is a table decision (skip a turn, remove a
    seat): the engine applies those for any seat, and only a vote, the turn clock or the host may
    decide them (``GameManager.decide``), never a player's plan. None for a move."""
    if isinstance(action, engine.TABLE_ACTIONS):
        return texts.TABLE_DECISION_ONLY.format(action=str(action))
    return None


def unknown_cards(state: GameState, seat: int, laid_out: LaidOut) -> frozenset[str]:
    """The cards the table after a plan shows that ``seat`` cannot know now (drawn blind, or
    refilled into a row from a deck): stand-ins from the re-dealt decks, which a page leaves out."""
    return visible_cards(laid_out.after, seat) - visible_cards(state, seat)


def step_problem(state: GameState, seat: int, step: PlanStep) -> tuple[Any, engine.Outcome | None]:
    """Why ``step`` cannot be played now (the engine's reason, or another card in the slot the
    plan took from), or None with the outcome of playing it."""
    try:
        action = engine.parse_action(step.action)
        if (decision := table_decision(action)) is not None:  # a plan kept before they were refused
            return decision, None
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


# -- in words ----------------------------------------------------------------------------------


def step_lines(steps: Sequence[PlanStep]) -> Joined:
    """A plan's steps, one numbered line each (with the card a take relies on)."""
    return Joined([texts.PLAN_STEP_CARD.format(n=n, action=Notation(s.action), card=s.card) if s.card
                   else texts.PLAN_STEP.format(n=n, action=Notation(s.action))
                   for n, s in enumerate(steps, start=1)], "\n")


def outcome_words(outcome: PlanOutcome) -> Any:
    """What a planned turn did, for its player: what was played, and where and why it stopped."""
    nothing = texts.PLAN_NOTHING_PLAYED
    played = _actions(outcome.played) if outcome.played else nothing
    if not outcome.left and outcome.reason is None:
        return texts.PLAN_PLAYED.format(game_id=outcome.game_id, actions=played)
    left = _actions(outcome.left) if outcome.left else nothing
    template = texts.PLAN_STOPPED if outcome.played else texts.PLAN_STOPPED_FIRST
    return template.format(game_id=outcome.game_id, actions=played,
                           step=Notation(outcome.left[0]) if outcome.left else "",
                           reason=outcome.reason, left=left)


def _actions(actions: Sequence[str]) -> Joined:
    """``take white 2``, ``level1`` … each in code style, in the reader's notation."""
    return Joined([Joined(("`", Notation(action), "`")) for action in actions], ", ")
