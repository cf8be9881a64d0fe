"""A player's inbox: the games of a server where it is their move, oldest wait first, and the
games waiting on someone else, with whom (``/projectl-games mine``, the "Next game waiting for
you" button). Pure: built from the open turn rows storage reads (``DaysStore.open_turns_beside``).

Why from the turn rows: they are what the reminders and the turn clock keep, one per human seat
holding the move, with when it started; an AI seat holds the move only for the moments it thinks,
so a game never waits on one for long enough to list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.core.days.pace import duration_text
from bot.core.games import Game
from bot.core.storage.days import TurnRow
from bot.core.wording import texts

LISTED = 15
"""Games listed in each part of the inbox (a private reply has room for them; more are counted)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """One game's open move: since when, on whom, and where its latest table post is."""

    game_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    since: datetime
    users: tuple[int, ...]

    @property
    def link(self) -> str:
        """The table post (else the channel): a link Discord opens in place."""
        tail = "" if self.message_id is None else f"/{self.message_id}"
        return f"https://discord.com/channels/{self.guild_id}/{self.channel_id}{tail}"


@dataclass(frozen=True, slots=True)
class Inbox:
    mine: tuple[Waiting, ...]
    others: tuple[Waiting, ...]


async def games_left(rows: Sequence[tuple[TurnRow, int | None]], user_id: int,
                     load: Callable[[int], Awaitable[Game | None]]) -> set[int]:
    """The games among ``rows`` that ``user_id`` is out of (left, or removed by a table vote), for
    :func:`inbox_of`'s ``out``: a removed seat keeps its user in ``seats``, so only the game's state
    tells. Only the games waiting on someone else are loaded (``load``: the manager's ``game``): a
    seat holding the move is still in the game."""
    holding = {row.key.game_id for row, _ in rows if row.user_id == user_id}
    out: set[int] = set()
    for game_id in dict.fromkeys(row.key.game_id for row, _ in rows):
        if game_id in holding:
            continue
        game = await load(game_id)
        seat = None if game is None else game.seat_of(user_id)
        if game is None or game.state is None or seat is None or game.state.players[seat.seat].removed:
            out.add(game_id)
    return out


def inbox_of(rows: Sequence[tuple[TurnRow, int | None]], guild_id: int, user_id: int,
             out: Collection[int] = ()) -> Inbox:
    """Group the open turns by game: a game where ``user_id`` holds the move (either Line Clear
    holder) is theirs, waiting since their turn started; any other waits on its holders, since
    the earliest of their turns. Each part oldest wait first. The games of ``out`` are left out:
    the player left them or was removed (their seat row stays, so storage still finds them)."""
    games: dict[int, list[tuple[TurnRow, int | None]]] = {}
    for row in rows:
        if row[0].key.game_id not in out:
            games.setdefault(row[0].key.game_id, []).append(row)
    mine: list[Waiting] = []
    others: list[Waiting] = []
    for game_id, turns in games.items():
        own = [turn for turn, _ in turns if turn.user_id == user_id]
        first, message_id = turns[0]
        if own:
            mine.append(Waiting(game_id, guild_id, first.channel_id, message_id,
                                min(turn.started_at for turn in own), (user_id,)))
        else:
            holders = tuple(dict.fromkeys(turn.user_id for turn, _ in turns))
            others.append(Waiting(game_id, guild_id, first.channel_id, message_id,
                                  min(turn.started_at for turn, _ in turns), holders))
    return Inbox(tuple(sorted(mine, key=_age)), tuple(sorted(others, key=_age)))


def _age(waiting: Waiting) -> tuple[datetime, int]:
    return (waiting.since, waiting.game_id)


def inbox_lines(inbox: Inbox, now: datetime, shown: tuple[int, int] = (LISTED, LISTED)) -> list[Any]:
    """The inbox as sentences: the games waiting for you, then those waiting on others (users as
    mentions, which a private reply shows as names and never pings). ``shown``: how many of each
    part are listed (at most :data:`LISTED`); the rest of a part is counted ("… and 3 more")."""
    mine_shown, others_shown = (min(LISTED, max(0, n)) for n in shown)
    lines: list[Any] = [texts.INBOX_MINE_TITLE]
    lines += [texts.INBOX_MINE_LINE.format(game_id=w.game_id, link=w.link, channel=f"<#{w.channel_id}>",
                                           waited=duration_text(now - w.since))
              for w in inbox.mine[:mine_shown]]
    if not inbox.mine:
        lines.append(texts.INBOX_MINE_NONE)
    elif len(inbox.mine) > mine_shown:
        lines.append(texts.INBOX_MORE.format(n=len(inbox.mine) - mine_shown))
    if inbox.others:
        lines += ["", texts.INBOX_OTHERS_TITLE]
        lines += [texts.INBOX_OTHERS_LINE.format(
            game_id=w.game_id, link=w.link, channel=f"<#{w.channel_id}>",
            who=", ".join(f"<@{user}>" for user in w.users), waited=duration_text(now - w.since))
            for w in inbox.others[:others_shown]]
        if len(inbox.others) > others_shown:
            lines.append(texts.INBOX_MORE.format(n=len(inbox.others) - others_shown))
    return lines


def fitted_inbox_lines(inbox: Inbox, now: datetime, fits: Callable[[list[Any]], bool]) -> list[Any]:
    """:func:`inbox_lines` listing as many games as ``fits`` allows in one message (it reads the
    lines in the reader's language): the games waiting on others give way first, then the oldest
    waits on you are kept before the newer; what is not listed is counted, never cut off."""
    mine, others = min(LISTED, len(inbox.mine)), min(LISTED, len(inbox.others))
    lines = inbox_lines(inbox, now, (mine, others))
    while not fits(lines) and mine + others > 0:
        if others > 0:
            others -= 1
        else:
            mine -= 1
        lines = inbox_lines(inbox, now, (mine, others))
    return lines


def next_waiting(inbox: Inbox, after_game: int | None = None) -> Waiting | None:
    """The game that has waited longest for the player, other than ``after_game`` (the one they
    just played in, whose move may have come straight back to them)."""
    return next((w for w in inbox.mine if w.game_id != after_game), None)
