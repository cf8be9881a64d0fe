"""The end of a game on the board, and the seats' names: who won (with the tie-break that decided
it, Finesse credits first; the mastermind in Solo) is said in the turn status, shown above the
board and on the winner's line, in English and in Portuguese, names as the players wrote them;
an AI seat is named in the page's language."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from board_pages import open_board, view
from playwright.sync_api import Page

from bot.board import BoardHandle
from bot.core.play.manager import engine_policy
from engine import opponent_score, score_lines, winners
from engine.state import GameState

ODD_NAME = "*Ana* <b>&amp;"
"""A name with markdown and markup in it: shown exactly as typed, never as markup or escaped."""


def play_to_the_end(board: BoardHandle, *, seed: int = 3) -> GameState:
    chooser = engine_policy("greedy", seed)
    for _ in range(2000):
        state = board.state()
        if state.is_over:
            return state
        seat = min(state.acting_seats)
        board.act(seat, str(chooser.choose(state.focused(seat))))
    raise AssertionError("the game never ended")


WON = {"en": ("The game is over. {name} wins.", "{name} wins",
              "Tie on 17 — {name} wins on credits (5 vs 2).", "won"),
       "pt-BR": ("A partida terminou. {name} vence.", "{name} vence",
                 "Empate em 17 — {name} vence por créditos (5 x 2).", "venceu")}


@pytest.mark.parametrize("locale", ["en", "pt-BR"])
def test_the_winner_and_the_tie_break_are_shown_at_the_end(page: Page, boards: Callable[..., BoardHandle],
                                                            locale: str) -> None:
    """Finesse, seed 50: a tie on 17 points that Ana wins on credits (5 vs 2)."""
    board = boards(players=2, human_seats=(0, 1), finesse=True, seed=50, names=(ODD_NAME, "Bia"))
    state = play_to_the_end(board)
    assert winners(state) == (0,) and {line.total for line in score_lines(state)} == {17}
    status, headline, note, tag = (text.format(name=ODD_NAME) for text in WON[locale])
    open_board(page, board.link(1, locale=locale))
    assert page.inner_text("#turn-status") == status  # a live region: read out
    result = page.get_by_role("region", name=headline)
    assert result.count() == 1
    assert note in result.inner_text()
    winner = page.locator('.players li[data-seat="0"]')
    assert f"· {tag}" in winner.inner_text()
    assert tag not in page.locator('.players li[data-seat="1"]').inner_text()
    assert page.locator("main b").count() == 0  # the name stayed text
    assert view(page)["result"]["winners"] == [0]


def test_solo_says_whether_the_mastermind_won(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(variant="solo", seed=5)
    state = play_to_the_end(board)
    points = opponent_score(state)
    assert points is not None
    open_board(page, board.link(0))
    won = winners(state) == (0,)
    headline = "Ana beats the mastermind" if won else "The mastermind wins"
    assert page.inner_text("#turn-status") == f"The game is over. {headline}."
    result = page.get_by_role("region", name=headline)
    assert f"The mastermind: {points} pt" in result.inner_text()
    assert view(page)["result"]["winners"] == ([0] if won else [-1])


def test_an_ai_seat_is_named_in_the_pages_language(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0,))
    open_board(page, board.link(0, locale="pt-BR"))
    assert [p["name"] for p in view(page)["players"]] == ["Ana", "IA Fácil 1"]
    assert page.locator('.players li[data-seat="1"] .name').inner_text() == "IA Fácil 1"
    english = page.context.new_page()
    open_board(english, board.link(0))
    assert english.locator('.players li[data-seat="1"] .name').inner_text() == "Easy AI 1"
