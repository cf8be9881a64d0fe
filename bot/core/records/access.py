"""Who may read a game: the one rule every command, button, list and autocomplete that shows a
game (its log, replay, recap, review, a mat) asks before showing it or naming it.

A game lives in a channel. When not everybody on the server can see that channel (a private
thread, or a channel hidden from @everyone), its game must not be readable from anywhere else by
someone who cannot see it. The bot cannot ask Discord whether a user sees another channel, so the
rule keeps to what it knows for sure:

* its **players** (every seated user, and the host) may always read it, from anywhere;
* anyone may read it **from inside its channel** (Discord delivers a command or a click from a
  channel only to someone who sees it);
* from anywhere else on its server, anyone may read it only when its channel is known to be
  **public**; a private channel, or one whose privacy is not known, is the safe side: refused;
* nobody reads it from another server, or from a DM.

Whether the channel is private is known twice: as it was when the game opened (stored, migration
0015) and as the front sees it now (its cache, when it holds the channel). Either saying private
makes it private; neither knowing makes it private too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.games import Game
from bot.core.storage.replays import FinishedGame


@dataclass(frozen=True, slots=True)
class GamePlace:
    """Where a game lives and who sat at it: all the rule needs of a game (a game read in full, or
    a row of a list)."""

    guild_id: int | None
    channel_id: int
    channel_private: bool | None
    """As it was when the game opened; None: not known."""
    players: frozenset[int]
    """Every user seated at it, and its host."""

    @classmethod
    def of(cls, game: Game) -> GamePlace:
        return cls(game.guild_id, game.channel_id, game.channel_private,
                   players_of(game.host_id, (s.user_id for s in game.seats)))

    @classmethod
    def of_listed(cls, game: FinishedGame) -> GamePlace:
        """The place of a game as a list of finished games holds it."""
        return cls(game.guild_id, game.channel_id, game.channel_private,
                   players_of(game.host_id, game.user_ids))


def players_of(host_id: int | None, seated: Iterable[int | None]) -> frozenset[int]:
    """The users a game's players are: its seated humans and its host."""
    return frozenset(u for u in (host_id, *seated) if u is not None)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who asks, and from where (their server and channel, as the interaction says)."""

    user_id: int
    guild_id: int | None
    channel_id: int | None


def may_read(place: GamePlace, reader: Reader, private_now: bool | None) -> bool:
    """Whether ``reader`` may see the game at ``place`` (the module's rule). ``private_now``:
    whether its channel is private as the front sees it now (None: the front does not know)."""
    if place.guild_id is None or reader.guild_id != place.guild_id:
        return False
    if reader.user_id in place.players or reader.channel_id == place.channel_id:
        return True
    return place.channel_private is not True and private_now is not True \
        and (place.channel_private is False or private_now is False)
