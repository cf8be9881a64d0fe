"""Playing in Portuguese through Discord: the Portuguese notation and row names are accepted by
the slash commands, and the game records the same (English) action as if typed in English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_refusals import game_of, two_player_game
from test_bot_support import running_bot

import engine


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "bot.sqlite3") as harness:
        yield harness


@pytest.mark.parametrize(("command", "fields", "english"), [
    ("projectl play act", {"text": "nivel1"}, "level1"),
    ("projectl play act", {"text": "pegar preto 2"}, "take black 2"),
    ("projectl play take", {"puzzle": "branco 1"}, "take white 1"),
    ("projectl play take", {"puzzle": "preta 3"}, "take black 3"),
])
async def test_portuguese_words_play_the_english_action(h: DiscordHarness, command: str,
                                                        fields: dict[str, str], english: str) -> None:
    current, _other, _ = await two_player_game(h)
    before = await game_of(h)
    await h.slash(current, "games", command, **fields)
    after = await game_of(h)
    assert after.revision == before.revision + 1
    assert after.state == engine.apply(before.state, engine.parse_action(english)).state
