"""An Expert seat's turn through the real bot stops at its wall-clock budget and plays its best so
far, and the moves it played replay exactly from the log.

No test waits on a real clock: ``thinking.WALL_CLOCK`` is a fake that moves 10 ms each time it is
read, and the searches run inline (the process pool's spawn would not see the fake), so the
budget of 0.3 s is 30 questions of the search: far fewer than a whole Expert search asks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_ai_budget import FakeClock
from test_bot_support import bot_of, final_reply, running_bot

import engine
from bot.core.play import thinking
from engine.policies import GreedyPolicy

BUDGET_S = 0.3
TICK_S = 0.01


async def test_an_expert_seats_turn_stops_at_its_budget_and_replays_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock(tick=TICK_S)
    monkeypatch.setattr(thinking, "WALL_CLOCK", clock)
    searches: list[tuple[float, float, int]] = []  # (deadline, clock when it answered, readings)

    async def inline(function: Any, *args: Any) -> Any:
        assert function is thinking.policy_move
        before = clock.readings
        answer = function(*args)
        searches.append((args[3], clock.now, clock.readings - before))
        return answer

    async with running_bot(tmp_path / "budget.sqlite3") as h:
        manager = bot_of(h).manager
        manager.ai_turn_seconds = BUDGET_S
        monkeypatch.setattr(manager.thinker, "run", inline)
        alice = h.add_user("alice")
        lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
        assert lobby is not None
        game_id = lobby.buttons[0].custom_id.split(":")[-1]
        await h.click(alice, lobby, f"pl:lobby:expert:{game_id}")
        await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
        human = GreedyPolicy(3)
        for _ in range(30):
            game = await manager.game_in_channel(h.channel("games").id)
            assert game is not None and game.state is not None
            if len({deadline for deadline, _, _ in searches}) >= 3 or game.state.is_over:
                break
            seat = game.seat_of(alice.id)
            assert seat is not None and game.state.current == seat.seat
            action = human.choose(game.state.focused(seat.seat))
            reply = final_reply(await h.slash(alice, "games", "projectl play act", text=str(action)))
            assert (reply.content or "").startswith("Done:"), reply.content

        deadlines = {deadline for deadline, _, _ in searches}
        assert len(deadlines) >= 3  # three turns of the Expert, each with its own deadline
        for deadline, answered, _ in searches:
            # Every search answered by its first question past the turn's deadline (two readings:
            # Strong's round and its plan search may both ask once more on the way out).
            assert answered <= deadline + 2 * TICK_S + 1e-9
        assert any(readings >= BUDGET_S / TICK_S for _, _, readings in searches)  # the budget did cut

        # What the AI played is in the log as actions: replaying it gives the stored state exactly.
        game = await manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        state = engine.initial_state(game.state)
        rows = await manager.storage.actions(game.id)
        assert any(row.user_id is None for row in rows)
        for row in rows:
            state = engine.apply(state, engine.parse_action(row.action), player=row.seat).state
        assert engine.serialisation.dumps(state) == engine.serialisation.dumps(game.state)
