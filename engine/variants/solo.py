"""Solo: one player against the mastermind, around a 3×3 grid of puzzles with lock pieces.

Grid positions are numbered down each column: 1–3 is the first column, 4–6 the second, 7–9 the
third. Lock pieces and the mastermind's pieces are counters, separate from the player's reserve.
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
    """Column 1–3 of grid position 1–9."""
    return (position - 1) // 3 + 1


class SoloGame(Variant):
    name = "solo"
    min_players = 1
    max_players = 1

    def setup(self, options: Options, cards: Sequence[PuzzleCard], seed: int) -> GameState:
        self.validate_options(options, cards)
        rng = Rng(seed)
        white, black = cards_in_play(options, cards)
        if len(white) < SOLO_WHITE or len(black) < SOLO_BLACK:
            raise IllegalActionError(
                f"Solo needs {SOLO_WHITE} white and {SOLO_BLACK} black puzzles; this catalogue "
                f"has {len(white)} and {len(black)}."
            )
        rng.shuffle(white)
        rng.shuffle(black)
        deck = white[:SOLO_WHITE] + black[:SOLO_BLACK]
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
            raise IllegalActionError("In Solo, take a puzzle by its grid position: 'take 5'.")
        check_room_for_puzzle(w)
        table = w.table
        assert isinstance(table, SoloTable)
        index = action.slot - 1
        if not 0 <= index < SOLO_GRID or table.grid[index] is None:
            raise EmptySlotError(f"There is no puzzle at grid position {action.slot}.")
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
            raise IllegalActionError("Solo has a single deck: write 'draw'.")
        check_room_for_puzzle(w)
        table = w.table
        assert isinstance(table, SoloTable)
        if not table.deck:
            raise EmptySlotError("The puzzle deck is empty.")
        card = table.deck[0]
        w.table = replace(table, deck=table.deck[1:])
        add_puzzle(w, card)
        w.emit(PuzzleTaken(w.current, card, "deck", None, None))
        self._deck_drawn(w)

    def recycle(self, w: Work, action: Recycle) -> None:
        raise ActionNotAvailableError("Recycle is not used in Solo.")

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
            trigger_end(w)

    # -- the mastermind's turn ---------------------------------------------------------------
    def after_player_turn(self, w: Work) -> None:
        """The mastermind takes the most valuable puzzle from an unlocked column.

        Ruling: only columns that still hold a puzzle are considered. While every such column is
        locked, one lock leaves every column (repeated if needed). With an empty grid it takes
        nothing.
        """
        table = w.table
        assert isinstance(table, SoloTable)
        columns_with_cards = {column_of(i + 1) for i, c in enumerate(table.grid) if c is not None}
        if not columns_with_cards:
            return
        locks = list(table.locks)
        while all(locks[c - 1] > 0 for c in columns_with_cards):
            locks = [max(0, n - 1) for n in locks]
            w.emit(LocksReleased())
        best: tuple[int, int] | None = None  # (points, -position)
        for i, card in enumerate(table.grid):
            if card is None or locks[column_of(i + 1) - 1] > 0:
                continue
            candidate = (w.card(card).points, -(i + 1))
            if best is None or candidate > best:
                best = candidate
        assert best is not None
        position = -best[1]
        card = table.grid[position - 1]
        assert card is not None
        column = column_of(position)
        locks[column - 1] += table.mastermind_supply
        for other in range(3):
            if other != column - 1 and locks[other] > 0:
                locks[other] -= 1
                locks[column - 1] += 1
        w.table = replace(
            table,
            locks=(locks[0], locks[1], locks[2]),
            mastermind_supply=0,
            mastermind_pile=table.mastermind_pile + (card,),
        )
        w.emit(MastermindTook(card, position, w.card(card).points))
        w.emit(LocksMoved(column, (locks[0], locks[1], locks[2])))
        self._refill(w, position - 1)

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
