"""The medium policy (issue 29): registered, deterministic from its seed, legal at every table kind."""

from __future__ import annotations

import pytest

from engine.policies import POLICIES, GreedyPolicy, MediumPolicy, StrongPolicy, policy_by_name
from engine.policies.medium import MEDIUM_BEAM, MEDIUM_PLANS, MEDIUM_ROLLOUTS
from engine.simulate import play_game
from engine.state import Difficulty, Options


def test_registered_by_name() -> None:
    assert POLICIES["medium"] is MediumPolicy
    assert isinstance(policy_by_name(" Medium ", 3), MediumPolicy)
    assert isinstance(MediumPolicy(1), StrongPolicy)


def test_budget_is_fixed_and_below_strongs() -> None:
    """The tuned budget (20 rollouts on Strong's 6 plans and beam of 8: the module docstring's
    figures), a fixed rollout count with no clock, below Strong's adaptive one (32 to 256)."""
    medium, strong = MediumPolicy(0), StrongPolicy(0)
    assert (medium.rollouts, medium.max_rollouts, medium.work) == (MEDIUM_ROLLOUTS, MEDIUM_ROLLOUTS, 0)
    assert (MEDIUM_ROLLOUTS, MEDIUM_PLANS, MEDIUM_BEAM) == (20, 6, 8)
    assert medium.rollouts < strong.rollouts and medium.max_rollouts < strong.max_rollouts and strong.work > 0
    assert (medium.plans, medium.beam) == (strong.plans, strong.beam)


def test_same_seed_same_game() -> None:
    """Deterministic: the budget is a fixed rollout count (work=0), never the clock. Twelve turns
    (36 actions, half of them Medium's searches) show it as well as a whole game would."""
    options = Options(players=2)
    first = play_game(options, 5, [MediumPolicy(1), GreedyPolicy(2)], max_turns=12)
    again = play_game(options, 5, [MediumPolicy(1), GreedyPolicy(2)], max_turns=12)
    assert len(first.log) > 30 and first.log == again.log and first.scores == again.scores


@pytest.mark.parametrize("options", [
    Options(players=2), Options(players=5, variant="lineclear", ghost=True),
    Options(players=1, variant="solo", difficulty=Difficulty.HARD),
], ids=lambda o: f"{o.variant}-{o.players}p-{o.difficulty.value}")
def test_whole_game_legal_on_its_own_budget(options: Options) -> None:
    """Medium, on its own budget, in the first seat of a base, a Line Clear and a Solo table:
    play_game's apply raises on an illegal action; the game must also finish (no stall). Medium
    is Strong's search with fewer rollouts, and which actions a search may return does not depend
    on its budget (engine/sweep.py), so every other table is test_policy_strong's whole games
    (Strong's search in two seats) and its bounded sweep."""
    seats = [MediumPolicy(s) if s < 1 else GreedyPolicy(s) for s in range(options.players)]
    record = play_game(options, 3, seats, keep_log=False)
    assert not record.stalled
