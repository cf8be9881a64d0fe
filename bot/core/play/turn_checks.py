"""Who may act now, and with what: the refusals a player gets before the engine is asked (not
their turn, not in the game, a table decision only a vote may take, someone else's choice, an
offer made on a view that has changed since). Its own module because every front reaches these
checks, through the manager's ``act`` and ``check_turn`` or the acting flow (flow.py), and they
read only the game as loaded."""

from __future__ import annotations

import engine
from bot.core.errors import (
    BadInputError,
    InvalidActionError,
    NotInGameError,
    NotYourTurnError,
    OutOfDateError,
    WrongStageError,
)
from bot.core.games import Game, Seat
from bot.core.play.seat_view import changed_parts
from bot.core.wording import texts
from bot.core.wording.locales import Joined
from bot.core.wording.refusals import engine_text
from engine import Action, IllegalActionError


def read_action(action: Action | str) -> Action:
    """An action typed in the engine's notation read as one (a clear refusal if it is not), or
    ``action`` as given."""
    if not isinstance(action, str):
        return action
    try:
        return engine.parse_action(action)
    except IllegalActionError as error:
        raise BadInputError(engine_text(error)) from error


def player_action(action: Action) -> Action:
    """The one gate between a player and the engine: a player may send only their own moves.

    Table decisions (skip a turn, remove a seat — ``engine.TABLE_ACTIONS``) are applied only by
    :meth:`GameManager.decide` after a vote, the turn clock or the host's replace; every player
    entry point (typed text, autocomplete values, buttons, menus, Master confirm) reaches the
    engine through :meth:`GameManager.act`, which calls this first. Any kind the engine adds to
    ``TABLE_ACTIONS`` is refused here without touching this function."""
    if isinstance(action, engine.TABLE_ACTIONS):
        raise InvalidActionError(texts.TABLE_DECISION_ONLY.format(action=str(action)))
    return action


def current_seat_for(game: Game, user_id: int) -> Seat:
    """The user's seat if it may act now: the current seat, or either marker holder's while two
    turns run at once (Line Clear). A seat that left or was removed is told so, not whose turn it is."""
    if game.status == "lobby":
        raise WrongStageError(texts.NOT_STARTED)
    seat = game.seat_of(user_id)
    if seat is None:
        raise NotInGameError(texts.NOT_IN_GAME)
    current = game.current
    if current is None or game.state is None:
        raise WrongStageError(texts.GAME_OVER)
    if game.state.players[seat.seat].removed:
        # Their seat row stays after they leave or are voted out, but they will never move again:
        # "not your turn: X is playing" would suggest waiting. Every front (command, typed
        # notation, buttons, the web board) reaches this through ``act`` or ``flow.acting``.
        raise NotInGameError(texts.NO_LONGER_IN_GAME)
    acting = game.state.acting_seats
    if seat.seat not in acting:
        if len(acting) > 1:  # Line Clear: both marker holders, joined in the reader's language
            names = Joined([game.seats[s].name for s in acting], texts.AND)
            raise NotYourTurnError(texts.NOT_YOUR_TURN_BOTH.format(names=names))
        raise NotYourTurnError(texts.NOT_YOUR_TURN.format(name=current.name))
    return seat


def refuse_someone_elses_choice(game: Game, seat: int, action: Action) -> None:
    """An answer from a seat with nothing pending while another seat's decision waits (the other
    marker holder's, in Line Clear) is refused naming whose choice it is; the engine alone could
    say only that nothing waits for this seat."""
    if not isinstance(action, engine.Choose) or game.state is None:
        return
    if game.state.decision_for(seat) is None and game.state.pending:
        owner = game.seats[game.state.pending[0].seat].name
        raise InvalidActionError(texts.CHOICE_IS_OTHERS.format(name=owner))


def require_current(game: Game, seat: int, offered: str) -> None:
    """Refuse, with what changed, an offer to ``seat`` made at stamp ``offered`` when something it
    relies on has changed since (``bot/core/play/seat_view.py``); the error carries ``game``."""
    changed = changed_parts(game.state, game.revision, seat, offered)
    if changed:
        parts = Joined([_STALE_PARTS[part] for part in changed], ", ")
        raise OutOfDateError(texts.STALE_FOR_YOU.format(changed=parts), game=game, seat=seat, changed=changed)


_STALE_PARTS = {"turn": texts.STALE_PART_TURN, "mat": texts.STALE_PART_MAT, "rows": texts.STALE_PART_ROWS,
                "game": texts.STALE_PART_GAME}
