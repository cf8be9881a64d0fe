"""The hoarding policy: builds a big supply with level-1 takes and upgrades before it places.

What it plays like: with a puzzle or two open, it spends its actions on level-1 pieces and
upgrades (toward the shapes its puzzles want, else the smallest piece one level up) until it
holds :data:`HOARD_PIECES` pieces of :data:`HOARD_LEVELS` levels in all; only then does it place,
and then mostly by Master, several puzzles at once. It completes a puzzle whenever one placement
does, and otherwise plays as greedy. The opposite of the rush-black policy: slow out of the
blocks, heavy Master turns later (issue 50: the Expert itself loses when it plays like this, so
the league holds an opponent that does it on purpose).
"""

from __future__ import annotations

from ..actions import Action, TakeLevelOne, Upgrade
from ..decisions import waiting_for
from ..legal import legal_actions
from ..pieces import BASE_SHAPES, Shape
from ..state import GameState, Phase
from .fillings import completions, free_masks, good_moves
from .greedy import GreedyPolicy
from .outlook import progress

__all__ = ["HoardingPolicy"]

HOARD_PIECES = 6
"""Pieces held before it starts placing."""
HOARD_LEVELS = 12
"""Levels held in all (a level-3 piece counts 3) before it starts placing."""
HOARD_UNTIL = 0.6
"""Progress after which it stops hoarding and plays greedy's turns."""


class HoardingPolicy(GreedyPolicy):
    """Greedy that fetches pieces first and places later (see the module)."""

    name = "hoarder"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, hoard_limit=HOARD_PIECES + 2, rich_at=4)

    def choose(self, state: GameState) -> Action:
        fetch = self._hoard(state)
        return fetch if fetch is not None else super().choose(state)

    def _hoard(self, state: GameState) -> Action | None:
        """A level-1 take or an upgrade while the supply is short and a puzzle is open; else None."""
        if (waiting_for(state) is not None or state.phase is not Phase.PLAY or state.current in state.held
                or progress(state) > HOARD_UNTIL):
            return None
        player = state.players[state.current]
        if not player.puzzles:
            return None
        free = free_masks(state, player)
        if completions(player, free):
            return None
        levels = sum(player.supply[s.index] * s.level for s in BASE_SHAPES)
        if player.supply_size >= HOARD_PIECES and levels >= HOARD_LEVELS:
            return None
        legal = set(a for a in legal_actions(state, places=False) if isinstance(a, TakeLevelOne | Upgrade))
        if player.supply_size < HOARD_PIECES and TakeLevelOne() in legal:
            return TakeLevelOne()
        wanted: set[Shape] = {s for mask in free.values() for s, _ in good_moves(mask)}
        upgrades = [a for a in legal if isinstance(a, Upgrade) and a.take.level > a.give.level]
        if not upgrades:
            return None
        return min(upgrades, key=lambda u: (u.take not in wanted, u.give.level, u.take.level - u.give.level,
                                            u.give.index, u.take.index))
