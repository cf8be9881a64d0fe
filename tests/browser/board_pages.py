"""Helpers the browser tests share: open a seat's board, read its view, and move pieces the way a
player does (a mouse drag, a finger on a touch screen, or the keyboard)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

Cells = list[list[int]]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

COUNT_GESTURES = """
window.__gestures = 0;
window.addEventListener("pointerdown", (event) => { if (event.isPrimary) window.__gestures += 1; }, true);
"""
"""An init script: every press of a mouse button, pen or finger is one gesture."""


def open_board(page: Page, url: str) -> Page:
    """Go to a board link and wait until the seat's view is drawn."""
    page.add_init_script(COUNT_GESTURES)
    page.goto(url)
    page.wait_for_selector("#players-h")
    return page


def view(page: Page) -> dict[str, Any]:
    """The view the page holds now (the JSON it received)."""
    found: dict[str, Any] = page.evaluate("window.board.view")
    return found


def gestures(page: Page) -> int:
    return int(page.evaluate("window.__gestures"))


BUSY_CEILING_MS = 120_000
"""How long a page action or wait may take before it fails: generous, since a loaded machine
slows Chromium far more than the server; the tests that measure speed measure it themselves."""


def revision(page: Page) -> int:
    return int(view(page)["game"]["revision"])


def wait_revision(page: Page, above: int, timeout: float = BUSY_CEILING_MS, *, answered: bool = True) -> None:
    """Wait until the page has drawn a view newer than revision ``above`` and (``answered``) holds
    no request in flight: the live stream can bring the new view before the move's own answer,
    whose words the test then reads (on a busy machine it often does)."""
    settled = " && !window.board.busy" if answered else ""
    page.wait_for_function(f"(above) => window.board?.view?.game.revision > above{settled}",
                           arg=above, timeout=timeout)


def wait_presses(page: Page, count: int) -> None:
    """Wait until ``count`` presses wait for the request in flight (``Board.settled``)."""
    page.wait_for_function("(n) => window.board.idleWaiters.length === n", arg=count)


def wait_presses_decided(page: Page) -> None:
    """Wait until no request is in flight and no press waits for one: a press that waited has
    been decided (had it been sent, the page would be busy until its answer)."""
    page.wait_for_function("() => !window.board.busy && window.board.idleWaiters.length === 0")


def normalised(cells: Cells) -> list[tuple[int, int]]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return sorted((r - top, c - left) for r, c in cells)


def lead(cells: Cells) -> tuple[int, int]:
    """The first cell in reading order."""
    r, c = min((r, c) for r, c in cells)
    return r, c


def orientation(page: Page, shape: str) -> Cells:
    cells: Cells = page.evaluate("(shape) => window.board.orientation(shape)", shape)
    return cells


def placement_in_hand(page: Page, shape: str, *, card: str | None = None) -> dict[str, Any]:
    """A legal placement of ``shape`` in the orientation the page holds it in (on ``card``)."""
    held = normalised(orientation(page, shape))
    for option in view(page)["placements"].get(shape, []):
        if normalised(option["cells"]) == held and (card is None or option["card"] == card):
            return dict(option)
    raise AssertionError(f"no legal placement of {shape} as the page holds it")


def piece_cell_centre(page: Page, shape: str) -> tuple[float, float]:
    """Where the supply piece's first cell (in reading order) is drawn on the screen."""
    point: list[float] = page.evaluate("""(shape) => {
        const cells = window.board.orientation(shape);
        let best = 0;
        cells.forEach(([r, c], i) => {
            const [br, bc] = cells[best];
            if (r < br || (r === br && c < bc)) best = i;
        });
        const rect = document.querySelectorAll(`#supply button.piece[data-shape="${shape}"] svg rect`)[best];
        const box = rect.getBoundingClientRect();
        return [box.left + box.width / 2, box.top + box.height / 2];
    }""", shape)
    return point[0], point[1]


def corner(page: Page, selector: str, inset: float = 0.5) -> tuple[float, float]:
    """A point of the element ``selector`` (its centre by default; ``inset`` 0 is its top left),
    read in the page in one step: a locator's bounding box is None when a redraw replaced the
    element between finding it and measuring it (a live update may redraw at any time)."""
    point: list[float] = page.evaluate("""([selector, inset]) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return [box.left + box.width * inset, box.top + box.height * inset];
    }""", [selector, inset])
    return point[0], point[1]


def cell_centre(page: Page, card: str, r: int, c: int) -> tuple[float, float]:
    return corner(page, f'#puzzles rect[data-card="{card}"][data-r="{r}"][data-c="{c}"]')


Point = tuple[float, float]


def mouse_drag(page: Page, start: Point, end: Point, *, between: Any = None) -> None:
    """Press at ``start``, move in steps to ``end`` (calling ``between()`` half way), release."""
    page.mouse.move(*start)
    page.mouse.down()
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    page.mouse.move(*mid, steps=6)
    if between is not None:
        between()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def touch_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger pressed on ``start``, slid to ``end`` and lifted: real touch input through the
    DevTools protocol, which Chromium turns into pointer events of type "touch"."""
    session = page.context.new_cdp_session(page)
    try:
        session.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
        steps = 8
        for i in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        session.detach()


def touch_lift(page: Page, shape: str) -> float:
    """How far above a finger the first cell of ``shape`` rides while the finger drags it by that
    cell (drag.js, touchLift: the piece is drawn clear of the fingertip)."""
    lift: float = page.evaluate("""(shape) => {
        const cells = window.board.orientation(shape);
        let first = 0;
        cells.forEach(([r, c], i) => {
            if (r < cells[first][0] || (r === cells[first][0] && c < cells[first][1])) first = i;
        });
        return window.board.touchLift(cells, first);
    }""", shape)
    return lift


def drag_to_placement(page: Page, shape: str, placement: dict[str, Any], *, touch: bool = False) -> None:
    """Drag the supply piece by its first cell onto the placement's first cell (a finger ends
    below that cell, the piece riding above it)."""
    start = piece_cell_centre(page, shape)
    end = cell_centre(page, placement["card"], *lead(placement["cells"]))
    if touch:
        touch_drag(page, start, (end[0], end[1] + touch_lift(page, shape)))
    else:
        mouse_drag(page, start, end)


def message(page: Page) -> str:
    return page.inner_text("#message")
