"""What the bot must be allowed to do in a channel before it changes a game there.

Everything a table decides is shown to the table: the lobby, the turn post with its image, the
"time is up" post. Where the bot lacks a permission those posts need, a committed action would be
one the table cannot see, so every command under ``/projectl play`` and ``/projectl table`` — and
every button that commits — is refused first, privately, naming what is missing. Discord sends
the bot's effective permissions in the channel with each interaction (``app_permissions``), so
the check costs nothing and needs no extra request. Ephemeral replies need no permission, so
looking (``status``, ``mat``, ``log``...) keeps working.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.core.errors import BotError
from bot.core.wording import texts
from bot.core.wording.locales import Joined

from .commandtree import PLAY, ROOT, TABLE

POSTING = ("attach_files", "embed_links")
"""Needed for every table post (the image; the log's embed), besides sending itself."""
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                discord.ChannelType.news_thread)
GUARDED_GROUPS = (f"{ROOT} {PLAY}", f"{ROOT} {TABLE}")


class MissingPermissionError(BotError, app_commands.CheckFailure):
    """The bot may not post what this action would need posted; nothing was changed."""


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions (their attribute names) the bot lacks here."""
    allowed = interaction.app_permissions
    channel = interaction.channel
    in_thread = getattr(channel, "type", None) in THREAD_TYPES
    needed = ("send_messages_in_threads" if in_thread else "send_messages", *POSTING)
    return [name for name in needed if not getattr(allowed, name)]


def require_table_permissions(interaction: discord.Interaction) -> None:
    """Refuse (privately, changing nothing) when the table could not see what would happen."""
    if interaction.guild_id is None:
        return
    missing = missing_permissions(interaction)
    if missing:
        raise MissingPermissionError(texts.MISSING_PERMISSIONS.format(names=permission_names(missing)))


async def check_command(interaction: discord.Interaction) -> bool:
    """The command tree's check: every command in the play and table groups needs the posting
    permissions (autocomplete only suggests, so it is never refused)."""
    command = interaction.command
    if interaction.type is discord.InteractionType.application_command and command is not None \
            and command.qualified_name.startswith(GUARDED_GROUPS):
        require_table_permissions(interaction)
    return True


def require_thread_permissions(interaction: discord.Interaction) -> None:
    """Before opening a game in a new thread: the bot must be able to create it and post in it."""
    allowed = interaction.app_permissions
    needed = ("create_public_threads", "send_messages_in_threads", *POSTING)
    missing = [name for name in needed if not getattr(allowed, name)]
    if missing:
        raise MissingPermissionError(texts.MISSING_PERMISSIONS.format(names=permission_names(missing)))


def permission_names(missing: list[str]) -> Joined:
    """The missing permissions, in bold, named as Discord's settings name them in the reader's
    language and joined with that language's "and"."""
    return Joined((Joined(("**", texts.PERMISSION_NAMES[name], "**")) for name in missing), texts.AND)
