"""The renderer heals, and a committed action is never reported as lost (issue 24, item 2).

A render worker process can die (the kernel's OOM killer, a crash in a native library). That
breaks the whole process pool; the bot starts a new one and draws the image again. If an image
still cannot be drawn, the turn is posted as text and the player hears that their action stands.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember, eventually
from test_bot_support import (
    TOKEN,
    FakeRenderer,
    bot_factory,
    bot_of,
    final_reply,
    is_png,
    open_table,
    running_bot,
)

import engine
from bot.core.rendering.render import ProcessRenderer
from bot.core.wording import texts
from bot.discord import turns
from engine.policies import policy_by_name
from renders.samples import names_for, play


async def end_a_turn(h: DiscordHarness, users: dict[int, FakeMember]) -> Any:
    """The current player plays greedy moves until their turn is over; the last interaction."""
    policy = policy_by_name("greedy", 5)
    manager = bot_of(h).manager
    channel = h.channel("games")
    game = await manager.game_in_channel(channel.id)
    assert game is not None and game.current is not None
    player = game.current.user_id
    last = None
    while True:
        game = await manager.game_in_channel(channel.id)
        assert game is not None and game.state is not None and game.current is not None
        if game.current.user_id != player:
            return last
        action = policy.choose(game.state)
        last = await h.slash(users[player], "games", "projectl play act", text=str(action))


def turn_posts(h: DiscordHarness) -> list[Any]:
    return [m for m in h.channel_messages("games") if "table.png" in [name for name, _ in m.files]
            or texts.IMAGE_MISSING in m.content]


@pytest.mark.asyncio
async def test_a_killed_render_worker_is_replaced_and_the_turn_is_posted(tmp_path: Path) -> None:
    renderer = ProcessRenderer(workers=1)
    factory = bot_factory(tmp_path / "db.sqlite", renderer=renderer)  # type: ignore[arg-type]
    async with DiscordHarness(bot_factory=factory, token=TOKEN, trap_loggers=("discord", "bot"),
                              settle_timeout=120) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        users = {ann.id: ann, bob.id: bob}
        await open_table(h, ann, [bob])
        await end_a_turn(h, users)
        posted = len(turn_posts(h))
        worker = renderer._workers[0]
        assert worker is not None and worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)  # what the OOM killer does
        await eventually(lambda: worker.broken)  # the event loop reads the end of its socket

        last = await end_a_turn(h, users)
        reply = final_reply(last)
        assert "Done:" in reply.content and "nothing was changed" not in reply.content
        assert [name for name, data in reply.files if is_png(data)] == ["mat.png"]  # drawn again
        post = h.channel_messages("games")[-1]
        assert len(turn_posts(h)) == posted + 1
        assert [name for name, data in post.files if is_png(data)] == ["table.png"]
        assert renderer._workers[0] is not None and renderer._workers[0] is not worker  # a new one drew them
        await end_a_turn(h, users)  # and it keeps drawing
        assert [n for n, _ in h.channel_messages("games")[-1].files] == ["table.png"]


@pytest.mark.asyncio
async def test_a_worker_killed_while_drawing_is_replaced_and_the_image_drawn_again(
        caplog: pytest.LogCaptureFixture) -> None:
    """The render in flight when its worker dies is drawn again, once, by a new worker; the
    render after it goes to the new worker too. (The recap: hundreds of milliseconds of drawing,
    so the worker is surely killed before it answers.)"""
    states = list(play(engine.Options(players=2), 5))[::8]
    names = names_for(states[-1])
    scores = [[0, 0] for _ in states]
    renderer = ProcessRenderer(workers=1)
    try:
        await renderer.ready()
        worker = renderer._workers[0]
        assert worker is not None and worker.pid is not None
        drawing = asyncio.ensure_future(renderer.recap(states, names, scores, None))
        await asyncio.sleep(0)  # the job is on its way to the worker
        os.kill(worker.pid, signal.SIGKILL)
        assert is_png(await drawing)
        assert "a render worker died" in caplog.text
        again = renderer._workers[0]
        assert again is not None and again is not worker and again.pid != worker.pid
        assert is_png(await renderer.table(states[-1], names))
        assert renderer._workers[0] is again
    finally:
        await renderer.close()
    assert not worker.process.is_alive() and again is not None and not again.process.is_alive()


class BrokenRenderer(FakeRenderer):
    """Every image fails, as if the renderer could not be repaired."""

    async def table(self, *args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("no image today")

    async def mat(self, *args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("no image today")


@pytest.mark.asyncio
async def test_a_turn_whose_image_cannot_be_drawn_is_posted_as_text_and_the_action_stands(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite", renderer=BrokenRenderer()) as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        with h.expect_errors():  # each failed drawing is logged as the error it is
            await open_table(h, ann, [bob])
            before = await bot_of(h).manager.game_in_channel(h.channel("games").id)
            last = await end_a_turn(h, {ann.id: ann, bob.id: bob})
        after = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert before is not None and after is not None and after.revision == before.revision + 3
        reply = final_reply(last)
        assert reply.content.startswith("Done:") and texts.IMAGE_MISSING in reply.content
        assert "nothing was changed" not in reply.content and not reply.files
        post = h.channel_messages("games")[-1]
        assert texts.IMAGE_MISSING in post.content and not post.files
        assert post.content.count("`") >= 6 and "it's your turn" in post.content  # moves, who is next


@pytest.mark.asyncio
async def test_an_error_after_the_commit_never_says_nothing_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken_post(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the turn post failed")

    async with running_bot(tmp_path / "db.sqlite") as h:
        ann, bob = h.add_user("Ann"), h.add_user("Bob")
        await open_table(h, ann, [bob])
        monkeypatch.setattr(turns, "post_turn", broken_post)
        before = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        with h.expect_errors():
            last = await end_a_turn(h, {ann.id: ann, bob.id: bob})
        after = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert before is not None and after is not None and after.revision == before.revision + 3
    text = final_reply(last).content
    assert "nothing was changed" not in text and text == texts.FAILED_AFTER_COMMIT
