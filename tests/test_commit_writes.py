"""Writes that join an action's own transaction (GameManager.commit_writes): one fsync per action."""

from __future__ import annotations

from typing import Any

from bench.tables import open_manager, start_table, user_id
from bot.core.play.manager import Game, Step
from bot.core.storage.transactions import Write


async def test_a_hook_write_commits_with_the_action_and_sees_the_state_it_will_have() -> None:
    manager = await open_manager(":memory:")
    seen: list[tuple[int, int]] = []
    transactions = 0
    original = manager.storage.write

    async def counting(work: Any) -> Any:
        nonlocal transactions
        transactions += 1
        return await original(work)

    async def hook(game: Game, step: Step) -> list[Write]:
        assert game.state is step.state
        seen.append((game.revision, step.revision))
        return [Write("UPDATE players SET display_name = ? WHERE user_id = ?", (f"acted {step.revision}",
                                                                             step.user_id))]

    try:
        game = await start_table(manager, 5, 2)
        manager.commit_writes.append(hook)
        manager.storage.write = counting  # type: ignore[method-assign]
        result = await manager.act(5, user_id(5, 0), "level1")
        assert transactions == 1  # the action and the hook's write: one transaction
        assert seen == [(game.revision + 1, game.revision + 1)] == [(result.game.revision,) * 2]
        player = await manager.storage.get_player(user_id(5, 0))
        assert player is not None and player.display_name == f"acted {result.game.revision}"
    finally:
        await manager.storage.close()


async def test_a_failing_hook_never_costs_the_player_their_action() -> None:
    manager = await open_manager(":memory:")

    async def broken(game: Game, step: Step) -> list[Write]:
        raise RuntimeError("reminder store unavailable")

    try:
        game = await start_table(manager, 6, 2)
        manager.commit_writes.append(broken)
        result = await manager.act(6, user_id(6, 0), "level1")
        assert result.game.revision == game.revision + 1
        assert [row.action for row in await manager.log(game.id)] == ["level1"]
    finally:
        await manager.storage.close()
