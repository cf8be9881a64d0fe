"""The strong policy: legal in every variant, deterministic for a seed, within its budget, and blind
to the hidden deck order."""

from __future__ import annotations

import itertools
import os
from dataclasses import fields, replace

import pytest

from engine import Difficulty, Options, apply, new_game, serialisation
from engine.actions import Pass
from engine.errors import IllegalActionError
from engine.game import winners
from engine.policies import POLICIES, GreedyPolicy, StrongPolicy, policy_by_name
from engine.policies.hidden import redeal, visible_cards
from engine.rng import Rng
from engine.simulate import default_cards, play_game
from engine.state import GameState, Phase
from engine.sweep import describe, sweep
from engine.sweep import tables as sweep_tables
from engine.variants import VARIANTS

SMALL = {"rollouts": 4, "plans": 3, "beam": 3, "work": 0}
"""A tiny budget: the same code paths as the real one, at a fraction of the cost."""

TABLES = [
    Options(players=2),
    Options(players=2, ghost=True),
    Options(players=3, finesse=True),
    Options(players=5, variant="lineclear", ghost=True),
    Options(players=3, reserve=15),
    Options(players=4, unfinished_penalty=False),
    *(Options(players=1, variant="solo", difficulty=d) for d in Difficulty),
]

TINY = {"rollouts": 2, "plans": 2, "beam": 2, "work": 0}
"""Smaller still, for whole games: legality does not depend on the budget."""

LEGALITY_GAMES = int(os.environ.get("PROJECTL_STRONG_GAMES", "1"))
"""Games per table in the legality test; ``PROJECTL_STRONG_GAMES=400`` for the long run."""


def _states(options: Options, seed: int, every: int = 3) -> list[GameState]:
    """Every ``every``-th state of a greedy game that is not over."""
    state = new_game(options, seed, default_cards())
    players = [GreedyPolicy(seed + s) for s in range(options.players)]
    found = []
    step = 0
    while not state.is_over:
        if step % every == 0:
            found.append(state)
        state = apply(state, players[state.current].choose(state)).state
        step += 1
    return found


def _shuffle_decks(state: GameState, rng: Rng) -> GameState:
    """The same state with each deck's hidden cards in another order and, where unseen cards are
    left over, partly swapped for them: nothing a player can see changes (each position keeps its
    colour, which is public: Solo's deck is white on top of black)."""
    table = state.table
    changes = {}
    unseen = sorted(set(state.cards) - visible_cards(state) - {
        c for f in fields(table) if f.name.endswith("deck") for c in getattr(table, f.name)
    })
    for f in fields(table):
        if f.name.endswith("deck"):
            deck = list(getattr(table, f.name))
            for colour in sorted({state.cards[c].colour for c in deck}, key=lambda c: c.value):
                where = [i for i, c in enumerate(deck) if state.cards[c].colour is colour]
                cards = [deck[i] for i in where]
                rng.shuffle(cards)
                for i, card in zip(where, cards, strict=True):
                    deck[i] = card
            for i, card in enumerate(deck):
                spare = [u for u in unseen if state.cards[u].colour is state.cards[card].colour]
                if spare and rng.below(2):
                    unseen.remove(spare[0])
                    unseen.append(card)
                    deck[i] = spare[0]
            changes[f.name] = tuple(deck)
    return state.evolve(table=replace(table, **changes))


def test_registered_by_name() -> None:
    assert POLICIES["strong"] is StrongPolicy
    assert isinstance(policy_by_name("Strong", 3), StrongPolicy)


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o.variant}-{o.players}p-{o.difficulty.value}")
def test_whole_games_are_legal_in_every_variant(options: Options) -> None:
    """Strong in the first two seats (greedy in the others): play_game's apply raises on any
    illegal action, and the games finish."""
    assert {o.variant for o in TABLES} == set(VARIANTS), "a variant is missing from TABLES"
    for seed in range(LEGALITY_GAMES):
        seats = [
            StrongPolicy(seed * 8 + s, **TINY) if s < 2 else GreedyPolicy(s) for s in range(options.players)
        ]
        record = play_game(options, 500 + seed, seats, keep_log=False)
        assert record.ended
        assert record.final_state is not None and winners(record.final_state) == record.winners


def test_same_seed_same_choices() -> None:
    states = _states(Options(players=2), 4, every=7)
    for state in states:
        first = StrongPolicy(9, **SMALL).analyse(state)
        again = StrongPolicy(9, **SMALL).analyse(state)
        assert first.plans == again.plans
    one = play_game(Options(players=2), 3, [StrongPolicy(1, **TINY), GreedyPolicy(2)])
    two = play_game(Options(players=2), 3, [StrongPolicy(1, **TINY), GreedyPolicy(2)])
    assert one.log == two.log


@pytest.mark.parametrize("options", [Options(players=2), Options(players=1, variant="solo")],
                         ids=["base", "solo"])
def test_hidden_deck_order_changes_nothing(options: Options) -> None:
    """Two states that differ only in what the decks hide get the same analysis, value for value."""
    rng = Rng(77)
    checked = 0
    for state in _states(options, 12, every=5)[:8]:
        other = _shuffle_decks(state, rng)
        if other == state:
            continue
        first = StrongPolicy(5, **SMALL).analyse(state)
        second = StrongPolicy(5, **SMALL).analyse(other)
        assert first.plans == second.plans, f"turn {state.turn}: the deck order leaked"
        checked += 1
    assert checked >= 4


def test_redeal_keeps_everything_visible_and_each_deck_colour() -> None:
    state = _states(Options(players=2), 2, every=9)[2]
    dealt = redeal(state, Rng(1))
    assert dealt.players == state.players and dealt.reserve == state.reserve
    assert visible_cards(dealt) == visible_cards(state)
    for name in ("white_row", "black_row"):
        assert getattr(dealt.table, name) == getattr(state.table, name)
    for name in ("white_deck", "black_deck"):
        real, new = getattr(state.table, name), getattr(dealt.table, name)
        assert len(real) == len(new)
        assert [state.cards[c].colour for c in real] == [state.cards[c].colour for c in new]
    assert dealt.table != state.table


def test_budget_counts_rollouts_and_a_stop_check_ends_a_search() -> None:
    state = _states(Options(players=2), 6, every=4)[3]
    analysis = StrongPolicy(1, rollouts=12, plans=5, beam=4, work=0).analyse(state)
    assert 0 < analysis.rollouts <= 12 and not analysis.capped
    assert sum(p.rollouts for p in analysis.plans) == analysis.rollouts
    stopped = StrongPolicy(1, rollouts=500, plans=5, beam=4, should_stop=lambda: True).analyse(state)
    assert stopped.capped and stopped.rollouts == 0
    apply(state, stopped.best.actions[0])  # still a legal choice


def test_work_budget_gives_late_decisions_more_rollouts_for_the_same_work() -> None:
    """``work`` counts playout actions: an opening search, whose playouts are long, gets about
    ``rollouts``; a search near the end, whose playouts are short, gets more, up to
    ``max_rollouts``. The count is deterministic, and an explicit ``rollouts`` (the review's)
    turns the work budget off."""
    states = [s for s in _states(Options(players=2), 6, every=2) if s.phase is Phase.PLAY]
    budget = {"rollouts": 4, "plans": 3, "beam": 3, "work": 400, "max_rollouts": 40}
    opening = StrongPolicy(1, **budget).analyse(states[0])
    late = StrongPolicy(1, **budget).analyse(states[-1])
    assert 4 <= opening.rollouts < late.rollouts <= 40
    assert late.rollouts >= 3 * opening.rollouts
    assert StrongPolicy(1, **budget).analyse(states[-1]).plans == late.plans
    fixed = StrongPolicy(1, **budget).analyse(states[-1], rollouts=6)
    assert fixed.rollouts <= 6
    without_work = StrongPolicy(1, **{**budget, "work": 0}).analyse(states[-1])
    explicit = StrongPolicy(1, **budget).analyse(states[-1], rollouts=4)
    assert without_work.rollouts == explicit.rollouts < late.rollouts


def test_plans_the_whole_turn_and_follows_the_plan() -> None:
    """A search picks a whole turn; the next action of that turn is played from the plan without a
    second search when the first revealed nothing."""
    checked = 0
    for state in _states(Options(players=2), 8, every=1)[:40]:
        if state.actions_left < 2:
            continue
        policy = StrongPolicy(2, **SMALL)
        first = policy.choose(state)
        plan = policy.last.best.actions if policy.last else ()
        assert len(plan) <= 6 and (not plan or plan[0] == first)
        outcome = apply(state, first)
        if len(plan) < 2 or outcome.reveals_hidden or outcome.state.turn != state.turn:
            continue
        searches = policy.searches
        assert policy.choose(outcome.state) == plan[1]
        assert policy.searches == searches
        checked += 1
    assert checked >= 3


def test_forced_plan_is_scored_beside_the_search() -> None:
    state = _states(Options(players=2), 10, every=6)[2]
    greedy_turn = (GreedyPolicy(0).choose(state),)
    analysis = StrongPolicy(3, **SMALL).analyse(state, forced=[greedy_turn])
    forced = analysis.value_of("forced")
    assert forced is not None and forced.actions == greedy_turn
    assert analysis.best.value >= forced.value or analysis.best.rollouts > forced.rollouts


def test_a_forced_plan_that_cannot_apply_is_cut_short() -> None:
    """A forced plan (the review's "what you played") may not apply to a re-dealt world: the
    action that cannot apply ends it and greedy plays on, instead of the search failing."""
    state = _states(Options(players=2), 10, every=6)[2]
    first = GreedyPolicy(0).choose(state)
    with pytest.raises(IllegalActionError):
        apply(apply(state, first).state, Pass())
    analysis = StrongPolicy(3, **SMALL).analyse(state, forced=[(first, Pass())])
    forced = analysis.value_of("forced")
    assert forced is not None and forced.rollouts > 0


def _swap_hidden_piles(state: GameState) -> GameState:
    """The same state with every completed card of every seat but the one to act swapped for a
    deck card of the same colour and other points (the deck card goes where the pile card was
    not: into the deck, at the same position). With ``known_scores`` off that changes only what
    the player to act cannot see: which cards the others' face-down piles hold, and the decks."""
    table = state.table
    decks = {f.name: list(getattr(table, f.name)) for f in fields(table) if f.name.endswith("deck")}
    players = list(state.players)
    for seat, player in enumerate(players):
        if seat == state.current:
            continue
        completed = []
        for done in player.completed:
            card = state.cards[done.card]
            swap = next(((name, i) for name, deck in decks.items() for i, c in enumerate(deck)
                         if state.cards[c].colour is card.colour and state.cards[c].points != card.points),
                        None)
            if swap is None:
                completed.append(done)
                continue
            name, i = swap
            completed.append(replace(done, card=decks[name][i]))
            decks[name][i] = done.card
        players[seat] = replace(player, completed=tuple(completed))
    changes = {name: tuple(deck) for name, deck in decks.items()}
    return state.evolve(table=replace(table, **changes), players=tuple(players))


def _with_hidden_piles(options: Options) -> list[GameState]:
    """States of a greedy game (score piles face down) where someone but the player to act has
    completed a card."""
    return [s for s in _states(options, 21, every=2)
            if any(p.completed for i, p in enumerate(s.players) if i != s.current)]


@pytest.mark.parametrize("players", [2, 3])
def test_hidden_score_piles_and_deck_order_change_nothing(players: int) -> None:
    """With ``known_scores`` off, two states that differ in the others' face-down score piles
    (cards and so points) and in the decks' order get the same analysis, value for value; with
    score piles face up the same difference is seen (the policy reads the piles it may see)."""
    options = Options(players=players, known_scores=False)
    rng = Rng(5)
    checked = 0
    for state in _with_hidden_piles(options)[::4][:5]:
        other = _shuffle_decks(_swap_hidden_piles(state), rng)
        assert other.players != state.players
        first = StrongPolicy(5, **SMALL).analyse(state)
        second = StrongPolicy(5, **SMALL).analyse(other)
        assert first.plans == second.plans, f"turn {state.turn}: a face-down score pile leaked"
        assert StrongPolicy(5, **SMALL).choose(state) == StrongPolicy(5, **SMALL).choose(other)
        checked += 1
    assert checked >= 3
    # The control: with the piles face up, the other players' points are public and count.
    face_up = [s.evolve(options=replace(s.options, known_scores=True))
               for s in _with_hidden_piles(options)[::4][:5]]
    differ = sum(StrongPolicy(5, **SMALL).analyse(s).plans
                 != StrongPolicy(5, **SMALL).analyse(_swap_hidden_piles(s)).plans for s in face_up)
    assert differ >= 1


def test_banked_points_of_a_hidden_pile_are_not_read() -> None:
    """Endless White Deck banks points on the player; with score piles face down the others'
    banked points are as hidden as their cards (only how many cards were banked is public)."""
    state = _with_hidden_piles(Options(players=2, known_scores=False, endless_white=True))[3]
    rival = 1 - state.current

    def banked(points: int) -> GameState:
        players = list(state.players)
        players[rival] = replace(players[rival], banked_points=points, banked_cards=3)
        return state.evolve(players=tuple(players))

    low, high = StrongPolicy(2, **SMALL).analyse(banked(3)), StrongPolicy(2, **SMALL).analyse(banked(15))
    assert low.plans == high.plans


def test_redeal_refills_hidden_score_piles_from_unseen_cards() -> None:
    state = _with_hidden_piles(Options(players=3, known_scores=False))[4]
    viewer = state.current
    seen = visible_cards(state, viewer)
    assert all(d.card not in seen for i, p in enumerate(state.players) if i != viewer for d in p.completed)
    assert all(d.card in seen for d in state.players[viewer].completed)
    assert visible_cards(state, None) <= seen
    dealt = redeal(state, Rng(3), viewer)
    assert dealt.players[viewer] == state.players[viewer]
    for seat, (real, new) in enumerate(zip(state.players, dealt.players, strict=True)):
        assert len(new.completed) == len(real.completed) and new.puzzles == real.puzzles
        assert all(d.card not in seen for d in new.completed) or seat == viewer
    every = [d.card for p in dealt.players for d in p.completed]
    every += [c for f in fields(dealt.table) if f.name.endswith("deck") for c in getattr(dealt.table, f.name)]
    assert len(every) == len(set(every)), "a card was dealt twice"
    assert visible_cards(dealt, viewer) == seen
    # Face up, the piles are public: a re-deal keeps them.
    face_up = state.evolve(options=replace(state.options, known_scores=True))
    assert redeal(face_up, Rng(3), viewer).players == face_up.players


SWEEP_TABLES = (
    "solo-1p-normal", "solo-1p-unbeatable+ghost+finesse", "base-2p", "base-2p+finesse+hidden-scores",
    "base-3p+ghost+endless-white", "base-4p+ghost+finesse+hidden-scores+endless-white", "lineclear-5p",
    "lineclear-5p+ghost+finesse", "lineclear-6p+ghost+hidden-scores",
    "lineclear-6p+ghost+finesse+endless-white",
)
"""The suite's bounded sweep: every variant, each expansion and option, and combinations of them
(``python -m engine sweep`` plays every table the engine accepts, thousands of games)."""
SWEEP_TINY = {"rollouts": 1, "plans": 1, "beam": 2, "horizon": 1, "work": 0}


def test_the_sweep_covers_every_variant_and_expansion() -> None:
    every = sweep_tables()
    assert {o.variant for o in every} == set(VARIANTS)
    assert {o.players for o in every} == set(range(1, 7))
    flags = {(o.ghost, o.finesse, o.known_scores, o.endless_white) for o in every if o.players == 4}
    assert flags == set(itertools.product((False, True), repeat=4))
    assert {o.difficulty for o in every if o.variant == "solo"} == set(Difficulty)
    assert not any(o.players == 6 and not o.ghost and not o.phoenix for o in every), \
        "the engine refuses 6p without Ghost or Phoenix"
    assert any(o.players == 6 and not o.ghost and o.phoenix for o in every)  # Phoenix stands in for it
    assert set(SWEEP_TABLES) <= {describe(o) for o in every}


def test_bounded_sweep_no_illegal_action_and_no_stall() -> None:
    """A few strong-policy games per variant and expansion, tiny budget, the strong seat moving
    round the table: no illegal action, no stall, no error."""
    chosen = [o for o in sweep_tables() if describe(o) in SWEEP_TABLES]
    total, per_table = sweep(2, seed=40, budget=SWEEP_TINY, tables_to_play=chosen)
    assert total.clean, total.problems
    assert total.games == 2 * len(SWEEP_TABLES) and total.choices > 0 and total.searches > 0
    assert all(result.games == 2 for result in per_table.values())


def test_the_sweep_counts_an_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep's verdict can fail: a strong policy that passes out of turn is caught."""
    monkeypatch.setattr(StrongPolicy, "choose", lambda self, state: Pass())
    total, _ = sweep(1, budget=SWEEP_TINY, tables_to_play=[Options(players=2)])
    assert total.illegal == 1 and not total.clean and "chose 'pass'" in total.problems[0]


def test_hint_does_not_read_face_down_score_piles() -> None:
    """``/projectl hint`` runs the same search (bot.core.play.thinking.strong_hint, full budget): with score
    piles face down, what the others' piles hold changes neither the suggestion nor its figures."""
    from bot.core.play.thinking import strong_hint

    state = _with_hidden_piles(Options(players=2, known_scores=False))[6]
    other = _swap_hidden_piles(state)
    assert other.players != state.players
    assert strong_hint(serialisation.dumps(state), 11) == strong_hint(serialisation.dumps(other), 11)
