"""Puzzle cards: a 5×5 card with a recessed area, a point value and a reward piece."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .pieces import GRID, Shape, mask_to_text


class Colour(enum.Enum):
    WHITE = "white"
    BLACK = "black"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class PuzzleCard:
    """One puzzle card.

    ``recess`` is a 25-bit mask (see :mod:`engine.pieces`); ``reward`` is the piece taken from the
    reserve when the card is completed during play (never during Finishing Touches).
    """

    id: str
    colour: Colour
    points: int
    reward: Shape
    recess: int

    @property
    def size(self) -> int:
        return self.recess.bit_count()

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
