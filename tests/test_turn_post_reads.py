"""A turn post's reads reach the database together: the turn's earlier actions and whether the
next player wants a ping are one wake-up of the connection's thread, not two in turn (each a
hop the post waits for; milliseconds whenever the machine's cores are busy)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from days_support import START, act, current_user, days, days_bot, game_of, start_game
from test_bot_support import final_reply

from bot.core.clock import ManualClock


async def test_the_turn_posts_two_reads_are_in_flight_together(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        storage = h.bot.manager.storage  # type: ignore[attr-defined]
        job = storage.job
        in_flight: list[str] = []
        overlapped: list[tuple[str, ...]] = []

        async def counted(work: Any) -> Any:
            name = getattr(work, "__qualname__", "")
            in_flight.append(name)
            overlapped.append(tuple(in_flight))
            try:
                return await job(work)
            finally:
                in_flight.remove(name)

        storage.job = counted
        game = await game_of(h)
        while game.current is not None and game.current.user_id == first.id:
            await act(h, first, "level1")
            game = await game_of(h)
        post = h.channel_messages("games")[-1]
        second = game.current
        assert second is not None and second.user_id != first.id
        assert f"<@{second.user_id}>" in post.content  # the ping wanted by default
        assert post.content.count("level1") >= 2, post.content  # the turn's earlier actions, then the last
        assert any(any("last_actions" in n for n in names) and any("get_player" in n for n in names)
                   for names in overlapped), overlapped


async def test_a_turn_ends_images_are_drawing_while_the_new_turns_row_is_written(tmp_path: Path) -> None:
    """The table and the actor's mat are handed to the renderer as soon as the action is
    committed, before the after-commit hooks write the next player's turn row (a storage job
    the images need not wait for); the post and the reply carry them as before."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        await start_game(h)
        first = await current_user(h)
        order: list[str] = []
        renderer = h.bot.renderer  # type: ignore[attr-defined]

        def recorded(name: str) -> Any:
            draw = getattr(renderer, name)

            def called(*args: Any, **kwargs: Any) -> Any:  # the moment the image is handed over
                order.append(name)
                return draw(*args, **kwargs)
            return called

        renderer.table, renderer.mat = recorded("table"), recorded("mat")
        store = days(h).store
        start_turn = store.start_turn

        async def starting(*args: Any, **kwargs: Any) -> Any:
            order.append("turn row")
            return await start_turn(*args, **kwargs)

        store.start_turn = starting  # type: ignore[method-assign]
        game = await game_of(h)
        while game.current is not None and game.current.user_id == first.id:
            order.clear()
            ix = await act(h, first, "level1")
            game = await game_of(h)
        assert order == ["table", "mat", "turn row"], order
        assert final_reply(ix).filenames == ["mat.png"]
        post = h.channel_messages("games")[-1]
        assert post.filenames == ["table.png"]
        turn = await store.open_turn_of(game.id)
        assert turn is not None and game.current is not None and turn.user_id == game.current.user_id
