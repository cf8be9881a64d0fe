"""Line Clear: 5 or 6 players, four rows of 3 puzzles, and two marker holders playing at once.

The White-marker holder takes from the two rows on the left of the decks and alone may draw blind
and Recycle (left rows only); the Black-marker holder takes from the two rows on the right. Both
play an ordinary 3-action turn at the same time — the state holds two :class:`~engine.state.Turn`
values and ``apply(..., player=seat)`` acts in one of them; actions apply one at a time in arrival
order, so refills come from the shared decks in that order. When both turns are over each marker
passes clockwise. After the end is triggered (the black deck runs out), the game ends at once when
the first player receives a marker for the second time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from ..actions import Action, DrawPuzzle, Recycle, TakePuzzle
from ..cards import Colour, PuzzleCard
from ..errors import ActionNotAvailableError, EmptySlotError, IllegalActionError
from ..events import MarkersPassed, TurnStarted
from ..expansions.base import end_of_round, fills_six_player_black_deck, last_round_cap
from ..state import (
    LINE_CLEAR_ROW_SIZE,
    MAX_UNFINISHED,
    SIDES,
    GameState,
    LineClearTable,
    Options,
    Turn,
)
from ..work import Work
from .base import RowsGame, recycle_actions, starting_state

LEFT, RIGHT = SIDES


def black_marker_start(players: int, first: int) -> int:
    """The Black marker starts with the 3rd player (5 players) or the 4th (6 players)."""
    return (first + (2 if players == 5 else 3)) % players


def _side_name(side: str) -> str:
    return "left (White marker)" if side == LEFT else "right (Black marker)"


class LineClearGame(RowsGame):
    name = "lineclear"
    min_players = 5
    max_players = 6
    row_size = LINE_CLEAR_ROW_SIZE

    def validate_options(self, options: Options) -> None:
        if not self.min_players <= options.players <= self.max_players:
            raise IllegalActionError("setup.line_clear_players")
        if options.players == 6 and not fills_six_player_black_deck(options):
            raise IllegalActionError("setup.six_need_ghost")
        super().validate_options(options)

    def setup(self, options: Options, cards: Sequence[PuzzleCard], seed: int) -> GameState:
        rng, white, black, first = self.deal(options, cards, seed, shortage="setup.table_catalogue")
        size = LINE_CLEAR_ROW_SIZE
        markers = (first, black_marker_start(options.players, first))
        table = LineClearTable(
            white_deck=tuple(white[2 * size:]),
            black_deck=tuple(black[2 * size:]),
            left_white=tuple(white[:size]),
            left_black=tuple(black[:size]),
            right_white=tuple(white[size:2 * size]),
            right_black=tuple(black[size:2 * size]),
            markers=markers,
        )
        turns = (Turn(markers[0], LEFT), Turn(markers[1], RIGHT))
        return starting_state(options, seed, rng, cards, table, first=first, turns=turns)

    # -- whose side ------------------------------------------------------------------------------
    @staticmethod
    def _side(state: GameState | Work, seat: int) -> str:
        for turn in state.turns:
            if turn.seat == seat:
                return turn.side
        raise IllegalActionError("game.no_marker")

    # -- legal market actions ----------------------------------------------------------------
    def market_actions(self, state: GameState) -> Iterator[Action]:
        table = state.table
        assert isinstance(table, LineClearTable)
        side = self._side(state, state.current)
        room = len(state.players[state.current].puzzles) < MAX_UNFINISHED
        for colour in (Colour.WHITE, Colour.BLACK):
            blocked = colour is Colour.BLACK and self._black_blocked(state.last_round, state.black_taken)
            row = table.row(side, colour)
            if room and not blocked:
                for i, card in enumerate(row):
                    if card is not None:
                        yield TakePuzzle(colour, i + 1)
                if side == LEFT and table.deck(colour):
                    yield DrawPuzzle(colour)
            if side == LEFT and table.deck(colour):
                slots = tuple(i + 1 for i, card in enumerate(row) if card is not None)
                if slots:
                    yield from recycle_actions(colour, slots)

    def card_for_take(self, state: GameState, action: TakePuzzle) -> str | None:
        table = state.table
        assert isinstance(table, LineClearTable)
        if action.colour is None or state.turn_of(state.current) is None:
            return None
        row = table.row(self._side(state, state.current), action.colour)
        return row[action.slot - 1] if 0 < action.slot <= len(row) else None

    # -- applying: the base game's take, draw and Recycle, on the rows of the seat's side -------
    def _row(self, w: Work, colour: Colour) -> tuple[str | None, ...]:
        table = w.table
        assert isinstance(table, LineClearTable)
        return table.row(self._side(w, w.current), colour)

    def _store_row(self, w: Work, colour: Colour, deck: list[str], row: list[str | None]) -> None:
        table = w.table
        assert isinstance(table, LineClearTable)
        deck_field = "white_deck" if colour is Colour.WHITE else "black_deck"
        side = self._side(w, w.current)
        changes: dict[str, Any] = {deck_field: tuple(deck), f"{side}_{colour.value}": tuple(row)}
        w.table = replace(table, **changes)

    def _no_puzzle_at(self, w: Work, colour: Colour, slot: int) -> EmptySlotError:
        return EmptySlotError("take.empty_slot_side", slot=slot, colour=colour,
                              side=_side_name(self._side(w, w.current)))

    # Only the White-marker holder recycles: the refusals name the left rows.
    def _empty_row(self, colour: Colour) -> EmptySlotError:
        return EmptySlotError("recycle.empty_left_row", colour=colour)

    def _wrong_order(self, colour: Colour, positions: str) -> IllegalActionError:
        return IllegalActionError("recycle.order_left", colour=colour, positions=positions)

    def _white_holder_only(self, w: Work, refusal: str) -> None:
        """Refuse (with the key ``refusal``) unless the current player holds the White marker."""
        if self._side(w, w.current) != LEFT:
            raise ActionNotAvailableError(refusal)

    def draw(self, w: Work, action: DrawPuzzle) -> None:
        self._white_holder_only(w, "take.white_holder_draws")
        super().draw(w, action)

    def recycle(self, w: Work, action: Recycle) -> None:
        self._white_holder_only(w, "recycle.white_holder_only")
        super().recycle(w, action)

    # -- the two turns -----------------------------------------------------------------------------
    def end_turn(self, w: Work) -> bool:
        """One holder is done: the other may still be playing. When both are, the markers pass
        clockwise (skipping removed seats); after the trigger the first player's second receipt
        ends the game at once."""
        w.actions_left = 0
        w.store_turn()
        for turn in w.turns:
            if not turn.done or turn.seat in w.held or any(d.seat == turn.seat for d in w.pending):
                w.focus(turn.seat)
                return False
        table = w.table
        assert isinstance(table, LineClearTable)
        white, black, white_to_first, black_to_first = self._pass_markers(w, table.markers)
        receipts = table.receipts
        if w.last_round is not None:
            receipts += white_to_first + black_to_first
        w.table = replace(table, markers=(white, black), receipts=receipts)
        if receipts >= 2:
            return True
        if white_to_first:
            if end_of_round(w):
                return True
            w.round += 1
        w.turns = [Turn(white, LEFT), Turn(black, RIGHT)]
        w.current = white
        w.actions_left = w.turns[0].actions_left
        w.master_used = False
        w.black_taken = False
        w.turn += 2
        w.emit(MarkersPassed(white, black, w.round))
        w.emit(TurnStarted(white, w.round))
        w.emit(TurnStarted(black, w.round))
        return False

    def final_round(self, state: GameState | Work) -> int | None:
        """The round the game ends in once the end is triggered: the markers' passes are played
        forward from where they are (their seats, the receipts counted so far, the removed seats
        skipped) to the first player's second receipt; a round starts at each pass of the White
        marker to the first player. Triggered before the Black marker reaches the first player
        in a round, that round is the last; after it, the next one (cut short by the Black
        marker). An expansion may end play sooner (Finesse's last tile)."""
        if state.last_round is None:
            return None
        table = state.table
        assert isinstance(table, LineClearTable)
        markers, receipts, final = table.markers, table.receipts, state.round
        for _ in range(2 * len(state.players) + 2):  # two receipts come within two laps
            white, black, white_to_first, black_to_first = self._pass_markers(state, markers)
            receipts += white_to_first + black_to_first
            if receipts >= 2:
                break
            final += white_to_first
            markers = (white, black)
        cap = last_round_cap(state)
        return final if cap is None else min(final, cap)

    @classmethod
    def _pass_markers(cls, w: GameState | Work, markers: tuple[int, int]) -> tuple[int, int, bool, bool]:
        """Both markers passed clockwise: the White and the Black holder next, and whether each
        marker reached the first player on the way. If both would land on the same seat, the
        Black marker moves one seat further."""
        first = w.first_player
        white, white_to_first = cls._pass_marker(w, markers[0], first)
        black, black_to_first = cls._pass_marker(w, markers[1], first)
        if black == white:
            black, bumped_past_first = cls._pass_marker(w, black, first)
            black_to_first = (black_to_first and w.players[first].removed) or bumped_past_first
        return white, black, white_to_first, black_to_first

    @staticmethod
    def _pass_marker(w: GameState | Work, seat: int, first: int) -> tuple[int, bool]:
        """The seat a marker held by ``seat`` passes to (clockwise, skipping removed seats), and
        whether it reached the first player on the way: it lands on them, or — once they are
        removed — passes their seat, as rounds still begin at the first player's seat then
        (docs/rules.md "Remove a player")."""
        count = len(w.players)
        following = seat
        reached = False
        for _ in range(count):
            following = (following + 1) % count
            reached = reached or following == first
            if not w.players[following].removed:
                break
        return following, reached

    def seat_removed(self, w: Work, seat: int) -> bool:
        """A removed marker holder's turn ends if it is still running: actions left, a choice
        still owed, or held open for an Insert (Finesse) — the game would otherwise wait for a
        seat that can no longer act."""
        turn = next((t for t in w.turns if t.seat == seat), None)
        return turn is not None and (
            not turn.done or seat in w.held or any(d.seat == seat for d in w.pending))


def next_side(state: GameState, seat: int) -> str | None:
    """The side (``"left"``: White marker, ``"right"``: Black) of ``seat``'s next turn, as the
    table stands: the side of the marker that reaches it first as both pass clockwise once both
    holders are done (removed seats skipped, the Black marker bumped past the White, as in play).
    None outside Line Clear, for a removed seat, or if no marker would reach it. A removal before
    then may change it, as it changes the cards a plan relies on."""
    table = state.table
    if not isinstance(table, LineClearTable) or state.players[seat].removed:
        return None
    markers = table.markers
    for _ in range(len(state.players)):
        white, black, _, _ = LineClearGame._pass_markers(state, markers)  # noqa: SLF001 - its own class
        if white == seat:
            return LEFT
        if black == seat:
            return RIGHT
        markers = (white, black)
    return None
