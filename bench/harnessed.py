"""The production bot inside the offline Discord harness, for hardening tests and the bench.

Same ``create_bot`` as ``python -m bot``; injected are a manual clock, a fixed seed, the bench's
policy seats (so AI seats do not depend on optional engine policies) and a renderer — the real
threaded one for benchmarks, a tiny-PNG one for tests that play hundreds of moves.
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.core.clock import ManualClock
from bot.core.config import Settings
from bot.core.rendering.render import Renderer
from bot.discord.app import ProjectLBot, create_bot
from engine import GameState, Place
from engine.actions import GhostSplit

from .players import policy_factory

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
TESTS = Path(__file__).resolve().parent.parent / "tests"


def tiny_png() -> bytes:
    """A valid 1×1 PNG, so attachments look like images without the cost of drawing."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff"))
            + chunk(b"IEND", b""))


class TinyRenderer:
    """Renderer stand-in: a 1×1 PNG for everything (tests that play whole games stay fast)."""

    async def table(self, state: GameState, names: Sequence[str], previous: GameState | None = None, *,
                    locale: Any = None) -> bytes:
        return tiny_png()

    async def mat(
        self, state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, *,
        locale: Any = None,
    ) -> bytes:
        return tiny_png()

    async def results(self, state: GameState, names: Sequence[str], *, locale: Any = None) -> bytes:
        return tiny_png()

    async def preview(self, state: GameState, seat: int, place: Place, names: Sequence[str], *,
                      locale: Any = None) -> bytes:
        return tiny_png()

    async def master_preview(
        self, state: GameState, seat: int, placements: Sequence[Place], names: Sequence[str], *,
        locale: Any = None,
    ) -> bytes:
        return tiny_png()

    async def ghost_split(self, split: GhostSplit, *, locale: Any = None) -> bytes:
        return tiny_png()


def bot_factory(db_path: str | Path, *, seed: int = 1234, renderer: Renderer | None = None,
                clock: ManualClock | None = None) -> Callable[[], ProjectLBot]:
    settings = Settings(token=TOKEN, db_path=str(db_path), dev_guild_id=None, log_level="INFO")

    def make() -> ProjectLBot:
        return create_bot(settings, clock=clock or ManualClock(), renderer=renderer or TinyRenderer(),
                          seed_source=lambda: seed, policies=policy_factory)
    return make


@asynccontextmanager
async def running(db_path: str | Path, **kwargs: Any) -> AsyncIterator[Any]:
    """``async with running(path) as h``: the bot logged in to a fresh offline Discord."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    from harness import DiscordHarness

    async with DiscordHarness(bot_factory=bot_factory(db_path, **kwargs), token=TOKEN,
                              trap_loggers=("discord", "bot")) as h:
        yield h


async def forge_click(h: Any, user: Any, channel: Any, message: Any, custom_id: str,
                      values: list[str] | None = None) -> Any:
    """Click a component with any custom id, as if ``message`` carried it (an old version's
    message, or a tampered client). discord.py only dispatches ids present on the message, so the
    forged component replaces the components of the message copy the interaction carries.
    ``values`` makes it a select-menu choice."""
    kind = 2 if values is None else 3
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is None:
        item: dict[str, Any] = {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}
    else:
        data["values"] = values
        options = [{"label": v or "-", "value": v} for v in values]
        item = {"type": 3, "custom_id": custom_id, "options": options}
    chan = h.channel(channel) if isinstance(channel, str) else channel
    record = h._new_interaction(3, h.user(user), chan, data, message=message)  # noqa: SLF001
    shown = record.payload["message"]
    shown["components"] = [{"type": 1, "components": [item]}]
    shown["flags"] = 0
    return await h._send(record, True)  # noqa: SLF001


async def stale_slash(h: Any, user: Any, channel: str, path: str, options: dict[str, Any] | None = None,
                      *, autocomplete: str | None = None) -> Any:
    """Send ``/path`` as a Discord client with an older command list would: the harness's schema
    is not consulted, so the command or its options may no longer exist, and values are not held
    to the synced ranges (str, int and bool options; ``autocomplete`` names the focused one)."""
    root, *subs = path.split()
    kinds = {bool: 5, int: 4, str: 3}
    items: list[dict[str, Any]] = [
        {"type": kinds[type(value)], "name": name, "value": value,
         **({"focused": True} if name == autocomplete else {})}
        for name, value in (options or {}).items()]
    for name in reversed(subs):
        items = [{"type": 1 if name == subs[-1] else 2, "name": name, "options": items}]
    known = next(c for c in h.commands if c["name"] == root)
    data = {"id": known["id"], "name": root, "type": 1, "options": items}
    if known.get("guild_id"):
        data["guild_id"] = known["guild_id"]
    record = h._new_interaction(4 if autocomplete else 2, h.user(user), h.channel(channel), data)  # noqa: SLF001
    return await h._send(record, True)  # noqa: SLF001


async def open_table(h: Any, host: Any, others: list[Any], *, channel: str = "games", players: int = 2,
                     ai: int = 0) -> Any:
    """/projectl table new, the others press Join, the host adds AI seats and presses Start."""
    lobby = (await h.slash(host, channel, "projectl table new", players=players)).original
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    for user in others:
        await h.click(user, lobby, f"pl:lobby:join:{game_id}")
    for _ in range(ai):
        await h.click(host, lobby, f"pl:lobby:ai:{game_id}")
    await h.click(host, lobby, f"pl:lobby:start:{game_id}")
    return await h.bot.manager.game_in_channel(h.channel(channel).id)


async def placement_preview(h: Any, user: Any, channel: str = "games") -> tuple[Any, str]:
    """As the current player: take white 1, open the placement menu for a mono piece on it and
    pick the first spot. Returns the preview message and its Confirm button's custom id."""
    game = await h.bot.manager.game_in_channel(h.channel(channel).id)
    card = game.state.table.white_row[0]
    await h.slash(user, channel, "projectl play take", puzzle="white 1")
    menu = (await h.slash(user, channel, "projectl play place", piece="1", puzzle=card)).responses[-1].message
    select = menu.selects[0]
    preview = (await h.select(user, menu, select.custom_id, [select.options[0].value])).responses[-1].message
    return preview, next(b.custom_id for b in preview.buttons if b.custom_id.startswith("pl:do:"))
