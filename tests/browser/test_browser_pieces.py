"""Moving pieces by hand: turn and flip (buttons, keys, the wheel and a right click while
dragging), the lit cells follow the orientation; a drop where the piece cannot go springs back
with the engine's reason, shown in sight on a phone and a desktop, never over the puzzle it
speaks of; a drop on the reserve offers the upgrades; Esc puts a dragged piece back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from board_pages import (
    BUSY_CEILING_MS,
    cell_centre,
    corner,
    lead,
    message,
    mouse_drag,
    normalised,
    open_board,
    orientation,
    piece_cell_centre,
    revision,
    touch_drag,
    touch_lift,
    view,
    wait_revision,
)
from playwright.sync_api import Browser, Page

from bot.board import BoardHandle
from engine.cards import Colour
from engine.pieces import Shape, placements_in

Cells = list[list[int]]


def turned(cells: Cells) -> list[tuple[int, int]]:
    return normalised([[c, -r] for r, c in cells])


def flipped(cells: Cells) -> list[tuple[int, int]]:
    return normalised([[r, -c] for r, c in cells])


def lit_cells(page: Page) -> set[tuple[str, int, int]]:
    found: list[list[object]] = page.evaluate("""() => [...document.querySelectorAll("#puzzles rect.fits")]
        .map((rect) => [rect.dataset.card, +rect.dataset.r, +rect.dataset.c])""")
    return {(str(card), int(str(r)), int(str(c))) for card, r, c in found}


def expected_lit(page: Page, shape: str) -> set[tuple[str, int, int]]:
    held = normalised(orientation(page, shape))
    return {(p["card"], r, c) for p in view(page)["placements"].get(shape, [])
            if normalised(p["cells"]) == held for r, c in p["cells"]}


def drawn_cells(page: Page, shape: str) -> list[tuple[int, int]]:
    """The cells the supply piece's drawing shows, read back from its SVG."""
    found: list[list[float]] = page.evaluate("""(shape) => [
        ...document.querySelectorAll(`#supply button.piece[data-shape="${shape}"] svg rect`)
    ].map((r) => [+r.getAttribute("y"), +r.getAttribute("x")])""", shape)
    return sorted((round(y - 0.04), round(x - 0.04)) for y, x in found)


def test_turn_and_flip_by_button_key_wheel_and_right_click(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    state = board.state()
    row = state.table.row(Colour.WHITE)
    fits = [len(placements_in(Shape.L3, state.cards[card].recess)) if card else -1 for card in row]
    slot = fits.index(max(fits)) + 1
    board.act(0, f"take white {slot}")
    board.act(0, "upgrade 2 to L3")
    open_board(page, board.link(0))
    base = orientation(page, "L3")

    page.locator('#supply button.piece[data-shape="L3"]').click()
    assert page.locator('#supply button.piece[data-shape="L3"]').get_attribute("aria-pressed") == "true"
    seen = [lit_cells(page)]
    assert seen[0] == expected_lit(page, "L3")
    page.get_by_role("button", name="Turn", exact=True).click()
    assert normalised(orientation(page, "L3")) == turned(base)
    assert drawn_cells(page, "L3") == turned(base)
    seen.append(lit_cells(page))
    assert seen[1] == expected_lit(page, "L3")
    assert any(seen) and seen[0] != seen[1]
    page.keyboard.press("f")
    assert normalised(orientation(page, "L3")) == flipped([list(cell) for cell in turned(base)])
    page.get_by_role("button", name="Flip", exact=True).click()
    page.keyboard.press("r")
    page.keyboard.press("r")
    page.keyboard.press("r")
    assert normalised(orientation(page, "L3")) == normalised(base)

    # while dragging: the wheel turns the piece in hand and the lit cells follow it
    start = piece_cell_centre(page, "L3")
    card = view(page)["puzzles"][0]["id"]
    end = cell_centre(page, card, 4, 4)

    def wheel() -> None:
        page.mouse.wheel(0, -100)
        assert normalised(page.evaluate("window.board.dragging.cells")) == turned(base)
        assert lit_cells(page) == expected_lit(page, "L3")

    before = revision(page)
    mouse_drag(page, start, (end[0] + 400, end[1] + 400), between=wheel)
    assert revision(page) == before  # let go away from the puzzles: nothing is played

    # while dragging: a right click flips the piece in hand (as in the other Project L game) and
    # opens no menu
    def right_click() -> None:
        page.mouse.down(button="right")
        page.mouse.up(button="right")
        assert normalised(page.evaluate("window.board.dragging.cells")) == flipped(  # the wheel's turn kept
            [list(cell) for cell in turned(base)])
        assert lit_cells(page) == expected_lit(page, "L3")

    mouse_drag(page, start, (end[0] + 400, end[1] + 400), between=right_click)
    assert revision(page) == before


def no_domino_spot(puzzle: dict[str, Any]) -> tuple[int, int]:
    """A recess cell whose right-hand neighbour is not part of the recess: a flat domino held by
    its left cell cannot lie there."""
    states = {(cell["r"], cell["c"]): cell["state"] for cell in puzzle["state"]}
    return next((r, c) for (r, c), s in sorted(states.items())
                if s == "recess" and states.get((r, c + 1), "blank") == "blank" and c + 1 < 5)


def test_a_drop_that_does_not_fit_springs_back_with_the_reason(page: Page,
                                                               boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    board.act(0, "take white 1")
    open_board(page, board.link(0))
    puzzle = view(page)["puzzles"][0]
    r, c = no_domino_spot(puzzle)
    assert normalised(orientation(page, "2")) == [(0, 0), (0, 1)]
    before = revision(page)
    mouse_drag(page, piece_cell_centre(page, "2"), cell_centre(page, puzzle["id"], r, c))
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    reason = message(page)
    assert puzzle["id"] in reason and f"{'ABCDE'[c + 1]}{r + 1}" in reason, reason
    page.wait_for_function("() => document.querySelector('#drag-layer').children.length === 0")
    assert page.locator("#supply button.piece.lifted").count() == 0  # back in the supply, not faded
    assert revision(page) == before
    assert board.state().players[0].supply == board.state().players[0].supply  # nothing moved
    assert sum(p.filled.bit_count() for p in board.state().players[0].puzzles) == 0


def test_a_drop_on_the_reserve_offers_the_upgrades(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    left, top = corner(page, "#reserve", 0)
    mouse_drag(page, piece_cell_centre(page, "2"), (left + 20, top + 20))
    targets = page.locator("#reserve .reserve-piece.target")
    offered = sorted(o["take"] for o in view(page)["offers"] if o["kind"] == "upgrade" and o["give"] == "2")
    assert "I3" in offered
    assert sorted(targets.evaluate_all("(nodes) => nodes.map((n) => n.dataset.shape)")) == offered
    before = revision(page)
    page.locator('#reserve .reserve-piece.target[data-shape="I3"]').click()
    wait_revision(page, before)
    supply = {item["shape"]: item["count"] for item in view(page)["supply"]}
    assert supply.get("I3") == 1 and "2" not in supply


def test_a_drop_on_the_reserve_out_of_turn_says_no_upgrade_is_open(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """Out of turn no upgrade is offered: a drop on the reserve says so, rather than opening an
    upgrade ("Give back 2 for:") where every shape is greyed out and only Cancel does anything."""
    board = boards(players=2, human_seats=(0, 1))
    open_board(page, board.link(1))  # seat 0 plays first
    left, top = corner(page, "#reserve", 0)
    mouse_drag(page, piece_cell_centre(page, "2"), (left + 20, top + 20))
    assert message(page) == "No upgrade or exchange of 2 is open to you now."
    assert page.locator("#reserve.upgrading, #reserve .upgrade-title").count() == 0
    assert page.get_by_role("button", name="Cancel").count() == 0


def press_centre(page: Page, selector: str) -> None:
    """A mouse click at the middle of ``selector``, as a player makes it (whatever the control's
    state: Playwright's own click waits for an aria-disabled one to be enabled)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_card_or_deck_not_on_offer_says_why_when_pressed(page: Page,
                                                           boards: Callable[..., BoardHandle]) -> None:
    """A card or a deck the seat may not take now is drawn greyed out, and a press on it did
    nothing at all: no word of why. It says the engine's reason (not your turn; four puzzles held
    already), in the seat's language, and nothing changes."""
    board = boards(players=2, human_seats=(0, 1))
    waiting = open_board(page, board.link(1))  # seat 0 plays first
    before = board.game().revision
    card = view(waiting)["table"]["rows"][0]["cards"][1]["id"]
    press_centre(waiting, f'button.slot-button[data-card="{card}"]')
    waiting.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    assert message(waiting).startswith("It is not your turn: Ana is playing."), message(waiting)
    waiting.evaluate("document.querySelector('#message').textContent = ''")
    press_centre(waiting, ".row.white button.deck")
    waiting.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    assert message(waiting).startswith("It is not your turn: Ana is playing."), message(waiting)
    assert board.game().revision == before and revision(waiting) == before

    for action in ("take white 1",) * 3 + ("level1",) * 3 + ("take white 1",):  # four puzzles held
        board.act(0 if action.startswith("take") else 1, action)
    mine = open_board(page.context.new_page(), board.link(0, locale="pt-BR"))
    before = board.game().revision
    assert len(view(mine)["puzzles"]) == 4
    card = view(mine)["table"]["rows"][0]["cards"][0]["id"]
    press_centre(mine, f'button.slot-button[data-card="{card}"]')
    mine.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    assert "4" in message(mine) and "quebra-cabeça" in message(mine).lower(), message(mine)
    assert board.game().revision == before and revision(mine) == before


def test_a_reserve_piece_not_on_offer_says_why_when_pressed(page: Page,
                                                           boards: Callable[..., BoardHandle]) -> None:
    """A greyed-out reserve piece, pressed, did nothing at all. With a piece picked it is asked
    for as that upgrade, and the engine's reason is said; with none picked, the page says how an
    upgrade is made; the monomino out of turn (the level-1 piece) says whose turn it is."""
    board = boards(players=2, human_seats=(0, 1))
    mine = open_board(page, board.link(0))
    before = board.game().revision
    page.locator('#supply button.piece[data-shape="1"]').click()  # picked
    press_centre(mine, '#reserve button.reserve-piece[data-shape="O4"]')
    mine.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    refused = message(mine)
    assert refused.startswith("From a level-1 piece you can upgrade to level 2 only"), refused
    page.keyboard.press("Escape")
    press_centre(mine, '#reserve button.reserve-piece[data-shape="I3"]')
    mine.wait_for_function("() => document.querySelector('#message')?.textContent.startsWith('Drop a piece')")
    assert message(mine) == "Drop a piece on the reserve to upgrade or exchange it."

    waiting = open_board(page.context.new_page(), board.link(1))
    press_centre(waiting, '#reserve button.reserve-piece[data-shape="1"]')
    waiting.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    assert message(waiting).startswith("It is not your turn: Ana is playing."), message(waiting)
    assert board.game().revision == before


@pytest.mark.parametrize(("locale", "words"), [("en", "That piece would stick out past the edge of {card}."),
                                               ("pt-BR", "Essa peça ficaria para fora da borda de {card}.")])
def test_a_piece_put_past_the_cards_edge_says_so(page: Page, boards: Callable[..., BoardHandle],
                                                 locale: str, words: str) -> None:
    """A piece put where part of it would lie off the 5×5 card (Enter at the grid's right edge)
    said only "It does not fit there": the reason is said, as the engine's are for the cells on
    the card, and nothing is sent."""
    board = boards(players=2)
    board.act(0, "take white 1")
    open_board(page, board.link(0, locale=locale))
    card = view(page)["puzzles"][0]["id"]
    before = revision(page)
    page.locator('#supply button.piece[data-shape="2"]').focus()
    page.keyboard.press("Enter")  # picked: the cursor on its first spot, the domino lying flat
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
    assert message(page) == words.format(card=card)
    assert revision(page) == before and board.game().revision == before


def test_a_click_or_tap_on_a_puzzle_cell_with_no_piece_picked_says_to_pick_one(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    """Enter on a cell with nothing picked says "Pick a piece first."; a click or a tap says the
    same (it said nothing at all), in the page's language, and nothing is sent."""
    board = boards(players=2)
    board.act(0, "take white 1")
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        for locale, words in (("en", "Pick a piece first."), ("pt-BR", "Escolha uma peça primeiro.")):
            page = open_board(context.new_page(), board.link(0, locale=locale))
            card = view(page)["puzzles"][0]["id"]
            cell = page.locator(f'#puzzles rect[data-card="{card}"][data-r="2"][data-c="2"]')
            before = revision(page)
            cell.click()
            assert message(page) == words
            page.evaluate("document.querySelector('#message').textContent = ''")
            cell.tap()
            assert message(page) == words
            assert revision(page) == before
    finally:
        context.close()


def test_escape_while_dragging_puts_the_piece_back(page: Page, boards: Callable[..., BoardHandle]) -> None:
    """Esc during a drag springs the piece back: letting go then plays nothing and picks nothing,
    and the Master draft under way stays (Esc used to cancel the draft, and the drop then played
    the piece on its own)."""
    board = boards(players=2)
    board.act(0, "take white 1")
    board.act(0, "take white 2")
    open_board(page, board.link(0))
    page.get_by_role("button", name="Master", exact=True).click()
    card = view(page)["puzzles"][0]["id"]
    held = normalised(orientation(page, "2"))
    option = next(o for o in view(page)["master"]["per_card"][card]
                  if o["shape"] == "2" and normalised(o["cells"]) == held)
    start, end = piece_cell_centre(page, "2"), cell_centre(page, card, *lead(option["cells"]))
    before = revision(page)

    mouse_drag(page, start, end, between=lambda: page.keyboard.press("Escape"))
    page.wait_for_function("() => document.querySelector('#drag-layer').children.length === 0")
    page.wait_for_function("() => !window.board.busy")
    assert page.evaluate("[window.board.dragging, window.board.picked]") == [None, None]
    assert page.evaluate("window.board.draft") == {"kind": "master", "items": []}
    assert board.game().revision == before

    mouse_drag(page, start, end)  # the same drag without Esc drafts the piece
    assert page.locator("#puzzles rect.drafted").count() == 2
    assert board.game().revision == before


def four_puzzles(boards: Callable[..., BoardHandle]) -> BoardHandle:
    """Seat 0 holds four puzzles (two rows of them on any screen), the lowest just above the supply."""
    board = boards(players=2, human_seats=(0, 1))
    for seat, action in ((0, "take white 1"), (0, "take white 2"), (0, "take white 3"),
                         (1, "level1"), (1, "level1"), (1, "level1"), (0, "take black 1")):
        board.act(seat, action)
    return board


def message_and_puzzle(page: Page, card: str) -> dict[str, Any]:
    """Where the message and the puzzle ``card`` are on the screen now, read in one step."""
    found: dict[str, Any] = page.evaluate("""(card) => {
        const message = document.querySelector('#message');
        const box = message.getBoundingClientRect();
        const puzzle = document.querySelector(`#puzzles .puzzle[data-card="${card}"]`)
            .getBoundingClientRect();
        return {top: box.top, bottom: box.bottom, opacity: +getComputedStyle(message).opacity,
                puzzleTop: puzzle.top, puzzleBottom: puzzle.bottom, height: window.innerHeight,
                role: message.getAttribute('role'), live: message.getAttribute('aria-live'),
                focused: document.activeElement === message};
    }""", card)
    return found


def assert_in_sight_and_clear(where: dict[str, Any]) -> None:
    """The message is on the screen, drawn, still the polite status it was, without the focus,
    and shares no band of the screen with the puzzle."""
    assert 0 <= where["top"] < where["bottom"] <= where["height"] and where["opacity"] == 1, where
    assert where["bottom"] <= where["puzzleTop"] or where["puzzleBottom"] <= where["top"], where
    assert (where["role"], where["live"], where["focused"]) == ("status", "polite", False), where


def test_on_a_phone_the_reason_of_a_refused_drop_low_on_the_page_is_in_sight(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    """The message line sat at the page's top: on a phone scrolled down to the supply, the reason
    a drop was refused was shown out of sight. It stays at the foot of the screen there."""
    board = four_puzzles(boards)
    height = 740
    context = browser.new_context(viewport={"width": 360, "height": height}, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        puzzle = view(page)["puzzles"][-1]  # the lowest, just above the supply
        r, c = no_domino_spot(puzzle)
        page.evaluate("(y) => window.scrollTo(0, y)",  # the page's top out of sight
                      page.evaluate("document.querySelector('#title').getBoundingClientRect().bottom + 80"))
        start, end = piece_cell_centre(page, "2"), cell_centre(page, puzzle["id"], r, c)
        assert 0 < end[1] < start[1] < height
        before = revision(page)
        touch_drag(page, start, (end[0], end[1] + touch_lift(page, "2")))  # the piece rides above the finger
        page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
        reason = message(page)
        assert puzzle["id"] in reason, reason
        assert revision(page) == before
        assert_in_sight_and_clear(message_and_puzzle(page, puzzle["id"]))
    finally:
        context.close()


def test_on_a_tall_desktop_page_the_reason_of_a_refused_drop_low_on_it_is_in_sight(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    """On a desktop the message sat at the page's top too: in a window shorter than the board,
    scrolled down to the supply, a refused drop's reason was out of sight. It is at the foot of
    the screen, clear of the puzzle the piece was dropped on."""
    board = four_puzzles(boards)
    context = browser.new_context(viewport={"width": 1280, "height": 600})
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        assert page.evaluate("document.documentElement.scrollHeight > window.innerHeight + 50")
        puzzle = view(page)["puzzles"][-1]
        r, c = no_domino_spot(puzzle)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert page.evaluate("document.querySelector('#title').getBoundingClientRect().bottom < 0")
        start, end = piece_cell_centre(page, "2"), cell_centre(page, puzzle["id"], r, c)
        assert 0 < end[1] < start[1] < 600
        before = revision(page)
        mouse_drag(page, start, end)
        page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
        assert puzzle["id"] in message(page)
        assert revision(page) == before
        where = message_and_puzzle(page, puzzle["id"])
        assert_in_sight_and_clear(where)
        assert where["bottom"] == where["height"]  # at the foot

        # a shorter window, the puzzle acted on at its foot: the message is at its top instead
        page.set_viewport_size({"width": 1280, "height": 480})
        page.locator('#supply button.piece[data-shape="2"]').click()  # picked: a click on a cell places it
        page.evaluate("""(card) => {
            const puzzle = document.querySelector(`#puzzles .puzzle[data-card="${card}"]`);
            window.scrollBy(0, puzzle.getBoundingClientRect().bottom - window.innerHeight + 4);
        }""", puzzle["id"])
        page.evaluate("document.querySelector('#message').textContent = ''")
        page.mouse.click(*cell_centre(page, puzzle["id"], r, c))
        page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
        where = message_and_puzzle(page, puzzle["id"])
        assert where["puzzleBottom"] > where["height"] - 40, where  # where the foot's message would be
        assert_in_sight_and_clear(where)
        assert where["top"] == 0
    finally:
        context.close()
