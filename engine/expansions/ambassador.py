"""The Ambassador Pack: three cards that, once completed, can be flipped for an extra Master.

* 1 white and 2 black Ambassador cards of our own design (``reward: "ambassador"`` in the
  catalogue) join their decks (the black ones the black pool, before the deck is counted out).
  An Ambassador card gives no reward piece.
* A completed Ambassador card lies face up beside its owner's score pile. On any *later* turn
  (not the turn it was completed) its owner may flip it face down for one Ambassador action
  (:class:`~engine.actions.AmbassadorAction`): exactly a Master — at most one piece on each of
  your puzzles, every piece from the supply as the action starts, at least one piece — but not
  the turn's Master, and any number per turn, one flipped card each. It is one of the turn's
  actions (or an inserted one, with Finesse), never a Finishing Touch.
* The card's points are kept whether or not it is flipped; it counts as a completed puzzle for
  the tie-break (it is one). A white one banked by the Endless White Deck keeps its unused
  action; whoever completes it again from the new deck gets a fresh one.

State (``GameState.ext["ambassador"]``): per seat, ``ready`` — the unflipped cards that may be
flipped now, oldest first — and ``fresh`` — those completed this turn, ready when the turn ends.
Each entry is a token: the card's id while the card lies face up in its owner's score pile, and
``banked:<id>`` once an Endless White Deck has banked the card and shuffled it back into the white
deck (its unused action stays, but the id now names a card in the deck, which may be drawn,
completed and flipped again by anyone): so a token never names a card anywhere but in its owner's
pile. :func:`unflipped` and :func:`ready` give the cards (for showing them), :func:`face_up` only
those lying face up. The rulings are in docs/rules.md ("Ambassador Pack").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ..actions import Action, AmbassadorAction
from ..cards import Ambassador
from ..decisions import waiting_for
from ..errors import IllegalActionError, WrongPhaseError
from ..events import AmbassadorFlipped, Event, PuzzleCompleted
from ..placing import MasterOptions, puzzle_options
from ..rng import Rng
from ..rules import check_master_placements, complete_puzzles, place_at_once
from ..state import GameState, Options, Phase
from ..work import Work
from .base import Expansion, register

NAME = "ambassador"


def _data(state: GameState | Work) -> dict[str, Any] | None:
    data = state.ext.get(NAME)
    return data if isinstance(data, dict) else None


BANKED = "banked:"
"""The prefix of a banked card's token (see the module): no card id starts with it."""


def card_of(token: str) -> str:
    """The card an entry of ``ready``/``fresh`` stands for, banked or not."""
    return token.removeprefix(BANKED)


def unflipped(state: GameState | Work, seat: int) -> tuple[str, ...]:
    """The cards of ``seat``'s unflipped Ambassador actions (ready ones first, then those completed
    this turn), banked ones included: public whatever ``known_scores`` says."""
    data = _data(state)
    if data is None:
        return ()
    return tuple(card_of(token) for token in (*data["ready"][seat], *data["fresh"][seat]))


def standing(state: GameState | Work, seat: int) -> tuple[tuple[str, bool, bool], ...]:
    """``seat``'s unflipped Ambassador actions as (card, ready now, banked), ready ones first, as
    the public table shows them: a banked one's card is back in the white deck, so only that an
    action stands is shown, not the card."""
    data = _data(state)
    if data is None:
        return ()
    return tuple((card_of(token), ready_now, token.startswith(BANKED))
                 for ready_now, tokens in ((True, data["ready"][seat]), (False, data["fresh"][seat]))
                 for token in tokens)


def face_up(state: GameState | Work, seat: int) -> tuple[str, ...]:
    """``seat``'s unflipped Ambassador cards lying face up beside its score pile (not banked):
    each is in that seat's pile, and nowhere else."""
    data = _data(state)
    if data is None:
        return ()
    return tuple(t for t in (*data["ready"][seat], *data["fresh"][seat]) if not t.startswith(BANKED))


def ready(state: GameState | Work, seat: int) -> tuple[str, ...]:
    """The cards of the Ambassador actions ``seat`` may take now (completed on an earlier turn),
    oldest first."""
    data = _data(state)
    return () if data is None else tuple(card_of(token) for token in data["ready"][seat])


def bank_tokens(tokens: list[str], pile: list[str]) -> list[str]:
    """``tokens`` (one seat's, oldest first) with every face-up one whose card is not in ``pile``
    (the ids of the seat's completed cards, with repeats) made banked; when a card is in the pile
    fewer times than it has face-up tokens, the newest ones are the face-up ones."""
    left = Counter(pile)
    kept: list[str] = []
    for token in reversed(tokens):
        if not token.startswith(BANKED) and left[token] > 0:
            left[token] -= 1
            kept.append(token)
        else:
            kept.append(token if token.startswith(BANKED) else BANKED + token)
    return kept[::-1]


def ambassador_options(state: GameState) -> MasterOptions | None:
    """The Ambassador actions open to the focused seat now, factored like Master's; None when it
    has none (no ready card, wrong phase, a decision waiting, a held turn, nothing to place)."""
    if (
        state.phase is not Phase.PLAY or not ready(state, state.current)
        or waiting_for(state) is not None or state.current in state.held
    ):
        return None
    return puzzle_options(state.cards, state.players[state.current])


def _store(w: Work, ready_cards: list[list[str]], fresh: list[list[str]]) -> None:
    w.ext[NAME] = {"ready": ready_cards, "fresh": fresh}


def _copy(w: Work) -> tuple[list[list[str]], list[list[str]]]:
    data = _data(w)
    assert data is not None
    return [list(r) for r in data["ready"]], [list(f) for f in data["fresh"]]


class AmbassadorExpansion(Expansion):
    name = NAME
    option = "ambassador"
    order = 30
    action_types = (AmbassadorAction,)

    def setup(self, options: Options, rng: Rng) -> dict[str, Any]:
        players = options.players
        return {"ready": [[] for _ in range(players)], "fresh": [[] for _ in range(players)]}

    def more_actions(self, state: GameState) -> Iterator[Action]:
        options = ambassador_options(state)
        if options is not None:
            for master in options.iter_actions():
                yield AmbassadorAction(master.placements)

    def apply_action(self, w: Work, action: Action) -> None:
        assert isinstance(action, AmbassadorAction)
        if w.phase is not Phase.PLAY:
            raise WrongPhaseError("ambassador.finishing")
        seat = w.current
        if not ready(w, seat):
            raise IllegalActionError("ambassador.none_ready")
        check_master_placements(w, action.placements, "ambassador")
        ready_cards, fresh = _copy(w)
        token = ready_cards[seat].pop(0)
        _store(w, ready_cards, fresh)
        w.emit(AmbassadorFlipped(seat, card_of(token)))
        place_at_once(w, action.placements)
        complete_puzzles(w, seat, finishing=False)

    def after_action(self, w: Work, seat: int, action: Action, events: Sequence[Event]) -> None:
        done = [
            e for e in events
            if isinstance(e, PuzzleCompleted) and not e.finishing
            and isinstance(w.card(e.card).reward, Ambassador)
        ]
        if not done:
            return
        ready_cards, fresh = _copy(w)
        for event in done:
            fresh[event.seat].append(event.card)
        _store(w, ready_cards, fresh)

    def after_banking(self, w: Work) -> None:
        """The banked cards' tokens become banked ones: the actions stay, the ids now name deck
        cards."""
        ready_cards, fresh = _copy(w)
        for seat, player in enumerate(w.players):
            tokens = bank_tokens([*ready_cards[seat], *fresh[seat]], [d.card for d in player.completed])
            ready_cards[seat], fresh[seat] = tokens[:len(ready_cards[seat])], tokens[len(ready_cards[seat]):]
        _store(w, ready_cards, fresh)

    def end_of_turn(self, w: Work, seat: int) -> None:
        data = _data(w)
        if data is None or not data["fresh"][seat]:
            return
        ready_cards, fresh = _copy(w)
        ready_cards[seat] += fresh[seat]
        fresh[seat] = []
        _store(w, ready_cards, fresh)


register(AmbassadorExpansion())
