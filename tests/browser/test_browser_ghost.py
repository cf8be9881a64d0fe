"""The Ghost action on the board page: a ghost split into pieces that tile it, and, as the rules
allow within the same action, some of the new pieces placed at once (one per puzzle) before it is
sent; or none, which is the plain split."""

from __future__ import annotations

from collections.abc import Callable

from board_pages import open_board, revision, view, wait_revision
from playwright.sync_api import Page
from test_browser_expansions import draft_option, drag_onto, play_until

from bot.board import BoardHandle
from engine import GameState, legal_actions
from engine.actions import GhostSplit
from engine.pieces import parse_shape


def _split_to_place(state: GameState) -> bool:
    """A ghost to split whose new pieces fit, at once, on one of the seat's puzzles."""
    if state.pending or not state.acting_seats:
        return False
    seat = min(state.acting_seats)
    mine = state.focused(seat)
    return any(isinstance(a, GhostSplit) for a in legal_actions(mine)) and bool(mine.players[seat].puzzles)


def test_a_ghost_is_split_and_a_new_piece_placed_in_the_same_action(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=3)
    state = play_until(board, _split_to_place)
    seat = min(state.acting_seats)
    open_board(page, board.link(seat))
    ghost = view(page)["ghost"]
    assert ghost is not None
    fitting = [(card, p) for card, found in ghost["per_card"].items() for p in found]
    split = next(o for o in view(page)["offers"] if o["kind"] == "ghost"
                 and any(p["shape"] in o["action"].split(" to ")[1].split() for _, p in fitting))
    new = split["action"].split(" to ")[1].split()
    card, option = next((card, p) for card, p in fitting if p["shape"] in new)
    before = revision(page)
    page.locator(f'[data-key="offer:{split["action"]}"]').click()
    assert revision(page) == before  # the split waits: its new pieces may be placed first
    assert sorted(page.locator("#supply button.piece").evaluate_all("(b) => b.map((x) => x.dataset.shape)")) \
        == sorted(set(new))
    option = draft_option(page, "ghost", option["shape"], card)
    drag_onto(page, option["shape"], card, option["cells"])
    assert page.locator("#puzzles rect.drafted").count() == len(option["cells"])
    assert revision(page) == before
    page.get_by_role("button", name="Confirm", exact=True).click()
    wait_revision(page, before)
    after = board.state()
    ghost_shape = parse_shape(split["action"].split()[1])
    assert after.players[seat].supply[ghost_shape.index] == state.players[seat].supply[ghost_shape.index] - 1
    assert after.actions_left == state.actions_left - 1 or after.current != seat  # one action for both
    line = view(page)["log"][-1]
    assert line.startswith(f"{view(page)['me']['name']}: {split['action']}; {option['shape']} on {card} at ")


def test_a_ghost_split_with_nothing_placed_is_the_plain_split(page: Page,
                                                              boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), ghost=True, seed=3)
    state = play_until(board, _split_to_place)
    seat = min(state.acting_seats)
    open_board(page, board.link(seat, locale="pt-BR"))
    split = next(o for o in view(page)["offers"] if o["kind"] == "ghost")
    before = revision(page)
    page.locator(f'[data-key="offer:{split["action"]}"]').click()
    page.get_by_role("button", name="Confirmar", exact=True).click()
    wait_revision(page, before)
    assert view(page)["log"][-1].endswith(split["action"]) or "fantasma" in view(page)["log"][-1]
    assert board.state().players[seat].supply != state.players[seat].supply
