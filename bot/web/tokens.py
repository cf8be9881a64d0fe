"""Board links: a token naming a game, a seat (or a spectator), a user and an expiry, signed with
HMAC-SHA256.

``<payload>.<signature>``, both base64url without padding; the payload is compact JSON
``{"g": game, "s": seat or -1, "u": user, "e": expiry (Unix seconds), "l": locale}`` (the
language of the Discord client the link was asked from: the page speaks it). A token is only ever read
from the ``Authorization`` header (the link carries it in the URL's fragment, which the browser never
sends), so none reaches an access log; this module never logs one either.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

from bot.core.play.seat_view import PART_DIGITS, SEAT_STAMP_PREFIX

DEFAULT_LIFETIME = 24 * 3600
"""Seconds a link stays valid: a day, like a turn post's buttons are read within a day."""
SECRET_NAME = "web_board"
"""The name the generated key is kept under in the database (``Storage.kept_secret``)."""
SPECTATOR = -1
MAX_TOKEN = 400
"""Characters a token can have at most (ours have about 120): anything longer is refused unread."""


class BadTokenError(Exception):
    """The token is forged, malformed or expired (the request is refused with 403)."""


@dataclass(frozen=True, slots=True)
class BoardToken:
    """What a verified token grants: ``seat`` None for a spectator (read-only)."""

    game_id: int
    seat: int | None
    user_id: int
    expires: int
    locale: str | None = None

    @property
    def spectator(self) -> bool:
        return self.seat is None


def new_secret() -> str:
    return secrets.token_urlsafe(32)


class TokenSigner:
    """Signs and checks tokens with one key (the process's; every shard sharing the database the same)."""

    def __init__(self, secret: str) -> None:
        self._key = hashlib.sha256(b"projectl-web-board:" + secret.encode()).digest()

    def sign(self, game_id: int, seat: int | None, user_id: int, *, now: float,
             lifetime: int = DEFAULT_LIFETIME, locale: str | None = None) -> str:
        payload: dict[str, object] = {"g": game_id, "s": SPECTATOR if seat is None else seat,
                                      "u": user_id, "e": int(now) + lifetime}
        if locale is not None:
            payload["l"] = locale
        body = _b64(json.dumps(payload, separators=(",", ":")).encode())
        return f"{body}.{self._signature(body)}"

    def verify(self, token: str, *, now: float) -> BoardToken:
        """The grant of a token signed with this key and not expired at ``now``; else
        :class:`BadTokenError` (the reason is for tests, never shown with the token)."""
        if not token or len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 1:
            raise BadTokenError("malformed")  # ours are ASCII: a header's bytes that are not UTF-8
            # (lone surrogates here) could not even be encoded to check the signature
        body, signature = token.split(".")
        if not hmac.compare_digest(signature.encode(), self._signature(body).encode()):
            raise BadTokenError("bad signature")
        try:
            payload = json.loads(_unb64(body))
            grant = BoardToken(_whole(payload["g"]), _seat(payload["s"]), _whole(payload["u"]),
                               _whole(payload["e"]), _locale(payload.get("l")))
        except (ValueError, KeyError, TypeError, binascii.Error) as error:
            raise BadTokenError("malformed payload") from error
        if grant.expires <= now:
            raise BadTokenError("expired")
        return grant

    def blind(self, stamp: str) -> str:
        """The stamp a page is shown for the seat's stamp ``stamp`` (``bot/core/play/seat_view.py``).

        A revision stays as it is. A concurrent table's stamp is a digest of parts of the state —
        the Finesse data with its face-down tiles among them — so each part's digest is replaced by
        a keyed digest of it: the page can still be told which part changed, never learn (by
        trying candidates against the digest) what is face down."""
        if not stamp.startswith(SEAT_STAMP_PREFIX):
            return stamp
        digits = len(stamp) - len(SEAT_STAMP_PREFIX)
        parts = [stamp[i:i + PART_DIGITS] for i in range(len(SEAT_STAMP_PREFIX), len(stamp), PART_DIGITS)]
        keyed = [hmac.new(self._key, f"stamp:{n}:{part}".encode(), hashlib.sha256).hexdigest()[:PART_DIGITS]
                 for n, part in enumerate(parts)]
        blinded = SEAT_STAMP_PREFIX + "".join(keyed)
        assert len(blinded) - len(SEAT_STAMP_PREFIX) == digits
        return blinded

    def _signature(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def _whole(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
        raise ValueError("not a whole number")
    return value


def _seat(value: object) -> int | None:
    if value == SPECTATOR:
        return None
    seat = _whole(value)
    if seat > 16:
        raise ValueError("not a seat")
    return seat


def _locale(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 10:
        raise ValueError("not a locale")
    return value


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
