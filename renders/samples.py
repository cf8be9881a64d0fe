"""Deterministic sample games, for the benchmark, the README examples and the tests.

Uniformly random play rarely finishes a game (it recycles rows and shuffles pieces forever), so
this player is random but *purposeful*: it completes puzzles when it can, places pieces, keeps a
few puzzles open and takes black cards, which empties the black deck and triggers the end. That
way every phase — play, last round, Finishing Touches, game over — shows up in a few hundred
actions, and the same seed always gives the same states.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine import (
    Action,
    DrawPuzzle,
    EndFinishing,
    GameState,
    Options,
    Phase,
    Place,
    Recycle,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
    apply,
    legal_actions,
    master_options,
    new_game,
)
from engine.pieces import BASE_SHAPES, Shape, placements_in
from engine.rng import Rng

NAMES = ("Ana", "Bartholomew", "Chloé", "Dev", "Eun-ji", "Farouk")


def _completes(state: GameState, place: Place) -> bool:
    player = state.players[state.current]
    puzzle = player.puzzle(place.card)
    return puzzle is not None and puzzle.filled | place.mask == state.card(place.card).recess


def choose(state: GameState, rng: Rng) -> Action:
    """A legal action: completing > Master > placing > taking puzzles > pieces."""
    actions = legal_actions(state)
    if state.phase is Phase.FINISHING:
        places = [a for a in actions if isinstance(a, Place)]
        if places and rng.below(4):
            return places[rng.below(len(places))]
        return EndFinishing()
    places = [a for a in actions if isinstance(a, Place)]
    finishing = [p for p in places if _completes(state, p)]
    if finishing:
        return finishing[rng.below(len(finishing))]
    options = master_options(state)
    if options is not None and rng.below(8) == 0:
        return options.sample(rng)
    if places and rng.below(3):
        return _big_place(places, state, rng)
    player = state.players[state.current]
    takes = [a for a in actions if isinstance(a, TakePuzzle | DrawPuzzle)]
    if takes and (len(player.puzzles) < 3 or rng.below(5) == 0):
        black = [a for a in takes if a.colour is not None and a.colour.value == "black"]
        white = [a for a in takes if a not in black]
        pool = black if black and len(player.completed) >= 2 and rng.below(2) else (white or takes)
        return pool[rng.below(len(pool))]
    useful = _useful_shapes(state)
    swaps = [a for a in actions if isinstance(a, Upgrade) and a.take in useful and a.give not in useful]
    if swaps:
        return swaps[rng.below(len(swaps))]
    level1 = state.reserve[Shape.MONO.index] > 0 and any(isinstance(a, TakeLevelOne) for a in actions)
    if player.supply_size < 6:
        upgrades = [a for a in actions if isinstance(a, Upgrade) and a.take.level > a.give.level]
        if upgrades and (not level1 or rng.below(2)):
            return upgrades[rng.below(len(upgrades))]
        if level1:
            return TakeLevelOne()
    if places:
        return _big_place(places, state, rng)
    if takes:
        return takes[rng.below(len(takes))]
    rest = [a for a in actions if not isinstance(a, Recycle)] or actions
    return rest[rng.below(len(rest))]


def _big_place(places: list[Place], state: GameState, rng: Rng) -> Place:
    """Mostly the largest piece that leaves no one- or two-cell holes: small pieces are scarce,
    and random play that strands them on half-filled cards deadlocks the game."""
    if rng.below(12) == 0:
        return places[rng.below(len(places))]
    player = state.players[state.current]
    best: list[Place] = []
    best_key: tuple[int, int] | None = None
    for place in places:
        puzzle = player.puzzle(place.card)
        assert puzzle is not None
        free = state.card(place.card).recess & ~puzzle.filled & ~place.mask
        key = (_small_holes(free), -place.shape.size)
        if best_key is None or key < best_key:
            best, best_key = [place], key
        elif key == best_key:
            best.append(place)
    return best[rng.below(len(best))]


def _small_holes(free: int) -> int:
    """How badly the free cells need tiny pieces: 2 per one-cell area, 1 per two-cell area."""
    penalty = 0
    while free:
        area = free & -free
        while True:
            grown = (
                area | (area << 5) | (area >> 5) | ((area << 1) & ~_LEFT_EDGE) | ((area >> 1) & ~_RIGHT_EDGE)
            )
            grown &= free
            if grown == area:
                break
            area = grown
        free &= ~area
        penalty += {1: 2, 2: 1}.get(area.bit_count(), 0)
    return penalty


_LEFT_EDGE = sum(1 << (row * 5) for row in range(5))
_RIGHT_EDGE = sum(1 << (row * 5 + 4) for row in range(5))


def _useful_shapes(state: GameState) -> set[Shape]:
    """Shapes that fit somewhere on the current player's open puzzles right now."""
    player = state.players[state.current]
    free = [state.card(p.card).recess & ~p.filled for p in player.puzzles]
    return {s for s in BASE_SHAPES if any(placements_in(s, f) for f in free)}


def play(options: Options, seed: int, max_actions: int = 400) -> Iterator[GameState]:
    """Every state of one sample game, from setup to game over (or ``max_actions``)."""
    state = new_game(options, seed)
    rng = Rng(seed ^ 0x5EED)
    yield state
    for _ in range(max_actions):
        if state.phase is Phase.OVER:
            return
        state = apply(state, choose(state, rng)).state
        yield state


def names_for(state: GameState) -> tuple[str, ...]:
    return NAMES[: len(state.players)]


def mid_game(options: Options, seed: int, fraction: float = 0.5) -> GameState:
    """A state part-way through a sample game (by action count)."""
    states = list(play(options, seed))
    return states[int((len(states) - 1) * fraction)]


def first_state(options: Options, seed: int, *, where: str) -> GameState | None:
    """The first state of a sample game matching ``where``: 'end', 'finishing' or 'over'."""
    for state in play(options, seed):
        if where == "end" and state.last_round is not None and state.phase is Phase.PLAY:
            return state
        if where == "finishing" and state.phase is Phase.FINISHING:
            return state
        if where == "over" and state.phase is Phase.OVER:
            return state
    return None
