"""The rules every variant shares: pieces, placing, completing puzzles, turns and the end.

Variants (``engine.variants``) own the puzzle market and what happens between turns; everything
here is common to all of them. Functions take a :class:`~engine.work.Work` and change it, raising
an :class:`~engine.errors.IllegalActionError` before changing anything the player would notice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from . import decisions
from .actions import Master, Place, TakeLevelOne, Upgrade
from .errors import (
    MasterError,
    PieceNotInSupplyError,
    PlacementError,
    PuzzleNotFoundError,
    ReserveEmptyError,
    UpgradeNotAllowedError,
    WrongPhaseError,
)
from .events import (
    EndTriggered,
    PieceGained,
    PiecePlaced,
    PieceReturned,
    PuzzleCompleted,
)
from .expansions.base import expansions_for
from .pieces import SHAPES, SHAPES_BY_LEVEL, Shape, mask_to_text, parse_shape, shape_of_mask
from .state import DonePuzzle, GameState, OpenPuzzle, PendingDecision, Phase, Placed
from .work import Work

MAX_UPGRADE_LEVEL = 4


# -- the reserve -------------------------------------------------------------------------------


def substitutes(reserve: list[int] | tuple[int, ...], wanted: Shape) -> tuple[Shape, ...]:
    """The shapes a player may receive when they should get ``wanted``, in shape order.

    ``(wanted,)`` while it is in stock. Otherwise the empty-reserve rule: the other shapes of the
    same level that are in stock; if that level is empty, the shapes of the next higher level
    that has stock (never beyond level 4); if none, the lower levels' shapes in stock. Empty when
    the reserve has nothing at all. When more than one shape is returned, the player chooses.
    """
    if reserve[wanted.index] > 0:
        return (wanted,)
    level = wanted.level
    # A ghost (level 5) is never a substitute for a lower piece, and a ghost reward with no ghost
    # left falls back to level 4 first: the highest level the reserve's substitution reaches.
    order = [level] + list(range(level + 1, MAX_UPGRADE_LEVEL + 1))
    if level > MAX_UPGRADE_LEVEL:
        order.append(MAX_UPGRADE_LEVEL)
    for candidate_level in order:
        shapes = tuple(s for s in SHAPES_BY_LEVEL[candidate_level] if reserve[s.index] > 0)
        if shapes:
            return shapes
    return tuple(
        s for lower in range(1, level) for s in SHAPES_BY_LEVEL[lower] if reserve[s.index] > 0
    )


def give_piece(w: Work, seat: int, wanted: Shape, reason: str) -> None:
    """Give ``seat`` the piece it should receive, or ask which substitute it wants.

    One possible piece is given at once (the event names the piece wanted when it differs); with
    several the player chooses (a ``substitute`` pending decision); with none nothing is given.
    """
    options = substitutes(w.reserve, wanted)
    if len(options) == 1:
        _hand_over(w, seat, options[0], reason, wanted)
    elif options:
        decisions.ask(w, PendingDecision(
            seat, SUBSTITUTE, tuple(s.value for s in options), f"{reason} {wanted.value}"
        ))


def _hand_over(w: Work, seat: int, got: Shape, reason: str, wanted: Shape) -> None:
    w.reserve[got.index] -= 1
    w.change_supply(seat, got, +1)
    w.emit(PieceGained(seat, got, reason, None if got is wanted else wanted))


SUBSTITUTE = "substitute"


def _substitute_wanted(decision: PendingDecision) -> tuple[str, Shape]:
    reason, wanted = decision.about.split()
    return reason, parse_shape(wanted)


def _substitute_refresh(w: Work, decision: PendingDecision) -> PendingDecision | None:
    reason, wanted = _substitute_wanted(decision)
    options = substitutes(w.reserve, wanted)
    if len(options) == 1:
        _hand_over(w, decision.seat, options[0], reason, wanted)
        return None
    if not options:
        return None
    return replace(decision, options=tuple(s.value for s in options))


def _substitute_resolve(w: Work, decision: PendingDecision, option: str) -> None:
    reason, wanted = _substitute_wanted(decision)
    _hand_over(w, decision.seat, parse_shape(option), reason, wanted)


def _substitute_prompt(decision: PendingDecision) -> str:
    reason, wanted = _substitute_wanted(decision)
    why = {"reward": "your reward", "level1": "your level-1 piece"}.get(reason, reason)
    return f"the reserve has no {wanted.label} left for {why}: pick another piece"


decisions.register(decisions.DecisionKind(
    SUBSTITUTE, resolve=_substitute_resolve, prompt=_substitute_prompt, refresh=_substitute_refresh,
))


def take_level_one(w: Work, action: TakeLevelOne) -> None:
    if not substitutes(w.reserve, Shape.MONO):
        raise ReserveEmptyError("reserve.empty")
    give_piece(w, w.current, Shape.MONO, "level1")


def upgrade_target_level(reserve: list[int] | tuple[int, ...], give: Shape) -> int | None:
    """The only higher level an upgrade from ``give`` may reach: the next one with stock."""
    for level in range(give.level + 1, MAX_UPGRADE_LEVEL + 1):
        if any(reserve[s.index] for s in SHAPES_BY_LEVEL[level]):
            return level
    return None


def check_upgrade(reserve: list[int] | tuple[int, ...], supply: tuple[int, ...], action: Upgrade) -> None:
    give, take = action.give, action.take
    if supply[give.index] <= 0:
        raise PieceNotInSupplyError("supply.none_to_return", piece=give)
    if take.level > MAX_UPGRADE_LEVEL:
        raise UpgradeNotAllowedError("upgrade.to_ghost")
    if take is give:
        raise UpgradeNotAllowedError("upgrade.same_shape")
    if reserve[take.index] <= 0:
        raise ReserveEmptyError("reserve.none_of", piece=take)
    if take.level > give.level:
        allowed = upgrade_target_level(reserve, give)
        if take.level != allowed:
            raise UpgradeNotAllowedError("upgrade.level", level=give.level, allowed=allowed)


def upgrade(w: Work, action: Upgrade) -> None:
    check_upgrade(w.reserve, w.player.supply, action)
    seat = w.current
    w.change_supply(seat, action.give, -1)
    w.reserve[action.give.index] += 1
    w.emit(PieceReturned(seat, action.give))
    w.reserve[action.take.index] -= 1
    w.change_supply(seat, action.take, +1)
    w.emit(PieceGained(seat, action.take, "upgrade"))


# -- placing -----------------------------------------------------------------------------------


def check_placement(state_or_work: GameState | Work, seat: int, place: Place) -> OpenPuzzle:
    """Validate ``place`` for ``seat`` and return the puzzle it goes on."""
    player = state_or_work.players[seat]
    puzzle = player.puzzle(place.card)
    if puzzle is None:
        yours = ", ".join(p.card for p in player.puzzles) or "none"
        raise PuzzleNotFoundError("place.no_such_puzzle", card=place.card, puzzles=yours)
    if player.supply[place.shape.index] <= 0:
        raise PieceNotInSupplyError("supply.no_piece", piece=place.shape)
    if shape_of_mask(place.mask) is not place.shape:
        raise PlacementError("cells.not_the_piece", cells=mask_to_text(place.mask),
                             article=place.shape.article, piece=place.shape)
    recess = state_or_work.card(place.card).recess
    outside = place.mask & ~recess
    if outside:
        raise PlacementError("place.outside", cells=mask_to_text(outside), card=place.card)
    covered = place.mask & puzzle.filled
    if covered:
        raise PlacementError("place.occupied", cells=mask_to_text(covered), card=place.card)
    return puzzle


def put_piece(w: Work, seat: int, place: Place, puzzle: OpenPuzzle, *, finishing: bool) -> None:
    w.change_supply(seat, place.shape, -1)
    w.set_puzzle(seat, OpenPuzzle(puzzle.card, puzzle.pieces + (Placed(place.shape, place.mask),)))
    w.emit(PiecePlaced(seat, place.card, place.shape, place.mask, finishing))


def place(w: Work, action: Place) -> None:
    finishing = w.phase is Phase.FINISHING
    puzzle = check_placement(w, w.current, action)
    put_piece(w, w.current, action, puzzle, finishing=finishing)
    if finishing:
        w.set_player(w.current, finishing_pieces=w.player.finishing_pieces + 1)
    complete_puzzles(w, w.current, finishing=finishing)


def master(w: Work, action: Master) -> None:
    if w.phase is not Phase.PLAY:
        raise WrongPhaseError("master.finishing")
    if w.master_used:
        raise MasterError("master.used")
    check_master_placements(w, action.placements, "master")
    place_at_once(w, action.placements)
    w.master_used = True
    complete_puzzles(w, w.current, finishing=False)


MASTER_LIKE_REFUSALS: dict[str, tuple[str, str, str]] = {
    "master": ("master.empty", "master.one_per_puzzle", "master.supply"),
    "ambassador": ("ambassador.empty", "ambassador.one_per_puzzle", "ambassador.supply"),
}
"""The refusals of a Master-like action's placements (no piece, two on a puzzle, too few pieces)."""


def check_master_placements(w: Work, placements: tuple[Place, ...], keys: str) -> None:
    """A Master's placements (also the Ambassador action's, ``keys`` naming whose refusals):
    at least one, at most one per puzzle, every piece in the supply as the action starts, each
    placement legal."""
    empty, one_per_puzzle, short = MASTER_LIKE_REFUSALS[keys]
    if not placements:
        raise MasterError(empty)
    cards = [p.card for p in placements]
    if len(set(cards)) != len(cards):
        raise MasterError(one_per_puzzle)
    start_supply = w.player.supply
    needed = [0] * len(start_supply)
    for p in placements:
        needed[p.shape.index] += 1
    for shape in SHAPES:
        if needed[shape.index] > start_supply[shape.index]:
            have = start_supply[shape.index]
            raise PieceNotInSupplyError(short, needed=needed[shape.index], piece=shape, have=have)
    for p in placements:
        check_placement(w, w.current, p)


def place_at_once(w: Work, placements: tuple[Place, ...]) -> None:
    """Put checked placements down together (completions are the caller's, after them all)."""
    seat = w.current
    for p in placements:
        put_piece(w, seat, p, check_placement(w, seat, p), finishing=False)


# -- completing --------------------------------------------------------------------------------


def complete_puzzles(w: Work, seat: int, *, finishing: bool) -> None:
    """Complete every full puzzle of ``seat`` — the end of the action that filled them."""
    player = w.players[seat]
    full = [p for p in player.puzzles if p.filled == w.card(p.card).recess]
    if not full:
        return
    remaining = tuple(p for p in player.puzzles if p not in full)
    completed = list(player.completed)
    supply = list(player.supply)
    for puzzle in full:
        if finishing:
            completed.append(DonePuzzle(puzzle.card, True, puzzle.pieces))
        else:
            for piece in puzzle.pieces:
                supply[piece.shape.index] += 1
            completed.append(DonePuzzle(puzzle.card))
    w.set_player(seat, puzzles=remaining, completed=tuple(completed), supply=tuple(supply))
    done = [w.card(puzzle.card) for puzzle in full]
    for card in done:
        w.emit(PuzzleCompleted(seat, card.id, card.points, finishing))
        if not finishing and isinstance(card.reward, Shape):
            give_piece(w, seat, card.reward, "reward")
    if not finishing:
        # All piece rewards first, then whatever the expansions add (level-up arrows).
        for expansion in expansions_for(w.options):
            expansion.after_rewards(w, seat, done)


def trigger_end(w: Work, final_round: Callable[[Work], int | None]) -> None:
    """The end is triggered: finish this round, then play one more. The event announces the
    round that will really be the last, ``final_round(w)`` (the variant's: Line Clear ends on the
    first player's second marker, and Finesse may end play before the round after)."""
    if w.last_round is None:
        w.last_round = w.round + 1
        announced = final_round(w)
        w.emit(EndTriggered(w.round, w.last_round if announced is None else announced))


# -- scoring -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One player's final score, itemised as the results image shows it."""

    seat: int
    completed_points: int
    finishing_penalty: int
    unfinished_penalty: int
    completed_count: int
    supply_left: int

    @property
    def total(self) -> int:
        return self.completed_points - self.finishing_penalty - self.unfinished_penalty


def score_line(state: GameState, seat: int) -> ScoreLine:
    player = state.players[seat]
    unfinished = (
        sum(state.cards[p.card].points for p in player.puzzles)
        if state.options.unfinished_penalty
        else 0
    )
    return ScoreLine(
        seat=seat,
        completed_points=player.banked_points
        + sum(state.cards[d.card].points for d in player.completed),
        finishing_penalty=player.finishing_pieces,
        unfinished_penalty=unfinished,
        completed_count=player.banked_cards + len(player.completed),
        supply_left=player.supply_size,
    )


def score_lines(state: GameState) -> tuple[ScoreLine, ...]:
    return tuple(score_line(state, seat) for seat in range(len(state.players)))
