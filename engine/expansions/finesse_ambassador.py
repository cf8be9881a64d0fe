"""The Finesse Ambassador Pack (with Finesse): six more Set C tiles, drawn with the other ten.

The row's six C tiles are drawn from all sixteen (fifteen in Solo: the Recycle tile is removed
before the draw, Solo having no Recycle). The pack's Set A/B tiles are not published in detail and
are left out. Credits follow the Finesse rules: each credit is gained one at a time (the empty-bank
rule applies to each), inactive until the end of the turn. The six (C11–C16):

* blue, 4 credits: at the end of your turn you have no unfinished puzzle (holding none pays);
* pink, 2 credits: whenever you Recycle;
* blue, 4 credits: at the end of your turn you have a piece of every level 1–4 (ghosts do not
  count), in your supply or on your unfinished puzzles;
* pink, 1 credit: after each Insert (paid after the Insert's cost);
* blue, 4 credits: at the end of your turn no two of your pieces (supply and unfinished puzzles)
  have the same shape (read literally: holding no piece at all pays);
* blue, 3 credits: at the end of your turn none of your pieces is of level 1 or 2 (likewise).

The tiles pay through their own :class:`~engine.expansions.finesse.TileRule` functions; this
expansion only registers them and checks that Finesse is on.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Insert
from ..events import ActionInserted, Event, RowRecycled
from ..pieces import BASE_SHAPES, SHAPES
from ..state import PlayerState
from .base import Expansion, register
from .finesse import BLUE, PINK, CreditReason, Tile, TileRule, register_tiles

OPTION = "finesse_ambassador"


def pieces_owned(player: PlayerState) -> list[int]:
    """How many pieces of each shape (by index) the player has in supply or on unfinished puzzles."""
    counts = list(player.supply)
    for puzzle in player.puzzles:
        for piece in puzzle.pieces:
            counts[piece.shape.index] += 1
    return counts


def _times(reason: str, credits: int) -> list[str]:
    return [CreditReason(reason) for _ in range(credits)]


def _no_unfinished(player: PlayerState) -> list[str]:
    return _times("no_unfinished", 4) if not player.puzzles else []


def _every_level(player: PlayerState) -> list[str]:
    owned = pieces_owned(player)
    levels = {s.level for s in BASE_SHAPES if owned[s.index]}
    return _times("every_level", 4) if levels >= {1, 2, 3, 4} else []


def _all_different(player: PlayerState) -> list[str]:
    return _times("all_different", 4) if all(n <= 1 for n in pieces_owned(player)) else []


def _no_small(player: PlayerState) -> list[str]:
    owned = pieces_owned(player)
    return _times("no_small", 3) if not any(owned[s.index] for s in SHAPES if s.level <= 2) else []


def _recycled(seat: int, action: Action, events: Sequence[Event]) -> list[str]:
    recycled = sum(isinstance(e, RowRecycled) for e in events)
    return _times("recycled", 2 * recycled)


def _inserted(seat: int, action: Action, events: Sequence[Event]) -> list[str]:
    if not isinstance(action, Insert):
        return []
    return _times("inserted", sum(isinstance(e, ActionInserted) and e.seat == seat for e in events))


RULES: dict[str, TileRule] = {
    "no_unfinished": TileRule(
        "no unfinished puzzle", "+4 credits at the end of your turn if you have no unfinished puzzle.",
        blue=_no_unfinished),
    "recycle": TileRule("Recycle", "+2 credits each time you Recycle, at once.", pink=_recycled),
    "every_level": TileRule(
        "every level", "+4 credits at the end of your turn if you have a piece of every level 1-4 "
        "(ghosts do not count), in your supply or on your unfinished puzzles.", blue=_every_level),
    "insert": TileRule("Insert", "+1 credit after each Insert, at once.", pink=_inserted),
    "all_different": TileRule(
        "no two alike", "+4 credits at the end of your turn if no two of your pieces (supply and "
        "unfinished puzzles) have the same shape.", blue=_all_different),
    "no_small": TileRule(
        "no small pieces", "+3 credits at the end of your turn if none of your pieces (supply and "
        "unfinished puzzles) is of level 1 or 2.", blue=_no_small),
}
"""The pack's six tile rules, by name (C11–C16 in this order)."""

PACK_TILES: tuple[Tile, ...] = (
    Tile("C11", BLUE, "no_unfinished", pack=OPTION),
    Tile("C12", PINK, "recycle", pack=OPTION, in_solo=False),
    Tile("C13", BLUE, "every_level", pack=OPTION),
    Tile("C14", PINK, "insert", pack=OPTION),
    Tile("C15", BLUE, "all_different", pack=OPTION),
    Tile("C16", BLUE, "no_small", pack=OPTION),
)

register_tiles(RULES, PACK_TILES)


class FinesseAmbassadorExpansion(Expansion):
    """Only the option and its requirement: the tiles are Finesse's, drawn when this is on."""

    name = OPTION
    option = OPTION
    order = 50
    requires = ("finesse",)
    requires_refusal = "setup.finesse_ambassador_needs_finesse"


register(FinesseAmbassadorExpansion())
