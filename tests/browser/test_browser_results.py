"""The seats' names on the board: an AI seat is named in the page's language."""

from __future__ import annotations

from collections.abc import Callable

from board_pages import open_board, view
from playwright.sync_api import Page

from bot.board import BoardHandle


def test_an_ai_seat_is_named_in_the_pages_language(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0,))
    open_board(page, board.link(0, locale="pt-BR"))
    assert [p["name"] for p in view(page)["players"]] == ["Ana", "IA Fácil 1"]
    assert page.locator('.players li[data-seat="1"] .name').inner_text() == "IA Fácil 1"
    english = page.context.new_page()
    open_board(english, board.link(0))
    assert english.locator('.players li[data-seat="1"] .name').inner_text() == "Easy AI 1"
