"""100 channels press Start at once: is every click acknowledged within Discord's 3 seconds?

Through the offline harness with the bot's own renderer (the process pool): 100 lobbies, each a
human host and an AI seat, then all 100 Start clicks are delivered together. Timed per click:
from delivering it to the bot's interaction callback (the acknowledgement; budget 3 s, the
deadline Discord enforces) and to the table post with its image (the AI's first moves included,
which run after the acknowledgement).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.core.rendering.render import ProcessRenderer, Renderer

from .harnessed import running


async def start_latencies(workdir: Path, channels: int = 100, seed: int = 9,
                          renderer: Renderer | None = None) -> tuple[list[float], list[float]]:
    """(acknowledgement ms, table post ms) per Start click, ``channels`` clicks at once."""
    acks: dict[int, float] = {}
    async with running(workdir / "lobby.sqlite3", renderer=renderer or ProcessRenderer(), seed=seed) as h:
        original = h.api.handle_webhook

        async def timed(route: Any, **kwargs: Any) -> Any:
            if route.path.endswith("/callback"):
                acks.setdefault(int(route.url.split("/interactions/")[1].split("/")[0]), time.perf_counter())
            return await original(route, **kwargs)

        h.api.handle_webhook = timed
        ready = getattr(h.bot.renderer, "ready", None)
        if ready is not None:  # the render workers warmed, as a while after the bot's start-up
            await ready()
        host = h.add_user("host")
        lobbies = []
        for number in range(channels):
            channel = h.add_channel(f"lobby-{number}")
            await h.settle()
            lobby = (await h.slash(host, channel, "projectl table new", players=2)).original
            game_id = lobby.buttons[0].custom_id.split(":")[-1]
            await h.click(host, lobby, f"pl:lobby:ai:{game_id}")
            lobbies.append((channel, lobby, game_id))
        sent: dict[int, float] = {}
        clicks = []
        for channel, lobby, game_id in lobbies:
            sent_at = time.perf_counter()
            ix = await h.click(host, lobby, f"pl:lobby:start:{game_id}", settle=False)
            sent[ix.id] = sent_at
            clicks.append((channel, ix))
        posted: dict[int, float] = {}
        deadline = time.perf_counter() + 120
        while len(posted) < len(clicks) and time.perf_counter() < deadline:
            for channel, ix in clicks:
                if ix.id not in posted and any(m.files for m in h.channel_messages(channel)):
                    posted[ix.id] = time.perf_counter()
            await asyncio.sleep(0.005)
        await h.settle()
    ack_ms = [(acks[ix.id] - sent[ix.id]) * 1000 for _, ix in clicks]
    post_ms = [(posted[ix.id] - sent[ix.id]) * 1000 for _, ix in clicks]
    return ack_ms, post_ms
