"""Pending decisions: choices the rules give a player, which the game waits for.

When a rule lets a player choose (which substitute piece to take from an empty reserve; with the
Ghost Piece expansion, which piece a level-up arrow raises), the engine never chooses for them.
It queues a :class:`~engine.state.PendingDecision` in ``GameState.pending`` and waits:

- while a seat has a pending decision, its only legal actions are ``Choose`` actions naming the
  options of its first decision (``choose <option>``); answering spends no action;
- a turn never ends while its player has a decision pending, even after the third action;
- the decisions are answered first in, first out, each one brought up to date just before it is
  asked (an earlier answer may have taken the last piece an option named).

Each ``kind`` of decision is a :class:`DecisionKind` in :data:`KINDS`: how to bring it up to
date, how to carry out an answer, and how to ask. An expansion registers its own kind with
:func:`register` and queues decisions with :func:`ask`; the turn flow in :mod:`engine.game` needs
no change. docs/engine.md ("Pending decisions") shows how.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Choose
from .errors import IllegalActionError, quoted
from .events import DecisionAwaited
from .state import GameState, PendingDecision
from .work import Work


def _unchanged(w: Work, decision: PendingDecision) -> PendingDecision | None:
    return decision


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """What the engine needs to know about one kind of decision."""

    name: str
    resolve: Callable[[Work, PendingDecision, str], None]
    """Carry out the answer: the option is one of ``decision.options``, in its canonical text."""
    prompt: Callable[[PendingDecision], str]
    """A sentence for the player saying what to choose and why (the options are listed apart)."""
    refresh: Callable[[Work, PendingDecision], PendingDecision | None] = _unchanged
    """Bring the decision up to date just before it is asked: return it with its options as the
    game now stands, or ``None`` when there is nothing left to ask — the kind carried it out
    itself (a single option left) or it lapsed (no option left). It may emit events."""
    when_skipped: Callable[[PendingDecision], str] = lambda decision: decision.options[0]
    """The answer given when the table skips the player's turn: by default the first option (a
    piece owed is not lost); an optional reward answers with its refusal instead."""


KINDS: dict[str, DecisionKind] = {}


def register(kind: DecisionKind) -> DecisionKind:
    """Make ``kind`` answerable. Registering the same name twice replaces the first."""
    KINDS[kind.name] = kind
    return kind


def kind_of(decision: PendingDecision) -> DecisionKind:
    try:
        return KINDS[decision.kind]
    except KeyError:
        raise IllegalActionError("choose.unknown_kind", kind=decision.kind) from None


def ask(w: Work, decision: PendingDecision) -> None:
    """Queue a decision. It is asked once the decisions before it are answered."""
    w.pending.append(decision)


def prompt(decision: PendingDecision) -> str:
    """What the player is asked, as a sentence."""
    return kind_of(decision).prompt(decision)


def _head_index(pending: Sequence[PendingDecision], seat: int, concurrent: bool) -> int | None:
    """Where the decision the game waits for from ``seat`` is: with one turn at a time, the
    first of the queue; while turns run at once (Line Clear), the first of that seat's own."""
    if not concurrent:
        return 0 if pending else None
    return next((i for i, d in enumerate(pending) if d.seat == seat), None)


def waiting_for(state: GameState) -> PendingDecision | None:
    """The decision ``state.current`` must answer before anything else, if any (a concurrent
    state is seen from one seat's turn: see ``GameState.focused``)."""
    index = _head_index(state.pending, state.current, bool(state.turns))
    return None if index is None else state.pending[index]


def waiting(w: Work) -> bool:
    """True while the focused seat has a decision to answer (its turn cannot end)."""
    return focused_decision(w) is not None


def focused_decision(w: Work) -> PendingDecision | None:
    """The decision the focused seat must answer first, if any."""
    index = _head_index(w.pending, w.current, bool(w.turns))
    return None if index is None else w.pending[index]


def settle(w: Work) -> None:
    """Bring the first pending decision up to date — each seat's first while turns run at once —
    dropping those that need no answer.

    Runs after every action and answer. Announces (``DecisionAwaited``) a decision the moment it
    becomes the one the game waits for.
    """
    before: dict[int, PendingDecision] = {}
    for decision in w.base.pending:
        before.setdefault(decision.seat, decision)
    asked: set[int] = set()
    index = 0
    while index < len(w.pending):
        head = w.pending[index]
        if head.seat in asked:
            index += 1
            continue
        fresh = kind_of(head).refresh(w, head)
        if fresh is None:
            w.pending.pop(index)
            continue
        w.pending[index] = fresh
        if fresh != before.get(fresh.seat):
            w.emit(DecisionAwaited(fresh.seat, fresh.kind, fresh.options, prompt(fresh), fresh.about))
        if not w.turns:
            return
        asked.add(head.seat)
        index += 1


def answer(w: Work, action: Choose) -> None:
    """Carry out ``action`` as the answer to the focused seat's pending decision."""
    index = _head_index(w.pending, w.current, bool(w.turns))
    if index is None:
        raise IllegalActionError("choose.nothing_waiting")
    head = w.pending[index]
    wanted = action.option.casefold()
    option = next((o for o in head.options if o.casefold() == wanted), None)
    if option is None:
        raise IllegalActionError("choose.not_an_option", text=quoted(action.option),
                                 options=list(head.options))
    w.pending.pop(index)
    kind_of(head).resolve(w, head, option)


def answer_by_default(w: Work, seat: int) -> None:
    """Answer each of ``seat``'s pending decisions with its kind's ``when_skipped`` answer.

    Used only when the table ends a turn for the player (a skip): a piece owed is not lost (the
    first option listed), an optional level-up is declined (docs/rules.md records this ruling).
    ``seat`` is the focused seat (the one whose turn is skipped).
    """
    settle(w)
    while (index := _head_index(w.pending, seat, bool(w.turns))) is not None and \
            w.pending[index].seat == seat:
        head = w.pending[index]
        answer(w, Choose(kind_of(head).when_skipped(head)))
        settle(w)


def drop(w: Work, seat: int) -> None:
    """Forget ``seat``'s pending decisions (the player left the game)."""
    w.pending[:] = [d for d in w.pending if d.seat != seat]
