"""What changed: since a post (the table image's alt text) and since a player's own last turn
("While you were away": the turn DM, the turn panel's header, ``/projectl catchup``).

Both are summaries of engine events, at most three short lines, most useful first: the cards taken
from the rows (by whom), the puzzles completed (a hidden score pile names neither the card nor its
points), and what changed the reader's own position (a card they could have completed from their
supply taken, pieces they have none of taken from the reserve, the end triggered, a new Finesse
tile). The catch-up is computed from the stored action log, replayed through the engine from the
game's initial state (:func:`replay_log`), so it survives restarts and spans any number of turns:
the caller reads the log once, when the DM or the panel is built, never per action.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from bot.core.storage import ActionRow
from bot.core.wording import texts
from bot.core.wording.describe import alt_name
from bot.core.wording.event_texts import and_list, finesse_tile, finesse_tile_text, seat_name
from bot.core.wording.locales import Joined
from engine import events as ev
from engine.expansions import finesse
from engine.pieces import SHAPES
from engine.solver import can_complete
from engine.state import GameState, LineClearTable, RowsTable, SoloTable
from engine.visibility import hidden_scores

MAX_LINES = 3

log = logging.getLogger("bot")


@dataclass(frozen=True, slots=True)
class Replayed:
    """One logged action replayed: who acted, the state before it and what it caused."""

    seat: int
    before: GameState
    events: tuple[ev.Event, ...]


def replay_log(current: GameState, rows: Sequence[ActionRow]) -> list[Replayed]:
    """The log ``rows`` replayed from ``current``'s initial state, one entry per action.

    Pure CPU (a few milliseconds for a whole game): the caller has read the rows once."""
    state = engine.initial_state(current)
    out: list[Replayed] = []
    for row in rows:
        outcome = engine.apply(state, engine.parse_action(row.action), player=row.seat)
        out.append(Replayed(row.seat, state, outcome.events))
        state = outcome.state
    return out


def catch_up_lines(current: GameState, rows: Sequence[ActionRow], seat: int,
                   names: Sequence[str]) -> list[Any]:
    """The "While you were away" block from the log ``rows`` the caller has read: its title and
    at most three lines, or nothing when nothing changed (the turn DM and the panel's header)."""
    try:
        replayed = replay_log(current, rows)
        lines = since_last_turn(current, replayed, seat, names)
    except (engine.EngineError, ValueError, KeyError):  # a log the engine no longer replays: no news
        log.warning("the catch-up of seat %s could not replay its game's log", seat, exc_info=True)
        return []
    if not lines:
        return []
    return [texts.CATCHUP_TITLE if had_turn(current, replayed, seat) else texts.CATCHUP_TITLE_FIRST, *lines]


def had_turn(current: GameState, replayed: Sequence[Replayed], seat: int) -> bool:
    """Whether ``seat`` had a turn before the one it holds now (or, while it holds none, any
    turn): the window :func:`since_last_turn` reads then starts at that turn, not at the game's
    start, and "since your last turn" is true. The game's first turn starts with no logged
    action, so a seat acting in the initial state counts that turn too."""
    started = sum(1 for r in replayed
                  if any(isinstance(e, ev.TurnStarted) and e.seat == seat for e in r.events))
    initial = replayed[0].before if replayed else engine.initial_state(current)
    started += seat in initial.acting_seats
    return started > (1 if seat in current.acting_seats else 0)


def catch_up_block(current: GameState, replayed: Sequence[Replayed], seat: int,
                   names: Sequence[str]) -> list[Any]:
    """``/projectl-catchup``'s reply: the title and :func:`since_last_turn`'s lines, or the one
    line saying nothing changed — each true for a seat that has had no turn yet too."""
    lines = since_last_turn(current, replayed, seat, names)
    had = had_turn(current, replayed, seat)
    if lines:
        return [texts.CATCHUP_TITLE if had else texts.CATCHUP_TITLE_FIRST, *lines]
    if had:
        return [texts.CATCHUP_NOTHING]
    return [texts.CATCHUP_FIRST_TURN if seat in current.acting_seats else texts.CATCHUP_NOTHING_YET]


def since_last_turn(current: GameState, replayed: Sequence[Replayed], seat: int,
                    names: Sequence[str]) -> list[Any]:
    """At most three lines: what the others (and the table) did since ``seat``'s last turn.

    The window runs from the start of ``seat``'s previous turn (while it holds the move now; else
    its latest) to the start of its current one (else to now); ``seat``'s own doings are left
    out. Empty when nothing happened in between (Solo's mastermind and the table's own events,
    like the end being triggered, still count)."""
    starts = [i for i, r in enumerate(replayed)
              if any(isinstance(e, ev.TurnStarted) and e.seat == seat for e in r.events)]
    acting = seat in current.acting_seats
    if acting:
        if not starts:
            return []
        begin, end = (starts[-2] + 1 if len(starts) >= 2 else 0), starts[-1] + 1
    else:
        begin, end = (starts[-1] + 1 if starts else 0), len(replayed)
    window = replayed[begin:end]
    if not window:
        return []
    before = window[0].before
    after = replayed[end].before if end < len(replayed) else current
    found = [e for r in window for e in r.events if getattr(e, "seat", None) != seat]
    return summary(found, names, hidden_scores(after, seat), before=before, after=after, seat=seat)


def post_changes(events: Iterable[ev.Event], names: Sequence[str], state: GameState) -> list[Any]:
    """What a public post's events changed, for the table image's alt text (cards taken,
    puzzles completed, the end triggered): at most three sentences, nobody's own view, names as
    the alt text spells them (:func:`~bot.core.wording.describe.alt_name`)."""
    return summary(list(events), [alt_name(name) for name in names], hidden_scores(state, None))


def summary(found: Sequence[ev.Event], names: Sequence[str], hidden: frozenset[int], *,
            before: GameState | None = None, after: GameState | None = None,
            seat: int | None = None) -> list[Any]:
    """The lines for ``found`` events; with ``seat`` (and the states around the window), a last
    line about the reader's own position."""
    lines: list[Any] = []
    taken: list[Any] = [Joined((e.card, texts.CATCHUP_BY.format(name=seat_name(names, e.seat))), " ")
             for e in found if isinstance(e, ev.PuzzleTaken) and e.source != "deck"]
    taken += [texts.CATCHUP_MASTERMIND_TOOK.format(card=e.card, name=seat_name(names, engine.MASTERMIND))
              for e in found if isinstance(e, ev.MastermindTook)]
    drawn = Counter(e.seat for e in found if isinstance(e, ev.PuzzleTaken) and e.source == "deck")
    taken += [texts.CATCHUP_DREW.format(name=seat_name(names, s), count=n) for s, n in drawn.items()]
    if taken:
        lines.append(texts.CATCHUP_TAKEN.format(cards=Joined(taken, ", ")))
    done = [(texts.CATCHUP_DONE_HIDDEN if e.seat in hidden else texts.CATCHUP_DONE).format(
                name=seat_name(names, e.seat), card=e.card, points=e.points)
            for e in found if isinstance(e, ev.PuzzleCompleted) and e.seat != engine.MASTERMIND]
    if done:
        lines.append(texts.CATCHUP_COMPLETED.format(puzzles=Joined(done, ", ")))
    yours = _yours(found, names, before, after, seat)
    if yours:
        lines.append(Joined(yours, " "))
    return lines[:MAX_LINES]


def _yours(found: Sequence[ev.Event], names: Sequence[str], before: GameState | None,
           after: GameState | None, seat: int | None) -> list[Any]:
    """The sentences about the reader's position (the table's own news when ``seat`` is None)."""
    out: list[Any] = []
    ended = next((e for e in found if isinstance(e, ev.EndTriggered)), None)
    if ended is not None:
        out.append(texts.ALT_END_TRIGGERED.format(round=ended.last_round))
    tile = next((e for e in reversed(found) if isinstance(e, ev.FinesseTileRemoved)), None)
    if tile is not None and after is not None:
        fv = finesse.view(after)
        live = fv.live if fv is not None else None
        if live is not None:
            out.append(texts.CATCHUP_TILE.format(tile=finesse_tile(live)))
    elif tile is not None:
        out.append(texts.CATCHUP_TILE.format(tile=finesse_tile_text(tile.live)))
    if seat is None or before is None or after is None:
        return out
    mine = before.players[seat].supply
    wanted = [e.card for e in found if isinstance(e, ev.PuzzleTaken) and e.source != "deck"
              and e.card in _offered(before)
              and can_complete(before.cards[e.card].recess, mine, shapes=SHAPES)]
    if wanted:
        out.insert(0, texts.CATCHUP_WANTED.format(cards=and_list(wanted)))
    short = Counter(e.shape for e in found if isinstance(e, ev.PieceGained) and e.seat != seat
                    and after.players[seat].supply[e.shape.index] == 0)
    if short:
        pieces = Joined([texts.CATCHUP_SHORT_PIECE.format(code=shape.value, count=n,
                                                          left=after.reserve[shape.index])
                         for shape, n in sorted(short.items(), key=lambda item: item[0].index)], ", ")
        out.append(texts.CATCHUP_SHORT.format(pieces=pieces))
    return out


def _offered(state: GameState) -> set[str]:
    """Every card face up in the market."""
    table = state.table
    if isinstance(table, RowsTable):
        slots: tuple[str | None, ...] = table.white_row + table.black_row
    elif isinstance(table, LineClearTable):
        slots = table.left_white + table.left_black + table.right_white + table.right_black
    else:
        assert isinstance(table, SoloTable)
        slots = table.grid
    return {card for card in slots if card is not None}
