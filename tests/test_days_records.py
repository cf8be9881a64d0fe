"""Undo, the paged log, the end-of-game summary and per-server statistics, through the harness."""

from __future__ import annotations

from pathlib import Path

from days_support import CHANNEL, START, act, current_user, days, days_bot, game_of, start_game, tick
from harness import DiscordHarness
from positions import play_out
from test_bot_support import assert_refused, final_reply

from bot.core.clock import ManualClock
from bot.core.play.manager import Game


async def play_actions(h: DiscordHarness, count: int | None = None, *, seed: int = 1) -> Game:
    """Play ``count`` actions (all, to the end, when None) of a progressing game, each as the
    current player — through the manager, so long games stay fast."""
    game = await game_of(h)
    assert game.state is not None
    _, actions = play_out(game.state, seed)
    manager = h.bot.manager  # type: ignore[attr-defined]
    for action in actions[:count]:
        game = await manager.game(game.id)
        assert game.current is not None and game.current.user_id is not None
        await manager.act(game.channel_id, game.current.user_id, action)
    await h.settle()
    final = await manager.game(game.id)
    assert final is not None
    return final


async def test_undo_own_last_action_then_play_on(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        player = await current_user(h)
        before = await game_of(h)
        await act(h, player, "level1")
        ix = await h.slash(player, CHANNEL, "projectl play undo")
        reply = final_reply(ix)
        assert reply.ephemeral and reply.content.startswith("Took back `level1`. 3 action(s) left")
        assert reply.filenames == ["mat.png"]
        assert "took back their last action (`level1`)" in h.channel_messages(CHANNEL)[-1].content
        after = await game_of(h)
        assert after.state == before.state and after.revision == before.revision + 2
        manager = h.bot.manager  # type: ignore[attr-defined]
        assert await manager.log(after.id) == [] and await manager.verify(after.id)
        [undone] = await days(h).store.undone_actions(after.id)
        assert (undone.seq, undone.action, undone.undone_by) == (1, "level1", player.id)
        await act(h, player, "level1")                 # play on: seq 1 is reused by the new action
        assert [r.seq for r in await manager.log(after.id)] == [1]
        assert await manager.verify(after.id)
        await h.slash(player, CHANNEL, "projectl play undo")  # again: still their own last action
        assert await manager.log(after.id) == []
        assert [u.seq for u in await days(h).store.undone_actions(after.id)] == [1, 1]


async def test_undo_refused_after_hidden_information(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        player = await current_user(h)
        assert_refused(await h.slash(player, CHANNEL, "projectl play undo"), "nothing to take back")
        await act(h, player, "draw white")              # a blind draw
        revision = (await game_of(h)).revision
        assert_refused(await h.slash(player, CHANNEL, "projectl play undo"), "draw white", "revealed a card")
        await act(h, player, "take black 1")             # taking from a row refills it
        assert_refused(await h.slash(player, CHANNEL, "projectl play undo"), "revealed a card")
        assert (await game_of(h)).revision == revision + 1


async def test_undo_of_a_turn_end_and_refused_once_the_next_player_acted(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        for _ in range(3):
            await act(h, first, "level1")
        second = await current_user(h)
        assert second.id != first.id
        ix = await h.slash(first, CHANNEL, "projectl play undo")   # the next player has not acted yet
        assert final_reply(ix).content.startswith("Took back `level1`. 1 action(s) left")
        assert (await current_user(h)).id == first.id
        clock.advance(hours=1)
        assert await tick(h) == 0 and h.dms_to(second) == []   # their turn was taken back: no DM
        await act(h, first, "level1")
        await act(h, second, "level1")
        assert_refused(await h.slash(first, CHANNEL, "projectl play undo"), "only take back your own",
                       second.name)
        game = await game_of(h)
        assert await h.bot.manager.verify(game.id)  # type: ignore[attr-defined]


async def test_log_pages_with_prev_and_next(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        await play_actions(h, 20)
        player = await current_user(h)
        await act(h, player, "level1")
        await h.slash(player, CHANNEL, "projectl play undo")
        eve = h.add_user("eve")                                # anyone in the channel may read it
        ix = await h.slash(eve, CHANNEL, "projectl log")
        reply = final_reply(ix)
        assert reply.ephemeral
        [page] = reply.embeds
        assert page.title.endswith("actions 16–20 of 20, 1 taken back (page 2/2)")
        lines = page.description.splitlines()
        assert len(lines) == 6 and "~~" in lines[-1] and "(taken back)" in lines[-1]
        prev, following = reply.buttons
        assert following.disabled and not prev.disabled
        ix = await h.click(eve, reply.message, prev.custom_id)
        shown = h.last_response(ix)
        [first_page] = shown.embeds
        assert first_page.title.endswith("actions 1–15 of 20, 1 taken back (page 1/2)")
        first_lines = first_page.description.splitlines()
        assert len(first_lines) == 15 and first_lines[0].startswith("`#1` R1 **")
        ix = await h.slash(eve, CHANNEL, "projectl log", page=1)
        assert final_reply(ix).embeds[0].description == first_page.description


async def test_summary_after_the_game_and_server_stats(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, ("alice", "bob", "carol")) as h:
        alice, bob = h.user("alice"), h.user("bob")
        assert final_reply(await h.slash(alice, CHANNEL, "projectl stats")).embeds[0].description \
            == "No finished games in this server yet."
        await start_game(h)
        finished = await play_actions(h)
        assert finished.status == "finished"
        ix = await h.slash(bob, CHANNEL, "projectl log")
        reply = final_reply(ix)
        page, summary = reply.embeds
        assert summary.title == f"Game {finished.id} — final summary"
        assert "**alice**:" in summary.description and "**bob**:" in summary.description
        assert "Winner:" in summary.description and "completed" in summary.description
        assert reply.filenames == ["results.png"]
        # A second game, which ends when one of the two players leaves.
        await start_game(h, host="bob", others=("carol",))
        ix = await h.slash(h.user("carol"), CHANNEL, "projectl table leave")
        await h.click(h.user("carol"), final_reply(ix).message, final_reply(ix).buttons[0].custom_id)
        ix = await h.slash(h.user("carol"), CHANNEL, "projectl stats")
        stats, rated = final_reply(ix).embeds
        assert rated.title == "Ratings in this server"
        ratings = {line.split("**")[1]: line for line in rated.description.splitlines()}
        assert set(ratings) == {"alice", "bob", "carol"} and "rated games: 2" in ratings["bob"]
        assert ratings["bob"].endswith(tuple("0123456789")) and "?" in ratings["carol"]  # provisional
        assert stats.title == "Project L in this server — 2 finished game(s)"
        lines = {line.split("**")[1]: line for line in stats.description.splitlines()}
        assert set(lines) == {"alice", "bob", "carol"}
        assert "left 1" in lines["carol"] and "average –" in lines["carol"]
        assert "2 played" in lines["bob"] and "1 played" in lines["alice"]
        won = 1 + ("Winner: bob" in summary.description)
        assert f"{won} won" in lines["bob"]
