"""A plan's draft on the board (bot/web/planning.py: ``draft_view``) holds nothing its seat may not
see, over random games of every mode with up to three random planned steps: the same draft comes
out whatever is hidden from the seat (the decks' order, face-down Finesse tiles, hidden score
piles), and no card it shows lies outside what the seat sees of the real table."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from test_web_view_hidden import (
    SIGNER,
    TABLES,
    _game,
    _new,
    _other_face_down_tiles,
    _other_hidden_piles,
    _play,
    _shuffled_decks,
)

from bot.core.play.flow import ActingContext
from bot.core.play.plans import lay_out, plannable, planning_states
from bot.web.planning import draft_view
from engine import Action, GameState, apply, legal_actions
from engine.policies.hidden import visible_cards
from engine.policies.plugins import seen_position
from engine.rng import Rng


def _steps(state: GameState, seat: int, rng: Rng) -> list[Action]:
    """Up to three actions the seat could plan, each legal after the ones before."""
    table = planning_states(seen_position(state, seat), seat)[0]
    actions: list[Action] = []
    for _ in range(rng.below(4)):
        if seat not in table.acting_seats:
            break
        legal = legal_actions(table.focused(seat))
        if not legal:
            break
        action = legal[rng.below(len(legal))]
        actions.append(action)
        table = apply(table, action, player=seat).state
    return actions


def _draft(state: GameState, seat: int, actions: list[Action]) -> dict[str, Any]:
    ctx = ActingContext(_game(state), seat, 100 + seat, None)
    view = draft_view(ctx, lay_out(state, seat, actions), blind=SIGNER.blind)
    return json.loads(json.dumps(view, default=str))  # type: ignore[no-any-return]


def _card_ids(value: Any, cards: frozenset[str]) -> set[str]:
    if isinstance(value, dict):
        return set().union(set(), *(_card_ids(v, cards) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(_card_ids(v, cards) for v in value))
    return {value} if isinstance(value, str) and value in cards else set()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TABLES, st.integers(0, 2**32 - 1), st.integers(0, 120))
@example((2, False, True, False, False, False, False), 153398, 56)  # a plan that ends the game
def test_a_draft_is_the_same_whatever_is_hidden_from_its_seat(table: tuple[Any, ...], seed: int,
                                                              steps: int) -> None:
    rng = Rng(seed)
    state = _play(_new(table, seed), rng, steps)
    planners = [seat for seat in range(len(state.players)) if plannable(state, seat)]
    assume(planners)
    seat = planners[rng.below(len(planners))]
    actions = _steps(state, seat, rng)
    draft = _draft(state, seat, actions)
    others = (_shuffled_decks(state, rng), _other_face_down_tiles(state), _other_hidden_piles(state, seat))
    for other in others:
        assert _draft(other, seat, actions) == draft
    cards = {key: part for key, part in draft.items() if key != "finesse"}  # its tiles' ids look like cards'
    assert _card_ids(cards, frozenset(state.cards)) <= visible_cards(state, seat)
    assert all(isinstance(n, int) for n in draft["table"]["decks"].values())
