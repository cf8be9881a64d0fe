"""Games whose channel is gone: the channel or thread was deleted, or the bot was removed from
the server. Such a game can never be played on, so it ends as cancelled — through the manager's
cancel path (:meth:`~bot.core.play.manager.GameManager.cancel_gone`: kept in the records,
ratings untouched, reminders and plans closed by the same hooks) — and each human player is told
why (:func:`gone_notice`). An archived thread is not gone: it reopens when someone posts, so its
game stays as it is. No Discord here: the front passes ids and names (bot/discord/gone.py).

A deleted channel takes its threads with it, and Discord says nothing of them: their games are
found by the parent channel each game keeps from its start (:func:`end_games_of_channel`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from typing import Final, Literal

from bot.core.errors import BotError
from bot.core.play.manager import Game, GameManager
from bot.core.wording import texts
from bot.core.wording.locales import PlayerName

log = logging.getLogger(__name__)

GONE: Final = "gone"
"""What a :data:`ParentLookup` answers for a channel that no longer exists."""
ParentLookup = Callable[[int], Awaitable[int | Literal["gone"] | None]]
"""The front's answer for a channel id: the channel it belongs to (a thread's parent, else
itself), :data:`GONE`, or None when it cannot tell (hidden from the bot, Discord unreachable)."""


@dataclass(frozen=True, slots=True)
class GoneGame:
    """A game just cancelled because its channel is gone, and who to tell."""

    game: Game
    user_ids: tuple[int, ...]
    """Its human players still seated (an AI seat has nobody to tell)."""
    channel_known: bool = True
    """False for a game found gone by looking its channel up: its channel may have gone with the
    one just deleted or on its own earlier (while the bot was away), so the DM names neither."""


async def end_games_in(manager: GameManager, channel_ids: Iterable[int]) -> list[GoneGame]:
    """Cancel the open game (lobby or active) of each deleted channel. A channel without one —
    an unrelated channel, a second delete event — changes nothing."""
    ended = []
    for channel_id in dict.fromkeys(channel_ids):
        try:
            game = await manager.cancel_gone(channel_id)
        except BotError as error:  # a game another process moved on too often, an unreadable row
            log.warning("could not cancel the game of deleted channel %s: %s", channel_id, error)
            continue
        if game is not None:
            ended.append(GoneGame(game, humans(game)))
    return ended


async def end_games_of_channel(
    manager: GameManager, channel_id: int, guild_id: int | None, parent_of: ParentLookup,
) -> list[GoneGame]:
    """A deleted channel: cancel its own open game and those of its threads, whether the front
    had those threads in view or not (by the parent kept with each game). A game of that server
    opened before parents were kept is asked about (``parent_of``): a channel that is gone ends
    its game, one that is there has its parent recorded, so it is asked once. A game ended because
    its own channel is gone is not said to be the deleted channel's (:attr:`GoneGame.channel_known`)."""
    channels = [channel_id, *(row.channel_id for row in await manager.storage.open_games_under(channel_id))]
    found_gone: set[int] = set()
    if guild_id is not None:
        for row in await manager.storage.open_games_parent_unknown(guild_id):
            parent = channel_id if row.channel_id == channel_id else await parent_of(row.channel_id)
            if parent == channel_id:
                channels.append(row.channel_id)
            elif parent == GONE:
                channels.append(row.channel_id)
                found_gone.add(row.channel_id)
            elif isinstance(parent, int):
                await manager.storage.set_parent(row.id, parent)
    ended = await end_games_in(manager, channels)
    return [replace(gone, channel_known=gone.game.channel_id not in found_gone) for gone in ended]


async def end_games_of_server(manager: GameManager, guild_id: int) -> list[GoneGame]:
    """The bot was removed from the server: cancel every open game played there."""
    channels = [row.channel_id async for row in manager.storage.iter_games_with_status("lobby", "active")
                if row.guild_id == guild_id]
    return await end_games_in(manager, channels)


def humans(game: Game) -> tuple[int, ...]:
    return tuple(dict.fromkeys(seat.user_id for seat in game.seats if seat.user_id is not None))


def gone_notice(gone: GoneGame, channel: str | None, server: str | None, *, removed: bool = False) -> str:
    """The DM to a player of ``gone``'s game: which table ended and why (names escaped; a channel
    whose name is not known is named by its id; one that may not be ``channel``, not at all)."""
    game = gone.game
    place = PlayerName(server or str(game.guild_id))
    if not removed and not gone.channel_known:
        return texts.GAME_GONE_UNNAMED_DM.format(game_id=game.id, server=place)
    words = texts.GAME_GONE_SERVER_DM if removed else texts.GAME_GONE_CHANNEL_DM
    return words.format(game_id=game.id, channel=PlayerName(channel or str(game.channel_id)), server=place)
