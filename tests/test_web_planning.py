"""The board's Plan mode API (bot/web/planning.py) on a real server on port 0: drafts laid out by
the core on the seat's own view, a plan kept, played when the turn passes and shown with what it
did (also by the board of a process started since), a broken plan stopped where it broke, and
every refusal a sentence that changes nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.board import CHANNEL_ID, Board, Posts, open_board
from bot.core.config import DEFAULT_WEB_HOST
from bot.core.play import plan_keeping
from bot.core.play.flow import ActingContext
from bot.core.play.games_core import GamesCore
from bot.core.play.manager import GameManager
from bot.core.storage import Storage
from bot.core.storage.plans import PlanStore
from bot.web.acting import BoardFront
from bot.web.server import start_board_server
from bot.web.tokens import TokenSigner, new_secret
from engine.cards import Colour
from engine.policies.hidden import visible_cards
from engine.state import LineClearTable
from engine.variants.line_clear import next_side

LEVEL1 = {"action": "level1"}


async def call(http: aiohttp.ClientSession, board: Board, path: str, seat: int | None,
               body: Any = None, *, locale: str | None = None) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {board.token(seat, locale=locale)}"}
    method = http.get if body is None and path == "/api/plan" else http.post
    async with method(board.base_url + path, headers=headers, json=body) as answer:
        return answer.status, await answer.json()


async def view_of(http: aiohttp.ClientSession, board: Board, seat: int) -> Any:
    async with http.get(board.base_url + "/api/view",
                        headers={"Authorization": f"Bearer {board.token(seat)}"}) as answer:
        return await answer.json()


async def test_a_draft_is_the_seats_view_after_its_steps_and_keeps_nothing(
        http: aiohttp.ClientSession, board: Board) -> None:
    status, empty = await call(http, board, "/api/plan/draft", 1, {"steps": []})
    assert status == 200 and empty["plan"] == {"steps": [], "open": True, "side": None}
    assert empty["view"]["me"]["acting"] and empty["view"]["me"]["actions_left"] == 3
    assert {"take", "level1"} <= {offer["kind"] for offer in empty["view"]["offers"]}
    white = (await board.game()).state.table.white_row  # type: ignore[union-attr]
    status, drafted = await call(http, board, "/api/plan/draft", 1,
                                 {"steps": [{"action": "take white 2"}, LEVEL1]})
    assert status == 200 and drafted["view"]["me"]["actions_left"] == 1
    assert drafted["plan"]["steps"][0] == {"action": "take white 2", "text": "take white 2", "card": white[1]}
    assert [p["id"] for p in drafted["view"]["puzzles"]] == [white[1]]
    row = next(r for r in drafted["view"]["table"]["rows"] if r["colour"] == "white")
    assert row["cards"][1] is None  # refilled from a deck the seat cannot see into: not shown
    assert drafted["view"]["undo"] is None
    assert await PlanStore(board.storage).get(board.game_id, 1) is None


async def test_a_plan_filling_the_turn_is_closed_and_one_past_it_refused(
        http: aiohttp.ClientSession, board: Board) -> None:
    status, full = await call(http, board, "/api/plan/draft", 1, {"steps": [LEVEL1] * 3})
    assert status == 200 and full["plan"]["open"] is False and full["view"]["offers"] == []
    status, refused = await call(http, board, "/api/plan/draft", 1, {"steps": [LEVEL1] * 4})
    assert status == 422 and refused["error"].startswith("Step 4 of the plan would be refused")


async def test_refusals_are_sentences_and_change_nothing(http: aiohttp.ClientSession, board: Board) -> None:
    before = (await board.game()).revision
    status, mine = await call(http, board, "/api/plan/draft", 0, {"steps": []})
    assert status == 422 and "It is your turn now" in mine["error"]
    for path in ("/api/plan", "/api/plan/draft", "/api/plan/cancel"):
        status, answer = await call(http, board, path, None, {"steps": [LEVEL1]})
        assert status == 403 and "error" in answer
    status, answer = await call(http, board, "/api/plan", 1, {"steps": [{"action": "undo"}]})
    assert status == 400 and "error" in answer
    status, answer = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1], "side": "up"})
    assert status == 400
    status, answer = await call(http, board, "/api/plan", 1, {"steps": [{"place": {"card": "W99"}}]})
    assert status == 400
    status, answer = await call(http, board, "/api/plan", 1, {"steps": []})
    assert status == 422 and "notation" in answer["error"]
    elsewhere = {"place": {"card": "W01", "shape": "1", "cells": [[0, 0]]}}  # no puzzle of its own
    status, answer = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1, elsewhere]})
    assert status == 422 and answer["error"].startswith("Step 2 of the plan would be refused")
    assert await PlanStore(board.storage).get(board.game_id, 1) is None
    assert (await board.game()).revision == before


async def test_a_saved_plan_plays_when_the_turn_passes_and_says_what_it_did(
        http: aiohttp.ClientSession, board: Board) -> None:
    status, saved = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1] * 3})
    assert status == 200 and saved["said"].startswith("Planned for your next turn")
    assert [s["action"] for s in saved["plan"]["steps"]] == ["level1"] * 3 and saved["outcome"] is None
    assert (await call(http, board, "/api/plan", 1))[1]["plan"] == saved["plan"]
    assert (await call(http, board, "/api/plan", 0))[1] == {"plan": None, "outcome": None}  # not another's
    for _ in range(3):
        await board.act(0, "level1")
    status, shown = await call(http, board, "/api/plan", 1)
    assert shown["plan"] is None
    assert shown["outcome"]["played"] == ["level1"] * 3 and not shown["outcome"]["stopped"]
    assert shown["outcome"]["text"].startswith(f"Your planned turn in game {board.game_id} was played")
    async with http.get(board.base_url + "/api/view",
                        headers={"Authorization": f"Bearer {board.token(1)}"}) as answer:
        log = (await answer.json())["log"]
    assert sum(line.endswith("(planned)") for line in log) == 3
    status, dismissed = await call(http, board, "/api/plan/cancel", 1, {})
    assert dismissed["outcome"] is None and dismissed["said"] == "You have no plan in this game."


async def reopened(folder: Path, before: Board) -> Board:
    """The board of a new process on ``before``'s database: a new store, manager and front."""
    storage = await Storage.open(folder / "board.sqlite3")
    manager = GameManager(storage, seed_source=lambda: 11)
    posts = Posts()
    front = BoardFront(manager, TokenSigner(await storage.kept_secret("web_board", new_secret())), posts)
    running = await start_board_server(front, DEFAULT_WEB_HOST, 0)
    return Board(storage, manager, front, running, before.game_id, before.users, posts)


async def test_what_a_planned_turn_did_is_shown_by_the_board_after_a_restart(
        http: aiohttp.ClientSession, tmp_path: Path) -> None:
    """Kept in storage (``plan_outcomes``): the page of a board started since shows it, in the
    page's language, until it is dismissed; dismissed, it stays so after the next restart."""
    board = await open_board(tmp_path, players=2, human_seats=(0, 1), seed=11)
    try:
        card = (await board.game()).state.table.white_row[2]  # type: ignore[union-attr]
        await call(http, board, "/api/plan", 1, {"steps": [LEVEL1, {"action": "take white 3"}, LEVEL1]})
        for action in ("take white 3", "level1", "level1"):
            await board.act(0, action)
        _, before = await call(http, board, "/api/plan", 1, locale="pt-BR")
        assert before["outcome"]["stopped"]
    finally:
        await board.stop()
    again = await reopened(tmp_path, board)
    try:
        status, shown = await call(http, again, "/api/plan", 1, locale="pt-BR")
        assert status == 200 and shown == before
        assert f"{card} branco não está mais onde o plano o pegaria." in shown["outcome"]["text"]
        assert (await call(http, again, "/api/plan", 0))[1]["outcome"] is None  # not another seat's
        _, dismissed = await call(http, again, "/api/plan/cancel", 1, {})
        assert dismissed["outcome"] is None
    finally:
        await again.stop()
    third = await reopened(tmp_path, board)
    try:
        assert (await call(http, third, "/api/plan", 1))[1] == {"plan": None, "outcome": None}
    finally:
        await third.stop()


async def test_a_plan_broken_by_the_others_take_stops_there(http: aiohttp.ClientSession,
                                                             board: Board) -> None:
    card = (await board.game()).state.table.white_row[2]  # type: ignore[union-attr]
    status, _ = await call(http, board, "/api/plan", 1,
                           {"steps": [LEVEL1, {"action": "take white 3"}, LEVEL1]})
    assert status == 200
    for action in ("take white 3", "level1", "level1"):
        await board.act(0, action)
    status, shown = await call(http, board, "/api/plan", 1)
    outcome = shown["outcome"]
    assert outcome["played"] == ["level1"] and outcome["left"] == ["take white 3", "level1"]
    assert outcome["stopped"] and f"{card} is no longer where the plan took it from" in outcome["text"]
    assert shown["plan"] is None


async def test_cancel_drops_the_plan(http: aiohttp.ClientSession, board: Board) -> None:
    await call(http, board, "/api/plan", 1, {"steps": [LEVEL1]})
    status, answer = await call(http, board, "/api/plan/cancel", 1, {})
    assert status == 200 and answer["plan"] is None and answer["said"].startswith("Your plan is cancelled")
    for _ in range(3):
        await board.act(0, "level1")
    state = (await board.game()).state
    assert state is not None and state.current == 1 and state.actions_left == 3  # nothing played for it


async def test_a_plan_holds_a_master_laid_out_from_the_drafts_options(
        http: aiohttp.ClientSession, board: Board) -> None:
    for _ in range(3):
        await board.act(0, "level1")
    for action in ("take white 1", "take white 2", "level1"):
        await board.act(1, action)
    status, drafted = await call(http, board, "/api/plan/draft", 1, {"steps": []})
    master = drafted["view"]["master"]
    assert status == 200 and master is not None
    first, second = sorted(master["per_card"])
    one = next(p for p in master["per_card"][first] if p["shape"] == "1")
    two = next(p for p in master["per_card"][second] if p["shape"] == "2")
    step = {"master": [{"shape": p["shape"], "card": card, "cells": p["cells"]}
                       for p, card in ((one, first), (two, second))]}
    status, saved = await call(http, board, "/api/plan", 1, {"steps": [step, LEVEL1]})
    assert status == 200 and saved["plan"]["steps"][0]["action"].startswith("master")
    for _ in range(3):
        await board.act(0, "level1")
    state = (await board.game()).state
    assert state is not None
    filled = {p.card: p.filled.bit_count() for p in state.players[1].puzzles}
    assert filled == {first: 1, second: 2} and state.actions_left == 1  # Master and level1 played


async def test_in_line_clear_a_plan_is_laid_out_on_the_side_chosen_else_the_seats_next(
        http: aiohttp.ClientSession, tmp_path: Path) -> None:
    opened = await open_board(tmp_path, players=5, human_seats=(0, 1, 2, 3, 4), seed=5)
    try:
        state = (await opened.game()).state
        assert state is not None
        seat = next(s for s in range(5) if s not in state.acting_seats)
        table = state.table
        assert isinstance(table, LineClearTable)
        take = {"steps": [{"action": "take white 1"}]}
        for side in ("left", "right"):
            status, drafted = await call(http, opened, "/api/plan/draft", seat, {**take, "side": side})
            assert status == 200 and drafted["plan"]["side"] == side
            assert drafted["view"]["table"]["side"] == side
            assert drafted["plan"]["steps"][0]["card"] == table.row(side, Colour.WHITE)[0]
        status, unchosen = await call(http, opened, "/api/plan/draft", seat, take)
        # none chosen: the side of the seat's next turn, as on Discord (the other's rows it will not see)
        assert next_side(state, seat) is not None
        assert status == 200 and unchosen["plan"]["side"] == next_side(state, seat)
        assert unchosen["plan"]["steps"][0]["card"] == table.row(next_side(state, seat), Colour.WHITE)[0]
    finally:
        await opened.stop()


def card_ids(value: Any, known: frozenset[str]) -> set[str]:
    """Every string in a JSON value that is a card's id."""
    if isinstance(value, dict):
        return set().union(*(card_ids(v, known) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_ids(v, known) for v in value)) if value else set()
    return {value} if isinstance(value, str) and value in known else set()


async def test_a_draft_shows_no_card_the_seat_cannot_see(http: aiohttp.ClientSession, board: Board) -> None:
    state = (await board.game()).state
    assert state is not None
    seen = visible_cards(state, 1)
    draws = [{"action": "draw white"}, {"action": "draw black"}]
    refills = [{"action": "take white 1"}, {"action": "take white 1"}, {"action": "recycle white 1 2 3 4"}]
    for steps in (draws, refills):
        status, drafted = await call(http, board, "/api/plan/draft", 1, {"steps": steps})
        assert status == 200, drafted
        assert card_ids(drafted, frozenset(state.cards)) <= seen
        assert drafted["view"]["table"]["decks"]["white"] < len(state.table.white_deck)  # type: ignore[union-attr]
        if steps[0]["action"].startswith("draw"):  # drawn blind: stand-ins, left out
            assert drafted["view"]["puzzles"] == [] and drafted["view"]["placements"] == {}


async def test_the_plans_sentences_are_in_the_seats_language(http: aiohttp.ClientSession,
                                                             board: Board) -> None:
    status, saved = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1]}, locale="pt-BR")
    assert status == 200 and saved["said"].startswith("Planejado para o seu próximo turno")
    status, refused = await call(http, board, "/api/plan/draft", 1, {"steps": [LEVEL1] * 4}, locale="pt-BR")
    assert status == 422 and refused["error"].startswith("O passo 4 do plano")
    for _ in range(3):
        await board.act(0, "level1")
    status, shown = await call(http, board, "/api/plan", 1, locale="pt-BR")
    assert shown["outcome"]["text"].startswith(f"O seu turno planejado na partida {board.game_id}")


async def test_a_cancelled_games_page_offers_nothing_and_keeps_no_plan(http: aiohttp.ClientSession,
                                                                       board: Board) -> None:
    """The host cancels while both pages are open: the table is still shown, but nothing is offered
    (it would only come back as a 409 with the same view), and no plan is kept for a turn never to come."""
    await board.manager.cancel(CHANNEL_ID, board.users[0])
    mover, waiting = [await view_of(http, board, seat) for seat in (0, 1)]
    assert mover["game"]["status"] == "cancelled" and mover["table"]["rows"]
    assert mover["me"]["acting"] is False and mover["offers"] == [] and mover["placements"] == {}
    assert waiting["me"]["plannable"] is False
    for path in ("/api/plan/draft", "/api/plan"):
        status, answer = await call(http, board, path, 1, {"steps": [LEVEL1]})
        assert status == 422 and "Plans are for" in answer["error"]
    assert await PlanStore(board.storage).get(board.game_id, 1) is None


async def test_a_plan_kept_or_dropped_is_said_so_when_a_read_after_it_fails(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving and cancelling commit first: a read failing after that (the database locked) must
    not answer "something went wrong" about a plan that is kept, or dropped."""
    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as patched:
        patched.setattr(PlanStore, "get", locked)
        status, saved = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1] * 2})
    assert status == 200 and saved["said"].startswith("Planned for your next turn"), saved
    assert [s["action"] for s in saved["plan"]["steps"]] == ["level1"] * 2 and saved["plan"]["played"] == 0
    assert (await call(http, board, "/api/plan", 1))[1]["plan"] == saved["plan"]
    with monkeypatch.context() as patched:
        patched.setattr(PlanStore, "get", locked)
        status, dropped = await call(http, board, "/api/plan/cancel", 1, {})
    assert status == 200 and dropped["plan"] is None and dropped["said"].startswith("Your plan is cancelled")
    assert await PlanStore(board.storage).get(board.game_id, 1) is None


async def test_a_storage_fault_before_a_plan_is_kept_dropped_or_read_is_503_in_the_players_words(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database locked before anything is kept, dropped or read: the page hears the storage's
    refusal in the player's words (503, try again), not a bare 500, and nothing changed."""
    status, kept = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1]})
    assert status == 200

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    routes: list[tuple[str, str, dict[str, Any] | None]] = [
        ("save", "/api/plan", {"steps": [LEVEL1] * 2}), ("delete", "/api/plan/cancel", {}),
        ("get", "/api/plan", None), ("outcome", "/api/plan", None)]
    for method, path, body in routes:
        with monkeypatch.context() as patched:
            patched.setattr(PlanStore, method, locked)
            asked = call(http, board, path, 1) if body is None else call(http, board, path, 1, body)
            status, refused = await asked
        assert status == 503 and set(refused) == {"error"}, (method, refused)
        assert "try again" in refused["error"].lower(), refused
    assert (await call(http, board, "/api/plan", 1))[1]["plan"] == kept["plan"]  # nothing changed


async def test_an_action_is_done_when_reading_the_next_seats_plan_fails_after_it(
        http: aiohttp.ClientSession, board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ana's last action of her turn is committed, then the manager looks for Bia's plan (to play
    it) and that read fails: Ana's action stands and is answered as done, not "nothing was
    changed"; the plan plays on later (at start-up), and the same request again is refused.
    (On SQLite the commit reads the plans itself; the read after it, PostgreSQL's, is forced.)"""
    status, _ = await call(http, board, "/api/plan", 1, {"steps": [LEVEL1]})
    assert status == 200
    for _ in range(2):
        await board.act(0, "level1")
    view = await view_of(http, board, 0)
    revision = (await board.game()).revision

    async def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    body = {**LEVEL1, "stamp": view["game"]["stamp"]}
    with monkeypatch.context() as patched:
        patched.setattr(PlanStore, "get", locked)
        patched.setattr(GamesCore, "plans_read_with", lambda self, game: None)
        status, done = await call(http, board, "/api/act", 0, body)
    assert status == 200 and done["said"][0] == "Done: level1.", done
    assert (await board.game()).revision == done["view"]["game"]["revision"] == revision + 1
    assert await PlanStore(board.storage).get(board.game_id, 1) is not None  # not played, not lost
    status, _ = await call(http, board, "/api/act", 0, body)  # her turn is over: refused first
    assert status == 422 and (await board.game()).revision == revision + 1


async def _next_event(stream: aiohttp.ClientResponse) -> tuple[str, str]:
    """The stream's next event (pings skipped): its name and its data."""
    event, data = "message", []
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if not line:
            if data:
                return event, "\n".join(data)
            continue
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])


async def test_a_plan_kept_or_dropped_reaches_the_seats_other_pages_and_no_one_elses(
        http: aiohttp.ClientSession, board: Board) -> None:
    """A plan is private to its seat: each of the seat's open pages hears that it changed (from the
    board or from Discord's path alike) and nothing of what it holds; the other seat's page and a
    spectator's never hear of it."""
    opened = [(seat, await http.get(board.base_url + "/api/events",
                                    headers={"Authorization": f"Bearer {board.token(seat)}"}))
              for seat in (1, 1, 0, None)]
    try:
        for _, stream in opened:
            assert (await asyncio.wait_for(_next_event(stream), 30))[0] == "view"
        planners = [stream for seat, stream in opened if seat == 1]
        others = [stream for seat, stream in opened if seat != 1]

        assert (await call(http, board, "/api/plan", 1, {"steps": [LEVEL1, LEVEL1]}))[0] == 200
        for stream in planners:
            assert await asyncio.wait_for(_next_event(stream), 30) == ("plan", "{}")
        game = await board.game()
        dropped = await plan_keeping.cancel_plan(board.manager, ActingContext(game, 1, board.users[1]))
        assert dropped  # as /projectl-plan cancel drops it
        for stream in planners:
            assert await asyncio.wait_for(_next_event(stream), 30) == ("plan", "{}")

        await board.act(0, "level1")  # a view for every page: anything sent before it came first
        for stream in planners:
            assert (await asyncio.wait_for(_next_event(stream), 30))[0] == "view"
        for stream in others:
            assert (await asyncio.wait_for(_next_event(stream), 30))[0] == "view"
    finally:
        for _, stream in opened:
            stream.close()
