"""The seam between the rules and the expansions: the :class:`Expansion` hooks and their registry.

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
``setup``              its starting state in ``GameState.ext[name]`` (dealt from the game's rng)
``free_action_types``  its actions that spend none of the turn's actions (Finesse's Insert)
``after_rewards``      after the piece rewards of puzzles completed by one action (level-ups)
``after_action``       after any action or answer, with the events it produced (Finesse tiles)
``holds_turn``         keep a turn whose actions are spent open for a free action (``end turn``)
``end_of_turn``        a player's turn has ended (before the next one starts)
``player_removed``     a seat left the game: give back what it holds (Finesse: credits to the bank)
``after_banking``      an Endless White Deck banked the completed white cards into a new deck
``end_of_round``       a round has ended; True ends play now (straight to Finishing Touches)
``last_round_cap``     the last round it lets play reach (Finesse: the round its last tile leaves)
``tiebreak``           a key inserted before the base tie-breaks (higher wins)
``mastermind_takes``   Solo: how many puzzles the mastermind takes per turn
``solo_deck``          Solo: the white and black deck sizes, when the expansion changes them
=====================  ==========================================================================

State an expansion needs beyond the shared fields lives in ``GameState.ext[name]``: JSON-native
data (written only when present), read and written through ``Work.ext`` during an action and
never mutated in place (replace it), so states stay immutable.

Each expansion module registers its expansion when it is imported (:func:`register`), as decision
kinds are (:func:`engine.decisions.register`), so this module, and the rules that call the hooks,
never import an expansion: they depend on the seam, the expansions on the rules. ``engine.game``
imports the shipped ones. Hooks run in ``order`` (Ghost Piece before Finesse), whatever order
the modules were imported in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError

if TYPE_CHECKING:
    from ..actions import Action
    from ..cards import PuzzleCard
    from ..events import Event
    from ..pieces import Shape
    from ..rng import Rng
    from ..state import GameState, Options
    from ..work import Work


class Expansion:
    """Hooks an expansion provides. Subclasses override what they need."""

    name = "expansion"
    option = "expansion"
    order = 0
    """Where its hooks run among the registered expansions (lower first)."""
    action_types: tuple[type, ...] = ()
    free_action_types: tuple[type, ...] = ()
    """Of ``action_types``, those that spend no action (the turn flow does not count them)."""
    fills_six_player_black_deck = False
    """Its black cards bring the black pool to the 24 a 6-player Line Clear table deals (the
    rulebook accepts Ghost Piece or Phoenix there)."""
    requires: tuple[str, ...] = ()
    """Options that must be on with this one (Finesse Ambassador needs Finesse): checked, with
    the expansion's own refusal key (``requires_refusal``), when a game is set up."""
    requires_refusal = ""

    def enabled(self, options: Options) -> bool:
        return bool(getattr(options, self.option, False))

    def validate_options(self, options: Options) -> None:
        """Raise an IllegalActionError when the expansion cannot be played with ``options``."""
        refusal = self.requires_refusal
        if not all(getattr(options, flag) for flag in self.requires):
            raise IllegalActionError(refusal)

    def uses_card(self, card: PuzzleCard) -> bool:
        return card.expansion == self.name

    def reserve(self, options: Options) -> dict[Shape, int]:
        return {}

    def setup(self, options: Options, rng: Rng) -> Any:
        """The expansion's starting data for ``GameState.ext[name]`` (None: nothing stored).
        Drawn from the game's rng after the variant has dealt, so other tables deal alike."""
        return None

    def solo_deck(self, options: Options) -> tuple[int, int] | None:
        """Solo's white and black deck sizes when this expansion changes them."""
        return None

    def mastermind_takes(self, options: Options) -> int:
        """How many puzzles the Solo mastermind takes per turn (the base rule: 1)."""
        return 1

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

    def after_action(self, w: Work, seat: int, action: Action, events: Sequence[Event]) -> None:
        """``seat``'s ``action`` (a play action, an answer, a Finishing Touch) was applied and
        produced ``events``; the turn has not moved on yet."""

    def holds_turn(self, w: Work, seat: int) -> bool:
        """True keeps ``seat``'s turn open after its actions are spent (nothing pending): it
        then waits for one of ``free_action_types`` or an explicit ``end turn``."""
        return False

    def end_of_turn(self, w: Work, seat: int) -> None:
        """``seat``'s turn is over (its actions are spent, or it was skipped)."""

    def player_removed(self, w: Work, seat: int) -> None:
        """``seat`` was removed from the game (a table decision): its pieces are back in the
        reserve and its pending decisions dropped. Give back to the table whatever of this
        expansion's shared components the seat holds (Finesse: its credits to the bank), so
        nothing is lost with a seat that will never act again (docs/rules.md §10)."""

    def after_banking(self, w: Work) -> None:
        """An Endless White Deck banked every player's completed white cards and shuffled them
        into a new white deck (:func:`engine.endless.renew_white_deck`): their ids now name deck
        cards."""

    def end_of_round(self, w: Work) -> bool:
        """A round is over; ``w.round`` is still the finished round's number. True ends play
        now: no further round, straight to Finishing Touches (Finesse after its tenth tile)."""
        return False

    def last_round_cap(self, state: GameState | Work) -> int | None:
        """The last round play can reach whatever the base end says (None: no limit) — the
        round whose end makes :meth:`end_of_round` end play. Only read to tell players which
        round is the last once the end is triggered (:func:`engine.game.final_round`)."""
        return None

    def tiebreak(self, state: GameState, seat: int) -> tuple[Any, ...]:
        return ()


_REGISTERED: list[Expansion] = []


def register(expansion: Expansion) -> Expansion:
    """Make ``expansion`` playable (its module calls this on import). A second registration of
    the same name replaces the first, as for decision kinds."""
    _REGISTERED[:] = sorted(
        [e for e in _REGISTERED if e.name != expansion.name] + [expansion], key=lambda e: e.order
    )
    _for_options.cache_clear()
    _BY_INSTANCE.clear()
    return expansion


def registered() -> tuple[Expansion, ...]:
    """Every registered expansion, in hook order."""
    return tuple(_REGISTERED)


@lru_cache(maxsize=64)
def _for_options(options: Options) -> tuple[Expansion, ...]:
    return tuple(e for e in _REGISTERED if e.enabled(options))


_BY_INSTANCE: dict[int, tuple[Options, tuple[Expansion, ...]]] = {}
""":func:`expansions_for` by the identity of the options object (kept alive here, so its id
cannot be reused while it is a key): every state of a game shares one, and hashing and comparing
the options' dozen fields for the cache above cost 5 % of a greedy game."""
_BY_INSTANCE_SIZE = 64


def expansions_for(options: Options) -> tuple[Expansion, ...]:
    """The expansions switched on by these options, in hook order."""
    entry = _BY_INSTANCE.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    found = _for_options(options)
    if len(_BY_INSTANCE) >= _BY_INSTANCE_SIZE:
        _BY_INSTANCE.clear()
    _BY_INSTANCE[id(options)] = (options, found)
    return found


def card_in_play(card: PuzzleCard, options: Options) -> bool:
    """A base card, or a card of an expansion these options switch on."""
    return card.expansion is None or any(e.uses_card(card) for e in expansions_for(options))


def expansion_for_action(options: Options, action: Action) -> Expansion | None:
    for expansion in expansions_for(options):
        if isinstance(action, expansion.action_types):
            return expansion
    return None


def end_of_round(w: Work) -> bool:
    """Every enabled expansion's end of round; True when one of them ends play now."""
    over = False
    for expansion in expansions_for(w.options):
        over = expansion.end_of_round(w) or over
    return over


def free_action_types(options: Options) -> tuple[type, ...]:
    """The action types of the enabled expansions that spend none of the turn's actions (Insert):
    ``()`` at most tables, so an ``isinstance`` check against it costs next to nothing. Only a
    table that has some may hold a turn open past its last action (for one of them or ``end turn``)."""
    return tuple(kind for expansion in expansions_for(options) for kind in expansion.free_action_types)


def is_free_action(options: Options, action: Action) -> bool:
    """True for an expansion action that spends none of the turn's actions (Insert)."""
    return isinstance(action, free_action_types(options))


def after_action(w: Work, seat: int, action: Action, events: Sequence[Event]) -> None:
    for expansion in expansions_for(w.options):
        expansion.after_action(w, seat, action, events)


def holds_turn(w: Work, seat: int) -> bool:
    return any(expansion.holds_turn(w, seat) for expansion in expansions_for(w.options))


def mastermind_takes(options: Options) -> int:
    return max((e.mastermind_takes(options) for e in expansions_for(options)), default=1)


def solo_deck(options: Options) -> tuple[int, int] | None:
    for expansion in expansions_for(options):
        deck = expansion.solo_deck(options)
        if deck is not None:
            return deck
    return None


def end_of_turn(w: Work, seat: int) -> None:
    for expansion in expansions_for(w.options):
        expansion.end_of_turn(w, seat)


def player_removed(w: Work, seat: int) -> None:
    """Every enabled expansion gives back what the removed ``seat`` held."""
    for expansion in expansions_for(w.options):
        expansion.player_removed(w, seat)


def after_banking(w: Work) -> None:
    for expansion in expansions_for(w.options):
        expansion.after_banking(w)


def fills_six_player_black_deck(options: Options) -> bool:
    """True when an expansion on brings the black pool to a 6-player table's 24 cards."""
    return any(e.fills_six_player_black_deck for e in expansions_for(options))


def last_round_cap(state: GameState | Work) -> int | None:
    """The earliest round after which an enabled expansion ends play (None: none does)."""
    caps = [cap for e in expansions_for(state.options) if (cap := e.last_round_cap(state)) is not None]
    return min(caps, default=None)


def tiebreak(state: GameState, seat: int) -> tuple[Any, ...]:
    key: tuple[Any, ...] = ()
    for expansion in expansions_for(state.options):
        key += expansion.tiebreak(state, seat)
    return key


__all__ = [
    "Expansion", "after_action", "after_banking", "card_in_play", "end_of_round", "end_of_turn",
    "expansion_for_action",
    "expansions_for", "fills_six_player_black_deck", "holds_turn", "is_free_action", "last_round_cap",
    "mastermind_takes", "player_removed",
    "register", "registered",
    "solo_deck", "tiebreak",
]
