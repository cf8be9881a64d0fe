"""A gateway connection without a socket.

Instead of ``DiscordWebSocket.from_client`` (which dials Discord), we build
the websocket object over :class:`FakeGatewaySocket` and set the same
attributes ``from_client`` sets, then push raw JSON frames into
``DiscordWebSocket.received_message``. That is the exact entry point real
traffic uses, so parsing, caching, READY sequencing and event dispatch are
all discord.py's own code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket

from .payloads import GATEWAY_URL


class FakeGatewaySocket:
    """Stand-in for ``aiohttp.ClientWebSocketResponse``; records what the bot sends."""

    def __init__(self, on_send: Callable[[dict[str, Any]], None]) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self.close_code: int | None = None
        self._on_send = on_send

    async def send_str(self, data: str, compress: int | None = None) -> None:
        if self.closed:
            raise RuntimeError("websocket is closed")  # what aiohttp raises
        frame = json.loads(data)
        self.sent.append(frame)
        self._on_send(frame)

    async def send_json(self, data: Any, **_: Any) -> None:
        await self.send_str(json.dumps(data))

    async def send_bytes(self, data: bytes, compress: int | None = None) -> None:
        await self.send_str(data.decode())

    async def close(self, *, code: int = 1000, message: bytes = b"") -> bool:
        self.closed = True
        self.close_code = code
        return True

    async def receive(self, timeout: float | None = None) -> Any:
        raise RuntimeError("the harness pushes frames via received_message(); nothing polls")

    def exception(self) -> BaseException | None:
        return None


class FakeGateway:
    """Owns the bot's ``DiscordWebSocket`` and the outgoing sequence counter."""

    def __init__(self, client: discord.Client, on_send: Callable[[dict[str, Any]], None]) -> None:
        self.client = client
        self.socket = FakeGatewaySocket(on_send)
        self.seq = 0
        self.ws: DiscordWebSocket | None = None

    @property
    def sent(self) -> list[dict[str, Any]]:
        """Frames the bot sent (IDENTIFY, presence updates, member requests...)."""
        return self.socket.sent

    async def connect(self) -> DiscordWebSocket:
        """Mirror ``DiscordWebSocket.from_client`` minus the network, then IDENTIFY. An
        ``AutoShardedClient`` gets what its ``launch_shards`` sets up, then one websocket (and one
        IDENTIFY naming its shard) per shard it runs; frames are fed through the first."""
        client = self.client
        if isinstance(client, discord.AutoShardedClient):
            state = client._connection
            state.shard_count = client.shard_count
            state.shard_ids = client.shard_ids or range(client.shard_count or 1)  # type: ignore[attr-defined]
            sockets = [await self._connect_one(shard) for shard in state.shard_ids]  # type: ignore[attr-defined]
            self.ws = sockets[0]
            client.ws = sockets[0]
            return sockets[0]
        return await self._connect_one(None)

    async def _connect_one(self, shard_id: int | None) -> DiscordWebSocket:
        client = self.client
        state = client._connection
        ws = DiscordWebSocket(self.socket, loop=client.loop)  # type: ignore[arg-type]
        ws.token = client.http.token
        ws._connection = state
        ws._discord_parsers = state.parsers
        ws._dispatch = client.dispatch
        ws.gateway = yarl.URL(GATEWAY_URL)
        ws.call_hooks = state.call_hooks
        ws._initial_identify = True
        ws.shard_id = shard_id
        ws._rate_limiter.shard_id = shard_id
        ws.shard_count = state.shard_count
        ws.session_id = None
        ws.sequence = None
        ws._max_heartbeat_timeout = state.heartbeat_timeout
        if client._enable_debug_events:
            ws.send = ws.debug_send  # type: ignore[method-assign]
            ws.log_receive = ws.debug_log_receive  # type: ignore[method-assign]
        state._update_references(ws)
        client.ws = ws
        self.ws = ws
        # No HELLO: it would start a heartbeat thread; heartbeats are irrelevant offline.
        await ws.identify()
        return ws

    def dispatch_frame(self, event: str, data: Any) -> dict[str, Any]:
        """Build an op-0 DISPATCH frame with the next sequence number."""
        self.seq += 1
        return {"op": 0, "t": event, "s": self.seq, "d": data}

    async def feed(self, frame: dict[str, Any]) -> None:
        """Deliver one raw frame exactly as a text websocket message."""
        assert self.ws is not None, "gateway not connected"
        await self.ws.received_message(json.dumps(frame))
