"""``python -m bench web``: the web board (docs/web-board.md) as a player's browser meets it.

The board runs in a child process as the bot runs it (the manager, a SQLite file, the board's
server, and a presenter that draws each turn post's table image in the bot's render worker
processes); this process is the browsers, on localhost. Figures:

1. ``web_action_p99_ms``: one action through the web API (``POST /api/act``: token checked, the
   flow's context, the commit, the fresh view in the answer), p99 over actions of a few 2-player
   games whose two seats both play on the board. Budget: 15 ms.
2. ``web_page_load_ms``: the page as a browser loads it — the HTML, every script module it imports
   and its stylesheet, then the first state (``GET /api/view``) — one fresh connection each time,
   the median of 30 loads (the p95 beside it). Budget: 300 ms.
3. ``web_pages_200_extra_mb``: the child's resident memory with 200 pages open on live updates
   (server-sent events: 100 of the two seats, 100 spectators) above the same process before they
   opened, the largest reading while moves reach them. Budget: 30 MB.
4. ``web_update_200_p99_ms``: from a move's request until each of those 200 pages has received
   the new view, p99. Budget: 1,000 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp

from bot.board import CHANNEL_ID, open_board
from bot.core.play.manager import ActionResult, TableSettings
from bot.core.rendering.render import ProcessRenderer

from .load import percentile
from .report import BenchReport

ROOT = Path(__file__).resolve().parent.parent
GAMES = 4
ACTIONS = 300
PAGE_LOADS = 30
PAGES = 200
MOVES_TO_200 = 10
STATIC = ROOT / "bot" / "web" / "static"
_IMPORT = re.compile(r"""(?:import|from)\s*(?:[^'";]*?\sfrom\s*)?["'](\./[\w./-]+\.m?js)["']""")
_REVISION = re.compile(rb'"revision":(\d+)')


def say(text: str) -> None:
    print(text, flush=True)


# -- the child: the bot's side -------------------------------------------------------------------------


async def serve(folder: Path) -> None:
    """A board with ``GAMES`` 2-player games (both seats on the board), presenting each turn post's
    table image as the bot does; prints where and with which tokens, then serves until stdin closes."""
    renderer = ProcessRenderer()
    renderer.start()
    board = await open_board(folder, players=2, human_seats=(0, 1), seed=3)

    async def present(result: ActionResult) -> None:
        await board.posts(result)
        if (result.turn_changed or result.finished) and result.game.state is not None:
            await renderer.table(result.game.state, result.game.names)

    board.front.present = present
    games = [board.game_id]
    for number in range(1, GAMES):
        channel = CHANNEL_ID + number
        await board.manager.create_game(guild_id=None, channel_id=channel, host_id=board.users[0],
                                        host_name="Ana", settings=TableSettings(max_players=2))
        await board.manager.join(channel, board.users[1], "Bia")
        games.append((await board.manager.start(channel, board.users[0])).game.id)
    seats = {str(game): [board.token(seat, game_id=game) for seat in (0, 1)] for game in games}
    watchers = [board.token(None, user_id=10_000 + n) for n in range(PAGES // 2)]
    print(json.dumps({"url": board.base_url, "pid": os.getpid(), "games": seats, "watchers": watchers}),
          flush=True)
    try:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    finally:
        await board.stop()
        await renderer.close()


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


# -- this process: the browsers ------------------------------------------------------------------------


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def view_of(http: aiohttp.ClientSession, url: str, token: str) -> Any:
    async with http.get(url + "/api/view", headers=auth(token)) as answer:
        return await answer.json()


def choose(view: Any) -> dict[str, Any] | None:
    """An action a player might make from the view (one that moves the game on), as a body."""
    stamp = view["game"]["stamp"]
    offers = {offer["kind"]: offer for offer in reversed(view["offers"])}
    if "choose" in offers:
        return {"action": offers["choose"]["action"], "stamp": stamp}
    for places in view["placements"].values():
        place = places[0]
        return {"place": {"shape": place["shape"], "card": place["card"], "cells": place["cells"]},
                "stamp": stamp}
    for kind in ("take", "level1", "upgrade", "end turn", "done", "pass", "draw"):
        if kind in offers:
            return {"action": offers[kind]["action"], "stamp": stamp}
    return None


async def acting_view(http: aiohttp.ClientSession, url: str, tokens: list[str]) -> tuple[str, Any] | None:
    for token in tokens:
        view = await view_of(http, url, token)
        if view["game"]["over"]:
            return None
        if view["me"]["acting"]:
            return token, view
    return None


async def play_one(http: aiohttp.ClientSession, url: str, tokens: list[str]) -> float | None:
    """One action in a game: the milliseconds ``POST /api/act`` took, or None when it is over."""
    found = await acting_view(http, url, tokens)
    if found is None:
        return None
    token, view = found
    body = choose(view)
    if body is None:
        return None
    start = time.perf_counter()
    async with http.post(url + "/api/act", headers=auth(token), json=body) as answer:
        await answer.read()
        if answer.status != 200:
            raise RuntimeError(f"act answered {answer.status}: {await answer.text()}")
    return (time.perf_counter() - start) * 1000


async def action_latencies(url: str, games: dict[str, list[str]]) -> list[float]:
    times: list[float] = []
    async with aiohttp.ClientSession() as http:
        open_games = list(games.values())
        while len(times) < ACTIONS and open_games:
            for tokens in list(open_games):
                took = await play_one(http, url, tokens)
                if took is None:
                    open_games.remove(tokens)
                else:
                    times.append(took)
    return times


def page_files() -> list[str]:
    """What the page loads: its stylesheet and every module main.js imports, transitively."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    found = [f"/static/{name}" for name in re.findall(r'href="/static/([\w./-]+\.css)"', html)]
    queue = re.findall(r'src="/static/([\w./-]+\.m?js)"', html)
    seen: set[str] = set()
    while queue:
        name = queue.pop()
        if name in seen or not (STATIC / name).is_file():
            continue
        seen.add(name)
        source = (STATIC / name).read_text(encoding="utf-8")
        base = os.path.dirname(name)
        queue += [os.path.normpath(os.path.join(base, target)) for target in _IMPORT.findall(source)]
    return found + [f"/static/{name}" for name in sorted(seen)]


async def page_loads(url: str, token: str) -> tuple[list[float], int]:
    files = page_files()
    times = []
    for _ in range(PAGE_LOADS):
        start = time.perf_counter()
        async with aiohttp.ClientSession() as http:
            async with http.get(url + "/board") as answer:
                await answer.read()
            for path in files:
                async with http.get(url + path) as answer:
                    await answer.read()
                    assert answer.status == 200, path
            await view_of(http, url, token)
        times.append((time.perf_counter() - start) * 1000)
    return times, len(files)


class Page:
    """One open page's live updates: when each revision first arrived."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.newest = 0
        self.moved = asyncio.Event()

    async def follow(self, http: aiohttp.ClientSession, url: str, token: str) -> None:
        async with http.get(url + "/api/events", headers=auth(token)) as stream:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    found = _REVISION.search(line)
                    if found:
                        revision = int(found[1])
                        self.arrived.setdefault(revision, time.perf_counter())
                        self.newest = max(self.newest, revision)
                        self.moved.set()

    async def beyond(self, revision: int) -> None:
        while self.newest <= revision:
            self.moved.clear()
            await self.moved.wait()


async def pages_and_updates(url: str, pid: int, games: dict[str, list[str]], watchers: list[str]
                            ) -> tuple[float, list[float], float]:
    """Open 200 pages on the first game; the extra memory, each move's arrival times, RSS before."""
    first = next(iter(games.values()))
    before = rss_mb(pid)
    pages = [Page() for _ in range(PAGES)]
    tokens = [first[n % 2] for n in range(PAGES // 2)] + watchers
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as http:
        tasks = [asyncio.ensure_future(page.follow(http, url, token)) for page, token in zip(pages, tokens,
                                                                                            strict=True)]
        await asyncio.wait_for(asyncio.gather(*(page.beyond(0) for page in pages)), 60)
        peak = rss_mb(pid)
        delays: list[float] = []
        async with aiohttp.ClientSession() as actor:
            for _ in range(MOVES_TO_200):
                found = await acting_view(actor, url, first)
                if found is None:
                    break
                token, view = found
                body = choose(view)
                if body is None:
                    break
                revision = view["game"]["revision"]
                start = time.perf_counter()
                async with actor.post(url + "/api/act", headers=auth(token), json=body) as answer:
                    done = await answer.json()
                newest = done["view"]["game"]["revision"]
                await asyncio.wait_for(asyncio.gather(*(page.beyond(revision) for page in pages)), 30)
                for page in pages:
                    arrived = min(t for r, t in page.arrived.items() if r > revision)
                    delays.append((arrived - start) * 1000)
                peak = max(peak, rss_mb(pid))
                assert newest > revision
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return peak - before, delays, before


async def measure(url: str, pid: int, games: dict[str, list[str]], watchers: list[str]) -> dict[str, Any]:
    first_tokens = next(iter(games.values()))
    loads, files = await page_loads(url, first_tokens[0])
    extra, delays, before = await pages_and_updates(url, pid, games, watchers)
    later = dict(list(games.items())[1:])
    spent = cpu_ms(pid)
    actions = await action_latencies(url, later)
    spent = cpu_ms(pid) - spent
    return {"actions": actions, "loads": loads, "files": files, "extra_mb": extra, "delays": delays,
            "rss_before_mb": before, "action_cpu_ms": spent / max(1, len(actions))}


def run() -> dict[str, Any]:
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        child = subprocess.Popen([sys.executable, "-m", "bench", "web", "--serve", folder], cwd=ROOT,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None
            started = json.loads(child.stdout.readline())
            figures = asyncio.run(measure(started["url"], started["pid"], started["games"],
                                          started["watchers"]))
            return {**figures, "load_at_start": load}
        finally:
            if child.stdin is not None:
                child.stdin.close()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench web", description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve(Path(args.serve)))
        return 0
    figures = run()
    report = BenchReport("web")
    actions, loads, delays = figures["actions"], figures["loads"], figures["delays"]
    say(f"{len(actions)} actions, {len(loads)} page loads ({figures['files']} files each), "
        f"{PAGES} pages x {len(delays) // PAGES} moves")
    report.add("web_action_p99_ms", percentile(actions, 99), label="an action through the web API, p99",
               unit="ms", note=f"{len(actions)} actions, 2-player games, SQLite")
    report.add("web_action_p50_ms", percentile(actions, 50), label="an action through the web API, p50",
               unit="ms", note=f"{len(actions)} actions")
    report.add("web_action_cpu_ms", figures["action_cpu_ms"],
               label="... the server's CPU per action (its views read by the page included)", unit="ms",
               note="mean; the load average does not inflate it as much as wall time")
    report.add("web_page_load_ms", percentile(loads, 50),
               label="the page: HTML, scripts, first state, median",
               unit="ms", note=f"{len(loads)} loads of {figures['files']} files and the view, localhost")
    report.add("web_page_load_p95_ms", percentile(loads, 95), label="... p95", unit="ms",
               note=f"{len(loads)} loads")
    report.add("web_pages_200_extra_mb", figures["extra_mb"],
               label="200 open pages with live updates, memory above none", unit="MB",
               note=f"above {figures['rss_before_mb']:.0f} MB")
    report.add("web_update_200_p99_ms", percentile(delays, 99), label="a move reaching all 200 pages, p99",
               unit="ms", note=f"{len(delays)} arrivals")
    report.info("load_average_at_start", figures["load_at_start"])
    report.info("load_average_at_end", os.getloadavg())
    return report.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
