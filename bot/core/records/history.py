"""Reading a game's past: the action log as pages of text, the end-of-game summary, and
per-server statistics. Pure functions over stored rows (no Discord, no SQL).

The log is rebuilt by replaying the stored actions from the seed, so every line can say what
the action *did* (which card a blind draw took, which puzzle was completed) with the engine's own
``event.describe(names)`` — the same words the channel saw. Undone actions come from
``undone_actions`` and are shown struck through where they happened (ordered by revision).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil
from typing import Any

import engine
from bot.core.games import Game
from bot.core.records.results import seat_results
from bot.core.storage import ActionRow
from bot.core.storage.days import UndoneRow
from bot.core.storage.stats import PlayerTotals, ResultRow
from bot.core.wording import texts
from bot.core.wording.event_texts import and_list, event_text, seat_name
from bot.core.wording.locales import Joined, Notation, PlayerName, localise
from engine import events as ev
from engine.visibility import hidden_scores

PAGE_SIZE = 15
ENTRY_LIMIT = 260
"""Characters per log line, so a full page fits an embed description (4096)."""
_QUIET_EVENTS = (ev.TurnStarted, ev.PiecePlaced, ev.PieceReturned, ev.FinishingDone)
"""Events the action text already says (or that the next line says): left out of the log."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One log line: a played action (its ``seq``) or, struck through, one taken back (None).
    ``text`` is in English and knows its sentences (:func:`shown` puts it in a reader's words)."""

    revision: int
    text: str
    seq: int | None = None

    def shown(self, locale: Any = None) -> str:
        """The line in ``locale``, cut to :data:`ENTRY_LIMIT` characters."""
        return _clip(str(localise(self.text, locale)))


def _clip(text: str, limit: int = ENTRY_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def log_entries(game: Game, rows: Sequence[ActionRow], undone: Sequence[UndoneRow] = ()) -> list[Entry]:
    """One readable line per logged action (and per undone one), oldest first."""
    names = game.names
    entries: list[Entry] = []
    if game.state is not None:
        hidden = hidden_scores(game.state, None)  # anyone may read the log
        state = engine.initial_state(game.state)
        for row in rows:
            action = engine.parse_action(row.action)
            round_number = state.round
            outcome = engine.apply(state, action, player=row.seat)
            state = outcome.state
            said = [event_text(e, names, hidden) for e in outcome.events
                    if not isinstance(e, _QUIET_EVENTS)]
            line: str
            if isinstance(action, (engine.SkipTurn, engine.RemovePlayer)):
                line = texts.LOG_DECISION_LINE.format(seq=row.seq, round=round_number, decision=decision_text(
                    game, action, outcome.events, seat=row.seat, user_id=row.user_id))
            elif said:
                line = texts.LOG_LINE_SAID.format(seq=row.seq, round=round_number,
                                                  name=_seat_name(game, row.seat),
                                                  action=Notation(row.action), said=Joined(said, " "))
            else:
                line = texts.LOG_LINE.format(seq=row.seq, round=round_number, name=_seat_name(game, row.seat),
                                             action=Notation(row.action))
            entries.append(Entry(row.revision, texts.LOG_PLANNED.format(line=line) if row.planned else line,
                                 row.seq))
    for old in undone:
        line = texts.LOG_UNDONE_LINE.format(seq=old.seq, name=_seat_name(game, old.seat),
                                            action=Notation(old.action))
        entries.append(Entry(old.revision, texts.LOG_UNDONE.format(line=line)))
    entries.sort(key=lambda e: e.revision)
    return entries


def decision_text(
    game: Game, action: engine.Action, events: Sequence[ev.Event], *, seat: int, user_id: int | None,
) -> Joined:
    """A table decision (skip, remove) as the log and the channel tell it: ``⚖ Vic was removed
    from the game; … (table vote)``. A removal the player did not ask for is worded as a removal,
    never as "Vic left the game"; leaving of one's own accord keeps the engine's words."""
    by_vote = _by_vote(game, action, seat, user_id)
    said: list[str] = []
    for event in events:
        if isinstance(event, _QUIET_EVENTS):
            continue
        if isinstance(event, ev.PlayerRemoved) and by_vote:
            puzzles = (texts.PLAYER_REMOVED_PUZZLES.format(cards=", ".join(event.discarded))
                       if event.discarded else "")
            said.append(texts.PLAYER_REMOVED.format(name=_seat_name(game, event.seat), puzzles=puzzles))
        else:
            said.append(event_text(event, game.names))
    return Joined(["⚖", *said, texts.LOG_BY_VOTE] if by_vote else ["⚖", *said], " ")


def removed_by_vote(game: Game, rows: Sequence[ActionRow]) -> set[int]:
    """The seats the table removed by a vote (not those who left of their own accord)."""
    seats: set[int] = set()
    for row in rows:
        if not row.action.startswith("remove"):
            continue
        action = engine.parse_action(row.action)
        if isinstance(action, engine.RemovePlayer) and _by_vote(game, action, row.seat, row.user_id):
            seats.add(action.seat)
    return seats


def _by_vote(game: Game, action: engine.Action, seat: int, user_id: int | None) -> bool:
    """A decision asked for by someone other than the player it concerns (a vote, not leaving)."""
    if user_id is None:
        return False
    target = action.seat if isinstance(action, engine.RemovePlayer) else seat
    return 0 <= target < len(game.seats) and game.seats[target].user_id != user_id


def _seat_name(game: Game, seat: int) -> str:
    if 0 <= seat < len(game.seats):
        return game.seats[seat].name
    return texts.SEAT_FALLBACK.format(number=seat + 1)


def page_count(total: int, size: int = PAGE_SIZE) -> int:
    return max(1, ceil(total / size))


def page(entries: Sequence[Entry], number: int, size: int = PAGE_SIZE) -> tuple[int, list[Entry]]:
    """Page ``number`` (1-based, clamped to the valid range) and the number actually shown."""
    number = min(max(1, number), page_count(len(entries), size))
    start = (number - 1) * size
    return number, list(entries[start:start + size])


def page_title(game: Game, number: int, entries: Sequence[Entry], size: int = PAGE_SIZE) -> str:
    """'Game 3 — actions 16–20 of 20, 1 taken back (page 2/2)'. The numbers are the actions'
    own ``#`` numbers, so a struck-through line (an undone action) does not shift them."""
    played = [e.seq for e in entries if e.seq is not None]
    _, shown = page(entries, number, size)
    on_page = [e.seq for e in shown if e.seq is not None]
    undone = len(entries) - len(played)
    return texts.LOG_TITLE.format(
        game_id=game.id, first=min(on_page, default=0), last=max(on_page, default=0), total=len(played),
        taken_back=texts.LOG_TAKEN_BACK.format(n=undone) if undone else "", page=number,
        pages=page_count(len(entries), size))


def summary_lines(game: Game, rows: Sequence[ActionRow] = ()) -> list[str]:
    """After the game: each player's score and cards (completed, and unfinished ones that cost).
    ``rows`` (the action log) tells a player the table voted out from one who left."""
    state = game.state
    assert state is not None
    voted_out = removed_by_vote(game, rows)
    lines: list[str] = []
    scores = {line.seat: line for line in engine.score_lines(state)}
    for seat in game.seats:
        player = state.players[seat.seat]
        completed: str = ", ".join(
            f"{d.card} ({state.cards[d.card].points})" for d in player.completed
        ) or texts.NONE
        if player.removed:
            out = texts.SUMMARY_REMOVED if seat.seat in voted_out else texts.SUMMARY_LEFT
            lines.append(out.format(name=seat.name, completed=completed))
            continue
        unfinished = ", ".join(p.card for p in player.puzzles)
        lines.append(texts.SUMMARY_LINE.format(
            name=seat.name, total=scores[seat.seat].total, completed=completed,
            unfinished=texts.SUMMARY_UNFINISHED.format(cards=unfinished) if unfinished else "",
        ))
    if state.is_over:
        won = engine.winners(state)
        who = and_list([seat_name(game.names, w) for w in won])
        lines.append(texts.WINNER.format(names=who) if won else "")
    return [line for line in lines if line]


# -- statistics ----------------------------------------------------------------------------------


def server_stats(games: Sequence[Game]) -> list[PlayerTotals]:
    """Per human player over finished games, from the games themselves: played, won, left,
    average final score (games they finished). The bot reads the same figures from the
    ``game_results`` table (:meth:`StatsStore.server_totals`); this is the reference (and the
    benchmark's "parse every game" baseline)."""
    played: dict[int, list[ResultRow]] = {}
    names: dict[int, str] = {}
    for game in games:
        state = game.state
        if state is None or not state.is_over:
            continue
        for row in seat_results(game.seats, state):
            if row.user_id is not None:
                played.setdefault(row.user_id, []).append(row)
                names[row.user_id] = row.display_name
    totals = []
    for user_id, rows in played.items():
        scores = [r.score for r in rows if r.score is not None and not r.left]
        totals.append(PlayerTotals(user_id, names[user_id], len(rows), sum(r.won for r in rows),
                                   sum(r.left for r in rows), sum(scores) / len(scores) if scores else None))
    return ranked(totals)


def ranked(totals: Sequence[PlayerTotals]) -> list[PlayerTotals]:
    """Best first: most wins, then best average, then name."""
    return sorted(totals, key=lambda s: (-s.wins, -(s.average or 0.0), s.display_name.lower()))


def stats_lines(stats: Sequence[PlayerTotals]) -> list[str]:
    lines = []
    for entry in stats:
        average = "–" if entry.average is None else f"{entry.average:.1f}"
        lines.append(texts.STATS_LINE.format(
            name=PlayerName(entry.display_name), played=entry.played, wins=entry.wins, average=average,
            left=texts.STATS_LEFT.format(n=entry.left) if entry.left else "",
        ))
    return lines
