"""Browser tests: the board page in a real headless Chromium, driven by Playwright for Python.

The browser is the distribution's ``chromium`` (``make test`` installs it when missing), launched
through ``executable_path``: Playwright never downloads a browser here. One browser per test
module (Playwright's sync API holds an event loop on the thread while it is open, which the
asyncio tests that a worker runs next must not find), a fresh context and page per test, so the
tests stay independent. Without a chromium on the machine every browser test is skipped with that reason.
"""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def playwright_session() -> Iterator[Playwright]:
    """Playwright's sync API runs an event loop on this thread while it is open: one per browser
    test module, closed at its end, so the asyncio tests a worker runs next start cleanly."""
    if sync_playwright is None:
        pytest.skip("Playwright for Python is not installed (pip install -e '.[dev]')")
    if chromium_path() is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; make test does it when it may)")
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    """One headless Chromium per browser test module (and xdist worker)."""
    launched = playwright_session.chromium.launch(executable_path=chromium_path(), args=list(CHROMIUM_ARGS))
    yield launched
    launched.close()


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
