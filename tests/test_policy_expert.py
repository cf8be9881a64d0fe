"""The expert policy: registered, legal on every kind of table (whole short games end), deterministic
from the position, blind to hidden cards, and its evaluation reads the position the right way."""

from __future__ import annotations

from dataclasses import replace

import pytest
from test_policy_strong import _shuffle_decks, _states, _swap_hidden_piles

from engine import Options
from engine.actions import Pass
from engine.game import new_game
from engine.policies import POLICIES, ExpertPolicy, GreedyPolicy, PlanValue, policy_by_name
from engine.policies.expert import (
    DUEL_TURNS,
    EXPERT_WEIGHTS,
    evaluate,
    expected_actions,
    margin,
    projected_mastermind,
)
from engine.policies.mastermind import mastermind_points
from engine.rng import Rng
from engine.rules import score_line
from engine.simulate import default_cards, play_game
from engine.state import Phase, SoloTable
from engine.sweep import describe, sweep
from engine.sweep import tables as sweep_tables

SMALL = {"worlds": 2, "plans": 3, "beam": 3, "nodes": 300}
"""A small budget: the same code paths as the real one, at a fraction of the cost."""
TINY = {"worlds": 1, "plans": 2, "beam": 2, "nodes": 60}
"""Smaller still, for whole games: legality does not depend on the budget."""

EXPERT_TABLES = (
    "solo-1p-normal", "solo-1p-unbeatable+ghost+finesse", "base-2p", "base-2p+finesse+hidden-scores",
    "base-3p+ghost+endless-white", "base-4p+ghost+finesse+hidden-scores+endless-white",
    "lineclear-5p+ghost+finesse", "lineclear-6p+ghost+hidden-scores",
    "base-2p+ambassador+phoenix", "base-3p+finesse+ambassador+phoenix+finesse-ambassador",
)
"""Every variant, each expansion and option, and combinations of them."""


def test_registered_by_name() -> None:
    assert POLICIES["expert"] is ExpertPolicy
    assert isinstance(policy_by_name("Expert", 3), ExpertPolicy)


def test_short_games_of_every_table_kind_end_cleanly() -> None:
    """Expert in one seat (moving round the table), greedy in the others, tiny budget: every game
    ends, with no illegal action, stall or error."""
    chosen = [o for o in sweep_tables() if describe(o) in EXPERT_TABLES]
    assert {describe(o) for o in chosen} == set(EXPERT_TABLES)
    total, per_table = sweep(1, seed=70, budget=TINY, tables_to_play=chosen, policy="expert")
    assert total.clean, total.problems
    assert total.games == len(EXPERT_TABLES) and total.searches > 0
    assert all(result.games == 1 for result in per_table.values())


def test_the_sweep_catches_an_illegal_expert_action(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ExpertPolicy, "choose", lambda self, state: Pass())
    total, _ = sweep(1, budget=TINY, tables_to_play=[Options(players=2)], policy="expert")
    assert total.illegal == 1 and "expert seat" in total.problems[0]


def test_same_position_same_decision() -> None:
    """Seeded from the position and the policy's seed only: fresh policies agree, plan for plan."""
    for state in _states(Options(players=2), 4, every=9)[:5]:
        first = ExpertPolicy(9, **SMALL).analyse(state)
        again = ExpertPolicy(9, **SMALL).analyse(state)
        assert first.plans == again.plans
        assert ExpertPolicy(9, **SMALL).choose(state) == ExpertPolicy(9, **SMALL).choose(state)


@pytest.mark.parametrize("options", [Options(players=2), Options(players=1, variant="solo")],
                         ids=["base", "solo"])
def test_hidden_deck_order_changes_nothing(options: Options) -> None:
    rng = Rng(77)
    checked = 0
    for state in _states(options, 12, every=5)[:6]:
        other = _shuffle_decks(state, rng)
        if other == state:
            continue
        first = ExpertPolicy(5, **SMALL).analyse(state)
        second = ExpertPolicy(5, **SMALL).analyse(other)
        assert first.plans == second.plans, f"turn {state.turn}: the deck order leaked"
        checked += 1
    assert checked >= 3


def test_face_down_score_piles_change_nothing() -> None:
    options = Options(players=2, known_scores=False)
    rng = Rng(5)
    states = [s for s in _states(options, 21, every=2)
              if any(p.completed for i, p in enumerate(s.players) if i != s.current)][::4][:3]
    assert states
    for state in states:
        other = _shuffle_decks(_swap_hidden_piles(state), rng)
        assert other.players != state.players
        first = ExpertPolicy(5, **SMALL).analyse(state)
        second = ExpertPolicy(5, **SMALL).analyse(other)
        assert first.plans == second.plans, f"turn {state.turn}: a face-down score pile leaked"


def test_evaluation_reads_the_position() -> None:
    """Points banked count in full; pieces lying on a puzzle count (they come back when it is
    done); at the end the evaluation is the score; the actions left shrink as the game goes on."""
    states = _states(Options(players=2), 8, every=1)
    state = next(s for s in states if s.phase is Phase.PLAY and any(p.pieces for p in s.players[0].puzzles))
    player = state.players[0]
    puzzles = tuple(replace(p, pieces=()) if p.pieces else p for p in player.puzzles)
    bare = state.evolve(players=(replace(player, puzzles=puzzles), *state.players[1:]))
    assert evaluate(state, 0) > evaluate(bare, 0)
    later = next(s for s in states if s.players[0].completed)
    first = later.players[0].completed[0]
    without = later.evolve(players=(replace(later.players[0], completed=later.players[0].completed[1:]),
                                    *later.players[1:]))
    assert evaluate(later, 0) - evaluate(without, 0) == pytest.approx(later.cards[first.card].points)
    assert expected_actions(states[0], 0) > expected_actions(states[-1], 0)
    record = play_game(Options(players=2), 8, [GreedyPolicy(1), GreedyPolicy(2)], keep_log=False)
    final = record.final_state
    assert final is not None and final.is_over
    assert evaluate(final, 0) == score_line(final, 0).total


def test_a_forced_plan_is_scored_beside_the_search_on_the_same_worlds() -> None:
    """``analyse(forced=…)`` (the hint bench's regret, a review's played turn): the plan is scored
    as "forced" among the search's own candidates (a candidate the search also found is scored
    once, as the forced one), on the same worlds."""
    state = _states(Options(players=2), 4, every=9)[2]
    plain = ExpertPolicy(4, **SMALL).analyse(state)
    assert len(plain.plans) > 2
    weakest = plain.plans[-1]
    forced = ExpertPolicy(4, **SMALL).analyse(state, forced=[weakest.actions])
    scored = forced.value_of("forced")
    assert scored is not None and scored.actions == weakest.actions and scored.rollouts == plain.best.rollouts
    def turns(plans: tuple[PlanValue, ...]) -> list[str]:
        return sorted(str(p.actions) for p in plans)

    assert turns(forced.plans) == turns(plain.plans)
    assert ExpertPolicy(4, **SMALL).analyse(state).plans == plain.plans  # forced=() changes nothing


def test_projected_mastermind_counts_its_next_pick_and_its_later_turns() -> None:
    """Solo: the mastermind's side of the margin is its pile, the pick it would make from the
    grid as it stands (none when every column holding a card is locked) and ``mastermind_rate``
    for each later turn; outside Solo there is none."""
    assert projected_mastermind(new_game(Options(players=2), 5, default_cards()), 0) is None
    dealt = new_game(Options(players=1, variant="solo"), 5, default_cards())
    assert isinstance(dealt.table, SoloTable)
    table = replace(dealt.table, locks=(0, 0, 0))
    state = replace(dealt, table=table)
    points = [None if c is None else state.cards[c].points for c in table.grid]
    later = (expected_actions(state, 0) - state.actions_left) / 3
    rate = EXPERT_WEIGHTS.mastermind_rate
    projected = projected_mastermind(state, 0)
    assert projected == pytest.approx(mastermind_points(points, table.locks) + rate * later)
    locked = replace(state, table=replace(table, locks=(1, 1, 1)))
    assert projected_mastermind(locked, 0) == pytest.approx(rate * later)
    shorter = replace(state, table=replace(table, deck=table.deck[:4]))
    assert (projected_mastermind(shorter, 0) or 0.0) < projected
    assert mastermind_points(points, table.locks) > 0
    assert margin(locked, 0) - margin(state, 0) == pytest.approx(mastermind_points(points, table.locks))


def test_a_two_player_line_plays_a_second_own_turn() -> None:
    """At two players a line plays :data:`DUEL_TURNS` (1) more own turns by greedy after the plan's
    and its reply round, each with another reply round, before it is scored; at three players and
    more none by default; ``extra_turns`` sets it at any table of two or more, and Solo's lines
    keep ``SOLO_TURNS`` whatever it says."""
    assert DUEL_TURNS == 1
    duel = _states(Options(players=2), 4, every=9)[1]
    shipped, one, none = ExpertPolicy(4, **SMALL), ExpertPolicy(4, **SMALL, extra_turns=1), ExpertPolicy(
        4, **SMALL, extra_turns=0)
    assert shipped.analyse(duel).plans == one.analyse(duel).plans
    none.analyse(duel)
    assert one._spent > none._spent
    three = _states(Options(players=3), 4, every=9)[1]
    assert ExpertPolicy(4, **SMALL).analyse(three).plans == ExpertPolicy(4, **SMALL, extra_turns=0).analyse(
        three).plans
    solo = _states(Options(players=1, variant="solo"), 4, every=5)[1]
    knob = ExpertPolicy(4, **SMALL, extra_turns=1).analyse(solo)
    assert knob.plans == ExpertPolicy(4, **SMALL).analyse(solo).plans
