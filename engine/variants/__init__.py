"""Variants plug into the shared rules through the :class:`Variant` hooks.

A variant owns the puzzle market and the turn order (base rows, Solo, Line Clear); expansions
(:mod:`engine.expansions`) plug in beside it. Add a variant by subclassing :class:`Variant` and
registering an instance here.
"""

from __future__ import annotations

from ..errors import IllegalActionError
from .base import RowsGame, Variant, rank_by_tiebreaks
from .line_clear import LineClearGame
from .solo import SoloGame

VARIANTS: dict[str, Variant] = {"base": RowsGame(), "solo": SoloGame(), "lineclear": LineClearGame()}


def variant_for(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise IllegalActionError("setup.unknown_variant", name=name, variants=known) from None


__all__ = [
    "VARIANTS", "LineClearGame", "RowsGame", "SoloGame", "Variant", "rank_by_tiebreaks",
    "variant_for",
]
