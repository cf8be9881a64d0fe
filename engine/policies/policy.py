"""What every automatic player is: something that picks the next action of a state.

A :class:`Policy` picks the next action for whoever's turn it is. Policies are used by the
simulator (``engine.simulate``), by the benchmark and by AI seats. Every policy:

* returns a legal action in every state that is not over (Master included, Pass only when nothing
  else is legal);
* is deterministic given its own seed (an :class:`~engine.rng.Rng`, never the global ``random``);
* answers a pending decision (an empty-reserve substitute, …) through the same ``choose``: while
  one is pending the legal actions are its ``Choose`` answers, and the policy picks one of them.

A searching policy is also :class:`Interruptible`: its caller may hand it a :data:`StopCheck`,
which the search asks between slices of its work and, once it answers True, decides on what it
has scored so far. The engine never reads a clock: the bot's AI seats pass a check of a
wall-clock deadline (bot/core/play/thinking.py), tests a fake one, and hints, reviews and the
benches none (their searches stop on their fixed work budgets, so a position always gets the same
decision).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..actions import Action
from ..state import GameState

__all__ = ["Interruptible", "Policy", "StopCheck", "never_stop"]


class Policy(Protocol):
    """Chooses the next action for the current player of a state that is not over."""

    def choose(self, state: GameState) -> Action: ...


StopCheck = Callable[[], bool]
"""Asked by a search between slices of its work: True means stop now and decide on what has been
scored (a legal, whole decision whatever the moment)."""


def never_stop() -> bool:
    """The default :data:`StopCheck`: the search runs its whole fixed budget."""
    return False


@runtime_checkable
class Interruptible(Protocol):
    """A policy whose search can be stopped early by :attr:`should_stop` (see the module)."""

    should_stop: StopCheck
