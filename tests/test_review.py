"""The post-game review (bot.core.play.thinking.review_game): every turn a reviewed seat played, scored
by the expert policy against its own plans on the same re-dealt worlds (issue 29, item 4)."""

from __future__ import annotations

from bot.core.play.thinking import review_game
from engine import Options, apply, new_game, serialisation
from engine.policies import GreedyPolicy, RandomPolicy


def test_a_random_players_turns_cost_points_and_every_turn_is_scored() -> None:
    options = Options(players=2)
    initial = new_game(options, seed=21)
    policies = [RandomPolicy(1), GreedyPolicy(2)]
    state, rows = initial, []
    while not state.is_over and len(rows) < 600:
        seat = state.current
        action = policies[seat].choose(state)
        rows.append((seat, str(action)))
        state = apply(state, action).state
    assert state.is_over
    mistakes = review_game(serialisation.dumps(initial), rows, 7, [0])
    assert mistakes and {m.seat for m in mistakes} == {0}
    assert all(m.cost >= 0 and m.played and m.better for m in mistakes)
    assert max(m.cost for m in mistakes) > 1.0  # random play is found out
    assert mistakes == review_game(serialisation.dumps(initial), rows, 7, [0])  # deterministic
