"""Greedy's Finesse valuation: what the live tile pays for a move, and when the tile row ends play.

The greedy player never tries an action with ``apply`` (too slow), so it predicts what the live
Finesse tile pays from the action itself. :func:`pink_credits` is that prediction for the pink
tiles (paid at once); a test checks it against the credits the engine really pays
(``engine.expansions.finesse.pink_reasons``) for every legal action of many states. Blue tiles
pay at the end of the turn for what the player owns or has open, so the policy aims for them by
what it keeps: :func:`owned_shapes` names the pieces a blue tile pays for holding.

:func:`turns_after_this` tells the policy how many more turns it gets before the game is known
to end — the base trigger's last round, or the last Finesse tile leaving at the end of round 10,
whichever comes first — so it stops opening puzzles it cannot finish.
"""

from __future__ import annotations

from ..actions import Action, Choose, DrawPuzzle, GhostSplit, Master, Place, TakeLevelOne, TakePuzzle, Upgrade
from ..decisions import waiting_for
from ..expansions.finesse import BLUE, PINK, Tile, view
from ..expansions.level_up import KIND as LEVEL_UP
from ..expansions.level_up import parse_level_up
from ..pieces import Shape
from ..state import GameState, LineClearTable, PlayerState

__all__ = ["live_tile", "owned_shapes", "paying_shapes", "pink_credits", "turns_after_this"]


def live_tile(state: GameState) -> Tile | None:
    """The Finesse tile that pays now; None without Finesse, in rounds 1–2 and after round 10."""
    fv = view(state)
    return None if fv is None else fv.live


def paying_shapes(tile: Tile | None) -> frozenset[Shape]:
    """Shapes a pink placement tile pays for when placed (empty for every other tile)."""
    if tile is None or tile.colour != PINK or tile.rule != "place":
        return frozenset()
    return frozenset(tile.shapes)


def owned_shapes(tile: Tile | None) -> frozenset[Shape]:
    """Shapes a blue tile pays for owning at the end of the turn (empty for every other tile)."""
    if tile is None or tile.colour != BLUE or tile.rule not in {"pieces", "types"}:
        return frozenset()
    return frozenset(tile.shapes)


def _completes(state: GameState, player: PlayerState, place: Place) -> bool:
    puzzle = player.puzzle(place.card)
    if puzzle is None:
        return False
    return puzzle.filled | place.mask == state.cards[place.card].recess


def _placements(action: Action) -> tuple[Place, ...]:
    if isinstance(action, Place):
        return (action,)
    if isinstance(action, (Master, GhostSplit)):
        return action.placements
    return ()


def pink_credits(state: GameState, seat: int, action: Action, tile: Tile | None = None) -> int:
    """Credits the live pink tile pays ``seat`` at once for ``action`` (0 for a blue tile or none).

    Mirrors ``pink_reasons``: a placement tile pays per depicted piece placed (Place, Master, a
    Ghost split's immediate placements), Master's tile per piece Master places, the completion
    tile per puzzle completed, the take tile per puzzle taken or drawn, the Upgrade tiles per
    Upgrade or level-1 take and per level-up arrow used. Finishing Touches pay nothing.
    """
    tile = live_tile(state) if tile is None else tile
    if tile is None or tile.colour != PINK or state.phase.value != "play":
        return 0
    rule = tile.rule
    if rule in {"place", "master", "complete"}:
        places = _placements(action)
        if rule == "place":
            return sum(p.shape in tile.shapes for p in places)
        if rule == "master":
            return len(places) if isinstance(action, Master) else 0
        player = state.players[seat]
        return sum(_completes(state, player, p) for p in places)
    if rule == "take":
        return int(isinstance(action, (TakePuzzle, DrawPuzzle)))
    if rule == "upgrade":
        if isinstance(action, (Upgrade, TakeLevelOne)):
            return 1
        if isinstance(action, Choose):
            decision = waiting_for(state)
            return int(
                decision is not None and decision.kind == LEVEL_UP
                and parse_level_up(action.option) is not None
            )
    return 0


def turns_after_this(state: GameState, seat: int) -> int | None:
    """Turns ``seat`` still starts after the one it is playing before play is known to end;
    None while no end is in sight (no Finesse and the base end not triggered).

    The base end: one turn per round up to ``last_round`` (the estimate greedy always used).
    Finesse: the last tile leaves at the end of the round in which it is live, so
    ``len(row) - 1`` rounds follow this one: one turn each, or in Line Clear two (each player
    holds the White and the Black marker once a round), plus the turns left in this round,
    counted from the markers' positions. The nearer of the two ends counts.
    """
    turns: int | None = None
    if state.last_round is not None:
        turns = max(0, state.last_round - state.round)
    fv = view(state)
    if fv is not None and fv.row:
        rounds = len(fv.row) - 1
        table = state.table
        if isinstance(table, LineClearTable):
            finesse = _line_clear_turns_this_round(state, table, seat) + 2 * rounds
        else:
            finesse = rounds
        turns = finesse if turns is None else min(turns, finesse)
    return turns


def _line_clear_turns_this_round(state: GameState, table: LineClearTable, seat: int) -> int:
    """Line Clear: turns ``seat`` starts after the current pair, before the White marker next
    reaches the first player (the end of the round). Removed seats are not skipped: an estimate."""
    count = len(state.players)
    white, black = table.markers
    first = state.first_player
    # Marker passes until White is back at the first player (a full lap when it is there now:
    # the round has just begun).
    passes = (first - white) % count or count
    turns = 0
    for step in range(1, passes):
        w = (white + step) % count
        b = (black + step) % count
        turns += seat in {w, b}
    return turns
