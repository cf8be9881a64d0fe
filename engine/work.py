"""A scratch copy of a state that an action may change freely.

``apply`` copies the immutable state into a :class:`Work`, lets the rules change it, and freezes
the result into a new state. If a rule raises, the scratch copy is simply dropped, so the caller's
state is never half-changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .events import Event
from .pieces import Shape
from .state import GameState, OpenPuzzle, PendingDecision, Phase, PlayerState, Table

if TYPE_CHECKING:
    from .cards import PuzzleCard
    from .state import Options


class Work:
    __slots__ = (
        "base", "reserve", "players", "table", "phase", "current", "round", "turn",
        "actions_left", "master_used", "black_taken", "last_round", "pending", "events",
    )

    def __init__(self, state: GameState) -> None:
        self.base = state
        self.reserve: list[int] = list(state.reserve)
        self.players: list[PlayerState] = list(state.players)
        self.table: Table = state.table
        self.phase: Phase = state.phase
        self.current: int = state.current
        self.round: int = state.round
        self.turn: int = state.turn
        self.actions_left: int = state.actions_left
        self.master_used: bool = state.master_used
        self.black_taken: bool = state.black_taken
        self.last_round: int | None = state.last_round
        self.pending: list[PendingDecision] = list(state.pending)
        self.events: list[Event] = []

    # -- reading -------------------------------------------------------------------------------
    @property
    def options(self) -> Options:
        return self.base.options

    def card(self, card_id: str) -> PuzzleCard:
        return self.base.cards[card_id]

    @property
    def player(self) -> PlayerState:
        return self.players[self.current]

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- pieces --------------------------------------------------------------------------------
    def change_supply(self, seat: int, shape: Shape, delta: int) -> None:
        player = self.players[seat]
        supply = list(player.supply)
        supply[shape.index] += delta
        self.players[seat] = replace(player, supply=tuple(supply))

    def set_player(self, seat: int, **changes: object) -> None:
        self.players[seat] = replace(self.players[seat], **changes)

    def set_puzzle(self, seat: int, puzzle: OpenPuzzle) -> None:
        player = self.players[seat]
        puzzles = tuple(puzzle if p.card == puzzle.card else p for p in player.puzzles)
        self.players[seat] = replace(player, puzzles=puzzles)

    # -- result --------------------------------------------------------------------------------
    def freeze(self) -> GameState:
        return replace(
            self.base,
            reserve=tuple(self.reserve),
            players=tuple(self.players),
            table=self.table,
            phase=self.phase,
            current=self.current,
            round=self.round,
            turn=self.turn,
            actions_left=self.actions_left,
            master_used=self.master_used,
            black_taken=self.black_taken,
            last_round=self.last_round,
            pending=tuple(self.pending),
        )
