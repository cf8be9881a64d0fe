"""The turn panel under load: how fast is each tap acknowledged when 20 channels are busy?

Twenty 2-player games, one per channel, are played at once through the offline harness, every
action by the turn panel alone (Play on the turn post, then menus and buttons — no typing), with
the bot's own renderer (previews, table images, mats at the end of a turn). Each player taps
again as soon as the previous tap was answered. Timed per tap: from the moment the click is sent
to the moment the bot's interaction callback (the acknowledgement Discord waits 3 s for) reaches
the fake Discord. Every tap counts: Play, steps inside the panel, previews and actions.

Also a check of the tap goals per action kind, counted on the same run (taps per action).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from bot.core.play.panel import parse_panel_id
from bot.core.rendering.render import ProcessRenderer, Renderer
from engine.pieces import mask_to_text

from .harnessed import open_table, running
from .players import choose_action

TIMEOUT_S = 120.0
"""When an unanswered tap counts as never answered: a ceiling, not a budget (a busy machine only
makes the bench's test slower)."""


class PanelPlayer:
    """Drives one channel's game by panel taps, recording each tap's acknowledgement time."""

    def __init__(self, h: Any, channel: Any, acks: dict[int, float], timings: list[float],
                 rng: random.Random) -> None:
        self.h, self.channel, self.acks, self.timings, self.rng = h, channel, acks, timings, rng
        self.panel: Any = None
        self.taps_per_kind: dict[str, list[int]] = {}

    async def game(self) -> Any:
        return await self.h.bot.manager.game_in_channel(self.channel.id)

    def _component(self, step: str, arg: str | None = None) -> Any:
        message = self.h.message(self.panel.id)
        for comp in message.components:
            cid = getattr(comp, "custom_id", None) or ""
            parsed = parse_panel_id(cid)
            if parsed is not None and parsed.step == step and (arg is None or parsed.args[:1] == (arg,)):
                return comp
            if step == "confirm" and cid.startswith("pl:do:"):
                return comp
        raise AssertionError(f"no {step} on the panel: {message.content}")

    def _has(self, step: str) -> bool:
        try:
            self._component(step)
        except AssertionError:
            return False
        return True

    async def _send(self, start: Callable[[], Any], done: Callable[[Any], bool]) -> Any:
        sent = time.perf_counter()
        ix = await start()
        began = time.perf_counter()
        while not done(ix):
            if time.perf_counter() - began > TIMEOUT_S:
                raise AssertionError(f"tap not answered: {ix.responses}")
            await asyncio.sleep(0.002)
        self.timings.append((self.acks[ix.id] - sent) * 1000)
        return ix

    @staticmethod
    def _edited(ix: Any) -> bool:
        return any(r.kind in ("edit", "followup") for r in ix.responses)

    async def _acted(self, ix: Any, user_id: int, posts: int) -> bool:
        if not any(r.kind == "followup" for r in ix.responses):
            return False
        game = await self.game()
        if game is None or game.current is None or game.current.user_id == user_id:
            return True
        return len(self._posts()) > posts

    def _posts(self) -> list[Any]:
        return [m for m in self.h.channel_messages(self.channel)
                if any(b.custom_id.startswith("plp:play:") for b in m.buttons)]

    async def step(self, step: str, value: str | None = None) -> Any:
        """A tap that redraws the panel (or shows a preview)."""
        comp = self._component(step)
        user = self.user
        if value is None:
            return await self._send(lambda: self.h.click(user, self.h.message(self.panel.id), comp.custom_id,
                                                         settle=False), self._edited)
        return await self._send(lambda: self.h.select(user, self.h.message(self.panel.id), comp.custom_id,
                                                      [value], settle=False), self._edited)

    async def act(self, step: str, value: str | None = None, arg: str | None = None) -> Any:
        """A tap that plays an action: wait for the confirmation (and the turn post, if any)."""
        comp = self._component(step, arg)
        user, posts = self.user, len(self._posts())
        message = self.h.message(self.panel.id)
        if value is None:
            ix_start = self.h.click(user, message, comp.custom_id, settle=False)
        else:
            ix_start = self.h.select(user, message, comp.custom_id, [value], settle=False)
        sent = time.perf_counter()
        ix = await ix_start
        began = time.perf_counter()
        while not await self._acted(ix, user.id, posts):
            if time.perf_counter() - began > TIMEOUT_S:
                raise AssertionError(f"action not answered: {ix.responses}")
            await asyncio.sleep(0.002)
        self.timings.append((self.acks[ix.id] - sent) * 1000)
        followup = [r for r in ix.responses if r.kind == "followup"][-1]
        if followup.message is not None and followup.components:
            self.panel = followup.message
        return ix

    async def choose_paged(self, step: str, value: str) -> int:
        taps = 0
        for _ in range(20):
            values = [o.value for o in self._component(step).options]
            if value in values:
                return taps
            await self.step(step, values[-1])
            taps += 1
        raise AssertionError(f"{value} never listed")

    async def open(self) -> None:
        posts = self._posts()
        post = posts[-1]
        play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
        user = self.user
        ix = await self._send(lambda: self.h.click(user, post, play.custom_id, settle=False),
                              lambda ix: any(r.kind == "followup" for r in ix.responses))
        self.panel = [r for r in ix.responses if r.kind == "followup"][-1].message

    async def play_turn(self) -> bool:
        game = await self.game()
        if game is None or game.current is None:
            return False
        self.user = self.h.user(game.current.user_id)
        await self.open()
        while True:
            game = await self.game()
            if game is None or game.current is None or game.current.user_id != self.user.id:
                return game is not None and game.status == "active"
            action = choose_action(game.state, self.rng)
            taps = await self.perform(action)
            self.taps_per_kind.setdefault(action.kind, []).append(taps)

    async def perform(self, action: engine.Action) -> int:
        """Make ``action`` by taps; returns how many."""
        if isinstance(action, (engine.TakePuzzle, engine.DrawPuzzle)):
            await self.act("take", str(action))
            return 1
        if isinstance(action, engine.TakeLevelOne):
            await self.act("lvl")
            return 1
        if isinstance(action, (engine.Pass, engine.EndFinishing)):
            await self.act(action.kind)
            return 1
        if isinstance(action, engine.Upgrade):
            await self.step("give", action.give.value)
            await self.act("upg", str(action))
            return 2
        if isinstance(action, engine.Recycle):
            await self.step("rec")
            await self.act("rs", str(action), arg=str(action.colour))
            return 2
        if isinstance(action, engine.Place):
            await self.step("place", action.shape.value)
            asked = self._has("puz")
            if asked:  # the panel asks only when the piece fits on several puzzles
                await self.step("puz", action.card)
            cells = mask_to_text(action.mask)
            pages = await self.choose_paged("at", cells)
            await self.step("at", cells)
            await self.act("confirm")
            return 3 + asked + pages
        if isinstance(action, engine.Master):
            taps = 1
            await self.step("ms")
            for place in action.placements:
                await self.step("mc", place.card)
                await self.step("mp", place.shape.value)
                cells = mask_to_text(place.mask)
                taps += 3 + await self.choose_paged("ma", cells)
                await self.step("ma", cells)
            await self.act("mok")
            return taps + 1
        raise AssertionError(f"no panel path for {action}")


async def panel_ack_latencies(workdir: Path, channels: int = 20, taps: int = 500, seed: int = 5,
                              renderer: Renderer | None = None) -> tuple[list[float], dict[str, list[int]]]:
    """Milliseconds from sending each panel tap to its acknowledgement, with ``channels`` games
    played at once by panel taps; stops after about ``taps`` taps. The renderer is the bot's own
    (a process pool) unless another is given."""
    timings: list[float] = []
    acks: dict[int, float] = {}
    kinds: dict[str, list[int]] = {}
    async with running(workdir / "panel.sqlite3", renderer=renderer or ProcessRenderer(), seed=seed) as h:
        original = h.api.handle_webhook

        async def timed(route: Any, **kwargs: Any) -> Any:
            if route.path.endswith("/callback"):
                interaction_id = int(route.url.split("/interactions/")[1].split("/")[0])
                acks.setdefault(interaction_id, time.perf_counter())
            return await original(route, **kwargs)

        h.api.handle_webhook = timed
        ready = getattr(h.bot.renderer, "ready", None)
        if ready is not None:  # the render workers warmed, as a while after the bot's start-up
            await ready()
        tables = []
        for number in range(channels):
            channel = h.add_channel(f"table-{number}")
            host, guest = h.add_user(f"host{number}"), h.add_user(f"guest{number}")
            await h.settle()
            await open_table(h, host, [guest], channel=channel.name)
            tables.append(channel)

        async def table(number: int, channel: Any) -> None:
            player = PanelPlayer(h, channel, acks, timings, random.Random(seed * 1000 + number))
            while len(timings) < taps and await player.play_turn():
                pass
            for kind, counts in player.taps_per_kind.items():
                kinds.setdefault(kind, []).extend(counts)

        await asyncio.gather(*(table(n, c) for n, c in enumerate(tables)))
        await h.settle()
    return timings, kinds


if __name__ == "__main__":
    import sys
    import tempfile

    from .load import percentile

    with tempfile.TemporaryDirectory() as tmp:
        wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
        found, per_kind = asyncio.run(panel_ack_latencies(Path(tmp), taps=wanted))
    print(f"{len(found)} taps: p50 {percentile(found, 50):.1f} ms, p99 {percentile(found, 99):.1f} ms, "
          f"max {max(found):.1f} ms")
    print({k: max(v) for k, v in per_kind.items()})
