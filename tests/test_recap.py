"""The animated recap (docs/replays.md): frames per round within Discord's 10 MB and 20 s, the
swing move found on constructed leads and named, and the recap posted after the results."""

from __future__ import annotations

import asyncio
from io import BytesIO
from pathlib import Path
from typing import Any

from days_support import CHANNEL, START, days_bot, game_of, start_game
from PIL import Image
from test_bot_support import final_reply
from test_replay import manager, play_mode  # noqa: F401 - the fixture

import engine
import renders
from bot.core.clock import ManualClock
from bot.core.play.manager import GameManager, TableSettings
from bot.core.records import recap
from engine.policies import policy_by_name
from renders.palette import ACCENT, PAGE
from renders.recap import LABEL, MAX_SECONDS, TABLE_WIDTH, durations


def test_the_swing_is_the_biggest_change_of_the_winners_lead() -> None:
    assert recap.biggest_swing([0, 2, 3, -5, -4, 6, 7]) == 4  # -4 -> 6: +10, the biggest either way
    assert recap.biggest_swing([0, 0, -9, -9, 0]) == 1  # the earliest of two equal swings
    assert recap.biggest_swing([3, 3, 3]) is None


def test_the_pace_fits_twenty_seconds() -> None:
    for frames in (1, 5, 12, 40):
        assert sum(durations(frames)) <= MAX_SECONDS * 1000 and len(durations(frames)) == frames


async def test_a_recap_has_a_frame_per_round_and_fits_discord(manager: GameManager) -> None:  # noqa: F811
    game = await play_mode(manager, TableSettings(max_players=4, known_scores=False))
    rows = await manager.log(game.id)
    plan = recap.plan(game, rows)
    assert game.state is not None
    assert len(plan.states) == game.state.round + 1 == len(plan.scores)
    assert plan.scores[-1][:4] == tuple(line.total for line in engine.score_lines(game.state))
    assert plan.swing is not None
    assert rows[[r.action for r in rows].index(plan.swing.action)].seat == plan.swing.seat
    data = renders.render_recap(plan.states, game.names, plan.scores, plan.swing.frame)
    assert len(data) <= 10 * 1024 * 1024
    image = Image.open(BytesIO(data))
    assert image.n_frames == len(plan.states) and getattr(image, "is_animated", False)
    # legible at phone width (shown about half size): the chart is below the table, not beside it,
    # its labels as big as the chat's text, the rounds numbered on its axis
    assert image.width == TABLE_WIDTH and LABEL >= 24
    assert all(state.options.known_scores for state in plan.states)  # the game is over: piles face up
    for k in range(image.n_frames):  # one canvas: no frame leaves a band of the one before (black)
        image.seek(k)
        bottom = image.convert("RGB").crop((0, image.height - 4, TABLE_WIDTH, image.height))
        edge = (PAGE, ACCENT) if k == plan.swing.frame else (PAGE,)  # the swing's frame is gold-edged
        far = [c for _, c in bottom.getcolors(bottom.width * bottom.height) or ()
               if all(max(abs(a - b) for a, b in zip(c, colour, strict=True)) > 12 for colour in edge)]
        assert not far, f"frame {k} ends in {far[:3]}, not the page colour (quantised) {PAGE}"


class WithRecaps:
    """The harness's fake renderer (which draws no recaps, so other tests see none) plus the real
    recap, drawn in this process."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def recap(self, states: Any, names: Any, scores: Any, swing: Any, *, locale: Any = None) -> bytes:
        return renders.render_recap(states, names, scores, swing)


async def test_the_recap_follows_the_results_and_is_there_on_demand(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        h.bot.renderer = WithRecaps(h.bot.renderer)  # type: ignore[attr-defined]
        h.settle_timeout = 120.0  # the last move's recap is drawn in this process, on a shared machine
        await start_game(h)
        game = await game_of(h)
        manager = h.bot.manager  # type: ignore[attr-defined]
        policy = policy_by_name("greedy", 1)
        while (found := await manager.game(game.id)) is not None and found.status != "finished":
            assert found.state is not None and found.current is not None and found.current.user_id
            await h.slash(h.user(found.current.user_id), CHANNEL, "projectl play act",
                          text=str(policy.choose(found.state)))
        for _ in range(600):  # the recap is drawn in the render pool, on a shared machine
            await h.settle()
            posts = h.channel_messages(CHANNEL)
            if posts and posts[-1].filenames == ["recap.png"]:
                break
            await asyncio.sleep(0.1)
        posts = h.channel_messages(CHANNEL)
        assert [p.filenames for p in posts[-2:]] == [["results.png"], ["recap.png"]], \
            [(p.filenames, p.content[:60]) for p in posts[-4:]]
        assert posts[-1].content.startswith(f"**Recap of game {game.id}**")
        assert "The move that swung it: **" in posts[-1].content
        ix = await h.slash(h.user("bob"), CHANNEL, "projectl-games recap", locale="pt-BR")
        reply = final_reply(ix)
        assert reply.ephemeral and reply.filenames == ["recap.png"]
        assert reply.content.startswith(f"**Resumo da partida {game.id}**")
