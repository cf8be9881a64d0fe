"""Browser tests: the board page in a real headless Chromium, driven by Playwright for Python.

The browser is the distribution's ``chromium`` (``make test`` installs it when missing), launched
through ``executable_path``: Playwright never downloads a browser here. One browser per xdist
worker, started by the first browser test it runs (a launch costs about a second of CPU), and a
fresh context and page per test, so the tests stay independent. Playwright's sync API marks its
event loop as the thread's running loop between calls; ``playwright_owns_the_thread`` hands the
thread to it for a browser test only, so the asyncio tests a worker runs in between find no
running loop. Without a chromium on the machine every browser test is skipped with that reason.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.board import BoardHandle, start_board

try:
    from board_pages import BUSY_CEILING_MS, DESKTOP
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
except ImportError:  # the dev extra is not installed: the browser tests are not collected
    sync_playwright = None
    collect_ignore_glob = ["*.py"]

CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    # Without these Chromium keeps calling home (updates, sync, field trials) on a closed network.
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)
"""How Chromium is launched: headless, no sandbox (containers), and quiet on the network."""



def chromium_path() -> str | None:
    """The system Chromium: ``$PROJECTL_CHROMIUM``, else ``chromium`` (or ``chromium-browser``) on PATH."""
    configured = os.environ.get("PROJECTL_CHROMIUM", "").strip()
    if configured:
        return configured if Path(configured).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    """Playwright (its driver process) for the whole session of this worker, stopped at its end."""
    if sync_playwright is None:
        pytest.skip("Playwright for Python is not installed (pip install -e '.[dev]')")
    if chromium_path() is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; make test does it when it may)")
    with sync_playwright() as playwright:
        yield playwright
        asyncio._set_running_loop(playwright._loop)  # its exit runs the loop once more


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    """One headless Chromium per xdist worker, shared by the browser tests it runs."""
    launched = playwright_session.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
    yield launched
    asyncio._set_running_loop(playwright_session._loop)
    launched.close()


@pytest.fixture(autouse=True)
def playwright_owns_the_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    """Around a test that uses the browser, Playwright's loop is the thread's running loop, as its
    sync API expects from one call to the next; after the test (its contexts closed) the thread
    has no running loop again, for the asyncio tests this worker runs next (pytest-asyncio
    refuses to start a loop inside a running one)."""
    if "browser" not in request.fixturenames:
        yield
        return
    playwright: Playwright = request.getfixturevalue("playwright_session")
    asyncio._set_running_loop(playwright._loop)
    try:
        yield
    finally:
        asyncio._set_running_loop(None)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh desktop context per test (its own storage, no leftovers from another test)."""
    made = browser.new_context(viewport=DESKTOP)
    made.set_default_timeout(BUSY_CEILING_MS)  # a ceiling for a busy machine, not an expected wait
    yield made
    made.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A page whose console errors and page errors fail nothing but are kept for the test to read."""
    made = context.new_page()
    made.set_default_timeout(BUSY_CEILING_MS)  # as its context: a ceiling, not an expected wait
    return made


@pytest.fixture
def boards(tmp_path: Path) -> Iterator[Callable[..., BoardHandle]]:
    """Start offline games with their board server (``bot.board``, the ``make board`` entry
    point) on port 0; every one started is stopped after the test."""
    started: list[BoardHandle] = []

    def start(**options: Any) -> BoardHandle:
        handle = start_board(tmp_path / f"board-{len(started)}", **options)
        started.append(handle)
        return handle

    yield start
    for handle in started:
        handle.stop()
