"""Level-up rewards (Ghost Piece expansion) as pending decisions of kind ``level_up``.

Each arrow is one decision: ↑ queues one, ⇈ two in sequence (so "the same piece twice" is the
second decision raising the piece the first one produced). A decision's options are brought up
to date just before it is asked (:func:`engine.decisions.settle`), from the supply and the
reserve as they then stand — the pieces the completed cards gave back and every piece reward of
the action are already in the supply, since rewards are resolved first. Options are
``"<piece> to <piece>"`` (exactly one level up; a level-4 piece may become a ghost) and
``"decline"``; an arrow with nothing to raise is lost (``LevelUpLost``) without asking.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..decisions import DecisionKind, ask, register
from ..events import LevelledUp, LevelUpDeclined, LevelUpLost, PieceGained, PieceReturned
from ..pieces import BASE_SHAPES, SHAPES_BY_LEVEL, Shape, parse_shape
from ..state import PendingDecision
from ..work import Work

KIND = "level_up"
DECLINE = "decline"


def level_up_options(reserve: Sequence[int], supply: Sequence[int]) -> list[str]:
    """One arrow's choices, as canonical texts: ``"<piece> to <piece>"`` for every piece in the
    supply (levels 1–4) and every shape exactly one level up that the reserve still has (level 4
    → a ghost is allowed), then ``"decline"``. Only ``["decline"]`` when nothing can be raised:
    the arrow is then lost."""
    options = [
        f"{give.value} to {take.value}"
        for give in BASE_SHAPES if supply[give.index] > 0
        for take in SHAPES_BY_LEVEL[give.level + 1] if reserve[take.index] > 0
    ]
    return [*options, DECLINE]


def parse_level_up(option: str) -> tuple[Shape, Shape] | None:
    """``"L3 to O4"`` -> (L3, O4); ``"decline"`` -> None."""
    if option == DECLINE:
        return None
    give, _, take = option.split()
    return parse_shape(give), parse_shape(take)


def queue_arrows(w: Work, seat: int, arrows: int) -> None:
    """Queue one decision per arrow for ``seat`` (after the decisions already waiting)."""
    for number in range(arrows):
        ask(w, PendingDecision(seat, KIND, (DECLINE,), about=f"arrow {number + 1} of {arrows}"))


def _refresh(w: Work, decision: PendingDecision) -> PendingDecision | None:
    options = tuple(level_up_options(w.reserve, w.players[decision.seat].supply))
    if options == (DECLINE,):
        w.emit(LevelUpLost(decision.seat))
        return None
    return PendingDecision(decision.seat, KIND, options, decision.about)


def _resolve(w: Work, decision: PendingDecision, option: str) -> None:
    seat = decision.seat
    raise_ = parse_level_up(option)
    if raise_ is None:
        w.emit(LevelUpDeclined(seat))
        return
    give, take = raise_
    w.change_supply(seat, give, -1)
    w.reserve[give.index] += 1
    w.emit(PieceReturned(seat, give))
    w.reserve[take.index] -= 1
    w.change_supply(seat, take, +1)
    w.emit(PieceGained(seat, take, "level-up"))
    w.emit(LevelledUp(seat, give, take))


def _prompt(decision: PendingDecision) -> str:
    return (
        "Level-up reward: raise one piece of your supply exactly one level (a level-4 piece may "
        "become a ghost), or decline"
    )


register(DecisionKind(KIND, _resolve, _prompt, _refresh, when_skipped=lambda _decision: DECLINE))
