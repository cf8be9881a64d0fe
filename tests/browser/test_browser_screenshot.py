"""The picture README shows ("Play on the board"): a game a few turns in, a piece in hand with
the cells where it fits lit. Written to ``$PROJECTL_BOARD_SCREENSHOT`` when set (to refresh
docs/images/web/board.png), else into the test's temporary folder."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from board_pages import cell_centre, lead, open_board, piece_cell_centre, placement_in_hand, view
from playwright.sync_api import Page

from bot.board import BoardHandle
from bot.core.play.manager import engine_policy
from engine import legal_actions


def test_the_board_screenshot(page: Page, boards: Callable[..., BoardHandle], tmp_path: Path) -> None:
    board = boards(players=3, names=("Ana", "Bia", "Caio"), seed=5)
    chooser = engine_policy("strong", 5)
    def ready() -> bool:
        state = board.state()
        puzzles = state.players[0].puzzles
        return (state.turn >= 21 and state.actions_left == 3 and len(puzzles) >= 2
                and any(p.filled for p in puzzles) and any(a.kind == "place" for a in legal_actions(state)))

    while not ready():
        state = board.state()
        assert state.current == 0 and not state.is_over and state.turn < 60
        board.act(0, str(chooser.choose(state)))
    open_board(page, board.link(0))
    supply = view(page)["supply"]
    shapes = [item["shape"] for item in supply if view(page)["placements"].get(item["shape"])]
    assert shapes, "a piece that fits somewhere"
    shape = max(shapes, key=lambda name: len(view(page)["shapes"][name]))
    page.locator(f'#supply button.piece[data-shape="{shape}"]').click()
    for _ in range(4):
        if page.locator("#puzzles rect.fits").count():
            break
        page.keyboard.press("r")
    page.locator(f'#supply button.piece[data-shape="{shape}"]').click()  # put it down: drag it instead
    placement = placement_in_hand(page, shape)
    start = piece_cell_centre(page, shape)
    end = cell_centre(page, placement["card"], *lead(placement["cells"]))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=5)
    page.mouse.move(*end, steps=5)
    assert page.locator("#puzzles rect.preview-ok").count() == len(placement["cells"])
    target = Path(os.environ.get("PROJECTL_BOARD_SCREENSHOT") or tmp_path / "board.png")
    page.screenshot(path=str(target), full_page=False)
    page.mouse.move(2, 2, steps=3)
    page.mouse.up()
    assert target.stat().st_size > 10_000
