"""The lobby's Strong level (``ladder_strong``): each turn planned by one of two searches, chosen by
a coin of the seed and the turn, and legal to the end of a game."""

from __future__ import annotations

from dataclasses import replace

from engine import Options, new_game
from engine.game import apply
from engine.policies import POLICIES, ExpertPolicy, GreedyPolicy, LadderStrongPolicy, StrongPolicy
from engine.simulate import default_cards, play_game


def test_the_lobby_strong_level_is_registered_apart_from_the_frozen_strong() -> None:
    assert POLICIES["ladder_strong"] is LadderStrongPolicy
    assert POLICIES["strong"] is StrongPolicy


def test_every_state_of_a_turn_gets_the_same_search_and_the_share_holds() -> None:
    """The coin reads the turn alone: the same search plans every action of a turn, a fresh policy
    with the same seed agrees, and about ``expert_share`` of the turns go to the Expert."""
    state = new_game(Options(players=2), 11, cards=default_cards())
    greedy = GreedyPolicy(1)
    policy, fresh = LadderStrongPolicy(7, expert_share=0.3), LadderStrongPolicy(7, expert_share=0.3)
    by_turn: dict[tuple[int, int], set[int]] = {}
    while not state.is_over:
        search = policy.search_for(state)
        assert search.__class__ is fresh.search_for(state).__class__
        by_turn.setdefault((state.turn, state.current), set()).add(id(search))
        state = apply(state, greedy.choose(state)).state
    assert all(len(searches) == 1 for searches in by_turn.values())
    turns = [(t, c) for t in range(400) for c in range(2)]
    probe = new_game(Options(players=2), 11, cards=default_cards())
    experts = sum(policy.search_for(replace(probe, turn=t, current=c)) is policy.expert for t, c in turns)
    assert 0.25 < experts / len(turns) < 0.35


def test_a_whole_game_is_legal_with_both_searches_in_turn() -> None:
    small = LadderStrongPolicy(
        3, expert_share=0.5, strong=StrongPolicy(3, rollouts=2, plans=2, beam=2, work=0),
        expert=ExpertPolicy(3, worlds=1, plans=2, beam=2, nodes=120),
    )
    record = play_game(Options(players=2), 5, [small, GreedyPolicy(9)], keep_log=False)
    assert record.scores and small.strong.searches > 0 and small.expert.searches > 0
