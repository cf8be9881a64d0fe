"""The Discord Activity's sign-in: the page (inside Discord's iframe) gets an OAuth2 code from the
Embedded App SDK and posts it here with its channel; the bot exchanges the code for the user
(server side, with the application's client secret) and answers with a board token for that
user's seat in the channel's game (a spectator's token when they hold none).

The channel the page names is only the client's word: a player may read their game from anywhere
(bot/core/records/access.py), but anyone else is given a watcher's token only when Discord says
(``GET /applications/{id}/activity-instances/{instance}``, with the bot's token) that the
Activity instance the page runs in is in that channel and holds them — so nobody watches a
private thread's table, or another server's, by naming its channel, nor learns that one is played
there.

The exchange sits behind :class:`CodeExchanger`, so tests use a fake one; the real one,
:class:`DiscordCodeExchanger`, speaks to Discord's OAuth2 endpoints with aiohttp.

Its refusals come before there is a link, hence a locale, to go by: they are in the language the
request asks for first (:func:`bot.web.acting.asked_locale`, as a bad link's are), and once
Discord has said who signed in, in that user's Discord language (the token's).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from bot.core.play.manager import GameManager
from bot.core.wording import texts
from bot.web.acting import BoardFront, Refused, sentence, unreadable

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
MAX_CODE = 200
INSTANCE_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""An Activity instance id (``i-<launch>-gc-<guild>-<channel>``): it goes into a path of Discord's
API, so nothing else (a ``/``, a ``..``) is ever sent there."""
MAX_SNOWFLAKE = 2**63 - 1
"""The largest channel id the database can hold (a Discord snowflake is 64 bits, its top one unused)."""


class SignInError(Exception):
    """The code could not be exchanged: ``words`` is the sentence for the page (a sentence of
    bot/core/wording/texts.py, said in the request's language; ``str()`` is its English)."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


@dataclass(frozen=True, slots=True)
class SignedIn:
    user_id: int
    access_token: str
    """Handed back to the page, which gives it to the SDK's ``authenticate``."""
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    """An Activity instance as Discord tells it: the channel it runs in, and who is in it."""

    channel_id: int
    users: frozenset[int]


class CodeExchanger(Protocol):
    async def exchange(self, code: str) -> SignedIn: ...

    async def instance(self, instance_id: str) -> ActivityInstance | None: ...


class DiscordCodeExchanger:
    """The OAuth2 authorization-code exchange, then ``/users/@me`` for who signed in."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str, *, api: str = DISCORD_API) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._api = api

    async def exchange(self, code: str) -> SignedIn:
        form = {"client_id": self.client_id, "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        timeout = aiohttp.ClientTimeout(total=10)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as session:
                async with session.post(f"{self._api}/oauth2/token", data=form) as answer:
                    if answer.status != 200:
                        raise SignInError(texts.ACTIVITY_CODE_REFUSED)
                    access = str((await answer.json())["access_token"])
                headers = {"Authorization": f"Bearer {access}"}
                async with session.get(f"{self._api}/users/@me", headers=headers) as answer:
                    if answer.status != 200:
                        raise SignInError(texts.ACTIVITY_WHO_UNKNOWN)
                    user = await answer.json()
        except (aiohttp.ClientError, TimeoutError, KeyError, ValueError) as error:
            log.warning("the Activity's code exchange failed: %s", error.__class__.__name__)
            raise SignInError(texts.ACTIVITY_UNREACHABLE) from None
        return SignedIn(int(user["id"]), access, user.get("locale"))

    async def instance(self, instance_id: str) -> ActivityInstance | None:
        """The channel and users of this application's Activity instance ``instance_id`` (None
        when Discord knows no such instance: ended, or never this application's)."""
        url = f"{self._api}/applications/{self.client_id}/activity-instances/{instance_id}"
        try:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
                async with session.get(url, headers={"Authorization": f"Bot {self._bot_token}"}) as answer:
                    if answer.status == 404:
                        return None
                    if answer.status != 200:
                        raise SignInError(texts.ACTIVITY_UNREACHABLE)
                    found = await answer.json()
            return ActivityInstance(int(found["location"]["channel_id"]),
                                    frozenset(int(user) for user in found["users"]))
        except (aiohttp.ClientError, TimeoutError, KeyError, ValueError, TypeError) as error:
            log.warning("reading the Activity's instance failed: %s", error.__class__.__name__)
            raise SignInError(texts.ACTIVITY_UNREACHABLE) from None


class ActivitySignIn:
    """``POST /api/activity/token``: a code and a channel in, a board token for the user's seat out."""

    def __init__(self, front: BoardFront, manager: GameManager, exchanger: CodeExchanger,
                 client_id: str) -> None:
        self.front = front
        self.manager = manager
        self.exchanger = exchanger
        self.client_id = client_id

    async def token(self, body: Any, locale: str | None = None) -> dict[str, Any]:
        """The answer to ``body``; its refusals in ``locale`` (the request's, ``asked_locale``)
        until Discord has said who signed in, then in that user's language when Discord gave one.
        A :class:`SignInError` from the exchange is for the caller to say, in ``locale``."""
        if not isinstance(body, dict):
            raise unreadable(texts.ACTIVITY_NEEDS_CODE, locale)
        code, channel, instance = body.get("code"), body.get("channel_id"), body.get("instance_id")
        digits = str(channel) if isinstance(channel, str | int) else ""  # a snowflake's, ASCII ones
        if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE or not digits.isascii() \
                or not digits.isdecimal() or len(digits) > 20 or int(digits) > MAX_SNOWFLAKE \
                or not (instance is None or isinstance(instance, str) and INSTANCE_ID.fullmatch(instance)):
            raise unreadable(texts.ACTIVITY_NEEDS_CODE, locale)
        signed = await self.exchanger.exchange(code)
        no_game = Refused(404, {"error": sentence(texts.ACTIVITY_NO_GAME, signed.locale or locale)})
        game = await self.manager.game_in_channel(int(digits))
        if game is None or game.state is None:
            raise no_game
        seat = game.seat_of(signed.user_id)
        if seat is None and not await self._in_channel(signed.user_id, int(digits), instance):
            raise no_game  # a channel the user is not known to see: as if no game were played there
        token = self.front.signer.sign(game.id, None if seat is None else seat.seat, signed.user_id,
                                       now=self.front.now(), locale=signed.locale)
        return {"token": token, "access_token": signed.access_token,
                "seat": None if seat is None else seat.seat}

    async def _in_channel(self, user_id: int, channel_id: int, instance_id: str | None) -> bool:
        """Whether Discord says the user is in an Activity instance running in ``channel_id``."""
        if instance_id is None:
            return False
        found = await self.exchanger.instance(instance_id)
        return found is not None and found.channel_id == channel_id and user_id in found.users
