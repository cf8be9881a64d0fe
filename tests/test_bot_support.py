"""Shared helpers for the bot tests (tests/test_bot_*.py): building the bot for the harness,
reading what Discord received, and driving moves through the real commands and buttons.

Not a conftest on purpose: the other test suites do not need any of this.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from harness import DiscordHarness, FakeMember, InteractionRecord, MessageRecord

from bot.core.clock import ManualClock
from bot.core.config import Settings
from bot.core.rendering.render import Renderer
from bot.core.wording.locales import locale_code
from bot.discord.app import ProjectLBot, create_bot
from engine import GameState, Place
from engine.actions import GhostSplit

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def tiny_png(width: int = 2, height: int = 1) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\x00\x80\xff" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return PNG_MAGIC + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class FakeRenderer:
    """Counts calls and returns a tiny valid PNG: full games in tests stay fast. ``locales``
    records each call's language, parallel to ``calls``."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.locales: list[str | None] = []
        self.previous: list[GameState | None] = []  # what each table render was compared with

    def _called(self, call: str, locale: Any) -> None:
        self.calls.append(call)
        self.locales.append(locale_code(locale))

    async def table(self, state: GameState, names: Sequence[str], previous: GameState | None = None, *,
                    locale: Any = None) -> bytes:
        self._called("table", locale)
        self.previous.append(previous)
        return tiny_png(3, 2)

    async def mat(
        self, state: GameState, seat: int, names: Sequence[str], viewer: int | None = None, *,
        locale: Any = None,
    ) -> bytes:
        self._called(f"mat:{seat}", locale)
        return tiny_png(2, 2)

    async def results(self, state: GameState, names: Sequence[str], *, locale: Any = None) -> bytes:
        self._called("results", locale)
        return tiny_png(4, 2)

    async def preview(self, state: GameState, seat: int, place: Place, names: Sequence[str], *,
                      locale: Any = None) -> bytes:
        self._called(f"preview:{place}", locale)
        return tiny_png(2, 3)

    async def master_preview(
        self, state: GameState, seat: int, placements: Sequence[Place], names: Sequence[str], *,
        locale: Any = None,
    ) -> bytes:
        self._called("master:" + "; ".join(p.placement_text() for p in placements), locale)
        return tiny_png(3, 4)

    async def ghost_split(self, split: GhostSplit, *, locale: Any = None) -> bytes:
        self._called(f"ghost:{split}", locale)
        return tiny_png(3, 3)


def settings_for(db_path: Path | str) -> Settings:
    # No wall-clock budget for the AI seats: their moves stay the same on a busy machine.
    return Settings(token=TOKEN, db_path=str(db_path), dev_guild_id=None, log_level="DEBUG",
                    ai_turn_seconds=None)


def bot_factory(db_path: Path | str, *, renderer: Renderer | None = None, seed: int = 1234,
                clock: ManualClock | None = None) -> Any:
    def make() -> ProjectLBot:
        return create_bot(settings_for(db_path), clock=clock or ManualClock(),
                          renderer=renderer or FakeRenderer(), seed_source=lambda: seed)
    return make


@asynccontextmanager
async def running_bot(db_path: Path | str, **kwargs: Any) -> AsyncIterator[DiscordHarness]:
    async with DiscordHarness(bot_factory=bot_factory(db_path, **kwargs), token=TOKEN,
                              trap_loggers=("discord", "bot")) as h:
        yield h


def bot_of(h: DiscordHarness) -> ProjectLBot:
    return h.bot  # type: ignore[return-value]


def is_png(data: bytes) -> bool:
    return data.startswith(PNG_MAGIC)


def replies(ix: InteractionRecord) -> list[Any]:
    """Responses that carry a message (skip the bare deferral)."""
    return [r for r in ix.responses if r.kind != "callback" or r.callback_type not in (5, 6)]


def final_reply(ix: InteractionRecord) -> Any:
    found = replies(ix)
    assert found, f"no reply to {ix}"
    return found[-1]


def assert_refused(ix: InteractionRecord, *fragments: str) -> str:
    """The interaction got exactly an ephemeral message (no files) containing the fragments."""
    reply = final_reply(ix)
    assert reply.ephemeral, f"refusal should be ephemeral: {reply.content!r}"
    assert not reply.files
    text = reply.content or ""
    for fragment in fragments:
        assert fragment.lower() in text.lower(), f"{fragment!r} not in {text!r}"
    return text


def last_channel_post(h: DiscordHarness, channel: str = "games") -> MessageRecord:
    return h.channel_messages(channel)[-1]


async def open_table(h: DiscordHarness, host: FakeMember, others: Sequence[FakeMember], *,
                     channel: str = "games", ai: int = 0, casual: bool = False,
                     **options: Any) -> MessageRecord:
    """/projectl table new, everyone joins, AI seats added, host starts. Returns the lobby message.
    ``casual``: the host makes the table casual first (a rated multiplayer table refuses hints)."""
    ix = await h.slash(host, channel, "projectl table new", **options)
    lobby = ix.original
    assert lobby is not None
    if casual:
        await h.slash(host, channel, "projectl-games rated", value=False)
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    for user in others:
        await h.click(user, lobby, f"pl:lobby:join:{game_id}")
    for _ in range(ai):
        await h.click(host, lobby, f"pl:lobby:ai:{game_id}")
    await h.click(host, lobby, f"pl:lobby:start:{game_id}")
    return lobby


async def cancel_table(h: DiscordHarness, user: Any, channel: Any, **options: Any) -> InteractionRecord:
    """``/projectl table cancel`` as ``user``, confirming with "Cancel the game" when the game is in
    play and the bot asks first; the last interaction (the confirm's, or the command's)."""
    ix = await h.slash(user, channel, "projectl table cancel", **options)
    asked = replies(ix)[-1] if replies(ix) else None
    buttons = getattr(asked, "buttons", None) or []
    if buttons and buttons[0].custom_id.startswith("plt:cancel:yes:"):
        ix = await h.click(user, asked.message, buttons[0].custom_id, locale=options.get("locale", "en-US"))
    return ix
