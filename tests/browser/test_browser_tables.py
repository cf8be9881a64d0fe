"""What each variant's table shows the player on the board page, as its table image does: Solo's
locks above the grid's columns and the mastermind (its score, puzzles and pieces, and what it took
after the player's turn), Line Clear's two markers (who holds which, on which side), and Finesse's
tile row with every player's credits."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from board_pages import message, open_board, revision, view, wait_revision
from playwright.sync_api import Page
from test_browser_expansions import play_until

from bot.board import BoardHandle
from engine.expansions.finesse import view as finesse_view
from renders.rank import mastermind_points


@pytest.mark.parametrize(("locale", "column", "mastermind", "took"), [
    ("en", "Column {col}: {n} locks",
     "Mastermind — points: {points}, puzzles: {puzzles}, pieces: {pieces}", "The mastermind took"),
    ("pt-BR", "Coluna {col}: {n} bloqueios",
     "Mentor — pontos: {points}, quebra-cabeças: {puzzles}, peças: {pieces}", "O Mentor pegou"),
])
def test_solo_shows_the_locks_and_the_mastermind(page: Page, boards: Callable[..., BoardHandle], locale: str,
                                                 column: str, mastermind: str, took: str) -> None:
    board = boards(variant="solo", seed=5)
    board.act(0, "take 1")
    board.act(0, "take 2")
    open_board(page, board.link(0, locale=locale))
    before = revision(page)
    page.locator('[data-key="offer:level1"]').click()  # the turn's last action: the mastermind plays
    wait_revision(page, before)
    assert took in message(page)
    state = board.state()
    table = state.table
    shown = " ".join(page.locator(".offer-table.solo .lock").all_inner_texts())
    for col, count in enumerate(table.locks, start=1):  # type: ignore[union-attr]
        if count > 1:
            assert column.format(col=col, n=count) in shown
    assert any(count > 1 for count in table.locks)  # type: ignore[union-attr]
    assert page.inner_text(".offer-table.solo .mastermind") == mastermind.format(
        points=mastermind_points(state), puzzles=len(table.mastermind_pile),  # type: ignore[union-attr]
        pieces=table.mastermind_supply)  # type: ignore[union-attr]


@pytest.mark.parametrize(("locale", "white", "black"), [
    ("en", "Left rows · White marker: {name}", "Right rows · Black marker: {name}"),
    ("pt-BR", "Linhas da esquerda · Marcador branco: {name}", "Linhas da direita · Marcador preto: {name}"),
])
def test_line_clear_shows_who_holds_each_marker_on_which_side(page: Page, boards: Callable[..., BoardHandle],
                                                              locale: str, white: str, black: str) -> None:
    board = boards(players=5, human_seats=(0, 1, 2, 3, 4), seed=4)
    holders = board.state().table.markers  # type: ignore[union-attr]
    open_board(page, board.link(holders[1], locale=locale))
    names = {p["seat"]: p["name"] for p in view(page)["players"]}
    sides = page.locator(".offer-table.lineclear .side-title").all_inner_texts()
    assert sides == [white.format(name=names[holders[0]]), black.format(name=f"{names[holders[1]]}")]
    tags = {int(item.get_attribute("data-seat") or -1): item.inner_text()
            for item in page.locator("li.player").all()}
    assert white.split(" · ")[1].split(":")[0] in tags[holders[0]]
    assert black.split(" · ")[1].split(":")[0] in tags[holders[1]]


def test_finesse_shows_the_tile_row_and_everyones_credits(page: Page,
                                                           boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), finesse=True, seed=3)
    open_board(page, board.link(0))
    first = page.locator(".finesse .tile-row li").all_inner_texts()
    assert len(first) == 10 and first[:2] == ["face down", "face down"]  # round 1: two tiles face down
    assert view(page)["finesse"]["row_text"][:2] == [None, None]  # nor are their words in the JSON
    play_until(board, lambda s: s.round >= 3 and sum(finesse_view(s).active + finesse_view(s).inactive) > 0)
    page.reload()
    page.wait_for_selector("#players-h")
    finesse = view(page)["finesse"]
    live = (finesse["live"] or {}).get("id")
    tiles = page.locator(".finesse .tile-row li").all_inner_texts()
    assert len(tiles) == len(finesse["row"]) and live is not None
    for shown, tile, words in zip(tiles, finesse["row"], finesse["row_text"], strict=True):
        assert shown == ("face down" if tile is None else words + (" — live" if tile == live else ""))
    for seat, credits in enumerate(finesse["credits"]):
        line = page.inner_text(f'li.player[data-seat="{seat}"]')
        assert f"credits: {credits['active']} active, {credits['inactive']} new" in line
