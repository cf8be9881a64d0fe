"""The game manager without Discord: lifecycle, hooks, policy seats, drafts, replay and resume."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import engine
from bot.core.clock import ManualClock
from bot.core.errors import InvalidActionError, NotYourTurnError, StaleError, WrongStageError
from bot.core.play.manager import Game, GameManager, Seat, Step, TableSettings
from bot.core.storage import Storage
from engine import serialisation
from engine.policies import policy_by_name

CHANNEL = 500
START = datetime(2025, 5, 1, 8, 0, tzinfo=UTC)


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    storage = await Storage.open(tmp_path / "m.sqlite3", ManualClock(START))
    yield GameManager(storage, clock=ManualClock(START), seed_source=lambda: 77)
    await storage.close()


async def two_humans(manager: GameManager) -> Game:
    await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                              settings=TableSettings(max_players=2))
    await manager.join(CHANNEL, 2, "ben")
    return (await manager.start(CHANNEL, 1)).game


async def human_and_ai(manager: GameManager) -> Game:
    """A started two-player table: ann (user 1) and a greedy AI seat; ann is to move (the AI plays
    its opening turn at the start when it is dealt first)."""
    await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                              settings=TableSettings(max_players=2))
    await manager.add_policy_seat(CHANNEL, 1)
    return (await manager.start(CHANNEL, 1)).game


async def human_turn_behind_its_back(storage: Storage, game: Game) -> Game:
    """Ann's whole turn (three level-1 takes) committed straight to storage, without the manager:
    as if the process crashed after her commit, before the AI seat moved."""
    assert game.state is not None
    state = game.state
    for text in ("level1", "level1", "level1"):
        outcome = engine.apply(state, engine.parse_action(text))
        row = await storage.commit_action(game.id, game.revision, seat=0, user_id=1, action=text,
                                          state=serialisation.dumps(outcome.state), state_schema=1,
                                          finished=False)
        game, state = Game.from_row(row), outcome.state
    return game


def user_of(game: Game) -> int:
    assert game.current is not None and game.current.user_id is not None
    return game.current.user_id


async def test_hooks_fire_in_order(manager: GameManager) -> None:
    seen: list[str] = []

    async def turn(game: Game, seat: Seat) -> None:
        seen.append(f"turn:{seat.name}")

    async def step(game: Game, step: Step) -> None:
        seen.append(f"step:{step.text}")

    async def broken(game: Game, seat: Seat) -> None:
        raise RuntimeError("a hook failing must not hurt the game")

    manager.on_turn_started += [turn, broken]
    manager.on_action_committed.append(step)
    game = await two_humans(manager)
    first = game.current
    assert first is not None and seen == [f"turn:{first.name}"]
    for _ in range(3):
        game = (await manager.act(CHANNEL, user_of(game), "level1")).game
    assert seen[1:] == ["step:level1"] * 3 + [f"turn:{game.current.name}"]  # type: ignore[union-attr]
    assert game.current is not None and game.current.seat != first.seat


async def test_act_refusals_change_nothing(manager: GameManager) -> None:
    game = await two_humans(manager)
    other = 1 if user_of(game) == 2 else 2
    with pytest.raises(NotYourTurnError):
        await manager.act(CHANNEL, other, "level1")
    with pytest.raises(InvalidActionError, match="reserve|supply|puzzle"):
        await manager.act(CHANNEL, user_of(game), "place L3 on W01 at A1 A2 B2")
    with pytest.raises(StaleError):
        await manager.act(CHANNEL, user_of(game), "level1", expected_revision=game.revision - 1)
    assert (await manager.game(game.id)).revision == game.revision  # type: ignore[union-attr]
    assert await manager.log(game.id) == []


@pytest.mark.parametrize(
    "decision", ["skip", "remove 2", "remove 1", engine.SkipTurn(), engine.RemovePlayer(1)], ids=repr
)
async def test_act_refuses_table_decisions(manager: GameManager, decision: engine.Action | str) -> None:
    """act() is every player's way in, so it refuses every kind in engine.TABLE_ACTIONS, text or
    value; decide() (votes, the turn clock, the host's replace) is the only way to apply one."""
    game = await two_humans(manager)
    with pytest.raises(InvalidActionError, match="table decision"):
        await manager.act(CHANNEL, user_of(game), decision, expected_revision=game.revision)
    assert await manager.log(game.id) == []
    with pytest.raises(TypeError):
        await manager.decide(CHANNEL, engine.TakeLevelOne())  # type: ignore[arg-type]
    skipped = await manager.decide(CHANNEL, engine.SkipTurn())
    assert [str(s.action) for s in skipped.steps] == ["skip"]


async def test_master_draft_is_checked_and_discarded_on_change(manager: GameManager) -> None:
    game = await two_humans(manager)
    user = user_of(game)
    assert game.state is not None
    card = game.state.table.white_row[0]  # type: ignore[union-attr]
    game = (await manager.act(CHANNEL, user, "take white 1")).game
    assert game.state is not None
    player = game.state.players[game.state.current]
    place = engine.placements_for(game.state.cards, player, card=card, shape=engine.Shape.MONO)[0]
    draft = await manager.master_add(CHANNEL, user, place)
    assert draft.placements == (place,) and draft.revision == game.revision
    game = (await manager.act(CHANNEL, user, "level1")).game  # any change discards the draft
    _, fresh = await manager.master_draft(CHANNEL, user)
    assert fresh.placements == () and fresh.revision == game.revision
    draft = await manager.master_add(CHANNEL, user, place)
    with pytest.raises(StaleError, match="no longer open"):  # a Clear button of another game
        await manager.master_clear(CHANNEL, user, game_id=game.id + 1)
    assert (await manager.master_draft(CHANNEL, user))[1].placements == (place,)
    await manager.master_clear(CHANNEL, user, game_id=game.id)
    assert (await manager.master_draft(CHANNEL, user))[1].placements == ()
    draft = await manager.master_add(CHANNEL, user, place)
    result = await manager.master_confirm(CHANNEL, user)
    assert isinstance(result.first.action, engine.Master)  # type: ignore[union-attr]
    assert result.turn_changed


async def test_solo_starts_at_once_and_lobby_rules(manager: GameManager) -> None:
    started: list[str] = []

    async def turn(game: Game, seat: Seat) -> None:
        started.append(seat.name)

    manager.on_turn_started.append(turn)
    result = await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=9, host_name="sol",
                                       settings=TableSettings(variant="solo", max_players=1,
                                                              difficulty="unbeatable"))
    assert result.started is not None and result.game.status == "active" and started == ["sol"]
    assert result.game.state is not None and result.game.state.options.difficulty.value == "unbeatable"
    with pytest.raises(WrongStageError):
        await manager.join(CHANNEL, 3, "late")


async def test_ai_seats_play_and_replay_verifies(manager: GameManager) -> None:
    await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                              settings=TableSettings(max_players=3))
    await manager.add_policy_seat(CHANNEL, 1, "greedy")
    await manager.add_policy_seat(CHANNEL, 1, "random")
    result = await manager.start(CHANNEL, 1)
    game = result.game
    assert [s.name for s in game.seats] == ["ann", "Easy AI 1", "Random AI 2"]
    assert game.current is not None and game.current.user_id == 1  # AI seats already moved if first
    finished: list[int] = []

    async def done(g: Game) -> None:
        finished.append(g.id)

    manager.on_game_finished.append(done)
    policy = policy_by_name("greedy", 3)
    while game.status == "active":
        assert game.state is not None
        result = await manager.act(CHANNEL, 1, policy.choose(game.state))
        assert result.first is not None and result.first.user_id == 1
        assert all(s.user_id is None for s in result.steps[1:])
        game = result.game
    assert finished == [game.id]
    assert await manager.verify(game.id)
    log = await manager.log(game.id)
    assert [row.seq for row in log] == list(range(1, len(log) + 1))
    assert all(row.created_at == START.isoformat() for row in log)


async def test_resume_finishes_an_interrupted_ai_turn(tmp_path: Path) -> None:
    """Simulate a crash right after a human's commit, before the AI seats moved."""
    path = tmp_path / "crash.sqlite3"
    storage = await Storage.open(path, ManualClock(START))
    manager = GameManager(storage, seed_source=lambda: 5)
    game = await human_and_ai(manager)
    assert game.state is not None and game.current is not None and game.current.user_id == 1
    game = await human_turn_behind_its_back(storage, game)
    assert game.current is not None and game.current.is_ai
    await storage.close()

    storage = await Storage.open(path, ManualClock(START))  # "restart"
    manager = GameManager(storage, seed_source=lambda: 5)
    results = await manager.resume()
    assert len(results) == 1 and all(s.user_id is None for s in results[0].steps)
    game = results[0].game
    assert game.current is not None and game.current.user_id == 1
    assert await manager.verify(game.id)
    assert await manager.resume() == []  # nothing left to do: safe to call again
    await storage.close()


async def test_an_ai_move_another_process_made_first_does_not_undo_the_players_answer(tmp_path: Path) -> None:
    """Two bot processes share the database. A player's action is committed here; before this
    process commits the AI's reply, the other process plays that AI turn itself. The player's
    action stands and is answered (not refused as out of date), the AI seat moved once, and the
    log replays."""
    path = tmp_path / "shared.sqlite3"
    here_storage = await Storage.open(path, ManualClock(START))
    there_storage = await Storage.open(path, ManualClock(START))
    here = GameManager(here_storage, seed_source=lambda: 5)
    there = GameManager(there_storage, seed_source=lambda: 5)
    try:
        game = await human_and_ai(here)
        assert game.current is not None and game.current.user_id == 1
        start = len(await here.log(game.id))  # the AI's opening turn, if it was dealt first
        for _ in range(2):
            await here.act(CHANNEL, 1, "level1")
        think = here.ai.choose
        raced: list[int] = []

        async def slow_policy(game: Game, seat: Seat) -> tuple[engine.Action, engine.Outcome | None]:
            if not raced:  # the other process plays the AI's turn while this one still thinks
                played = await there.play_policies(CHANNEL)
                assert played is not None
                raced.append(len(played.steps))
            return await think(game, seat)

        here.ai.choose = slow_policy  # type: ignore[method-assign]
        ai = next(s.seat for s in game.seats if s.is_ai)
        here.ai.strong_plans[(game.id, ai)] = (game.revision + 9, (engine.parse_action("level1"),))
        result = await here.act(CHANNEL, 1, "level1")
        assert (game.id, ai) not in here.ai.strong_plans  # a plan for a turn this process did not play
        assert [step.text for step in result.steps] == ["level1"] and result.steps[0].user_id == 1
        assert raced and raced[0] >= 1
        log = (await here.log(game.id))[start:]
        assert [(row.action, row.user_id) for row in log[:3]] == [("level1", 1)] * 3
        assert len(log) == 3 + raced[0] and all(row.user_id is None for row in log[3:])
        final = await there.game(game.id)
        assert final is not None and final.current is not None and final.current.user_id == 1
        assert await here.verify(game.id)
    finally:
        await here_storage.close()
        await there_storage.close()


async def test_resume_leaves_games_it_is_told_are_not_its_own(tmp_path: Path) -> None:
    """A sharded process resumes only the games of the servers it runs (bot/core/shards.py): it
    could not post the AI's moves in the others' channels; their own process plays them."""
    path = tmp_path / "crash.sqlite3"
    storage = await Storage.open(path, ManualClock(START))
    manager = GameManager(storage, seed_source=lambda: 5)
    game = await human_and_ai(manager)
    assert game.state is not None
    game = await human_turn_behind_its_back(storage, game)
    assert await manager.resume(lambda g: g.guild_id != 1) == []
    unchanged = await manager.game(game.id)
    assert unchanged is not None and unchanged.revision == game.revision and unchanged.current is not None
    assert unchanged.current.is_ai
    assert len(await manager.resume(lambda g: g.guild_id == 1)) == 1
    await storage.close()


async def test_new_games_use_the_servers_catalogue_and_replay_from_it(tmp_path: Path) -> None:
    """A custom catalogue deals new games; replay and verification rebuild the start from the cards
    stored with the game, so they keep working whatever the server's file says later."""
    from dataclasses import replace

    from engine.catalogue import load_catalogue

    house = [replace(card, points=card.points + 10) for card in load_catalogue(None).cards]
    storage = await Storage.open(tmp_path / "c.sqlite3", ManualClock(START))
    try:
        manager = GameManager(storage, clock=ManualClock(START), seed_source=lambda: 5, cards=house)
        game = await two_humans(manager)
        assert game.state is not None
        assert all(card.points >= 10 for card in game.state.cards.values())
        for _ in range(4):
            game = (await manager.act(CHANNEL, user_of(game), "level1")).game
        assert await manager.verify(game.id)
    finally:
        await storage.close()
