"""What a player can see, and re-dealing what they cannot: the strong policy's only model of the
hidden deck order.

A player sees every card on the table outside the decks, every card in front of every player and
every card in a score pile. What they do not see is which of the remaining cards are in each deck,
and in what order. :func:`redeal` builds a state equal to the given one in everything visible,
with every deck refilled from the cards nobody can see, uniformly at random from an :class:`Rng`.

The function reads the table generically — every field of the table dataclass whose name ends in
``deck`` is a hidden deck, every other field is visible — so a new variant's table (Line Clear's
four rows, a Finesse tile row) needs no change here. Each deck keeps the colour it has at each
position (public: the base game's decks are one colour each, Solo's is white on top of black), and
a card can only be dealt to a position of its own colour.

The pool of unseen cards is the catalogue minus every card visible anywhere, so it does not depend
on the real deck order, nor on which cards the real decks happen to hold: two states that differ
only in hidden deck contents give the same re-deals for the same generator.
"""

from __future__ import annotations

from dataclasses import fields, replace

from ..cards import Colour
from ..rng import Rng
from ..state import GameState, Table


def _deck_fields(table: Table) -> list[str]:
    return [f.name for f in fields(table) if f.name.endswith("deck")]


def _collect(value: object, cards: dict[str, object], into: set[str]) -> None:
    if isinstance(value, str):
        if value in cards:
            into.add(value)
    elif isinstance(value, tuple):
        for item in value:
            _collect(item, cards, into)


def visible_cards(state: GameState) -> frozenset[str]:
    """Every card id anyone at the table can see: outside the decks, on the table, in front of a
    player (open or completed)."""
    seen: set[str] = set()
    table = state.table
    hidden = set(_deck_fields(table))
    for f in fields(table):
        if f.name not in hidden:
            _collect(getattr(table, f.name), state.cards, seen)
    for player in state.players:
        seen.update(p.card for p in player.puzzles)
        seen.update(d.card for d in player.completed)
    return frozenset(seen)


def redeal(state: GameState, rng: Rng) -> GameState:
    """``state`` with every deck re-dealt from the cards nobody can see (see the module)."""
    table = state.table
    names = _deck_fields(table)
    if not names:
        return state
    seen = visible_cards(state)
    pools: dict[Colour, list[str]] = {}
    for card_id in sorted(state.cards):
        if card_id not in seen:
            pools.setdefault(state.cards[card_id].colour, []).append(card_id)
    for pool in pools.values():
        rng.shuffle(pool)
    changes: dict[str, tuple[str, ...]] = {}
    for name in names:
        deck = getattr(table, name)
        dealt = []
        for card_id in deck:
            pool = pools.get(state.cards[card_id].colour)
            # The pool always holds at least as many cards of a colour as the decks do (every
            # deck card is unseen); fall back to the card itself only if a table breaks that.
            dealt.append(pool.pop() if pool else card_id)
        changes[name] = tuple(dealt)
    return state.evolve(table=replace(table, **changes))

