"""Replays (docs/replays.md): every mode's replay, rebuilt from the stored log through the engine,
equals the states the game stored turn by turn; and /projectl-games replay steps through a game
privately with First / ‹ / › / Last and the jump menu, one render per step, after a restart too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from days_support import CHANNEL, START, days_bot, game_of, start_game
from test_bot_support import assert_refused, final_reply

from bot.core.clock import ManualClock
from bot.core.play.manager import Game, GameManager, Step, TableSettings
from bot.core.records import replay
from bot.core.storage import Storage
from engine import serialisation
from engine.policies import policy_by_name

MODES = {
    "2p": TableSettings(max_players=2), "3p": TableSettings(max_players=3),
    "4p": TableSettings(max_players=4, known_scores=False), "5p": TableSettings(max_players=5),
    "6p": TableSettings(max_players=6, ghost=True), "solo": TableSettings(variant="solo", max_players=1),
    "finesse": TableSettings(max_players=3, finesse=True),
}


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    clock = ManualClock(START)
    storage = await Storage.open(tmp_path / "r.sqlite3", clock)
    yield GameManager(storage, clock=clock, seed_source=lambda: 4242)
    await storage.close()


async def play_mode(manager: GameManager, settings: TableSettings, channel: int = 10) -> Game:
    """A whole game of ``settings`` with one human per seat, each playing like the Easy AI."""
    created = await manager.create_game(guild_id=1, channel_id=channel, host_id=1, host_name="p1",
                                        settings=settings)
    if settings.variant != "solo":
        for user in range(2, settings.max_players + 1):
            await manager.join(channel, user, f"p{user}")
        created = await manager.start(channel, 1)
    game = created.game
    policy = policy_by_name("greedy", 3)
    for _ in range(3000):
        found = await manager.game(game.id)
        assert found is not None
        if found.status == "finished":
            return found
        assert found.state is not None
        seat = found.state.acting_seats[0]
        user = found.seats[seat].user_id
        assert user is not None
        await manager.act(channel, user, policy.choose(found.state.focused(seat)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", list(MODES))
async def test_a_replay_equals_the_stored_states_turn_by_turn(manager: GameManager, mode: str) -> None:
    stored: dict[int, str] = {}

    async def keep(game: Game, step: Step) -> None:
        stored[step.revision] = serialisation.dumps(step.state, cards=False)

    manager.on_action_committed.append(keep)
    game = await play_mode(manager, MODES[mode])
    rows = await manager.log(game.id)
    steps = replay.steps_of(game, rows)
    assert steps[0].number == 0 and not steps[0].entries and steps[0].previous is None
    assert [s.number for s in steps] == list(range(len(steps)))
    assert sum(len(s.entries) for s in steps) == len(rows)
    for step in steps[1:]:
        assert step.entries
        assert stored[step.entries[-1].revision] == serialisation.dumps(step.state, cards=False)
        assert step.previous is not None
    assert serialisation.dumps(steps[-1].state, cards=False) == serialisation.dumps(game.state, cards=False)
    assert steps[-1].state.is_over
    if not MODES[mode].rules.known_scores:
        assert replay.revealed(steps[1].state).options.known_scores


def test_the_jump_menu_offers_at_most_25_steps_with_the_current_one() -> None:
    assert replay.jump_targets(10, 3) == list(range(10))
    many = replay.jump_targets(200, 77)
    assert len(many) <= 25 and many[0] == 0 and many[-1] == 199 and 77 in many


class CountingRenderer:
    """The bot's renderer, counting the table renders (one per step shown)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.tables = inner, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def table(self, *args: Any, **kwargs: Any) -> bytes:
        self.tables += 1
        return bytes(await self.inner.table(*args, **kwargs))


async def test_replay_steps_privately_with_buttons_and_the_jump_menu(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice = h.user("alice")
        assert_refused(await h.slash(alice, CHANNEL, "projectl-games replay"), "no finished game")
        await start_game(h)
        game = await game_of(h)
        manager = h.bot.manager  # type: ignore[attr-defined]
        policy = policy_by_name("greedy", 1)
        while (found := await manager.game(game.id)) is not None and found.status != "finished":
            assert found.state is not None and found.current is not None and found.current.user_id
            await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))
        await h.settle()
        counting = CountingRenderer(h.bot.renderer)  # type: ignore[attr-defined]
        h.bot.renderer = counting  # type: ignore[attr-defined]
        ix = await h.slash(alice, CHANNEL, "projectl-games replay")
        reply = final_reply(ix)
        assert reply.ephemeral and reply.filenames == ["replay.png"] and counting.tables == 1
        [embed] = reply.embeds
        assert embed.title.startswith(f"Replay of game {game.id} — step 0/")
        last = int(embed.title.split("/")[1].split(" ")[0])
        first, prev, following, final = reply.buttons
        assert first.disabled and prev.disabled and not following.disabled and not final.disabled
        ix = await h.click(alice, reply.message, following.custom_id)
        shown = h.last_response(ix)
        assert counting.tables == 2
        assert shown.embeds[0].title.startswith(f"Replay of game {game.id} — step 1/")
        assert "**alice**" in shown.embeds[0].description or "**bob**" in shown.embeds[0].description
        ix = await h.click(alice, reply.message, final.custom_id)
        assert h.last_response(ix).embeds[0].title.startswith(f"Replay of game {game.id} — step {last}/")
        [menu] = [c for c in h.last_response(ix).components if getattr(c, "options", None)]
        ix = await h.select(alice, reply.message, menu.custom_id, ["2"])
        assert h.last_response(ix).embeds[0].title.startswith(f"Replay of game {game.id} — step 2/")
        assert counting.tables == 4
        ix = await h.slash(alice, CHANNEL, "projectl-games replay", game=game.id, locale="pt-BR")
        assert final_reply(ix).embeds[0].title.startswith(f"Reprise da partida {game.id} — passo 0/")
        assert_refused(await h.slash(alice, CHANNEL, "projectl-games replay", game=game.id + 50),
                       "no game", "you can read from here")


async def test_the_game_menu_names_the_players_as_written_and_the_ai_in_the_readers_words(
        tmp_path: Path) -> None:
    """The autocomplete of replay / recap / export lists each game's seats as plain text (Discord
    shows a choice's name as it is, so a markdown escape would show as a backslash), an AI seat
    by its level in the reader's language."""
    host, other = "al_ice*x", "b`o|b"
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), users=(host, other)) as h:
        alice = h.user(host)
        manager = h.bot.manager  # type: ignore[attr-defined]
        channel = h.channel(CHANNEL).id
        await h.slash(alice, CHANNEL, "projectl table new", players=3)
        await manager.join(channel, h.user(other).id, other)
        await manager.add_policy_seat(channel, alice.id, "greedy")
        game = (await manager.start(channel, alice.id)).game
        policy = policy_by_name("greedy", 1)
        while (found := await manager.game(game.id)) is not None and found.status != "finished":
            assert found.state is not None and found.current is not None and found.current.user_id
            await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))
        await h.settle()
        [choice] = await h.autocomplete(alice, CHANNEL, "projectl-games replay", focused="game", game="")
        assert choice.value == game.id
        assert choice.name == f"Game {game.id}: {host}, {other}, Easy AI 1"
        [choice] = await h.autocomplete(alice, CHANNEL, "projectl-games export", focused="game", game="",
                                        locale="pt-BR")
        assert choice.name == f"Partida {game.id}: {host}, {other}, IA Fácil 1"
