"""Why an action was refused.

Every refusal is an :class:`IllegalActionError` subclass whose message is written for the player
("Your supply has no T4 piece."). Callers can catch the base class to show the message, or a
subclass to react to one case (the bot treats :class:`NotYourTurnError` differently, for instance).
Raising never leaves a state half-changed: states are immutable and ``apply`` builds a new one.

Each refusal is raised with a key of :data:`engine.messages.MESSAGES` and its fields
(``PlacementError("place.occupied", cells="A1", card="W07")``): ``str(error)`` is the English,
and ``error.key`` / ``error.fields`` let a front end say it in another language.
"""

from __future__ import annotations

from typing import Any

from .messages import english

QUOTE_LIMIT = 24
"""Characters of a player's input a refusal repeats; a 6,000-character option is not echoed."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` in quotes for a refusal, cut to its first ``limit`` characters (then "…")."""
    text = text.strip()
    return f"'{text}'" if len(text) <= limit else f"'{text[:limit]}…'"


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class Keyed(Exception):
    """An error whose message is :data:`engine.messages.MESSAGES` ``[key]`` filled in with
    ``fields`` (English); a translation starts from the key and fields instead."""

    key: str
    fields: dict[str, Any]

    def __init__(self, key: str, /, **fields: Any) -> None:
        super().__init__(english(key, fields))
        self.key, self.fields = key, fields

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (process pools) keep the key and fields
        return (_rebuild, (type(self), self.key, self.fields))

    def again(self, cls: type[Keyed]) -> Keyed:
        """The same refusal as another error class (a cell error becomes a syntax error)."""
        return cls(self.key, **self.fields)


def _rebuild(cls: type[Keyed], key: str, fields: dict[str, Any]) -> Keyed:
    return cls(key, **fields)


class IllegalActionError(Keyed, EngineError):
    """The action is not allowed in this state. ``str(error)`` is a sentence for the player."""


class ActionSyntaxError(IllegalActionError):
    """The text could not be read as an action."""


class NotYourTurnError(IllegalActionError):
    """Someone other than the current player tried to act."""


class GameOverError(IllegalActionError):
    """The game has ended; nothing more can be done."""


class WrongPhaseError(IllegalActionError):
    """The action exists but not in this phase (e.g. Master during Finishing Touches)."""


class PieceNotInSupplyError(IllegalActionError):
    """The player does not have the piece they want to use or return."""


class ReserveEmptyError(IllegalActionError):
    """The reserve cannot provide what the action needs."""


class UpgradeNotAllowedError(IllegalActionError):
    """The requested exchange breaks the upgrade rules."""


class PuzzleNotFoundError(IllegalActionError):
    """The named puzzle is not one of the player's unfinished puzzles, or not on the table."""


class PuzzleLimitError(IllegalActionError):
    """The player already has the maximum number of unfinished puzzles."""


class BlackLimitError(IllegalActionError):
    """After the end is triggered, only one black puzzle may be taken per turn."""


class EmptySlotError(IllegalActionError):
    """The chosen row or grid position, or deck, has no card."""


class PlacementError(IllegalActionError):
    """The cells do not describe a legal placement of that piece on that puzzle."""


class MasterError(IllegalActionError):
    """The Master action breaks one of its own rules."""


class ActionNotAvailableError(IllegalActionError):
    """This variant does not have that action (e.g. Recycle in Solo)."""


class StateFormatError(EngineError):
    """Stored state JSON is malformed or from an unknown schema version."""


class GhostError(IllegalActionError):
    """A Ghost action (Ghost Piece expansion) that breaks its rules: not a ghost, pieces that do
    not tile it, two new pieces on one puzzle."""
