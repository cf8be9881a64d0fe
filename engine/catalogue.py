"""Puzzle catalogues: loading, validating and reporting on sets of puzzle cards.

A catalogue is the set of white and black puzzle cards a game is dealt from. The default one,
``engine/data/puzzles.json``, is our own original design (made by ``tools/make_catalogue.py``)
with the published card distribution; a server may load its own. The file format is documented
in ``engine/data/README.md``.

Two levels of checking, on purpose:

* :func:`parse_catalogue` *rejects* malformed data (bad rows, unknown reward, disconnected
  recess, duplicate ids …) with a :class:`CatalogueError` that names the card, because a game
  must never be dealt a broken card.
* :func:`check_catalogue` *reports* on a well-formed catalogue: per card the size, net cells,
  minimum pieces and whether it can be filled without monominoes, how far it strays from the
  published economy, identical cards (legal: the printed set has a pair), and which game modes
  it has enough cards for. A small custom catalogue is not an error, it just supports fewer
  modes.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .cards import (
    AMBASSADOR_EXPANSION,
    CARD_EXPANSIONS,
    PHOENIX_EXPANSION,
    Ambassador,
    Colour,
    LevelUp,
    PuzzleCard,
    Reward,
    parse_reward,
)
from .pieces import BASE_SHAPES, GRID, UnknownShapeError, canonical_form, is_connected
from .solver import fillable_without_monominoes, min_pieces

FORMAT_VERSION = 1
DEFAULT_RESOURCE = "puzzles.json"
CARD_FIELDS = ("id", "colour", "points", "reward", "recess")
OPTIONAL_CARD_FIELDS = ("expansion",)
"""``expansion`` declares the expansion a card belongs to when its reward does not say it
(Phoenix's cards reward ordinary pieces)."""


MAX_POINTS = 99
"""No printed card is worth more than 6; a bound keeps a typo of thousands of digits readable."""


def _short(text: str, limit: int = 40) -> str:
    """``text`` cut for an error message, so a huge value does not bury the sentence."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class CatalogueError(ValueError):
    """A catalogue that cannot be used. The message names the card and what is wrong with it."""


@dataclass(frozen=True)
class Catalogue:
    """An immutable set of puzzle cards, in file order.

    ``by_id`` is forgiving about case (players type ``w07``) but ids are otherwise exact.
    """

    name: str
    cards: tuple[PuzzleCard, ...]
    description: str = ""
    _index: Mapping[str, PuzzleCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {card.id: card for card in self.cards}
        if len(index) != len(self.cards):
            dupes = sorted(i for i, n in Counter(c.id for c in self.cards).items() if n > 1)
            raise CatalogueError(f"Card {dupes[0]}: the id is used by more than one card")
        object.__setattr__(self, "_index", MappingProxyType(index))

    @property
    def white(self) -> tuple[PuzzleCard, ...]:
        return tuple(c for c in self.cards if c.colour is Colour.WHITE)

    @property
    def black(self) -> tuple[PuzzleCard, ...]:
        return tuple(c for c in self.cards if c.colour is Colour.BLACK)

    @property
    def mapping(self) -> Mapping[str, PuzzleCard]:
        """Read-only id → card mapping (game state stores card ids, not cards)."""
        return self._index

    def by_id(self, card_id: str) -> PuzzleCard:
        """The card with this id; KeyError (with a readable message) if there is none."""
        card = self._index.get(card_id)
        if card is None:
            folded = card_id.strip().casefold()
            matches = [c for i, c in self._index.items() if i.casefold() == folded]
            if len(matches) != 1:
                raise KeyError(f"no card '{card_id}' in catalogue '{self.name}'")
            card = matches[0]
        return card

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[PuzzleCard]:
        return iter(self.cards)


# --------------------------------------------------------------------------- parsing


def _label(raw: Any, position: int) -> str:
    """How messages name a card: its id when it has a usable one, else its position."""
    if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw["id"].strip():
        return f"Card {raw['id'].strip()}"
    return f"Card #{position + 1} (no id)"


def _parse_recess(rows: Any, label: str) -> int:
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise CatalogueError(f"{label}: the recess must be a list of {GRID} strings")
    if len(rows) != GRID:
        raise CatalogueError(
            f"{label}: the recess has {len(rows)} rows; it needs {GRID}, one per card row"
        )
    mask = 0
    for r, row in enumerate(rows):
        if len(row) != GRID:
            raise CatalogueError(
                f"{label}: recess row {r + 1} has {len(row)} characters; it needs {GRID}"
            )
        for c, char in enumerate(row):
            if char == "#":
                mask |= 1 << (r * GRID + c)
            elif char != ".":
                raise CatalogueError(
                    f"{label}: recess row {r + 1} has {char!r} in column {'ABCDE'[c]}; "
                    "use '#' for a recessed cell and '.' for the rest"
                )
    if mask == 0:
        raise CatalogueError(f"{label}: the recess is empty")
    if not is_connected(mask):
        raise CatalogueError(f"{label}: the recess is not one connected area")
    return mask


def _parse_card(raw: Any, position: int) -> PuzzleCard:
    label = _label(raw, position)
    if not isinstance(raw, dict):
        raise CatalogueError(f"{label}: a card must be an object with fields {CARD_FIELDS}")
    for key in raw:
        if key not in CARD_FIELDS + OPTIONAL_CARD_FIELDS:
            hint = difflib.get_close_matches(str(key), CARD_FIELDS + OPTIONAL_CARD_FIELDS, n=1)
            also = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise CatalogueError(f"{label}: unknown field '{key}'{also}")
    missing = [k for k in CARD_FIELDS if k not in raw]
    if missing:
        raise CatalogueError(f"{label}: missing field(s) {', '.join(missing)}")

    card_id = raw["id"]
    if not isinstance(card_id, str) or not card_id.strip() or card_id != card_id.strip():
        raise CatalogueError(f"{label}: the id must be a non-empty string without spaces around")

    colour_text = raw["colour"]
    try:
        colour = Colour(str(colour_text).strip().lower())
    except ValueError:
        raise CatalogueError(
            f"{label}: colour '{colour_text}' is unknown; use white or black"
        ) from None

    points = raw["points"]
    if isinstance(points, bool) or not isinstance(points, int):
        raise CatalogueError(f"{label}: points must be a whole number, not {_short(repr(points))}")
    if points > MAX_POINTS:
        raise CatalogueError(f"{label}: points must be at most {MAX_POINTS}, not {_short(str(points))}")
    if points < 0:
        raise CatalogueError(f"{label}: points cannot be negative ({points})")

    reward_text = raw["reward"]
    if isinstance(reward_text, bool) or not isinstance(reward_text, str | int):
        raise CatalogueError(f"{label}: reward must be a piece code such as \"L3\"")
    try:
        reward = parse_reward(str(reward_text))
    except UnknownShapeError:
        codes = ", ".join(s.value for s in BASE_SHAPES)
        raise CatalogueError(
            f"{label}: reward '{reward_text}' is not a piece (pieces are {codes}; with the Ghost "
            "Piece expansion also P5, U5, L5, and up / up2 for the level-up arrows; ambassador for "
            "an Ambassador card)"
        ) from None
    tag = raw.get("expansion")
    if tag is not None and tag not in CARD_EXPANSIONS:
        raise CatalogueError(
            f"{label}: expansion {tag!r} is unknown; use one of {', '.join(CARD_EXPANSIONS)}"
        )

    recess = _parse_recess(raw["recess"], label)
    if min_pieces(recess) is None:  # unreachable with a monomino, kept as the defining rule
        raise CatalogueError(f"{label}: the recess cannot be tiled with the 9 piece shapes")
    return PuzzleCard(id=card_id, colour=colour, points=points, reward=reward, recess=recess, tag=tag)


def _reject_duplicate_ids(cards: list[PuzzleCard]) -> None:
    """The same id twice: a game names its cards by id, so ids must be unique."""
    seen_ids: dict[str, int] = {}
    for position, card in enumerate(cards):
        if card.id in seen_ids:
            raise CatalogueError(
                f"Card {card.id}: the id is used twice (cards #{seen_ids[card.id] + 1} "
                f"and #{position + 1})"
            )
        seen_ids[card.id] = position


def identical_cards(cards: Iterable[PuzzleCard]) -> list[tuple[str, str]]:
    """Pairs of cards that play identically: congruent recess (rotated, reflected or shifted)
    and the same reward, each later card paired with the first of its kind.

    Legal (the printed set has two 0-point white cards with a domino recess and a domino
    reward), so ``catalogue --check`` notes them and nothing refuses them.
    """
    first: dict[tuple[object, object], str] = {}
    pairs: list[tuple[str, str]] = []
    for card in cards:
        key = (canonical_form(card.recess), card.reward)
        if key in first:
            pairs.append((first[key], card.id))
        else:
            first[key] = card.id
    return pairs


def parse_catalogue(data: Any, *, name: str | None = None) -> Catalogue:
    """Build a catalogue from decoded JSON, rejecting anything malformed.

    ``name`` overrides the data's ``"name"`` field and is required when the data has none
    (:func:`load_catalogue` falls back to the file name). Raises :class:`CatalogueError`.
    """
    if not isinstance(data, dict):
        raise CatalogueError("a catalogue must be a JSON object with 'format', 'name' and 'cards'")
    version = data.get("format")
    if version != FORMAT_VERSION:
        raise CatalogueError(
            f"catalogue format {version!r} is not supported; this version reads format "
            f"{FORMAT_VERSION}"
        )
    unknown = sorted(set(data) - {"format", "name", "description", "cards"})
    if unknown:
        raise CatalogueError(f"the catalogue has unknown field(s): {', '.join(unknown)}")
    title = name if name is not None else data.get("name")
    if not isinstance(title, str) or not title.strip():
        raise CatalogueError("the catalogue needs a non-empty 'name'")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise CatalogueError("the catalogue 'description' must be a string")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise CatalogueError("the catalogue needs a non-empty list of 'cards'")
    cards = [_parse_card(raw, i) for i, raw in enumerate(raw_cards)]
    _reject_duplicate_ids(cards)
    return Catalogue(name=title.strip(), cards=tuple(cards), description=description)


def catalogue_to_json(cat: Catalogue) -> dict[str, Any]:
    """The JSON object for a catalogue; ``parse_catalogue(catalogue_to_json(c)) == c``."""
    return {
        "format": FORMAT_VERSION,
        "name": cat.name,
        "description": cat.description,
        "cards": [
            {
                "id": card.id,
                "colour": card.colour.value,
                "points": card.points,
                "reward": card.reward.value,
                **({"expansion": card.tag} if card.tag is not None else {}),
                "recess": card.recess_rows(),
            }
            for card in cat.cards
        ],
    }


def dumps_catalogue(cat: Catalogue) -> str:
    """Catalogue JSON text with one recess row per line, so a file shows each silhouette."""
    data = catalogue_to_json(cat)
    head = {k: v for k, v in data.items() if k != "cards"}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    lines.append('  "cards": [')
    for i, card in enumerate(data["cards"]):
        fields = ", ".join(f"{json.dumps(k)}: {json.dumps(card[k])}"
                           for k in (*CARD_FIELDS[:4], *OPTIONAL_CARD_FIELDS) if k in card)
        rows = ",\n".join(f"      {json.dumps(row)}" for row in card["recess"])
        comma = "," if i < len(data["cards"]) - 1 else ""
        lines.append(f"    {{{fields}, \"recess\": [\n{rows}\n    ]}}{comma}")
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def default_catalogue_text() -> str:
    """The shipped catalogue file, read as package data so it works from an installed wheel."""
    return (resources.files("engine") / "data" / DEFAULT_RESOURCE).read_text(encoding="utf-8")


def load_catalogue(path: str | Path | None = None) -> Catalogue:
    """Load and validate a catalogue file; None loads the shipped default.

    File and JSON errors are turned into :class:`CatalogueError` naming the file, so a caller
    only has one exception to report to a user.
    """
    where = "the default catalogue" if path is None else f"catalogue file {str(path)!r}"
    try:
        text = default_catalogue_text() if path is None else Path(path).read_text("utf-8")
    except OSError as err:
        raise CatalogueError(f"cannot read {where}: {err.strerror or err}") from err
    except UnicodeDecodeError as err:
        raise CatalogueError(f"{where} is not UTF-8 text (byte {err.start} cannot be read)") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise CatalogueError(
            f"{where} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})"
        ) from err
    except RecursionError as err:
        raise CatalogueError(f"{where} nests its JSON too deeply to be a catalogue") from err
    except ValueError as err:  # e.g. a number of thousands of digits, which int() refuses
        raise CatalogueError(f"{where} holds a value no catalogue can have ({err})") from err
    fallback = None
    if isinstance(data, dict) and not data.get("name") and path is not None:
        fallback = Path(path).stem
    return parse_catalogue(data, name=fallback)


# --------------------------------------------------------------------------- checking

# The published economy (RULINGS "Components" / "Designing the catalogue"):
# (colour, points) -> (recess size range, net cells range); min pieces by colour.
ECONOMY: dict[tuple[Colour, int], tuple[tuple[int, int], tuple[int, int]]] = {
    (Colour.WHITE, 0): ((2, 4), (0, 0)),
    (Colour.WHITE, 1): ((2, 6), (1, 2)),
    (Colour.WHITE, 2): ((5, 9), (3, 5)),
    (Colour.BLACK, 3): ((8, 11), (6, 7)),
    (Colour.BLACK, 4): ((12, 14), (10, 11)),
    (Colour.BLACK, 5): ((16, 16), (15, 15)),
}
MIN_PIECES_RANGE: dict[Colour, tuple[int, int]] = {Colour.WHITE: (1, 3), Colour.BLACK: (2, 4)}
# The minimum pieces to fill, per card class, as measured on the printed set (the rulebook's
# cards): white 0 pt 1, 1 pt 1-2, 2 pt 2-3 (mostly 2); black 3 pt 2-3 (mostly 3), 4 pt 3-4,
# 5 pt 4. The "mostly" value is the class's most common figure. Expansion cards (ghost and
# level-up rewards) are held to the colour range above only.
MIN_PIECES_BY_CLASS: dict[tuple[Colour, int], tuple[int, int]] = {
    (Colour.WHITE, 0): (1, 1),
    (Colour.WHITE, 1): (1, 2),
    (Colour.WHITE, 2): (2, 3),
    (Colour.BLACK, 3): (2, 3),
    (Colour.BLACK, 4): (3, 4),
    (Colour.BLACK, 5): (4, 4),
}
MIN_PIECES_MOSTLY: dict[tuple[Colour, int], int] = {(Colour.WHITE, 2): 2, (Colour.BLACK, 3): 3}
# Expansion cards (ghost and level-up rewards) follow the same net-cell economy; their recess
# sizes follow from it (a ghost reward is worth its 5 cells, an arrow one cell per level).
EXPANSION_NET: dict[tuple[Colour, int], tuple[int, int]] = {k: net for k, (_, net) in ECONOMY.items()}

# Phoenix (RULINGS "The rest of the published game"): black, 6 points, harder than every 5-point
# card — at least 5 pieces to fill with the nine base shapes (so 17 cells or more), each rewarding
# a level-3 or level-4 piece. Our design: 19 cells with a tromino reward or 20 with a tetromino
# (net 16), exactly 5 pieces.
PHOENIX_POINTS = 6
PHOENIX_ECONOMY: tuple[tuple[int, int], tuple[int, int]] = ((17, 20), (15, 17))
PHOENIX_MIN_PIECES: tuple[int, int] = (5, 5)
PHOENIX_REWARD_LEVELS = (3, 4)
# Ambassador cards follow exactly the class figures of a card of the same colour and points
# (white 2 pt, black 4 and 5 pt), their action worth one net cell (Ambassador.size).


def card_class(card: PuzzleCard | CardReport) -> str:
    """Which figures a card is held to: ``base``, ``ambassador`` (its colour and points' class,
    like a base card), ``phoenix`` or ``expansion`` (ghost and level-up cards: colour ranges)."""
    reward = card.reward
    if isinstance(reward, Ambassador):
        return AMBASSADOR_EXPANSION
    if getattr(card, "tag", None) == PHOENIX_EXPANSION:
        return PHOENIX_EXPANSION
    if isinstance(reward, LevelUp) or reward.level >= 5:
        return "expansion"
    return "base"


# Cards a mode needs. Black follows the rules (RULINGS "Components": the black deck size by
# player count) and solo is 15 white + 10 black. White is our own choice: the base game never
# runs out of white in a way that breaks it, so we ask for a face-up row of 4 plus about 4 white
# cards per player, enough that the row is still being refilled late in the game.
MODES: dict[str, tuple[int, int]] = {
    "solo": (15, 10),
    "2p": (12, 12),
    "3p": (16, 14),
    "4p": (20, 16),
    "5p": (24, 20),
    "6p": (28, 24),
}
GHOST_MODES: tuple[str, ...] = ("5p", "6p")
"""Modes checked with the Ghost Piece cards included: Line Clear plays with them by default
(always at 6 players, whose 24 black cards need them). Other modes count base cards only."""


@dataclass(frozen=True)
class CardReport:
    """What a designer needs to judge one card (see RULINGS "Designing the catalogue")."""

    id: str
    colour: Colour
    points: int
    reward: Reward
    size: int
    net_cells: int
    min_pieces: int | None
    no_mono: bool
    tag: str | None = None


@dataclass(frozen=True)
class CatalogueReport:
    """Result of :func:`check_catalogue`.

    ``problems`` make a catalogue unusable (exit code non-zero); ``notes`` are departures from
    the published economy, which a custom catalogue may make on purpose.
    """

    name: str
    cards: tuple[CardReport, ...]
    problems: tuple[str, ...]
    notes: tuple[str, ...]
    modes: tuple[str, ...]
    unsupported: tuple[str, ...]
    silhouettes: int

    @property
    def ok(self) -> bool:
        return not self.problems


def _card_report(card: PuzzleCard) -> CardReport:
    return CardReport(
        id=card.id,
        colour=card.colour,
        points=card.points,
        reward=card.reward,
        size=card.size,
        net_cells=card.size - card.reward.size,
        min_pieces=min_pieces(card.recess),
        no_mono=fillable_without_monominoes(card.recess),
        tag=card.tag,
    )


def _phoenix_notes(r: CardReport) -> list[str]:
    notes: list[str] = []
    (lo_size, hi_size), (lo_net, hi_net) = PHOENIX_ECONOMY
    kind = f"Phoenix {r.colour} {r.points} pt"
    if r.colour is not Colour.BLACK or r.points != PHOENIX_POINTS:
        notes.append(f"{r.id}: a Phoenix card is black and worth {PHOENIX_POINTS} points")
    if not lo_size <= r.size <= hi_size:
        notes.append(f"{r.id}: {kind} with {r.size} cells (ours: {lo_size}–{hi_size})")
    if not lo_net <= r.net_cells <= hi_net:
        notes.append(f"{r.id}: {kind} with net {r.net_cells} cells (ours: {lo_net}–{hi_net})")
    if r.min_pieces is not None and not PHOENIX_MIN_PIECES[0] <= r.min_pieces <= PHOENIX_MIN_PIECES[1]:
        notes.append(f"{r.id}: {kind} card needing {r.min_pieces} pieces (the ruling: at least "
                     f"{PHOENIX_MIN_PIECES[0]}, harder than every 5-point card)")
    if r.reward.level not in PHOENIX_REWARD_LEVELS:
        notes.append(f"{r.id}: {kind} rewarding a level-{r.reward.level} piece (the ruling: level 3 or 4)")
    return notes


def _economy_notes(r: CardReport) -> list[str]:
    notes: list[str] = []
    if card_class(r) == PHOENIX_EXPANSION:
        return _phoenix_notes(r)
    economy = ECONOMY.get((r.colour, r.points))
    if economy is None:
        return [f"{r.id}: the published set has no {r.colour} card worth {r.points} points"]
    (lo_size, hi_size), (lo_net, hi_net) = economy
    expansion = card_class(r) == "expansion"
    kind = f"{r.colour} {r.points} pt"
    if not expansion and not lo_size <= r.size <= hi_size:
        notes.append(f"{r.id}: {kind} with {r.size} cells (published: {lo_size}–{hi_size})")
    if not lo_net <= r.net_cells <= hi_net:
        notes.append(f"{r.id}: {kind} with net {r.net_cells} cells (published: {lo_net}–{hi_net})")
    lo_min, hi_min = MIN_PIECES_RANGE[r.colour] if expansion else MIN_PIECES_BY_CLASS[r.colour, r.points]
    if r.min_pieces is not None and not lo_min <= r.min_pieces <= hi_min:
        notes.append(f"{r.id}: {kind} card needing {r.min_pieces} pieces (published: {lo_min}–{hi_min})")
    return notes


def _modes(cards: Sequence[PuzzleCard]) -> tuple[list[str], list[str]]:
    """The modes these cards support, and why each other mode is not supported."""
    base = [c for c in cards if c.expansion is None]
    counts = {
        False: (sum(c.colour is Colour.WHITE for c in base), sum(c.colour is Colour.BLACK for c in base)),
        True: (sum(c.colour is Colour.WHITE for c in cards), sum(c.colour is Colour.BLACK for c in cards)),
    }
    modes, unsupported = [], []
    for mode, (need_white, need_black) in MODES.items():
        white, black = counts[mode in GHOST_MODES]
        if white >= need_white and black >= need_black:
            modes.append(mode)
        else:
            unsupported.append(
                f"{mode} (needs {need_white} white + {need_black} black, has {white} + {black})"
            )
    return modes, unsupported


def supported_modes(cards: Sequence[PuzzleCard]) -> tuple[str, ...]:
    """The game modes (``solo``, ``2p`` … ``6p``) these cards have enough cards for: exactly the
    ones ``catalogue --check`` reports, so the bot offers the same (no solver needed)."""
    return tuple(_modes(cards)[0])


def mode_name(solo: bool, players: int) -> str:
    """The mode a table plays: ``solo`` or ``<players>p``, as :data:`MODES` names it."""
    return "solo" if solo else f"{players}p"


def check_catalogue(cat: Catalogue) -> CatalogueReport:
    """Measure every card and say which modes the catalogue can be played in."""
    reports = tuple(_card_report(card) for card in cat.cards)
    problems = [f"{r.id}: the recess cannot be filled" for r in reports if r.min_pieces is None]
    notes = [note for r in reports for note in _economy_notes(r)]
    notes += [
        f"{a} and {b} are identical (congruent recess, same reward): legal, the printed set has a pair"
        for a, b in identical_cards(cat.cards)
    ]
    modes, unsupported = _modes(cat.cards)
    if not modes:
        problems.append("too few cards for any game mode")
    return CatalogueReport(
        name=cat.name,
        cards=reports,
        problems=tuple(problems),
        notes=tuple(notes),
        modes=tuple(modes),
        unsupported=tuple(unsupported),
        silhouettes=len({canonical_form(c.recess) for c in cat.cards}),
    )


def _group_order(item: tuple[tuple[Colour, int], list[CardReport]]) -> tuple[bool, int]:
    (colour, points), _ = item
    return colour is Colour.BLACK, points


def _range(values: list[int]) -> str:
    return "–" if not values else f"{min(values)}–{max(values)}"


def min_pieces_by_class(
    report: CatalogueReport, kind: str = "base"
) -> dict[tuple[Colour, int], dict[int, int]]:
    """How many cards of each class (colour, points) need each minimum number of pieces: the
    base cards, or those of ``kind`` (:func:`card_class`: ``ambassador``, ``phoenix``)."""
    counts: dict[tuple[Colour, int], dict[int, int]] = {}
    for r in report.cards:
        if card_class(r) != kind or r.min_pieces is None:
            continue
        per_class = counts.setdefault((r.colour, r.points), {})
        per_class[r.min_pieces] = per_class.get(r.min_pieces, 0) + 1
    return counts


def _min_pieces_lines(report: CatalogueReport) -> list[str]:
    """Per class: how many base cards need 1, 2, 3, 4 pieces, next to the printed set's figures."""
    lines = ["Minimum pieces per class (base cards; the printed set in brackets):"]
    counts = min_pieces_by_class(report)
    for key in sorted(counts, key=lambda k: (k[0] is Colour.BLACK, k[1])):
        colour, points = key
        spread = ", ".join(f"{n}: {counts[key][n]}" for n in sorted(counts[key]))
        lo, hi = MIN_PIECES_BY_CLASS.get(key, MIN_PIECES_RANGE[colour])
        published = str(lo) if lo == hi else f"{lo}–{hi}"
        if key in MIN_PIECES_MOSTLY:
            published += f", mostly {MIN_PIECES_MOSTLY[key]}"
        lines.append(f"  {colour.value:<5} {points} pt  {spread}  ({published})")
    return lines


def _pack_lines(report: CatalogueReport) -> list[str]:
    """The Ambassador and Phoenix cards' figures per class, next to what the rulings ask."""
    lines: list[str] = []
    for kind, title in ((AMBASSADOR_EXPANSION, "Ambassador Pack"), (PHOENIX_EXPANSION, "Phoenix")):
        group = [r for r in report.cards if card_class(r) == kind]
        if not group:
            continue
        lines.append(f"{title}: {len(group)} cards, per class (the figures they follow in brackets):")
        classes = sorted({(r.colour, r.points) for r in group}, key=lambda k: (k[0] is Colour.BLACK, k[1]))
        for colour, points in classes:
            cards = [r for r in group if (r.colour, r.points) == (colour, points)]
            spread = ", ".join(
                f"{n}: {sum(r.min_pieces == n for r in cards)}"
                for n in sorted({r.min_pieces for r in cards if r.min_pieces is not None})
            )
            if kind == PHOENIX_EXPANSION:
                (ls, hs), (ln, hn) = PHOENIX_ECONOMY
                lo, hi = PHOENIX_MIN_PIECES
            else:
                (ls, hs), (ln, hn) = ECONOMY.get((colour, points), ((0, 0), (0, 0)))
                lo, hi = MIN_PIECES_BY_CLASS.get((colour, points), MIN_PIECES_RANGE[colour])
            lines.append(
                f"  {colour.value:<5} {points} pt ×{len(cards)}  size {_range([r.size for r in cards])} "
                f"({ls}–{hs})  net {_range([r.net_cells for r in cards])} ({ln}–{hn})  "
                f"min pieces {spread} ({lo}–{hi})"
            )
    return lines


def format_report(report: CatalogueReport) -> str:
    """A plain-text table for ``python -m engine catalogue --check``: one line per card."""
    lines = [f"Catalogue: {report.name} ({len(report.cards)} cards)"]
    for r in report.cards:
        pieces = "?" if r.min_pieces is None else str(r.min_pieces)
        lines.append(
            f"{r.id:<5} {r.colour.value:<5} {r.points} pt  reward {r.reward.value:<2}  "
            f"size {r.size:>2}  net {r.net_cells:>2}  min pieces {pieces}  "
            f"no-mono: {'yes' if r.no_mono else 'no'}"
        )
    lines.append("")
    groups: dict[tuple[Colour, int], list[CardReport]] = {}
    for r in report.cards:
        groups.setdefault((r.colour, r.points), []).append(r)
    for (colour, points), group in sorted(groups.items(), key=_group_order):
        sizes = [r.size for r in group]
        nets = [r.net_cells for r in group]
        mins = [r.min_pieces for r in group if r.min_pieces is not None]
        lines.append(
            f"{colour.value:<5} {points} pt ×{len(group):<2}  size {_range(sizes):<5}  "
            f"net {_range(nets):<5}  min pieces {_range(mins)}"
        )
    lines.extend(_min_pieces_lines(report))
    lines.extend(_pack_lines(report))
    no_mono = sum(r.no_mono for r in report.cards)
    lines.append(
        f"{no_mono}/{len(report.cards)} cards fillable without monominoes; "
        f"{report.silhouettes} distinct recess silhouettes"
    )
    ghost = [r for r in report.cards if card_class(r) == "expansion"]
    if ghost:
        white = sum(r.colour is Colour.WHITE for r in ghost)
        arrows = sum(isinstance(r.reward, LevelUp) for r in ghost)
        lines.append(
            f"Ghost Piece expansion: {white} white + {len(ghost) - white} black cards "
            f"({len(ghost) - arrows} ghost rewards, {arrows} level-up rewards); "
            f"modes {', '.join(GHOST_MODES)} count them"
        )
    lines.append(f"Modes supported: {', '.join(report.modes) or 'none'}")
    if report.unsupported:
        lines.append(f"Not supported: {'; '.join(report.unsupported)}")
    for note in report.notes:
        lines.append(f"note: {note}")
    for problem in report.problems:
        lines.append(f"PROBLEM: {problem}")
    lines.append("OK" if report.ok else f"{len(report.problems)} problem(s)")
    return "\n".join(lines)


def main_check(path: str | None) -> int:
    """Load, check and print a catalogue; the exit code is 0 only when it is usable."""
    try:
        cat = load_catalogue(path)
    except CatalogueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    report = check_catalogue(cat)
    print(format_report(report))
    return 0 if report.ok else 1
