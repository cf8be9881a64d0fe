"""The Finesse expansion: credits for playing in the style the live tile asks for, spent on Insert.

* A bank of 35 credits. 30 tiles (Sets A, B, C; :data:`TILES`); a game deals 2 A + 2 B + 6 C,
  shuffled into a row of 10 (the game's seed), the first two face down. Tile k is live in round k
  (face-down tiles are never revealed: no Finesse in rounds 1–2); the leftmost tile leaves play
  at the end of each round, and when the last one leaves, play ends (straight to Finishing
  Touches).
* Pink tiles pay the moment they are achieved, blue ones at the end of the turn. New credits are
  inactive; at the end of the player's turn (after the blue tile has paid) they turn active.
  Empty bank: every player tied for the most credits returns one (an inactive one first), then
  the gain is taken.
* ``insert`` (:class:`~engine.actions.Insert`): pay 2 active credits for an extra action, at any
  time in your turn — so a turn whose actions are spent stays open while an Insert is affordable,
  until the player writes ``end turn``.
* Finishing Touches are paid with a credit instead of a point while the player has any; ties go
  to the player with most credits first.
* A removed player's credits go back to the bank (:meth:`FinesseExpansion.player_removed`).
* Solo: 20 white + 15 black puzzles; the mastermind takes two puzzles per turn (see
  :mod:`engine.variants.solo`) and earns no credits.

The rulings behind each line are in docs/rules.md ("Finesse expansion").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..actions import Action, AmbassadorAction, Insert, Master, Place, TakeLevelOne, Upgrade
from ..errors import IllegalActionError, WrongPhaseError
from ..events import (
    ActionInserted,
    CreditEarned,
    CreditPaidFinishing,
    CreditReturned,
    CreditsActivated,
    CreditsReturnedToBank,
    Event,
    FinesseTileRemoved,
    LevelledUp,
    PiecePlaced,
    PuzzleCompleted,
    PuzzleTaken,
)
from ..pieces import Shape
from ..rng import Rng
from ..state import GameState, Options, Phase, PlayerState
from ..work import Work
from .base import Expansion, register

BANK = 35
ROW_LENGTH = 10
FACE_DOWN = 2
INSERT_COST = 2
DEAL = {"A": 2, "B": 2, "C": 6}
SOLO_DECK = (20, 15)

TETROMINOES: tuple[Shape, ...] = (Shape.I4, Shape.L4, Shape.O4, Shape.S4, Shape.T4)
SMALL: tuple[Shape, ...] = (Shape.MONO, Shape.DOMINO, Shape.I3, Shape.L3)

PINK, BLUE = "pink", "blue"


@dataclass(frozen=True, slots=True)
class Tile:
    """One Finesse tile. ``rule`` names what it counts (see :func:`rule_text`); ``shapes`` are
    the pieces it depicts (Sets A and B, and Set C's piece tiles)."""

    id: str
    colour: str
    rule: str
    shapes: tuple[Shape, ...] = ()
    pack: str | None = None
    """The option that adds the tile (``finesse_ambassador``); None for the base 30."""
    in_solo: bool = True
    """False for a tile removed from Solo before the draw (the Recycle tile: Solo has no Recycle)."""

    def in_play(self, options: Options) -> bool:
        """Whether a table with ``options`` draws from this tile."""
        if self.pack is not None and not getattr(options, self.pack):
            return False
        return self.in_solo or options.players > 1

    @property
    def label(self) -> str:
        """Short name for events and the row: 'I, L, O' for a piece tile, else the rule."""
        if self.rule in RULES:
            return RULES[self.rule].short
        if self.rule in {"place", "pieces"} and self.id[0] in "AB":
            return ", ".join(s.value[0] for s in self.shapes)
        return _SHORT[self.rule] if self.rule not in {"place", "types"} else _SHORT[
            f"{self.rule}-{'small' if self.shapes == SMALL else 'tetro'}"
        ]

    @property
    def text(self) -> str:
        return rule_text(self)


_SHORT = {
    "unfinished": "unfinished puzzles",
    "master": "Master",
    "complete": "complete a puzzle",
    "take": "take a puzzle",
    "types": "types",
    "types-small": "small types",
    "types-tetro": "tetromino types",
    "place-small": "place small pieces",
    "place-tetro": "place tetrominoes",
    "upgrade": "Upgrade",
}


def _names(shapes: Sequence[Shape]) -> str:
    return ", ".join(s.value for s in shapes)


@dataclass(frozen=True, slots=True)
class TileRule:
    """A tile rule added by a pack (the Finesse Ambassador Pack's six): how it pays, in its own
    functions, so the base rules' code need not know it. ``blue(player)`` gives the reasons a
    blue tile pays at the end of the turn, ``pink(seat, action, events)`` those a pink tile pays
    for one action — one reason per credit."""

    short: str
    text: str
    blue: Callable[[PlayerState], list[str]] | None = field(default=None, compare=False)
    pink: Callable[[int, Action, Sequence[Event]], list[str]] | None = field(default=None, compare=False)


RULES: dict[str, TileRule] = {}
"""Tile rules registered by packs (:func:`register_tiles`), by rule name."""


def register_tiles(rules: dict[str, TileRule], tiles: Sequence[Tile]) -> None:
    """Add a pack's tile rules and tiles (drawn only when the tile's ``pack`` option is on)."""
    RULES.update(rules)
    TILES.update({t.id: t for t in tiles})


def rule_text(tile: Tile) -> str:
    """The tile's rule in one sentence, for `/projectl rules finesse` and the row image."""
    when = "at once" if tile.colour == PINK else "at the end of your turn"
    if tile.rule in RULES:
        return f"{tile.colour.capitalize()}: {RULES[tile.rule].text}"
    if tile.rule == "place":
        what = "for each piece you place that is one of " + _names(tile.shapes)
    elif tile.rule == "pieces":
        what = "for each " + " or ".join(s.value for s in tile.shapes) + (
            " in your supply or on your unfinished puzzles"
        )
    elif tile.rule == "unfinished":
        what = "for each unfinished puzzle you have"
    elif tile.rule == "master":
        what = "for each piece you place with Master"
    elif tile.rule == "complete":
        what = "for each puzzle you complete"
    elif tile.rule == "take":
        what = "for each puzzle you take"
    elif tile.rule == "types":
        what = "for each of " + _names(tile.shapes) + " you own (supply or unfinished puzzles)"
    else:
        what = "for each Upgrade action (taking a level-1 piece counts) and each level-up arrow used"
    return f"{tile.colour.capitalize()}: +1 credit {what}, {when}."


def _build_tiles() -> dict[str, Tile]:
    tiles: list[Tile] = []
    for i, triple in enumerate(combinations(TETROMINOES, 3), 1):
        tiles.append(Tile(f"A{i}", PINK, "place", triple))
    for i, pair in enumerate(combinations(TETROMINOES, 2), 1):
        tiles.append(Tile(f"B{i}", BLUE, "pieces", pair))
    tiles += [
        Tile("C1", BLUE, "unfinished"),
        Tile("C2", PINK, "master"),
        Tile("C3", PINK, "complete"),
        Tile("C4", PINK, "take"),
        Tile("C5", BLUE, "types", SMALL),
        Tile("C6", BLUE, "types", TETROMINOES),
        Tile("C7", PINK, "place", SMALL),
        Tile("C8", PINK, "place", TETROMINOES),
        Tile("C9", PINK, "upgrade"),
        Tile("C10", PINK, "upgrade"),
    ]
    return {t.id: t for t in tiles}


TILES: dict[str, Tile] = _build_tiles()
"""Every tile by id: A1–A10 (pink, the 10 triples of tetrominoes; A1 is I, L, O and A2 is
I, L, S as published), B1–B10 (blue, the 10 pairs), C1–C10 (Set C in the rulings' order), and
the packs' tiles once registered (the Finesse Ambassador Pack's C11–C16)."""


# -- reading the state ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FinesseView:
    """Finesse's part of a state, read-only (for renders, the bot and policies)."""

    bank: int
    row: tuple[str, ...]
    active: tuple[int, ...]
    inactive: tuple[int, ...]

    @property
    def removed(self) -> int:
        return ROW_LENGTH - len(self.row)

    @property
    def face_down(self) -> int:
        """How many tiles at the left of the row are face down."""
        return max(0, FACE_DOWN - self.removed)

    @property
    def live(self) -> Tile | None:
        """The tile that can be achieved now (None in rounds 1–2 and after the tenth)."""
        if not self.row or self.face_down:
            return None
        return TILES[self.row[0]]

    def credits(self, seat: int) -> int:
        return self.active[seat] + self.inactive[seat]


def view(state: GameState | Work) -> FinesseView | None:
    """Finesse's data in a state (or work copy); None when Finesse is not played."""
    data = state.ext.get(FinesseExpansion.name)
    if data is None:
        return None
    return FinesseView(
        data["bank"], tuple(data["row"]), tuple(data["active"]), tuple(data["inactive"])
    )


def hide_face_down(state: GameState) -> GameState:
    """``state`` with its face-down tiles (hidden: they leave play unnamed, never live) replaced
    by fixed stand-ins, the first tiles of :data:`TILES` not face up in the row: two states that
    differ only in which tiles lie face down become equal (a hint's public position,
    ``bot/core/play/thinking.py``)."""
    fv = view(state)
    if fv is None or not fv.face_down:
        return state
    up = fv.row[fv.face_down:]
    stand_ins = [tile for tile in TILES if tile not in up][:fv.face_down]
    data = {**state.ext[FinesseExpansion.name], "row": [*stand_ins, *up]}
    return state.evolve(ext={**state.ext, FinesseExpansion.name: data})


def _store(w: Work, fv: FinesseView) -> None:
    w.ext[FinesseExpansion.name] = {
        "bank": fv.bank, "row": list(fv.row), "active": list(fv.active),
        "inactive": list(fv.inactive),
    }


def _owned(player: PlayerState, shape: Shape) -> int:
    """Pieces of ``shape`` in the player's supply or on their unfinished puzzles."""
    on_puzzles = sum(1 for p in player.puzzles for piece in p.pieces if piece.shape is shape)
    return player.supply[shape.index] + on_puzzles


REASONS: dict[str, str] = {
    "unfinished": "unfinished puzzle {card}", "owns": "owns {piece}", "placed": "placed {piece}",
    "placed_master": "placed {piece} with Master", "completed": "completed {card}", "took": "took {card}",
    "upgraded": "upgraded to {piece}", "level1": "took a level-1 piece (an Upgrade)",
    "levelled": "levelled up to {piece}",
    "no_unfinished": "no unfinished puzzle", "recycled": "recycled a row",
    "every_level": "a piece of every level 1-4", "inserted": "inserted an action",
    "all_different": "no two pieces alike", "no_small": "no level-1 or level-2 piece",
}
"""Why a tile pays a credit, by kind: the English of :class:`CreditReason`."""


class CreditReason(str):
    """Why one credit was earned: the English phrase (it *is* that ``str``, as events show it)
    that keeps what it was built from — ``kind`` (a key of :data:`REASONS`) and ``subject`` (the
    card id or the piece's Shape, None for "level1") — so a reader in another language words it
    from those, never by reading the English back."""

    kind: str
    subject: str | Shape | None

    def __new__(cls, kind: str, subject: str | Shape | None = None) -> CreditReason:
        piece = subject.with_article if isinstance(subject, Shape) else None
        text = super().__new__(cls, REASONS[kind].format(card=subject, piece=piece))
        text.kind, text.subject = kind, subject
        return text

    def __reduce__(self) -> tuple[Any, ...]:  # pickles and copies keep the parts
        return (CreditReason, (self.kind, self.subject))


def blue_reasons(tile: Tile, player: PlayerState) -> list[str]:
    """What a blue tile pays ``player`` at the end of their turn: one reason per credit."""
    pack_rule = RULES.get(tile.rule)
    if pack_rule is not None:
        return pack_rule.blue(player) if pack_rule.blue is not None else []
    if tile.rule == "unfinished":
        return [CreditReason("unfinished", p.card) for p in player.puzzles]
    if tile.rule == "pieces":
        return [
            CreditReason("owns", s) for s in tile.shapes for _ in range(_owned(player, s))
        ]
    if tile.rule == "types":
        return [CreditReason("owns", s) for s in tile.shapes if _owned(player, s)]
    return []


def pink_reasons(tile: Tile, seat: int, action: Action, events: Sequence[Event]) -> list[str]:
    """What a pink tile pays ``seat`` for one action (or answer) and the events it produced."""
    pack_rule = RULES.get(tile.rule)
    if pack_rule is not None:
        return pack_rule.pink(seat, action, events) if pack_rule.pink is not None else []
    placed = [e for e in events if isinstance(e, PiecePlaced) and e.seat == seat and not e.finishing]
    if tile.rule == "place":
        return [CreditReason("placed", e.shape) for e in placed if e.shape in tile.shapes]
    if tile.rule == "master":
        # The Ambassador action is exactly a Master: the tile counts its pieces too.
        return [CreditReason("placed_master", e.shape) for e in placed] if isinstance(
            action, Master | AmbassadorAction) else []
    if tile.rule == "complete":
        return [
            CreditReason("completed", e.card) for e in events
            if isinstance(e, PuzzleCompleted) and e.seat == seat and not e.finishing
        ]
    if tile.rule == "take":
        return [CreditReason("took", e.card) for e in events if isinstance(e, PuzzleTaken) and e.seat == seat]
    if tile.rule == "upgrade":
        reasons: list[str] = []
        if isinstance(action, Upgrade):
            reasons.append(CreditReason("upgraded", action.take))
        elif isinstance(action, TakeLevelOne):
            reasons.append(CreditReason("level1"))
        reasons += [
            CreditReason("levelled", e.take) for e in events
            if isinstance(e, LevelledUp) and e.seat == seat
        ]
        return reasons
    return []


# -- changing credits ------------------------------------------------------------------------------


def gain_credit(w: Work, seat: int, tile: Tile, reason: str) -> None:
    """``seat`` takes one credit from the bank (inactive), applying the empty-bank rule first."""
    fv = view(w)
    assert fv is not None
    active, inactive, bank = list(fv.active), list(fv.inactive), fv.bank
    if bank == 0:
        totals = [a + i for a, i in zip(active, inactive, strict=True)]
        most = max(totals)
        for other, total in enumerate(totals):
            if total != most or most == 0:
                continue
            was_inactive = inactive[other] > 0
            if was_inactive:
                inactive[other] -= 1
            else:
                active[other] -= 1
            bank += 1
            w.emit(CreditReturned(other, was_inactive))
    if bank == 0:
        return
    bank -= 1
    inactive[seat] += 1
    _store(w, FinesseView(bank, fv.row, tuple(active), tuple(inactive)))
    w.emit(CreditEarned(seat, tile.label, reason))


class FinesseExpansion(Expansion):
    name = "finesse"
    option = "finesse"
    order = 20
    action_types = (Insert,)
    free_action_types = (Insert,)

    def setup(self, options: Options, rng: Rng) -> dict[str, Any]:
        row: list[str] = []
        for group, count in DEAL.items():
            ids = [t.id for t in TILES.values() if t.id.startswith(group) and t.in_play(options)]
            rng.shuffle(ids)
            row += ids[:count]
        rng.shuffle(row)
        players = options.players
        return {"bank": BANK, "row": row, "active": [0] * players, "inactive": [0] * players}

    def solo_deck(self, options: Options) -> tuple[int, int] | None:
        return SOLO_DECK

    def mastermind_takes(self, options: Options) -> int:
        return 2

    # -- Insert ---------------------------------------------------------------------------------
    def legal_actions(self, state: GameState) -> Iterator[Action]:
        fv = view(state)
        if fv is not None and state.phase is Phase.PLAY and fv.active[state.current] >= INSERT_COST:
            yield Insert()

    def apply_action(self, w: Work, action: Action) -> None:
        assert isinstance(action, Insert)
        if w.phase is not Phase.PLAY:
            raise WrongPhaseError("finesse.insert_finishing")
        fv = view(w)
        assert fv is not None
        seat = w.current
        if fv.active[seat] < INSERT_COST:
            if fv.inactive[seat]:
                raise IllegalActionError("finesse.insert_cost_inactive", cost=INSERT_COST,
                                         active=fv.active[seat], inactive=fv.inactive[seat])
            raise IllegalActionError("finesse.insert_cost", cost=INSERT_COST, active=fv.active[seat])
        active = list(fv.active)
        active[seat] -= INSERT_COST
        _store(w, FinesseView(fv.bank + INSERT_COST, fv.row, tuple(active), fv.inactive))
        w.actions_left += 1
        w.emit(ActionInserted(seat))

    def holds_turn(self, w: Work, seat: int) -> bool:
        fv = view(w)
        return fv is not None and w.phase is Phase.PLAY and fv.active[seat] >= INSERT_COST

    # -- tiles and credits -----------------------------------------------------------------------
    def after_action(self, w: Work, seat: int, action: Action, events: Sequence[Event]) -> None:
        fv = view(w)
        if fv is None:
            return
        if w.phase is Phase.FINISHING or any(
            isinstance(e, PiecePlaced) and e.finishing for e in events
        ):
            if isinstance(action, Place):
                self._pay_finishing(w, seat, fv)
            return
        tile = fv.live
        if tile is None or tile.colour != PINK:
            return
        for reason in pink_reasons(tile, seat, action, events):
            gain_credit(w, seat, tile, reason)

    @staticmethod
    def _pay_finishing(w: Work, seat: int, fv: FinesseView) -> None:
        """A Finishing Touch costs a credit instead of a point while the player has one."""
        if fv.credits(seat) == 0 or w.players[seat].finishing_pieces == 0:
            return
        active, inactive = list(fv.active), list(fv.inactive)
        if active[seat]:
            active[seat] -= 1
        else:
            inactive[seat] -= 1
        _store(w, FinesseView(fv.bank + 1, fv.row, tuple(active), tuple(inactive)))
        w.set_player(seat, finishing_pieces=w.players[seat].finishing_pieces - 1)
        w.emit(CreditPaidFinishing(seat))

    def player_removed(self, w: Work, seat: int) -> None:
        """A removed player's credits, active and inactive, go back to the bank (docs/rules.md
        §10): the seat can never spend them or win with them, and the empty-bank rule never
        asks it for one."""
        fv = view(w)
        if fv is None or not fv.credits(seat):
            return
        count = fv.credits(seat)
        active, inactive = list(fv.active), list(fv.inactive)
        active[seat] = inactive[seat] = 0
        _store(w, FinesseView(fv.bank + count, fv.row, tuple(active), tuple(inactive)))
        w.emit(CreditsReturnedToBank(seat, count))

    def end_of_turn(self, w: Work, seat: int) -> None:
        fv = view(w)
        if fv is None:
            return
        tile = fv.live
        if tile is not None and tile.colour == BLUE and not w.players[seat].removed:
            for reason in blue_reasons(tile, w.players[seat]):
                gain_credit(w, seat, tile, reason)
        fv = view(w)
        assert fv is not None
        if fv.inactive[seat]:
            active, inactive = list(fv.active), list(fv.inactive)
            w.emit(CreditsActivated(seat, inactive[seat]))
            active[seat] += inactive[seat]
            inactive[seat] = 0
            _store(w, FinesseView(fv.bank, fv.row, tuple(active), tuple(inactive)))

    def end_of_round(self, w: Work) -> bool:
        fv = view(w)
        if fv is None or not fv.row:
            return False
        gone = None if fv.face_down else fv.row[0]  # a face-down tile leaves unnamed
        after = FinesseView(fv.bank, fv.row[1:], fv.active, fv.inactive)
        _store(w, after)
        live = after.live
        w.emit(FinesseTileRemoved(gone, f"{live.id} ({live.label})" if live else ""))
        return not after.row

    def last_round_cap(self, state: GameState | Work) -> int | None:
        """The round at whose end the last tile leaves play: the row holds this round's tile
        and one per round after it."""
        fv = view(state)
        return state.round + len(fv.row) - 1 if fv is not None and fv.row else None

    def tiebreak(self, state: GameState, seat: int) -> tuple[Any, ...]:
        fv = view(state)
        return (fv.credits(seat),) if fv is not None else ()


register(FinesseExpansion())
