"""The rest of a turn a searching policy planned, played without searching again.

A search (Strong, the Expert, the hand planner) chooses a whole turn but answers one action at a
time. The rest is kept with the state it expects next, and played while the game is exactly that
state; anything unforeseen (another seat acted, a card was revealed) means a new search.
"""

from __future__ import annotations

from ..actions import Action
from ..errors import IllegalActionError
from ..game import Outcome, apply
from ..state import GameState


class KeptTurn:
    """One policy's kept rest of a turn (empty until :meth:`keep`)."""

    def __init__(self) -> None:
        self.rest: tuple[Action, ...] = ()
        self._expect: GameState | None = None

    def next(self, state: GameState) -> Action | None:
        """The next kept action if ``state`` is the one expected and it is still legal there;
        None (and nothing kept) otherwise."""
        rest, expect = self.rest, self._expect
        self.rest, self._expect = (), None
        if not rest or expect is None or state != expect:
            return None
        try:
            outcome = apply(state, rest[0])
        except IllegalActionError:
            return None
        self.keep(rest[1:], outcome)
        return rest[0]

    def keep(self, rest: tuple[Action, ...], outcome: Outcome) -> None:
        """Keep ``rest`` after the action that gave ``outcome``, unless that action revealed a
        card: the next call then searches again with what it shows."""
        if rest and not outcome.reveals_hidden:
            self.rest, self._expect = rest, outcome.state

    def start(self, state: GameState, plan: tuple[Action, ...]) -> Action:
        """The first action of a searched ``plan`` from ``state``, keeping the rest."""
        if len(plan) > 1:
            self.keep(plan[1:], apply(state, plan[0]))
        return plan[0]
