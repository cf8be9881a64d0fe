"""Class-level patches of discord.py's two HTTP seams.

discord.py sends every REST call through ``HTTPClient.request`` and every
interaction-token call through ``AsyncWebhookAdapter.request``. We patch the
*classes* (so even objects discord.py creates internally are covered) while
any harness is active, and dispatch each call to the harness that owns the
``HTTPClient`` or aiohttp session. Unowned calls raise instead of touching
the network; CDN downloads are served from the harness and websocket dials
are refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import aiohttp
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from .apierror import ApiError

if TYPE_CHECKING:
    from .http import FakeDiscordAPI

_BY_HTTP: dict[HTTPClient, FakeDiscordAPI] = {}
_BY_SESSION: dict[aiohttp.ClientSession, FakeDiscordAPI] = {}
_ORIGINALS: dict[str, Any] = {}


class BlockedConnector(aiohttp.BaseConnector):
    """aiohttp connector that refuses every connection (belt and braces)."""

    async def _create_connection(self, req: Any, traces: Any, timeout: Any) -> Any:
        raise aiohttp.ClientConnectionError(f"offline harness: network access to {req.url} blocked")


def _api_for_http(http: HTTPClient) -> FakeDiscordAPI:
    api = _BY_HTTP.get(http)
    if api is None:
        raise RuntimeError("network blocked: discord HTTPClient used outside of a DiscordHarness")
    # static_login creates the session lazily; remember it for webhook routing.
    session = getattr(http, "_HTTPClient__session", None)
    if isinstance(session, aiohttp.ClientSession) and session not in _BY_SESSION:
        api.session = session
        _BY_SESSION[session] = api
    return api


async def _patched_request(self: HTTPClient, route: Route, *, files: Any = None, form: Any = None,
                           **kwargs: Any) -> Any:
    return await _api_for_http(self).handle_rest(route, files=files, form=form, **kwargs)


async def _patched_webhook_request(self: AsyncWebhookAdapter, route: Route, session: Any, *,
                                   payload: Any = None, multipart: Any = None, proxy: Any = None,
                                   proxy_auth: Any = None, files: Any = None, reason: str | None = None,
                                   auth_token: str | None = None, params: Any = None) -> Any:
    api = _BY_SESSION.get(session)
    if api is None:  # e.g. a Webhook built with its own session: route by token
        token = getattr(route, "webhook_token", None)
        api = next((a for a in _BY_HTTP.values()
                    if any(i.token == token for i in a.world.interactions.values())), None)
    if api is None:
        raise RuntimeError("network blocked: webhook request outside of a DiscordHarness")
    return await api.handle_webhook(route, payload=payload, multipart=multipart, reason=reason,
                                    params=params)


async def _patched_cdn(self: HTTPClient, url: str) -> bytes:
    api = _api_for_http(self)
    if url not in api.world.cdn:
        raise ApiError(404, 0, "asset not found").to_exception()
    return api.world.cdn[url]


async def _blocked_ws_connect(self: HTTPClient, url: str, *, compress: int = 0) -> Any:
    raise RuntimeError("network blocked: the harness feeds gateway frames directly")


def install(api: FakeDiscordAPI, http: HTTPClient) -> None:
    """Route ``http``'s traffic to ``api``; patch the classes on first use."""
    if not _BY_HTTP:
        _ORIGINALS.update(
            request=HTTPClient.request, get_from_cdn=HTTPClient.get_from_cdn,
            ws_connect=HTTPClient.ws_connect, webhook=AsyncWebhookAdapter.request,
        )
        HTTPClient.request = _patched_request  # type: ignore[method-assign]
        HTTPClient.get_from_cdn = _patched_cdn  # type: ignore[method-assign]
        HTTPClient.ws_connect = _blocked_ws_connect  # type: ignore[method-assign]
        AsyncWebhookAdapter.request = _patched_webhook_request  # type: ignore[method-assign]
    api.http_client = http
    _BY_HTTP[http] = api


def uninstall(api: FakeDiscordAPI) -> None:
    """Forget ``api``; restore discord.py's methods when no harness is left."""
    if api.http_client is not None:
        _BY_HTTP.pop(api.http_client, None)
    for session in [s for s, a in _BY_SESSION.items() if a is api]:
        del _BY_SESSION[session]
    if not _BY_HTTP and _ORIGINALS:
        HTTPClient.request = _ORIGINALS.pop("request")  # type: ignore[method-assign]
        HTTPClient.get_from_cdn = _ORIGINALS.pop("get_from_cdn")  # type: ignore[method-assign]
        HTTPClient.ws_connect = _ORIGINALS.pop("ws_connect")  # type: ignore[method-assign]
        AsyncWebhookAdapter.request = _ORIGINALS.pop("webhook")  # type: ignore[method-assign]
