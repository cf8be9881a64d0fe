"""Whole turns played on the board as a player would: by mouse, by touch, by keyboard only; the
other seat's page follows live, and the typical turn takes at most five gestures."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from board_pages import (
    BUSY_CEILING_MS,
    PHONE,
    corner,
    drag_to_placement,
    gestures,
    lead,
    message,
    open_board,
    placement_in_hand,
    revision,
    touch_drag,
    view,
    wait_presses,
    wait_presses_decided,
    wait_revision,
)
from playwright.sync_api import Browser, BrowserContext, Page, Route

from bot.board import BoardHandle

TYPICAL_TURN_GESTURES = 5


def take_first_white(page: Page, *, touch: bool = False) -> None:
    card = page.locator(".row.white button.slot-button:not([aria-disabled])").first
    before = revision(page)
    card.tap() if touch else card.click()
    wait_revision(page, before)


def place_domino(page: Page, *, touch: bool = False) -> dict[str, object]:
    placement = placement_in_hand(page, "2")
    before = revision(page)
    drag_to_placement(page, "2", placement, touch=touch)
    wait_revision(page, before)
    return placement


def take_level1(page: Page, *, touch: bool = False) -> None:
    button = page.locator("button.offer.level1")
    before = revision(page)
    button.tap() if touch else button.click()
    wait_revision(page, before)


def typical_turn(page: Page, *, touch: bool = False) -> dict[str, object]:
    take_first_white(page, touch=touch)
    placement = place_domino(page, touch=touch)
    take_level1(page, touch=touch)
    return placement


def filled_cells(board: BoardHandle, seat: int, card: str) -> set[tuple[int, int]]:
    puzzle = next(p for p in board.state().players[seat].puzzles if p.card == card)
    return {(i // 5, i % 5) for i in range(25) if puzzle.filled >> i & 1}


def test_a_whole_two_player_round_by_mouse_drag(context: BrowserContext,
                                                 boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1))
    ana = open_board(context.new_page(), board.link(0))
    bia = open_board(context.new_page(), board.link(1))
    assert view(ana)["me"]["acting"] and not view(bia)["me"]["acting"]
    posts = board.turn_posts

    placement = typical_turn(ana)

    assert gestures(ana) <= TYPICAL_TURN_GESTURES
    assert filled_cells(board, 0, str(placement["card"])) == {tuple(cell) for cell in placement["cells"]}
    bia.wait_for_function("(n) => window.board.view.game.revision >= n", arg=revision(ana), timeout=120_000)
    # both pages are in one browser: their clocks agree; "within a second" of the mover's answer
    delay = bia.evaluate("window.board.viewAt") - ana.evaluate("window.board.viewAt")
    print(f"the other page drew the move {delay} ms after the mover's page")
    assert delay <= 1000
    assert view(bia)["me"]["acting"]
    assert "Your turn" in bia.inner_text("#turn-status")
    assert board.turn_posts == posts + 1

    typical_turn(bia)
    assert gestures(bia) <= TYPICAL_TURN_GESTURES
    ana.wait_for_function("() => window.board.view.me.acting", timeout=120_000)
    assert board.state().current == 0


def test_a_turn_by_touch_on_a_phone(browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        placement = typical_turn(page, touch=True)
        assert gestures(page) <= TYPICAL_TURN_GESTURES
        assert filled_cells(board, 0, str(placement["card"])) == {tuple(cell) for cell in placement["cells"]}
    finally:
        context.close()


def tab_to(page: Page, selector: str, *, limit: int = 80) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("(selector) => !!document.activeElement?.matches(selector)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_turn_by_keyboard_only(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    first_turn = board.state().turn

    tab_to(page, ".row.white button.slot-button:not([aria-disabled])")
    before = revision(page)
    page.keyboard.press("Enter")
    wait_revision(page, before)

    tab_to(page, '#supply button.piece[data-shape="2"]')
    page.keyboard.press("Enter")  # pick: the cursor goes to the first spot where it fits
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert page.evaluate("document.activeElement.getAttribute('role')") == "gridcell", focused
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("r")  # a quarter turn, and back again with three more
    page.keyboard.press("r")
    page.keyboard.press("r")
    page.keyboard.press("r")
    assert page.locator("#puzzles rect.preview-ok").count() == 2
    before = revision(page)
    page.keyboard.press("Enter")
    wait_revision(page, before)

    tab_to(page, "button.offer.level1")
    before = revision(page)
    page.keyboard.press("Enter")
    wait_revision(page, before)
    state = board.state()
    assert state.turn > first_turn  # the turn ended (and the AI seat has played since)
    assert sum(p.filled.bit_count() for p in state.players[0].puzzles) == 2


def test_a_click_survives_a_redraw_between_press_and_release(page: Page,
                                                             boards: Callable[..., BoardHandle]) -> None:
    """A redraw (a live update, the plan's answer) replaces the buttons; one that came between a
    press and its release used to lose the click, since the two landed on different elements."""
    board = boards(players=2)
    open_board(page, board.link(0))
    before = revision(page)
    button = page.locator("button.offer.level1")
    box = button.bounding_box()
    for _ in range(200):  # the live stream's first view can redraw it between finding and measuring it
        if box is not None:
            break
        page.wait_for_timeout(50)
        box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("window.board.redraw()")  # as an update arriving mid-press would
    page.mouse.up()
    wait_revision(page, before, timeout=30_000)
    assert view(page)["me"]["actions_left"] == 2  # the level-1 piece was taken
    assert board.state().actions_left == 2


HOLD_ANSWERS = """() => {
    const api = window.board.api;
    const send = api.act.bind(api);
    let held = true;
    window.releaseAnswers = () => { held = false; };
    api.act = async (body) => {
        const answer = await send(body);
        while (held) await new Promise((resume) => setTimeout(resume, 20));
        return answer;
    };
}"""
"""Hold back the answers to the page's moves (each is committed, and its live view drawn) until
``window.releaseAnswers()``: a network where the answer comes after the live update."""


def test_a_press_while_a_move_is_in_flight_is_sent_after_it(page: Page,
                                                             boards: Callable[..., BoardHandle]) -> None:
    """The live view of a move can be drawn before the move's own answer arrives; a press on that
    view used to be dropped because the page was still waiting. It waits instead, then goes."""
    board = boards(players=2)
    open_board(page, board.link(0))
    page.evaluate(HOLD_ANSWERS)
    before = revision(page)
    page.locator("button.offer.level1").click()
    wait_revision(page, before, answered=False)  # the live update of the first move, its answer held
    assert page.evaluate("window.board.busy")
    page.locator("button.offer.level1").click()  # on the live view: a second piece
    page.evaluate("window.releaseAnswers()")
    page.wait_for_function("() => window.board.view.me.actions_left === 1 && !window.board.busy",
                           timeout=BUSY_CEILING_MS)
    assert board.state().actions_left == 1
    assert "error" not in (page.get_attribute("#message", "class") or "")


def test_a_second_click_on_the_same_view_takes_no_action(page: Page,
                                                         boards: Callable[..., BoardHandle]) -> None:
    """A double click before the first click's answer: the second waits for that answer, and is
    not sent, since the view it was made on is gone."""
    board = boards(players=2)
    open_board(page, board.link(0))
    page.evaluate(HOLD_ANSWERS)
    page.evaluate("window.board.stopFollowing()")  # nor is the move's live view drawn meanwhile
    before = revision(page)
    page.locator("button.offer.level1").dblclick()
    wait_presses(page, 1)  # the second click waits
    page.evaluate("window.releaseAnswers()")
    wait_presses_decided(page)
    assert board.state().actions_left == 2
    assert revision(page) == before + 1


def test_a_move_lost_on_the_network_says_so_and_the_next_one_goes(page: Page,
                                                                  boards: Callable[..., BoardHandle]) -> None:
    """A move whose request never reaches the server is said in the board's words (not the
    browser's "Failed to fetch"), and the same move goes once the network is back."""
    board = boards(players=2)
    open_board(page, board.link(0, locale="pt-BR"))
    page.route("**/api/act", lambda route: route.abort("internetdisconnected"))
    page.locator("button.offer.level1").click()
    page.wait_for_function("() => document.querySelector('#message').classList.contains('error')")
    said = page.inner_text("#message")
    assert "conexão" in said and "fetch" not in said.lower(), said
    assert board.state().actions_left == 3
    page.unroute("**/api/act")
    before = revision(page)
    page.locator("button.offer.level1").click()
    wait_revision(page, before)
    assert board.state().actions_left == 2
    # the live view can be drawn before the move's answer, which then replaces the error
    page.wait_for_function("() => !document.querySelector('#message').classList.contains('error')")


def test_a_move_answered_without_its_view_reads_the_view_again(page: Page,
                                                               boards: Callable[..., BoardHandle]) -> None:
    """A move committed whose answer came without the view (the server could not build it, and
    says so in a last line): the page says it was done, not that something went wrong, and reads
    the view again itself (the live stream is off here)."""
    board = boards(players=2)
    open_board(page, board.link(0))
    page.evaluate("window.board.stopFollowing()")
    note = "It is done (saved), but the board could not show all of it just now: it will catch up."

    def without_view(route: Route) -> None:
        answer = route.fetch()
        body = answer.json()
        route.fulfill(response=answer, json={"view": None, "said": [*body["said"], note]})

    page.route("**/api/act", without_view)
    before = revision(page)
    page.locator("button.offer.level1").click()
    wait_revision(page, before)
    assert board.state().actions_left == 2 and view(page)["me"]["actions_left"] == 2
    assert note in message(page) and "error" not in (page.get_attribute("#message", "class") or "")


@pytest.mark.parametrize("lost_how", ["network", "proxy page"])
def test_a_first_load_lost_on_the_network_is_tried_again_until_the_board_comes(
        browser: Browser, boards: Callable[..., BoardHandle], lost_how: str) -> None:
    """The board's first view used to be asked once: lost on the network, the page said so and
    stayed empty until the player reloaded it. It is asked again, saying so, and drawn; so is one
    a proxy in between answered with a page of its own (a 429), which holds none of the board's
    words and says nothing of the link."""
    board = boards(players=2)
    context = browser.new_context(locale="pt-BR")  # before any view the page speaks the browser's language
    context.set_default_timeout(BUSY_CEILING_MS)
    lost: list[str] = []

    def lose(route: Route) -> None:
        lost.append(route.request.url)
        if lost_how == "network":
            route.abort("internetdisconnected")
        else:
            route.fulfill(status=429, content_type="text/html", body="<h1>429 Too Many Requests</h1>")

    try:
        page = context.new_page()
        page.route("**/api/view", lose)
        page.goto(board.link(0))
        page.wait_for_function("() => document.querySelector('#message').textContent.includes('tentando')")
        while len(lost) < 2:  # asked again after a pause
            page.wait_for_timeout(100)
        page.unroute("**/api/view")
        page.wait_for_selector("#players-h")
        assert view(page)["me"]["seat"] == 0
        assert page.inner_text("#message") == ""
        assert "error" not in (page.get_attribute("#message", "class") or "")
    finally:
        context.close()


def test_a_live_update_leaves_a_phone_page_where_it_was_scrolled(browser: Browser,
                                                                 boards: Callable[..., BoardHandle]) -> None:
    """The redraw of a live update gives the focus back to the control that had it: it used to
    scroll that control into view as well, so a player who had scrolled away (here back up to the
    puzzles) was thrown back to the card they had taken, at every move of the others."""
    board = boards(players=2, human_seats=(0, 1))
    context = browser.new_context(viewport={"width": 360, "height": 480}, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        take_first_white(page, touch=True)
        assert page.evaluate("document.activeElement.dataset.key").startswith("card:")
        page.evaluate("window.scrollTo(0, 0)")  # back up to the puzzles: the cards are out of sight
        assert page.evaluate("document.activeElement.getBoundingClientRect().top > window.innerHeight")
        before = revision(page)
        board.act(0, "level1")  # from another tab: this page hears it live
        wait_revision(page, before)
        assert page.evaluate("window.scrollY") == 0
    finally:
        context.close()


def test_on_a_360_px_phone_a_piece_can_be_dragged_onto_the_first_of_four_puzzles(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    """The commonest Android width: the puzzles used to stack one per row there, four of them
    1,400 px tall, so the supply lay far below the first puzzles and no drag could reach them
    (a drag does not scroll the page). Two per row, as on any wider phone, fit one screen."""
    board = boards(players=2, human_seats=(0, 1))
    for seat, action in ((0, "take white 1"), (0, "take white 2"), (0, "take white 3"),
                         (1, "level1"), (1, "level1"), (1, "level1"), (0, "take black 1")):
        board.act(seat, action)
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        first = view(page)["puzzles"][0]["id"]
        page.locator("#supply").scroll_into_view_if_needed()
        reach = page.evaluate("""(card) => document.querySelector("#supply").getBoundingClientRect().bottom
            - document.querySelector(`#puzzles svg.grid[data-card="${card}"]`).getBoundingClientRect().top""",
                              first)
        assert reach <= 740, reach
        page.evaluate("document.querySelector('#puzzles').scrollIntoView()")
        placement = placement_in_hand(page, "1", card=first)
        before = revision(page)
        drag_to_placement(page, "1", placement, touch=True)
        wait_revision(page, before)
        assert filled_cells(board, 0, first) == {tuple(cell) for cell in placement["cells"]}
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_a_swipe_on_the_reserve_scrolls_a_phone_page(browser: Browser,
                                                     boards: Callable[..., BoardHandle]) -> None:
    """Only the supply's pieces are dragged: a finger sliding up over the reserve (a large part of
    a phone's page) scrolls the page, as anywhere else. It used to do nothing at all."""
    board = boards(players=2)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        before = revision(page)
        for selector in ("#reserve-h", "#reserve .reserve-piece"):  # beside a piece, then on one
            page.evaluate("window.scrollTo(0, 0)")
            x, y = corner(page, selector)
            assert y < PHONE["height"]
            touch_drag(page, (x, y), (x, y - 200))
            page.wait_for_function("() => window.scrollY > 100", timeout=10_000)
        assert revision(page) == before  # a swipe takes nothing
    finally:
        context.close()


def test_on_a_narrow_phone_a_piece_is_placed_by_two_taps(browser: Browser,
                                                         boards: Callable[..., BoardHandle]) -> None:
    """Tap a supply piece, then a cell of a puzzle: the gesture for where a drag cannot reach (a
    drag does not scroll the page, and at 320 px the puzzles stack one a row)."""
    board = boards(players=2)
    board.act(0, "take white 1")
    context = browser.new_context(viewport={"width": 320, "height": 568}, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        placement = placement_in_hand(page, "1")
        page.locator('#supply button.piece[data-shape="1"]').tap()
        row, column = lead(placement["cells"])
        before = revision(page)
        cell = f'#puzzles rect[data-card="{placement["card"]}"][data-r="{row}"][data-c="{column}"]'
        page.locator(cell).tap()
        wait_revision(page, before)
        assert filled_cells(board, 0, str(placement["card"])) == {tuple(cell) for cell in placement["cells"]}
    finally:
        context.close()
