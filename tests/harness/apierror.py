"""Discord-shaped HTTP errors raised by the fake API.

``discord.HTTPException`` only needs a response object with ``status`` and
``reason`` plus Discord's JSON error body, so the bot receives the very
exception classes (``Forbidden``, ``NotFound``...) it would in production.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

_REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 429: "Too Many Requests", 500: "Internal Server Error"}


class FakeResponse:
    """The bits of ``aiohttp.ClientResponse`` that ``discord.HTTPException`` reads."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = _REASONS.get(status, "Error")
        self.headers: dict[str, str] = {"content-type": "application/json"}


class ApiError(Exception):
    """Raised by route handlers; converted to the matching discord exception.

    ``code`` is Discord's JSON error code (e.g. 50007, 40060, 10062).
    """

    def __init__(self, status: int, code: int, message: str,
                 errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = dict(errors)

    def to_exception(self) -> discord.HTTPException:
        response = FakeResponse(self.status)
        cls: type[discord.HTTPException] = discord.HTTPException
        if self.status == 403:
            cls = discord.Forbidden
        elif self.status == 404:
            cls = discord.NotFound
        elif self.status >= 500:
            cls = discord.DiscordServerError
        return cls(response, self.body)  # type: ignore[arg-type]


def form_error(field: str, message: str, code: str = "BASE_TYPE_INVALID") -> ApiError:
    """Discord's 400 / 50035 "Invalid Form Body" with one field error."""
    return ApiError(400, 50035, "Invalid Form Body",
                    {field: {"_errors": [{"code": code, "message": message}]}})
