"""What every automatic player is: something that picks the next action of a state.

A :class:`Policy` picks the next action for whoever's turn it is. Policies are used by the
simulator (``engine.simulate``), by the benchmark and by AI seats. Every policy:

* returns a legal action in every state that is not over (Master included, Pass only when nothing
  else is legal);
* is deterministic given its own seed (an :class:`~engine.rng.Rng`, never the global ``random``);
* answers a pending decision (an empty-reserve substitute, …) through the same ``choose``: while
  one is pending the legal actions are its ``Choose`` answers, and the policy picks one of them.
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..state import GameState

__all__ = ["Policy"]


class Policy(Protocol):
    """Chooses the next action for the current player of a state that is not over."""

    def choose(self, state: GameState) -> Action: ...
