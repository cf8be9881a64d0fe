"""A Master draft's rules: the placements a player adds one by one before confirming Master,
each addition checked against the engine for their seat, kept by storage (migration 0008) so
master-confirm plays it after a restart too, and handed out only at the seat's stamp it was built
at (``bot/core/play/seat_view.py``); the storage forgets a seat's draft with its next commit and a
game's drafts when its position changes otherwise. Its own module because a draft is the one
thing a player builds across several taps without committing; the manager only takes the
channel's lock and finds the seat (``GameManager.master_add`` and the rest).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import engine
from bot.core.errors import BadInputError, InvalidActionError, StaleError
from bot.core.games import Game, MasterDraft
from bot.core.play.seat_view import stamp
from bot.core.storage import StaleRevisionError as _StorageStale
from bot.core.storage import Storage
from bot.core.wording import texts
from bot.core.wording.refusals import engine_text
from engine import IllegalActionError, Place

log = logging.getLogger(__name__)


def read_placement(place: Place | str) -> Place:
    """A placement typed as text read as one (a clear refusal if it is not), or ``place`` as given."""
    if isinstance(place, str):
        try:
            place = engine.parse_placement(place)
        except IllegalActionError as error:
            raise BadInputError(engine_text(error)) from error
    return place


async def add_placement(storage: Storage, game: Game, seat: int, user_id: int, place: Place) -> MasterDraft:
    """The user's draft for ``seat`` with ``place`` added, checked legal as a whole and stored (the
    caller holds the channel's lock)."""
    draft = await stored_draft(storage, game, seat, user_id)
    if any(p.card == place.card for p in draft.placements):
        raise InvalidActionError(texts.MASTER_SAME_PUZZLE.format(card=place.card))
    candidate = replace(draft, placements=(*draft.placements, place))
    assert game.state is not None
    try:
        engine.apply(game.state, candidate.action, player=seat)
    except IllegalActionError as error:
        raise InvalidActionError(engine_text(error)) from error
    try:
        await storage.save_master_draft(game.id, game.revision, seat=seat,
                                        user_id=user_id, placements=_draft_text(candidate),
                                        stamp=candidate.stamp)
    except _StorageStale as error:  # another process committed to this game meanwhile
        raise StaleError(texts.STALE_BUTTON) from error
    return candidate


async def stored_draft(storage: Storage, game: Game, seat: int, user_id: int) -> MasterDraft:
    """The user's stored draft for the game as it stands; an empty one when they have none at
    the seat's stamp (or its text no longer reads as placements)."""
    seen = stamp(game.state, game.revision, seat)
    text = await storage.master_draft(game.id, seat, user_id, seen)
    if text is not None:
        try:
            placements = tuple(engine.parse_placement(part) for part in text.split(";"))
        except IllegalActionError:
            log.warning("unreadable Master draft in game %s, seat %s: %r", game.id, seat, text)
        else:
            return MasterDraft(game.id, seat, game.revision, placements, seen, game)
    return MasterDraft(game.id, seat, game.revision, (), seen, game)


def _draft_text(draft: MasterDraft) -> str:
    """A draft's placements as storage keeps them: in the order the player added them (the Master
    action itself sorts them by puzzle), separated as Master's text separates them."""
    return "; ".join(place.placement_text() for place in draft.placements)
