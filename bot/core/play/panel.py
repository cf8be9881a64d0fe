"""What the private turn panel offers a seat, derived from the engine — no Discord here.

The panel (``bot/discord/panel_views.py`` draws it) never keeps its own list of moves: everything it shows
comes from :func:`engine.legal_actions` and :func:`engine.master_options` for the state at one
revision, grouped by the action's ``kind``. Kinds the panel has no special widget for (a pending
decision's ``choose``, an expansion's own action) land in one generic menu, so a new kind is
offered as soon as the engine enumerates it.

Every step of the panel lives in a component's ``custom_id`` (``plp:<game>:<user>:<revision>:
<step>[:<args>]``, at most 100 characters), so a click after a restart is rebuilt from the id plus
the stored game: the choices made so far (piece, puzzle, a Master draft) are encoded here, not
kept in memory. Helpers below encode and decode those choices compactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from bot.core.play.seat_view import is_stamp
from bot.core.wording.locales import Joined, Notation
from engine import Action, GameState, Place, Shape
from engine.expansions.ambassador import ambassador_options
from engine.legal import MasterOptions
from engine.pieces import SHAPES

PANEL_PREFIX = "plp"
MAX_CUSTOM_ID = 100
MAX_OPTIONS = 25

KNOWN_KINDS = frozenset({"take", "draw", "level1", "upgrade", "place", "recycle", "done", "pass", "end turn"})
"""Kinds with their own widget; any other kind the engine lists goes to the generic menu."""

UNDOABLE_KINDS = frozenset({"level1", "upgrade", "place", "master", "ambassador", "pass"})
"""Kinds that reveal nothing hidden, so ``/projectl play undo`` can take them back (bot/core/play/undo.py
re-checks everything; this only decides whether the Undo button is shown)."""

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def to36(value: int) -> str:
    if value < 0:
        raise ValueError(value)
    digits = ""
    while True:
        value, rest = divmod(value, 36)
        digits = _B36[rest] + digits
        if not value:
            return digits


def from36(text: str) -> int | None:
    if not text or len(text) > 7 or any(c not in _B36 for c in text):
        return None
    return int(text, 36)


@dataclass(frozen=True, slots=True)
class PanelKey:
    """Whose panel, for which game, computed at which stamp of that seat's view (the revision on a
    single-turn table; ``bot/core/play/seat_view.py``)."""

    game_id: int
    user_id: int
    stamp: str | int

    def custom_id(self, step: str, *args: str) -> str:
        text = ":".join((PANEL_PREFIX, str(self.game_id), str(self.user_id), str(self.stamp), step,
                         *args))
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom id too long ({len(text)}): {text}")
        return text


@dataclass(frozen=True, slots=True)
class PanelId:
    """A parsed panel custom id (``args`` are the step's own choices, still as text)."""

    key: PanelKey
    step: str
    args: tuple[str, ...]


def parse_panel_id(custom_id: str) -> PanelId | None:
    """The parts of a panel id, or None if it is not one we could have made."""
    parts = custom_id.split(":")
    if len(parts) == 3 and parts[:2] == [PANEL_PREFIX, "play"] and parts[2].isdecimal() \
            and len(parts[2]) <= 20 and int(parts[2]) < 2**63:
        return PanelId(PanelKey(int(parts[2]), 0, 0), "play", ())
    if len(custom_id) > MAX_CUSTOM_ID or len(parts) < 5 or parts[0] != PANEL_PREFIX:
        return None
    numbers = []
    for part in parts[1:3]:
        if not part.isdecimal() or len(part) > 20 or int(part) >= 2**63:
            return None
        numbers.append(int(part))
    if not is_stamp(parts[3]):
        return None
    step = parts[4]
    if not step.isalpha() or len(step) > 8:
        return None
    return PanelId(PanelKey(numbers[0], numbers[1], parts[3]), step, tuple(parts[5:]))


def shape_of(text: str) -> Shape | None:
    """A shape from its code in an id (``L3``), or None."""
    for shape in SHAPES:
        if shape.value == text:
            return shape
    return None


# -- what the seat may do ---------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """The legal actions of one seat at one state, grouped the way the panel shows them."""

    state: GameState
    seat: int
    actions: tuple[Action, ...]
    master: MasterOptions | None
    by_kind: dict[str, tuple[Action, ...]] = field(default_factory=dict)
    ambassador: MasterOptions | None = None
    """The Ambassador actions open to the seat (Ambassador Pack: a ready card to flip), factored
    like Master's; None when it has none."""

    @property
    def choosing(self) -> bool:
        """A pending decision: the panel shows only that choice."""
        return "choose" in self.by_kind

    def of(self, *kinds: str) -> tuple[Action, ...]:
        return tuple(a for k in kinds for a in self.by_kind.get(k, ()))

    @property
    def held(self) -> bool:
        """Finesse: the seat's actions are spent and its turn waits for Insert or End turn."""
        return self.seat in self.state.held

    @property
    def others(self) -> tuple[Action, ...]:
        """Actions of kinds without a widget of their own (the generic menu). Insert has its
        button only on a held turn (then Insert and End turn are all there is); mid-turn the
        button row is full, so it is listed here."""
        return tuple(
            a for a in self.actions
            if a.kind not in KNOWN_KINDS and not (self.held and a.kind == "insert")
        )

    def places(self) -> tuple[Place, ...]:
        return tuple(a for a in self.of("place") if isinstance(a, Place))

    def piece_shapes(self) -> list[Shape]:
        """Shapes with at least one legal placement, in catalogue order."""
        seen = {p.shape for p in self.places()}
        return [s for s in SHAPES if s in seen]

    def puzzles_for(self, shape: Shape) -> list[str]:
        cards: list[str] = []
        for place in self.places():
            if place.shape is shape and place.card not in cards:
                cards.append(place.card)
        return cards

    def placements(self, shape: Shape, card: str) -> list[Place]:
        return [p for p in self.places() if p.shape is shape and p.card == card]

    def upgrades_from(self, give: Shape) -> list[engine.Upgrade]:
        return [a for a in self.of("upgrade") if isinstance(a, engine.Upgrade) and a.give is give]

    def upgrade_gives(self) -> list[Shape]:
        seen = {a.give for a in self.of("upgrade") if isinstance(a, engine.Upgrade)}
        return [s for s in SHAPES if s in seen]


def offer_for(state: GameState, seat: int) -> Offer:
    """What ``seat`` may do now (nothing when it does not hold the move).

    The engine enumerates for the seat that holds the move; while two seats hold it at once
    (Line Clear's marker holders) this is the one place that asks the engine for the right
    seat's actions: the state is seen from that seat's own turn (``GameState.focused``).
    """
    if state.phase is engine.Phase.OVER or seat not in state.acting_seats:
        return Offer(state, seat, (), None)
    state = state.focused(seat)
    actions = tuple(engine.legal_actions(state))
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    if "choose" in by_kind:  # a pending decision: nothing else until it is made
        return Offer(state, seat, tuple(by_kind["choose"]), None, {"choose": tuple(by_kind["choose"])})
    return Offer(state, seat, actions, engine.master_options(state),
                 {k: tuple(v) for k, v in by_kind.items()}, ambassador_options(state))


def undo_offered(last_action: Action | None) -> bool:
    return last_action is not None and last_action.kind in UNDOABLE_KINDS


# -- paging a long menu --------------------------------------------------------------------------


PAGE_PREFIX = "+"
"""A menu value starting with this turns the page instead of choosing (``+2``: show page 2)."""


def page_of(values: Sequence[str], page: int) -> tuple[list[str], int | None, int | None]:
    """The entries of one page of a long menu, plus the previous and next page numbers.

    A page holds 25 options: when there is more than one page, one or two of them are the
    "earlier" / "more" entries, so the menu never needs an extra row of buttons.
    """
    if len(values) <= MAX_OPTIONS:
        return list(values), None, None
    pages: list[tuple[int, int]] = []
    start = 0
    while start < len(values):
        room = MAX_OPTIONS - (1 if start == 0 else 2)
        if len(values) - start <= MAX_OPTIONS - (0 if start == 0 else 1):
            room = len(values) - start
        pages.append((start, start + room))
        start += room
    page = min(max(page, 1), len(pages))
    first, last = pages[page - 1]
    return (list(values[first:last]), page - 1 if page > 1 else None,
            page + 1 if page < len(pages) else None)


def page_request(value: str) -> int | None:
    if not value.startswith(PAGE_PREFIX) or not value[1:].isdecimal() or len(value) > 8:
        return None
    return int(value[1:])


# -- a Master draft in a custom id ------------------------------------------------------------------


EMPTY_DRAFT = "-"


def encode_draft(state: GameState, seat: int, placements: Sequence[Place]) -> str:
    """``<puzzle index><shape index><mask in base 36>`` per placement, joined by ``.``."""
    puzzles = [p.card for p in state.players[seat].puzzles]
    parts = [f"{puzzles.index(p.card)}{to36(p.shape.index)}{to36(p.mask)}" for p in placements]
    return ".".join(parts) or EMPTY_DRAFT


def decode_draft(state: GameState, seat: int, text: str) -> tuple[Place, ...] | None:
    """The placements of an encoded draft, or None if the text is not a draft for this state."""
    if text == EMPTY_DRAFT:
        return ()
    puzzles = [p.card for p in state.players[seat].puzzles]
    placements: list[Place] = []
    for part in text.split("."):
        if len(part) < 3 or not part[0].isdecimal() or int(part[0]) >= len(puzzles):
            return None
        shape_index, mask = from36(part[1]), from36(part[2:])
        if shape_index is None or shape_index >= len(SHAPES) or mask is None or mask >= 1 << 25:
            return None
        placements.append(Place(puzzles[int(part[0])], SHAPES[shape_index], mask))
    if len({p.card for p in placements}) != len(placements):
        return None
    return tuple(placements)


def draft_lines(placements: Sequence[Place]) -> Joined:
    """A Master draft's placements, a line each in code, in the reader's notation when shown."""
    return Joined((Joined(("`", Notation(p.placement_text()), "`")) for p in placements), "\n")
