"""The rest of a turn on the board: Master (place several, confirm once), Undo, a Finesse Insert,
an Ambassador action, and Line Clear's two marker holders playing on their own pages at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from board_pages import (
    BUSY_CEILING_MS,
    PHONE,
    cell_centre,
    lead,
    message,
    mouse_drag,
    normalised,
    open_board,
    orientation,
    piece_cell_centre,
    revision,
    view,
    wait_revision,
)
from playwright.sync_api import Browser, BrowserContext, Page

from bot.board import BoardHandle
from bot.core.play.manager import engine_policy
from engine import Action, GameState, Place, TakePuzzle, legal_actions
from engine.cards import Ambassador
from engine.expansions.ambassador import ambassador_options
from engine.state import Phase


def draft_option(page: Page, kind: str, shape: str, card: str) -> dict[str, Any]:
    """A Master (or Ambassador) placement of ``shape`` on ``card`` in the orientation held."""
    held = normalised(orientation(page, shape))
    for option in view(page)[kind]["per_card"].get(card, []):
        if option["shape"] == shape and normalised(option["cells"]) == held:
            return dict(option, card=card)
    raise AssertionError(f"no {kind} placement of {shape} on {card}")


def drag_onto(page: Page, shape: str, card: str, cells: list[list[int]]) -> None:
    mouse_drag(page, piece_cell_centre(page, shape), cell_centre(page, card, *lead(cells)))


class AmbassadorKeen:
    """Greedy, but takes Ambassador cards first and fills them before anything else."""

    def __init__(self, seed: int) -> None:
        self.greedy = engine_policy("greedy", seed)

    def choose(self, state: GameState) -> Action:
        keen = {card for card, found in state.cards.items() if found.reward is Ambassador.ACTION}
        legal = legal_actions(state)
        for action in legal:
            if isinstance(action, TakePuzzle) and action.colour is not None \
                    and state.table.row(action.colour)[action.slot - 1] in keen:
                return action
        places = [a for a in legal if isinstance(a, Place) and a.card in keen]
        if places:
            return max(places, key=lambda place: place.mask.bit_count())
        return self.greedy.choose(state)


def play_until(board: BoardHandle, ready: Callable[[GameState], bool], *, seed: int = 3,
               chooser: Any = None) -> GameState:
    """Play every seat's moves (all seats human) with the greedy policy until ``ready``."""
    chooser = chooser or engine_policy("greedy", seed)
    for _ in range(600):
        state = board.state()
        if ready(state):
            return state
        assert not state.is_over, "the game ended first"
        seat = min(state.acting_seats)
        board.act(seat, str(chooser.choose(state.focused(seat))))
    raise AssertionError("never ready")


def test_master_places_several_pieces_and_confirms_once(page: Page,
                                                        boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    board.act(0, "take white 1")
    board.act(0, "take white 2")
    open_board(page, board.link(0))
    assert view(page)["master"] is not None
    first, second = (p["id"] for p in view(page)["puzzles"])
    page.get_by_role("button", name="Master", exact=True).click()
    one = draft_option(page, "master", "1", first)
    drag_onto(page, "1", first, one["cells"])
    two = draft_option(page, "master", "2", second)
    before = revision(page)
    drag_onto(page, "2", second, two["cells"])
    assert revision(page) == before  # nothing sent yet
    assert page.locator("#puzzles rect.drafted").count() == 3
    page.get_by_role("button", name="Confirm", exact=True).click()
    wait_revision(page, before)
    puzzles = {p.card: p for p in board.state().players[0].puzzles}
    assert puzzles[first].filled.bit_count() == 1 and puzzles[second].filled.bit_count() == 2


@pytest.mark.parametrize(("locale", "drafted", "empty", "cancel"), [
    ("en", "{card} {cell} drafted with 2 (placed when you confirm)", "{card} {cell} empty", "Cancel"),
    ("pt-BR", "{card} {cell} com 2 no rascunho (colocada ao confirmar)", "{card} {cell} vazia", "Cancelar"),
])
def test_the_cells_a_master_draft_covers_are_named_as_drafted(
        page: Page, boards: Callable[..., BoardHandle], locale: str, drafted: str, empty: str,
        cancel: str) -> None:
    """A screen reader read a drafted cell as "empty": it is named with the piece drafted on it,
    and named empty again once the draft is cancelled."""
    board = boards(players=2)
    board.act(0, "take white 1")
    board.act(0, "take white 2")
    open_board(page, board.link(0, locale=locale))
    first = view(page)["puzzles"][0]["id"]
    page.locator('[data-key="btn:master"]').click()
    two = draft_option(page, "master", "2", first)
    drag_onto(page, "2", first, two["cells"])
    page.wait_for_function("() => window.board.draft.items.length === 1")
    names = [cell_name(r, c) for r, c in two["cells"]]
    for name in names:
        cell = page.get_by_role("gridcell", name=drafted.format(card=first, cell=name), exact=True)
        assert cell.count() == 1
    page.get_by_role("button", name=cancel, exact=True).click()
    for name in names:
        assert page.get_by_role("gridcell", name=empty.format(card=first, cell=name), exact=True).count() == 1


def cell_name(r: int, c: int) -> str:
    return f"{'ABCDE'[c]}{r + 1}"


def test_a_second_master_piece_on_the_same_puzzle_is_refused_with_masters_rule(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """Master places one piece on each puzzle: a second piece dropped on a puzzle that has its
    piece, where it would fit on its own, is refused with that rule (not "It does not fit there"),
    and the draft keeps its one piece."""
    board = boards(players=2)
    board.act(0, "take white 1")
    board.act(0, "take white 2")
    open_board(page, board.link(0))
    first = view(page)["puzzles"][0]["id"]
    page.get_by_role("button", name="Master", exact=True).click()
    held = normalised(orientation(page, "2"))
    two = next(p for p in view(page)["master"]["per_card"][first]
               if p["shape"] == "2" and normalised(p["cells"]) == held)
    taken = {tuple(cell) for cell in two["cells"]}
    one = next(p for p in view(page)["master"]["per_card"][first]
               if p["shape"] == "1" and tuple(p["cells"][0]) not in taken)
    before = revision(page)
    drag_onto(page, "1", first, one["cells"])
    page.wait_for_function("() => window.board.draft.items.length === 1")
    drag_onto(page, "2", first, two["cells"])
    page.wait_for_function("() => document.getElementById('message').classList.contains('error')")
    assert message(page) == f"Master places one piece on each puzzle: {first} has its piece."
    assert page.evaluate("window.board.draft.items.length") == 1
    assert page.locator("#puzzles rect.drafted").count() == 1
    assert revision(page) == before and board.game().revision == before


def test_undo_takes_the_last_action_back(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    before = revision(page)
    page.locator("button.offer.level1").click()
    wait_revision(page, before)
    supply = board.state().players[0].supply
    undo = page.get_by_role("button", name="Undo", exact=True)
    undo.click()
    page.wait_for_function("() => !document.querySelector('[data-key=\"btn:undo\"]')")
    assert board.state().players[0].supply != supply
    assert view(page)["me"]["actions_left"] == 3


def test_a_finesse_insert(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), finesse=True, seed=3)
    state = play_until(board, lambda s: any(a.kind == "insert" for a in legal_actions(s)))
    seat = min(state.acting_seats)
    open_board(page, board.link(seat))
    credits = view(page)["me"]["credits"]
    assert credits["active"] >= 2
    assert page.locator(".finesse .credits").count() == 1
    before = revision(page)
    page.locator("button.offer.insert").click()
    wait_revision(page, before)
    assert view(page)["me"]["credits"]["active"] == credits["active"] - 2


def test_a_turn_held_for_an_insert_says_so_not_zero_actions_left(page: Page,
                                                                 boards: Callable[..., BoardHandle]) -> None:
    """Finesse: a turn whose three actions are spent stays open while an Insert is affordable; the
    status says what is left to do (Insert or End turn), as the Discord panel's header does."""
    board = boards(players=2, human_seats=(0, 1), finesse=True, seed=3)
    state = play_until(board, lambda s: bool(s.held))
    seat = state.held[0]
    open_board(page, board.link(seat))
    assert view(page)["me"]["held"] is True
    line = page.inner_text("#turn-status")
    assert "Insert one more" in line and "End turn" in line and "0 actions" not in line, line


def test_an_ambassador_action(page: Page, boards: Callable[..., BoardHandle]) -> None:
    # seed 8 deals the white Ambassador card face up; a player keen on it completes it early
    board = boards(players=2, human_seats=(0, 1), ambassador=True, seed=8)
    state = play_until(board, lambda s: ambassador_options(s) is not None and s.actions_left == 3,
                       chooser=AmbassadorKeen(8))
    seat = state.current
    ready = list(state.ext["ambassador"]["ready"][seat])
    open_board(page, board.link(seat))
    offered = view(page)["ambassador"]
    assert offered is not None
    page.get_by_role("button", name="Ambassador", exact=True).click()
    options = [(card, o) for card, found in offered["per_card"].items() for o in found
               if normalised(o["cells"]) == normalised(orientation(page, o["shape"]))]
    assert options, "a placement in the orientation the pieces are held"
    card, option = options[0]
    before = revision(page)
    drag_onto(page, option["shape"], card, option["cells"])
    assert page.locator("#puzzles rect.drafted").count() == len(option["cells"])
    page.get_by_role("button", name="Confirm", exact=True).click()
    wait_revision(page, before)
    after = board.state()
    assert len(after.ext["ambassador"]["ready"][seat]) == len(ready) - 1  # the card is flipped
    filled = {p.card: p.filled for p in after.players[seat].puzzles}
    mask = sum(1 << (r * 5 + c) for r, c in option["cells"])
    assert card not in filled or filled[card] & mask == mask


def test_line_clear_holders_play_on_two_pages_at_once(context: BrowserContext,
                                                      boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=5, human_seats=(0, 1, 2, 3, 4))
    state = board.state()
    holders = sorted(state.acting_seats)
    assert len(holders) == 2
    pages = [open_board(context.new_page(), board.link(seat)) for seat in holders]
    for page in pages:
        assert view(page)["me"]["acting"]
    cards = []
    buttons = []
    for page in pages:
        side = view(page)["table"]["side"]
        button = page.locator(f'.row[data-side="{side}"] button.slot-button:not([aria-disabled])').first
        cards.append(button.get_attribute("data-card"))
        buttons.append(button)
    seen = [revision(page) for page in pages]
    for button in buttons:  # one right after the other, neither page reloaded in between
        button.click()
    for page, before in zip(pages, seen, strict=True):
        wait_revision(page, before + 1)  # both commits drawn: one holder's alone is not enough
    after = board.state()
    for seat, card in zip(holders, cards, strict=True):
        assert card in [p.card for p in after.players[seat].puzzles]
    for page in pages:
        page.wait_for_function("(n) => window.board.view.game.revision >= n", arg=board.game().revision)
        assert "changed before your move" not in page.inner_text("#message")


def test_recycle_as_the_row_lies_and_draw(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    row = [card["id"] for card in view(page)["table"]["rows"][0]["cards"]]
    before = revision(page)
    page.locator('.row[data-colour="white"] button.recycle').click()
    assert revision(page) == before  # the order is asked first: left to right unless the player picks
    page.get_by_role("button", name="Recycle in this order").click()
    wait_revision(page, before)
    assert board.state().table.white_deck[-4:] == tuple(row)  # type: ignore[union-attr]
    assert [card["id"] for card in view(page)["table"]["rows"][0]["cards"]] != row
    decks = view(page)["table"]["decks"]["white"]
    before = revision(page)
    page.locator("button.deck.white").click()
    wait_revision(page, before)
    assert len(view(page)["puzzles"]) == 1
    assert view(page)["table"]["decks"]["white"] == decks - 1


def white_row(page: Page) -> list[str]:
    return [card["id"] for card in view(page)["table"]["rows"][0]["cards"]]


def recycled(board: BoardHandle) -> tuple[str, ...]:
    """The last four cards under the white deck: the row recycled, first under first."""
    return board.state().table.white_deck[-4:]  # type: ignore[union-attr]


def badges(page: Page) -> list[str]:
    return page.locator('.row[data-colour="white"] .recycle-at').all_inner_texts()


def test_the_recycle_order_is_picked_by_mouse_and_sent(page: Page,
                                                       boards: Callable[..., BoardHandle]) -> None:
    """The rules let the player choose the order a recycled row goes under its deck: the cards
    are pressed in that order (pressed again, one leaves it), the rest follow left to right; the
    order is drawn on the cards, named for screen readers and said in words before it is sent."""
    board = boards(players=2)
    open_board(page, board.link(0))
    row = white_row(page)
    page.get_by_role("button", name="Recycle white").click()
    panel = page.get_by_role("group", name="Recycle the white row")
    assert badges(page) == ["1", "2", "3", "4"]  # the default: the row as it lies
    assert f"Under the deck, in this order: {', '.join(row)}." in panel.inner_text()
    cards = page.locator('.row[data-colour="white"] .slot-button')
    for slot in (3, 1, 1, 4):  # the first card pressed again leaves the order
        cards.nth(slot - 1).click()
    assert badges(page) == ["3", "4", "1", "2"]
    third = cards.nth(2)
    assert third.get_attribute("aria-pressed") == "true"
    assert third.get_attribute("aria-label").endswith(", number 1 under the deck")  # type: ignore[union-attr]
    assert cards.nth(1).get_attribute("aria-pressed") == "false"
    order = [row[2], row[3], row[0], row[1]]
    assert f"Under the deck, in this order: {', '.join(order)}." in panel.inner_text()
    before = revision(page)
    panel.get_by_role("button", name="Recycle in this order").click()
    wait_revision(page, before)
    assert recycled(board) == tuple(order)
    assert view(page)["log"][-1].endswith("recycle white 3 4 1 2")
    assert page.get_by_role("group", name="Recycle the white row").count() == 0


BADGE_AND_TEXT = """(slots) => slots.map((slot) => {
  const text = (selector) => {  // the box of the words themselves, not of the line they sit in
    const element = slot.querySelector(selector);
    if (!element || !element.textContent) return null;
    const range = document.createRange();
    range.selectNodeContents(element);
    const r = range.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const box = (selector) => { const r = slot.querySelector(selector).getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return { badge: box(".recycle-at"), card: box(".card-art"),
    words: [text(".card-id"), text(".card-points"), text(".card-reward")].filter(Boolean) };
})"""


def overlaps(a: list[float], b: list[float]) -> bool:
    """Two boxes (left, top, right, bottom) share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("width", [1280, PHONE["width"]])
def test_the_recycle_order_drawn_on_a_card_hides_none_of_its_words(
        page: Page, boards: Callable[..., BoardHandle], width: int) -> None:
    """The order number drawn on each card of the row being recycled sat in its top right corner,
    over the card's points: it sits under the card, clear of its id, points, reward and pattern,
    on a desktop and on a phone."""
    page.set_viewport_size({"width": width, "height": 900})
    board = boards(players=2)
    open_board(page, board.link(0))
    page.get_by_role("button", name="Recycle white").click()
    slots = page.locator('.row[data-colour="white"] .slot').evaluate_all(BADGE_AND_TEXT)
    assert len(slots) == 4 and all(len(slot["words"]) >= 2 for slot in slots)  # id and points at least
    for slot in slots:
        assert not any(overlaps(slot["badge"], words) for words in slot["words"]), slot
        assert not overlaps(slot["badge"], slot["card"]), slot  # nor the pattern: the whole card shows


def test_the_recycle_order_is_picked_by_keyboard_and_cancelled_by_escape(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    open_board(page, board.link(0))
    row = white_row(page)
    before = revision(page)
    page.get_by_role("button", name="Recycle white").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.key") == f"recycle:{row[0]}"  # the row's first card
    page.keyboard.press("Escape")  # Esc closes it, nothing sent, the focus back on Recycle
    assert page.get_by_role("group", name="Recycle the white row").count() == 0
    assert page.evaluate("document.activeElement.dataset.key") == "offer:recycle:white"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the second card goes under first
    named = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert named.endswith("number 1 under the deck")
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.key") == "btn:recycle-confirm"
    assert revision(page) == before
    page.keyboard.press("Enter")
    wait_revision(page, before)
    assert recycled(board) == (row[1], row[0], row[2], row[3])


def test_the_recycle_order_is_picked_by_touch_in_portuguese_and_cancel_sends_nothing(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        page = open_board(context.new_page(), board.link(0, locale="pt-BR"))
        row = white_row(page)
        before = revision(page)
        page.get_by_role("button", name="Reciclar branca").tap()
        panel = page.get_by_role("group", name="Reciclar a fileira branca")
        panel.get_by_role("button", name="Cancelar").tap()
        assert page.get_by_role("group", name="Reciclar a fileira branca").count() == 0
        assert revision(page) == before and board.game().revision == before
        page.get_by_role("button", name="Reciclar branca").tap()
        page.locator('.row[data-colour="white"] .slot-button').nth(3).tap()
        assert badges(page) == ["2", "3", "4", "1"]
        page.get_by_role("button", name="Reciclar nesta ordem").tap()
        wait_revision(page, before)
        assert recycled(board) == (row[3], row[0], row[1], row[2])
    finally:
        context.close()


def test_finishing_touches_place_then_done(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1))
    state = play_until(board, lambda s: s.phase is Phase.FINISHING
                       and any(a.kind == "place" for a in legal_actions(s.focused(min(s.acting_seats)))))
    seat = min(state.acting_seats)
    page = open_board(page, board.link(seat))
    shape = next(shape for shape, found in view(page)["placements"].items()
                 if any(normalised(p["cells"]) == normalised(orientation(page, shape)) for p in found))
    option = next(p for p in view(page)["placements"][shape]
                  if normalised(p["cells"]) == normalised(orientation(page, shape)))
    assert page.locator("button.offer.done").count() == 1  # Done ends the Finishing Touches
    before = revision(page)
    drag_onto(page, shape, option["card"], option["cells"])
    wait_revision(page, before)
    placed = board.state().players[seat]
    assert any(p.filled & sum(1 << (r * 5 + c) for r, c in option["cells"]) for p in placed.puzzles) \
        or placed.completed
    if view(page)["me"]["acting"]:
        before = revision(page)
        page.locator("button.offer.done").click()
        wait_revision(page, before)
    assert seat not in board.state().acting_seats or board.state().phase is Phase.OVER
