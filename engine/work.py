"""A scratch copy of a state that an action may change freely.

``apply`` copies the immutable state into a :class:`Work`, lets the rules change it, and freezes
the result into a new state. If a rule raises, the scratch copy is simply dropped, so the caller's
state is never half-changed.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from .events import Event
from .pieces import Shape
from .state import Counts, GameState, OpenPuzzle, PendingDecision, Phase, PlayerState, Table, Turn

if TYPE_CHECKING:
    from .cards import PuzzleCard
    from .state import Options


class Work:
    __slots__ = (
        "base", "reserve", "players", "table", "phase", "current", "round", "turn",
        "actions_left", "master_used", "black_taken", "last_round", "pending", "events", "turns",
        "ext", "held", "rng_state",
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
        self.turns: list[Turn] = list(state.turns)
        self.ext: dict[str, Any] = dict(state.ext)
        self.held: list[int] = list(state.held)
        self.rng_state: int = state.rng_state
        """The seeded generator's state: a rule that shuffles mid-game (Endless White Deck) draws
        from it and writes it back, so replay from seed + actions stays exact."""
        self.events: list[Event] = []

    # -- reading -------------------------------------------------------------------------------
    @property
    def options(self) -> Options:
        return self.base.options

    def card(self, card_id: str) -> PuzzleCard:
        return self.base.cards[card_id]

    @property
    def first_player(self) -> int:
        """The first player's seat (fixed for the whole game)."""
        return self.base.first_player

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
        self.players[seat] = _player_with(player, tuple(supply), player.puzzles)

    def set_player(self, seat: int, **changes: Any) -> None:
        """``seat``'s player with ``changes`` (field names of :class:`PlayerState`), built field
        by field (``dataclasses.replace`` took three times as long, once per rollout action)."""
        player = self.players[seat]
        if not changes.keys() <= _PLAYER_FIELD_SET:
            unknown = ", ".join(sorted(changes.keys() - _PLAYER_FIELD_SET))
            raise TypeError(f"PlayerState has no field(s) {unknown}")
        get = changes.get
        self.players[seat] = PlayerState(
            get("supply", player.supply), get("puzzles", player.puzzles),
            get("completed", player.completed), get("finishing_pieces", player.finishing_pieces),
            get("finished_touches", player.finished_touches), get("removed", player.removed),
            get("banked_points", player.banked_points), get("banked_cards", player.banked_cards),
        )

    def set_puzzle(self, seat: int, puzzle: OpenPuzzle) -> None:
        player = self.players[seat]
        puzzles = tuple(puzzle if p.card == puzzle.card else p for p in player.puzzles)
        self.players[seat] = _player_with(player, player.supply, puzzles)

    # -- concurrent turns (Line Clear) ---------------------------------------------------------
    # ``current``, ``actions_left``, ``master_used`` and ``black_taken`` always describe the
    # focused turn, so the shared rules never need to know that another turn is running.
    def store_turn(self) -> None:
        """Write the focused turn's fields back into its entry of ``turns``."""
        for i, turn in enumerate(self.turns):
            if turn.seat == self.current:
                self.turns[i] = replace(
                    turn, actions_left=self.actions_left, master_used=self.master_used,
                    black_taken=self.black_taken,
                )
                return

    def focus(self, seat: int) -> None:
        """Make ``seat``'s concurrent turn the focused one (after storing the present one)."""
        self.store_turn()
        for turn in self.turns:
            if turn.seat == seat:
                self.current = seat
                self.actions_left = turn.actions_left
                self.master_used = turn.master_used
                self.black_taken = turn.black_taken
                return

    def _running(self, seat: int, actions_left: int) -> bool:
        return actions_left > 0 or seat in self.held or any(d.seat == seat for d in self.pending)

    # -- result --------------------------------------------------------------------------------
    def freeze(self) -> GameState:
        if self.turns:
            self.store_turn()
            if self.phase is Phase.PLAY and not self._running(self.current, self.actions_left):
                # Show a turn still running as the current one (the projection that
                # single-turn readers see); see GameState.focused.
                for turn in self.turns:
                    if self._running(turn.seat, turn.actions_left):
                        self.focus(turn.seat)
                        break
        base = self.base
        return GameState(  # every field named: dataclasses.replace took twice as long (17 against 9 µs)
            options=base.options,
            seed=base.seed,
            cards=base.cards,
            first_player=base.first_player,
            schema=base.schema,
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
            turns=tuple(self.turns),
            ext=self.ext,
            held=tuple(self.held),
            rng_state=self.rng_state,
        )


# -- building states field by field ------------------------------------------------------------
# ``freeze``, ``set_player`` and ``_player_with`` run on every action and name every field of the
# dataclass they build (``dataclasses.replace`` took twice as long); if a field is added, these
# checks fail at import, so a new field cannot be dropped silently.
_STATE_FIELDS = (
    "options", "seed", "rng_state", "cards", "reserve", "players", "table", "phase", "current",
    "first_player", "round", "turn", "actions_left", "master_used", "black_taken", "last_round",
    "pending", "turns", "ext", "held", "schema",
)
_PLAYER_FIELDS = (
    "supply", "puzzles", "completed", "finishing_pieces", "finished_touches", "removed", "banked_points",
    "banked_cards",
)
_PLAYER_FIELD_SET = frozenset(_PLAYER_FIELDS)
if tuple(f.name for f in fields(GameState)) != _STATE_FIELDS:
    raise RuntimeError("GameState's fields changed: update Work.freeze and engine.work._STATE_FIELDS")
if tuple(f.name for f in fields(PlayerState)) != _PLAYER_FIELDS:
    raise RuntimeError("PlayerState's fields changed: update engine.work._player_with and _PLAYER_FIELDS")


def _player_with(player: PlayerState, supply: Counts, puzzles: tuple[OpenPuzzle, ...]) -> PlayerState:
    """``player`` with another supply and puzzles (every other field as it was)."""
    return PlayerState(
        supply, puzzles, player.completed, player.finishing_pieces, player.finished_touches,
        player.removed, player.banked_points, player.banked_cards,
    )
