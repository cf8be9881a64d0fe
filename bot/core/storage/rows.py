"""The rows the store hands out and takes in: frozen dataclasses, never cursors, so no caller can
hold a transaction open. Their own module because every store of this package (db.py and the
stores beside it) and the manager above it speak in these rows, while only db.py runs the SQL
that fills them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GAME_STATUSES = ("lobby", "active", "finished", "cancelled")
"""The values of :attr:`GameRow.status`."""
OPEN_STATUSES = ("lobby", "active")
"""The statuses of a game that still changes: one such game per channel (a unique index)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    user_id: int | None
    display_name: str
    policy: str | None
    joined_at: str

    @property
    def is_policy(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    status: str
    host_id: int
    variant: str
    max_players: int
    options: dict[str, Any]
    seed: int
    state: str | None
    state_schema: int | None
    revision: int
    lobby_message_id: int | None
    table_message_id: int | None
    created_at: str
    updated_at: str
    ended_at: str | None
    seats: tuple[SeatRow, ...]
    catalogue_key: str | None = None
    """The catalogue ``state`` was stored without (migration 0006); None: ``state`` lists its cards."""
    catalogue: str | None = None
    """That catalogue's cards as JSON text (``catalogues.cards``), or None."""
    channel_private: bool | None = None
    """Whether the game's channel was private when it opened (migration 0015); None: not known."""
    parent_id: int | None = None
    """The channel the game's channel belongs to (migration 0018): a thread's parent channel,
    else the channel itself; None: not known (opened before 0018, not looked up yet)."""


@dataclass(frozen=True, slots=True)
class StoredCatalogue:
    """A card catalogue as the store keeps it: once, under its content key, for every game whose
    state names it (``engine.serialisation.catalogue_key`` / ``catalogue_text``)."""

    key: str
    cards: str


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    user_id: int | None
    action: str
    revision: int
    created_at: str
    planned: bool = False
    """Played by the seat's plan (migration 0013), not tapped at the moment."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    display_name: str
    mention_on_turn: bool
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to add: a human (``user_id``) or a policy seat (``policy``)."""

    display_name: str
    user_id: int | None = None
    policy: str | None = None
