"""The game state: plain immutable data (its JSON form is :mod:`engine.serialisation`).

A state knows everything needed to continue the game, including its seed and every card of the
catalogue it was dealt from, in catalogue order (so a custom catalogue cannot change an old game
under its feet, and :func:`engine.game.initial_state` can rebuild its start). It does not know
player names: seats are numbers, names belong to whoever displays the game.

Its JSON form, the stored schema and its versions are :mod:`engine.serialisation`'s.

Pieces are counted in tuples indexed by :attr:`engine.pieces.Shape.index`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Colour, PuzzleCard
from .pieces import SHAPE_COUNT, Shape

SCHEMA_VERSION = 4
"""4: a banked Ambassador card's unused action is the token ``banked:<id>`` (3 named it by the
bare id, which was back in the white deck; converted when read). 3: the cards may be kept apart
from the state, which then names them by ``catalogue`` (their content key) instead of listing them
under ``cards``; 2 always listed them (and is read as it is). 2: the Solo grid is stored row by
row (positions 1 2 3 are the top row); 1 stored it column by column. Version-1 states are
converted when read."""
ACTIONS_PER_TURN = 3
MAX_UNFINISHED = 4
ROW_SIZE = 4
LINE_CLEAR_ROW_SIZE = 3
SOLO_GRID = 9

Counts = tuple[int, ...]


def counts_of(mapping: dict[Shape, int]) -> Counts:
    values = [0] * SHAPE_COUNT
    for shape, n in mapping.items():
        values[shape.index] = n
    return tuple(values)



class Phase(enum.Enum):
    PLAY = "play"
    FINISHING = "finishing"
    OVER = "over"


class Difficulty(enum.Enum):
    """Solo difficulty: how many level-1 pieces the mastermind starts with."""

    NORMAL = "normal"
    HARD = "hard"
    UNBEATABLE = "unbeatable"

    @property
    def mastermind_pieces(self) -> int:
        return {"normal": 6, "hard": 3, "unbeatable": 0}[self.value]


@dataclass(frozen=True, slots=True)
class Options:
    """Table options (see docs/rules.md). ``players`` is 1 for Solo.

    ``variant`` owns the market and the turn order (``base``, ``solo``, ``lineclear``); expansions
    are switched on by their own flags (``ghost``) and compose with any variant
    (:mod:`engine.expansions`). :meth:`for_players` picks the variant and defaults for a count.
    """

    players: int = 2
    variant: str = "base"
    reserve: int = 10
    unfinished_penalty: bool = True
    difficulty: Difficulty = Difficulty.NORMAL
    ghost: bool = False
    finesse: bool = False
    known_scores: bool = True
    """Score piles face up (the rulebook's "Known Victory Points"); off = each player's completed
    cards and points are shown only to that player until the game ends."""
    endless_white: bool = False
    """Endless White Deck (2+ players): when the white deck runs out, every player banks the
    points of their completed white cards, which are shuffled into a new white deck."""
    ambassador: bool = False
    """Ambassador Pack: 1 white + 2 black Ambassador cards, flipped for an Ambassador action."""
    phoenix: bool = False
    """Phoenix: 7 black 6-point cards (a 6-player Line Clear table may play them instead of Ghost)."""
    finesse_ambassador: bool = False
    """Finesse Ambassador Pack (with ``finesse``): six more Set C tiles drawn with the others."""

    @classmethod
    def for_players(cls, players: int, *, ghost: bool | None = None, **options: Any) -> Options:
        """Options for a table of ``players``: Solo for 1, the base game for 2–4, Line Clear for
        5–6. ``ghost`` defaults to on for Line Clear (the seed document plays it with the Ghost
        Piece expansion; 6 players cannot play without it) and off otherwise."""
        variant = "solo" if players == 1 else "base" if players <= 4 else "lineclear"
        if ghost is None:
            ghost = variant == "lineclear"
        return cls(players=players, variant=variant, ghost=ghost, **options)


@dataclass(frozen=True, slots=True)
class Placed:
    """A piece lying on a puzzle card."""

    shape: Shape
    mask: int


@dataclass(frozen=True, slots=True)
class OpenPuzzle:
    """An unfinished puzzle in front of a player, with the pieces already on it."""

    card: str
    pieces: tuple[Placed, ...] = ()

    @property
    def filled(self) -> int:
        mask = 0
        for piece in self.pieces:
            mask |= piece.mask
        return mask


@dataclass(frozen=True, slots=True)
class DonePuzzle:
    """A completed card in a score pile. ``pieces`` are kept only for Finishing-Touch completions,
    whose pieces are spent with the card rather than returned."""

    card: str
    finishing: bool = False
    pieces: tuple[Placed, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerState:
    supply: Counts
    puzzles: tuple[OpenPuzzle, ...] = ()
    completed: tuple[DonePuzzle, ...] = ()
    finishing_pieces: int = 0
    finished_touches: bool = False
    removed: bool = False
    banked_points: int = 0
    """Endless White Deck: points of white cards this player completed before they were
    reshuffled into a new deck (they still count at the end)."""
    banked_cards: int = 0
    """How many completed white cards those banked points came from (they count as completed
    puzzles for the tie-break)."""

    def count(self, shape: Shape) -> int:
        return self.supply[shape.index]

    def puzzle(self, card: str) -> OpenPuzzle | None:
        for puzzle in self.puzzles:
            if puzzle.card == card:
                return puzzle
        return None

    @property
    def supply_size(self) -> int:
        return sum(self.supply)


@dataclass(frozen=True, slots=True)
class RowsTable:
    """The base game's market: a white and a black deck, each with a row of 4 face-up slots."""

    white_deck: tuple[str, ...]
    black_deck: tuple[str, ...]
    white_row: tuple[str | None, ...]
    black_row: tuple[str | None, ...]

    kind = "rows"

    def deck(self, colour: Colour) -> tuple[str, ...]:
        return self.white_deck if colour is Colour.WHITE else self.black_deck

    def row(self, colour: Colour) -> tuple[str | None, ...]:
        return self.white_row if colour is Colour.WHITE else self.black_row


@dataclass(frozen=True, slots=True)
class SoloTable:
    """Solo's market: one deck, a 3×3 grid (positions 1–9, numbered row by row), lock
    counters above the three columns, and the mastermind's supply and score pile.

    Lock and mastermind pieces are counters: they never come from the player's reserve.
    """

    deck: tuple[str, ...]
    grid: tuple[str | None, ...]
    locks: tuple[int, int, int]
    mastermind_supply: int
    mastermind_pile: tuple[str, ...] = ()

    kind = "solo"


@dataclass(frozen=True, slots=True)
class LineClearTable:
    """Line Clear's market (5–6 players): the two decks, and four face-up rows of 3 — a white
    and a black row on the left of the decks, another pair on the right.

    ``markers`` are the seats holding the White marker (takes from the left rows, may draw blind
    and recycle) and the Black marker (takes from the right rows). ``receipts`` counts the
    markers the first player has received since the end was triggered: the game ends at the
    second.
    """

    white_deck: tuple[str, ...]
    black_deck: tuple[str, ...]
    left_white: tuple[str | None, ...]
    left_black: tuple[str | None, ...]
    right_white: tuple[str | None, ...]
    right_black: tuple[str | None, ...]
    markers: tuple[int, int]
    receipts: int = 0

    kind = "lineclear"

    def deck(self, colour: Colour) -> tuple[str, ...]:
        return self.white_deck if colour is Colour.WHITE else self.black_deck

    def row(self, side: str, colour: Colour) -> tuple[str | None, ...]:
        name = f"{side}_{colour.value}"
        return getattr(self, name)  # type: ignore[no-any-return]


Table = RowsTable | SoloTable | LineClearTable

SIDES = ("left", "right")
"""Line Clear's sides: the White marker's (left rows) and the Black marker's (right rows)."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One of several turns played at the same time (Line Clear: the two marker holders).

    ``side`` is the side of the table this turn may take puzzles from (``left`` for the White
    marker, ``right`` for the Black). A turn whose ``actions_left`` is 0 is done and waits for
    the other one.
    """

    seat: int
    side: str
    actions_left: int = ACTIONS_PER_TURN
    master_used: bool = False
    black_taken: bool = False
    """A black puzzle taken in this turn since the end was triggered (the one-black limit)."""

    @property
    def done(self) -> bool:
        return self.actions_left <= 0


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """A choice the rules give a player, which the game waits for (see engine/decisions.py).

    ``kind`` names the resolver in :data:`engine.decisions.KINDS`; ``options`` are the canonical
    texts the player may answer with (``choose <option>``); ``about`` is the kind's own note of
    what the choice is for (for a substitute piece: the reason and the shape wanted, "reward O4").
    """

    seat: int
    kind: str
    options: tuple[str, ...]
    about: str = ""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about one game at one moment.

    ``current`` is the seat whose turn it is (also during Finishing Touches, which players take
    one after another). ``last_round`` is set when the end is triggered: the game plays until
    that round is over.
    """

    options: Options
    seed: int
    rng_state: int
    cards: dict[str, PuzzleCard] = field(compare=True, repr=False)
    reserve: Counts
    players: tuple[PlayerState, ...]
    table: Table
    phase: Phase = Phase.PLAY
    current: int = 0
    first_player: int = 0
    round: int = 1
    turn: int = 1
    actions_left: int = ACTIONS_PER_TURN
    master_used: bool = False
    black_taken: bool = False
    """A black puzzle taken in this turn since the end was triggered (the one-black limit)."""
    last_round: int | None = None
    pending: tuple[PendingDecision, ...] = ()
    turns: tuple[Turn, ...] = ()
    ext: dict[str, Any] = field(default_factory=dict, repr=False)
    held: tuple[int, ...] = ()
    """Seats whose actions are spent but whose turn an expansion keeps open (Finesse: 2 or more
    active credits could still pay for an Insert); the turn ends with ``end turn``."""
    schema: int = SCHEMA_VERSION

    # -- convenience -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def end_triggered(self) -> bool:
        return self.last_round is not None

    @property
    def acting_seat(self) -> int:
        """The seat whose answer or action the game waits for: a pending decision's seat first."""
        return self.pending[0].seat if self.pending else self.current

    def card(self, card_id: str) -> PuzzleCard:
        return self.cards[card_id]

    @property
    def concurrent(self) -> bool:
        """True when several turns are played at once (Line Clear's two marker holders)."""
        return bool(self.turns)

    def turn_of(self, seat: int) -> Turn | None:
        """The concurrent turn ``seat`` is playing, if any (None in single-turn variants)."""
        for turn in self.turns:
            if turn.seat == seat:
                return turn
        return None

    def decision_for(self, seat: int) -> PendingDecision | None:
        """The first decision ``seat`` has pending, if any."""
        return next((d for d in self.pending if d.seat == seat), None)

    @property
    def acting_seats(self) -> tuple[int, ...]:
        """Seats that may act now: the acting seat, or — while turns run at once — every seat
        whose turn is unfinished or who still has a decision to answer."""
        if self.phase is Phase.OVER:
            return ()
        if self.phase is Phase.PLAY and self.turns:
            return tuple(
                t.seat for t in self.turns
                if not t.done or t.seat in self.held or self.decision_for(t.seat) is not None
            )
        return (self.acting_seat,)

    def focused(self, seat: int) -> GameState:
        """This state seen from ``seat``'s concurrent turn: ``current``, ``actions_left``,
        ``master_used`` and ``black_taken`` are that turn's. Single-turn states come back as they
        are. The rules and legal enumeration read those four fields, so focusing is all a
        concurrent turn needs."""
        if not self.turns or seat == self.current:
            return self
        turn = self.turn_of(seat)
        if turn is None:
            return self
        return replace(
            self, current=seat, actions_left=turn.actions_left, master_used=turn.master_used,
            black_taken=turn.black_taken,
        )

    def evolve(self, **changes: Any) -> GameState:
        return replace(self, **changes)
