"""The seat-scoped flow: who is acting, and everything worked out from their point of view.

Every way a player acts or asks — a slash command, typed notation, a button, a menu, a panel tap,
an autocomplete list, a preview, a Master draft, a hint — starts by building ONE
:class:`ActingContext` for the interaction (the game as loaded once, the acting seat, the user, the
reader's locale) and computes from it. While Line Clear's two marker holders play at once the game's
own ``current`` seat is only one of them; :attr:`ActingContext.state` is the state seen from the
acting seat's own turn (``GameState.focused``), so legal actions, the autocomplete lists, the
checks of a preview or a Master draft and a hint's planning are this seat's, never the other
holder's. The Discord front parses, calls these, and presents the result.

No Discord here (a test imports this module with discord made unimportable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from bot.core.errors import BadInputError, InvalidActionError, NoGameError, NotInGameError, WrongStageError
from bot.core.play.manager import Game, GameManager
from bot.core.play.seat_view import stamp
from bot.core.play.thinking import position_seed, public_position
from bot.core.play.turn_checks import require_current
from bot.core.records.ratings import refuses_hints
from bot.core.wording import texts
from bot.core.wording.catchup import catch_up_block, replay_log
from bot.core.wording.describe import mat_lines, table_lines
from bot.core.wording.refusals import engine_text
from engine import Action, GameState, Place, PlayerState, serialisation
from engine.legal import MasterOptions


@dataclass(frozen=True)
class ActingContext:
    """One interaction's acting seat: built once, by the front, from one load of the game."""

    game: Game
    seat: int
    user_id: int
    locale: Any = None

    @property
    def state(self) -> GameState:
        """The game seen from this seat's own turn (its actions left, its Master, its side)."""
        assert self.game.state is not None
        return self.game.state.focused(self.seat)

    @property
    def player(self) -> PlayerState:
        return self.state.players[self.seat]

    @property
    def stamp(self) -> str:
        """What an offer made now relies on (``bot/core/play/seat_view.py``): its components carry it."""
        return stamp(self.game.state, self.game.revision, self.seat)

    @property
    def acting(self) -> bool:
        """Whether the seat holds the move now (either marker holder in Line Clear)."""
        return self.game.state is not None and self.seat in self.game.state.acting_seats

    def check(self, action: Action) -> None:
        """Refuse (with the engine's explanation) an action this seat could not play now: a
        preview or a Master draft shows only what Confirm can play."""
        assert self.game.state is not None
        try:
            engine.apply(self.game.state, action, player=self.seat)
        except engine.IllegalActionError as error:
            raise InvalidActionError(engine_text(error)) from error

    def legal_actions(self) -> list[Action]:
        return engine.legal_actions(self.state)

    def master_options(self) -> MasterOptions | None:
        return engine.master_options(self.state)

    def placements(self, card: str | None = None, shape: engine.Shape | None = None) -> list[Place]:
        return engine.placements_for(self.state.cards, self.player, card=card, shape=shape)

    def require_hint_allowed(self) -> None:
        """Refuse a hint the table does not allow: one opened with ``hints: False``, or a rated
        multiplayer table (a hint would make the game casual for everyone: docs/ratings.md)."""
        if not self.game.settings.hints:
            raise BadInputError(texts.HINTS_OFF)
        if refuses_hints(self.game):
            raise BadInputError(texts.HINTS_RATED)

    def hint_position(self) -> str:
        """The position a hint plans from: this seat's own turn (the strong policy plans for the
        state's current seat, which on a concurrent table may be the other holder), as this seat
        sees it (:func:`~bot.core.play.thinking.public_position`: the same visible position, the same
        hint, in any game)."""
        return serialisation.dumps(public_position(self.state, self.seat))

    def hint_seed(self) -> int:
        """The hint's seed, from the position as this seat sees it (a stable hint: issue 29)."""
        return position_seed(self.state, self.seat)


async def acting(
    manager: GameManager, channel_id: int, user_id: int, locale: Any = None, *,
    game_id: int | None = None, offered: str | None = None,
) -> ActingContext:
    """The context of a user who must hold the move (the refusal a player would get otherwise);
    with ``offered``, the stamp of the offer they answer, refused when what it relied on changed
    (:class:`~bot.errors.OutOfDateError`, carrying the fresh game)."""
    game, seat = await manager.check_turn(channel_id, user_id, game_id=game_id)
    if offered is not None:
        require_current(game, seat.seat, offered)
    return ActingContext(game, seat.seat, user_id, locale)


async def onlooker(manager: GameManager, channel_id: int | None, user_id: int,
                   locale: Any = None) -> ActingContext | None:
    """The context of a seated user whatever the turn (autocomplete suggests from it and simply
    offers nothing when there is no game or seat); None otherwise."""
    if channel_id is None:
        return None
    game = await manager.game_in_channel(channel_id)
    if game is None or game.state is None:
        return None
    seat = game.seat_of(user_id)
    if seat is None:
        return None
    return ActingContext(game, seat.seat, user_id, locale)


@dataclass(frozen=True)
class ReadingContext:
    """One interaction's reader of a table (``/projectl-describe``, ``/projectl-catchup``): the
    game as loaded once, and the reader's seat (None for a spectator), whatever the turn."""

    game: Game
    seat: int | None
    user_id: int
    locale: Any = None

    @property
    def state(self) -> GameState:
        assert self.game.state is not None
        return self.game.state

    def table_lines(self) -> list[Any]:
        """The table as one line per item, as the reader may see it (their own pile face up)."""
        return table_lines(self.state, self.game.names, self.seat)

    def mat_lines(self) -> list[Any]:
        """The reader's own mat as one line per item; refused for a spectator."""
        if self.seat is None:
            raise NotInGameError(texts.DESCRIBE_NOT_SEATED)
        return mat_lines(self.state, self.game.names, self.seat)

    async def catch_up(self, manager: GameManager) -> list[Any]:
        """What changed since the reader's last turn (``bot/core/wording/catchup.py``), titled, or
        the line saying nothing did: one read of the action log, replayed through the engine."""
        if self.seat is None:
            raise NotInGameError(texts.CATCHUP_NOT_SEATED)
        rows = await manager.log(self.game.id)
        return catch_up_block(self.state, replay_log(self.state, rows), self.seat, self.game.names)


async def reader(manager: GameManager, channel_id: int, user_id: int, locale: Any = None) -> ReadingContext:
    """The reading context of a user in a channel: its game must have started (else the
    refusal ``status`` gives: no game, or still in the lobby)."""
    game = await manager.game_in_channel(channel_id)
    if game is None:
        raise NoGameError(texts.NO_GAME)
    if game.state is None:
        raise WrongStageError(texts.NOT_STARTED)
    seat = game.seat_of(user_id)
    return ReadingContext(game, None if seat is None else seat.seat, user_id, locale)
