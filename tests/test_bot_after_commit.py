"""A change that is saved is never called unchanged (docs/hardening.md §8): every command or button
that saves and then does more (a public post, the lobby shown again, its own answer) hears a
failure after the save as what it is — the change stands — whether it is a storage fault or
Discord refusing the public post (403), which is told as such rather than as a bug."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from days_support import CHANNEL, START, act, current_user, days, days_bot, game_of, start_game
from harness import ApiError, DiscordHarness
from test_bot_support import final_reply, replies

from bot.core.clock import ManualClock
from bot.core.wording import texts
from bot.core.wording.locales import t

FULL = sqlite3.OperationalError("database or disk is full")


def failing(error: Exception) -> Any:
    async def fail(*args: Any, **kwargs: Any) -> Any:
        raise error
    return fail


def refuse_channel_posts(h: DiscordHarness) -> None:
    """Discord refuses the bot's channel posts from now on (an override the interaction's
    permissions did not show yet)."""
    def forbidden(call: object) -> None:
        raise ApiError(403, 50013, "Missing Permissions")

    h.api.add_route("POST", "/channels/{channel_id}/messages", forbidden)


def private_word(ix: Any) -> str:
    reply = final_reply(ix)
    assert reply.ephemeral, reply.content
    assert "nothing was changed" not in reply.content, reply.content
    return str(reply.content)


async def test_settings_saved_then_a_fault_say_they_stand(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice = h.user("alice")
        monkeypatch.setattr(days(h).reminders, "preferences_changed", failing(FULL))
        with h.expect_errors():
            english = await h.slash(alice, CHANNEL, "projectl settings", reminders=False)
            portuguese = await h.slash(alice, CHANNEL, "projectl settings", heads_up=True, locale="pt-BR")
        monkeypatch.undo()
        assert private_word(english) == texts.STORAGE_FAULT_AFTER_COMMIT["full"]
        assert private_word(portuguese) == t("STORAGE_FAULT_AFTER_COMMIT.full", "pt-BR")
        prefs = await days(h).store.get_prefs(alice.id)
        assert prefs.enabled is False and prefs.heads_up is True  # saved, as said


async def test_a_table_made_casual_then_a_fault_says_it_stands(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice = h.user("alice")
        await h.slash(alice, CHANNEL, "projectl table new")
        monkeypatch.setattr(days(h).store, "turn_limit", failing(FULL))  # read to show the lobby again
        with h.expect_errors():
            ix = await h.slash(alice, CHANNEL, "projectl-games rated", value=False)
        monkeypatch.undo()
        first = replies(ix)[0]
        assert not first.ephemeral and first.content == texts.RATED_OFF  # the table was told
        assert private_word(ix) == texts.STORAGE_FAULT_AFTER_COMMIT["full"]
        assert (await game_of(h)).settings.rated is False


async def test_an_undo_discord_will_not_post_is_told_as_saved(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        await start_game(h)
        player = await current_user(h)
        await act(h, player, "level1")
        refuse_channel_posts(h)
        ix = await h.slash(player, CHANNEL, "projectl play undo")
        assert replies(ix)[0].content.startswith("Took back `level1`")
        assert private_word(ix) == texts.CANNOT_POST_DECISION  # not a bug's apology, and logged as none
        game = await game_of(h)
        assert await h.bot.manager.log(game.id) == []  # type: ignore[attr-defined]


async def test_a_plan_saved_then_a_fault_says_it_stands(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        await start_game(h)
        mover = await current_user(h)
        planner = next(u for u in (h.user("alice"), h.user("bob")) if u.id != mover.id)
        storage = h.bot.storage  # type: ignore[attr-defined]
        monkeypatch.setattr(storage, "upsert_player", failing(FULL))  # after the plan is kept
        with h.expect_errors():
            ix = await h.slash(planner, CHANNEL, "projectl-plan set", actions="level1; level1")
        monkeypatch.undo()
        assert private_word(ix) == texts.STORAGE_FAULT_AFTER_COMMIT["full"]
        shown = final_reply(await h.slash(planner, CHANNEL, "projectl-plan show")).content
        assert "2. `level1`" in shown
