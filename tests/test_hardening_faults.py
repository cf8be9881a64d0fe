"""Storage faults are told as what they are, and a failure after a commit never hides the
commit (issue 24, items 3 and 7). On both storage back ends where storage is involved.

A full disk, a SQLite file another program holds past the busy timeout, a PostgreSQL server
that is gone: the player hears what it is and whom to tell, in their language, and the log gets
one line, not one per request. When something fails after the player's change was committed
(saving where the turn post is, an AI seat's move), the reply says the action stands.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember
from test_bot_support import bot_of, final_reply, open_table, replies, running_bot

from bot.core.play.manager import Game
from bot.core.storage.faults import Fault, FaultLog, storage_fault
from bot.core.wording import texts
from bot.core.wording.locales import t

FULL = sqlite3.OperationalError("database or disk is full")


def disk_full(storage_target: str) -> Exception:
    """The exception each back end raises when its disk is full."""
    if storage_target.startswith("postgresql"):
        import asyncpg

        return asyncpg.exceptions.DiskFullError('could not extend file "base/16384/2619": No space left')
    return FULL


async def game_here(h: DiscordHarness) -> Game:
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None
    return game


async def current_player(h: DiscordHarness, players: list[FakeMember]) -> FakeMember:
    game = await game_here(h)
    assert game.current is not None
    return next(p for p in players if p.id == game.current.user_id)


def fault_lines(errors: list[Any]) -> list[Any]:
    return [e for e in errors if "storage fault" in str(e)]


def test_the_faults_are_recognised_on_both_back_ends() -> None:
    import asyncpg

    assert storage_fault(FULL) is Fault.FULL
    assert storage_fault(sqlite3.OperationalError("database is locked")) is Fault.LOCKED
    assert storage_fault(OSError(28, "No space left on device")) is Fault.FULL
    assert storage_fault(asyncpg.exceptions.DiskFullError("no space")) is Fault.FULL
    assert storage_fault(asyncpg.exceptions.ConnectionDoesNotExistError("closed")) is Fault.UNREACHABLE
    assert storage_fault(asyncpg.exceptions.AdminShutdownError("terminating")) is Fault.UNREACHABLE
    assert storage_fault(asyncpg.exceptions.InterfaceError("connection is closed")) is Fault.UNREACHABLE
    wrapped = RuntimeError("while committing")
    wrapped.__cause__ = FULL
    assert storage_fault(wrapped) is Fault.FULL
    assert storage_fault(ValueError("a bug")) is None
    assert storage_fault(sqlite3.IntegrityError("UNIQUE constraint failed")) is None


def test_a_fault_is_logged_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    faults = FaultLog(every=60, clock=lambda: now[0])
    for _ in range(50):
        faults.note(Fault.FULL, FULL)
    faults.note(Fault.LOCKED, FULL)
    now[0] = 61
    faults.note(Fault.FULL, FULL)
    lines = [r.getMessage() for r in caplog.records if "storage fault" in r.getMessage()]
    assert len(lines) == 3 and "49 more request(s)" in lines[2]


async def test_a_full_disk_is_told_as_such_and_logged_once(storage_target: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(storage_target) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        before = await game_here(h)
        player = await current_player(h, [ann, bob])
        full = disk_full(storage_target)

        async def no_space(*args: Any, **kwargs: Any) -> Any:
            raise full

        monkeypatch.setattr(bot_of(h).storage, "commit_action", no_space)
        with h.expect_errors() as errors:
            english = [await h.slash(player, "games", "projectl play level1") for _ in range(3)]
            portuguese = await h.slash(player, "games", "projectl play level1", locale="pt-BR")
        for ix in english:
            reply = final_reply(ix)
            assert reply.ephemeral and reply.content == texts.STORAGE_FAULT["full"]
        shown = final_reply(portuguese).content
        assert shown == t("STORAGE_FAULT.full", "pt-BR") != texts.STORAGE_FAULT["full"]
        assert len(fault_lines(errors)) == 1  # four requests, one line in the log
        assert (await game_here(h)).revision == before.revision  # nothing was changed, as said
        monkeypatch.undo()
        assert final_reply(await h.slash(player, "games", "projectl play level1")).content.startswith("Done:")


async def test_a_sqlite_file_locked_past_the_busy_timeout_is_told_as_such(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    async with running_bot(path) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        player = await current_player(h, [ann, bob])
        await bot_of(h).storage._db.execute("PRAGMA busy_timeout=50")  # noqa: SLF001 - not 5 s in a test
        other = sqlite3.connect(path, isolation_level=None)  # another program holds the write lock
        other.execute("BEGIN IMMEDIATE")
        try:
            with h.expect_errors() as errors:
                locked = [await h.slash(player, "games", "projectl play level1") for _ in range(2)]
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [final_reply(ix).content for ix in locked] == [texts.STORAGE_FAULT["locked"]] * 2
        assert len(fault_lines(errors)) == 1
        assert final_reply(await h.slash(player, "games", "projectl play level1")).content.startswith("Done:")


async def test_a_postgresql_server_that_is_gone_is_told_as_such(postgres_url: str) -> None:
    import asyncpg

    async with running_bot(postgres_url) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        player = await current_player(h, [ann, bob])
        base, _, name = postgres_url.rpartition("/")
        admin = await asyncpg.connect(f"{base}/postgres")  # what a server going down does to the bot
        try:
            await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                " WHERE datname = $1", name)
        finally:
            await admin.close()
        with h.expect_errors() as errors:
            gone = [await h.slash(player, "games", "projectl play level1") for _ in range(3)]
            status = await h.slash(bob, "games", "projectl status")
        for ix in (*gone, status):
            assert final_reply(ix).ephemeral and final_reply(ix).content == texts.STORAGE_FAULT["unreachable"]
        assert len(fault_lines(errors)) == 1


# -- item 3: after the commit, the truth ------------------------------------------------------------


async def end_the_turn(h: DiscordHarness, player: FakeMember) -> list[Any]:
    return [await h.slash(player, "games", "projectl play level1") for _ in range(3)]


async def test_saving_the_turn_posts_place_is_retried_once(storage_target: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(storage_target) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        storage = bot_of(h).storage
        real, failures = storage.set_message_ids, []

        async def fails_once(*args: Any, **kwargs: Any) -> Any:
            if not failures:
                failures.append(1)
                raise disk_full(storage_target)
            return await real(*args, **kwargs)

        monkeypatch.setattr(storage, "set_message_ids", fails_once)
        turn = await end_the_turn(h, await current_player(h, [ann, bob]))
        assert failures and [r.content for r in replies(turn[-1])][-1].startswith("Done:")
        post = h.channel_messages("games")[-1]
        assert (await game_here(h)).table_message_id == post.id  # saved on the second try


async def test_a_storage_failure_after_the_commit_says_the_action_stands(
        storage_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(storage_target) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        before = await game_here(h)
        full = disk_full(storage_target)

        async def no_space(*args: Any, **kwargs: Any) -> Any:
            raise full

        monkeypatch.setattr(bot_of(h).storage, "set_message_ids", no_space)
        player = await current_player(h, [ann, bob])
        with h.expect_errors() as errors:
            turn = await end_the_turn(h, player)
        said = [r.content for r in replies(turn[-1])]
        assert said[0].startswith("Done:") and said[-1] == texts.STORAGE_FAULT_AFTER_COMMIT["full"]
        assert not any("nothing was changed" in text for text in said)
        assert (await game_here(h)).revision == before.revision + 3  # the action stands
        assert "it's your turn" in h.channel_messages("games")[-1].content  # and the turn was posted
        assert len(fault_lines(errors)) == 1


async def test_an_ai_move_that_cannot_be_saved_leaves_the_players_action_standing(
        storage_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(storage_target) as h:
        ann = h.add_user("Ann")
        await open_table(h, ann, [], ai=1)  # the AI's first turn, if it starts, is played at once
        storage = bot_of(h).storage
        real = storage.commit_action
        full = disk_full(storage_target)

        async def ai_has_no_space(game_id: int, revision: int, *, user_id: int | None, **kwargs: Any) -> Any:
            if user_id is None:
                raise full
            return await real(game_id, revision, user_id=user_id, **kwargs)

        monkeypatch.setattr(storage, "commit_action", ai_has_no_space)
        before = await game_here(h)
        with h.expect_errors():
            turn = await end_the_turn(h, ann)
        said = [r.content for r in replies(turn[-1])]
        assert said[0].startswith("Done:") and said[-1] == texts.STORAGE_FAULT_AFTER_COMMIT["full"]
        after = await game_here(h)
        assert after.revision == before.revision + 3 and after.current is not None
        assert after.current.user_id is None  # the AI's turn, to be played when storage is back


async def test_an_ai_turn_a_fault_stopped_is_played_when_a_player_finds_it_waiting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI's move could not be saved (the disk was full); the disk is freed, but nothing
    plays the AI until the bot restarts: every player is told "Easy AI 1 is playing" for ever.
    Now the first player refused because the AI holds the move sets it going: its turn is
    posted, pinging whoever is next."""
    async with running_bot(tmp_path / "stalled.sqlite3") as h:
        ann = h.add_user("Ann")
        await open_table(h, ann, [], ai=1)
        storage = bot_of(h).storage
        real, full = storage.commit_action, {"now": True}

        async def ai_has_no_space(game_id: int, revision: int, *, user_id: int | None, **kwargs: Any) -> Any:
            if user_id is None and full["now"]:
                raise FULL
            return await real(game_id, revision, user_id=user_id, **kwargs)

        monkeypatch.setattr(storage, "commit_action", ai_has_no_space)
        with h.expect_errors():
            await end_the_turn(h, ann)
        stalled = await game_here(h)
        assert stalled.current is not None and stalled.current.user_id is None
        full["now"] = False  # the disk is freed; the bot was not restarted
        posts = len(h.channel_messages("games"))
        ix = await h.slash(ann, "games", "projectl play level1")
        assert "Easy AI 1" in final_reply(ix).content and final_reply(ix).ephemeral
        after = await game_here(h)
        assert after.current is not None and after.current.user_id == ann.id  # the AI has played
        assert after.revision > stalled.revision
        post = h.channel_messages("games")[-1]
        assert len(h.channel_messages("games")) == posts + 1 and post.filenames == ["table.png"]
        assert "**Easy AI 1**: `" in post.content and f"<@{ann.id}>" in post.content
        assert await bot_of(h).manager.verify(after.id)
