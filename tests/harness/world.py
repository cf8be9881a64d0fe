"""The fake Discord *server-side* state shared by the HTTP and gateway fakes.

One object owns the guild, users, channels, sent messages and interaction
bookkeeping so that what the REST fake answers and what the gateway frames
describe can never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .components import Modal
from .errors import HarnessUsageError
from .models import FakeChannel, FakeMember, FakeRole, InteractionRecord, MessageRecord
from .payloads import (
    Snowflakes,
    bot_permissions,
    default_permissions,
    manager_permissions,
    now_iso,
)

DEFAULT_CHANNELS = ("general", "games", "random")


class World:
    """Discord's view of one guild plus DMs, for a single bot application."""

    def __init__(
        self,
        *,
        guild_name: str = "Harness Guild",
        guild_id: int | None = None,
        channels: Iterable[str] = DEFAULT_CHANNELS,
        application_id: int | None = None,
        bot_name: str = "HarnessBot",
    ) -> None:
        self.ids = Snowflakes()
        self.application_id: int = application_id or self.ids.next()
        # Modern applications have bot user id == application id.
        self.bot_user_id: int = self.application_id
        self.application_flags: int = 0
        self.bot_name = bot_name
        self.guild_id: int = guild_id or self.ids.next()
        self.guild_name = guild_name
        self.owner_id: int = self.ids.next()
        self.joined_at = now_iso()
        #: The server's preferred locale (Server Settings → Community): GUILD_CREATE/GUILD_UPDATE
        #: carry it, and every interaction from the guild as ``guild_locale``.
        self.preferred_locale = "en-US"

        self.everyone = FakeRole(self.guild_id, "@everyone", default_permissions(), position=0)
        self.manager_role = FakeRole(self.ids.next(), "Channel Manager", manager_permissions(), 1)
        self.bot_role = FakeRole(self.ids.next(), bot_name, bot_permissions(), 2, managed=True)
        self.roles: dict[int, FakeRole] = {
            r.id: r for r in (self.everyone, self.manager_role, self.bot_role)
        }

        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeMember] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        #: Attachment bytes by CDN url, so ``Attachment.read()`` works offline.
        self.cdn: dict[str, bytes] = {}
        #: Modals currently open on a user's screen: (user id, modal, origin).
        self.open_modals: list[tuple[int, Modal, InteractionRecord]] = []
        for name in channels:
            self.add_channel(name)

    # -- entities ---------------------------------------------------------

    def add_channel(self, name: str, *, topic: str | None = None, forum: bool = False) -> FakeChannel:
        if any(c.name == name for c in self.guild_channels()):
            raise HarnessUsageError(f"channel #{name} already exists")
        channel = FakeChannel(
            id=self.ids.next(), name=name, type=15 if forum else 0, guild_id=self.guild_id,
            position=len(list(self.guild_channels())), topic=topic,
        )
        self.channels[channel.id] = channel
        return channel

    def add_user(self, name: str, user_id: int | None = None, *,
                 manage_channel: bool = False, global_name: str | None = None) -> FakeMember:
        uid = user_id or self.ids.next()
        if uid in self.users or uid == self.bot_user_id:
            raise HarnessUsageError(f"user id {uid} already exists")
        dm = FakeChannel(id=self.ids.next(), name=f"dm-{name}", type=1, recipient_id=uid)
        user = FakeMember(
            id=uid, name=name, dm_channel=dm, global_name=global_name,
            roles=[self.manager_role.id] if manage_channel else [],
            manage_channel=manage_channel,
        )
        self.users[uid] = user
        self.channels[dm.id] = dm
        return user

    def guild_channels(self) -> Iterator[FakeChannel]:
        """Channels and threads of the guild."""
        return (c for c in self.channels.values() if not c.is_dm)

    def add_thread(self, parent: FakeChannel, name: str, *, owner_id: int,
                   private: bool = False) -> FakeChannel:
        """A public thread in ``parent`` (a text channel, or a post when ``parent`` is a forum);
        ``private``: a private thread of a text channel."""
        if parent.type not in (0, 15) or (private and parent.type != 0):
            raise HarnessUsageError(f"#{parent.name} cannot hold {'private ' if private else ''}threads")
        thread = FakeChannel(id=self.ids.next(), name=name, type=12 if private else 11,
                             guild_id=self.guild_id,
                             parent_id=parent.id, owner_id=owner_id, bot_denied=parent.bot_denied)
        self.channels[thread.id] = thread
        return thread

    def channel_named(self, name: str) -> FakeChannel:
        name = name.lstrip("#")
        for channel in self.guild_channels():
            if channel.name == name:
                return channel
        names = [c.name for c in self.guild_channels()]
        raise HarnessUsageError(f"no channel #{name}; channels: {names}")

    def user(self, ref: FakeMember | int | str) -> FakeMember:
        if isinstance(ref, FakeMember):
            return ref
        for user in self.users.values():
            if ref in (user.id, user.name):
                return user
        raise HarnessUsageError(f"unknown user {ref!r}")

    def member_permissions(self, user: FakeMember) -> int:
        """Guild-level permissions (no overwrites are modelled)."""
        if user.id == self.owner_id:
            return (1 << 53) - 1
        value = self.everyone.permissions
        for role_id in user.roles:
            value |= self.roles[role_id].permissions
        return value

    def bot_permissions(self, channel: FakeChannel | None = None) -> int:
        """The bot's permissions (in ``channel``: minus what its overwrite denies)."""
        value = self.everyone.permissions | self.bot_role.permissions
        return value & ~channel.bot_denied if channel is not None else value

    # -- messages ---------------------------------------------------------

    def visible_messages(self) -> list[MessageRecord]:
        return [m for m in self.messages.values() if not m.deleted]
