"""Persistence for the bot: SQLite through aiosqlite (the embedded default) or PostgreSQL
through asyncpg (postgres.py, for several processes). The only package that speaks SQL."""

from bot.core.storage.days import DaysStore, ReminderPrefsRow, TurnKey, TurnRow, UndoneRow
from bot.core.storage.db import PLAYER_PREFERENCES, Storage
from bot.core.storage.errors import (
    ChannelBusyError,
    GameNotFoundError,
    StaleRevisionError,
    StorageError,
    StorageUnavailableError,
)
from bot.core.storage.opening import StorageOpenError
from bot.core.storage.rows import (
    GAME_STATUSES,
    OPEN_STATUSES,
    ActionRow,
    GameRow,
    NewSeat,
    PlayerRow,
    SeatRow,
    StoredCatalogue,
)

__all__ = [
    "GAME_STATUSES", "OPEN_STATUSES", "PLAYER_PREFERENCES", "ActionRow", "ChannelBusyError",
    "GameNotFoundError", "GameRow", "NewSeat", "PlayerRow", "SeatRow", "StaleRevisionError",
    "Storage", "StorageError", "StorageUnavailableError", "StoredCatalogue", "StorageOpenError",
    # play over days (migration 0002, bot/core/storage/days.py)
    "DaysStore", "ReminderPrefsRow", "TurnKey", "TurnRow", "UndoneRow",
]
