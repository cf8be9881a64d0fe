"""What the store raises: refusals the manager turns into player messages."""

from __future__ import annotations


class StorageError(Exception):
    """Base class for storage refusals the manager turns into player messages."""


class ChannelBusyError(StorageError):
    """The channel already has a game in the lobby or in play."""


class StaleRevisionError(StorageError):
    """The game changed since the caller loaded it (another action was committed first)."""


class PlanChangedError(StorageError):
    """A planned step's progress found no plan to write to: the seat's plan was replaced or
    cancelled (in another process or task) after it was read, so the step, which came from the
    old plan, was not committed either."""


class GameNotFoundError(StorageError):
    """No game with that id."""


class StorageUnavailableError(StorageError):
    """The database cannot be reached or written right now (PostgreSQL down or restarting, its
    connection lost): the request changed nothing, and a later one may succeed."""
