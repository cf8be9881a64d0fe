"""Puzzle cards: a 5×5 card with a recessed area, a point value and a reward.

A reward is a piece shape (:class:`~engine.pieces.Shape`), or with the Ghost Piece expansion a
level-up arrow (:class:`LevelUp`: ↑ raises one piece one level, ⇈ two steps). Both kinds answer
``value`` (the code in text and JSON), ``label``, ``level`` and ``size`` (cells of value, for the
catalogue's net-cell economy), so code that only weighs or names a reward need not tell them apart.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .pieces import GRID, Shape, UnknownShapeError, mask_to_text, parse_shape


class Colour(enum.Enum):
    WHITE = "white"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value


class LevelUp(enum.Enum):
    """A level-up reward (Ghost Piece expansion): raise pieces of your supply one level per arrow."""

    UP = "up"
    DOUBLE = "up2"

    @property
    def arrows(self) -> int:
        return 1 if self is LevelUp.UP else 2

    @property
    def level(self) -> int:
        """Worth about one level per arrow (RULINGS "Ghost Piece expansion")."""
        return self.arrows

    @property
    def size(self) -> int:
        """Net-cell worth for the catalogue economy: one cell per arrow."""
        return self.arrows

    @property
    def symbol(self) -> str:
        return "↑" if self is LevelUp.UP else "⇈"

    @property
    def label(self) -> str:
        return f"{self.symbol} (level up{' twice' if self is LevelUp.DOUBLE else ''})"

    def __str__(self) -> str:
        return self.value


class Ambassador(enum.Enum):
    """The Ambassador Pack's "reward" (RULINGS "The rest of the published game"): no piece, but
    once completed the card lies face up and may later be flipped for one Ambassador action."""

    ACTION = "ambassador"

    @property
    def level(self) -> int:
        """Worth about two levels to a player weighing rewards: one action placing a piece on
        every puzzle, on top of the turn's Master."""
        return 2

    @property
    def size(self) -> int:
        """Net-cell worth for the catalogue economy: one cell (a Master's worth of tempo, less
        than any piece), which puts the cards in their classes' net-cell ranges."""
        return 1

    @property
    def symbol(self) -> str:
        return "★"

    @property
    def label(self) -> str:
        return "Ambassador action"

    def __str__(self) -> str:
        return self.value


Reward = Shape | LevelUp | Ambassador

_LEVEL_UP_ALIASES = {"up": LevelUp.UP, "↑": LevelUp.UP, "^": LevelUp.UP,
                     "up2": LevelUp.DOUBLE, "⇈": LevelUp.DOUBLE, "^^": LevelUp.DOUBLE,
                     "upup": LevelUp.DOUBLE}


def parse_reward(text: str) -> Reward:
    """A piece code, or a level-up code (``up``/``↑``/``^``, ``up2``/``⇈``/``^^``)."""
    key = text.strip().lower()
    if key == Ambassador.ACTION.value:
        return Ambassador.ACTION
    if key in _LEVEL_UP_ALIASES:
        return _LEVEL_UP_ALIASES[key]
    try:
        return parse_shape(text)
    except UnknownShapeError:
        raise UnknownShapeError("parse.not_a_reward", text=f"'{text.strip()}'") from None


GHOST_EXPANSION = "ghost"
AMBASSADOR_EXPANSION = "ambassador"
PHOENIX_EXPANSION = "phoenix"
CARD_EXPANSIONS = (GHOST_EXPANSION, AMBASSADOR_EXPANSION, PHOENIX_EXPANSION)
"""The expansions a catalogue card may belong to (the catalogue's optional ``expansion`` field)."""


@dataclass(frozen=True, slots=True)
class PuzzleCard:
    """One puzzle card.

    ``recess`` is a 25-bit mask (see :mod:`engine.pieces`); ``reward`` is what completing the card
    during play gives (never during Finishing Touches): a piece from the reserve, or level-ups.
    """

    id: str
    colour: Colour
    points: int
    reward: Reward
    recess: int
    tag: str | None = None
    """The expansion the card is declared to belong to (the catalogue's ``expansion`` field),
    for cards whose reward does not say it: Phoenix's 6-point cards. None: read from the reward."""

    @property
    def size(self) -> int:
        return self.recess.bit_count()

    @property
    def expansion(self) -> str | None:
        """The expansion this card belongs to: its declared ``tag`` (Phoenix), else ``"ghost"``
        for ghost-piece and level-up rewards (only those cards need the expansion's components),
        ``"ambassador"`` for an Ambassador action, None for a base card."""
        if self.tag is not None:
            return self.tag
        if isinstance(self.reward, Ambassador):
            return AMBASSADOR_EXPANSION
        if isinstance(self.reward, LevelUp) or self.reward.level >= 5:
            return GHOST_EXPANSION
        return None

    def recess_rows(self) -> list[str]:
        """The recess drawn as 5 strings, '#' for a recessed cell: the catalogue file format."""
        return [
            "".join("#" if self.recess >> (row * GRID + col) & 1 else "." for col in range(GRID))
            for row in range(GRID)
        ]

    def describe(self) -> str:
        return (
            f"{self.id} ({self.colour}, {self.points} pt, reward {self.reward.value}, "
            f"{self.size} cells: {mask_to_text(self.recess)})"
        )
