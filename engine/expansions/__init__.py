"""Expansions plug into any variant through the :class:`Expansion` hooks.

Variants (:mod:`engine.variants`) own the puzzle market and the turn order: the base rows, Solo,
Line Clear. Expansions add components and rules on top of whichever variant is played — Ghost
Piece now, Finesse next — and are switched on by table options (``Options.ghost`` …), several at
once. The shared rules and the turn flow call every enabled expansion's hooks at fixed points,
so an expansion never needs an ``if variant ==`` branch in the rules, and a variant never needs to
know which expansions are on.

Hooks (all optional; the defaults do nothing):

=====================  ==========================================================================
``validate_options``   refuse option combinations the expansion cannot play (clear message)
``uses_card``          which catalogue cards belong to it (dealt only when it is on)
``reserve``            extra pieces it puts in the reserve
``action_types``       the action values it owns; ``apply_action`` applies them
``legal_actions``      its actions that ``legal_actions`` lists (cheap, enumerable)
``more_actions``       combinatorial ones only ``iter_legal_actions`` walks (like Master)
``after_rewards``      after the piece rewards of puzzles completed by one action (level-ups)
``end_of_turn``        a player's turn has ended (before the next one starts)
``end_of_round``       a round has ended (the next one is about to start)
``tiebreak``           a key inserted before the base tie-breaks (higher wins)
=====================  ==========================================================================

State an expansion needs beyond the shared fields lives in ``GameState.ext[name]``: JSON-native
data (written only when present), read and written through ``Work.ext`` during an action and
never mutated in place (replace it), so states stay immutable.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..actions import Action
    from ..cards import PuzzleCard
    from ..pieces import Shape
    from ..state import GameState, Options
    from ..work import Work


class Expansion:
    """Hooks an expansion provides. Subclasses override what they need."""

    name = "expansion"
    option = "expansion"
    action_types: tuple[type, ...] = ()

    def enabled(self, options: Options) -> bool:
        return bool(getattr(options, self.option, False))

    def validate_options(self, options: Options) -> None:
        """Raise an IllegalActionError when the expansion cannot be played with ``options``."""

    def uses_card(self, card: PuzzleCard) -> bool:
        return card.expansion == self.name

    def reserve(self, options: Options) -> dict[Shape, int]:
        return {}

    # -- actions -------------------------------------------------------------------------------
    def legal_actions(self, state: GameState) -> Iterator[Action]:
        return iter(())

    def more_actions(self, state: GameState) -> Iterator[Action]:
        return iter(())

    def apply_action(self, w: Work, action: Action) -> None:
        raise NotImplementedError

    # -- moments of the game -------------------------------------------------------------------
    def after_rewards(self, w: Work, seat: int, cards: Sequence[PuzzleCard]) -> None:
        """``cards`` were completed by one action in play; their pieces are back and their piece
        rewards taken."""

    def end_of_turn(self, w: Work, seat: int) -> None:
        """``seat``'s turn is over (its actions are spent, or it was skipped)."""

    def end_of_round(self, w: Work) -> None:
        """A round is over; ``w.round`` is still the finished round's number."""

    def tiebreak(self, state: GameState, seat: int) -> tuple[Any, ...]:
        return ()


@lru_cache(maxsize=64)
def expansions_for(options: Options) -> tuple[Expansion, ...]:
    """The expansions switched on by these options, in registry order."""
    return tuple(e for e in EXPANSIONS if e.enabled(options))


def card_in_play(card: PuzzleCard, options: Options) -> bool:
    """A base card, or a card of an expansion these options switch on."""
    return card.expansion is None or any(e.uses_card(card) for e in expansions_for(options))


def expansion_for_action(options: Options, action: Action) -> Expansion | None:
    for expansion in expansions_for(options):
        if isinstance(action, expansion.action_types):
            return expansion
    return None


def end_of_round(w: Work) -> None:
    for expansion in expansions_for(w.options):
        expansion.end_of_round(w)


def end_of_turn(w: Work, seat: int) -> None:
    for expansion in expansions_for(w.options):
        expansion.end_of_turn(w, seat)


def tiebreak(state: GameState, seat: int) -> tuple[Any, ...]:
    key: tuple[Any, ...] = ()
    for expansion in expansions_for(state.options):
        key += expansion.tiebreak(state, seat)
    return key


# Registered here, after Expansion is defined (each module subclasses it). Importing the ghost
# expansion also registers its ``level_up`` decision kind, so a stored game waiting for one can
# always be answered.
from .ghost import GhostExpansion  # noqa: E402

EXPANSIONS: tuple[Expansion, ...] = (GhostExpansion(),)
"""Every known expansion, in hook order."""

__all__ = [
    "EXPANSIONS", "Expansion", "card_in_play", "end_of_round", "end_of_turn",
    "expansion_for_action", "expansions_for", "tiebreak",
]
