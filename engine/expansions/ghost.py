"""The Ghost Piece expansion: level-5 ghost pieces, the Ghost action and level-up rewards.

* 30 ghost pieces (P, U and L pentominoes, 10 of each whatever the ``reserve`` option) join the
  reserve. A ghost is gained only as a reward (a card's, or a level-up from level 4), never by
  Upgrade; otherwise it is an ordinary piece (placed, exchanged down by Upgrade).
* 24 cards of our own design (12 white, 12 black) join the decks: ghost rewards, ↑ and ⇈.
* The Ghost action (:class:`~engine.actions.GhostSplit`): return a ghost and take two or more
  level 1–4 pieces that tile its shape exactly, all in stock (no substitution); each new piece may
  be placed at once, at most one per puzzle; completions are checked at the end of the action.
* Level-up rewards (↑ one arrow, ⇈ two) are resolved after every piece reward of the action, one
  arrow at a time (see :mod:`engine.expansions.level_up`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, product

from ..actions import Action, GhostSplit, Place
from ..cards import LevelUp, PuzzleCard
from ..errors import (
    GhostError,
    PieceNotInSupplyError,
    ReserveEmptyError,
    WrongPhaseError,
)
from ..events import GhostSplit as GhostSplitEvent
from ..events import PieceGained, PieceReturned
from ..pieces import BASE_SHAPES, PLACEMENTS, SHAPES_BY_LEVEL, Shape, placements_in, shape_of_mask
from ..rules import check_placement, complete_puzzles, put_piece
from ..solver import solve
from ..state import GameState, Options, Phase, counts_of
from ..work import Work
from .base import Expansion, register
from .level_up import queue_arrows

GHOSTS: tuple[Shape, ...] = SHAPES_BY_LEVEL[5]
GHOSTS_PER_SHAPE = 10
"""10 of each ghost shape, whatever the ``reserve`` option (RULINGS "Ghost Piece expansion")."""


def _decompositions(ghost: Shape) -> tuple[tuple[Shape, ...], ...]:
    """Every multiset of two or more level 1–4 pieces that tiles the ghost's shape exactly."""
    mask = PLACEMENTS[ghost][0]
    found = []
    for count in range(2, ghost.size + 1):
        for pieces in combinations_with_replacement(BASE_SHAPES, count):
            if sum(s.size for s in pieces) != ghost.size:
                continue
            supply = counts_of(dict(Counter(pieces)))
            if solve(mask, BASE_SHAPES, supply=supply) is not None:
                found.append(tuple(sorted(pieces, key=lambda s: s.index)))
    return tuple(found)


DECOMPOSITIONS: dict[Shape, tuple[tuple[Shape, ...], ...]] = {g: _decompositions(g) for g in GHOSTS}
"""Per ghost shape, the piece sets the Ghost action may take for it (pieces in shape order)."""


def ghost_tiling(ghost: Shape, pieces: Sequence[Shape]) -> list[tuple[Shape, int]] | None:
    """How ``pieces`` tile ``ghost`` in its reference orientation: (shape, mask) per piece, for
    previews. None when they do not tile it."""
    mask = PLACEMENTS[ghost][0]
    supply = counts_of(dict(Counter(pieces)))
    if sum(s.size for s in pieces) != ghost.size:
        return None
    tiling = solve(mask, BASE_SHAPES, supply=supply)
    if tiling is None:
        return None
    result = []
    for part in tiling:
        shape = shape_of_mask(part)
        assert shape is not None
        result.append((shape, part))
    return result


def _stocked(reserve: Sequence[int], pieces: Sequence[Shape]) -> bool:
    need = Counter(pieces)
    return all(reserve[s.index] >= n for s, n in need.items())


def split_options(state: GameState) -> list[GhostSplit]:
    """The Ghost actions without immediate placements: each ghost in supply × each piece set
    that tiles it and is in stock."""
    if state.phase is not Phase.PLAY:
        return []
    supply = state.players[state.current].supply
    return [
        GhostSplit(ghost, pieces)
        for ghost in GHOSTS if supply[ghost.index] > 0
        for pieces in DECOMPOSITIONS[ghost] if _stocked(state.reserve, pieces)
    ]


def _with_placements(state: GameState, split: GhostSplit) -> Iterator[GhostSplit]:
    """``split`` with every legal choice of immediate placements (at least one)."""
    player = state.players[state.current]
    free = {p.card: state.cards[p.card].recess & ~p.filled for p in player.puzzles}
    cards = list(free)
    distinct = list(dict.fromkeys(split.pieces))
    counts = Counter(split.pieces)
    # For each puzzle: nothing, or one placement of one of the new pieces.
    per_card = [
        [None, *(Place(card, shape, mask) for shape in distinct
                 for mask in placements_in(shape, free[card]))]
        for card in cards
    ]
    seen: set[GhostSplit] = set()
    for combo in product(*per_card):
        chosen = tuple(p for p in combo if p is not None)
        if not chosen:
            continue
        used = Counter(p.shape for p in chosen)
        if any(used[s] > counts[s] for s in used):
            continue
        action = GhostSplit(split.ghost, split.pieces, chosen)
        if action not in seen:
            seen.add(action)
            yield action


class GhostExpansion(Expansion):
    name = "ghost"
    option = "ghost"
    order = 10
    action_types = (GhostSplit,)
    fills_six_player_black_deck = True

    def reserve(self, options: Options) -> dict[Shape, int]:
        return {ghost: GHOSTS_PER_SHAPE for ghost in GHOSTS}

    def legal_actions(self, state: GameState) -> Iterator[Action]:
        yield from split_options(state)

    def more_actions(self, state: GameState) -> Iterator[Action]:
        for split in split_options(state):
            yield from _with_placements(state, split)

    def apply_action(self, w: Work, action: Action) -> None:
        assert isinstance(action, GhostSplit)
        if w.phase is not Phase.PLAY:
            raise WrongPhaseError("ghost.finishing")
        seat, ghost = w.current, action.ghost
        if ghost.level != 5:
            raise GhostError("ghost.not_a_ghost", piece=ghost)
        if w.players[seat].supply[ghost.index] <= 0:
            raise PieceNotInSupplyError("supply.none_to_return", piece=ghost)
        if action.pieces not in DECOMPOSITIONS[ghost]:
            named = " ".join(s.value for s in action.pieces)
            sets = "; ".join(" ".join(s.value for s in d) for d in DECOMPOSITIONS[ghost])
            raise GhostError("ghost.no_tiling", pieces=named, piece=ghost, sets=sets)
        for shape, n in Counter(action.pieces).items():
            if w.reserve[shape.index] < n:
                raise ReserveEmptyError("ghost.reserve_short", left=w.reserve[shape.index], piece=shape,
                                        needed=n)
        cards = [p.card for p in action.placements]
        if len(set(cards)) != len(cards):
            raise GhostError("ghost.one_per_puzzle")
        used = Counter(p.shape for p in action.placements)
        counts = Counter(action.pieces)
        for shape, n in used.items():
            if n > counts[shape]:
                raise GhostError("ghost.only_new", count=counts[shape], piece=shape)
        w.change_supply(seat, ghost, -1)
        w.reserve[ghost.index] += 1
        w.emit(PieceReturned(seat, ghost))
        for shape in action.pieces:
            w.reserve[shape.index] -= 1
            w.change_supply(seat, shape, +1)
            w.emit(PieceGained(seat, shape, "ghost"))
        w.emit(GhostSplitEvent(seat, ghost, action.pieces))
        for place in action.placements:
            put_piece(w, seat, place, check_placement(w, seat, place), finishing=False)
        complete_puzzles(w, seat, finishing=False)

    def after_rewards(self, w: Work, seat: int, cards: Sequence[PuzzleCard]) -> None:
        arrows = sum(c.reward.arrows for c in cards if isinstance(c.reward, LevelUp))
        if arrows:
            queue_arrows(w, seat, arrows)


register(GhostExpansion())
