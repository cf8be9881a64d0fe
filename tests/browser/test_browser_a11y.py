"""Keyboard and screen reader: accessible names as the issue gives them (in English and in
Portuguese), and axe-core (vendored, injected by the test only) finds no serious or critical
violation on the board, on a desktop and on a phone; the focus outlives the control it was on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from board_pages import BUSY_CEILING_MS, DESKTOP, PHONE, open_board, revision, view, wait_revision
from playwright.sync_api import Browser, Page
from test_browser_expansions import cell_name, play_until
from test_browser_ghost import _split_to_place
from test_browser_turns import tab_to

from bot.board import BoardHandle

AXE = "/static/vendor/axe.min.js"


def take_a_puzzle(page: Page) -> None:
    before = revision(page)
    page.locator(".row.white button.slot-button:not([aria-disabled])").first.click()
    wait_revision(page, before)


def serious(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(url=AXE)  # from 'self': the page's CSP allows it
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
    }""")
    return found


def test_names_of_pieces_puzzles_cells_and_buttons(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    take_a_puzzle(page)
    card = board.state().players[0].puzzles[0].card
    assert page.get_by_role("button", name="2", exact=False).first.get_attribute("data-shape") == "2"
    assert page.locator("#supply button.piece").first.get_attribute("aria-label").startswith("1,")
    group = page.get_by_role("group", name=card).first
    assert group.get_attribute("aria-label").startswith(f"{card},")
    assert page.get_by_role("gridcell", name=f"{card} C3").count() == 1
    for word in ("Turn", "Flip"):
        assert page.get_by_role("button", name=word, exact=True).count() == 1
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") != "BODY"


def test_portuguese_names(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0, locale="pt-BR"))
    take_a_puzzle(page)
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    for word in ("Girar", "Virar"):
        assert page.get_by_role("button", name=word, exact=True).count() == 1
    card = board.state().players[0].puzzles[0].card
    label = page.get_by_role("gridcell", name=f"{card} C3").get_attribute("aria-label")
    assert label is not None and label.startswith(f"{card} C3")
    assert page.get_by_role("heading", name="Suas peças").count() == 1
    assert page.inner_text("#turn-status") == "Sua vez. Restam 2 ações"  # a sentence starts with a capital


def focused_key(page: Page) -> str:
    """The focused control's key (``data-key``), else the focused element's tag (BODY: none)."""
    return str(page.evaluate("document.activeElement.dataset?.key || document.activeElement.tagName"))


def test_the_focus_stays_on_the_board_when_its_control_goes(page: Page,
                                                            boards: Callable[..., BoardHandle]) -> None:
    """A move made by keyboard whose control the answer removes (the card taken, the turn's last
    action) leaves the focus on a nearby control, not on the page's body, from where a keyboard or
    screen reader user would have to start again from the top."""
    board = boards(players=2, human_seats=(0, 1))
    open_board(page, board.link(0))
    page.focus(".row.white button.slot-button:not([aria-disabled])")
    taken = focused_key(page)
    before = revision(page)
    page.keyboard.press("Enter")
    wait_revision(page, before)
    assert focused_key(page).startswith("card:") and focused_key(page) != taken

    page.focus("button.offer.level1")
    for _ in range(2):  # the turn's last two actions: the button goes with the turn
        before = revision(page)
        page.keyboard.press("Enter")
        wait_revision(page, before)
    page.wait_for_function("() => !window.board.view.me.acting")
    assert page.locator("button.offer.level1").count() == 0
    assert focused_key(page) != "BODY"


def test_the_turn_status_is_announced_only_when_it_changes(page: Page,
                                                          boards: Callable[..., BoardHandle]) -> None:
    """The turn's status is a live region: every redraw (picking a piece, each R or F) put the
    same sentence in again, and a screen reader read "Your turn. 3 actions left" at each key."""
    board = boards(players=2)
    open_board(page, board.link(0))
    page.evaluate("""() => {
        window.__statusChanges = 0;
        new MutationObserver((records) => { window.__statusChanges += records.length; })
            .observe(document.getElementById("turn-status"),
                     { childList: true, characterData: true, subtree: true });
    }""")
    page.focus('#supply button.piece[data-shape="2"]')
    for key in ("Enter", "r", "f", "Escape"):
        page.keyboard.press(key)
    assert page.evaluate("window.__statusChanges") == 0
    before = revision(page)
    page.locator("button.offer.level1").click()
    wait_revision(page, before)
    assert page.evaluate("window.__statusChanges") > 0
    assert "2 actions left" in page.inner_text("#turn-status")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_axe_finds_no_serious_violation(browser: Browser, boards: Callable[..., BoardHandle],
                                        screen: str) -> None:
    board = boards(players=2, human_seats=(0, 1))
    context = browser.new_context(viewport=PHONE if screen == "phone" else DESKTOP)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        assert serious(page) == []
        take_a_puzzle(page)
        page.locator('#supply button.piece[data-shape="2"]').focus()
        page.keyboard.press("Enter")  # a piece picked: cells lit, the cursor on a puzzle
        assert serious(page) == []
        waiting = open_board(context.new_page(), board.link(1))
        assert serious(waiting) == []
    finally:
        context.close()


@pytest.mark.parametrize(("locale", "words"), [("en", "Other players' moves: "),
                                               ("pt-BR", "Jogadas dos outros jogadores: ")])
def test_the_others_moves_are_announced_politely_and_ones_own_are_not(
        page: Page, boards: Callable[..., BoardHandle], locale: str, words: str) -> None:
    """A live update used to change only the turn's status: a screen reader heard "Your turn" and
    nothing of what the others did. Their log lines since the last view are said in a polite live
    region of their own; the seat's own moves (its answer says them) are not said again."""
    board = boards(players=2, human_seats=(0, 1))
    open_board(page, board.link(0, locale=locale))
    heard = page.locator("#heard")
    assert heard.get_attribute("aria-live") == "polite"
    before = revision(page)
    page.locator("button.offer.level1").click()  # on this page
    wait_revision(page, before)
    for _ in range(2):  # from another tab: the seat's own moves all the same
        before = revision(page)
        board.act(0, "level1")
        wait_revision(page, before)
    assert heard.inner_text() == ""
    before = revision(page)
    board.act(1, "level1")
    board.act(1, "level1")
    page.wait_for_function("(n) => window.board.view.game.revision >= n", arg=before + 2)
    said = heard.inner_text()
    lines = [line for line in view(page)["log"] if line.startswith("Bia: ")]
    assert said.startswith(words) and lines[-1] in said, said
    assert "Ana" not in said and said != page.inner_text("#turn-status")


def test_axe_finds_no_serious_violation_while_recycling_or_at_the_end(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """The recycle order being picked (toggle buttons over the cards, the order in words) and a
    finished game's result (a region named by who won)."""
    from test_browser_results import play_to_the_end

    board = boards(players=2, human_seats=(0, 1))
    open_board(page, board.link(0))
    page.get_by_role("button", name="Recycle white").click()
    page.locator('.row[data-colour="white"] .slot-button').nth(2).click()
    assert serious(page) == []
    play_to_the_end(board)
    page.wait_for_selector(".result")
    assert serious(page) == []


@pytest.mark.parametrize(("locale", "said"), [
    ("en", "1 on {card} {cell} in the draft: placed when you confirm."),
    ("pt-BR", "1 em {card} {cell} no rascunho: colocada ao confirmar."),
])
def test_a_piece_drafted_by_keyboard_is_said(page: Page, boards: Callable[..., BoardHandle],
                                             locale: str, said: str) -> None:
    """A Master draft laid out by keyboard (Enter on Master, on a piece, on a lit cell): the drop
    changed only the drawing and the focused cell's name, which a screen reader does not read
    again, so the player heard nothing at all. The drop is said in the polite status."""
    board = boards(players=2)
    board.act(0, "take white 1")
    board.act(0, "take white 2")
    open_board(page, board.link(0, locale=locale))
    page.focus('[data-key="btn:master"]')
    page.keyboard.press("Enter")
    assert focused_key(page) == "piece:1"
    page.keyboard.press("Enter")
    cell = page.evaluate("document.activeElement.dataset")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.board.draft.items.length === 1")
    expected = said.format(card=cell["card"], cell=cell_name(int(cell["r"]), int(cell["c"])))
    assert page.inner_text("#message") == expected
    assert focused_key(page).startswith(f"cell:{cell['card']}:")
    assert serious(page) == []


def test_escape_out_of_a_ghost_split_gives_the_focus_back_to_the_split(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A Ghost split shows its new pieces in the supply and focuses the first; Esc there cancels
    the split, its pieces go, and the focus fell on Turn, an unrelated tool. It goes back to the
    split pressed (as Esc out of a Recycle goes back to Recycle), now not pressed; Cancel too."""
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=3)
    state = play_until(board, _split_to_place)
    open_board(page, board.link(min(state.acting_seats)))
    split = [o for o in view(page)["offers"] if o["kind"] == "ghost"][-1]
    key = f"offer:{split['action']}"
    page.focus(f'[data-key="{key}"]')
    page.keyboard.press("Enter")
    assert focused_key(page).startswith("piece:")
    page.keyboard.press("Escape")
    assert page.locator(".draft-bar").count() == 0
    assert focused_key(page) == key
    assert page.locator(f'[data-key="{key}"]').get_attribute("aria-pressed") == "false"
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Cancel", exact=True).click()
    assert page.locator(".draft-bar").count() == 0
    assert focused_key(page) == key


ZOOMED = {"width": 640, "height": 430}
"""The desktop window (1280×860) at 200 % zoom, in CSS pixels."""
FOCUS_UNDER_MESSAGE = """() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return null;
    const box = document.getElementById('message');
    const a = focused.getBoundingClientRect(), m = box.getBoundingClientRect();
    const hidden = box.textContent && !box.classList.contains('quiet')
        && Math.min(a.bottom, m.bottom) - Math.max(a.top, m.top) > 0;
    return { key: focused.dataset.key || focused.tagName, hidden };
}"""


def test_no_control_tabbed_to_is_hidden_under_a_standing_message(browser: Browser,
                                                                 boards: Callable[..., BoardHandle]) -> None:
    """At 200 % zoom a refusal stays at the screen's foot until the next message; Tab scrolls each
    control just into sight, at that foot, and the message hid it whole (Recycle, the cards on
    offer): the focus was never seen. The message moves off whatever the focus lands on."""
    board = boards(players=2)
    context = browser.new_context(viewport=ZOOMED)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0))
        tab_to(page, ".row.white button.slot-button:not([aria-disabled])")
        before = revision(page)
        page.keyboard.press("Enter")
        wait_revision(page, before)
        tab_to(page, '#supply button.piece[data-shape="2"]')
        page.keyboard.press("Enter")  # picked: the cursor on its first spot
        for _ in range(5):
            page.keyboard.press("ArrowUp")
            page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")  # at the grid's corner: refused
        page.wait_for_function("() => document.querySelector('#message.error')?.textContent.length > 0")
        page.keyboard.press("Escape")
        hidden, stops = [], set()
        for _ in range(200):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUS_UNDER_MESSAGE)
            if focused is None:
                continue
            if focused["key"] in stops:
                break
            stops.add(focused["key"])
            if focused["hidden"]:
                hidden.append(focused["key"])
        assert page.evaluate("document.querySelector('#message.error').textContent.length > 0"), "it stayed"
        assert len(stops) > 10 and hidden == [], hidden
    finally:
        context.close()
