"""The board's HTTP server: routes, security headers, live updates, start and stop.

Routes and bodies: docs/web-board.md. Every answer carries a strict Content-Security-Policy (no
inline script or style; Discord's hosts may frame the page, for the Activity), ``nosniff`` and
``no-referrer``; API answers are never cached. The token travels only in the ``Authorization``
header, and the access log's format names no header, so no token is ever logged.
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import mimetypes
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.core.wording import texts
from bot.web.acting import NOT_JSON, BoardFront, Forbidden, Refused, asked_locale, dumps, sentence, unreadable
from bot.web.activity import ActivitySignIn, SignInError
from bot.web.planning import BoardPlans
from bot.web.tokens import bearer

log = logging.getLogger(__name__)
mimetypes.add_type("text/javascript", ".mjs")  # the vendored SDK; Python 3.11's table lacks it

STATIC = Path(__file__).resolve().parent / "static"
BOARD_ENTRY = "main.js"
"""The module that starts the board from a link's token (``index.html`` loads it)."""
ACTIVITY_ENTRY = "activity.js"
"""The module that starts it inside Discord: the Activity's sign-in, then the same board."""
PING_SECONDS = 15.0
PLAN_NEWS = b"event: plan\ndata: {}\n\n"
"""Told to a seat's own pages when its plan was kept or dropped: no plan in it, only the news
(the page asks ``/api/plan``, which checks its link)."""
MAX_BODY = 16 * 1024
"""Bytes an API request body may have (a Master of four placements is a few hundred)."""
DISCORD_FRAMES = "https://discord.com https://*.discord.com https://*.discordsays.com"
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    f"frame-ancestors 'self' {DISCORD_FRAMES}"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
ACCESS_LOG_FORMAT = '%a "%r" %s %b %Tf'
"""The request line (a path: the token is never in it), status, size and time — no header."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:  # a 404 or 405 gets the headers too
        response = error
    except Exception:  # a bug: logged here, and a plain 500 with the headers (no trace) to the page
        log.exception("the board's %s %s failed", request.method, request.path)
        response = web.HTTPInternalServerError()
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
    if isinstance(response, web.HTTPException):
        raise response
    return response


def _json(status: int, payload: Any) -> web.Response:
    return web.Response(status=status, body=dumps(payload), content_type="application/json")


def _asked(request: web.Request) -> str | None:
    """The language ``request`` asks for first (``Accept-Language``), for what no link says."""
    return asked_locale(request.headers.get("Accept-Language"))


def _refused(request: web.Request, refused: Refused) -> web.Response:
    """The answer of a refusal; a bad link's (:class:`Forbidden`) in the language the request
    asks for, since the link has none to trust."""
    if isinstance(refused, Forbidden):
        refused = Forbidden(_asked(request))
    return _json(refused.status, refused.payload)


def make_app(front: BoardFront, *, sign_in: ActivitySignIn | None = None,
             static: Path = STATIC) -> web.Application:
    """The board's application: the page's files and the API over ``front``."""
    app = web.Application(middlewares=[_headers], client_max_size=MAX_BODY)
    routes = _Routes(front, sign_in, static)
    app.router.add_get("/", routes.root)
    app.router.add_get("/board", routes.page)
    app.router.add_get("/activity", routes.activity_page)
    app.router.add_get("/api/view", routes.view)
    app.router.add_post("/api/act", routes.act)
    app.router.add_post("/api/check", routes.check)
    app.router.add_get("/api/events", routes.events)
    app.router.add_get("/api/plan", routes.plan_show)
    app.router.add_post("/api/plan", routes.plan_save)
    app.router.add_post("/api/plan/draft", routes.plan_draft)
    app.router.add_post("/api/plan/cancel", routes.plan_cancel)
    app.router.add_get("/api/activity/config", routes.activity_config)
    app.router.add_post("/api/activity/token", routes.activity_token)
    app.router.add_static("/static/", static, show_index=False, follow_symlinks=False)
    return app


def activity_markup(board_page: Path) -> str:
    """The Activity's page: the board's page started by the Activity's module (its sign-in, then
    the same board), so that the two pages share one markup and cannot drift apart."""
    markup = board_page.read_text(encoding="utf-8")
    entry = f'src="/static/{BOARD_ENTRY}"'
    if entry not in markup:
        raise ValueError(f"{board_page} loads no {BOARD_ENTRY}: the Activity's page is made from it")
    return markup.replace(entry, f'src="/static/{ACTIVITY_ENTRY}"')


class _Routes:
    def __init__(self, front: BoardFront, sign_in: ActivitySignIn | None, static: Path) -> None:
        self.front = front
        self.plans = BoardPlans(front)
        self.sign_in = sign_in
        self.static = static
        self.activity_markup = activity_markup(static / "index.html")

    async def root(self, request: web.Request) -> web.StreamResponse:
        """Discord opens an Activity at its URL mapping's root (with ``?frame_id=…``): the
        Activity's page, its query kept."""
        raise web.HTTPFound("/activity" + (f"?{request.query_string}" if request.query_string else ""))

    async def page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(self.static / "index.html", headers={"Cache-Control": "no-cache"})

    async def activity_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.activity_markup, content_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    async def view(self, request: web.Request) -> web.StreamResponse:
        try:
            grant, game = await self.front.grant(bearer(request.headers.get("Authorization")))
        except Refused as refused:
            return _refused(request, refused)
        return web.Response(body=await self.front.view_bytes(grant, game), content_type="application/json")

    async def act(self, request: web.Request) -> web.StreamResponse:
        return await self._acting(request, self.front.act)

    async def check(self, request: web.Request) -> web.StreamResponse:
        return await self._acting(request, self.front.check)

    async def _acting(self, request: web.Request, what: Callable[..., Awaitable[Any]]) -> web.StreamResponse:
        try:
            grant, where = await self.front.grant_to_act(bearer(request.headers.get("Authorization")))
            body = await _body(request)
            answer = await what(grant, where, body)
            if isinstance(answer, bytes):
                return web.Response(body=answer, content_type="application/json")
            return _json(200, answer)
        except Refused as refused:
            return _refused(request, refused)

    async def plan_show(self, request: web.Request) -> web.StreamResponse:
        return await self._planning(request, lambda token: self.plans.show(token))

    async def plan_save(self, request: web.Request) -> web.StreamResponse:
        return await self._planning(request, lambda token: self._with_body(request, token, self.plans.save))

    async def plan_draft(self, request: web.Request) -> web.StreamResponse:
        return await self._planning(request, lambda token: self._with_body(request, token, self.plans.draft))

    async def plan_cancel(self, request: web.Request) -> web.StreamResponse:
        return await self._planning(request, lambda token: self.plans.cancel(token))

    async def _planning(self, request: web.Request,
                        what: Callable[[str | None], Awaitable[Any]]) -> web.StreamResponse:
        """A Plan-mode request (``bot/web/planning.py``): its JSON answer, or the refusal's."""
        try:
            return _json(200, await what(bearer(request.headers.get("Authorization"))))
        except Refused as refused:
            return _refused(request, refused)

    @staticmethod
    async def _with_body(request: web.Request, token: str | None,
                         what: Callable[[str | None, Any], Awaitable[Any]]) -> Any:
        return await what(token, await _body(request))

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the view now, then again at each new revision while the token still
        grants it (not expired, the seat still its user's); ``event: plan`` (nothing in it) when the
        seat's plan was kept or dropped, to that seat's pages only; a ping every 15 s."""
        try:
            grant, game = await self.front.grant(bearer(request.headers.get("Authorization")))
        except Refused as refused:
            return _refused(request, refused)
        live = self.front.live
        assert live is not None
        response = web.StreamResponse(headers={  # sent at prepare(), before the middleware's turn
            **SECURITY_HEADERS, "Content-Type": "text/event-stream", "Cache-Control": "no-store",
            "X-Accel-Buffering": "no"})
        await response.prepare(request)
        try:
            with live.watch(game, grant.seat) as watch:
                await _send(response, await self.front.view_bytes(grant, game))
                status = game.status
                while not watch.closed:
                    if not await watch.wait(PING_SECONDS):
                        await response.write(b": ping\n\n")
                        continue
                    latest = live.latest(game.id)
                    if watch.plan_news:  # only ever set on this seat's own watch (LiveGames.plan_changed)
                        watch.plan_news = False
                        if latest is not None and not self.front.still_granted(grant, latest):
                            break
                        await response.write(PLAN_NEWS)
                    if latest is None or latest.state is None or latest.revision < watch.seen or (
                            latest.revision == watch.seen and latest.status == status):
                        continue  # nothing new for the view (a plan's news alone woke it)
                    if not self.front.still_granted(grant, latest):
                        break  # the stream ends: the page reconnects and hears 403
                    watch.seen, status = latest.revision, latest.status
                    await _send(response, await self.front.view_bytes(grant, latest))
        except (ConnectionResetError, asyncio.CancelledError):
            pass  # the page closed: its watch is dropped above
        return response

    async def activity_config(self, request: web.Request) -> web.StreamResponse:
        if self.sign_in is None:
            return _activity_off(request)
        return _json(200, {"client_id": self.sign_in.client_id})

    async def activity_token(self, request: web.Request) -> web.StreamResponse:
        """The Activity's sign-in (bot/web/activity.py). No link yet, so no locale: its refusals are
        in the language the request asks for (``Accept-Language``), as the page's own words are."""
        if self.sign_in is None:
            return _activity_off(request)
        locale = _asked(request)
        try:
            body = await _body(request)
            if body is NOT_JSON:
                raise unreadable(texts.BOARD_NOT_JSON, locale)
            payload = await self.sign_in.token(body, locale)
        except Refused as refused:
            return _refused(request, refused)
        except SignInError as error:
            return _json(403, {"error": sentence(error.words, locale)})
        return _json(200, payload)


def _activity_off(request: web.Request) -> web.Response:
    """404 when the Activity is not set up, in the language the request asks for."""
    return _json(404, {"error": sentence(texts.ACTIVITY_OFF, _asked(request))})


async def _send(response: web.StreamResponse, view: bytes) -> None:
    await response.write(b"event: view\ndata: " + view + b"\n\n")


async def _body(request: web.Request) -> Any:
    """The body's JSON, read as UTF-8 whatever charset the request names (JSON's one encoding);
    :data:`NOT_JSON` for anything else (refused with a 400 by what reads the body, in the link's
    language): malformed, past the parser's limits (a number of thousands of digits, nesting too
    deep), or holding a lone surrogate (``\\ud800``), which no answer quoting it (a refusal
    quotes the action) could encode."""
    try:
        body = json.loads((await request.read()).decode())
        json.dumps(body, ensure_ascii=False).encode()  # a lone surrogate fails here, not in the answer
    except (ValueError, RecursionError, web.HTTPRequestEntityTooLarge):  # Unicode errors are ValueErrors
        return NOT_JSON
    return body


# -- running it ------------------------------------------------------------------------------------


class PortTakenError(Exception):
    """The board cannot listen where it was asked to; ``str()`` is one sentence for the operator
    of the bot (PROJECTL_WEB_BIND); ``where`` and ``why`` let another entry point name its own
    option (``python -m bot.board --bind``)."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"The web board cannot listen on {where} ({why}): set PROJECTL_WEB_BIND to a "
                         "free host:port, or to off.")
        self.where, self.why = where, why


@dataclass
class RunningBoard:
    """A started board server: where it listens, and how to stop it."""

    runner: web.AppRunner
    front: BoardFront
    host: str
    port: int

    async def stop(self) -> None:
        """Close every open page's stream, wait for results still being posted, stop listening."""
        if self.front.live is not None:
            self.front.live.detach()
        self.front.plan_outcomes.detach()
        await self.front.settle()
        await self.runner.cleanup()


async def start_board_server(front: BoardFront, host: str, port: int, *,
                             sign_in: ActivitySignIn | None = None) -> RunningBoard:
    """Listen on ``host:port`` (0: any free port); :class:`PortTakenError` if it cannot."""
    app = make_app(front, sign_in=sign_in)
    runner = web.AppRunner(app, access_log_format=ACCESS_LOG_FORMAT, shutdown_timeout=2.0,
                           handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        why = "the port is taken" if error.errno == errno.EADDRINUSE else error.strerror or str(error)
        raise PortTakenError(f"{host}:{port}", why) from None
    return RunningBoard(runner, front, host, int(runner.addresses[0][1]))
