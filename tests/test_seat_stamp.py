"""A Line Clear seat's stamp (bot/core/play/seat_view.py) covers exactly what that seat may do.

While two marker holders play at once, an offer made to one of them (a panel, a Confirm, a Master
draft) carries that seat's stamp, and a commit is refused "out of date" when the stamp changed. The
rule, checked over random Line Clear + Ambassador games (Hypothesis picks the table, the seed, a
scarce reserve and how randomly the holders play): an action by the other holder leaves the stamp
unchanged when it leaves what this seat may do unchanged — its legal actions, what each means (the
card a take takes, the cards a recycle moves), its Master and Ambassador choices — and changes it
whenever it changes that.

Every seat starts with two completed Ambassador cards ready to flip (test cards, added to the
catalogue), so holders flip them often while the other one plays; the reserve is cut down so that
the other holder's takes and upgrades empty it shape by shape (which does change what one may do).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import card, progress_action, with_cards

from bot.core.play.seat_view import stamp
from engine import (
    Action,
    GameState,
    Options,
    Recycle,
    TakePuzzle,
    apply,
    legal_actions,
    master_options,
    new_game,
)
from engine.actions import AmbassadorAction
from engine.cards import Colour
from engine.expansions.ambassador import ambassador_options
from engine.rng import Rng
from engine.state import DonePuzzle, LineClearTable

TABLES: list[dict[str, Any]] = [
    {"players": 5},
    {"players": 5, "ghost": False},
    {"players": 6},
    {"players": 6, "ghost": False, "phoenix": True},
    {"players": 5, "endless_white": True},
    {"players": 6, "endless_white": True, "known_scores": False},
    {"players": 5, "finesse": True},
    {"players": 6, "finesse": True, "finesse_ambassador": True, "endless_white": True},
]
"""Line Clear tables with the Ambassador Pack (each with Ghost Piece unless said otherwise)."""

READY_PER_SEAT = 2


def ambassador_game(table: dict[str, Any], seed: int, reserve_cap: int | None) -> GameState:
    """A fresh Line Clear + Ambassador game in which every seat has two Ambassador cards ready to
    flip, and no shape has more than ``reserve_cap`` pieces in the reserve."""
    options = dict(table)
    players = options.pop("players")
    state = new_game(Options.for_players(players, ambassador=True, **options), seed)
    ready: list[list[str]] = []
    extra = []
    players_now = list(state.players)
    for seat in range(players):
        ids = [f"TA{seat}{n}" for n in range(READY_PER_SEAT)]
        extra += [card(i, "A1 B1", points=2 + n, reward="ambassador") for n, i in enumerate(ids)]
        players_now[seat] = replace(players_now[seat], completed=tuple(DonePuzzle(i) for i in ids))
        ready.append(ids)
    state = with_cards(state, extra).evolve(
        players=tuple(players_now),
        ext={**state.ext, "ambassador": {"ready": ready, "fresh": [[] for _ in range(players)]}})
    if reserve_cap is not None:
        state = state.evolve(reserve=tuple(min(n, reserve_cap) for n in state.reserve))
    return state


def choose(state: GameState, seat: int, rng: Rng, randomness: int) -> Action:
    """Progress-biased play for ``seat`` with, ``randomness`` in 10 times, a uniformly random
    legal action, an Ambassador flip or a Master."""
    focused = state.focused(seat)
    flips = ambassador_options(focused)
    if flips is not None and rng.below(4) == 0:
        return AmbassadorAction(flips.sample(rng).placements)
    if randomness and rng.below(10) < randomness:
        actions = legal_actions(state, seat)
        options = master_options(state, seat)
        if options is not None and (not actions or rng.below(4) == 0):
            return options.sample(rng)
        return actions[rng.below(len(actions))]
    return progress_action(focused, rng)


def may_do(state: GameState, seat: int) -> object:
    """Everything ``seat`` may do now, each action with what it means: None when it may not act."""
    if seat not in state.acting_seats:
        return None
    table = state.table
    turn = state.turn_of(seat)
    assert isinstance(table, LineClearTable) and turn is not None

    def meaning(action: Action) -> tuple[object, ...]:
        if isinstance(action, TakePuzzle) and action.colour is not None:
            return str(action), table.row(turn.side, action.colour)[action.slot - 1]
        if isinstance(action, Recycle):
            return str(action), table.row(turn.side, action.colour)
        return (str(action),)

    focused = state.focused(seat)
    player = state.players[seat]
    free = tuple((p.card, state.cards[p.card].recess & ~p.filled) for p in player.puzzles)
    return (frozenset(meaning(a) for a in legal_actions(state, seat)), master_options(state, seat),
            ambassador_options(focused), free, player.supply)


def other_holder_moves(table: dict[str, Any], seed: int, reserve_cap: int | None, randomness: int,
                       steps: int) -> Iterator[tuple[str, bool, bool]]:
    """Play a game, the acting holder drawn at random each action; for each action, and each other
    seat that could act before it: (the action's kind, whether what that seat may do changed,
    whether its stamp changed)."""
    state = ambassador_game(table, seed, reserve_cap)
    rng = Rng(seed ^ 0x5EA7)
    for _ in range(steps):
        if not state.concurrent:
            return
        seats = state.acting_seats
        actor = seats[rng.below(len(seats))]
        action = choose(state, actor, rng, randomness)
        watchers = [(s, may_do(state, s), stamp(state, 0, s)) for s in seats if s != actor]
        state = apply(state, action, player=actor).state
        for seat, could, stamped in watchers:
            yield action.kind, may_do(state, seat) != could, stamp(state, 0, seat) != stamped


@settings(max_examples=30, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1),
       reserve_cap=st.sampled_from([None, 1, 2, 3]), randomness=st.integers(0, 6))
def test_the_other_holders_actions_change_a_stamp_exactly_when_they_change_what_the_seat_may_do(
    table: dict[str, Any], seed: int, reserve_cap: int | None, randomness: int,
) -> None:
    for kind, changed, restamped in other_holder_moves(table, seed, reserve_cap, randomness, steps=160):
        assert restamped == changed, (kind, "what the seat may do changed" if changed else
                                      "nothing the seat may do changed")


def test_both_sides_of_the_rule_happen_over_fixed_games() -> None:
    """The property's two sides are both exercised: over a few fixed games the other holder flips
    Ambassador cards (the reported case) without touching the watcher's stamp, and some of their
    actions do change what the watcher may do (and its stamp)."""
    seen: Counter[tuple[str, bool, bool]] = Counter()
    for seed, table in enumerate(TABLES):
        for kind, changed, restamped in other_holder_moves(table, seed, 2, 3, steps=160):
            assert restamped == changed, (seed, kind, changed)
            seen[kind, changed, restamped] += 1
    assert seen["ambassador", False, False] >= 10, seen
    assert sum(n for (_, changed, _), n in seen.items() if changed) >= 5, seen
    assert sum(n for (_, changed, _), n in seen.items() if not changed) >= 500, seen


def test_a_refill_that_empties_the_white_deck_changes_only_the_white_holders_stamp() -> None:
    """The Black holder's take empties the white deck (its refill was the last card): the White
    holder may no longer draw or recycle white, so its stamp changes; the deck's emptiness means
    nothing to the Black holder, who may do neither."""
    state = ambassador_game({"players": 5}, 3, None)
    table = state.table
    assert isinstance(table, LineClearTable)
    state = state.evolve(table=replace(table, white_deck=table.white_deck[:1]))
    white, black = (t.seat for t in state.turns)
    before = {s: stamp(state, 0, s) for s in (white, black)}
    assert any(str(a) == "draw white" for a in legal_actions(state, white))
    after = apply(state, TakePuzzle(Colour.WHITE, 1), player=black).state
    assert not after.table.white_deck  # type: ignore[union-attr]
    assert not any(str(a) == "draw white" for a in legal_actions(after, white))
    assert stamp(after, 0, white) != before[white]
    assert stamp(after, 0, black) != before[black]  # its own action: its mat and turn changed


def test_a_stamp_digests_no_deck_order() -> None:
    """A stamp travels in custom ids a client can read: a seat without a turn of its own (whose
    rows part is the whole market) gets the same stamp whatever order the decks hold."""
    state = ambassador_game({"players": 5}, 3, None)
    table = state.table
    assert isinstance(table, LineClearTable)
    outsider = next(seat for seat in range(len(state.players)) if state.turn_of(seat) is None)
    shuffled = state.evolve(table=replace(table, white_deck=table.white_deck[::-1],
                                          black_deck=table.black_deck[::-1]))
    assert stamp(shuffled, 0, outsider) == stamp(state, 0, outsider)
    shorter = state.evolve(table=replace(table, white_deck=table.white_deck[1:]))
    assert stamp(shorter, 0, outsider) != stamp(state, 0, outsider)  # a deck's size is seen
