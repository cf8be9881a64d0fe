"""What a player can see, and re-dealing what they cannot: the strong policy's only model of the
hidden deck order and of score piles kept face down.

A player sees every card on the table outside the decks, every card in front of every player and
every card in a score pile that :func:`engine.visibility.hidden_scores` does not hide from them.
What they do not see is which of the remaining cards are in each deck, and in what order; and,
with the table option ``known_scores`` off, which cards (so how many points) are in the other
players' score piles — only how many there are. :func:`redeal` builds a state equal to the given
one in everything the viewer sees, with every deck refilled and every hidden score pile refilled
(card for card, so its size stays) from the cards the viewer cannot see, uniformly at random from
an :class:`Rng`. Points an Endless White Deck banked for a hidden seat are estimated as that many
white cards of average value.

The function reads the table generically — every field of the table dataclass whose name ends in
``deck`` is a hidden deck, every other field is visible — so a new variant's table (Line Clear's
four rows, a Finesse tile row) needs no change here. Each deck keeps the colour it has at each
position (public: the base game's decks are one colour each, Solo's is white on top of black), and
a card can only be dealt to a position of its own colour.

The pool of unseen cards is the cards this game's setup could have put in its decks (the base cards
and those of the expansions its options switch on, :func:`~engine.expansions.base.card_in_play` —
a state keeps the whole catalogue, Ghost, Phoenix and Ambassador cards included, whatever the
table plays) minus every card visible anywhere, so it does not depend
on the real deck order, nor on which cards the real decks (or hidden score piles) happen to hold:
two states that differ only in hidden deck contents, or in the contents of score piles hidden from
the viewer, give the same re-deals for the same generator. With score piles face up (the default)
a re-deal draws exactly what it drew before hidden piles were modelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from ..cards import Colour, PuzzleCard
from ..expansions.base import card_in_play
from ..rng import Rng
from ..state import GameState, Options, PlayerState, Table
from ..visibility import face_up_cards, hidden_scores


def _deck_fields(table: Table) -> list[str]:
    return [f.name for f in fields(table) if f.name.endswith("deck")]


def _collect(value: object, cards: Mapping[str, object], into: set[str]) -> None:
    if isinstance(value, str):
        if value in cards:
            into.add(value)
    elif isinstance(value, tuple):
        for item in value:
            _collect(item, cards, into)


def visible_cards(state: GameState, viewer: int | None = None) -> frozenset[str]:
    """Every card id ``viewer`` (a seat; None for a spectator, as in
    :func:`~engine.visibility.hidden_scores`) can see: outside the decks, on the table, in front of
    a player, and in every score pile not hidden from them."""
    seen: set[str] = set()
    table = state.table
    decks = set(_deck_fields(table))
    for f in fields(table):
        if f.name not in decks:
            _collect(getattr(table, f.name), state.cards, seen)
    piles_hidden = hidden_scores(state, viewer)
    for seat, player in enumerate(state.players):
        seen.update(p.card for p in player.puzzles)
        if seat not in piles_hidden:
            seen.update(d.card for d in player.completed)
    seen.update(face_up_cards(state))  # unflipped Ambassador cards lie face up
    return frozenset(seen)


_DEALT_FROM: dict[int, tuple[Mapping[str, PuzzleCard], Options, tuple[str, ...]]] = {}
""":func:`dealt_from` by the identity of a game's cards (every state of a game shares them; the
entry keeps them alive, so the id cannot be reused while it is a key)."""
_DEALT_FROM_SIZE = 32


def dealt_from(state: GameState) -> tuple[str, ...]:
    """The ids of the cards ``state``'s setup dealt its decks from, sorted: the base cards and those
    of the expansions its options switch on (the catalogue's other cards can never be in play)."""
    cards, options = state.cards, state.options
    entry = _DEALT_FROM.get(id(cards))
    if entry is not None and entry[0] is cards and entry[1] == options:
        return entry[2]
    ids = tuple(sorted(card_id for card_id, card in cards.items() if card_in_play(card, options)))
    if len(_DEALT_FROM) >= _DEALT_FROM_SIZE:
        _DEALT_FROM.clear()
    _DEALT_FROM[id(cards)] = (cards, options, ids)
    return ids


def redeal(state: GameState, rng: Rng, viewer: int | None = None) -> GameState:
    """``state`` with every deck, and every score pile hidden from ``viewer``, re-dealt from the
    cards ``viewer`` cannot see (see the module)."""
    table = state.table
    names = _deck_fields(table)
    piles_hidden = sorted(hidden_scores(state, viewer))
    if not names and not piles_hidden:
        return state
    seen = visible_cards(state, viewer)
    pools: dict[Colour, list[str]] = {}
    for card_id in dealt_from(state):
        if card_id not in seen:
            pools.setdefault(state.cards[card_id].colour, []).append(card_id)
    for pool in pools.values():
        rng.shuffle(pool)
    changes: dict[str, Any] = {}  # deck fields by name: the table's kind decides which
    for name in names:
        deck = getattr(table, name)
        dealt = []
        for card_id in deck:
            unseen = pools.get(state.cards[card_id].colour)
            # The pool always holds at least as many cards of a colour as the decks do (every
            # deck card is unseen); fall back to the card itself only if a table breaks that.
            dealt.append(unseen.pop() if unseen else card_id)
        changes[name] = tuple(dealt)
    if not piles_hidden:
        return state.evolve(table=replace(table, **changes))
    # Deck positions have a public colour; a hidden score pile's cards may be of either colour,
    # so they come from what the decks left, shuffled together (uniform over consistent deals).
    rest = sorted(card_id for pool in pools.values() for card_id in pool)
    rng.shuffle(rest)
    players = list(state.players)
    for seat in piles_hidden:
        players[seat] = _refill_pile(state, players[seat], rest, seen)
    return state.evolve(table=replace(table, **changes), players=tuple(players))


def _refill_pile(state: GameState, player: PlayerState, rest: list[str], seen: frozenset[str]) -> PlayerState:
    """``player`` with each completed card swapped for one drawn from ``rest`` (the unseen cards
    the decks left) — but for those lying face up (``seen``: unflipped Ambassador cards) — and
    banked Endless-White points replaced by their public estimate."""
    completed = tuple(
        replace(done, card=rest.pop()) if rest and done.card not in seen else done
        for done in player.completed
    )
    banked = player.banked_points
    if player.banked_cards:
        whites = [state.cards[c].points for c in dealt_from(state) if state.cards[c].colour is Colour.WHITE]
        banked = round(player.banked_cards * sum(whites) / max(1, len(whites)))
    return replace(player, completed=completed, banked_points=banked)

