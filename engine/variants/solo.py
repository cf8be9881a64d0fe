"""Solo: one player against the mastermind, around a 3×3 grid of puzzles with lock pieces.

Grid positions are numbered row by row, as the rulebook's picture shows: 1 2 3 is the top row,
4 5 6 the middle, 7 8 9 the bottom; ``SoloTable.grid[position - 1]`` is the card there. Lock
pieces and the mastermind's pieces are counters, separate from the player's reserve.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..actions import Action, DrawPuzzle, Recycle, TakePuzzle
from ..cards import PuzzleCard
from ..catalogue import MODES
from ..errors import ActionNotAvailableError, EmptySlotError, IllegalActionError
from ..events import (
    CardRevealed,
    DeckEmptied,
    LocksMoved,
    LocksReleased,
    LockTaken,
    MastermindTook,
    PuzzleTaken,
)
from ..expansions.base import mastermind_takes, solo_deck
from ..rng import Rng
from ..rules import score_line, trigger_end
from ..state import (
    MAX_UNFINISHED,
    SOLO_GRID,
    GameState,
    Options,
    SoloTable,
)
from ..work import Work
from .base import Variant, add_puzzle, cards_in_play, check_room_for_puzzle, starting_state

SOLO_WHITE, SOLO_BLACK = MODES["solo"]
START_LOCKS = (1, 2, 1)


def column_of(position: int) -> int:
    """Column 1–3 of grid position 1–9 (numbered row by row)."""
    return (position - 1) % 3 + 1


def mastermind_pick(points: Sequence[int | None], locks: Sequence[int]) -> int | None:
    """The grid position the mastermind takes, given each position's points (None: empty) and
    the locks above the three columns; None when it takes nothing (an empty grid, or every column
    that still holds a card is locked). The most valuable card of an unlocked column; on a tie the
    lowest position."""
    best: tuple[int, int] | None = None  # (points, -position)
    for i, value in enumerate(points):
        if value is None or locks[column_of(i + 1) - 1] > 0:
            continue
        if best is None or (value, -(i + 1)) > best:
            best = (value, -(i + 1))
    return None if best is None else -best[1]


def mastermind_picks(points: Sequence[int | None], locks: Sequence[int], takes: int = 1) -> tuple[int, ...]:
    """The grid positions the mastermind takes in one turn, in the order it takes them; empty
    when it takes nothing. The first is :func:`mastermind_pick`; with ``takes`` 2 (Finesse Solo)
    the second comes from the same column, the least valuable card left there, the upper one
    (lower position) on a tie, and is skipped when that column holds no other card. One function
    for the engine and for policies that predict the mastermind, so the two cannot drift apart."""
    first = mastermind_pick(points, locks)
    if first is None:
        return ()
    column = column_of(first)
    picks = [first]
    for _ in range(takes - 1):
        rest = [
            (value, i + 1) for i, value in enumerate(points)
            if value is not None and i + 1 not in picks and column_of(i + 1) == column
        ]
        if not rest:
            break
        picks.append(min(rest)[1])
    return tuple(picks)


class SoloGame(Variant):
    name = "solo"
    min_players = 1
    max_players = 1

    def setup(self, options: Options, cards: Sequence[PuzzleCard], seed: int) -> GameState:
        self.validate_options(options)
        rng = Rng(seed)
        white, black = cards_in_play(options, cards)
        need_white, need_black = solo_deck(options) or (SOLO_WHITE, SOLO_BLACK)
        if len(white) < need_white or len(black) < need_black:
            raise IllegalActionError("setup.solo_catalogue", need_white=need_white, need_black=need_black,
                                     white=len(white), black=len(black))
        rng.shuffle(white)
        rng.shuffle(black)
        deck = white[:need_white] + black[:need_black]
        table = SoloTable(
            deck=tuple(deck[SOLO_GRID:]),
            grid=tuple(deck[:SOLO_GRID]),
            locks=START_LOCKS,
            mastermind_supply=options.difficulty.mastermind_pieces,
        )
        return starting_state(options, seed, rng, cards, table)

    # -- the market --------------------------------------------------------------------------
    def market_actions(self, state: GameState) -> Iterator[Action]:
        table = state.table
        assert isinstance(table, SoloTable)
        if len(state.players[0].puzzles) >= MAX_UNFINISHED:
            return
        for i, card in enumerate(table.grid):
            if card is not None:
                yield TakePuzzle(None, i + 1)
        if table.deck:
            yield DrawPuzzle(None)

    def card_for_take(self, state: GameState, action: TakePuzzle) -> str | None:
        table = state.table
        assert isinstance(table, SoloTable)
        return table.grid[action.slot - 1] if 0 < action.slot <= SOLO_GRID else None

    def take(self, w: Work, action: TakePuzzle) -> None:
        if action.colour is not None:
            raise IllegalActionError("take.solo_by_position")
        check_room_for_puzzle(w)
        table = w.table
        assert isinstance(table, SoloTable)
        index = action.slot - 1
        if not 0 <= index < SOLO_GRID or table.grid[index] is None:
            raise EmptySlotError("take.solo_empty_position", slot=action.slot)
        card = table.grid[index]
        assert card is not None
        column = column_of(action.slot)
        locks = list(table.locks)
        supply = table.mastermind_supply
        add_puzzle(w, card)
        w.emit(PuzzleTaken(w.current, card, "grid", None, action.slot))
        if locks[column - 1] > 0:
            locks[column - 1] -= 1
            supply += 1
            w.emit(LockTaken(column))
        w.table = replace(table, locks=(locks[0], locks[1], locks[2]), mastermind_supply=supply)
        self._refill(w, index)

    def draw(self, w: Work, action: DrawPuzzle) -> None:
        if action.colour is not None:
            raise IllegalActionError("draw.solo_form")
        check_room_for_puzzle(w)
        table = w.table
        assert isinstance(table, SoloTable)
        if not table.deck:
            raise EmptySlotError("draw.solo_empty_deck")
        card = table.deck[0]
        w.table = replace(table, deck=table.deck[1:])
        add_puzzle(w, card)
        w.emit(PuzzleTaken(w.current, card, "deck", None, None))
        self._deck_drawn(w)

    def recycle(self, w: Work, action: Recycle) -> None:
        raise ActionNotAvailableError("recycle.not_in_solo")

    def _refill(self, w: Work, index: int) -> None:
        table = w.table
        assert isinstance(table, SoloTable)
        if not table.deck:
            grid = list(table.grid)
            grid[index] = None
            w.table = replace(table, grid=tuple(grid))
            return
        grid = list(table.grid)
        grid[index] = table.deck[0]
        w.table = replace(table, grid=tuple(grid), deck=table.deck[1:])
        w.emit(CardRevealed(table.deck[0], None, index + 1))
        self._deck_drawn(w)

    def _deck_drawn(self, w: Work) -> None:
        table = w.table
        assert isinstance(table, SoloTable)
        if not table.deck:
            w.emit(DeckEmptied(None))
            trigger_end(w, self.final_round)

    # -- the mastermind's turn ---------------------------------------------------------------
    def after_player_turn(self, w: Work) -> None:
        """The mastermind's turn (RULINGS "Solo variant", rulebook v2.5).

        It takes the most valuable puzzle from an unlocked column, ties to the lowest position,
        then moves its supply and one lock from each other column above that column. If every
        column that still holds a puzzle is locked, it removes one piece from above each column
        and takes nothing: the player's turn again. With an empty grid it does nothing.

        With Finesse it takes a second puzzle from the same column, the least valuable there
        (the upper one on a tie); the locks move once, after both takes, and the emptied slots
        refill upper first.
        """
        table = w.table
        assert isinstance(table, SoloTable)
        if all(c is None for c in table.grid):
            return
        points = [None if c is None else w.card(c).points for c in table.grid]
        positions = mastermind_picks(points, table.locks, mastermind_takes(w.options))
        if not positions:
            released = tuple(max(0, n - 1) for n in table.locks)
            w.table = replace(table, locks=(released[0], released[1], released[2]))
            w.emit(LocksReleased())
            return
        column = column_of(positions[0])
        taken = [table.grid[p - 1] for p in positions]
        locks = list(table.locks)
        locks[column - 1] += table.mastermind_supply
        for other in range(3):
            if other != column - 1 and locks[other] > 0:
                locks[other] -= 1
                locks[column - 1] += 1
        w.table = replace(
            table,
            locks=(locks[0], locks[1], locks[2]),
            mastermind_supply=0,
            mastermind_pile=table.mastermind_pile + tuple(c for c in taken if c is not None),
        )
        for p, card in zip(positions, taken, strict=True):
            assert card is not None
            w.emit(MastermindTook(card, p, w.card(card).points))
        w.emit(LocksMoved(column, (locks[0], locks[1], locks[2])))
        for p in sorted(positions):
            self._refill(w, p - 1)

    # -- the end -------------------------------------------------------------------------------
    def opponent_score(self, state: GameState) -> int | None:
        table = state.table
        assert isinstance(table, SoloTable)
        return sum(state.cards[c].points for c in table.mastermind_pile)

    def winners(self, state: GameState) -> tuple[int, ...]:
        """You win only by beating the mastermind; a tie goes to the mastermind (seat -1)."""
        mine = score_line(state, 0).total
        theirs = self.opponent_score(state) or 0
        return (0,) if mine > theirs else (-1,)
