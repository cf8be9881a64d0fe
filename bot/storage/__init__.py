"""Persistence for the bot: SQLite through aiosqlite. The only package that speaks SQL."""

from .db import (
    GAME_STATUSES,
    OPEN_STATUSES,
    PLAYER_PREFERENCES,
    ActionRow,
    ChannelBusyError,
    GameNotFoundError,
    GameRow,
    NewSeat,
    PlayerRow,
    SeatRow,
    StaleRevisionError,
    Storage,
    StorageError,
)

__all__ = [
    "GAME_STATUSES", "OPEN_STATUSES", "PLAYER_PREFERENCES", "ActionRow", "ChannelBusyError",
    "GameNotFoundError", "GameRow", "NewSeat", "PlayerRow", "SeatRow", "StaleRevisionError",
    "Storage", "StorageError",
]
