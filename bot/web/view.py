"""A seat's view of its game as JSON: exactly what that seat may see, and what it may do now.

Built from one load of the game through the flow layer (an :class:`~bot.core.play.flow.ActingContext`
for a seat, a :class:`~bot.core.play.flow.ReadingContext` for a spectator), the offers from the
engine as the Discord panel takes them (:func:`bot.core.play.panel.offer_for`: legal actions,
placements, Master and Ambassador options). What is hidden stays out (``engine/visibility.py``):
decks are counts, face-down Finesse tiles are ``null``, and a score pile hidden from this seat is a
count of cards with neither cards nor points. Names are plain text (the page shows them as text).
The field list is in docs/web-board.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import engine
from bot.core.play.flow import ActingContext, ReadingContext
from bot.core.play.manager import Game
from bot.core.play.panel import Offer, offer_for, undo_offered
from bot.core.play.plans import plannable
from bot.core.storage import ActionRow
from bot.core.wording import texts
from bot.core.wording.describe import reward_words
from bot.core.wording.event_texts import finesse_tile, option_text, pending_prompt, shape_label
from bot.core.wording.locales import Notation, image_words, localise, plain_name
from engine import Action, GameState, Place
from engine.actions import GhostSplit
from engine.cards import Colour, PuzzleCard
from engine.expansions.ambassador import unflipped
from engine.expansions.finesse import TILES
from engine.expansions.finesse import view as finesse_view
from engine.legal import MasterOptions
from engine.pieces import GRID, ORIENTATIONS, SHAPES, mask_to_cells, placements_in
from engine.rules import score_line
from engine.state import SIDES, LineClearTable, OpenPuzzle, RowsTable, SoloTable
from engine.visibility import face_up_cards, hidden_scores
from renders import labels
from renders.rank import is_solo, mastermind_points, tiebreak_notes, winners_text

LOG_LINES = 8
"""How many of the latest actions the view lists."""
EXPANSION_FLAGS = ("ghost", "finesse", "ambassador", "phoenix", "finesse_ambassador", "endless_white")

Json = dict[str, Any]
Context = ActingContext | ReadingContext
SHAPE_CELLS: dict[str, list[list[int]]] = {
    shape.value: [[row, col] for col, row in ORIENTATIONS[shape][0]] for shape in SHAPES}
"""Each shape's cells in its first orientation, ``[row, col]`` from the top-left corner."""


def context_for(game: Game, seat: int | None, user_id: int, locale: Any) -> Context:
    """The flow's context of one request: an acting context for a seat (whatever the turn: it
    shows what the seat may do, nothing when it may do nothing), a reading one for a spectator."""
    if seat is None:
        return ReadingContext(game, None, user_id, locale)
    return ActingContext(game, seat, user_id, locale)


def seat_view(ctx: Context, recent: Sequence[ActionRow] = (), *,
              blind: Callable[[str], str] = str, hidden_too: frozenset[int] = frozenset()) -> Json:
    """The JSON view of ``ctx``'s game for its seat (None: a spectator). ``recent``: the last rows
    of the action log (oldest first), for ``log``. ``blind``: the stamp as the page may see it
    (``TokenSigner.blind``: a concurrent table's stamp digests hidden parts of the state).
    ``hidden_too``: seats whose score piles stay hidden whatever this state says (a plan's draft
    that ends the game is not the real table, which still hides them)."""
    game, seat, locale = ctx.game, ctx.seat, ctx.locale
    state = game.state
    assert state is not None
    hidden = hidden_scores(state, seat) | hidden_too
    in_play = game.status == "active"  # a cancelled game keeps its state: nothing can be played in it
    acting = in_play and seat is not None and seat in state.acting_seats
    offer = offer_for(state, seat) if in_play and seat is not None else None
    mine = state.focused(seat) if seat is not None else state
    view: Json = {
        "game": {
            "id": game.id, "revision": game.revision, "locale": locale,
            "stamp": blind(ctx.stamp) if isinstance(ctx, ActingContext) else str(game.revision),
            "over": state.is_over, "phase": state.phase.value, "mode": state.options.variant,
            "expansions": [flag for flag in EXPANSION_FLAGS if getattr(state.options, flag)],
            "known_scores": state.options.known_scores, "round": state.round,
        },
        "me": {
            "seat": seat, "spectator": seat is None,
            "name": None if seat is None else _name(game, seat, locale),
            "acting": acting,
            "actions_left": mine.actions_left if acting else 0,
            "held": seat is not None and seat in state.held,
            "plannable": in_play and plannable(state, seat),
            "credits": _credits(state, seat),
        },
        "players": [_player(game, state, other, hidden, locale) for other in range(len(state.players))],
        "table": _table(state, seat),
        "reserve": _counts(state.reserve),
        "shapes": SHAPE_CELLS,
        "supply": [] if seat is None else _supply(state, seat, locale),
        "puzzles": [] if seat is None else _puzzles(state, seat),
        "offers": [] if offer is None else _offers(offer, locale),
        "placements": {} if offer is None or offer.choosing else _placements(offer.places()),
        "master": None if offer is None else _multi(offer.master),
        "ambassador": None if offer is None else _multi(offer.ambassador),
        "ghost": None if offer is None or offer.choosing else _ghost(offer),
        "pending": None if offer is None else _pending(offer, locale),
        "finesse": _finesse(state, locale),
        "log": [_log_line(game, row, locale) for row in recent[-LOG_LINES:]],
        "log_from": [{"seat": row.seat, "revision": row.revision} for row in recent[-LOG_LINES:]],
        "undo": "undo" if _undo_offered(recent, seat, ctx.user_id) else None,
        "result": _result(game, state, locale) if game.status == "finished" and not hidden else None,
    }
    return view


# -- parts -----------------------------------------------------------------------------------------


def _name(game: Game, seat: int, locale: Any) -> str:
    """A seat's name as the page shows it (plain text): a player's as they wrote it, an AI seat's
    (``Easy AI 1``, ``Easy AI (for Ana)``) in the page's language, as the Discord side words it."""
    return plain_name(game.seats[seat].name, locale)


@lru_cache(maxsize=1 << 16)
def _cells(mask: int) -> tuple[tuple[int, int], ...]:
    """A mask's cells as ``[row, col]`` pairs (a tuple: shared between views, never changed)."""
    return tuple((row, col) for col, row in mask_to_cells(mask))


def _counts(counts: Sequence[int]) -> dict[str, int]:
    return {shape.value: counts[shape.index] for shape in SHAPES if counts[shape.index]}


def card_json(card: PuzzleCard) -> Json:
    return {"id": card.id, "colour": card.colour.value, "points": card.points,
            "reward": card.reward.value, "cells": _cells(card.recess)}


def _card(state: GameState, card_id: str | None) -> Json | None:
    return None if card_id is None else card_json(state.cards[card_id])


def _player(game: Game, state: GameState, seat: int, hidden: frozenset[int], locale: Any) -> Json:
    player = state.players[seat]
    secret = seat in hidden
    line = score_line(state, seat)
    face_up = face_up_cards(state)
    return {
        "seat": seat, "name": _name(game, seat, locale), "ai": game.seats[seat].is_ai,
        "current": seat == state.current and not state.is_over,
        "acting": seat in state.acting_seats, "removed": player.removed,
        "score": None if secret else line.total if state.is_over
        else line.completed_points - line.finishing_penalty,
        "completed": line.completed_count,
        "completed_cards": None if secret else [done.card for done in player.completed],
        "face_up": [card for card in unflipped(state, seat) if card in face_up],
        "supply": _counts(player.supply),
        "puzzles": [_open_puzzle(state, puzzle) for puzzle in player.puzzles],
    }


def _open_puzzle(state: GameState, puzzle: OpenPuzzle) -> Json:
    return {**card_json(state.cards[puzzle.card]), "filled": _cells(puzzle.filled),
            "pieces": [{"shape": piece.shape.value, "cells": _cells(piece.mask)} for piece in puzzle.pieces]}


def _table(state: GameState, seat: int | None) -> Json:
    table = state.table
    if isinstance(table, RowsTable):
        return {"kind": "rows", "side": None,
                "rows": [{"colour": colour.value, "side": None,
                          "cards": [_card(state, c) for c in table.row(colour)]} for colour in Colour],
                "decks": {colour.value: len(table.deck(colour)) for colour in Colour}}
    if isinstance(table, LineClearTable):
        turn = state.turn_of(seat) if seat is not None else None
        return {"kind": "lineclear", "side": None if turn is None else turn.side,
                "markers": {"white": table.markers[0], "black": table.markers[1]},
                "rows": [{"colour": colour.value, "side": side,
                          "cards": [_card(state, c) for c in table.row(side, colour)]}
                         for side in SIDES for colour in Colour],
                "decks": {colour.value: len(table.deck(colour)) for colour in Colour}}
    assert isinstance(table, SoloTable)
    return {"kind": "solo", "side": None,
            "rows": [{"colour": None, "side": None, "cards": [_card(state, c) for c in table.grid]}],
            "decks": {"deck": len(table.deck)}, "locks": list(table.locks),
            "mastermind": {"supply": table.mastermind_supply, "completed": len(table.mastermind_pile),
                           "points": mastermind_points(state)}}


def _supply(state: GameState, seat: int, locale: Any) -> list[Json]:
    supply = state.players[seat].supply
    return [{"shape": shape.value, "count": supply[shape.index], "level": shape.level,
             "label": localise(shape_label(shape), locale)} for shape in SHAPES if supply[shape.index]]


def _puzzles(state: GameState, seat: int) -> list[Json]:
    """The seat's open puzzles, cell by cell: ``recess`` still to fill, ``filled``, ``blank``."""
    found = []
    for puzzle in state.players[seat].puzzles:
        card = state.cards[puzzle.card]
        filled = puzzle.filled
        cells = []
        for index in range(GRID * GRID):
            bit = 1 << index
            kind = "filled" if filled & bit else "recess" if card.recess & bit else "blank"
            cells.append({"r": index // GRID, "c": index % GRID, "state": kind})
        found.append({**_open_puzzle(state, puzzle), "card": card.id, "state": cells})
    return found


def _placements(places: Sequence[Place]) -> dict[str, list[Json]]:
    found: dict[str, list[Json]] = {}
    for place in places:
        found.setdefault(place.shape.value, []).append(_place(place))
    return found


@lru_cache(maxsize=1 << 15)
def _place(place: Place) -> Json:
    """A placement's entry (cached: the same placements are listed again at every revision; the
    entries are only ever serialised)."""
    return {"card": place.card, "shape": place.shape.value, "cells": _cells(place.mask),
            "action": str(place)}


def _multi(options: MasterOptions | None) -> Json | None:
    """Master's (or an Ambassador action's) options: the legal placements on each puzzle alone,
    and the supply they share (the engine checks the combination)."""
    if options is None:
        return None
    return {"per_card": {card: [_place(p) for p in places] for card, places in options.per_card.items()},
            "supply": _counts(options.supply)}


def _ghost(offer: Offer) -> Json | None:
    """The Ghost action's immediate placements: where each piece a split may give fits on each of
    the seat's puzzles (the engine lists the splits alone; the page sends the split with the
    placements chosen, at most one per puzzle, and the engine checks them)."""
    splits = [a for a in offer.of("ghost") if isinstance(a, GhostSplit)]
    if not splits:
        return None
    shapes = [shape for shape in SHAPES if any(shape in split.pieces for split in splits)]
    state = offer.state
    return {"per_card": {
        puzzle.card: [_place(Place(puzzle.card, shape, mask)) for shape in shapes
                      for mask in placements_in(shape, state.cards[puzzle.card].recess & ~puzzle.filled)]
        for puzzle in state.players[offer.seat].puzzles}}


def _offers(offer: Offer, locale: Any) -> list[Json]:
    return [_offer(offer, action, locale) for action in offer.actions
            if action.kind != "place"]


def _offer(offer: Offer, action: Action, locale: Any) -> Json:
    if not isinstance(action, engine.TakePuzzle | engine.DrawPuzzle):  # labelled by the action alone
        return _plain_offer(action, str(locale) if locale is not None else None)
    entry: Json = {"kind": action.kind, "action": str(action),
                   "label": localise(_label(offer, action), locale)}
    if isinstance(action, engine.TakePuzzle):
        entry["card"] = _taken_card(offer, action)
    elif isinstance(action, engine.DrawPuzzle):
        entry["colour"] = None if action.colour is None else action.colour.value
    elif isinstance(action, engine.Upgrade):
        entry["give"], entry["take"] = action.give.value, action.take.value
    return entry


@lru_cache(maxsize=1 << 12)
def _plain_offer(action: Action, locale: str | None) -> Json:
    """An offer whose words depend on the action alone (all but a take or a draw), cached."""
    entry: Json = {"kind": action.kind, "action": str(action), "label": localise(_words(action), locale)}
    if isinstance(action, engine.Upgrade):
        entry["give"], entry["take"] = action.give.value, action.take.value
    return entry


def _taken_card(offer: Offer, action: engine.TakePuzzle) -> str | None:
    table = offer.state.table
    if isinstance(table, RowsTable) and action.colour is not None:
        return table.row(action.colour)[action.slot - 1]
    if isinstance(table, LineClearTable) and action.colour is not None:
        turn = offer.state.turn_of(offer.seat)
        row = table.row(turn.side, action.colour) if turn is not None else ()
        return row[action.slot - 1] if 0 < action.slot <= len(row) else None
    if isinstance(table, SoloTable):
        return table.grid[action.slot - 1]
    return None


def _label(offer: Offer, action: Action) -> Any:
    """The words the Discord panel uses for the same action."""
    if isinstance(action, engine.TakePuzzle):
        card_id = _taken_card(offer, action)
        if card_id is None:
            return Notation(str(action))
        card = offer.state.cards[card_id]
        where = (texts.PANEL_GRID_SLOT.format(slot=action.slot) if action.colour is None else
                 texts.PANEL_ROW_SLOT.format(colour=texts.COLOUR_TITLES[action.colour.value],
                                             slot=action.slot))
        return texts.PANEL_TAKE_SLOT.format(where=where, card=card.id, points=card.points,
                                            reward=reward_words(card), size=card.size)
    if isinstance(action, engine.DrawPuzzle):
        table = offer.state.table
        if isinstance(table, SoloTable):
            return texts.PANEL_DRAW_SOLO.format(left=len(table.deck))
        assert action.colour is not None and not isinstance(table, SoloTable)
        return texts.PANEL_DRAW.format(deck=texts.COLOURS[action.colour.value],
                                       left=len(table.deck(action.colour)))
    return _words(action)


def _words(action: Action) -> Any:
    if isinstance(action, engine.Choose):
        return option_text(action.option)
    words = {"level1": texts.PANEL_LEVEL1, "insert": texts.PANEL_INSERT, "end turn": texts.PANEL_END_TURN,
             "pass": texts.PANEL_PASS, "done": texts.PANEL_DONE}
    return words.get(action.kind, Notation(str(action)))


def _pending(offer: Offer, locale: Any) -> Json | None:
    decision = offer.state.decision_for(offer.seat)
    if decision is None or not offer.choosing:
        return None
    return {"kind": decision.kind, "about": localise(pending_prompt(decision), locale),
            "options": [{"label": localise(option_text(a.option), locale), "action": str(a)}
                        for a in offer.of("choose") if isinstance(a, engine.Choose)]}


def _credits(state: GameState, seat: int | None) -> Json | None:
    finesse = finesse_view(state)
    if finesse is None or seat is None:
        return None
    return {"active": finesse.active[seat], "inactive": finesse.inactive[seat]}


def _finesse(state: GameState, locale: Any) -> Json | None:
    """Finesse's row as everybody sees it: a face-down tile is ``null`` (never its id)."""
    finesse = finesse_view(state)
    if finesse is None:
        return None
    live = finesse.live
    shown = [None if index < finesse.face_down else tile for index, tile in enumerate(finesse.row)]
    return {"bank": finesse.bank, "face_down": finesse.face_down, "row": shown,
            "row_text": [None if t is None else localise(finesse_tile(TILES[t]), locale) for t in shown],
            "live": None if live is None else {"id": live.id, "text": localise(finesse_tile(live), locale)},
            "credits": [{"active": a, "inactive": i} for a, i in zip(finesse.active, finesse.inactive,
                                                                     strict=True)]}


def _result(game: Game, state: GameState, locale: Any) -> Json:
    """Who won a finished game, in the words of its results image (``renders.rank``: the engine's
    order, ties broken by Finesse credits, then puzzles completed, then pieces left): the
    headline, and the sentences under it — the mastermind's score in Solo, each tie on points
    and what settled it. ``winners``: seats, ``-1`` the Solo mastermind."""
    won = engine.winners(state)
    names = [plain_name(seat.name, locale) for seat in game.seats]
    notes: list[str] = []
    with labels.speaking(image_words(locale)):
        headline = winners_text(state, names)
        if is_solo(state):
            points = mastermind_points(state)
            notes.append(str(localise(texts.FINAL_MASTERMIND.format(points=points), locale)))
            if engine.score_lines(state)[0].total == points:
                notes.append(labels.SOLO_TIE_NOTE)  # the tie went to the mastermind
        else:
            notes += tiebreak_notes(state, names)
    if not any(headline.startswith(names[seat]) for seat in won if seat >= 0):
        headline = headline[:1].upper() + headline[1:]  # "the mastermind wins" opens the sentence
    return {"winners": list(won), "headline": headline, "notes": notes}


def _log_line(game: Game, row: ActionRow, locale: Any) -> str:
    name = _name(game, row.seat, locale) if 0 <= row.seat < len(game.seats) else "?"
    line = f"{name}: {localise(Notation(row.action), locale)}"
    return str(localise(texts.LOG_PLANNED.format(line=line), locale)) if row.planned else line


def _undo_offered(recent: Sequence[ActionRow], seat: int | None, user_id: int) -> bool:
    """Undo is offered as the panel offers it: the seat's own last action, of a kind that reveals
    nothing (``bot/core/play/undo.py`` checks everything again)."""
    if not recent or seat is None:
        return False
    last = recent[-1]
    if last.seat != seat or last.user_id != user_id:
        return False
    try:
        return undo_offered(engine.parse_action(last.action))
    except engine.IllegalActionError:
        return False
