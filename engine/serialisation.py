"""A game state's JSON form: the stored schema, its versions, and the text both ways.

The model (:mod:`engine.state`) is plain immutable data; this module is the only place that knows
how it is written. ``loads(dumps(state)) == state`` for every state, and equal states give equal
text (compact, key-sorted JSON), so a stored game reads back exactly and a replay can be compared
by its text. A state from an older schema is converted when read (:data:`SCHEMA_VERSION`); one
that cannot be read raises :class:`~engine.errors.StateFormatError`.

The cards are most of a state's JSON (about 80 % of its bytes and most of ``dumps``' time) and
never change during a game, so a store may keep them once per game: ``dumps(state, cards=False)``
writes only the catalogue's content key (:func:`catalogue_key`) in their place, and
``loads(text, cards=...)`` takes them back. Both forms read back to the same state.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Colour, PuzzleCard, parse_reward
from .errors import StateFormatError
from .expansions.ambassador import bank_tokens
from .pieces import GRID, SHAPES, mask_to_text, parse_cells, parse_shape
from .state import (
    SCHEMA_VERSION,
    SIDES,
    SOLO_GRID,
    Counts,
    Difficulty,
    DonePuzzle,
    GameState,
    LineClearTable,
    OpenPuzzle,
    Options,
    PendingDecision,
    Phase,
    Placed,
    PlayerState,
    RowsTable,
    SoloTable,
    Table,
    Turn,
    counts_of,
)

__all__ = [
    "SCHEMA_VERSION", "cards_from_json", "cards_from_text", "cards_to_json", "catalogue_key",
    "catalogue_text", "counts_from_json", "counts_to_json", "dumps", "loads", "options_from_json",
    "options_to_json", "state_from_json", "state_to_json",
]


def counts_to_json(counts: Counts) -> dict[str, int]:
    return {SHAPES[i].value: n for i, n in enumerate(counts) if n}


def counts_from_json(data: dict[str, int]) -> Counts:
    return counts_of({parse_shape(code): int(n) for code, n in data.items()})



# -- options and states ----------------------------------------------------------------------


def options_to_json(options: Options) -> dict[str, Any]:
    """Table options as JSON data (an expansion's or variant's flag written only when on)."""
    data: dict[str, Any] = {
        "players": options.players,
        "variant": options.variant,
        "reserve": options.reserve,
        "unfinished_penalty": options.unfinished_penalty,
        "difficulty": options.difficulty.value,
    }
    if options.ghost:
        data["ghost"] = True
    if options.finesse:
        data["finesse"] = True
    if not options.known_scores:
        data["known_scores"] = False
    if options.endless_white:
        data["endless_white"] = True
    for flag in ("ambassador", "phoenix", "finesse_ambassador"):
        if getattr(options, flag):
            data[flag] = True
    return data


def options_from_json(data: dict[str, Any]) -> Options:
    return Options(
        players=int(data["players"]),
        variant=str(data["variant"]),
        reserve=int(data["reserve"]),
        unfinished_penalty=bool(data["unfinished_penalty"]),
        difficulty=Difficulty(data["difficulty"]),
        ghost=bool(data.get("ghost", False)),
        finesse=bool(data.get("finesse", False)),
        known_scores=bool(data.get("known_scores", True)),
        endless_white=bool(data.get("endless_white", False)),
        ambassador=bool(data.get("ambassador", False)),
        phoenix=bool(data.get("phoenix", False)),
        finesse_ambassador=bool(data.get("finesse_ambassador", False)),
    )


def state_to_json(state: GameState, *, cards: bool = True) -> dict[str, Any]:
    """The state as JSON data. ``cards=False`` leaves the catalogue out and names it by its
    content key instead (``"catalogue"``): the form to store when the cards are kept once
    per game; :func:`state_from_json` then needs them back."""
    data: dict[str, Any] = {
        "schema": state.schema,
        "options": options_to_json(state.options),
        "seed": state.seed,
        "rng_state": state.rng_state,
        **({"cards": cards_to_json(state.cards)} if cards else {"catalogue": catalogue_key(state.cards)}),
        "reserve": counts_to_json(state.reserve),
        "players": [_player_to_json(p) for p in state.players],
        "table": _table_to_json(state.table),
        "phase": state.phase.value,
        "current": state.current,
        "first_player": state.first_player,
        "round": state.round,
        "turn": state.turn,
        "actions_left": state.actions_left,
        "master_used": state.master_used,
        "black_taken": state.black_taken,
        "last_round": state.last_round,
        **({"turns": [_turn_to_json(t) for t in state.turns]} if state.turns else {}),
        **({"ext": state.ext} if state.ext else {}),
        **({"held": list(state.held)} if state.held else {}),
    }
    if state.pending:
        data["pending"] = [_decision_to_json(d) for d in state.pending]
    return data


def dumps(state: GameState, *, cards: bool = True) -> str:
    """Compact, key-sorted JSON text: equal states give equal text. ``cards=False``: without
    the catalogue (see :func:`state_to_json`)."""
    return json.dumps(state_to_json(state, cards=cards), sort_keys=True, separators=(",", ":"))


def state_from_json(data: dict[str, Any], cards: Mapping[str, PuzzleCard] | None = None) -> GameState:
    """The state in ``data``. A state stored without its cards names its catalogue; pass
    those cards as ``cards`` (checked against the name). A state that lists its cards is
    read from them, whatever ``cards`` is."""
    try:
        schema = int(data["schema"])
        if schema == 1:
            data = _from_schema_1(data)
            schema = 2
        if schema == 2:  # the cards were always listed: nothing else changed
            schema = 3
        if schema == 3:
            data = _from_schema_3(data)
            schema = 4
        if schema != SCHEMA_VERSION:
            raise StateFormatError(
                f"This game was saved with state schema {schema}; this version reads "
                f"{SCHEMA_VERSION}."
            )
        data = _removed_seats_credits_in_bank(data)
        return GameState(
            options=options_from_json(data["options"]),
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


def loads(text: str, cards: Mapping[str, PuzzleCard] | None = None) -> GameState:
    """:func:`dumps`' text back as a state (``cards``: as in :func:`state_from_json`)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as error:
        raise StateFormatError(f"Stored game state is not JSON: {error}") from error
    if not isinstance(data, dict):
        raise StateFormatError("Stored game state is not a JSON object.")
    return state_from_json(data, cards)


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
        **({"expansion": card.tag} if card.tag is not None else {}),
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
        tag=None if data.get("expansion") is None else str(data["expansion"]),
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


def _from_schema_3(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 3 named a banked Ambassador card's unused action by the card's bare id, which the
    Endless White Deck had put back in the white deck; schema 4 writes it ``banked:<id>``
    (:mod:`engine.expansions.ambassador`). A token whose card is not in its owner's pile was
    banked (a flipped card's token is gone)."""
    ext = data.get("ext") or {}
    tokens = ext.get("ambassador")
    if not isinstance(tokens, dict):
        return data
    ready, fresh = [], []
    for seat, player in enumerate(data["players"]):
        own_ready, own_fresh = list(tokens["ready"][seat]), list(tokens["fresh"][seat])
        banked = bank_tokens([*own_ready, *own_fresh], [str(d["card"]) for d in player["completed"]])
        ready.append(banked[:len(own_ready)])
        fresh.append(banked[len(own_ready):])
    return {**data, "ext": {**ext, "ambassador": {**tokens, "ready": ready, "fresh": fresh}}}


def _removed_seats_credits_in_bank(data: dict[str, Any]) -> dict[str, Any]:
    """A removed seat's Finesse credits are in the bank (docs/rules.md §10): a state stored
    before that ruling may still have them on the seat, which can never spend them. They are
    moved to the bank when read, the state a replay of the game's log reaches now. The data
    says by itself whether it needs this (a removed seat holding credits), so the schema
    number is unchanged: every state written since reads back as it was written."""
    ext = data.get("ext") or {}
    credits = ext.get("finesse")
    if not isinstance(credits, dict):
        return data
    removed = [seat for seat, player in enumerate(data["players"]) if player.get("removed")]
    active, inactive = list(credits["active"]), list(credits["inactive"])
    kept = sum(int(active[seat]) + int(inactive[seat]) for seat in removed)
    if not kept:
        return data
    for seat in removed:
        active[seat] = inactive[seat] = 0
    moved = {**credits, "bank": int(credits["bank"]) + kept, "active": active, "inactive": inactive}
    return {**data, "ext": {**ext, "finesse": moved}}


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
