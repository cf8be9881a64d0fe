"""What a page may not do or see: a stale page gets 409 and the fresh view; forged, expired and
other seats' tokens get the 403 page; a name made of markup is shown as text under a strict CSP."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from board_pages import message, open_board, revision, view, wait_revision
from playwright.sync_api import BrowserContext, Page, Route

from bot.board import BoardHandle

HOSTILE_NAME = "<img src=x onerror=alert(1)>"


def test_a_stale_page_gets_409_and_the_fresh_view(context: BrowserContext,
                                                   boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)
    fresh = open_board(context.new_page(), board.link(0))
    stale = context.new_page()
    # this page hears no live update, so it still shows the board as it was: its stream is held,
    # not refused (a refused stream retries and says "connection lost", over the 409's sentence)
    held: list[Route] = []
    stale.route("**/api/events", lambda route: held.append(route))
    open_board(stale, board.link(0))
    seen = revision(stale)

    first = fresh.locator(".row.white button.slot-button:not([aria-disabled])").first
    taken = first.get_attribute("data-card")
    first.click()
    wait_revision(fresh, seen)
    assert revision(stale) == seen

    stale.locator(f'.row.white button.slot-button[data-card="{taken}"]').click()
    wait_revision(stale, seen)
    assert "changed before your move" in message(stale)
    assert revision(stale) == board.game().revision
    mine = [p.card for p in board.state().players[0].puzzles]
    assert mine == [taken]  # the stale click changed nothing
    assert stale.locator(f'#puzzles .puzzle[data-card="{taken}"]').count() == 1


@pytest.mark.parametrize("how", ["forged", "expired", "other seat", "other game"])
def test_a_bad_token_shows_the_403_page(page: Page, boards: Callable[..., BoardHandle], how: str) -> None:
    board = boards(players=2, human_seats=(0, 1))
    token = {
        "forged": board.token(0)[:-3] + ("AAA" if not board.token(0).endswith("AAA") else "BBB"),
        "expired": board.token(0, expires_in=-60),
        "other seat": board.token(1, user_id=1),  # user 1 holds seat 0, not seat 1
        "other game": board.token(0, game_id=999),
    }[how]
    before = board.game().revision
    page.goto(f"{board.base_url}/board#t={token}")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "403" in alert.inner_text()
    # the server's reason, then what to do: the reason is not said twice
    assert alert.locator("p").all_inner_texts() == [
        "This link is not valid (forged, expired, or for another seat).", "Ask the bot for a new Board link."]
    assert page.locator("#supply").count() == 0
    assert board.game().revision == before


def test_a_link_expiring_on_an_open_page_is_refused_in_the_pages_language(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """A pt-BR board in an English browser: when its link expires, the stream's reconnection is
    refused (403) and the page says why in the language it speaks, its own words and the server's
    reason alike, since it asks the server in that language (a bad link has none to go by)."""
    board = boards(players=2)
    open_board(page, board.link(0, locale="pt-BR"))
    later = board.board.front.now() + 2 * 24 * 3600
    board.board.front.now = lambda: later  # the link has expired
    board.act(0, "level1")  # the commit ends the page's stream; its reconnection hears 403
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.locator("p").all_inner_texts() == [
        "Este link não é válido (forjado, expirado ou de outro assento).",
        "Peça um novo link do Tabuleiro ao bot."]
    assert page.locator("#supply").count() == 0


def test_a_hostile_display_name_is_shown_as_text(page: Page, boards: Callable[..., BoardHandle]) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    board = boards(players=2, human_seats=(0, 1), names=(HOSTILE_NAME, "Bia"))
    response = page.request.get(f"{board.base_url}/board")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    html = response.text()
    assert "<script>" not in html and " style=" not in html  # no inline script or style

    open_board(page, board.link(0))
    seen = revision(page)
    page.locator(".row.white button.slot-button:not([aria-disabled])").first.click()
    wait_revision(page, seen)
    names = page.locator(".players .name").all_inner_texts()
    assert HOSTILE_NAME in names
    assert view(page)["me"]["name"] == HOSTILE_NAME
    assert page.locator("img").count() == 0
    assert HOSTILE_NAME in page.locator(".log").inner_text()
    assert dialogs == []


def test_a_name_with_markdown_is_said_as_typed(page: Page, boards: Callable[..., BoardHandle]) -> None:
    """What a move did (the message a screen reader hears) names the player exactly as typed: the
    sentence's own Discord markdown is dropped, a name's asterisks and backquotes are not."""
    name = "**Ana** `A`"
    board = boards(players=2, human_seats=(0, 1), names=(name, "Bia"))
    open_board(page, board.link(0))
    seen = revision(page)
    page.locator(".row.white button.slot-button:not([aria-disabled])").first.click()
    wait_revision(page, seen)
    page.wait_for_function("() => !window.board.busy")  # the answer, which the live view may precede
    said = message(page)
    assert f"{name} took puzzle" in said, said
    assert "**" not in said.replace(name, "") and "`" not in said.replace(name, ""), said
