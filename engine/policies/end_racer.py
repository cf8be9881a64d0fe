"""The end-racer: greedy that drains the black row to trigger the end as soon as it leads.

What it plays like: greedy while behind or level. Once its banked points lead every score pile
it can see (with hidden score piles: once it has banked more than two points a round played),
its first action each turn takes the black puzzle with the fewest squares in the row (its
refill comes from the black deck, whose running out triggers the end) while it has fewer than
:data:`RACE_OPEN` puzzles open, so the game ends before a slower, richer player cashes in. The
rest of the turn is greedy's. Built to punish a player who builds for a long game (issue 50:
the opponent triggered the end in 64 % of the Expert's losses).
"""

from __future__ import annotations

from ..actions import Action, TakePuzzle
from ..cards import Colour
from ..decisions import waiting_for
from ..legal import legal_actions
from ..rules import score_line
from ..state import ACTIONS_PER_TURN, GameState, Phase, SoloTable
from ..variants import variant_for
from ..visibility import hidden_scores
from .greedy import GreedyPolicy

__all__ = ["EndRacerPolicy"]

RACE_OPEN = 2
"""Open puzzles below which a racing turn still takes a black puzzle."""


def leads(state: GameState, seat: int) -> bool:
    """True when ``seat``'s banked points beat every score pile it may see (see the module)."""
    mine = score_line(state, seat).completed_points
    hidden = hidden_scores(state, seat)
    others = [score_line(state, s).completed_points for s in range(len(state.players))
              if s != seat and s not in hidden and not state.players[s].removed]
    if not others:
        return mine > 2 * max(1, state.round)
    return mine > max(others)


class EndRacerPolicy(GreedyPolicy):
    """Greedy that races the end trigger while ahead (see the module)."""

    name = "end_racer"

    def choose(self, state: GameState) -> Action:
        race = self._race(state)
        return race if race is not None else super().choose(state)

    def _race(self, state: GameState) -> Action | None:
        """The cheapest black take of a racing turn's first action, else None."""
        if (waiting_for(state) is not None or state.phase is not Phase.PLAY or state.current in state.held
                or isinstance(state.table, SoloTable) or state.actions_left != ACTIONS_PER_TURN):
            return None
        seat = state.current
        if len(state.players[seat].puzzles) >= RACE_OPEN or not leads(state, seat):
            return None
        takes = [a for a in legal_actions(state, places=False)
                 if isinstance(a, TakePuzzle) and a.colour is Colour.BLACK]
        variant = variant_for(state.options.variant)
        sized = []
        for take in takes:
            card = variant.card_for_take(state, take)
            if card is not None:
                sized.append((state.cards[card].recess.bit_count(), take.slot, take))
        return min(sized)[2] if sized else None
