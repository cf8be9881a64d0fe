"""Helpers for the play-over-days tests (tests/test_days_*.py): a bot on a ManualClock and a
database file, tables with two or three players, and driving the reminder scheduler by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness import DiscordHarness, FakeMember, InteractionRecord
from test_bot_support import TOKEN, FakeRenderer, final_reply, open_table, settings_for

import engine
from bot.core.clock import ManualClock
from bot.core.play.manager import Game
from bot.discord.app import ProjectLBot, create_bot
from bot.discord.cogs.days import Days, days_of

CHANNEL = "games"
START = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
THREE = ("alice", "bob", "carol")


class FirstLegal:
    """A policy for AI seats in tests: the first legal action (fast and deterministic)."""

    def choose(self, state: engine.GameState) -> engine.Action:
        legal = engine.legal_actions(state)
        if legal:
            return legal[0]
        options = engine.master_options(state)
        if options is not None:
            return next(options.iter_actions())
        return engine.EndFinishing()


def factory(db_path: Path, clock: ManualClock, seed: int = 1234,
            reminder_tick_seconds: float | None = None) -> Any:
    """``reminder_tick_seconds`` starts the production reminder loop at that pace (default: no
    loop, tests call :func:`tick`)."""
    def make() -> ProjectLBot:
        return create_bot(settings_for(db_path), clock=clock, renderer=FakeRenderer(),
                          seed_source=lambda: seed, policies=lambda name, s: FirstLegal(),
                          reminder_tick_seconds=reminder_tick_seconds)
    return make


def world_ids(h: DiscordHarness) -> dict[str, Any]:
    """The guild and channel ids, to rebuild the same server around a restarted bot."""
    return {"guild": h.world.guild_id,
            "channels": {c.name: c.id for c in h.world.guild_channels()}}


@asynccontextmanager
async def days_bot(db_path: Path, clock: ManualClock, users: Sequence[str] = ("alice", "bob"), *,
                   ids: dict[str, Any] | None = None, **kwargs: Any) -> AsyncIterator[DiscordHarness]:
    """A running bot with the given users (fixed ids, so a restarted bot sees the same people);
    ``ids`` from :func:`world_ids` recreates the same guild and channels."""
    h = DiscordHarness(bot_factory=factory(db_path, clock, **kwargs), token=TOKEN,
                       trap_loggers=("discord", "bot"), guild_id=None if ids is None else ids["guild"])
    if ids is not None:
        for channel in list(h.world.guild_channels()):
            old = ids["channels"].get(channel.name)
            if old is not None:
                del h.world.channels[channel.id]
                channel.id, channel.guild_id = old, ids["guild"]
                h.world.channels[old] = channel
    for index, name in enumerate(users):
        h.add_user(name, id=1000 + index)
    async with h:
        yield h


def days(h: DiscordHarness) -> Days:
    return days_of(h.bot)


async def game_of(h: DiscordHarness, channel: str = CHANNEL) -> Game:
    game = await h.bot.manager.game_in_channel(h.channel(channel).id)  # type: ignore[attr-defined]
    assert game is not None
    return game


async def start_game(h: DiscordHarness, host: str = "alice", others: Sequence[str] = ("bob",),
                     **options: Any) -> Game:
    await open_table(h, h.user(host), [h.user(o) for o in others], channel=CHANNEL, **options)
    game = await game_of(h)
    assert game.status == "active"
    return game


async def others(h: DiscordHarness, user: FakeMember) -> list[FakeMember]:
    """The game's other human players (those who may vote on ``user``)."""
    game = await game_of(h)
    return [h.user(s.user_id) for s in game.seats if s.user_id not in (None, user.id)]


async def current_user(h: DiscordHarness) -> FakeMember:
    game = await game_of(h)
    assert game.current is not None and game.current.user_id is not None
    return h.user(game.current.user_id)


async def act(h: DiscordHarness, user: FakeMember, text: str) -> InteractionRecord:
    return await h.slash(user, CHANNEL, "projectl play act", text=text)


async def finish_turn(h: DiscordHarness) -> FakeMember:
    """The current player plays level-1 pieces until their turn ends; returns who played."""
    user = await current_user(h)
    game = await game_of(h)
    assert game.state is not None
    for _ in range(game.state.actions_left):
        ix = await act(h, user, "level1")
        assert not final_reply(ix).content.startswith("Sorry"), final_reply(ix).content
    return user


async def tick(h: DiscordHarness) -> int:
    sent = await days(h).reminders.tick()
    await h.settle()
    return sent


def texts_of(messages: Sequence[Any]) -> list[str]:
    return [m.content or "" for m in messages]


async def forge_click(h: DiscordHarness, user: FakeMember, message: Any, custom_id: str) -> InteractionRecord:
    """Click a button with any custom id, as if ``message`` carried it (a tampered client or an old
    version's message): discord.py dispatches only ids present on the message, so the forged
    button replaces the components of the message copy the interaction carries."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    record = h._new_interaction(3, user, h.channel(CHANNEL), data, message=message)  # noqa: SLF001
    shown = record.payload["message"]
    shown["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}]}]
    shown["flags"] = 0
    return await h._send(record, True)  # type: ignore[no-any-return]  # noqa: SLF001


def sent_json(h: DiscordHarness, message: Any) -> dict[str, Any]:
    """The JSON the bot sent to create ``message`` (its content, ``allowed_mentions``…)."""
    for call in h.calls:
        created = isinstance(call.response, dict) and call.response.get("id") == str(message.id)
        if call.method == "POST" and created:
            assert isinstance(call.json, dict)
            return call.json
    raise AssertionError(f"no POST created message {message.id}")


def pinged_users(payload: dict[str, Any]) -> set[int] | None:
    """The users a message's ``allowed_mentions`` lets it ping (None: the bot-wide default); checks
    that it pings no role and not @everyone."""
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return None
    assert "everyone" not in allowed.get("parse", []) and "roles" not in allowed.get("parse", [])
    assert "users" not in allowed.get("parse", []), "parse=users would ping anyone mentioned"
    return {int(u) for u in allowed.get("users", [])}
