"""The rush-black policy: greedy that grabs the big black puzzles early and races to finish them.

What it plays like: from the first turn it values a black puzzle at twice greedy's value per
action, plus one, and keeps one more puzzle open than greedy while the black deck is still full,
so it sits on two or three 4–5 point puzzles and pours every piece into them. Against a patient
player that builds a supply first it is ahead early and short of pieces later; it also drains the
black row, which brings the end nearer for everyone. A league member built unlike the searches
(issue 50: opponents that do not play like the league the Expert was tuned in).
"""

from __future__ import annotations

from ..cards import Colour, PuzzleCard
from ..state import GameState, PlayerState
from .greedy import GreedyPolicy
from .outlook import progress

__all__ = ["RushBlackPolicy"]

BLACK_FACTOR = 2.0
"""A black puzzle's value per action, against greedy's."""
BLACK_BONUS = 1.0
"""Added to a black puzzle's value per action."""
RUSH_UNTIL = 0.7
"""Progress (:func:`~engine.policies.outlook.progress`) after which it values puzzles as greedy does."""


class RushBlackPolicy(GreedyPolicy):
    """Greedy with a strong taste for black puzzles while the game is young (see the module)."""

    name = "rush_black"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed, eager_take=0, goal_min=3)

    def _card_value(
        self, state: GameState, player: PlayerState, card: PuzzleCard, denial: int = 0,
        outlook: tuple[int | None, float] | None = None,
    ) -> float | None:
        value = super()._card_value(state, player, card, denial, outlook)
        if value is None or card.colour is not Colour.BLACK or progress(state) > RUSH_UNTIL:
            return value
        return value * BLACK_FACTOR + BLACK_BONUS
