"""Plan-ahead turns without Discord (bot/core/play/plans.py, the manager's planned turns): laid
out on the table as the seat sees it, played the moment its turn starts, each step a commit marked
planned; stopped at the first step no longer legal or no longer the card planned; never past the
turn, never twice — across two processes or a crash between steps."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import engine
from bot.core.clock import ManualClock
from bot.core.errors import BadInputError, InvalidActionError
from bot.core.play import plans
from bot.core.play.manager import Game, GameManager, TableSettings
from bot.core.storage import Storage
from bot.core.storage.plans import PlanStep, PlanStore
from bot.core.wording import texts
from engine.policies import policy_by_name
from engine.policies.plugins import seen_position
from engine.policies.policy import Policy

CHANNEL = 600
START = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "p.sqlite3", ManualClock(START))
    yield opened
    await opened.close()


async def two_humans(manager: GameManager) -> Game:
    await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                              settings=TableSettings(max_players=2))
    await manager.join(CHANNEL, 2, "ben")
    return (await manager.start(CHANNEL, 1)).game


def waiting(game: Game) -> tuple[int, int, int, int]:
    """(mover's seat, mover's user, waiting seat, waiting user)."""
    assert game.state is not None
    mover = game.state.current
    other = 1 - mover
    return mover, game.seats[mover].user_id or 0, other, game.seats[other].user_id or 0


async def plan(manager: GameManager, game: Game, seat: int, user: int, text: str) -> tuple[PlanStep, ...]:
    assert game.state is not None
    steps = plans.lay_out(game.state, seat, plans.parse_plan(text)).steps
    await PlanStore(manager.storage).save(game.id, seat, user, steps)
    return steps


def test_a_plan_is_written_in_notation_with_masters_kept_whole() -> None:
    actions = plans.parse_plan("take white 2; master 1 on B02 at C3; L3 on W07 at A1 A2 B2 ; level1")
    assert [str(a) for a in actions] == [
        "take white 2", "master 1 on B02 at C3; L3 on W07 at A1 A2 B2", "level1"]
    with pytest.raises(BadInputError):
        plans.parse_plan(" ; ")
    with pytest.raises(InvalidActionError):
        plans.parse_plan("take white 2; fly away")
    with pytest.raises(BadInputError):
        plans.parse_plan("; ".join(["level1"] * (plans.MAX_STEPS + 1)))


async def test_a_plan_is_laid_out_on_the_table_as_the_seat_sees_it(storage: Storage) -> None:
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    game = await two_humans(manager)
    assert game.state is not None
    mover, _, other, _ = waiting(game)
    with pytest.raises(BadInputError, match="your turn now"):
        plans.lay_out(game.state, mover, plans.parse_plan("level1"))
    steps = plans.lay_out(game.state, other, plans.parse_plan("take white 2; take white 2; level1")).steps
    row = game.state.table.white_row  # type: ignore[union-attr]
    assert steps == (PlanStep("take white 2", row[1]), PlanStep("take white 2", None), PlanStep("level1"))
    with pytest.raises(InvalidActionError, match="Step 4 of the plan"):
        plans.lay_out(game.state, other, plans.parse_plan("level1; level1; level1; level1"))
    with pytest.raises(InvalidActionError, match="Step 1 of the plan"):
        plans.lay_out(game.state, other, plans.parse_plan("place 1 on W99 at A1"))


async def test_the_plan_plays_when_the_turn_starts_and_the_log_marks_it(storage: Storage) -> None:
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    told = []

    async def remember(outcome: object) -> None:
        told.append(outcome)

    manager.on_plan_played.append(remember)
    game = await two_humans(manager)
    mover, mover_user, other, other_user = waiting(game)
    await plan(manager, game, other, other_user, "level1; take white 1; level1")
    for _ in range(2):
        result = await manager.act(CHANNEL, mover_user, "level1")
        assert not result.plans
    result = await manager.act(CHANNEL, mover_user, "level1")  # the turn passes: the plan plays
    planned = [step for step in result.steps if step.planned]
    assert [s.text for s in planned] == ["level1", "take white 1", "level1"]
    assert all(s.seat == other and s.user_id == other_user for s in planned)
    [outcome] = result.plans
    assert outcome.played == ("level1", "take white 1", "level1")
    assert outcome.left == () and outcome.reason is None
    assert told == [outcome]
    assert result.game.current is not None and result.game.current.seat == mover  # one turn, no more
    log = await manager.log(game.id)
    assert [bool(row.planned) for row in log] == [False, False, False, True, True, True]
    assert await PlanStore(storage).get(game.id, other) is None
    assert await manager.verify(game.id)


async def test_a_plan_stops_where_the_planned_card_was_taken(storage: Storage) -> None:
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    game = await two_humans(manager)
    mover, mover_user, other, other_user = waiting(game)
    steps = await plan(manager, game, other, other_user, "level1; take white 3; level1")
    await manager.act(CHANNEL, mover_user, "take white 3")  # the mover takes the card planned
    await manager.act(CHANNEL, mover_user, "level1")
    result = await manager.act(CHANNEL, mover_user, "level1")
    [outcome] = result.plans
    assert outcome.played == ("level1",) and outcome.left == ("take white 3", "level1")
    assert str(outcome.reason) == f"{steps[1].card} is no longer where the plan took it from."
    assert outcome.actions_left == 2
    assert result.game.current is not None and result.game.current.seat == other  # still theirs
    assert await PlanStore(storage).get(game.id, other) is None


async def test_a_plan_never_plays_twice_across_a_crash_or_two_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    here_storage = await Storage.open(path, ManualClock(START))
    there_storage = await Storage.open(path, ManualClock(START))
    here = GameManager(here_storage, clock=ManualClock(START), seed_source=lambda: 77)
    there = GameManager(there_storage, clock=ManualClock(START), seed_source=lambda: 77)
    try:
        game = await two_humans(here)
        mover, mover_user, other, other_user = waiting(game)
        await plan(here, game, other, other_user, "level1; level1; level1")
        commit = here._commit
        calls = []

        async def crash_after_the_first_planned_step(*args: object, **kwargs: object) -> object:
            if kwargs.get("planned") is not None and calls:
                raise OSError("killed")  # as if the process died between two planned steps
            done = await commit(*args, **kwargs)  # type: ignore[arg-type]
            if kwargs.get("planned") is not None:
                calls.append(1)
            return done

        here._commit = crash_after_the_first_planned_step  # type: ignore[method-assign]
        for _ in range(3):
            result = await here.act(CHANNEL, mover_user, "level1")
        assert [s.text for s in result.steps if s.planned] == ["level1"]
        assert isinstance(result.interrupted, OSError)
        stored = await PlanStore(there_storage).get(game.id, other)
        assert stored is not None and stored.played == 1

        resumed = await there.resume()  # "restart" in the other process: the rest, once
        assert [s.text for s in resumed[0].steps] == ["level1", "level1"]
        assert resumed[0].plans[0].played == ("level1", "level1")
        assert await there.resume() == [] and await here.resume() == []
        log = await there.log(game.id)
        assert [bool(r.planned) for r in log] == [False] * 3 + [True] * 3
        assert await there.verify(game.id)
    finally:
        await here_storage.close()
        await there_storage.close()


@pytest.mark.parametrize("change", ["replaced", "cancelled"])
@pytest.mark.parametrize("before_step", [0, 1])
async def test_a_plan_changed_in_another_process_while_it_plays_plays_nothing_more(
        tmp_path: Path, change: str, before_step: int) -> None:
    """Ben's plan starts playing in one process; between two of its steps (or before its first)
    he replaces or cancels it in another (the board, another tab). Nothing more of the old plan
    plays: if some of it played he is told it stopped because he changed it, what it played and
    what it did not (if none of it played there is nothing to tell); the plan he laid out instead
    plays from its own first step, and a cancelled one leaves his turn to him."""
    path = tmp_path / "shared.sqlite3"
    here_storage = await Storage.open(path, ManualClock(START))
    there_storage = await Storage.open(path, ManualClock(START))
    here = GameManager(here_storage, clock=ManualClock(START), seed_source=lambda: 77)
    try:
        game = await two_humans(here)
        mover, mover_user, other, other_user = waiting(game)
        await plan(here, game, other, other_user, "level1; level1; level1")
        commit = here._commit
        planned_commits = []

        async def change_it_in_the_other_process(*args: object, **kwargs: object) -> object:
            if kwargs.get("planned") is not None:
                if len(planned_commits) == before_step:
                    there = PlanStore(there_storage)
                    if change == "replaced":
                        await there.save(game.id, other, other_user, (PlanStep("take white 1"),))
                    else:
                        assert await there.delete(game.id, other)
                planned_commits.append(1)
            return await commit(*args, **kwargs)  # type: ignore[arg-type]

        here._commit = change_it_in_the_other_process  # type: ignore[method-assign]
        for _ in range(3):
            result = await here.act(CHANNEL, mover_user, "level1")
        new_plan = ["take white 1"] if change == "replaced" else []
        assert [s.text for s in result.steps if s.planned] == ["level1"] * before_step + new_plan
        told = list(result.plans)
        if before_step:
            outcome = told.pop(0)
            assert outcome.played == ("level1",) * before_step
            assert outcome.left == ("level1",) * (3 - before_step)
            assert outcome.reason == texts.PLAN_CHANGED_MEANWHILE
            assert outcome.actions_left == 3 - before_step
            assert "changed or cancelled" in str(plans.outcome_words(outcome))
        assert [(o.played, o.left, o.reason) for o in told] == [(tuple(new_plan), (), None)] * len(new_plan)
        assert result.game.current is not None and result.game.current.seat == other  # theirs to play
        log = await here.log(game.id)
        assert [r.action for r in log if r.planned] == ["level1"] * before_step + new_plan
        assert await PlanStore(there_storage).get(game.id, other) is None
        assert await here.verify(game.id)
    finally:
        await here_storage.close()
        await there_storage.close()


async def test_a_plan_of_a_seat_handed_to_someone_else_is_dropped(storage: Storage) -> None:
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    game = await two_humans(manager)
    mover, mover_user, other, other_user = waiting(game)
    await PlanStore(storage).save(game.id, other, other_user + 50, (PlanStep("level1"),))
    for _ in range(3):
        result = await manager.act(CHANNEL, mover_user, "level1")
    assert not result.plans and not any(s.planned for s in result.steps)
    assert await PlanStore(storage).get(game.id, other) is None
    assert engine is not None


MODES = {
    "2p": TableSettings(max_players=2), "3p": TableSettings(max_players=3),
    "4p-hidden": TableSettings(max_players=4, known_scores=False),
    "3p-finesse": TableSettings(max_players=3, finesse=True),
    "line-clear": TableSettings(max_players=5),
}


async def _table(manager: GameManager, settings: TableSettings) -> Game:
    await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="p1", settings=settings)
    for user in range(2, settings.max_players + 1):
        await manager.join(CHANNEL, user, f"p{user}")
    return (await manager.start(CHANNEL, 1)).game


def _turn_of(policy: Policy, state: engine.GameState, seat: int, rng: random.Random) -> list[str]:
    """A turn ``seat`` could play from ``state`` (its turn started now), as a player would plan it."""
    played: list[str] = []
    start = state
    while plans.plays_now(state, seat, start.turn) and len(played) < plans.MAX_STEPS:
        legal = engine.legal_actions(state.focused(seat))
        action = policy.choose(state.focused(seat)) if rng.random() < 0.7 or not legal else rng.choice(legal)
        state = engine.apply(state, action, player=seat).state
        played.append(str(action))
    return played


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=st.sampled_from(sorted(MODES)), seed=st.integers(0, 10**6), moves=st.integers(0, 6))
@example(mode="line-clear", seed=4062, moves=0)  # a plan stopped at its 2nd step was told twice
async def test_a_plan_plays_exactly_the_steps_that_still_hold_within_one_turn(
        tmp_path_factory: pytest.TempPathFactory, mode: str, seed: int, moves: int) -> None:
    path = tmp_path_factory.mktemp("plan") / "p.sqlite3"
    storage = await Storage.open(path, ManualClock(START))
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: seed)
    rng = random.Random(seed)
    policy = policy_by_name("greedy", seed)
    try:
        game = await _table(manager, MODES[mode])
        assert game.state is not None
        waiting_seats = [s for s in range(len(game.seats)) if s not in game.state.acting_seats]
        seat = rng.choice(waiting_seats)
        user = game.seats[seat].user_id
        assert user is not None
        seen = seen_position(game.state, seat)  # a player plans from what they see
        planned = _turn_of(policy, plans.planning_states(seen, seat)[0], seat, rng)
        steps = plans.lay_out(game.state, seat, [engine.parse_action(a) for a in planned]).steps
        await PlanStore(storage).save(game.id, seat, user, steps)
        assert (await PlanStore(storage).get(game.id, seat)).steps == steps  # type: ignore[union-attr]
        outcome = None
        for _ in range(60):  # the others play (greedy, with a few random moves) until the plan has run
            game = await manager.game(game.id)  # type: ignore[assignment]
            assert game is not None and game.state is not None
            if game.status != "active":
                break
            mover = next(s for s in game.state.acting_seats if s != seat)
            state = game.state.focused(mover)
            legal = engine.legal_actions(state)
            action = rng.choice(legal) if moves and legal and rng.random() < 0.3 else policy.choose(state)
            result = await manager.act(CHANNEL, game.seats[mover].user_id or 0, action)
            if result.plans:
                [outcome] = result.plans
                break
        if outcome is None:
            return  # the game ended, or the seat's turn did not come in time: nothing to check
        log = await manager.log(game.id)
        rows = [row for row in log if row.planned]
        assert [row.action for row in rows] == [s.action for s in steps[:len(rows)]]  # a prefix, in order
        assert list(outcome.played) == [row.action for row in rows] and all(r.seat == seat for r in rows)
        assert list(outcome.left) == [s.action for s in steps[len(rows):]]
        assert (outcome.reason is None) == (not outcome.left)  # stopped early: always with a reason
        # one turn: replaying the log, every planned row is in the same turn of the same seat
        state = engine.initial_state((await manager.game(game.id)).state)  # type: ignore[union-attr]
        turns = set()
        for row in log:
            if row.planned:
                assert plans.plays_now(state, seat, None)
                turns.add(state.turn)
            state = engine.apply(state, engine.parse_action(row.action), player=row.seat).state
        assert len(turns) <= 1
        assert await PlanStore(storage).get(game.id, seat) is None
        assert await manager.verify(game.id)
    finally:
        await storage.close()


async def test_whether_a_plan_is_accepted_never_tells_what_a_deck_holds(storage: Storage) -> None:
    """A plan probing the card under a take (placing on it) is judged on the seat's view: the same
    answer whatever the white deck's hidden order."""
    manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    game = await two_humans(manager)
    assert game.state is not None
    _, _, other, _ = waiting(game)
    table = game.state.table
    answers = set()
    for shift in range(4):
        deck = table.white_deck[shift:] + table.white_deck[:shift]  # type: ignore[union-attr]
        state = replace(game.state, table=replace(table, white_deck=deck))
        next_card = deck[0]  # the real card a take from the row would reveal
        probe = f"take white 1; place 1 on {next_card} at A1"
        try:
            plans.lay_out(state, other, plans.parse_plan(probe))
            answers.add((shift, "accepted"))
        except InvalidActionError:
            answers.add((shift, "refused"))
    fixed = "take white 1; take white 1; level1"
    results = {plans.lay_out(replace(game.state, table=replace(
        table, white_deck=table.white_deck[s:] + table.white_deck[:s])), other,  # type: ignore[union-attr]
        plans.parse_plan(fixed)).steps for s in range(4)}
    assert len(results) == 1
    assert {answer for _, answer in answers} == {"refused"}  # the hidden next card is never confirmed
