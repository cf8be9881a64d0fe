"""The board as a phone uses it: a touch screen at a phone's size, and a network that drops an
answer on the way back or goes silent while the phone sleeps."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from board_pages import (
    BUSY_CEILING_MS,
    cell_centre,
    lead,
    message,
    open_board,
    piece_cell_centre,
    placement_in_hand,
    revision,
    touch_lift,
    view,
    wait_revision,
)
from playwright.sync_api import Browser, BrowserContext, Page, Route

from bot.board import BoardHandle

PHONES = {"360x740": {"width": 360, "height": 740}, "390x844": {"width": 390, "height": 844},
          "740x360": {"width": 740, "height": 360}}
"""The commonest Android width, an iPhone's, and the first held sideways."""
FINGERTIP_PX = 40
"""How much of the screen a fingertip covers, in CSS px (some 10 mm)."""


@pytest.fixture(params=sorted(PHONES))
def phone(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A phone's context: touch, mobile viewport handling, three device pixels to a CSS pixel."""
    made = browser.new_context(viewport=PHONES[request.param], has_touch=True, is_mobile=True,
                               device_scale_factor=3)
    made.set_default_timeout(BUSY_CEILING_MS)
    yield made
    made.close()


def small_controls(page: Page) -> list[str]:
    """The buttons drawn smaller than a fingertip's 44 CSS px in either direction."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll("button")]
        .map((button) => [button, button.getBoundingClientRect()])
        .filter(([, box]) => box.width > 0 && (box.width < 43.5 || box.height < 43.5))
        .map(([button, box]) => `${button.dataset.key || button.className} ${box.width}x${box.height}`)""")
    return found


def test_every_button_of_a_phone_page_is_a_fingertip_wide(phone: BrowserContext,
                                                          boards: Callable[..., BoardHandle]) -> None:
    """Every button a finger may press is at least 44 CSS px each way, the page fits the screen's
    width and may be pinch-zoomed. The Recycle buttons were 35 px tall, right under the row's
    cards."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    assert page.locator("button.recycle").count() >= 2
    assert small_controls(page) == []
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    assert "user-scalable" not in (page.get_attribute('meta[name="viewport"]', "content") or "")


def lose_answers(page: Page) -> list[int]:
    """Every move the page sends reaches the server, which plays it, and its answer is lost on
    the way back (the phone's network dropped): returns the statuses the server answered."""
    statuses: list[int] = []

    def play_then_drop(route: Route) -> None:
        statuses.append(route.fetch().status)
        route.abort("internetdisconnected")

    page.route("**/api/act", play_then_drop)
    return statuses


def test_a_move_whose_answer_is_lost_is_not_asked_again(phone: BrowserContext,
                                                        boards: Callable[..., BoardHandle]) -> None:
    """A move played on the server whose answer the network dropped: the page used to say the
    server could not be reached, "try again", and kept the board as it was before the move (the
    phone's live stream dropped with it), so a player who did as told played the move twice.
    The page reads the board again and says the move was played."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    page.evaluate("window.board.stopFollowing()")  # the phone's stream went down with the answer
    statuses = lose_answers(page)
    before = revision(page)
    page.locator("button.offer.level1").tap()
    wait_revision(page, before)
    assert statuses == [200] and board.state().actions_left == 2
    assert view(page)["me"]["actions_left"] == 2
    said = message(page)
    assert "was played" in said and "try again" not in said.lower(), said
    assert "error" not in (page.get_attribute("#message", "class") or "")


def test_a_move_lost_before_the_server_says_nothing_was_played(phone: BrowserContext,
                                                               boards: Callable[..., BoardHandle]) -> None:
    """The other way round: the move never reached the server. The board read again shows it
    unplayed, and the page says so: the player may send it again."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    page.route("**/api/act", lambda route: route.abort("internetdisconnected"))
    page.locator("button.offer.level1").tap()
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('not played')")
    assert "not played" in message(page) and board.state().actions_left == 3
    assert "error" in (page.get_attribute("#message", "class") or "")
    assert view(page)["me"]["actions_left"] == 3


SHOWN = """(state) => {
    Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
    Object.defineProperty(document, "hidden", { value: state === "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""
"""Hide or show the page as a phone does when its screen goes off and on."""


def test_a_phone_woken_up_follows_the_game_again(phone: BrowserContext,
                                                 boards: Callable[..., BoardHandle]) -> None:
    """The live stream died without a word while the phone slept (its request left into a network
    that never answers): the page used to wait on it for good, showing the board as it was. Shown
    again, it opens the stream anew at once and draws the moves made meanwhile."""
    board = boards(players=2, human_seats=(0, 1))
    page = phone.new_page()
    silent: list[Route] = []

    def first_silent(route: Route) -> None:
        if silent:
            route.continue_()
        else:
            silent.append(route)  # never answered

    page.route("**/api/events", first_silent)
    open_board(page, board.link(0))
    page.evaluate(SHOWN, "hidden")
    before = revision(page)
    board.act(0, "level1")  # from Discord, say, while this phone slept
    page.wait_for_timeout(500)
    assert revision(page) == before
    page.evaluate(SHOWN, "visible")
    wait_revision(page, before, timeout=15_000)
    assert view(page)["me"]["actions_left"] == 2
    assert "error" not in (page.get_attribute("#message", "class") or "")


def test_a_stream_gone_silent_on_a_shown_page_is_opened_again(phone: BrowserContext,
                                                             boards: Callable[..., BoardHandle]) -> None:
    """The server pings the stream every 15 s: one silent for 40 s is dead (the phone changed
    networks under it, say), and is opened again, rather than leaving the page on an old board."""
    board = boards(players=2, human_seats=(0, 1))
    page = phone.new_page()
    page.clock.install()
    silent: list[Route] = []

    def first_silent(route: Route) -> None:
        if silent:
            route.continue_()
        else:
            silent.append(route)

    page.route("**/api/events", first_silent)
    open_board(page, board.link(0))
    before = revision(page)
    board.act(0, "level1")
    page.clock.run_for(30_000)  # less than two pings missed: still waited on
    page.wait_for_timeout(300)
    assert revision(page) == before and len(silent) == 1
    page.clock.run_for(15_000)
    page.clock.run_for(1_000)  # the pause before the next try
    wait_revision(page, before, timeout=15_000)
    assert view(page)["me"]["actions_left"] == 2


def test_a_piece_dragged_by_a_finger_is_drawn_above_it(phone: BrowserContext,
                                                       boards: Callable[..., BoardHandle]) -> None:
    """A piece dragged by a finger used to be drawn centred under it, and so were the puzzle
    cells lit where it would land: a fingertip (some 10 mm, 40 CSS px) hid both. The piece rides
    above the finger, and what the lit cells show is what lifting it plays."""
    board = boards(players=2)
    board.act(0, "take white 1")
    page = open_board(phone.new_page(), board.link(0))
    page.evaluate("document.querySelector('#puzzles').scrollIntoView()")
    placement = placement_in_hand(page, "2")
    row, column = lead(placement["cells"])
    target = cell_centre(page, placement["card"], row, column)
    start = piece_cell_centre(page, "2")
    lift = touch_lift(page, "2")  # the piece is held by its first cell (piece_cell_centre)
    finger = (target[0], target[1] + lift)
    assert finger[1] < page.viewport_size["height"] if page.viewport_size else True
    session = page.context.new_cdp_session(page)
    try:
        session.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
        for i in range(1, 9):
            x = start[0] + (finger[0] - start[0]) * i / 8
            y = start[1] + (finger[1] - start[1]) * i / 8
            session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        # touch moves are delivered with the screen's frames: wait for the last one
        page.wait_for_function("(y) => Math.abs(window.board.dragging.y - y) < 0.5", arg=finger[1])
        held = page.evaluate("""([x, y]) => {
            const ghost = document.querySelector('#drag-layer .ghost').getBoundingClientRect();
            const lit = [...document.querySelectorAll('#puzzles rect.preview-ok')];
            const under = lit.some((cell) => { const b = cell.getBoundingClientRect();
                return Math.abs(b.left + b.width / 2 - x) < 20 && Math.abs(b.top + b.height / 2 - y) < 20; });
            const cells = lit.map((cell) => [+cell.dataset.r, +cell.dataset.c]);
            return { ghostBottom: ghost.bottom, lit: cells, under };
        }""", list(finger))
        assert held["ghostBottom"] <= finger[1] - FINGERTIP_PX / 2, held
        assert not held["under"], held
        assert sorted(map(tuple, held["lit"])) == sorted(map(tuple, placement["cells"])), held
        before = revision(page)
        session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        session.detach()
    wait_revision(page, before)
    puzzle = next(p for p in board.state().players[0].puzzles if p.card == placement["card"])
    filled = {(i // 5, i % 5) for i in range(25) if puzzle.filled >> i & 1}
    assert filled == {tuple(cell) for cell in placement["cells"]}


def test_a_gateway_error_is_said_in_words_and_the_board_tells_what_was_played(
        phone: BrowserContext, boards: Callable[..., BoardHandle]) -> None:
    """A proxy between the phone and the board (or a fault of the server's own) answers with an
    HTML error page: the page used to say "Something went wrong: HTTP 502". Such an answer says
    nothing of the move, which may have been played before the proxy gave up on it: the page
    reads the board again and says which, with no status code in sight."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    page.evaluate("window.board.stopFollowing()")
    gateway = {"status": 502, "content_type": "text/html", "body": "<html><h1>502 Bad Gateway</h1></html>"}
    page.route("**/api/act", lambda route: route.fulfill(**gateway))  # never reached the board
    page.locator("button.offer.level1").tap()
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('not played')")
    assert board.state().actions_left == 3
    page.unroute("**/api/act")

    def played_then_timed_out(route: Route) -> None:
        route.fetch()
        route.fulfill(**{**gateway, "status": 504})

    page.route("**/api/act", played_then_timed_out)
    before = revision(page)
    page.locator("button.offer.level1").tap()
    wait_revision(page, before)
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('was played')")
    assert board.state().actions_left == 2
    said = message(page)
    assert "HTTP" not in said and "50" not in said, said


@pytest.mark.parametrize("status", [400, 429])
def test_a_proxys_refusal_page_is_said_in_words_too(phone: BrowserContext, boards: Callable[..., BoardHandle],
                                                   status: int) -> None:
    """A proxy's own refusal (a 4xx HTML page: too many requests, a request it would not pass on)
    holds none of the board's words: the page said "Something went wrong: HTTP 429" (for a 400,
    "HTTP 400" alone). It is told as a 5xx page is: the board read again, and whether the move
    was played said, with no status code in sight."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    page.evaluate("window.board.stopFollowing()")
    page.route("**/api/act", lambda route: route.fulfill(status=status, content_type="text/html",
                                                         body=f"<html><h1>{status}</h1></html>"))
    page.locator("button.offer.level1").tap()
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('not played')")
    said = message(page)
    assert "HTTP" not in said and str(status) not in said, said
    assert board.state().actions_left == 3


def test_a_move_sent_again_after_a_lost_answer_is_told_as_played(phone: BrowserContext,
                                                                 boards: Callable[..., BoardHandle]) -> None:
    """Offline, the lost move's board cannot be read back: the player taps again once the network
    is back. The board refuses the tap as made on an old board (nothing is played twice), and the
    page says the first tap's move was played, not only that "the board changed"."""
    board = boards(players=2)
    page = open_board(phone.new_page(), board.link(0))
    page.evaluate("window.board.stopFollowing()")
    lose_answers(page)
    page.route("**/api/view", lambda route: route.abort("internetdisconnected"))
    start = revision(page)
    page.locator("button.offer.level1").tap()
    # "could not be reached" is said before the board is read again: wait for that read to fail
    # too (the page holds no request), or it may go out once the network is back and succeed
    page.wait_for_function("() => /not be reached/.test(document.querySelector('#message').textContent)"
                           " && !window.board.busy")
    assert board.state().actions_left == 2
    page.unroute("**/api/act")
    page.unroute("**/api/view")
    before = revision(page)
    assert before == start  # the tap again is made on the board from before the lost move
    page.locator("button.offer.level1").tap()
    wait_revision(page, before)
    page.wait_for_function("() => !window.board.busy")
    assert board.state().actions_left == 2 and view(page)["me"]["actions_left"] == 2
    assert "was played" in message(page), message(page)


SMALLEST_TEXT_PX = 12
"""The smallest text a phone's board may draw, in CSS px: below it a card's id, points and reward
cannot be read at arm's length."""
SMALLEST_CELL_PX = 28
"""The smallest puzzle cell a finger can drop a piece on, in CSS px (some 7 mm)."""

DRAWN_TEXT = """() => {
    // every visible text of the board, at the size it is drawn: an SVG text's font size is in
    // its drawing's units, scaled by the drawing's width on the screen
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!node.textContent.trim() || element.closest(".visually-hidden")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const box = range.getBoundingClientRect();
        if (!box.width || !box.height || getComputedStyle(element).visibility === "hidden") continue;
        const matrix = element instanceof SVGElement ? element.getScreenCTM() : null;
        const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 1;
        const card = element.closest(".card-art");
        const within = card ? card.getBoundingClientRect() : null;
        found.push({
            text: node.textContent.trim().slice(0, 24), where: element.className.baseVal ?? element.className,
            px: parseFloat(getComputedStyle(element).fontSize) * scale,
            left: box.left, right: box.right,
            outOfCard: !!within && (box.left < within.left - 0.5 || box.right > within.right + 0.5),
        });
    }
    return found;
}"""


def phone_tables(boards: Callable[..., BoardHandle], table: str) -> BoardHandle:
    """A table a few moves in: a puzzle of the seat's own and one on another seat's table (both
    drawn), for the base game, Finesse (its tile row and credits) and Line Clear (four rows)."""
    if table == "lineclear":
        return boards(players=5, human_seats=(0, 1, 2, 3, 4), seed=4)
    board = boards(players=2, human_seats=(0, 1), seed=3, finesse=table == "finesse")
    for seat, action in ((0, "take white 1"), (0, "level1"), (0, "level1"), (1, "take white 1")):
        board.act(seat, action)
    return board


@pytest.mark.parametrize("table", ["base", "finesse", "lineclear"])
@pytest.mark.parametrize("locale", ["en-US", "pt-BR"])
def test_every_text_on_a_phone_is_readable_and_in_the_screen(
        browser: Browser, boards: Callable[..., BoardHandle], table: str, locale: str) -> None:
    """At 360 CSS px wide, every text of the board is drawn at 12 CSS px or more, inside the
    screen and inside its card, with no sideways scrolling; the puzzle cells stay a finger's drop
    target and the buttons a fingertip wide. The cards on offer sat four across beside the deck,
    their id, points and reward drawn at 7 px."""
    board = phone_tables(boards, table)
    made = browser.new_context(viewport=PHONES["360x740"], has_touch=True, is_mobile=True,
                               device_scale_factor=3)
    made.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(made.new_page(), board.link(0, locale=locale))
        texts = page.evaluate(DRAWN_TEXT)
        assert any(text["where"].startswith("card-") for text in texts), "the cards on offer say something"
        if table != "lineclear":
            assert page.locator(".their-puzzle").count() == 1, "the other seat's puzzle is drawn"
        small = [f'{text["where"]} "{text["text"]}" {text["px"]:.1f}px' for text in texts
                 if text["px"] < SMALLEST_TEXT_PX - 0.01]
        assert small == [], f"{len(small)} texts under {SMALLEST_TEXT_PX} px: {small}"
        width = PHONES["360x740"]["width"]
        outside = [f'{text["where"]} "{text["text"]}"' for text in texts
                   if text["outOfCard"] or text["left"] < -0.5 or text["right"] > width + 0.5]
        assert outside == [], f"texts out of the screen or of their card: {outside}"
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
        assert small_controls(page) == []
        if table != "lineclear":
            # a drop lands on the fifth of the grid under the finger (drag.js, cellAt)
            cells = page.evaluate("""() => [...document.querySelectorAll('#puzzles svg.grid')]
                .map((grid) => grid.getBoundingClientRect().width / 5)""")
            assert cells and min(cells) >= SMALLEST_CELL_PX, f"puzzle cells {min(cells):.1f} px wide"
    finally:
        made.close()
