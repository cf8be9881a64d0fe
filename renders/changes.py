"""What changed on the table since the previous turn post, for the table image to mark.

Renders stay pure: the caller passes the state the previous post showed, and this module
compares the two — cards that came into the market, puzzles a player took, puzzles that got
new pieces, and puzzles completed. With no previous state nothing is marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.state import GameState, LineClearTable, RowsTable, SoloTable, Table


@dataclass(frozen=True, slots=True)
class Changes:
    new_market: frozenset[str] = frozenset()
    taken: frozenset[tuple[int, str]] = frozenset()  # (seat, card id) now among open puzzles
    placed: frozenset[tuple[int, str]] = frozenset()  # (seat, card id) with new pieces on it
    completed: frozenset[tuple[int, str]] = frozenset()  # (seat, card id) newly completed

    def __bool__(self) -> bool:
        return bool(self.new_market or self.taken or self.placed or self.completed)

    def marks_puzzle(self, seat: int, card_id: str) -> bool:
        return (seat, card_id) in self.taken or (seat, card_id) in self.placed

    def marks_completed(self, seat: int, card_id: str) -> bool:
        return (seat, card_id) in self.completed


NONE = Changes()


def market_cards(table: Table) -> set[str]:
    """The face-up cards of a market (any variant's table)."""
    if isinstance(table, RowsTable):
        return {c for row in (table.white_row, table.black_row) for c in row if c is not None}
    if isinstance(table, SoloTable):
        return {c for c in table.grid if c is not None}
    if isinstance(table, LineClearTable):
        rows = (table.left_white, table.left_black, table.right_white, table.right_black)
        return {c for row in rows for c in row if c is not None}
    return set()


def changes_between(previous: GameState | None, state: GameState) -> Changes:
    """The differences between the previous post's state and this one (none without one)."""
    if previous is None or len(previous.players) != len(state.players):
        return NONE
    taken: set[tuple[int, str]] = set()
    placed: set[tuple[int, str]] = set()
    completed: set[tuple[int, str]] = set()
    for seat, (before, now) in enumerate(zip(previous.players, state.players, strict=True)):
        was_open = {p.card: p for p in before.puzzles}
        was_done = {d.card for d in before.completed}
        for puzzle in now.puzzles:
            old = was_open.get(puzzle.card)
            if old is None:
                taken.add((seat, puzzle.card))
                if puzzle.pieces:
                    placed.add((seat, puzzle.card))
            elif len(puzzle.pieces) > len(old.pieces):
                placed.add((seat, puzzle.card))
        for done in now.completed:
            if done.card not in was_done:
                completed.add((seat, done.card))
    return Changes(
        frozenset(market_cards(state.table) - market_cards(previous.table)),
        frozenset(taken),
        frozenset(placed),
        frozenset(completed),
    )
