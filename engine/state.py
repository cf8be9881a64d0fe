"""The game state: plain immutable data that serialises to JSON and back exactly.

A state knows everything needed to continue the game, including its seed and every card of the
catalogue it was dealt from, in catalogue order (so a custom catalogue cannot change an old game
under its feet, and :func:`engine.game.initial_state` can rebuild its start). It does not know
player names: seats are numbers, names belong to whoever displays the game.

The cards are most of a state's JSON (about 80 % of its bytes and most of ``dumps``' time) and
never change during a game, so a store may keep them once per game: ``to_json(cards=False)``
writes only the catalogue's content key (:func:`catalogue_key`) in their place, and
``from_json(data, cards=...)`` takes them back. Both forms read back to the same state.

Pieces are counted in tuples indexed by :attr:`engine.pieces.Shape.index`.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Colour, PuzzleCard, parse_reward
from .errors import StateFormatError
from .pieces import GRID, SHAPE_COUNT, SHAPES, Shape, mask_to_text, parse_cells, parse_shape

SCHEMA_VERSION = 3
"""3: the cards may be kept apart from the state, which then names them by ``catalogue`` (their
content key) instead of listing them under ``cards``; 2 always listed them (and is read as it is).
2: the Solo grid is stored row by row (positions 1 2 3 are the top row); 1 stored it column by
column. Version-1 states are converted when read."""
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


def counts_to_json(counts: Counts) -> dict[str, int]:
    return {SHAPES[i].value: n for i, n in enumerate(counts) if n}


def counts_from_json(data: dict[str, int]) -> Counts:
    return counts_of({parse_shape(code): int(n) for code, n in data.items()})


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

    @classmethod
    def for_players(cls, players: int, *, ghost: bool | None = None, **options: Any) -> Options:
        """Options for a table of ``players``: Solo for 1, the base game for 2–4, Line Clear for
        5–6. ``ghost`` defaults to on for Line Clear (the seed document plays it with the Ghost
        Piece expansion; 6 players cannot play without it) and off otherwise."""
        variant = "solo" if players == 1 else "base" if players <= 4 else "lineclear"
        if ghost is None:
            ghost = variant == "lineclear"
        return cls(players=players, variant=variant, ghost=ghost, **options)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "players": self.players,
            "variant": self.variant,
            "reserve": self.reserve,
            "unfinished_penalty": self.unfinished_penalty,
            "difficulty": self.difficulty.value,
        }
        if self.ghost:
            data["ghost"] = True
        if self.finesse:
            data["finesse"] = True
        if not self.known_scores:
            data["known_scores"] = False
        if self.endless_white:
            data["endless_white"] = True
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        return cls(
            players=int(data["players"]),
            variant=str(data["variant"]),
            reserve=int(data["reserve"]),
            unfinished_penalty=bool(data["unfinished_penalty"]),
            difficulty=Difficulty(data["difficulty"]),
            ghost=bool(data.get("ghost", False)),
            finesse=bool(data.get("finesse", False)),
            known_scores=bool(data.get("known_scores", True)),
            endless_white=bool(data.get("endless_white", False)),
        )


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

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self, *, cards: bool = True) -> dict[str, Any]:
        """The state as JSON data. ``cards=False`` leaves the catalogue out and names it by its
        content key instead (``"catalogue"``): the form to store when the cards are kept once
        per game; :meth:`from_json` then needs them back."""
        data: dict[str, Any] = {
            "schema": self.schema,
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng_state": self.rng_state,
            **({"cards": cards_to_json(self.cards)} if cards else {"catalogue": catalogue_key(self.cards)}),
            "reserve": counts_to_json(self.reserve),
            "players": [_player_to_json(p) for p in self.players],
            "table": _table_to_json(self.table),
            "phase": self.phase.value,
            "current": self.current,
            "first_player": self.first_player,
            "round": self.round,
            "turn": self.turn,
            "actions_left": self.actions_left,
            "master_used": self.master_used,
            "black_taken": self.black_taken,
            "last_round": self.last_round,
            **({"turns": [_turn_to_json(t) for t in self.turns]} if self.turns else {}),
            **({"ext": self.ext} if self.ext else {}),
            **({"held": list(self.held)} if self.held else {}),
        }
        if self.pending:
            data["pending"] = [_decision_to_json(d) for d in self.pending]
        return data

    def dumps(self, *, cards: bool = True) -> str:
        """Compact, key-sorted JSON text: equal states give equal text. ``cards=False``: without
        the catalogue (see :meth:`to_json`)."""
        return json.dumps(self.to_json(cards=cards), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: dict[str, Any], cards: Mapping[str, PuzzleCard] | None = None) -> GameState:
        """The state in ``data``. A state stored without its cards names its catalogue; pass
        those cards as ``cards`` (checked against the name). A state that lists its cards is
        read from them, whatever ``cards`` is."""
        try:
            schema = int(data["schema"])
            if schema == 1:
                data = _from_schema_1(data)
                schema = 2
            if schema == 2:  # the cards were always listed: nothing else changed
                schema = SCHEMA_VERSION
            if schema != SCHEMA_VERSION:
                raise StateFormatError(
                    f"This game was saved with state schema {schema}; this version reads "
                    f"{SCHEMA_VERSION}."
                )
            return cls(
                options=Options.from_json(data["options"]),
                seed=int(data["seed"]),
                rng_state=int(data["rng_state"]),
                cards=_cards_of(data, cards),
                reserve=counts_from_json(data["reserve"]),
                players=tuple(_player_from_json(p) for p in data["players"]),
                table=_table_from_json(data["table"]),
                phase=Phase(data["phase"]),
                current=int(data["current"]),
                first_player=int(data["first_player"]),
                round=int(data["round"]),
                turn=int(data["turn"]),
                actions_left=int(data["actions_left"]),
                master_used=bool(data["master_used"]),
                black_taken=bool(data["black_taken"]),
                last_round=None if data["last_round"] is None else int(data["last_round"]),
                pending=tuple(_decision_from_json(d) for d in data.get("pending", ())),
                turns=tuple(_turn_from_json(t) for t in data.get("turns", ())),
                ext=dict(data.get("ext", {})),
                held=tuple(int(s) for s in data.get("held", ())),
                schema=schema,
            )
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise StateFormatError(f"Stored game state is malformed: {error!r}") from error

    @classmethod
    def loads(cls, text: str, cards: Mapping[str, PuzzleCard] | None = None) -> GameState:
        """:meth:`dumps`' text back as a state (``cards``: as in :meth:`from_json`)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise StateFormatError(f"Stored game state is not JSON: {error}") from error
        if not isinstance(data, dict):
            raise StateFormatError("Stored game state is not a JSON object.")
        return cls.from_json(data, cards)


# -- the catalogue, stored apart -------------------------------------------------------------------


def cards_to_json(cards: Mapping[str, PuzzleCard]) -> list[dict[str, Any]]:
    """The cards as JSON data, in catalogue order (the ``cards`` list of a full state)."""
    return [_card_to_json(c) for c in cards.values()]


def cards_from_json(data: Iterable[dict[str, Any]]) -> dict[str, PuzzleCard]:
    """:func:`cards_to_json`'s data back as cards by id, in catalogue order. Raises
    :class:`StateFormatError` when it is malformed."""
    try:
        cards = [_card_from_json(c) for c in data]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise StateFormatError(f"Stored catalogue is malformed: {error!r}") from error
    return {c.id: c for c in cards}


def catalogue_text(cards: Mapping[str, PuzzleCard]) -> str:
    """The cards as compact, key-sorted JSON text: what a store keeps once per catalogue, and
    what :func:`catalogue_key` hashes."""
    return json.dumps(cards_to_json(cards), sort_keys=True, separators=(",", ":"))


def cards_from_text(text: str) -> dict[str, PuzzleCard]:
    """:func:`catalogue_text` back as cards; :class:`StateFormatError` if it is not that."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as error:
        raise StateFormatError(f"Stored catalogue is not JSON: {error}") from error
    if not isinstance(data, list):
        raise StateFormatError("Stored catalogue is not a JSON list.")
    return cards_from_json(data)


CATALOGUE_KEY_CHARS = 32
"""Hex digits of SHA-256 kept in a catalogue key (128 bits: no two catalogues share one)."""

_KEYS: OrderedDict[int, tuple[Mapping[str, PuzzleCard], str]] = OrderedDict()
_KEYS_KEPT = 64


def catalogue_key(cards: Mapping[str, PuzzleCard]) -> str:
    """The content key of a catalogue: a hash of :func:`catalogue_text`, so equal cards in the
    same order give the same key everywhere, and any change to a card gives another.

    Every state of a game shares one cards mapping (states are immutable and never change their
    cards), so the key is remembered per mapping object: hashing is paid once per game loaded,
    not per ``dumps``. The mapping is kept referenced while remembered, so its id cannot be
    reused by another object meanwhile."""
    found = _KEYS.get(id(cards))
    if found is not None and found[0] is cards:
        _KEYS.move_to_end(id(cards))
        return found[1]
    key = hashlib.sha256(catalogue_text(cards).encode()).hexdigest()[:CATALOGUE_KEY_CHARS]
    _KEYS[id(cards)] = (cards, key)
    while len(_KEYS) > _KEYS_KEPT:
        _KEYS.popitem(last=False)
    return key


def _cards_of(data: dict[str, Any], cards: Mapping[str, PuzzleCard] | None) -> dict[str, PuzzleCard]:
    """A stored state's cards: listed in it, or the ``cards`` given for the catalogue it names."""
    if "cards" in data:
        return {c.id: c for c in (_card_from_json(c) for c in data["cards"])}
    named = str(data["catalogue"])
    if cards is None:
        raise StateFormatError(f"This state was stored without its catalogue ({named}), which is needed.")
    if catalogue_key(cards) != named:
        raise StateFormatError(
            f"This state was dealt from catalogue {named}, not from the one given ({catalogue_key(cards)})."
        )
    return cards if isinstance(cards, dict) else dict(cards)


# -- JSON helpers --------------------------------------------------------------------------------


def _card_to_json(card: PuzzleCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "colour": card.colour.value,
        "points": card.points,
        "reward": card.reward.value,
        "recess": card.recess_rows(),
    }


def _card_from_json(data: dict[str, Any]) -> PuzzleCard:
    rows = data["recess"]
    if len(rows) != GRID or any(len(r) != GRID for r in rows):
        raise ValueError(f"card {data.get('id')}: recess must be 5 rows of 5")
    mask = 0
    for row, line in enumerate(rows):
        for col, char in enumerate(line):
            if char == "#":
                mask |= 1 << (row * GRID + col)
    return PuzzleCard(
        id=str(data["id"]),
        colour=Colour(data["colour"]),
        points=int(data["points"]),
        reward=parse_reward(str(data["reward"])),
        recess=mask,
    )


def _pieces_to_json(pieces: tuple[Placed, ...]) -> list[list[str]]:
    return [[p.shape.value, mask_to_text(p.mask)] for p in pieces]


def _pieces_from_json(data: list[list[str]]) -> tuple[Placed, ...]:
    return tuple(Placed(parse_shape(shape), parse_cells(cells)) for shape, cells in data)


def _player_to_json(player: PlayerState) -> dict[str, Any]:
    return {
        "supply": counts_to_json(player.supply),
        "puzzles": [{"card": p.card, "pieces": _pieces_to_json(p.pieces)} for p in player.puzzles],
        "completed": [
            {"card": d.card, "finishing": d.finishing, "pieces": _pieces_to_json(d.pieces)}
            for d in player.completed
        ],
        "finishing_pieces": player.finishing_pieces,
        "finished_touches": player.finished_touches,
        "removed": player.removed,
        **({"banked_points": player.banked_points} if player.banked_points else {}),
        **({"banked_cards": player.banked_cards} if player.banked_cards else {}),
    }


def _player_from_json(data: dict[str, Any]) -> PlayerState:
    return PlayerState(
        supply=counts_from_json(data["supply"]),
        puzzles=tuple(
            OpenPuzzle(str(p["card"]), _pieces_from_json(p["pieces"])) for p in data["puzzles"]
        ),
        completed=tuple(
            DonePuzzle(str(d["card"]), bool(d["finishing"]), _pieces_from_json(d["pieces"]))
            for d in data["completed"]
        ),
        finishing_pieces=int(data["finishing_pieces"]),
        finished_touches=bool(data["finished_touches"]),
        removed=bool(data.get("removed", False)),
        banked_points=int(data.get("banked_points", 0)),
        banked_cards=int(data.get("banked_cards", 0)),
    )


def _decision_to_json(decision: PendingDecision) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seat": decision.seat, "kind": decision.kind, "options": list(decision.options),
    }
    if decision.about:
        data["about"] = decision.about
    return data


def _decision_from_json(data: dict[str, Any]) -> PendingDecision:
    return PendingDecision(
        seat=int(data["seat"]),
        kind=str(data["kind"]),
        options=tuple(str(o) for o in data["options"]),
        about=str(data.get("about", "")),
    )


def _from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 stored the Solo grid column by column; schema 2 row by row (a transpose)."""
    table = data["table"]
    if table.get("kind") != "solo":
        return data
    grid = list(table["grid"])
    if len(grid) != SOLO_GRID:
        raise ValueError("solo grid must have 9 slots")
    by_rows = [grid[(i % 3) * 3 + i // 3] for i in range(SOLO_GRID)]
    return {**data, "table": {**table, "grid": by_rows}}


def _slots(data: list[str | None]) -> tuple[str | None, ...]:
    return tuple(None if c is None else str(c) for c in data)


def _turn_to_json(turn: Turn) -> dict[str, Any]:
    return {
        "seat": turn.seat, "side": turn.side, "actions_left": turn.actions_left,
        "master_used": turn.master_used, "black_taken": turn.black_taken,
    }


def _turn_from_json(data: dict[str, Any]) -> Turn:
    side = str(data["side"])
    if side not in SIDES:
        raise ValueError(f"unknown side {side!r}")
    return Turn(
        seat=int(data["seat"]), side=side, actions_left=int(data["actions_left"]),
        master_used=bool(data["master_used"]), black_taken=bool(data["black_taken"]),
    )


def _table_to_json(table: Table) -> dict[str, Any]:
    if isinstance(table, LineClearTable):
        return {
            "kind": "lineclear",
            "white_deck": list(table.white_deck),
            "black_deck": list(table.black_deck),
            "left_white": list(table.left_white),
            "left_black": list(table.left_black),
            "right_white": list(table.right_white),
            "right_black": list(table.right_black),
            "markers": list(table.markers),
            "receipts": table.receipts,
        }
    if isinstance(table, RowsTable):
        return {
            "kind": "rows",
            "white_deck": list(table.white_deck),
            "black_deck": list(table.black_deck),
            "white_row": list(table.white_row),
            "black_row": list(table.black_row),
        }
    return {
        "kind": "solo",
        "deck": list(table.deck),
        "grid": list(table.grid),
        "locks": list(table.locks),
        "mastermind_supply": table.mastermind_supply,
        "mastermind_pile": list(table.mastermind_pile),
    }


def _table_from_json(data: dict[str, Any]) -> Table:
    if data["kind"] == "rows":
        return RowsTable(
            white_deck=tuple(str(c) for c in data["white_deck"]),
            black_deck=tuple(str(c) for c in data["black_deck"]),
            white_row=_slots(data["white_row"]),
            black_row=_slots(data["black_row"]),
        )
    if data["kind"] == "solo":
        locks = tuple(int(n) for n in data["locks"])
        if len(locks) != 3:
            raise ValueError("solo locks must have 3 columns")
        return SoloTable(
            deck=tuple(str(c) for c in data["deck"]),
            grid=_slots(data["grid"]),
            locks=(locks[0], locks[1], locks[2]),
            mastermind_supply=int(data["mastermind_supply"]),
            mastermind_pile=tuple(str(c) for c in data["mastermind_pile"]),
        )
    if data["kind"] == "lineclear":
        markers = tuple(int(n) for n in data["markers"])
        if len(markers) != 2:
            raise ValueError("line clear needs 2 markers")
        return LineClearTable(
            white_deck=tuple(str(c) for c in data["white_deck"]),
            black_deck=tuple(str(c) for c in data["black_deck"]),
            left_white=_slots(data["left_white"]),
            left_black=_slots(data["left_black"]),
            right_white=_slots(data["right_white"]),
            right_black=_slots(data["right_black"]),
            markers=(markers[0], markers[1]),
            receipts=int(data.get("receipts", 0)),
        )
    raise ValueError(f"unknown table kind {data['kind']!r}")
