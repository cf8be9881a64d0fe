"""What a viewer may see of the score piles (table option ``known_scores``).

The one place that decides it: renders and bot texts ask :func:`hidden_scores` and show, for
the seats it names, the number of completed cards but neither the cards nor any points.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .events import Event, PuzzleCompleted, seat_name
from .expansions.ambassador import face_up
from .state import GameState, Phase

NOBODY = -1
"""A viewer who holds no seat (a spectator): sees what a public post shows."""


def hidden_scores(state: GameState, viewer: int | None) -> frozenset[int]:
    """Seats whose completed cards and points ``viewer`` (a seat; None or :data:`NOBODY` for
    everyone: a public post) may not see. Empty when score piles are face up (``known_scores``,
    the default) and once the game is over; otherwise every seat but the viewer's own."""
    if state.options.known_scores or state.phase is Phase.OVER:
        return frozenset()
    return frozenset(seat for seat in range(len(state.players)) if seat != viewer)


def face_up_cards(state: GameState) -> frozenset[str]:
    """Completed cards everyone sees whatever ``known_scores`` says: the unflipped Ambassador
    cards (Ambassador Pack), which lie face up beside their owners' piles until flipped — not
    those an Endless White Deck banked, whose ids are back in the white deck. Each lies in its
    owner's pile, so no id here can name another copy of the card."""
    return frozenset(card for seat in range(len(state.players)) for card in face_up(state, seat))


def describe_for(
    event: Event, names: Sequence[str], hidden: frozenset[int], face_up: Collection[str] = ()
) -> str:
    """``event`` in words for a viewer from whom ``hidden`` seats' score piles are face down: a
    completion by such a seat names neither the card nor its points — unless the card lies face
    up (``face_up``: :func:`face_up_cards`, an unflipped Ambassador card)."""
    if isinstance(event, PuzzleCompleted) and event.seat in hidden and event.card not in face_up:
        return f"{seat_name(names, event.seat)} completed a puzzle (score piles are hidden until the end)."
    return event.describe(names)
