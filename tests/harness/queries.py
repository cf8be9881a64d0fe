"""Read-only views over what the bot did, for assertions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import TrappedError
from .models import ChannelRef, FakeChannel, InteractionRecord, MessageRecord, Response, UserRef

if TYPE_CHECKING:
    from .gateway import FakeGateway
    from .http import FakeDiscordAPI
    from .models import Call
    from .schema import CommandSchema
    from .traps import ErrorTrap
    from .world import World


class Queries:
    """Mixin for :class:`~harness.core.DiscordHarness`: inspecting results."""

    if TYPE_CHECKING:
        world: World
        schema: CommandSchema
        api: FakeDiscordAPI
        gateway: FakeGateway
        trap: ErrorTrap

    def _chan(self, channel: ChannelRef) -> FakeChannel:
        return channel if isinstance(channel, FakeChannel) else self.world.channel_named(channel)

    @property
    def calls(self) -> list[Call]:
        """Every REST and webhook call, in order."""
        return list(self.api.calls)

    def calls_to(self, method: str | None = None, path: str | None = None) -> list[Call]:
        """Calls filtered by HTTP method and route template (exact) or url substring."""
        return [c for c in self.api.calls
                if (method is None or c.method == method.upper())
                and (path is None or c.path == path or path in c.url_path)]

    @property
    def gateway_sent(self) -> list[dict[str, Any]]:
        """Frames the bot sent over the gateway (IDENTIFY, presence...)."""
        return self.gateway.sent if self.gateway else []

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The synced schema visible in the harness guild (guild + global)."""
        return self.schema.commands_for(self.world.guild_id)

    @property
    def messages(self) -> list[MessageRecord]:
        """All live messages (edits applied, deletions removed), oldest first."""
        return self.world.visible_messages()

    def message(self, message_id: int) -> MessageRecord:
        return self.world.messages[message_id]

    def channel_messages(self, channel: ChannelRef, *,
                         include_ephemeral: bool = False) -> list[MessageRecord]:
        """Live messages in ``channel``; ephemeral ones only if asked."""
        chan = self._chan(channel)
        return [m for m in self.messages if m.channel_id == chan.id
                and (include_ephemeral or m.visible_to is None)]

    def dms_to(self, user: UserRef) -> list[MessageRecord]:
        """Messages the bot successfully delivered to ``user``'s DMs."""
        return [m for m in self.messages if m.channel_id == self.world.user(user).dm_channel.id]

    def responses_to(self, interaction: InteractionRecord) -> list[Response]:
        """Initial response, followups, edits and deletes for ``interaction``."""
        return list(interaction.responses)

    def last_response(self, interaction: InteractionRecord | None = None) -> Response:
        """Latest response to ``interaction`` (or to any interaction)."""
        order = {id(call): index for index, call in enumerate(self.api.calls)}
        pool = interaction.responses if interaction is not None else sorted(
            (r for i in self.world.interactions.values() for r in i.responses),
            key=lambda r: order.get(id(r.call), -1))
        if not pool:
            raise AssertionError(f"the bot never responded to {interaction or 'any interaction'}")
        return pool[-1]

    # -- errors -------------------------------------------------------------------

    @property
    def errors(self) -> list[TrappedError]:
        return list(self.trap.errors)

    def take_errors(self) -> list[TrappedError]:
        """Return and clear trapped errors (for tests that provoke them)."""
        return self.trap.take()

    def assert_no_errors(self) -> None:
        """Raise :class:`TrappedErrors` if any handler error was trapped."""
        self.trap.raise_if_any()

    def expect_errors(self) -> Any:
        """``with h.expect_errors() as errs:`` collects errors instead of failing."""
        return self.trap.expect()
