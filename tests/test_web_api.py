"""The web board's API (docs/web-board.md) on a real server on port 0, through the offline board's
entry point (bot/board.py): tokens, refusals that change nothing, stale stamps, the engine's
reasons, headers, plain-text names, logs without tokens, live updates and the channel's posts."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

import engine
from bot.board import CHANNEL_ID, Board, open_board
from bot.core.clock import SystemClock
from bot.core.days.turnclock import TurnClock
from bot.core.play.manager import TableSettings, engine_policy
from bot.core.storage.days import DaysStore
from bot.web.activity import ActivitySignIn, SignedIn
from bot.web.server import PortTakenError, make_app

XSS = "<img src=x onerror=alert(1)>"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def get_view(http: aiohttp.ClientSession, board: Board, token: str) -> tuple[int, Any]:
    async with http.get(board.base_url + "/api/view", headers=auth(token)) as answer:
        return answer.status, await answer.json()


async def post(http: aiohttp.ClientSession, board: Board, path: str, token: str,
               body: Any) -> tuple[int, Any]:
    async with http.post(board.base_url + path, headers=auth(token), json=body) as answer:
        return answer.status, await answer.json()


def forge(token: str) -> str:
    body, signature = token.split(".")
    return f"{body}.{signature[:-2]}{'AA' if signature[-2:] != 'AA' else 'BB'}"


async def test_a_seat_sees_its_view_with_its_offers(http: aiohttp.ClientSession, board: Board) -> None:
    status, view = await get_view(http, board, board.token(0))
    assert status == 200
    assert view["me"] == {"seat": 0, "spectator": False, "name": "Ana", "acting": True, "actions_left": 3,
                          "held": False, "plannable": False, "credits": None}
    kinds = {offer["kind"] for offer in view["offers"]}
    assert {"take", "level1"} <= kinds
    assert view["game"]["stamp"] == str(view["game"]["revision"])
    assert len(view["puzzles"]) == 0 and view["supply"]


async def test_every_answer_carries_the_security_headers(http: aiohttp.ClientSession, board: Board) -> None:
    for path in ("/board", "/api/view", "/api/events", "/static/main.js", "/nowhere"):
        async with http.get(board.base_url + path, headers=auth(board.token(0))) as answer:
            csp = answer.headers["Content-Security-Policy"]
            assert "default-src 'self'" in csp and "script-src 'self'" in csp
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert "frame-ancestors" in csp
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
            if path.startswith("/api/"):
                assert answer.headers["Cache-Control"] == "no-store"


async def test_a_server_fault_answer_carries_the_security_headers_and_no_trace(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A bug raising out of a route used to get aiohttp's own 500, without the page's CSP,
    nosniff or no-store: every answer carries them, the fault's trace going only to the log."""
    async def broken(*_: Any) -> bytes:
        raise RuntimeError("a bug deep in a view")

    monkeypatch.setattr(board.front, "view_bytes", broken)
    async with http.get(board.base_url + "/api/view", headers=auth(board.token(0))) as answer:
        body = await answer.text()
        assert answer.status == 500
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Cache-Control"] == "no-store"
    assert "a bug deep in a view" not in body and "Traceback" not in body
    assert any("a bug deep in a view" in str(record.exc_info) for record in caplog.records)


@pytest.mark.parametrize("bent", ["forged", "expired", "other seat", "other game", "spectator", "missing",
                                  "garbage"])
async def test_a_bad_token_gets_403_and_changes_nothing(http: aiohttp.ClientSession, board: Board,
                                                        bent: str) -> None:
    _, view = await get_view(http, board, board.token(0))
    before = (await board.game()).revision
    token = {
        "forged": forge(board.token(0)),
        "expired": board.token(0, expires_in=-1),
        "other seat": board.token(1, user_id=board.users[0]),  # seat 1 is not user 1's
        "other game": board.token(0, game_id=board.game_id + 1),
        "spectator": board.token(None),
        "missing": "",
        "garbage": "x" * 5000,
    }[bent]
    offer = view["offers"][0]["action"]
    body = {"action": offer, "stamp": view["game"]["stamp"]}
    status, answer = await post(http, board, "/api/act", token, body)
    assert status == 403 and "error" in answer and "view" not in answer
    if bent != "spectator":
        assert (await get_view(http, board, token))[0] == 403
    assert (await board.game()).revision == before


FORBIDDEN = {"en": "This link is not valid (forged, expired, or for another seat).",
             "pt-BR": "Este link não é válido (forjado, expirado ou de outro assento)."}
"""A bad link's refusal, in each language the bot speaks."""
BAD_LINK_ROUTES: dict[str, tuple[str, str, Any]] = {
    "view": ("GET", "/api/view", None), "events": ("GET", "/api/events", None),
    "act": ("POST", "/api/act", "offer"), "check": ("POST", "/api/check", "offer"),
    "undo": ("POST", "/api/act", "undo"), "check undo": ("POST", "/api/check", "undo"),
    "plan": ("GET", "/api/plan", None), "plan save": ("POST", "/api/plan", {"steps": [{"action": "level1"}]}),
    "plan draft": ("POST", "/api/plan/draft", {"steps": []}), "plan cancel": ("POST", "/api/plan/cancel", {}),
}
"""Every route that refuses a bad link: (method, path, body; an offer or an undo with the view's stamp)."""


@pytest.mark.parametrize("route", BAD_LINK_ROUTES)
async def test_a_bad_link_is_refused_in_the_language_the_request_asks_for(
        http: aiohttp.ClientSession, board: Board, route: str) -> None:
    """A bad link has no language to trust (a forged one could name any): its 403 is in the one
    the request's Accept-Language asks for first, as the Activity's sign-in refusals are, with the
    same words whatever made the link bad (so they tell nobody whether a game exists), the same
    headers, and nothing changed."""
    method, path, body = BAD_LINK_ROUTES[route]
    _, view = await get_view(http, board, board.token(0))  # the game's channel is known: act's own checks
    if isinstance(body, str):
        body = {"action": view["offers"][0]["action"] if body == "offer" else "undo",
                "stamp": view["game"]["stamp"]}
    before = (await board.game()).revision
    links: dict[str, str | None] = {
        "missing": None,
        "forged": forge(board.token(0, locale="pt-BR")),
        "expired": board.token(0, expires_in=-1, locale="pt-BR"),
        "other seat": board.token(1, user_id=board.users[0], locale="pt-BR"),  # seat 1 is not user 1's
        "other game": board.token(0, game_id=board.game_id + 1, locale="pt-BR"),
    }
    if route not in ("view", "events"):  # a spectator's link watches, and does nothing else
        links["spectator"] = board.token(None, locale="pt-BR")
    for asked, language in {"pt-BR,pt;q=0.9": "pt-BR", "en-US,en;q=0.9": "en", None: "en"}.items():
        for bent, token in links.items():
            headers = {} if token is None else auth(token)
            if asked is not None:
                headers["Accept-Language"] = asked
            async with http.request(method, board.base_url + path, headers=headers, json=body) as answer:
                said = (answer.status, await answer.json())
                assert said == (403, {"error": FORBIDDEN[language]}), (asked, bent)
                assert answer.headers["Cache-Control"] == "no-store"
                assert answer.headers["X-Content-Type-Options"] == "nosniff"
                assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert (await board.game()).revision == before


async def raw_request(board: Board, method: str, path: str, headers: bytes,
                      body: bytes = b"") -> tuple[int, bytes]:
    """``method path`` sent with ``headers`` exactly as given (bytes no HTTP client would send),
    and the answer's status and body."""
    reader, writer = await asyncio.open_connection(board.running.host, board.running.port)
    try:
        length = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: board\r\nConnection: close\r\n".encode() + headers
                     + length + body)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), payload


@pytest.mark.parametrize("route", BAD_LINK_ROUTES)
@pytest.mark.parametrize("token", [b"\xff\xfe.\xff", b"e30.\xc3"])
async def test_a_link_that_is_not_text_is_refused_like_any_bad_link(
        board: Board, route: str, token: bytes) -> None:
    """An Authorization header holding bytes that are not UTF-8 (aiohttp keeps them as lone
    surrogates) used to fail in the signature's check: a 500 "Server got itself in trouble" with
    a traceback in the log. It is a bad link like any other: 403, the same words, nothing changed."""
    method, path, body = BAD_LINK_ROUTES[route]
    sent = b"" if body is None else json.dumps(body if isinstance(body, dict) else
                                                {"action": "level1", "stamp": "1"}).encode()
    before = (await board.game()).revision
    status, answer = await raw_request(board, method, path, b"Authorization: Bearer " + token + b"\r\n", sent)
    assert status == 403, answer
    assert json.loads(answer) == {"error": FORBIDDEN["en"]}
    assert (await board.game()).revision == before


async def test_a_seat_out_of_turn_is_refused(http: aiohttp.ClientSession, board: Board) -> None:
    _, view = await get_view(http, board, board.token(1))
    assert view["me"]["acting"] is False and view["offers"] == []
    status, answer = await post(http, board, "/api/act", board.token(1),
                                {"action": "level1", "stamp": view["game"]["stamp"]})
    assert status == 422 and "Ana" in answer["error"]


async def test_a_stale_stamp_gets_409_and_the_fresh_view(http: aiohttp.ClientSession, board: Board) -> None:
    _, view = await get_view(http, board, board.token(0))
    stamp = view["game"]["stamp"]
    status, done = await post(http, board, "/api/act", board.token(0), {"action": "level1", "stamp": stamp})
    assert status == 200 and done["view"]["game"]["stamp"] != stamp
    revision = (await board.game()).revision
    status, answer = await post(http, board, "/api/act", board.token(0), {"action": "level1", "stamp": stamp})
    assert status == 409
    assert "out of date" in answer["error"]
    assert answer["view"]["game"]["revision"] == revision == done["view"]["game"]["revision"]
    assert (await board.game()).revision == revision


async def test_an_illegal_action_gets_422_with_the_engines_reason(http: aiohttp.ClientSession,
                                                                  board: Board) -> None:
    _, view = await get_view(http, board, board.token(0))
    revision = (await board.game()).revision
    stamp = view["game"]["stamp"]
    status, answer = await post(http, board, "/api/act", board.token(0),
                                {"place": {"shape": "I3", "card": "W01", "cells": [[0, 0], [0, 1], [0, 2]]},
                                 "stamp": stamp})
    assert status == 422 and answer["error"] and "view" not in answer
    status, checked = await post(http, board, "/api/check", board.token(0),
                                 {"place": {"shape": "I3", "card": "W01", "cells": [[0, 0], [0, 1], [0, 2]]},
                                  "stamp": stamp})
    assert status == 200 and checked["ok"] is False and checked["reason"] == answer["error"]
    assert (await board.game()).revision == revision
    status, answer = await post(http, board, "/api/act", board.token(0), {"nonsense": 1, "stamp": stamp})
    assert status == 400
    async with http.post(board.base_url + "/api/act", headers=auth(board.token(0)), data=b"{not json") as raw:
        assert raw.status == 400
    assert (await board.game()).revision == revision


async def test_the_reason_is_in_the_seats_language(http: aiohttp.ClientSession, board: Board) -> None:
    token = board.token(0, locale="pt-BR")
    _, view = await get_view(http, board, token)
    _, english = await post(http, board, "/api/check", board.token(0),
                            {"action": "upgrade I4 to O4", "stamp": view["game"]["stamp"]})
    _, portuguese = await post(http, board, "/api/check", token,
                               {"action": "upgrade I4 to O4", "stamp": view["game"]["stamp"]})
    assert english["ok"] is False and portuguese["ok"] is False
    assert english["reason"] != portuguese["reason"]


async def test_a_placement_from_the_view_checks_and_plays(http: aiohttp.ClientSession, board: Board) -> None:
    token = board.token(0)
    _, view = await get_view(http, board, token)
    take = next(o for o in view["offers"] if o["kind"] == "take")
    _, done = await post(http, board, "/api/act", token,
                         {"action": take["action"], "stamp": view["game"]["stamp"]})
    view = done["view"]
    assert [p["card"] for p in view["puzzles"]] == [take["card"]]
    shape, places = next(iter(view["placements"].items()))
    place = places[0]
    body = {"place": {"shape": shape, "card": place["card"], "cells": place["cells"]},
            "stamp": view["game"]["stamp"]}
    status, checked = await post(http, board, "/api/check", token, body)
    assert status == 200 and checked == {"ok": True}
    status, done = await post(http, board, "/api/act", token, body)
    assert status == 200 and done["said"]
    filled = {tuple(cell) for puzzle in done["view"]["puzzles"] for cell in puzzle["filled"]}
    assert {tuple(cell) for cell in place["cells"]} <= filled or done["view"]["players"][0]["completed"] == 1


async def test_a_turn_ending_on_the_board_gives_the_channel_one_post(http: aiohttp.ClientSession,
                                                                    board: Board) -> None:
    token = board.token(0)
    for _ in range(3):
        _, view = await get_view(http, board, token)
        status, _ = await post(http, board, "/api/act", token,
                               {"action": "level1", "stamp": view["game"]["stamp"]})
        assert status == 200
    await board.front.settle()
    assert board.posts.turn_posts == 1
    assert len(board.posts.results) == 3
    assert (await board.game()).state.current == 1  # type: ignore[union-attr]


async def test_a_name_is_plain_json_text(http: aiohttp.ClientSession, tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), names=(XSS, "Bia"))
    try:
        async with http.get(opened.base_url + "/api/view", headers=auth(opened.token(1))) as answer:
            assert answer.content_type == "application/json"
            view = json.loads(await answer.text())
        assert view["players"][0]["name"] == XSS
    finally:
        await opened.stop()


async def test_a_name_reverses_nothing_after_it_on_the_page(http: aiohttp.ClientSession,
                                                             tmp_path: Path) -> None:
    """A right-to-left override (U+202E) left open in a name would turn the rest of its line around
    on the page, as in Discord: the view and the refusals name the player without it."""
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), names=("bob\u202e", "Bia\u2067"))
    try:
        _, view = await get_view(http, opened, opened.token(1))
        assert [p["name"] for p in view["players"]] == ["bob", "Bia"]
        waiting = 1 - (await opened.game()).state.current  # type: ignore[union-attr]
        _, seen = await get_view(http, opened, opened.token(waiting))
        status, refused = await post(http, opened, "/api/act", opened.token(waiting),
                                     {"action": "level1", "stamp": seen["game"]["stamp"]})
        assert status == 422 and "is playing" in refused["error"], refused  # it names the player to act
        assert "\u202e" not in refused["error"] and "\u2067" not in refused["error"], refused
    finally:
        await opened.stop()


async def test_a_finished_games_view_says_who_won_to_seats_and_spectators(
        http: aiohttp.ClientSession, tmp_path: Path) -> None:
    """Hidden score piles (turned up at the end): no result while the game runs, then the
    engine's winners with the results image's words, the same for a seat and a spectator."""
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), known_scores=False, names=(XSS, "Bia"))
    try:
        chooser = engine_policy("greedy", 3)
        assert (await get_view(http, opened, opened.token(1)))[1]["result"] is None
        while not (state := (await opened.game()).state).is_over:  # type: ignore[union-attr]
            seat = min(state.acting_seats)
            await opened.act(seat, str(chooser.choose(state.focused(seat))))
        won = list(engine.winners(state))
        for token in (opened.token(0), opened.token(1), opened.token(None)):
            _, view = await get_view(http, opened, token)
            assert view["result"]["winners"] == won
            names = " and ".join((XSS, "Bia")[seat] for seat in won)  # as typed, never escaped
            assert view["result"]["headline"].startswith(names)
        assert (await get_view(http, opened, opened.token(0, locale="pt-BR")))[1]["result"]["headline"] \
            .endswith(" vence" if len(won) == 1 else " dividem a vitória")
    finally:
        await opened.stop()


async def test_no_token_reaches_the_logs(http: aiohttp.ClientSession, board: Board,
                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    tokens = [board.token(0), forge(board.token(0)), board.token(0, expires_in=-5), board.token(None)]
    for token in tokens:
        await get_view(http, board, token)
        await post(http, board, "/api/act", token, {"action": "level1", "stamp": "0"})
        await post(http, board, "/api/check", token, {"action": "level1", "stamp": "0"})
    assert any(record.name == "aiohttp.access" for record in caplog.records)  # the access log was on
    for token in tokens:
        for part in token.split("."):
            assert part not in caplog.text


async def test_open_pages_get_each_commit_and_a_closed_one_is_dropped(
        http: aiohttp.ClientSession, board: Board) -> None:
    live = board.front.live
    assert live is not None
    async with http.get(board.base_url + "/api/events", headers=auth(board.token(1))) as stream:
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        first = await asyncio.wait_for(_next_view(stream), 30)
        assert first["me"]["seat"] == 1 and live.watching == 1
        await board.act(0, "level1")  # another front (a typed command) commits
        second = await asyncio.wait_for(_next_view(stream), 30)
        assert second["game"]["revision"] == first["game"]["revision"] + 1
    await asyncio.wait_for(_until(lambda: live.watching == 0), 30)


async def test_line_clears_two_holders_act_at_once(http: aiohttp.ClientSession, tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=5, human_seats=(0, 1, 2, 3, 4), seed=5)
    try:
        state = (await opened.game()).state
        assert state is not None and len(state.acting_seats) == 2
        first, second = state.acting_seats
        views = [(await get_view(http, opened, opened.token(seat)))[1] for seat in (first, second)]
        answers = await asyncio.gather(*(
            post(http, opened, "/api/act", opened.token(seat),
                 {"action": "level1", "stamp": view["game"]["stamp"]})
            for seat, view in zip((first, second), views, strict=True)))
        assert [status for status, _ in answers] == [200, 200]
    finally:
        await opened.stop()


async def test_the_activity_maps_the_user_to_their_seat(tmp_path: Path, board: Board) -> None:
    class FakeExchanger:
        async def exchange(self, code: str) -> SignedIn:
            assert code == "the-code"
            return SignedIn(board.users[1], "access", "pt-BR")

    sign_in = ActivitySignIn(board.front, board.manager, FakeExchanger(), "1234")
    app = make_app(board.front, sign_in=sign_in)
    async with TestClient(TestServer(app)) as client:
        answer = await client.get("/api/activity/config")
        assert (await answer.json()) == {"client_id": "1234"}
        answer = await client.post("/api/activity/token", json={"code": "the-code", "channel_id": "1"})
        payload = await answer.json()
        assert answer.status == 200 and payload["seat"] == 1 and payload["access_token"] == "access"
        answer = await client.get("/api/view", headers=auth(payload["token"]))
        view = await answer.json()
        assert view["me"]["seat"] == 1 and view["game"]["locale"] == "pt-BR"
        answer = await client.post("/api/activity/token", json={"code": "the-code", "channel_id": "2"},
                                   headers={"Accept-Language": "en"})
        # signed in: the user's Discord language, as the token would carry it, before the request's
        assert (answer.status, await answer.json()) == (404, {"error": ACTIVITY_REFUSALS["no game"][2]})


async def _next_view(stream: aiohttp.ClientResponse) -> Any:
    event = None
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "view":
            return json.loads(line[6:])


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_the_offline_board_signs_the_activitys_mock_in(http: aiohttp.ClientSession,
                                                             tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), activity_codes={"mock_code": 1})
    try:
        async with http.post(opened.base_url + "/api/activity/token",
                             json={"code": "mock_code", "channel_id": "1"}) as answer:
            payload = await answer.json()
        assert answer.status == 200 and payload["seat"] == 1
        async with http.post(opened.base_url + "/api/activity/token",
                             json={"code": "forged", "channel_id": "1"}) as answer:
            assert answer.status == 403
        async with http.get(opened.base_url + "/static/vendor/discord-embedded-app-sdk.mjs") as answer:
            assert answer.status in (200, 404)
            if answer.status == 200:
                assert answer.content_type == "text/javascript"
    finally:
        await opened.stop()


async def test_the_activity_opens_at_the_root_with_its_query(http: aiohttp.ClientSession,
                                                            board: Board) -> None:
    async with http.get(board.base_url + "/?frame_id=abc&channel_id=1", allow_redirects=False) as answer:
        assert answer.status == 302
        assert answer.headers["Location"] == "/activity?frame_id=abc&channel_id=1"


async def test_the_activity_s_page_is_the_board_s_started_by_the_sign_in(
        http: aiohttp.ClientSession, board: Board) -> None:
    pages = {}
    for path in ("/board", "/activity"):
        async with http.get(board.base_url + path) as answer:
            assert answer.status == 200 and answer.content_type == "text/html"
            assert answer.headers["Cache-Control"] == "no-cache"
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
            pages[path] = await answer.text()
    assert '<script type="module" src="/static/main.js">' in pages["/board"]
    assert '<script type="module" src="/static/activity.js">' in pages["/activity"]
    assert pages["/activity"].replace("activity.js", "main.js") == pages["/board"]


async def test_a_taken_port_is_one_sentence(board: Board, tmp_path: Path) -> None:
    with pytest.raises(PortTakenError, match=r"^The web board cannot listen on .* \(the port is taken\)"):
        await open_board(tmp_path / "other", port=board.running.port)


async def test_stopping_the_board_ends_open_pages_streams(tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1))
    async with aiohttp.ClientSession() as http, \
            http.get(opened.base_url + "/api/events", headers=auth(opened.token(0))) as stream:
        await asyncio.wait_for(_next_view(stream), 30)
        await asyncio.wait_for(opened.stop(), 30)  # the open stream does not hold the shutdown
        await asyncio.wait_for(stream.content.read(), 30)  # what was sent, then the end
        assert stream.content.at_eof()


async def test_the_seats_last_action_is_taken_back_from_the_board(http: aiohttp.ClientSession,
                                                                  board: Board) -> None:
    token = board.token(0)
    _, view = await get_view(http, board, token)
    assert view["undo"] is None  # nothing of theirs to take back yet
    _, done = await post(http, board, "/api/act", token, {"action": "level1", "stamp": view["game"]["stamp"]})
    view = done["view"]
    assert view["undo"] == "undo" and view["me"]["actions_left"] == 2
    _, other = await get_view(http, board, board.token(1))
    assert other["undo"] is None  # not bob's action
    undo = {"action": "undo", "stamp": view["game"]["stamp"]}
    status, undone = await post(http, board, "/api/act", token, undo)
    assert status == 200 and "level1" in undone["said"][0]
    assert undone["view"]["me"]["actions_left"] == 3 and undone["view"]["undo"] is None
    status, again = await post(http, board, "/api/act", token,
                               {"action": "undo", "stamp": undone["view"]["game"]["stamp"]})
    assert status == 422 and again["error"]
    status, stale = await post(http, board, "/api/act", token, undo)
    assert status == 409 and stale["view"]["game"]["revision"] == undone["view"]["game"]["revision"]


async def test_what_an_action_did_is_plain_text_with_the_names_as_given(http: aiohttp.ClientSession,
                                                                        tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), names=("a_b*c", "Bia"), seed=11)
    try:
        token = opened.token(0)
        _, view = await get_view(http, opened, token)
        take = next(o for o in view["offers"] if o["kind"] == "take")
        _, done = await post(http, opened, "/api/act", token, {"action": take["action"],
                                                                "stamp": view["game"]["stamp"]})
        assert done["said"][0] == f"Done: {take['action']}."
        assert any(line.startswith("a_b*c took puzzle") for line in done["said"]), done["said"]
        assert not any("`" in line or "**" in line or "\\\\" in line for line in done["said"])
    finally:
        await opened.stop()


NASTY_BODIES: list[Any] = [
    None, [], "level1", 3, {"stamp": 1, "action": "level1"}, {"stamp": "x" * 41, "action": "level1"},
    {"action": "level1"}, {"stamp": "1"}, {"stamp": "1", "action": 7}, {"stamp": "1", "action": "x" * 500},
    {"stamp": "1", "action": "skip"}, {"stamp": "1", "action": "remove 1"},
    {"stamp": "1", "place": "I3 on W01"},
    {"stamp": "1", "place": {"shape": "I3", "card": "W01", "cells": "A1"}},
    {"stamp": "1", "place": {"shape": "Q9", "card": "W01", "cells": [[0, 0]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W01", "cells": [[0, 5]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W01", "cells": [[-1, 0]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W01", "cells": [[True, 0]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W01", "cells": [[0, 0, 0]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W" * 40, "cells": [[0, 0]]}},
    {"stamp": "1", "place": {"shape": "1", "card": "W01", "cells": [[0, 0]] * 30}},
    {"stamp": "1", "master": []},
    {"stamp": "1", "master": [{"shape": "1", "card": "W01", "cells": [[0, 0]]}] * 9},
    {"stamp": "1", "master": "all"}, {"stamp": "1", "ambassador": [{"shape": "1"}]},
]


async def test_no_body_makes_the_server_fail_or_change_anything(http: aiohttp.ClientSession,
                                                                board: Board) -> None:
    revision = (await board.game()).revision
    for body in NASTY_BODIES:
        for path in ("/api/act", "/api/check"):
            async with http.post(board.base_url + path, headers=auth(board.token(0)), json=body) as answer:
                assert answer.status in (200, 400, 409, 422), (path, body, answer.status)
                payload = await answer.json()
                assert answer.status != 200 or path == "/api/check" and payload.get("ok") is False, body
    assert (await board.game()).revision == revision


async def test_the_views_kept_are_bounded(http: aiohttp.ClientSession, board: Board,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.web.acting.MAX_CACHED", 3)
    for user in range(10):  # ten spectators' pages in ten languages: ten views of one revision
        token = board.token(None, user_id=500 + user, locale=f"x{user}")
        assert (await get_view(http, board, token))[0] == 200
    assert len(board.front._views) <= 3 and len(board.front._logs) <= 3


async def test_another_seats_token_is_403_even_when_its_user_waits(http: aiohttp.ClientSession,
                                                                   board: Board) -> None:
    game = await board.game()
    assert game.state is not None
    waiting = 1 - game.state.current
    token = board.token(game.state.current, user_id=board.users[waiting])  # the mover's seat, not theirs
    _, view = await get_view(http, board, board.token(game.state.current))
    for path in ("/api/act", "/api/check"):
        status, _ = await post(http, board, path, token, {"action": "level1", "stamp": view["game"]["stamp"]})
        assert status == 403
    assert (await board.game()).revision == game.revision


async def test_the_log_carried_past_an_action_is_the_stored_one(http: aiohttp.ClientSession,
                                                                 board: Board) -> None:
    token = board.token(0)
    for _ in range(4):
        _, view = await get_view(http, board, token)
        if not view["me"]["acting"]:
            break
        level1 = {"action": "level1", "stamp": view["game"]["stamp"]}
        _, done = await post(http, board, "/api/act", token, level1)
        board.front._views.clear()
        board.front._logs.clear()  # read again from storage
        _, stored = await get_view(http, board, token)
        assert done["view"]["log"] == stored["log"] and done["view"]["undo"] == stored["undo"]
        assert done["view"]["log_from"] == stored["log_from"]


async def test_a_body_no_answer_could_echo_is_400_and_changes_nothing(http: aiohttp.ClientSession,
                                                                      board: Board) -> None:
    """JSON past the parser's limits or with a lone surrogate (``\\ud800``, which no UTF-8 answer
    can carry back, and refusals quote the action): 400; a charset Python does not know: read as
    UTF-8, JSON's one encoding."""
    _, view = await get_view(http, board, board.token(0))
    stamp = json.dumps(view["game"]["stamp"]).encode()
    revision = (await board.game()).revision
    json_type = {"Content-Type": "application/json"}
    bodies = [
        (b'{"stamp":' + stamp + b',"action":' + b"1" * 5000 + b"}", json_type),
        (b'{"stamp":' + stamp + b',"action":"take \\ud800"}', json_type),
        (b'{"stamp":' + stamp + b',"place":{"shape":"1","card":"\\ud800","cells":[[0,0]]}}', json_type),
        (b'{"steps":[{"action":"\\udfff"}]}', json_type),
    ]
    for body, headers in bodies:
        for path, seat in (("/api/act", 0), ("/api/check", 0), ("/api/plan/draft", 1), ("/api/plan", 1)):
            async with http.post(board.base_url + path, data=body,
                                 headers={**auth(board.token(seat)), **headers}) as answer:
                assert answer.status == 400, (path, body[:60], answer.status)
                assert "error" in await answer.json()
    async with http.post(board.base_url + "/api/check", data=b'{"stamp":' + stamp + b',"action":"level1"}',
                         headers={**auth(board.token(0)), "Content-Type": "application/json; charset=nope"}) \
            as answer:
        assert answer.status == 200 and await answer.json() == {"ok": True}
    assert (await board.game()).revision == revision


async def test_an_ended_games_link_takes_nothing_back_in_the_channels_next_game(
        http: aiohttp.ClientSession, board: Board) -> None:
    """Ana's link to a cancelled game, whose page still shows it: her undo must not reach the
    channel's next game (where she sits elsewhere), nor answer with that game's view of her old seat."""
    old = board.token(0)
    await board.manager.cancel(CHANNEL_ID, board.users[0])
    _, shown = await get_view(http, board, old)
    assert shown["game"]["status"] == "cancelled"
    settings = TableSettings(variant="base", max_players=2, known_scores=False)
    await board.manager.create_game(guild_id=None, channel_id=CHANNEL_ID, host_id=board.users[1],
                                    host_name="Bia", settings=settings)
    await board.manager.join(CHANNEL_ID, board.users[0], "Ana")
    game = (await board.manager.start(CHANNEL_ID, board.users[1])).game
    assert game.seat_of(board.users[0]).seat == 1  # type: ignore[union-attr]
    while game.state.current != 1:  # type: ignore[union-attr]
        game = (await board.manager.act(CHANNEL_ID, board.users[1], "level1", game_id=game.id)).game
    game = (await board.manager.act(CHANNEL_ID, board.users[0], "level1", game_id=game.id)).game
    undo = {"action": "undo", "stamp": shown["game"]["stamp"]}
    status, answer = await post(http, board, "/api/act", old, undo)
    assert status == 422 and "view" not in answer, answer
    assert (await board.manager.game(game.id)).revision == game.revision  # type: ignore[union-attr]


@pytest.mark.parametrize("lost", ["seat replaced", "link expired"])
async def test_an_open_page_stops_getting_views_its_link_no_longer_grants(
        http: aiohttp.ClientSession, board: Board, lost: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bia's page is open when the host hands her seat to an AI (or her link expires): the next
    commit ends her stream instead of sending her the seat's view, and her page's reconnection is 403."""
    token = board.token(1)
    async with http.get(board.base_url + "/api/events", headers=auth(token)) as stream:
        await asyncio.wait_for(_next_view(stream), 30)
        if lost == "seat replaced":
            clock = TurnClock(board.manager, DaysStore(board.storage), SystemClock())
            await clock.replace(CHANNEL_ID, board.users[0], board.users[1])
        else:
            later = board.front.now() + 2 * 24 * 3600
            monkeypatch.setattr(board.front, "now", lambda: later)
        await board.act(0, "level1")
        rest = await asyncio.wait_for(stream.content.read(), 30)
        assert b"event: view" not in rest and stream.content.at_eof()
    assert (await get_view(http, board, token))[0] == 403


async def test_a_channel_id_past_any_snowflake_is_400(http: aiohttp.ClientSession, tmp_path: Path) -> None:
    """A code Discord accepts with a channel id the database cannot hold (20 digits, past 2**63),
    or one in digits no snowflake is written in (Arabic-Indic "١" was read as channel 1)."""
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), activity_codes={"mock_code": 1})
    try:
        for channel in ("99999999999999999999", 99999999999999999999, str(2**63), "\u0661", "\uff11"):
            async with http.post(opened.base_url + "/api/activity/token",
                                 json={"code": "mock_code", "channel_id": channel}) as answer:
                assert answer.status == 400 and "error" in await answer.json(), channel
    finally:
        await opened.stop()


ACTIVITY_REFUSALS = {
    "not json": (400, "The request body is not JSON.", "O corpo do pedido não é JSON."),
    "no code": (400, "The request needs a code and a channel_id.",
                "O pedido precisa de um código (code) e de um canal (channel_id)."),
    "code refused": (403, "Discord refused the sign-in code; open the Activity again.",
                     "O Discord recusou o código de entrada; abra a Atividade de novo."),
    "no game": (404, "There is no game being played in this channel.",
                "Não há nenhuma partida em andamento neste canal."),
}
"""The Activity's refusals, made before there is a link: (status, English, pt-BR)."""
ASKED = {"pt-BR,pt;q=0.9,en;q=0.8": "pt-BR", "pt": "pt-BR", "pt-PT": "pt-BR", "en;q=0.5, pt-BR": "pt-BR",
         None: "en", "en-US,en;q=0.9": "en", "fr-FR, pt-BR;q=0.7": "en", "*": "en", "pt;q=0": "en"}
"""Accept-Language -> the language of the refusal: the first language asked for (as the page's
own words before a view, i18n.js's browserLocale); English when the bot does not speak it."""


async def test_the_activity_refuses_in_the_language_the_request_asks_for(
        http: aiohttp.ClientSession, tmp_path: Path) -> None:
    """No link yet, hence no locale: the sign-in's refusals follow the request's Accept-Language,
    and none of them hands out a token or changes the game."""
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), activity_codes={"mock_code": 1})
    bodies = {"not json": {"data": b"{not json"}, "no code": {"json": {"code": "", "channel_id": "1"}},
              "code refused": {"json": {"code": "forged", "channel_id": "1"}},
              "no game": {"json": {"code": "mock_code", "channel_id": str(CHANNEL_ID + 1)}}}
    try:
        before = (await opened.game()).revision
        for asked, language in ASKED.items():
            headers = {} if asked is None else {"Accept-Language": asked}
            for refusal, body in bodies.items():
                status, english, portuguese = ACTIVITY_REFUSALS[refusal]
                async with http.post(f"{opened.base_url}/api/activity/token", headers=headers,
                                     **body) as answer:
                    assert (answer.status, await answer.json()) == (
                        status, {"error": portuguese if language == "pt-BR" else english}), (asked, refusal)
        assert (await opened.game()).revision == before
    finally:
        await opened.stop()


@pytest.mark.parametrize("asked", ["pt-BR", None])
async def test_a_bot_without_the_activity_says_so_in_the_language_asked_for(
        http: aiohttp.ClientSession, board: Board, asked: str | None) -> None:
    headers = {} if asked is None else {"Accept-Language": asked}
    said = {"pt-BR": "A Atividade não está configurada neste bot.",
            None: "The Activity is not set up on this bot."}[asked]
    async with http.get(board.base_url + "/api/activity/config", headers=headers) as answer:
        assert (answer.status, await answer.json()) == (404, {"error": said})
    async with http.post(board.base_url + "/api/activity/token", headers=headers,
                         json={"code": "mock_code", "channel_id": "1"}) as answer:
        assert (answer.status, await answer.json()) == (404, {"error": said})


async def test_a_refusal_names_players_as_they_wrote_their_names(http: aiohttp.ClientSession,
                                                                 tmp_path: Path) -> None:
    """Refusals are sentences written for Discord: the page shows them as text, so a name quoted in
    one is as given (no markdown escapes, its own asterisks and backquotes kept) and the rest of the
    sentence has no markdown, in either language."""
    name = "a_b*c **d** `e`"
    opened = await open_board(tmp_path, players=2, human_seats=(0, 1), names=(name, "Bia"), seed=11)
    try:
        for locale in (None, "pt-BR"):
            token = opened.token(1, locale=locale)
            _, view = await get_view(http, opened, token)
            body = {"action": "level1", "stamp": view["game"]["stamp"]}
            _, refused = await post(http, opened, "/api/act", token, body)
            _, checked = await post(http, opened, "/api/check", token, body)
            for text in (refused["error"], checked["reason"]):
                rest = text.replace(name, "")
                assert name in text and "\\" not in rest and "**" not in rest and "`" not in rest, text
    finally:
        await opened.stop()


AFTER_COMMIT_FAULTS = {
    "storage": lambda: sqlite3.OperationalError("database is locked"),  # a storage fault
    "bug": lambda: RuntimeError("no such thing"),  # anything else
}


def _fail_after_commit(monkeypatch: pytest.MonkeyPatch, board: Board, step: str, fault: str) -> None:
    """Make ``step`` of the answer to a committed change raise: the view's build (the log read
    behind it), the sentence of what it did, or the presenter (the channel's post, taking back)."""
    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise AFTER_COMMIT_FAULTS[fault]()

    def failing_now(*args: Any, **kwargs: Any) -> Any:
        raise AFTER_COMMIT_FAULTS[fault]()

    if step == "view":
        monkeypatch.setattr(board.front, "view", failing)
    elif step == "said":
        monkeypatch.setattr("bot.web.acting.said", failing_now)
        monkeypatch.setattr("bot.web.acting.Notation", failing_now)  # the undo's sentence
    else:
        monkeypatch.setattr(board.front, "present", failing)
        monkeypatch.setattr(board.front, "present_undo", failing)


@pytest.mark.parametrize("fault", sorted(AFTER_COMMIT_FAULTS))
@pytest.mark.parametrize("step", ["view", "said", "present"])
async def test_a_failure_after_the_commit_still_answers_that_it_was_done(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, step: str, fault: str) -> None:
    """An action, then its undo, each committed before a later step fails: the answer is a
    success saying it was done (no view when there is none, and a note), the revision moved on
    once, the error is logged for the operator, and the same request sent again is stale."""
    token = board.token(0, locale="pt-BR" if fault == "bug" else None)
    _, view = await get_view(http, board, token)
    for body in ({"action": "level1", "stamp": view["game"]["stamp"]},
                 {"action": "undo", "stamp": None}):
        revision = (await board.game()).revision
        if body["stamp"] is None:
            _, shown = await get_view(http, board, token)
            body["stamp"] = shown["game"]["stamp"]
        caplog.clear()
        _fail_after_commit(monkeypatch, board, step, fault)
        async with http.post(board.base_url + "/api/act", headers=auth(token), json=body) as answer:
            status, text = answer.status, await answer.text()
        await board.front.settle()
        monkeypatch.undo()
        assert status == 200, text
        done = json.loads(text)
        assert (await board.game()).revision == revision + 1
        assert "Traceback" not in text and all(isinstance(line, str) for line in done["said"])
        if step == "present":  # the channel's post fails on its own: the answer is whole
            assert done["view"]["game"]["revision"] == revision + 1 and len(done["said"]) >= 1
        else:
            assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)
            note = done["said"][-1]
            assert "view" in done and (done["view"] is None) == (step == "view")
            if fault == "bug":
                assert note.startswith("Está feito (salvo)"), note
            elif step == "view":
                assert note.startswith("Your action stands (it is saved)"), note
            else:
                assert note.startswith("It is done (saved)"), note
            if step == "view":  # what it did is still said before the note
                assert len(done["said"]) >= 2
        again, stale = await post(http, board, "/api/act", token, body)
        assert again == 409 and stale["view"]["game"]["revision"] == revision + 1
        assert (await board.game()).revision == revision + 1


async def test_checking_an_undo_answers_as_the_undo_would_and_changes_nothing(
        http: aiohttp.ClientSession, board: Board) -> None:
    """``/api/check`` of ``undo``: a stale stamp is 409 as for any check; nothing of the seat's
    to take back is ok false with the reason the undo would give; a takeable action is ok."""
    token = board.token(0)
    _, view = await get_view(http, board, token)
    stamp = view["game"]["stamp"]
    revision = (await board.game()).revision
    status, nothing = await post(http, board, "/api/check", token, {"action": "undo", "stamp": stamp})
    assert status == 200 and nothing["ok"] is False and "nothing to take back" in nothing["reason"]
    _, done = await post(http, board, "/api/act", token, {"action": "level1", "stamp": stamp})
    status, stale = await post(http, board, "/api/check", token, {"action": "undo", "stamp": stamp})
    assert status == 409 and "out of date" in stale["error"]
    assert stale["view"]["game"]["revision"] == revision + 1
    fresh = done["view"]["game"]["stamp"]
    status, checked = await post(http, board, "/api/check", token, {"action": "undo", "stamp": fresh})
    assert status == 200 and checked == {"ok": True}
    _, bia = await get_view(http, board, board.token(1, locale="pt-BR"))
    status, not_hers = await post(http, board, "/api/check", board.token(1, locale="pt-BR"),
                                  {"action": "undo", "stamp": bia["game"]["stamp"]})
    assert status == 200 and not_hers["ok"] is False and "Ana" in not_hers["reason"]
    assert "`" not in not_hers["reason"] and "**" not in not_hers["reason"]
    _, undone = await post(http, board, "/api/act", token, {"action": "undo", "stamp": fresh})
    assert undone["view"]["game"]["revision"] == revision + 2  # the checks changed nothing
    assert (await board.game()).revision == revision + 2


UNREADABLE_BODIES: list[tuple[str, Any]] = [
    ("/api/act", {"stamp": "1", "action": "take purple 9"}),  # the engine cannot read the notation
    ("/api/check", {"stamp": "1", "action": "take **x** 2"}),  # ... quoting the player's own marks
    ("/api/act", {"stamp": "1", "action": 7}),  # wrong types
    ("/api/check", {"stamp": "1", "place": {"shape": "I3", "card": "W01", "cells": "A1"}}),
    ("/api/act", {"action": "level1"}),  # no stamp
    ("/api/act", b"{not json"),
    ("/api/plan/draft", {"steps": "level1"}),
    ("/api/plan", {"steps": [{"action": "take purple 9"}]}),
    ("/api/plan/draft", b"{not json"),
]


@pytest.mark.parametrize(("path", "body"), UNREADABLE_BODIES)
async def test_an_unreadable_body_is_refused_in_the_links_language_as_plain_text(
        http: aiohttp.ClientSession, board: Board, path: str, body: Any) -> None:
    seat = 1 if path.startswith("/api/plan") else 0
    said = {}
    for locale in (None, "pt-BR"):
        sent = {"data": body, "headers": {**auth(board.token(seat, locale=locale)),
                                          "Content-Type": "application/json"}} \
            if isinstance(body, bytes) else {"json": body, "headers": auth(board.token(seat, locale=locale))}
        async with http.post(board.base_url + path, **sent) as answer:
            assert answer.status == 400, (locale, await answer.text())
            said[locale] = (await answer.json())["error"]
    assert said[None] != said["pt-BR"], said
    for text in said.values():
        assert "`" not in text and "**" not in text and "\\" not in text, text


@pytest.mark.parametrize("fault", sorted(AFTER_COMMIT_FAULTS))
async def test_an_ai_seat_stopped_after_the_action_is_told_beside_it(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, fault: str) -> None:
    """The turn's last action commits, then the AI seat's move after it stops (the manager plays
    it at start-up): the answer says the action was done and, after it, that what follows may be
    missing, as the Discord front says it; an unexpected error is logged for the operator."""
    token = board.token(0)
    for _ in range(2):
        _, view = await get_view(http, board, token)
        assert (await post(http, board, "/api/act", token, {"action": "level1",
                                                               "stamp": view["game"]["stamp"]}))[0] == 200

    async def stopped(game: Any) -> Any:
        return [], game, AFTER_COMMIT_FAULTS[fault]()

    monkeypatch.setattr(board.front.manager, "_play_policies", stopped)
    _, view = await get_view(http, board, token)
    revision = (await board.game()).revision
    caplog.clear()
    body = {"action": "level1", "stamp": view["game"]["stamp"]}
    status, done = await post(http, board, "/api/act", token, body)
    assert status == 200, done
    assert (await board.game()).revision == revision + 1
    assert done["view"]["game"]["revision"] == revision + 1 and done["said"][0].startswith("Done:"), done
    assert done["said"][-1].startswith("Your action stands (it is saved), but"), done["said"]
    assert "`" not in done["said"][-1]
    assert any(r.levelno == logging.ERROR for r in caplog.records) == (fault == "bug")


@pytest.mark.parametrize("action", ["level1", "undo"])
async def test_a_storage_fault_before_the_commit_is_503_in_the_players_words(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch, action: str) -> None:
    """The database locked before anything is committed: an action and an undo alike answer 503
    saying nothing was changed and to try again (an undo used to answer a bare 500)."""
    token = board.token(0)
    _, view = await get_view(http, board, token)
    first = {"action": "level1", "stamp": view["game"]["stamp"]}
    assert (await post(http, board, "/api/act", token, first))[0] == 200

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(board.front.manager, "act", locked)
    monkeypatch.setattr("bot.web.acting.undo_last", locked)
    _, view = await get_view(http, board, token)
    revision = (await board.game()).revision
    body = {"action": action, "stamp": view["game"]["stamp"]}
    status, refused = await post(http, board, "/api/act", token, body)
    assert status == 503, refused
    assert "nothing was changed" in refused["error"] and "locked" in refused["error"], refused
    assert (await board.game()).revision == revision


async def test_an_ai_turn_a_fault_stopped_is_played_when_the_board_finds_it_waiting(
        http: aiohttp.ClientSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI seat's move could not be saved after the player's last action (the disk was full,
    then freed; the bot not restarted): the board's player, refused because the AI holds the move,
    sets it going as a Discord refusal does, and the channel gets its turn."""
    board = await open_board(tmp_path, players=2, human_seats=(0,), seed=11)
    try:
        manager = board.front.manager
        real = manager._play_policies  # noqa: SLF001

        async def stopped(game: Any) -> Any:
            return [], game, OSError(28, "No space left on device")

        monkeypatch.setattr(manager, "_play_policies", stopped)
        token = board.token(0)
        for _ in range(3):
            _, view = await get_view(http, board, token)
            assert (await post(http, board, "/api/act", token,
                               {"action": "level1", "stamp": view["game"]["stamp"]}))[0] == 200
        await board.front.settle()
        stalled = await board.game()
        assert stalled.state is not None and stalled.state.current == 1
        monkeypatch.setattr(manager, "_play_policies", real)  # the disk is freed
        posts = board.posts.turn_posts
        _, view = await get_view(http, board, token)
        status, refused = await post(http, board, "/api/act", token,
                                     {"action": "level1", "stamp": view["game"]["stamp"]})
        assert status == 422 and "Easy AI 1" in refused["error"], refused
        await board.front.settle()
        after = await board.game()
        assert after.state is not None and after.state.current == 0 and after.revision > stalled.revision
        assert board.posts.turn_posts == posts + 1
    finally:
        await board.stop()
