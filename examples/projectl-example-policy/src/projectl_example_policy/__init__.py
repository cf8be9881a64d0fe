"""The minimum Project L plug-in policy (docs/plugins.md).

The entry point ``example`` in the group ``projectl.policies`` (pyproject.toml) names a factory
that takes a seed; its object's ``choose`` receives a :class:`engine.policies.plugins.SeatView`
— the seat, the position as that seat sees it, the legal actions — and returns one action (or
its text, ``"take white 2"``). The engine checks the answer; an illegal one, an error or a turn
over the time limit is replaced by a legal move.

This one plays the only legal action when there is one, and otherwise lets the engine's Easy
policy (greedy) decide on the same view: replace ``choose`` with your own AI.
"""

from __future__ import annotations

from engine import Action
from engine.policies import GreedyPolicy
from engine.policies.plugins import SeatView


class ExamplePolicy:
    def __init__(self, seed: int) -> None:
        self.easy = GreedyPolicy(seed)

    def choose(self, view: SeatView) -> Action | str:
        if len(view.legal) == 1:
            return view.legal[0]
        return self.easy.choose(view.state)
