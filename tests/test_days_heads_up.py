"""The "you're next" heads-up (bot/core/days/heads_up.py, /projectl settings heads_up:): an
opt-in DM when the player before you starts their turn, never in your quiet hours, never to
someone who did not ask; and who is next by the base game's order."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from days_support import START, THREE, current_user, days_bot, finish_turn, game_of, start_game
from test_bot_support import final_reply

import engine
from bot.core.clock import ManualClock
from bot.core.days.heads_up import seat_after
from engine import Options


def test_the_seat_after_follows_the_table_round_and_skips_who_left() -> None:
    state = engine.new_game(Options.for_players(4), 3)
    assert [seat_after(state, s) for s in range(4)] == [1, 2, 3, 0]
    players = list(state.players)
    players[2] = replace(players[2], removed=True)
    assert seat_after(replace(state, players=tuple(players)), 1) == 3
    last = replace(state, last_round=state.round, first_player=0)
    assert seat_after(last, 3) is None and seat_after(last, 1) == 2  # the last round ends at seat 3
    assert seat_after(engine.new_game(Options.for_players(1), 3), 0) is None  # Solo: nobody next




async def test_the_player_after_the_next_is_told_once_and_only_if_they_asked(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), users=THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        first = await current_user(h)
        order = [game.seats[(game.state.current + k) % 3] for k in range(3)]  # type: ignore[union-attr]
        second, third = h.user(order[1].user_id), h.user(order[2].user_id)
        ix = await h.slash(third, "games", "projectl settings", heads_up=True)
        assert "(heads_up): on" in final_reply(ix).content
        assert await finish_turn(h) == first                 # the second player's turn starts now
        await h.settle()
        [dm] = h.dms_to(third)
        assert dm.content.startswith(f"Heads-up: you're next in game {game.id} in <#{game.channel_id}>: "
                                     f"**{second.name}** has just started their turn.")
        assert h.dms_to(first) == [] and h.dms_to(second) == []  # nobody else asked
        await finish_turn(h)                                 # the third's own turn: no heads-up for it
        await h.settle()
        assert len(h.dms_to(third)) == 1 and h.dms_to(first) == []


async def test_no_heads_up_in_quiet_hours_and_in_portuguese(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START.replace(hour=23)), users=THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        order = [game.seats[(game.state.current + k) % 3] for k in range(3)]  # type: ignore[union-attr]
        third = h.user(order[2].user_id)
        await h.slash(third, "games", "projectl settings", heads_up=True, quiet_hours="22:00-07:00")
        await finish_turn(h)
        await h.settle()
        assert h.dms_to(third) == []
        fourth = h.user(order[0].user_id)                    # next after the third: the first again
        await h.slash(fourth, "games", "projectl settings", heads_up=True, locale="pt-BR")
        await finish_turn(h)
        await h.settle()
        [dm] = h.dms_to(fourth)
        assert dm.content.startswith(f"Aviso: você é o próximo na partida {game.id}")
        assert (await game_of(h)).id == game.id
