"""Whom a message may ping: exactly the users it means to, never a role, ``@everyone`` or
``@here``, and never someone whose mention a player put in their display name.

The bot's client sends :data:`NOBODY` with every message that does not say otherwise (public
posts and private replies, followups and edits, DMs), so a send that forgets to say whom it
pings fails safe; a message that pings passes :func:`pinging` with the users it names. Names
players chose are escaped where they enter the wording (:class:`bot.core.wording.locales.PlayerName`), so a
display name never even looks like a mention.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord


def pinging(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly ``user_ids`` (each once) and nothing else."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)])


NOBODY = pinging(())
"""The bot-wide default: a message pings nobody unless it names whom (:func:`pinging`)."""
