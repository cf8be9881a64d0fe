"""Offline Discord test harness: drive a real discord.py bot with no network.

Typical use::

    from harness import DiscordHarness

    async def test_ping():
        async with DiscordHarness(bot_factory=make_bot) as h:
            alice = h.add_user("alice")
            ix = await h.slash(alice, "general", "ping echo", text="hi")
            assert h.last_response(ix).content == "hi"

See docs/testing.md for the full guide.
"""

from .apierror import ApiError
from .components import Button, Modal, Select, SelectOption, TextInput
from .core import DiscordHarness
from .errors import (
    HarnessError,
    HarnessUsageError,
    SchemaError,
    SettleTimeout,
    TrappedError,
    TrappedErrors,
    UnsupportedRoute,
)
from .models import (
    Call,
    FakeChannel,
    FakeMember,
    FakeRole,
    FakeUser,
    InteractionRecord,
    MessageRecord,
    Response,
)
from .tasks import SETTLE_CEILING, eventually

__all__ = [
    "SETTLE_CEILING",
    "ApiError",
    "Button",
    "Call",
    "DiscordHarness",
    "FakeChannel",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "HarnessError",
    "HarnessUsageError",
    "InteractionRecord",
    "MessageRecord",
    "Modal",
    "Response",
    "SchemaError",
    "Select",
    "SelectOption",
    "SettleTimeout",
    "TextInput",
    "TrappedError",
    "TrappedErrors",
    "UnsupportedRoute",
    "eventually",
]
