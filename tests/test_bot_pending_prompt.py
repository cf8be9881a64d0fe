"""The turn post says what a pending decision waits for (issue 9 "the player chooses a substitute
piece"; docs/rules.md §2.8): whose choice it is, what it is about, the options, and how to answer.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from positions import at_turn_start, game, play, with_player, without_shapes

from bot.core.games import Game, Seat, TableSettings
from bot.discord.cogs.common import turn_prompt


class _Manager:
    async def wants_mention(self, user_id: int) -> bool:
        return True


def _game(state) -> Game:
    seats = (Seat(0, 11, "Ann"), Seat(1, 12, "Bob"))
    return Game(id=1, guild_id=None, channel_id=5, status="active", host_id=11,
                settings=TableSettings(max_players=2), seed=1, seats=seats, state=state, revision=3)


def test_the_turn_post_names_the_choice_a_player_owes() -> None:
    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                        puzzles=[("TO", [("2", "A1 B1")]), "TD"])
    state = play(without_shapes(state, "T4", "L4", "S4"), "place 2 on TO at A2 B2")
    assert state.pending
    bot = SimpleNamespace(manager=_Manager())
    text, _ = asyncio.run(turn_prompt(bot, _game(state)))  # type: ignore[arg-type]
    assert text.startswith("<@11>, first a choice: the reserve has no T4")
    assert "`I4`, `O4`" in text and "choose <option>" in text
    plain, _ = asyncio.run(turn_prompt(bot, _game(play(state, "choose I4"))))  # type: ignore[arg-type]
    assert "first a choice" not in plain and "it's your turn (2 actions)" in plain
