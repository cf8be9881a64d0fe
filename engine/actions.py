"""Actions are small immutable values with a stable, readable text form.

The text form is what the action log stores and what a player can type:

=========================================  ===============================================
``take white 3``                           take the 3rd card of the white row (slots 1–4)
``take 5``                                 Solo: take grid position 5 (numbered row by row)
``draw black`` / ``draw``                  take the top card of a deck, blind (Solo: ``draw``)
``level1``                                 take a level-1 piece from the reserve
``upgrade 2 to L3``                        return a piece, take another (upgrade or exchange)
``place L3 on W07 at A1 A2 B2``            put a piece from your supply on your puzzle W07
``master L3 on W07 at A1 A2 B2; 1 on B02 at C3``  the Master action: one piece per puzzle
``ambassador 1 on B02 at C3``              Ambassador Pack: flip a completed Ambassador card for
                                           one more Master (any number per turn, one card each)
``recycle white 3 1 4 2``                  put a row under its deck, slot 3 first, and reveal 4
``ghost P5 to O4 1; 1 on W07 at C3``        Ghost Piece: split a ghost into pieces that tile it,
                                           optionally placing some at once (one per puzzle)
``choose I4``                              answer a pending decision (e.g. a substitute piece)
``insert``                                 Finesse: pay 2 active credits for one extra action
``end turn``                               end your turn while an Insert could still extend it
``done``                                   end your Finishing Touches
``pass``                                   only when nothing else is legal
``skip`` / ``remove 2``                    table decisions: skip this turn, remove seat 2
=========================================  ===============================================

Players may type the same actions with Portuguese words (the Portuguese rulebook's verbs):
``pegar branco 3``, ``comprar preto``, ``nivel1``, ``aprimorar 2 para L3``,
``colocar L3 em W07 nas A1 A2 B2``, ``mestre 1 em B02 nas C3; …``, ``embaixador 1 em B02 nas C3``,
``reciclar branco 3 1 4 2``,
``fantasma P5 para O4 1``, ``inserir``, ``encerrar turno``, ``escolher I4`` (``escolher L3 para
O4``, ``escolher recusar``), ``concluir``,
``passar``. They parse to the same
actions, whose text stays English, so a log replays whatever language it was typed in.

Cells are columns A–E and rows 1–5 of the card; a placement is named by the cells it covers, so no
rotation convention is needed. ``parse_action(str(a)) == a`` for every action.

>>> a = parse_action("place l3 on w07 at b2 a1 a2")
>>> str(a)
'place L3 on W07 at A1 A2 B2'
>>> parse_action(str(a)) == a
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from .cards import Colour
from .errors import ActionSyntaxError, quoted
from .pieces import (
    BadCellError,
    Shape,
    UnknownShapeError,
    mask_to_text,
    parse_cells,
    parse_shape,
    shape_of_mask,
)


@dataclass(frozen=True, slots=True)
class TakePuzzle:
    """Take a face-up puzzle. ``colour`` is None in Solo, where ``slot`` is a grid position 1–9."""

    colour: Colour | None
    slot: int
    kind: ClassVar[str] = "take"

    def __str__(self) -> str:
        return f"take {self.slot}" if self.colour is None else f"take {self.colour} {self.slot}"


@dataclass(frozen=True, slots=True)
class DrawPuzzle:
    """Take the top card of a deck without seeing it first."""

    colour: Colour | None
    kind: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw" if self.colour is None else f"draw {self.colour}"


@dataclass(frozen=True, slots=True)
class TakeLevelOne:
    kind: ClassVar[str] = "level1"

    def __str__(self) -> str:
        return "level1"


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Return ``give`` to the reserve and take ``take`` (an upgrade, or an exchange)."""

    give: Shape
    take: Shape
    kind: ClassVar[str] = "upgrade"

    def __str__(self) -> str:
        return f"upgrade {self.give.value} to {self.take.value}"


@dataclass(frozen=True, slots=True)
class Place:
    """Place ``shape`` from the supply so it covers exactly ``mask`` on the puzzle ``card``."""

    card: str
    shape: Shape
    mask: int
    kind: ClassVar[str] = "place"

    def placement_text(self) -> str:
        return f"{self.shape.value} on {self.card} at {mask_to_text(self.mask)}"

    def __str__(self) -> str:
        return f"place {self.placement_text()}"


@dataclass(frozen=True, slots=True)
class Master:
    """Place at most one piece on each of your puzzles, all from the supply you had at the start.

    Placements are kept sorted by card id so equal actions have equal values and text.
    """

    placements: tuple[Place, ...]
    kind: ClassVar[str] = "master"

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.placements, key=lambda p: (p.card, p.shape.index, p.mask)))
        object.__setattr__(self, "placements", ordered)

    def __str__(self) -> str:
        return "master " + "; ".join(p.placement_text() for p in self.placements)


@dataclass(frozen=True, slots=True)
class AmbassadorAction:
    """Ambassador Pack: flip one of your completed, face-up Ambassador cards (one completed on
    an earlier turn) to take a Master: at most one piece on each of your puzzles, all from the
    supply you had at the start. Not the turn's Master; any number per turn, one card each.

    The card flipped is the earliest-completed one that is ready (they differ only in points);
    placements are kept sorted by card id, as in :class:`Master`."""

    placements: tuple[Place, ...]
    kind: ClassVar[str] = "ambassador"

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.placements, key=lambda p: (p.card, p.shape.index, p.mask)))
        object.__setattr__(self, "placements", ordered)

    def __str__(self) -> str:
        return "ambassador " + "; ".join(p.placement_text() for p in self.placements)


@dataclass(frozen=True, slots=True)
class Recycle:
    """Put a whole row under its deck, ``order[0]`` first, then reveal a new row."""

    colour: Colour
    order: tuple[int, ...]
    kind: ClassVar[str] = "recycle"

    def __str__(self) -> str:
        return f"recycle {self.colour} " + " ".join(str(s) for s in self.order)


@dataclass(frozen=True, slots=True)
class Choose:
    """Answer the player's pending decision with one of its options (see engine/decisions.py).

    ``option`` is kept as written (spaces collapsed); the decision matches it case-insensitively.
    """

    option: str
    kind: ClassVar[str] = "choose"

    def __post_init__(self) -> None:
        object.__setattr__(self, "option", " ".join(self.option.split()))

    def __str__(self) -> str:
        return f"choose {self.option}"


@dataclass(frozen=True, slots=True)
class GhostSplit:
    """The Ghost action (Ghost Piece expansion): return the ghost piece ``ghost`` to the reserve
    and take ``pieces`` (two or more, levels 1–4) that together tile its shape exactly; each of
    ``placements`` puts one of those new pieces on a puzzle at once (at most one per puzzle).

    ``pieces`` are kept in shape order and placements by card id, so equal actions have equal
    values and text.
    """

    ghost: Shape
    pieces: tuple[Shape, ...]
    placements: tuple[Place, ...] = ()
    kind: ClassVar[str] = "ghost"

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", tuple(sorted(self.pieces, key=lambda s: s.index)))
        ordered = tuple(sorted(self.placements, key=lambda p: (p.card, p.shape.index, p.mask)))
        object.__setattr__(self, "placements", ordered)

    def __str__(self) -> str:
        text = f"ghost {self.ghost.value} to " + " ".join(s.value for s in self.pieces)
        return "; ".join([text, *(p.placement_text() for p in self.placements)])


@dataclass(frozen=True, slots=True)
class EndFinishing:
    """Stop placing pieces during Finishing Touches."""

    kind: ClassVar[str] = "done"

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Insert:
    """Finesse: pay 2 active credits for one extra action this turn. It spends no action."""

    kind: ClassVar[str] = "insert"

    def __str__(self) -> str:
        return "insert"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End a turn whose actions are spent but which an expansion holds open (Finesse: the
    player could still Insert). Legal only then."""

    kind: ClassVar[str] = "end turn"

    def __str__(self) -> str:
        return "end turn"


@dataclass(frozen=True, slots=True)
class Pass:
    """Spend an action doing nothing. Legal only when no other action is."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class SkipTurn:
    """A table decision, not a player's move: end the current turn now (e.g. the player timed out
    and the others voted to skip). In Finishing Touches it ends that player's touches."""

    kind: ClassVar[str] = "skip"

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class RemovePlayer:
    """A table decision: the player in ``seat`` (0-based; text is 1-based) leaves the game.

    See docs/rules.md: their supply and the pieces on their unfinished puzzles return to the
    reserve, their unfinished puzzles leave play, and they cannot win.
    """

    seat: int
    kind: ClassVar[str] = "remove"

    def __str__(self) -> str:
        return f"remove {self.seat + 1}"


TABLE_ACTIONS = (SkipTurn, RemovePlayer)
"""Actions decided by the table (votes, the host), never listed by ``legal_actions``."""

Action = (
    TakePuzzle | DrawPuzzle | TakeLevelOne | Upgrade | Place | Master | Recycle | Choose
    | EndFinishing | Pass | SkipTurn | RemovePlayer | GhostSplit | Insert | EndTurn | AmbassadorAction
)

PORTUGUESE = {
    "pegar": "take", "comprar": "draw", "nivel1": "level1", "nível1": "level1",
    "nivel-1": "level1", "nível-1": "level1", "aprimorar": "upgrade", "colocar": "place",
    "mestre": "master", "embaixador": "ambassador", "reciclar": "recycle", "escolher": "choose",
    "fantasma": "ghost",
    "concluir": "done", "passar": "pass", "pular": "skip", "remover": "remove",
    "inserir": "insert", "encerrar": "end", "turno": "turn",
    "branco": "white", "branca": "white", "preto": "black", "preta": "black",
    "para": "to", "em": "on", "na": "at", "nas": "at",
}
"""Portuguese notation words and the English word each stands for (verbs, rows, ``to``/``on``/
``at``). No card id, shape code or cell is one of them, so the swap is unambiguous."""
PORTUGUESE_OPTIONS = {"para": "to", "recusar": "decline"}
"""Portuguese words inside the option of ``escolher`` (the level-up options ``L3 to O4`` and
``decline``); every other word of an option is taken as written."""
_WORD = re.compile(r"[^\s;]+")


def _in_english(text: str) -> str:
    """``text`` with its Portuguese notation words swapped for the English ones — except in the
    option of ``choose``/``escolher``, a canonical option text taken as written (after
    ``escolher``, only :data:`PORTUGUESE_OPTIONS` are swapped)."""
    def swap(match: re.Match[str]) -> str:
        return PORTUGUESE.get(match.group().lower(), match.group())

    words = text.split(maxsplit=1)
    if PORTUGUESE.get(words[0].lower(), words[0].lower()) == "choose":
        option = words[1] if len(words) > 1 else ""
        if words[0].lower() != "choose":
            option = _WORD.sub(lambda match: PORTUGUESE_OPTIONS.get(match.group().lower(), match.group()),
                               option)
        return "choose " + option
    return _WORD.sub(swap, text)


_CARD_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")


def _colour(word: str) -> Colour:
    try:
        return Colour(word.lower())
    except ValueError:
        raise ActionSyntaxError("parse.not_a_row", text=quoted(word)) from None


def _slot(word: str, highest: int = 9) -> int:
    if not word.isdecimal() or not 1 <= int(word) <= highest:  # isdigit() also takes "²", which int() refuses
        raise ActionSyntaxError("parse.not_a_position", text=quoted(word), highest=highest)
    return int(word)


def _shape(word: str) -> Shape:
    try:
        return parse_shape(word)
    except UnknownShapeError as error:
        raise error.again(ActionSyntaxError) from None


def parse_placement(text: str) -> Place:
    """Read '<piece> on <card> at <cells>'. The cells must form exactly that piece."""
    match = re.fullmatch(r"\s*(\S+)\s+on\s+(\S+)\s+at\s+(.+?)\s*", text, flags=re.IGNORECASE)
    if not match:
        raise ActionSyntaxError("parse.placement_form")
    shape = _shape(match.group(1))
    card = match.group(2).upper()
    if not _CARD_ID.match(card):
        raise ActionSyntaxError("parse.not_a_puzzle_id", text=quoted(match.group(2)))
    try:
        mask = parse_cells(match.group(3))
    except BadCellError as error:
        raise error.again(ActionSyntaxError) from None
    if shape_of_mask(mask) is not shape:
        raise ActionSyntaxError("cells.not_the_piece", cells=mask_to_text(mask), article=shape.article,
                                piece=shape)
    return Place(card, shape, mask)


def parse_action(text: str) -> Action:
    """Read an action from its text form (case-insensitive, extra spaces ignored).

    >>> parse_action("TAKE White 2")
    TakePuzzle(colour=<Colour.WHITE: 'white'>, slot=2)
    >>> str(parse_action("master 1 on B02 at c3; L3 on W07 at A1 A2 B2"))
    'master 1 on B02 at C3; L3 on W07 at A1 A2 B2'
    """
    if not text.strip():
        raise ActionSyntaxError("parse.empty")
    if len(text) > 400:
        raise ActionSyntaxError("parse.too_long")
    text = _in_english(text)
    words = text.split()
    verb, rest = words[0].lower(), words[1:]
    if verb == "take":
        if len(rest) == 1:
            if rest[0].lower() in {colour.value for colour in Colour}:
                row = rest[0].lower()
                raise ActionSyntaxError("parse.take_which", row=row)
            return TakePuzzle(None, _slot(rest[0]))
        if len(rest) == 2:
            return TakePuzzle(_colour(rest[0]), _slot(rest[1], 4))
        raise ActionSyntaxError("parse.take_form")
    if verb == "draw":
        if not rest:
            return DrawPuzzle(None)
        if len(rest) == 1:
            return DrawPuzzle(_colour(rest[0]))
        raise ActionSyntaxError("parse.draw_form")
    if verb in {"level1", "level-1"} and not rest:
        return TakeLevelOne()
    if verb == "upgrade":
        if len(rest) == 3 and rest[1].lower() == "to":
            return Upgrade(_shape(rest[0]), _shape(rest[2]))
        raise ActionSyntaxError("parse.upgrade_form")
    if verb == "place":
        return parse_placement(text.strip()[len(words[0]):])
    if verb in {"master", "ambassador"}:
        body = text.strip()[len(words[0]):]
        parts = [part for part in body.split(";") if part.strip()]
        if not parts:
            empty = "master.empty" if verb == "master" else "ambassador.empty"
            raise ActionSyntaxError(empty)
        placements = tuple(parse_placement(part) for part in parts)
        return Master(placements) if verb == "master" else AmbassadorAction(placements)
    if verb == "recycle":
        if len(rest) >= 2:
            order = tuple(_slot(word, 4) for word in rest[1:])
            return Recycle(_colour(rest[0]), order)
        if len(rest) == 1:
            raise ActionSyntaxError("parse.recycle_order")
        raise ActionSyntaxError("parse.recycle_form")
    if verb == "choose":
        if rest:
            return Choose(" ".join(rest))
        raise ActionSyntaxError("parse.choose_form")
    if verb == "ghost":
        head, *tail = text.strip()[len(words[0]):].split(";")
        parts = head.split()
        if len(parts) >= 3 and parts[1].lower() == "to":
            placements = tuple(parse_placement(part) for part in tail if part.strip())
            return GhostSplit(_shape(parts[0]), tuple(_shape(w) for w in parts[2:]), placements)
        raise ActionSyntaxError("parse.ghost_form")
    if verb == "done" and not rest:
        return EndFinishing()
    if verb == "insert" and not rest:
        return Insert()
    if verb == "end" and [w.lower() for w in rest] == ["turn"]:
        return EndTurn()
    if verb == "pass" and not rest:
        return Pass()
    if verb == "skip" and not rest:
        return SkipTurn()
    if verb == "remove" and len(rest) == 1:
        return RemovePlayer(_slot(rest[0], 6) - 1)
    raise ActionSyntaxError("parse.not_an_action", text=quoted(words[0]))
