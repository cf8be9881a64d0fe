"""Taking back your own last action.

Allowed when **all** of these hold (otherwise a clear refusal and no change):

* the game is in play and the last row of the log is an action *you* made from your seat —
  so nobody (not the next player, not an AI seat) has acted since;
* it is a player action, not a table decision (skip, removal);
* applying it revealed nothing hidden (``Outcome.reveals_hidden``: a blind draw, a refill after
  taking a face-up card, a recycle, the Solo mastermind's refill), so taking it back gives no one
  knowledge they could exploit.

How, safely: under the channel lock, the state before the action is rebuilt by replaying the log
without its last row from ``engine.initial_state(state)`` — the same start ``verify`` uses — and
the action is re-applied to that state to check it reproduces the stored state and to read its
events. Then ONE transaction moves the row from ``actions`` to ``undone_actions``, stores the
rebuilt state and bumps the revision (any button or Master draft made for the undone state goes
stale). ``actions`` therefore stays exactly the replayable log; ``undone_actions`` keeps the
history, shown struck through by ``/projectl log``.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from bot.core.errors import InvalidActionError, NoGameError, NotInGameError, StaleError, WrongStageError
from bot.core.games import stored_state
from bot.core.play.manager import Game, GameManager
from bot.core.storage import StaleRevisionError
from bot.core.storage.days import DaysStore
from bot.core.wording import texts
from engine import serialisation


@dataclass(frozen=True, slots=True)
class UndoResult:
    before: Game
    game: Game
    action: engine.Action
    seat: int

    @property
    def turn_came_back(self) -> bool:
        """The undone action had ended the turn: the move is back with the undoer."""
        assert self.before.state is not None and self.game.state is not None
        before, after = self.before.state, self.game.state
        if after.turns:  # Line Clear: was the undoer's own turn over, and is it running again?
            return self.seat not in before.acting_seats and self.seat in after.acting_seats
        return before.current != after.current or before.turn != after.turn


async def undo_last(
    manager: GameManager, store: DaysStore, channel_id: int, user_id: int, *, game_id: int | None = None,
) -> UndoResult:
    """Take back ``user_id``'s last action in the channel's game (see the module docstring);
    with ``game_id`` (a board link names its game), only in that game: once it has ended, the
    channel's next game is not the link's to touch (:class:`StaleError`)."""
    async with manager.lock(channel_id):
        taking = await _undoable(manager, store, channel_id, user_id, game_id)
        game = taking.game
        try:
            text, catalogue = stored_state(game, taking.previous)
            row = await store.undo_last_action(
                game.id, game.revision, seq=taking.seq, state=text, state_schema=taking.previous.schema,
                by_user_id=user_id, catalogue=catalogue,
            )
        except StaleRevisionError as error:
            raise StaleError(texts.STALE_BUTTON) from error
    return UndoResult(game, Game.from_row(row), taking.action, taking.seat)


async def check_undo(
    manager: GameManager, store: DaysStore, channel_id: int, user_id: int, *, game_id: int | None = None,
) -> None:
    """Whether :func:`undo_last` would take an action back now: its refusal if not; nothing is
    changed (the board's ``/api/check`` asks before the player commits)."""
    async with manager.lock(channel_id):
        await _undoable(manager, store, channel_id, user_id, game_id)


@dataclass(frozen=True, slots=True)
class _Undoable:
    """What taking the last action back needs, once every rule allows it."""

    game: Game
    seat: int
    seq: int
    action: engine.Action
    previous: engine.GameState


async def _undoable(
    manager: GameManager, store: DaysStore, channel_id: int, user_id: int, game_id: int | None,
) -> _Undoable:
    """The rules of the module docstring, checked under the channel's lock; refused otherwise."""
    game = await manager.game_in_channel(channel_id)
    if game_id is not None and (game is None or game.id != game_id):
        raise StaleError(texts.STALE_GAME)
    if game is None:
        raise NoGameError(texts.NO_GAME)
    if game.status != "active" or game.state is None:
        raise WrongStageError(texts.NOT_STARTED)
    seat = game.seat_of(user_id)
    if seat is None:
        raise NotInGameError(texts.NOT_IN_GAME)
    rows = await store.storage.actions(game.id)
    if not rows:
        raise InvalidActionError(texts.UNDO_NOTHING)
    last = rows[-1]
    action = engine.parse_action(last.action)
    if isinstance(action, (engine.SkipTurn, engine.RemovePlayer)):
        raise InvalidActionError(texts.UNDO_DECISION)
    if last.user_id != user_id or last.seat != seat.seat:
        raise InvalidActionError(texts.UNDO_NOT_YOURS.format(name=game.seats[last.seat].name))
    initial = engine.initial_state(game.state)
    previous = engine.replay(
        initial, [engine.parse_action(r.action) for r in rows[:-1]], [r.seat for r in rows[:-1]]
    )
    outcome = engine.apply(previous, action, player=last.seat)
    if serialisation.dumps(outcome.state, cards=False) != serialisation.dumps(game.state, cards=False):
        raise StaleError(texts.STALE_GAME)  # the log and the state disagree: touch nothing
    if outcome.reveals_hidden:
        raise InvalidActionError(texts.UNDO_HIDDEN.format(action=last.action))
    return _Undoable(game, seat.seat, last.seq, action, previous)
