"""Requests that must not grow with history: stats from the results table, the turn post's log
tail, start-up walking active games in batches (the figures are in ``python -m bench bot``)."""

from __future__ import annotations

import random

import engine
from bench.players import choose_action
from bench.tables import GUILD_ID, open_manager, start_table, user_id
from bot.core.play.manager import Game, GameManager
from bot.core.records import history
from bot.core.storage.stats import StatsStore
from bot.discord.cogs.records import server_stats
from engine.policies import policy_by_name


async def play_out(manager: GameManager, channel: int, seed: int, *, leave_after: int | None = None) -> Game:
    """Play the channel's game to its end with the greedy policy; optionally seat 1 is removed
    after ``leave_after`` actions (the game then ends for lack of opponents in a 2-player game)."""
    policy = policy_by_name("greedy", seed)
    for count in range(2000):
        game = await manager.game_in_channel(channel)
        if game is None:
            break
        assert game.state is not None and game.current is not None and game.current.user_id is not None
        if count == leave_after:
            await manager.decide(channel, engine.RemovePlayer(1), by_user_id=user_id(channel, 1))
            continue
        await manager.act(channel, game.current.user_id, policy.choose(game.state))
    finished = [g async for g in _finished(manager)]
    return next(g for g in finished if g.channel_id == channel)


async def _finished(manager: GameManager):  # type: ignore[no-untyped-def]
    async for row in manager.storage.iter_games_with_status("finished"):
        yield Game.from_row(row)


async def test_stats_come_from_results_rows_equal_to_parsing_every_game() -> None:
    manager = await open_manager(":memory:")
    try:
        await start_table(manager, 10, 2)
        await play_out(manager, 10, 1)
        await start_table(manager, 11, 3)
        await play_out(manager, 11, 2)
        await start_table(manager, 12, 2)
        await play_out(manager, 12, 3, leave_after=4)
        games = [g async for g in _finished(manager)]
        assert len(games) == 3
        store = StatsStore(manager.storage)
        assert await store.games_without_results(GUILD_ID) == []  # written by the finishing commits
        count, totals = await server_stats(manager.storage, GUILD_ID)
        assert count == 3
        assert history.ranked(totals) == history.server_stats(games)
        left = next(t for t in totals if t.user_id == user_id(12, 1))
        assert left.left == 1 and left.played == 1 and left.average is None and left.wins == 0
        # A game finished before the results table existed has no rows: the first request adds them.
        await manager.storage.write(lambda conn: conn.execute(
            "DELETE FROM game_results WHERE game_id = ?", (games[1].id,)))
        assert [g.id for g in await store.games_without_results(GUILD_ID)] == [games[1].id]
        assert await server_stats(manager.storage, GUILD_ID) == (count, totals)
        assert await store.games_without_results(GUILD_ID) == []
        assert await server_stats(manager.storage, GUILD_ID + 1) == (0, [])  # another server
    finally:
        await manager.storage.close()


async def test_log_tail_is_the_end_of_the_log_before_a_revision() -> None:
    manager = await open_manager(":memory:")
    try:
        game = await start_table(manager, 20, 2)
        rng = random.Random(4)
        for _ in range(10):
            game = await manager.game_in_channel(20)
            assert game is not None and game.state is not None and game.current is not None
            await manager.act(20, game.current.user_id or 0, choose_action(game.state, rng))
        full = await manager.log(game.id)
        assert await manager.log_tail(game.id, 3) == full[-3:]
        cut = full[6].revision
        assert await manager.log_tail(game.id, 2, before_revision=cut) == full[4:6]
        assert await manager.log_tail(game.id, 50) == full
    finally:
        await manager.storage.close()


async def test_active_games_are_walked_in_batches_in_id_order() -> None:
    manager = await open_manager(":memory:")
    try:
        started = [await start_table(manager, 30 + i, 2) for i in range(5)]
        rows = [row.id async for row in manager.storage.iter_games_with_status("active", batch=2)]
        assert rows == [g.id for g in started]
        assert [g.id for g in await manager.active_games()] == rows
        assert [row async for row in manager.storage.iter_games_with_status("finished", batch=2)] == []
    finally:
        await manager.storage.close()


def test_the_stored_state_figures_compare_both_forms_of_the_same_states() -> None:
    """bench/stored_states.py: every state of its sample measured in both forms; stored without
    its cards a state is a fraction of the size it used to be."""
    from bench.stored_states import TABLES, figures

    measured = figures()
    assert measured["stored_state_sample"] > 4 * len(TABLES)  # whole games, not just their starts
    assert 0 < measured["stored_state_bytes"] * 3 < measured["stored_state_before_bytes"]
    assert measured["state_dumps_ms"] > 0 and measured["state_dumps_before_ms"] > 0
