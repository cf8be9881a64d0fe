"""Endless White Deck (the rulebook's variant, 2+ players): a white deck that never runs dry.

Whenever the white deck runs out, every player banks the points of their completed white cards
(kept on the player as ``banked_points``/``banked_cards`` and counted by the one scoring function,
:func:`engine.rules.score_line`), and those cards are shuffled — from the game's own seeded
generator — into a new white deck. The rows variants (base game, Line Clear) call
:func:`renew_white_deck` from their shared deck-emptied path.
"""

from __future__ import annotations

from dataclasses import replace

from .cards import Colour
from .events import WhiteDeckRenewed
from .expansions.base import after_banking
from .rng import Rng
from .state import SoloTable
from .work import Work


def renew_white_deck(w: Work) -> bool:
    """If the table plays Endless White Deck and its white deck is empty, bank every player's
    completed white cards and deal them, shuffled, as the new white deck. True when it did.

    With no completed white card anywhere, nothing happens: the deck stays empty (rulings in
    docs/rules.md)."""
    if not w.options.endless_white or getattr(w.table, "white_deck", None) != ():
        return False
    renewed: list[str] = []
    banked: list[tuple[int, int]] = []
    for seat, player in enumerate(w.players):
        whites = [d for d in player.completed if w.card(d.card).colour is Colour.WHITE]
        if not whites:
            continue
        points = sum(w.card(d.card).points for d in whites)
        w.set_player(
            seat,
            completed=tuple(d for d in player.completed if w.card(d.card).colour is not Colour.WHITE),
            banked_points=player.banked_points + points,
            banked_cards=player.banked_cards + len(whites),
        )
        renewed.extend(d.card for d in whites)
        banked.append((seat, points))
    if not renewed:
        return False
    rng = Rng(w.rng_state)
    rng.shuffle(renewed)
    w.rng_state = rng.state
    table = w.table
    assert not isinstance(table, SoloTable)  # Endless White is refused in Solo (validate_options)
    w.table = replace(table, white_deck=tuple(renewed))
    w.emit(WhiteDeckRenewed(len(renewed), tuple(banked)))
    after_banking(w)
    return True
