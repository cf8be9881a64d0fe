"""Which process answers for which server, when several bot processes share one database.

Discord sends a server's events to one shard, ``(guild_id >> 22) % shard_count`` (direct messages
to shard 0), and each process runs some shards (``PROJECTL_SHARD_IDS``). Interactions therefore
reach the right process by themselves; work the bot starts on its own — reminders, turn clocks,
the AI moves a restart resumes — must be picked up by the process that runs the game's server
too: another one would claim it and then could not post in a channel it does not have.
"""

from __future__ import annotations

from bot.core.config import Settings


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (Discord's own formula)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def runs_guild(settings: Settings, guild_id: int | None) -> bool:
    """This process runs the shard of ``guild_id`` (always, when it is not sharded)."""
    if settings.shard_count is None:
        return True
    shard = shard_of(guild_id, settings.shard_count)
    return settings.shard_ids is None or shard in settings.shard_ids
