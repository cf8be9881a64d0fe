"""The variant interface, and the standard 2–4 player game with two rows of puzzles.

A variant decides how a game is set up, what the puzzle market looks like and how it is used
(take, blind draw, recycle), what happens between turns, and who wins. The shared rules in
:mod:`engine.rules` and the turn flow in :mod:`engine.game` call these hooks, so a new variant
(Solo, later Line Clear) is a new class here rather than conditions scattered through the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import permutations
from typing import Any

from ..actions import Action, DrawPuzzle, Recycle, TakePuzzle
from ..cards import Colour, PuzzleCard
from ..catalogue import MODES
from ..endless import renew_white_deck
from ..errors import (
    ActionNotAvailableError,
    BlackLimitError,
    EmptySlotError,
    IllegalActionError,
    PuzzleLimitError,
)
from ..events import CardRevealed, DeckEmptied, PuzzleTaken, RowRecycled, TurnStarted
from ..expansions.base import card_in_play, end_of_round, expansions_for, last_round_cap, tiebreak
from ..pieces import BASE_SHAPES, Shape
from ..rng import Rng
from ..rules import ScoreLine, score_lines, trigger_end
from ..state import (
    ACTIONS_PER_TURN,
    MAX_UNFINISHED,
    ROW_SIZE,
    GameState,
    LineClearTable,
    OpenPuzzle,
    Options,
    PlayerState,
    RowsTable,
    Table,
    counts_of,
)
from ..work import Work


class Variant:
    """Hooks a variant provides. Subclasses override what differs."""

    name = "variant"
    min_players = 1
    max_players = 1

    def setup(self, options: Options, cards: Sequence[PuzzleCard], seed: int) -> GameState:
        raise NotImplementedError

    def validate_options(self, options: Options) -> None:
        """Refuse options this variant cannot set up (an IllegalActionError keyed in
        :mod:`engine.messages`): the one check of a table's options, made before dealing
        (:func:`engine.game.check_options`), so it needs no cards."""
        if not self.min_players <= options.players <= self.max_players:
            raise IllegalActionError("setup.players", variant=self.name, low=self.min_players,
                                     high=self.max_players)
        if options.reserve not in (10, 15):
            raise IllegalActionError("setup.reserve")
        if options.endless_white and (options.players < 2 or options.variant == "solo"):
            raise IllegalActionError("setup.endless_solo")
        for expansion in expansions_for(options):
            expansion.validate_options(options)

    def end_turn(self, w: Work) -> bool:
        """The focused turn is over: start the next one. True when play is over instead (the
        last round is done), so the turn flow moves to Finishing Touches.

        The default is one turn at a time, clockwise from the first player; a round ends when
        the turn comes back round to the first player.
        """
        self.after_player_turn(w)
        count = len(w.players)
        following = w.current
        wrapped = False
        for _ in range(count):
            following = (following + 1) % count
            wrapped = wrapped or following == w.base.first_player
            if not w.players[following].removed:
                break
        if wrapped:
            if w.last_round is not None and w.round >= w.last_round:
                return True
            if end_of_round(w):
                return True
            w.round += 1
        w.current = following
        w.turn += 1
        w.actions_left = ACTIONS_PER_TURN
        w.master_used = False
        w.black_taken = False
        w.emit(TurnStarted(w.current, w.round))
        return False

    def final_round(self, state: GameState | Work) -> int | None:
        """The round that will be the last one played, once the end is triggered (None before):
        the round after the trigger's (``last_round``), or earlier when an expansion ends play
        first (Finesse: its last tile leaves at the end of round 10). What players are told."""
        if state.last_round is None:
            return None
        cap = last_round_cap(state)
        return state.last_round if cap is None else min(state.last_round, cap)

    def seat_removed(self, w: Work, seat: int) -> bool:
        """``seat`` is leaving during play (asked before its pending choices are dropped). True
        when its running turn must end now."""
        return seat == w.current

    # -- the market --------------------------------------------------------------------------
    def market_actions(self, state: GameState) -> Iterator[Action]:
        raise NotImplementedError

    def take(self, w: Work, action: TakePuzzle) -> None:
        raise NotImplementedError

    def card_for_take(self, state: GameState, action: TakePuzzle) -> str | None:
        """The face-up card ``action`` would take for the current seat (None: empty or no such
        slot). Policies and previews read the market through this."""
        raise NotImplementedError

    def draw(self, w: Work, action: DrawPuzzle) -> None:
        raise NotImplementedError

    def recycle(self, w: Work, action: Recycle) -> None:
        raise ActionNotAvailableError("recycle.not_available")

    # -- between turns -------------------------------------------------------------------------
    def after_player_turn(self, w: Work) -> None:
        """Runs when a player's third action is done, before the next turn starts."""

    # -- the end -------------------------------------------------------------------------------
    def winners(self, state: GameState) -> tuple[int, ...]:
        """Seats that win (several on a shared victory)."""
        lines = [line for line in score_lines(state) if not state.players[line.seat].removed]
        return rank_by_tiebreaks(lines, lambda seat: tiebreak(state, seat))[0]

    def opponent_score(self, state: GameState) -> int | None:
        """The automated opponent's score, for variants that have one."""
        return None


def rank_by_tiebreaks(
    lines: Sequence[ScoreLine], extra: Callable[[int], tuple[Any, ...]] | None = None
) -> list[tuple[int, ...]]:
    """Groups of seats from first place down. Ties: ``extra(seat)`` first when given (an
    expansion's own tie-break, e.g. Finesse credits), then most completed puzzles, then most
    pieces left in supply; players still equal share the place."""

    def key(line: ScoreLine) -> tuple[Any, ...]:
        first = extra(line.seat) if extra is not None else ()
        return (line.total, *first, line.completed_count, line.supply_left)

    groups: list[tuple[int, ...]] = []
    for value in sorted({key(line) for line in lines}, reverse=True):
        groups.append(tuple(line.seat for line in lines if key(line) == value))
    return groups


@lru_cache(maxsize=64)
def recycle_actions(colour: Colour, slots: tuple[int, ...]) -> tuple[Recycle, ...]:
    """Every order a row can go under its deck (cached: the same few rows recur all game)."""
    return tuple(Recycle(colour, order) for order in permutations(slots))


def _occupied(row: tuple[str | None, ...]) -> tuple[int, ...]:
    """The slots (1-4) of a row that hold a card."""
    return tuple(i for i, card in enumerate(row, 1) if card is not None)


@lru_cache(maxsize=1024)
def _market_actions(
    room: bool, black_blocked: bool, white_slots: tuple[int, ...], white_deck: bool,
    black_slots: tuple[int, ...], black_deck: bool,
) -> tuple[Action, ...]:
    """The market's legal actions, in order (per colour: takes by slot, the draw, every recycle
    order). They depend only on which slots hold a card, whether each deck has one, room for a
    puzzle and the one-black limit (a few hundred combinations), not on the cards themselves, so
    they are built once: random play rebuilt some 50 of them per action."""
    actions: list[Action] = []
    for colour, slots, deck, blocked in (
        (Colour.WHITE, white_slots, white_deck, False),
        (Colour.BLACK, black_slots, black_deck, black_blocked),
    ):
        if room and not blocked:
            actions.extend(TakePuzzle(colour, slot) for slot in slots)
            if deck:
                actions.append(DrawPuzzle(colour))
        if deck and slots:
            actions.extend(recycle_actions(colour, slots))
    return tuple(actions)


def check_room_for_puzzle(w: Work) -> None:
    if len(w.player.puzzles) >= MAX_UNFINISHED:
        raise PuzzleLimitError("take.limit", limit=MAX_UNFINISHED)


def add_puzzle(w: Work, card: str) -> None:
    w.set_player(w.current, puzzles=w.player.puzzles + (OpenPuzzle(card),))


def cards_in_play(options: Options, cards: Sequence[PuzzleCard]) -> tuple[list[str], list[str]]:
    """Ids of the white and the black cards this table deals from, in catalogue order: the base
    cards plus those of the expansions switched on (they are shuffled into the same decks)."""
    usable = [c for c in cards if card_in_play(c, options)]
    return (
        [c.id for c in usable if c.colour is Colour.WHITE],
        [c.id for c in usable if c.colour is Colour.BLACK],
    )


def starting_state(
    options: Options, seed: int, rng: Rng, cards: Sequence[PuzzleCard], table: Table, *, first: int = 0,
    **fields: object,
) -> GameState:
    """A new game's state: the full reserve (with the expansions' pieces) less a level-1 and a
    level-2 piece for each seat, the whole catalogue (so :func:`engine.game.initial_state` can
    rebuild it), and the dealt table. ``fields`` set further state fields (Line Clear's turns)."""
    supply = counts_of({Shape.MONO: 1, Shape.DOMINO: 1})
    reserve = [0] * len(supply)
    for shape in BASE_SHAPES:
        reserve[shape.index] = options.reserve - supply[shape.index] * options.players
    for expansion in expansions_for(options):
        for shape, n in expansion.reserve(options).items():
            reserve[shape.index] += n
    ext: dict[str, Any] = {}
    for expansion in expansions_for(options):
        data = expansion.setup(options, rng)
        if data is not None:
            ext[expansion.name] = data
    return GameState(
        options=options,
        seed=seed,
        rng_state=rng.state,
        cards={c.id: c for c in cards},
        reserve=tuple(reserve),
        players=tuple(PlayerState(supply) for _ in range(options.players)),
        table=table,
        current=first,
        first_player=first,
        ext=ext,
        **fields,  # type: ignore[arg-type]
    )


class RowsGame(Variant):
    """The base game for 2–4 players: a white and a black row of four puzzles."""

    name = "base"
    min_players = 2
    max_players = 4
    black_limit_after_trigger = True
    row_size = ROW_SIZE

    def deal(
        self, options: Options, cards: Sequence[PuzzleCard], seed: int, *, shortage: str = "setup.catalogue"
    ) -> tuple[Rng, list[str], list[str], int]:
        """The start every rows table shares, reading the seed in this order (replays depend on
        it): the white and the black cards in play shuffled, the black cut to the mode's count,
        and the first player. Returns the generator to go on with, both piles and the first seat.
        ``shortage`` is the refusal (a key of :mod:`engine.messages`) when the cards are too few."""
        self.validate_options(options)
        rng = Rng(seed)
        white, black = cards_in_play(options, cards)
        need_white, need_black = MODES[f"{options.players}p"]
        if len(white) < need_white or len(black) < need_black:
            raise IllegalActionError(shortage, white=len(white), black=len(black),
                                     players=options.players, need_white=need_white, need_black=need_black)
        rng.shuffle(white)
        rng.shuffle(black)
        return rng, white, black[:need_black], rng.below(options.players)

    def setup(self, options: Options, cards: Sequence[PuzzleCard], seed: int) -> GameState:
        rng, white, black, first = self.deal(options, cards, seed)
        table = RowsTable(
            white_deck=tuple(white[ROW_SIZE:]),
            black_deck=tuple(black[ROW_SIZE:]),
            white_row=tuple(white[:ROW_SIZE]),
            black_row=tuple(black[:ROW_SIZE]),
        )
        return starting_state(options, seed, rng, cards, table, first=first)

    # -- legal market actions ----------------------------------------------------------------
    def market_actions(self, state: GameState) -> Iterator[Action]:
        table = state.table
        assert isinstance(table, RowsTable)
        room = len(state.players[state.current].puzzles) < MAX_UNFINISHED
        blocked = self._black_blocked(state.last_round, state.black_taken)
        return iter(_market_actions(
            room, blocked, _occupied(table.white_row), bool(table.white_deck),
            _occupied(table.black_row), bool(table.black_deck),
        ))

    def _black_blocked(self, last_round: int | None, black_taken: bool) -> bool:
        return self.black_limit_after_trigger and last_round is not None and black_taken

    def _check_take(self, w: Work, colour: Colour | None) -> Colour:
        if colour is None:
            raise IllegalActionError("take.which_row")
        check_room_for_puzzle(w)
        if colour is Colour.BLACK and self._black_blocked(w.last_round, w.black_taken):
            raise BlackLimitError("take.one_black")
        return colour

    def _after_take(self, w: Work, colour: Colour) -> None:
        # Only a black taken once the end is triggered counts toward the one-black limit: the
        # rulebook (p. 7) leaves out "any puzzles they may have taken before the end of the game
        # was triggered". The take that empties the deck triggers before this runs, so it counts.
        if colour is Colour.BLACK and w.last_round is not None:
            w.black_taken = True

    def card_for_take(self, state: GameState, action: TakePuzzle) -> str | None:
        table = state.table
        assert isinstance(table, RowsTable)
        if action.colour is None:
            return None
        row = table.row(action.colour)
        return row[action.slot - 1] if 0 < action.slot <= len(row) else None

    # -- applying -------------------------------------------------------------------------------
    def take(self, w: Work, action: TakePuzzle) -> None:
        colour = self._check_take(w, action.colour)
        row = list(self._row(w, colour))
        index = action.slot - 1
        if not 0 <= index < len(row) or row[index] is None:
            raise self._no_puzzle_at(w, colour, action.slot)
        card = row[index]
        assert card is not None
        deck = self._deck(w, colour)
        row[index] = deck.pop(0) if deck else None
        self._store_row(w, colour, deck, row)
        add_puzzle(w, card)
        w.emit(PuzzleTaken(w.current, card, "row", colour, action.slot))
        revealed = row[index]
        if revealed is not None:
            w.emit(CardRevealed(revealed, colour, action.slot))
            self._deck_drawn(w, colour, deck)
        self._after_take(w, colour)

    def draw(self, w: Work, action: DrawPuzzle) -> None:
        colour = self._check_take(w, action.colour)
        deck = self._deck(w, colour)
        if not deck:
            raise EmptySlotError("draw.empty_deck", colour=colour)
        card = deck.pop(0)
        self._store_row(w, colour, deck, list(self._row(w, colour)))
        add_puzzle(w, card)
        w.emit(PuzzleTaken(w.current, card, "deck", colour, None))
        self._deck_drawn(w, colour, deck)
        self._after_take(w, colour)

    def recycle(self, w: Work, action: Recycle) -> None:
        colour = action.colour
        row = list(self._row(w, colour))
        deck = self._deck(w, colour)
        occupied = sorted(i + 1 for i, card in enumerate(row) if card is not None)
        if not occupied:
            raise self._empty_row(colour)
        if not deck:
            raise EmptySlotError("recycle.empty_deck", colour=colour)
        if sorted(action.order) != occupied:
            listed = " ".join(str(s) for s in occupied)
            raise self._wrong_order(colour, listed)
        recycled = [row[slot - 1] for slot in action.order]
        deck.extend(c for c in recycled if c is not None)
        new_row: list[str | None] = [deck.pop(0) if deck else None for _ in range(self.row_size)]
        self._store_row(w, colour, deck, new_row)
        w.emit(RowRecycled(colour, tuple(c for c in recycled if c is not None)))
        for i, card in enumerate(new_row):
            if card is not None:
                w.emit(CardRevealed(card, colour, i + 1))

    # -- the rows the current seat uses (Line Clear: those on its marker's side) ------------------
    def _row(self, w: Work, colour: Colour) -> tuple[str | None, ...]:
        """The face-up ``colour`` row the current seat takes from, draws beside and recycles."""
        table = w.table
        assert isinstance(table, RowsTable)
        return table.row(colour)

    @staticmethod
    def _deck(w: Work, colour: Colour) -> list[str]:
        table = w.table
        assert isinstance(table, (RowsTable, LineClearTable))
        return list(table.deck(colour))

    def _store_row(self, w: Work, colour: Colour, deck: list[str], row: list[str | None]) -> None:
        """Put the ``colour`` deck and the current seat's ``colour`` row back on the table."""
        table = w.table
        assert isinstance(table, RowsTable)
        w.table = self._with(table, colour, deck, row)

    def _no_puzzle_at(self, w: Work, colour: Colour, slot: int) -> EmptySlotError:
        """The refusal of a take from an empty (or missing) slot of the current seat's row."""
        return EmptySlotError("take.empty_slot", slot=slot, colour=colour)

    def _empty_row(self, colour: Colour) -> EmptySlotError:
        """The refusal of a Recycle of an empty row."""
        return EmptySlotError("recycle.empty_row", colour=colour)

    def _wrong_order(self, colour: Colour, positions: str) -> IllegalActionError:
        """The refusal of a Recycle order that does not name each card of the row once."""
        return IllegalActionError("recycle.order", colour=colour, positions=positions)

    def _deck_drawn(self, w: Work, colour: Colour, deck: list[str]) -> None:
        """A card left ``colour``'s deck (the table already holds ``deck``). The shared
        deck-emptied path of the rows variants (base game and Line Clear): the black deck running
        out triggers the end; the white one is renewed under Endless White Deck."""
        if not deck:
            w.emit(DeckEmptied(colour))
            if colour is Colour.BLACK:
                trigger_end(w, self.final_round)
            else:
                renew_white_deck(w)

    @staticmethod
    def _with(table: RowsTable, colour: Colour, deck: list[str], row: list[str | None]) -> RowsTable:
        if colour is Colour.WHITE:
            return replace(table, white_deck=tuple(deck), white_row=tuple(row))
        return replace(table, black_deck=tuple(deck), black_row=tuple(row))
