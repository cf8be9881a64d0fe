"""The AI's wall-clock budget, without a clock: the searches stop on a fake stop check and still
decide well; the worker's deadline check and the manager's per-turn deadline run on a fake
``thinking.WALL_CLOCK``. (The bot-level turn is in tests/test_bot_ai_budget.py.)"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from bot.core.config import DEFAULT_AI_TURN_SECONDS, ConfigError, Settings
from bot.core.play import thinking
from bot.core.play.ai_moves import AiMoves
from bot.core.play.thinking import Thinker
from engine import Options, apply, legal_actions, new_game, parse_action, serialisation
from engine.policies import ExpertPolicy, Interruptible, LadderStrongPolicy, StrongPolicy, policy_by_name
from engine.state import GameState


def _mid_game(players: int = 2, seed: int = 3, actions: int = 12) -> GameState:
    """A position a few turns in (greedy's moves), with puzzles in hand."""
    state = new_game(Options(players=players), seed)
    greedy = policy_by_name("greedy", seed)
    for _ in range(actions):
        state = apply(state, greedy.choose(state)).state
    return state


def after_calls(count: int) -> Callable[[], bool]:
    """A stop check that says stop from its ``count + 1``-th question on."""
    asked = itertools.count(1)
    return lambda: next(asked) > count


class FakeClock:
    """A wall clock that moves only when a test moves it (or by ``tick`` each reading)."""

    def __init__(self, start: float = 1000.0, tick: float = 0.0) -> None:
        self.now = start
        self.tick = tick
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.tick
        return self.now


# -- the engine's searches, stopped by a fake check ------------------------------------------------


def test_every_searching_policy_can_be_interrupted() -> None:
    for name in ("medium", "strong", "ladder_strong", "expert"):
        assert isinstance(policy_by_name(name, 1), Interruptible), name
    assert not isinstance(policy_by_name("greedy", 1), Interruptible)


def test_an_expert_never_stopped_decides_exactly_as_before() -> None:
    state = _mid_game()
    asked: list[int] = []

    def never() -> bool:
        asked.append(1)
        return False

    plain = ExpertPolicy(7).analyse(state)
    checked = ExpertPolicy(7, should_stop=never).analyse(state)
    assert checked == plain and not checked.capped
    assert len(asked) > 10  # it was asked between slices all along


def test_a_stopped_expert_picks_the_best_of_the_candidates_it_scored_on_every_world() -> None:
    """Stopped part-way through the lines, the Expert compares only the candidates scored on
    every world; their values are the whole search's, so its choice is the whole search's among
    them."""
    state = _mid_game()
    full = ExpertPolicy(7).analyse(state)
    values = {plan.actions: plan.value for plan in full.plans}
    asked = itertools.count()
    ExpertPolicy(7, should_stop=lambda: next(asked) < 0).analyse(state)
    lines = 6 * len(full.plans)  # the last questions: one before each line (6 worlds a candidate)
    before_lines = next(asked) - lines
    for extra, scored in ((2 * 6, 2), (3 * 6 + 2, 3)):  # two candidates scored; three and a part
        stopped = ExpertPolicy(7, should_stop=after_calls(before_lines + extra)).analyse(state)
        assert stopped.capped
        assert len(stopped.plans) == scored < len(full.plans)
        assert all(plan.rollouts == 6 and plan.value == values[plan.actions] for plan in stopped.plans)
        assert stopped.best.value == max(plan.value for plan in stopped.plans)
        apply(state, stopped.best.actions[0])  # legal
    # Stopped after the plan search, before any line: the candidates ranked as the beam ranks
    # whole turns (the evaluation where each ends), the beam's best first.
    stopped = ExpertPolicy(7, should_stop=after_calls(before_lines)).analyse(state)
    assert stopped.capped and {plan.actions for plan in stopped.plans} == set(values)
    assert all(plan.rollouts == 0 for plan in stopped.plans)
    assert stopped.best.source == "search" and stopped.best.value == max(p.value for p in stopped.plans)
    apply(state, stopped.best.actions[0])


@pytest.mark.parametrize("name", ["medium", "strong", "ladder_strong", "expert"])
def test_a_search_stopped_at_once_plays_greedys_legal_turn(name: str) -> None:
    """Past its deadline before it starts (a queue, a busy machine), a search still plays a whole
    legal turn: greedy's, at no search cost."""
    state = _mid_game(players=3, seed=5)
    for seed in range(4):  # ladder_strong: turns planned by each of its two searches
        policy = policy_by_name(name, seed)
        assert isinstance(policy, Interruptible)
        policy.should_stop = lambda: True
        assert policy.choose(state) in legal_actions(state)
        searches = [policy.expert, policy.strong] if isinstance(policy, LadderStrongPolicy) else [policy]
        analyses = [s.last for s in searches if getattr(s, "last", None) is not None]
        assert analyses and all(a.capped and a.best.source == "greedy" for a in analyses)


def test_a_strong_search_stopped_after_some_rounds_decides_on_equal_rollouts() -> None:
    state = _mid_game()
    asked = itertools.count()
    full = StrongPolicy(4, should_stop=lambda: next(asked) < 0).analyse(state)
    total = next(asked)
    assert not full.capped and total > full.rollouts  # asked before every rollout (a slice each)
    for questions in range(1, total, max(1, total // 9)):  # stopped anywhere, mid-world included
        stopped = StrongPolicy(4, should_stop=after_calls(questions)).analyse(state)
        assert stopped.capped and stopped.rollouts < full.rollouts
        assert sum(plan.rollouts for plan in stopped.plans) == stopped.rollouts  # no half world kept
        assert stopped.best.rollouts == max(plan.rollouts for plan in stopped.plans)
        apply(state, stopped.best.actions[0])
    played = [plan.rollouts for plan in stopped.plans if plan.rollouts]
    assert played and stopped.best.rollouts == max(played)
    apply(state, stopped.best.actions[0])


# -- the worker's deadline, on a fake wall clock ------------------------------------------------


def test_the_deadline_check_reads_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(thinking, "WALL_CLOCK", clock)
    check = thinking.deadline_check(1002.0)
    assert not check()
    clock.now = 1001.999
    assert not check()
    clock.now = 1002.0
    assert check()


def test_policy_move_without_a_deadline_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints, reviews, tests and benches: the same position, the same move, whatever the clock."""
    clock = FakeClock()
    monkeypatch.setattr(thinking, "WALL_CLOCK", clock)
    text = serialisation.dumps(_mid_game())
    first = thinking.policy_move(text, 9, "expert")
    assert clock.readings == 0
    assert thinking.policy_move(text, 9, "expert") == first


def test_policy_move_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each reading of the fake clock moves it 10 ms: a deadline 0.3 s away allows 30 slices of
    the search, which then stops at its first question past the deadline."""
    clock = FakeClock(tick=0.01)
    monkeypatch.setattr(thinking, "WALL_CLOCK", clock)
    state = _mid_game()
    deadline = clock.now + 0.3
    played = thinking.policy_move(serialisation.dumps(state), 9, "expert", deadline)
    assert 30 <= clock.readings <= 31
    for text in played:  # the whole planned turn is legal, in order
        state = apply(state, parse_action(text)).state
    unbounded = FakeClock(tick=0.01)
    monkeypatch.setattr(thinking, "WALL_CLOCK", unbounded)
    thinking.policy_move(serialisation.dumps(_mid_game()), 9, "expert", unbounded.now + 1e6)
    assert unbounded.readings > 31  # the whole search asks far more often: the deadline did cut it


# -- the manager's per-turn deadline -------------------------------------------------------------


class _Game:
    """What ``AiMoves.turn_deadline`` reads of a game."""

    def __init__(self, game_id: int, state: GameState) -> None:
        self.id = game_id
        self.state = state


def test_a_turns_searches_share_one_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(thinking, "WALL_CLOCK", clock)
    moves = AiMoves.__new__(AiMoves)  # no pool or plug-in worker needed for the deadline's book-keeping
    moves.ai_turn_seconds = 2.0
    moves.turn_deadlines = {}
    state = _mid_game()
    game = _Game(1, state)
    first = moves.turn_deadline(game, state.current)  # type: ignore[arg-type]
    assert first == 1002.0
    clock.now += 1.5  # a card revealed mid-turn: the next search of the same turn
    assert moves.turn_deadline(game, state.current) == first  # type: ignore[arg-type]
    later = _Game(1, state.evolve(turn=state.turn + 1))
    assert moves.turn_deadline(later, state.current) == clock.now + 2.0  # type: ignore[arg-type]
    moves.ai_turn_seconds = None
    assert moves.turn_deadline(later, state.current) is None  # type: ignore[arg-type]


# -- the setting ---------------------------------------------------------------------------------


def test_the_setting_reads_seconds_and_refuses_anything_else_in_one_sentence() -> None:
    env = {"DISCORD_TOKEN": "x"}
    assert Settings.from_env(env, require_token=False).ai_turn_seconds == DEFAULT_AI_TURN_SECONDS == 2.0
    half = Settings.from_env({**env, "PROJECTL_AI_TURN_SECONDS": " 0.5 "}, require_token=False)
    assert half.ai_turn_seconds == 0.5
    for bad in ("abc", "0", "-1", "61", "nan", "inf", "1e400", "9" * 40):
        with pytest.raises(ConfigError, match=r"^PROJECTL_AI_TURN_SECONDS must be a number of seconds .*\.$"):
            Settings.from_env({**env, "PROJECTL_AI_TURN_SECONDS": bad}, require_token=False)


# -- the pool ------------------------------------------------------------------------------------


async def test_the_pool_starts_every_worker_at_once_each_warmed_first() -> None:
    """No AI turn pays a worker's start inside its budget: the first job starts them all, each
    sent the warm-up first (a spawn pool otherwise starts one only when a job finds none idle)."""
    thinker = Thinker(workers=2)
    try:
        assert await thinker.run(int, "7") == 7
        await thinker.ready()  # both warmed
        pool = thinker._pool  # noqa: SLF001
        assert pool is not None and len(pool._processes) == 2  # noqa: SLF001
    finally:
        thinker.close()
    thinking.warm_worker()  # what each worker runs first: a small, fixed search
