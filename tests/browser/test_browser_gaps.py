"""What the board page must also do: a pending decision (a Ghost level-up reward) decided with its
buttons, a Ghost piece placed by a drag like any other, and the spectator's page: the board with
no hidden information, nothing to act with, and live updates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from board_pages import (
    BUSY_CEILING_MS,
    DESKTOP,
    drag_to_placement,
    message,
    normalised,
    open_board,
    orientation,
    placement_in_hand,
    revision,
    view,
    wait_revision,
)
from playwright.sync_api import Browser, Page
from test_browser_expansions import play_until

from bot.board import BoardHandle
from bot.core.play.manager import engine_policy
from bot.core.play.plans import plannable, planning_states
from engine import GameState, Place, apply, legal_actions
from engine.pieces import SHAPES_BY_LEVEL, parse_shape
from engine.policies.plugins import seen_position

GHOSTS = frozenset(SHAPES_BY_LEVEL[5])


def test_a_pending_level_up_is_decided_on_the_page(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=3)
    state = play_until(board, lambda s: bool(s.pending) and len(s.pending[0].options) > 2)
    decision = state.pending[0]
    open_board(page, board.link(decision.seat))
    pending = view(page)["pending"]
    assert pending is not None and pending["kind"] == "level_up"
    assert [o["action"] for o in pending["options"]] == [f"choose {o}" for o in decision.options]
    box = page.get_by_role("group", name="A choice is waiting:")
    assert box.get_by_role("button").count() == len(decision.options)
    give, _, take = decision.options[0].split()
    supply = board.state().players[decision.seat].supply
    before = revision(page)
    box.locator(f'[data-key="offer:choose {decision.options[0]}"]').click()
    wait_revision(page, before)
    after = board.state()
    assert after.pending[:1] != (decision,)
    now = after.players[decision.seat].supply
    assert now[parse_shape(give).index] == supply[parse_shape(give).index] - 1
    assert now[parse_shape(take).index] == supply[parse_shape(take).index] + 1


def _ghost_to_place(state: GameState) -> bool:
    if state.pending or not state.acting_seats:
        return False
    seat = min(state.acting_seats)
    return any(isinstance(a, Place) and a.shape in GHOSTS for a in legal_actions(state.focused(seat)))


def test_a_ghost_piece_is_placed_by_drag(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=11)
    state = play_until(board, _ghost_to_place)
    seat = min(state.acting_seats)
    open_board(page, board.link(seat))
    shape = next(s for s in view(page)["placements"] if s in {g.value for g in GHOSTS})
    placement = placement_in_hand(page, shape)
    before = revision(page)
    drag_to_placement(page, shape, placement)
    wait_revision(page, before)
    index = parse_shape(shape).index
    assert board.state().players[seat].supply[index] == state.players[seat].supply[index] - 1
    assert view(page)["log"][-1].endswith(placement["action"])


def test_the_spectator_page_shows_the_board_and_nothing_hidden_or_to_act_with(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), known_scores=False, seed=11)
    board.act(0, "take white 1")
    open_board(page, board.link(None))
    assert "You are watching" in page.inner_text("#turn-status")
    seen = view(page)
    assert seen["me"]["spectator"] and not seen["me"]["plannable"]
    assert seen["supply"] == seen["puzzles"] == seen["offers"] == [] and seen["placements"] == {}
    assert seen["master"] is None and seen["pending"] is None and seen["undo"] is None
    assert all(p["score"] is None and p["completed_cards"] is None for p in seen["players"])
    assert all(isinstance(n, int) for n in seen["table"]["decks"].values())  # counts, never cards
    assert page.locator(".row.white .slot-button").count() == 4
    assert page.locator(".slot-button:not([aria-disabled])").count() == 0
    assert page.locator("#supply button.piece").count() == 0
    assert page.locator('[data-key="btn:plan"], button.offer, [data-key="btn:undo"]').count() == 0
    before = board.game().revision
    page.locator(".row.white .slot-button").first.click(force=True)  # disabled: a click does nothing
    assert board.game().revision == before  # nothing happened
    board.act(0, "level1")  # the live update reaches the spectator too
    wait_revision(page, before)
    assert view(page)["log"][-1].endswith("level1")


def test_the_spectator_page_has_no_seat_s_empty_panel_or_piece_tools(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A spectator holds no puzzles and no pieces: no empty "Your puzzles" / "Your pieces", no
    Turn or Flip that could only answer "Pick a piece first", no keys hint for them."""
    board = boards(players=2, human_seats=(0, 1))
    board.act(0, "take white 1")
    open_board(page, board.link(None))
    for heading in ("Your puzzles", "Your pieces"):
        assert page.get_by_role("heading", name=heading).count() == 0
    for word in ("Turn", "Flip"):
        assert page.get_by_role("button", name=word, exact=True).count() == 0
    assert "Keys:" not in page.inner_text("main")
    page.keyboard.press("r")
    page.keyboard.press("f")
    assert message(page) == ""
    assert page.get_by_role("heading", name="On offer").count() == 1  # the table is still there


def test_each_seats_open_puzzles_are_shown_to_the_others_and_to_a_spectator(
        browser: Browser, boards: Callable[..., BoardHandle]) -> None:
    """Open puzzles lie face up on the table: a spectator sees every seat's, with the cells filled
    so far, and a seat sees the others' (its own are its panel, not repeated)."""
    board = boards(players=2, human_seats=(0, 1))
    board.act(0, "take white 1")
    board.act(0, "place 2 on W09 at B2 C2")
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(BUSY_CEILING_MS)
    try:
        watching = open_board(context.new_page(), board.link(None))
        anas = watching.get_by_role("group", name="Ana's puzzles")
        assert anas.get_by_role("img").count() == 1
        named = anas.get_by_role("img").get_attribute("aria-label")
        assert named == "W09, 0 points, reward T4, 2 of 4 cells filled"
        assert anas.locator("rect.piece-cell").count() == 2
        bia = open_board(context.new_page(), board.link(1))
        assert bia.get_by_role("group", name="Ana's puzzles").get_by_role("img").count() == 1
        ana = open_board(context.new_page(), board.link(0))
        assert ana.get_by_role("group", name="Ana's puzzles").count() == 0  # her own: the panel shows them
        before = revision(bia)
        board.act(0, "take white 2")  # a live update shows the new one
        wait_revision(bia, before)
        assert bia.get_by_role("group", name="Ana's puzzles").get_by_role("img").count() == 2
    finally:
        context.close()


def test_a_plan_on_the_page_holds_a_pending_choice(page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A planned placement that completes a puzzle with a level-up reward: the draft asks the
    choice on the page, the choice is a step of the plan, and both play when the turn comes."""
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=5)
    found: dict[str, Any] = {}

    def asks_a_choice(state: GameState) -> bool:
        planner = 1 - min(state.acting_seats)
        if state.pending or not plannable(state, planner):
            return False
        start = planning_states(seen_position(state, planner), planner)[0]
        for action in legal_actions(start):
            after = apply(start, action, player=planner).state
            if isinstance(action, Place) and after.pending and len(after.pending[0].options) > 2:
                found.update(seat=planner, place=action, options=after.pending[0].options)
                return True
        return False

    play_until(board, asks_a_choice)
    seat, place = found["seat"], found["place"]
    open_board(page, board.link(seat))
    page.get_by_role("button", name="Plan my next turn").click()
    page.wait_for_function("() => window.board?.planning?.steps.length === 0")
    shape = place.shape.value
    wanted = next(p for p in view(page)["placements"][shape] if p["action"] == str(place))
    page.locator(f'#supply button.piece[data-shape="{shape}"]').click()  # in hand: R and F turn it
    for turn in range(8):
        if normalised(orientation(page, shape)) == normalised(wanted["cells"]):
            break
        page.keyboard.press("f" if turn == 3 else "r")
    drag_to_placement(page, shape, wanted)
    page.wait_for_function("() => window.board?.planning?.steps.length === 1")
    box = page.get_by_role("group", name="A choice is waiting:")
    option = found["options"][0]
    box.locator(f'[data-key="offer:choose {option}"]').click()
    page.wait_for_function("() => window.board?.planning?.steps.length === 2")
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    chooser = engine_policy("greedy", 3)
    while seat not in board.state().acting_seats:  # the other seat ends its turn
        state = board.state()
        mover = min(state.acting_seats)
        board.act(mover, str(chooser.choose(state.focused(mover))))
    page.wait_for_selector(".plan-outcome")
    assert f"choose {option}" in page.inner_text(".plan-outcome")
    page.wait_for_function("(line) => window.board.view.log.includes(line)",
                           arg=f"{view(page)['me']['name']}: choose {option} (planned)")
    assert not board.state().pending and seat in board.state().acting_seats  # its turn goes on


def test_every_ghost_split_is_a_button_in_the_row_of_actions(page: Page,
                                                              boards: Callable[..., BoardHandle]) -> None:
    """The Ghost action's buttons wore the dragged piece's class: all drawn on one another over the
    page's title bar, so only the last split could be pressed, and the turn status was hidden."""
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=3)
    play_until(board, lambda s: bool(s.acting_seats) and not s.pending and any(
        a.kind == "ghost" for a in legal_actions(s.focused(min(s.acting_seats)))))
    open_board(page, board.link(min(board.state().acting_seats)))
    boxes = page.locator("button.offer.ghost").evaluate_all(
        "(buttons) => buttons.map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.top]; })")
    assert len(boxes) > 1 and len({tuple(box) for box in boxes}) == len(boxes)  # none drawn on another
    controls = page.locator(".controls").bounding_box()
    assert controls is not None
    assert all(controls["y"] <= top < controls["y"] + controls["height"] for _, top in boxes)
    for button in page.locator("button.offer.ghost").all():
        assert button.evaluate("(b) => { const r = b.getBoundingClientRect(); "
                               "return document.elementFromPoint(r.left + r.width / 2, "
                               "r.top + r.height / 2) === b; }")
