"""Persistence for the bot: SQLite through aiosqlite. The only package that speaks SQL."""

from .days import DaysStore, ReminderPrefsRow, TurnKey, TurnRow, UndoneRow
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
    StoredCatalogue,
)

__all__ = [
    "GAME_STATUSES", "OPEN_STATUSES", "PLAYER_PREFERENCES", "ActionRow", "ChannelBusyError",
    "GameNotFoundError", "GameRow", "NewSeat", "PlayerRow", "SeatRow", "StaleRevisionError",
    "Storage", "StorageError", "StoredCatalogue",
    # play over days (migration 0002, bot/storage/days.py)
    "DaysStore", "ReminderPrefsRow", "TurnKey", "TurnRow", "UndoneRow",
]
