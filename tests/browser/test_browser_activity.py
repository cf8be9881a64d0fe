"""The board as a Discord Activity, outside Discord: with no ``frame_id`` the page uses the
Embedded App SDK's mock, which authorises; the bot exchanges the code (a fake exchanger here)
and the page lands on the signed-in user's seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from board_pages import COUNT_GESTURES, view
from playwright.sync_api import Browser, Page

from bot.board import CHANNEL_ID, BoardHandle, KnownCodes
from bot.core.wording import texts
from bot.core.wording.locales import localise
from bot.web.activity import ActivityInstance, SignedIn, SignInError


def test_the_activity_signs_in_under_the_sdk_mock_and_lands_on_the_right_seat(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, human_seats=(0, 1), activity_codes={"mock_code": 1})
    logs: list[str] = []
    page.on("console", lambda line: logs.append(line.text))
    page.add_init_script(COUNT_GESTURES)
    page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
    page.wait_for_selector("#players-h")
    seen = view(page)
    assert seen["me"]["seat"] == 1 and not seen["me"]["spectator"]
    assert seen["me"]["name"] == board.game().seats[1].name
    assert any("DiscordSDKMock: authorize" in line for line in logs)
    assert page.locator(".player.me .name").inner_text() == seen["me"]["name"]


def test_an_unknown_code_is_refused_on_the_page(page: Page, boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2, activity_codes={"another_code": 0})
    page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert page.locator("#supply").count() == 0
    # the sign-in's own reason, not the words for a bad board link
    assert alert.inner_text().strip() == str(texts.ACTIVITY_CODE_REFUSED)


def test_the_game_cancelled_while_the_activity_is_open_is_said_so(
        page: Page, boards: Callable[..., BoardHandle]) -> None:
    """The host ends the table while Bia has the Activity open: her page says the game was
    cancelled (live), not that it waits for the host's move, which will never come."""
    board = boards(players=2, human_seats=(0, 1), activity_codes={"mock_code": 1})
    page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
    page.wait_for_selector("#players-h")
    board._run(board.board.manager.cancel(CHANNEL_ID, board.board.users[0]))
    page.wait_for_function("() => window.board.view.game.status === 'cancelled'")
    status = page.locator("#turn-status")
    status.filter(has_text="This game was cancelled: nothing more is played in it.").wait_for()
    assert "Waiting for" not in status.inner_text()
    assert page.locator("button.offer").count() == 0


SPECTATOR = 999
"""A Discord user holding no seat at the table."""


@pytest.mark.parametrize(("instance", "refusal", "locale"), [
    (ActivityInstance(CHANNEL_ID + 1, frozenset({SPECTATOR})), texts.ACTIVITY_NO_GAME, "en"),  # elsewhere
    (ActivityInstance(CHANNEL_ID, frozenset()), texts.ACTIVITY_NO_GAME, "pt-BR"),  # not in it
    (None, texts.ACTIVITY_NO_GAME, "en"),  # no such instance
    (SignInError(texts.ACTIVITY_UNREACHABLE), texts.ACTIVITY_UNREACHABLE, "pt-BR"),  # Discord not reached
])
def test_a_spectator_discord_does_not_vouch_for_is_told_the_servers_reason_only(
        browser: Browser, boards: Callable[..., BoardHandle], monkeypatch: pytest.MonkeyPatch,
        instance: ActivityInstance | SignInError | None, refusal: str, locale: str) -> None:
    """A refusal is the server's sentence, in the browser's language, as it is: not "Something
    went wrong", which says the refusal was a fault."""
    async def exchange(self: KnownCodes, code: str) -> SignedIn:
        return SignedIn(SPECTATOR, "offline-access", None)

    async def found(self: KnownCodes, instance_id: str) -> ActivityInstance | None:
        if isinstance(instance, SignInError):
            raise instance
        return instance
    monkeypatch.setattr(KnownCodes, "exchange", exchange)
    monkeypatch.setattr(KnownCodes, "instance", found)
    board = boards(players=2, activity_codes={"mock_code": 0})
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
        alert = page.get_by_role("alert")
        alert.wait_for()
        assert alert.inner_text().strip() == str(localise(refusal, locale))
        assert page.locator("#supply").count() == 0
    finally:
        context.close()


def test_an_activity_not_set_up_says_so_without_signing_in(page: Page,
                                                           boards: Callable[..., BoardHandle]) -> None:
    board = boards(players=2)  # no activity_codes: the sign-in is off
    logs: list[str] = []
    page.on("console", lambda line: logs.append(line.text))
    page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert alert.inner_text().strip() == str(texts.ACTIVITY_OFF)
    assert not any("authorize" in line for line in logs)  # no client id: nothing to authorise with


@pytest.mark.parametrize(("failure", "words"), [
    ("gateway", "The server could not answer just now: try again in a moment."),
    ("network", "The server could not be reached: check your connection and try again."),
])
def test_a_sign_in_lost_on_the_way_is_said_in_words_without_a_status_code(
        page: Page, boards: Callable[..., BoardHandle], failure: str, words: str) -> None:
    """A proxy's 502 page in place of the sign-in's answer was shown as "Something went wrong:
    HTTP 502", and a network that dropped the request as the browser's own English ("Failed to
    fetch"): the board's words for each are said, as on the board itself."""
    board = boards(players=2, activity_codes={"mock_code": 0})

    def answer(route: Any) -> None:
        if failure == "gateway":
            route.fulfill(status=502, content_type="text/html", body="<html><h1>502 Bad Gateway</h1></html>")
        else:
            route.abort("internetdisconnected")

    page.route("**/api/activity/token", answer)
    page.goto(f"{board.base_url}/activity?channel_id={CHANNEL_ID}")
    alert = page.locator("#message.error")
    alert.wait_for()
    assert alert.inner_text().strip() == words
    assert page.locator("#supply").count() == 0
