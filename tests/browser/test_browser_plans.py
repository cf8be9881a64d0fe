"""Plan mode on the board page: a seat that is not to move lays out its next turn with the same
drag, keyboard and buttons, saves it, and sees it played (or stopped where the other player's take
broke it) when its turn comes; cancel; keyboard only; axe finds nothing serious on the controls."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from board_pages import (
    drag_to_placement,
    open_board,
    placement_in_hand,
    view,
    wait_presses,
    wait_presses_decided,
)
from playwright.sync_api import Page, Route
from test_browser_a11y import serious
from test_browser_turns import tab_to

from bot.board import BoardHandle
from bot.core.play import plan_keeping
from bot.core.play.flow import ActingContext
from bot.core.play.manager import Game, Step, engine_policy
from bot.core.storage.plans import PlanStore
from engine import parse_action
from engine.state import Phase


async def slow_hook(game: Game, step: Step) -> None:
    """A commit hook that waits on something (a front's network call): the live view of a planned
    turn then reaches the page before the plan's outcome reaches the board."""
    await asyncio.sleep(0.3)


def wait_steps(page: Page, count: int) -> None:
    """Wait until the plan being laid out on the page has ``count`` steps."""
    page.wait_for_function("(n) => window.board?.planning?.steps.length === n", arg=count)


def hold_next_draft(page: Page) -> Callable[[], None]:
    """Hold back the page's next draft request (later ones pass); the function returned lets it
    go once it has been made."""
    held: list[Route] = []
    page.route("**/api/plan/draft", lambda route: route.continue_() if held else held.append(route))

    def release() -> None:
        while not held:
            page.wait_for_timeout(20)  # the route's handler runs while Playwright has the thread
        held[0].continue_()
    return release


def start_planning(page: Page) -> None:
    page.get_by_role("button", name="Plan my next turn").click()
    wait_steps(page, 0)


def saved_steps(board: BoardHandle, seat: int) -> list[str] | None:
    plan = board._run(PlanStore(board.board.storage).get(board.board.game_id, seat))
    return None if plan is None else [step.action for step in plan.steps]


def plan_box(page: Page) -> str:
    return page.inner_text(".plan")


def test_a_plan_laid_out_by_mouse_plays_when_the_turn_comes(page: Page,
                                                             boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    assert view(page)["me"]["plannable"] and not view(page)["me"]["acting"]
    start_planning(page)
    assert "Planning your next turn" in page.inner_text("#turn-status")
    page.locator(".row.white button.slot-button:not([aria-disabled])").first.click()
    wait_steps(page, 1)
    taken = view(page)["puzzles"][0]["id"]
    placement = placement_in_hand(page, "2")  # the previews are the draft's: its puzzle is there
    drag_to_placement(page, "2", placement)
    wait_steps(page, 2)
    assert page.locator("#puzzles rect.filled").count() == 2
    page.locator("button.offer.level1").click()
    wait_steps(page, 3)
    assert "The plan fills your turn." in plan_box(page)
    assert board.state().players[1].puzzles == ()  # nothing played, nothing kept yet
    assert saved_steps(board, 1) is None
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    assert "Planned for your next turn" in page.inner_text("#message")
    kept = saved_steps(board, 1)
    assert kept is not None and len(kept) == 3 and kept[0].startswith("take white")

    page.reload()  # the plan kept is shown again after a reload
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    assert plan_box(page).count("\n") >= 3 and "It plays the moment your turn starts." in plan_box(page)
    page.get_by_role("button", name="Change plan").click()  # back in Plan mode with the steps kept
    wait_steps(page, 3)
    page.get_by_role("button", name="Stop planning").click()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')

    for _ in range(3):
        board.act(0, "level1")
    page.wait_for_selector(".plan-outcome")  # the live update brings what the plan did
    assert f"Your planned turn in game {board.board.game_id} was played" in page.inner_text(".plan-outcome")
    assert [p.card for p in board.state().players[1].puzzles] == [taken]
    assert sum(line.endswith("(planned)") for line in view(page)["log"]) == 3
    assert not view(page)["me"]["acting"]  # the planned turn is over: the other seat moves
    page.get_by_role("button", name="Dismiss").click()
    page.wait_for_selector(".plan-outcome", state="detached")


def test_a_plan_by_keyboard_only_broken_by_the_others_take(page: Page,
                                                           boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    tab_to(page, '[data-key="btn:plan"]')
    page.keyboard.press("Enter")
    wait_steps(page, 0)
    card = board.state().table.white_row[2]  # type: ignore[union-attr]
    tab_to(page, f'.row.white button.slot-button[data-card="{card}"]')
    page.keyboard.press("Enter")
    wait_steps(page, 1)
    tab_to(page, '#supply button.piece[data-shape="2"]')
    page.keyboard.press("Enter")  # pick: the cursor goes to the first spot where it fits
    assert page.evaluate("document.activeElement.getAttribute('role')") == "gridcell"
    assert page.locator("#puzzles rect.preview-ok").count() == 2
    page.keyboard.press("Enter")
    wait_steps(page, 2)
    tab_to(page, '[data-key="btn:plan-save"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    assert saved_steps(board, 1) is not None

    board.board.manager.on_action_committed.append(slow_hook)  # as a Discord front's hooks may be
    board.act(0, "take white 3")  # the card the plan took
    board.act(0, "level1")
    board.act(0, "level1")
    page.wait_for_selector(".plan-outcome")
    said = page.inner_text(".plan-outcome")
    assert "stopped at its first step, take white 3" in said
    assert f"{card} is no longer where the plan took it from" in said
    assert view(page)["me"]["acting"] and view(page)["me"]["actions_left"] == 3  # the turn waits for it
    assert board.state().players[1].puzzles == ()


def test_cancel_and_a_refused_step_change_nothing_and_axe_passes(page: Page,
                                                                  boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    start_planning(page)
    assert serious(page) == []
    page.locator("button.offer.level1").click()
    wait_steps(page, 1)
    page.get_by_role("button", name="Remove last step").click()
    wait_steps(page, 0)
    page.locator("button.offer.level1").click()
    wait_steps(page, 1)
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    assert serious(page) == []
    page.get_by_role("button", name="Cancel plan").click()
    page.wait_for_selector('[data-key="btn:plan"]')
    assert "Your plan is cancelled" in page.inner_text("#message")
    assert saved_steps(board, 1) is None
    start_planning(page)  # a draft refused by the server says why and keeps the steps it had
    page.evaluate("window.board.addStep({ place: { card: 'W01', shape: '1', cells: [[0, 0]] } })")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('refused')")
    assert page.evaluate("window.board.planning.steps.length") == 0
    page.get_by_role("button", name="Stop planning").click()
    page.wait_for_selector('[data-key="btn:plan"]')
    start_planning(page)  # the turn comes while a draft is open: the page leaves Plan mode and says so
    for _ in range(3):
        board.act(0, "level1")
    page.wait_for_function("() => !window.board.planning && window.board.view.me.acting")
    assert "It is your turn now" in page.inner_text("#message")
    assert board.state().current == 1 and board.state().actions_left == 3  # nothing planned was played


def test_in_line_clear_the_page_plans_on_the_side_chosen(page: Page,
                                                         boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=5, human_seats=(0, 1, 2, 3, 4), seed=5)
    state = board.state()
    seat = next(s for s in range(5) if s not in state.acting_seats)
    open_board(page, board.link(seat))
    start_planning(page)
    right = page.get_by_role("button", name="Plan on the right side")
    right.click()
    page.wait_for_function("() => window.board.view.table.side === 'right'")
    assert right.get_attribute("aria-pressed") == "true"
    card = page.locator('.row.white[data-side="right"] button.slot-button:not([aria-disabled])').first
    taken = card.get_attribute("data-card")
    card.click()
    wait_steps(page, 1)
    assert page.evaluate("window.board.planning.steps[0].card") == taken
    assert page.locator('.row[data-side="left"] button.slot-button:not([aria-disabled])').count() == 0


def test_in_line_clear_change_plan_starts_on_the_side_the_plan_was_kept_for(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A plan saved on the right side, then Change plan: the draft was laid out again with no
    side, on the left (the first side allowing it), its take showing the left row's card."""
    board = boards(players=5, human_seats=(0, 1, 2, 3, 4), seed=5)
    seat = next(s for s in range(5) if s not in board.state().acting_seats)
    open_board(page, board.link(seat))
    start_planning(page)
    page.get_by_role("button", name="Plan on the right side").click()
    page.wait_for_function("() => window.board.view.table.side === 'right'")
    card = page.locator('.row.white[data-side="right"] button.slot-button:not([aria-disabled])').first
    taken = card.get_attribute("data-card")
    card.click()
    wait_steps(page, 1)
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-change"]')
    assert saved_steps(board, seat) is not None
    assert board._run(PlanStore(board.board.storage).get(board.board.game_id, seat)).side == "right"

    page.reload()  # what the page knows of the plan comes from the server, not from the draft
    page.get_by_role("button", name="Change plan").click()
    wait_steps(page, 1)
    page.wait_for_function("() => window.board.view.table.side === 'right'")
    assert page.get_by_role("button", name="Plan on the right side").get_attribute("aria-pressed") == "true"
    assert page.evaluate("window.board.planning.steps[0].card") == taken
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-change"]')
    kept = board._run(PlanStore(board.board.storage).get(board.board.game_id, seat))
    assert kept is not None and kept.side == "right" and kept.steps[0].card == taken


def test_the_turn_coming_while_a_draft_is_in_flight_still_ends_plan_mode(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A live update that arrives while the page waits for a draft is not dropped: once the draft
    is back, the page lays it out again on the table as it now stands — here the seat's turn has
    come, so Plan mode ends. (The draft's answer is held back until the whole turn is live.)"""
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    start_planning(page)
    release = hold_next_draft(page)
    page.locator("button.offer.level1").click()
    page.wait_for_function("() => window.board.busy")
    before = page.evaluate("window.board.realView.game.revision")
    for _ in range(3):
        board.act(0, "level1")
    page.wait_for_function("(r) => window.board.realView.game.revision >= r + 3", arg=before)
    release()
    page.wait_for_function("() => !window.board.planning && window.board.view.me.acting")
    assert "It is your turn now" in page.inner_text("#message")
    assert board.state().current == 1 and board.state().actions_left == 3  # nothing planned was played


def test_a_step_pressed_while_the_plan_is_laid_again_is_added_after_it(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A live update lays the draft out again; a step pressed meanwhile waits for that answer
    (the page is busy with it) and is then added, not dropped."""
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    start_planning(page)
    release = hold_next_draft(page)
    page.evaluate("window.board.redraftAfterUpdate()")  # as a live update does
    page.wait_for_function("() => window.board.busy")
    page.locator("button.offer.level1").click()
    release()  # the re-lay's answer; the step's draft goes on unheld
    wait_steps(page, 1)
    assert page.evaluate("window.board.planning.bodies.length") == 1


def test_a_double_click_in_plan_mode_adds_one_step(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    start_planning(page)
    release = hold_next_draft(page)
    page.locator("button.offer.level1").dblclick()
    wait_presses(page, 1)  # the second click waits
    release()  # the first click's draft
    wait_steps(page, 1)
    wait_presses_decided(page)
    assert page.evaluate("window.board.planning.bodies.length") == 1


def test_save_pressed_while_the_plan_is_laid_again_saves_it(page: Page,
                                                            boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), seed=11)
    open_board(page, board.link(1))
    start_planning(page)
    page.locator("button.offer.level1").click()
    wait_steps(page, 1)
    release = hold_next_draft(page)
    page.evaluate("window.board.redraftAfterUpdate()")  # as a live update does
    page.wait_for_function("() => window.board.busy")
    page.get_by_role("button", name="Save plan").click()
    wait_presses(page, 1)  # Save waits
    release()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')
    assert "Planned for your next turn" in page.inner_text("#message")
    kept = saved_steps(board, 1)
    assert kept is not None and len(kept) == 1


def test_a_plan_kept_when_the_last_round_ends_is_not_said_to_wait_and_no_plan_is_said_why(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """Ana saves a plan during Bia's turn of the last round: Finishing Touches come instead of her
    turn, so the plan never plays. Her page must not keep saying it plays when her turn starts
    (there, or once the game is over); out of turn in Finishing Touches the page says why there
    is no Plan button."""
    board = boards(players=2, human_seats=(0, 1), seed=3)
    chooser = engine_policy("greedy", 3)
    store = PlanStore(board.board.storage)
    while board.state().phase is Phase.PLAY:
        state = board.state()
        if state.current == 1 and board._run(store.get(board.board.game_id, 0)) is None:
            game = board._run(board.board.manager.game(board.board.game_id))
            assert game is not None
            ctx = ActingContext(game, 0, board.board.users[0], None)
            board._run(plan_keeping.save_plan(board.board.manager, ctx, [parse_action("level1")]))
        seat = min(state.acting_seats)
        board.act(seat, str(chooser.choose(state.focused(seat))))
    assert board.state().phase is Phase.FINISHING and board.state().acting_seats == (0,)
    assert saved_steps(board, 0) == ["level1"]  # kept, but no turn of Ana's will ever play it

    open_board(page, board.link(0))
    page.wait_for_function("() => window.board?.kept !== null")
    assert "It plays the moment your turn starts." not in page.inner_text("main")
    assert page.locator(".plan-steps").count() == 0

    out_of_turn = page.context.new_page()
    open_board(out_of_turn, board.link(1))
    out_of_turn.wait_for_function("() => window.board?.kept !== null")
    assert out_of_turn.get_by_role("button", name="Plan my next turn").count() == 0
    assert "No plans in Finishing Touches: play them as they come." in out_of_turn.inner_text("main")

    while not board.state().is_over:
        state = board.state()
        seat = min(state.acting_seats)
        board.act(seat, str(chooser.choose(state.focused(seat))))
    page.reload()
    page.wait_for_selector("#players-h")
    page.wait_for_function("() => window.board?.kept !== null")
    assert "It plays the moment your turn starts." not in page.inner_text("main")
    assert "No plans in Finishing Touches" not in page.inner_text("main")


def test_a_plan_saved_or_cancelled_anywhere_reaches_the_seats_other_tab_live_and_no_one_elses(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """No new revision says a plan was saved or cancelled: the seat's other open tab hears it on
    its live stream, without getting the focus back — from another tab or from Discord's path —
    so it neither offers to plan from nothing nor shows a plan that is gone. The other seat's page
    and a spectator's never hear of it."""
    board = boards(players=2, human_seats=(0, 1), seed=11)
    other = page.context.new_page()
    mover = page.context.new_page()
    spectator = page.context.new_page()
    open_board(page, board.link(1))
    open_board(other, board.link(1))
    open_board(mover, board.link(0))
    open_board(spectator, board.link(None))
    start_planning(page)
    page.locator("button.offer.level1").click()
    wait_steps(page, 1)
    page.get_by_role("button", name="Save plan").click()
    page.wait_for_selector('[data-key="btn:plan-cancel"]')

    other.wait_for_selector('[data-key="btn:plan-cancel"]')  # no focus event: the stream told it
    assert "It plays the moment your turn starts." in plan_box(other)
    assert other.get_by_role("button", name="Plan my next turn").count() == 0

    other.get_by_role("button", name="Cancel plan").click()
    other.wait_for_selector('[data-key="btn:plan"]')
    page.wait_for_selector('[data-key="btn:plan"]')
    assert page.locator(".plan-steps").count() == 0

    game = board.game()  # Discord's /projectl-plan set, while both tabs stay open
    ctx = ActingContext(game, 1, board.board.users[1], None)
    board._run(plan_keeping.save_plan(board.board.manager, ctx, [parse_action("level1")]))
    for tab in (page, other):
        tab.wait_for_selector('[data-key="btn:plan-cancel"]')

    board.act(0, "level1")  # a live view for every page: a plan's news would have come before it
    for watcher in (mover, spectator):
        watcher.wait_for_function("(r) => window.board.view.game.revision >= r", arg=board.game().revision)
        assert watcher.locator(".plan-steps").count() == 0
        assert watcher.evaluate("window.board.kept && window.board.kept.plan") is None
