"""The engine's events, pieces and decisions as sentences of bot/core/wording/texts.py, so a turn post, a
private reply and the log can show them in the reader's language.

The engine says what happened in English (``event.describe(names)``), which stays its own
plain-text form; here each event becomes a :class:`~bot.core.wording.locales.Text` whose English is exactly
those words (tests/test_bot_event_texts.py replays games to check it), with the seat names,
pieces, rows and actions as fields that are themselves translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.wording import texts
from bot.core.wording.locales import Joined, Notation
from engine import decisions
from engine import events as ev
from engine.expansions import finesse, level_up
from engine.expansions.finesse import Tile
from engine.pieces import Shape, mask_to_text, parse_shape
from engine.rules import SUBSTITUTE
from engine.state import PendingDecision

Names = Sequence[str]


def seat_name(names: Names, seat: int) -> str:
    """A seat's name as events name it (the mastermind in Solo, "Player 3" past the seats)."""
    if seat == ev.MASTERMIND:
        return texts.MASTERMIND_NAME
    return names[seat] if 0 <= seat < len(names) else texts.SEAT_NUMBER.format(number=seat + 1)


def and_list(names: Sequence[Any]) -> Joined:
    """``Ann and Bob`` (`` e `` in Portuguese)."""
    return Joined(names, texts.AND)


def colour(value: Any) -> str:
    """``white`` / ``black`` (a row, a deck) in words."""
    return texts.COLOURS[str(value)]


def shape_label(shape: Shape) -> str:
    """``L3 (bent tromino)``; the monomino and domino by name only (as ``Shape.label``)."""
    name = texts.SHAPE_NAMES[shape.value]
    return name if shape.value in {"1", "2"} else texts.SHAPE_LABEL.format(code=shape.value, name=name)


def with_article(shape: Shape) -> str:
    """``an L3 (bent tromino)`` (as ``Shape.with_article``)."""
    article = texts.AN_PIECE if shape.value[0] in "AEFHILMNORSX" else texts.A_PIECE
    return article.format(piece=shape_label(shape))


def _reason(reason: str) -> str:
    return texts.GAIN_REASONS.get(reason, reason)


def decision_prompt(kind: str, about: str, fallback: str = "") -> str:
    """What a pending decision asks, as engine/decisions.py's prompt of that kind says it; a kind
    the bot has no sentence for keeps the engine's (English) prompt, ``fallback``."""
    if kind == SUBSTITUTE and len(about.split()) == 2:
        reason, wanted = about.split()
        return texts.DECISION_SUBSTITUTE.format(piece=shape_label(parse_shape(wanted)),
                                                why=texts.SUBSTITUTE_FOR.get(reason, reason))
    if kind == level_up.KIND:
        return texts.DECISION_LEVEL_UP
    return fallback


def pending_prompt(decision: PendingDecision) -> str:
    """:func:`decision_prompt` of a decision the game waits for."""
    return decision_prompt(decision.kind, decision.about, decisions.prompt(decision))


def option_text(option: str) -> Notation:
    """A decision's option as the player answers it (``L3 to O4`` reads ``L3 para O4``)."""
    return Notation(option)


# -- Finesse: tiles and credits -------------------------------------------------------------------


def _finesse_name_key(tile: Tile) -> str | None:
    """Which :data:`texts.FINESSE_TILE_NAMES` entry names ``tile`` (None: a piece tile, named by
    its pieces' letters)."""
    if tile.rule in {"place", "pieces"} and tile.id[0] in "AB":
        return None
    if tile.rule in {"place", "types"}:
        return f"{tile.rule}-{'small' if tile.shapes == finesse.SMALL else 'tetro'}"
    return tile.rule


def finesse_tile_label(tile: Tile) -> str:
    """The tile's short name, as ``Tile.label``: ``I, L, O`` or ``complete a puzzle``."""
    if tile.rule in texts.FINESSE_PACK_NAMES:
        return texts.FINESSE_PACK_NAMES[tile.rule]
    key = _finesse_name_key(tile)
    return tile.label if key is None else texts.FINESSE_TILE_NAMES[key]


def finesse_tile(tile: Tile) -> str:
    """``C3 (complete a puzzle)``."""
    return texts.FINESSE_TILE.format(id=tile.id, label=finesse_tile_label(tile))


def finesse_rule(tile: Tile) -> str:
    """The tile's rule in one sentence, as ``finesse.rule_text``."""
    if tile.rule in texts.FINESSE_PACK_RULES:  # the Finesse Ambassador Pack's tiles
        return texts.FINESSE_PACK_LINE.format(colour=texts.FINESSE_TILE_COLOURS[tile.colour],
                                              text=texts.FINESSE_PACK_RULES[tile.rule])
    codes = [shape.value for shape in tile.shapes]
    what: str = texts.FINESSE_WHAT[tile.rule]
    if tile.rule in {"place", "types"}:
        what = texts.FINESSE_WHAT[tile.rule].format(shapes=", ".join(codes))
    elif tile.rule == "pieces":
        what = texts.FINESSE_WHAT[tile.rule].format(shapes=Joined(codes, texts.OR))
    return texts.FINESSE_RULE_LINE.format(colour=texts.FINESSE_TILE_COLOURS[tile.colour], what=what,
                                          when=texts.FINESSE_WHEN[tile.colour])


_TILES_BY_LABEL = {tile.label: tile for tile in finesse.TILES.values()}
_TILE_SHOWN = re.compile(r"(?P<id>[A-C]\d{1,2}) \((?P<label>.*)\)")
def finesse_label_text(label: str) -> str:
    """A tile's English short name (``CreditEarned.tile``) in words: the same label."""
    tile = _TILES_BY_LABEL.get(label)
    return label if tile is None else finesse_tile_label(tile)


def finesse_tile_text(shown: str) -> str:
    """``C3 (complete a puzzle)`` (``FinesseTileRemoved.live``) in words."""
    match = _TILE_SHOWN.fullmatch(shown)
    tile = finesse.TILES.get(match["id"]) if match else None
    return shown if tile is None else finesse_tile(tile)


def credit_reason(reason: str) -> str:
    """Why a Finesse credit was earned (``CreditEarned.reason``, a :class:`finesse.CreditReason`)
    in words, built from its kind and subject; any other text as it is."""
    if not isinstance(reason, finesse.CreditReason):
        return reason
    template = texts.FINESSE_REASONS[reason.kind]
    if isinstance(reason.subject, Shape):
        return template.format(piece=with_article(reason.subject))
    if reason.subject is not None:
        return template.format(card=reason.subject)
    return template


def _took(e: ev.PuzzleTaken, names: Names) -> str:
    name = seat_name(names, e.seat)
    if e.source == "deck":
        if e.colour:
            return texts.EVENT_TOOK_DECK.format(name=name, card=e.card, colour=colour(e.colour))
        return texts.EVENT_TOOK_SOLO_DECK.format(name=name, card=e.card)
    if e.source == "grid":
        return texts.EVENT_TOOK_GRID.format(name=name, card=e.card, slot=e.slot)
    return texts.EVENT_TOOK_ROW.format(name=name, card=e.card, colour=colour(e.colour))


def _gained(e: ev.PieceGained, names: Names) -> str:
    name, piece, reason = seat_name(names, e.seat), with_article(e.shape), _reason(e.reason)
    if e.wanted is not None and e.wanted is not e.shape:
        return texts.EVENT_PIECE_INSTEAD.format(name=name, piece=piece, reason=reason,
                                                wanted=with_article(e.wanted))
    return texts.EVENT_PIECE_GAINED.format(name=name, piece=piece, reason=reason)


def _placed(e: ev.PiecePlaced, names: Names) -> str:
    sentence = texts.EVENT_PIECE_PLACED_FINISHING if e.finishing else texts.EVENT_PIECE_PLACED
    return sentence.format(name=seat_name(names, e.seat), piece=shape_label(e.shape), card=e.card,
                           cells=mask_to_text(e.mask))


def _completed(e: ev.PuzzleCompleted, names: Names) -> str:
    sentence = texts.EVENT_COMPLETED_FINISHING if e.finishing else texts.EVENT_COMPLETED
    return sentence.format(name=seat_name(names, e.seat), card=e.card, points=e.points)


def _decision(e: ev.DecisionAwaited, names: Names) -> str:
    return texts.EVENT_DECISION.format(
        name=seat_name(names, e.seat), prompt=decision_prompt(e.kind, e.about, e.prompt),
        options=Joined((option_text(o) for o in e.options), ", "))


def _removed(e: ev.PlayerRemoved, names: Names) -> str:
    name = seat_name(names, e.seat)
    if e.discarded:
        return texts.EVENT_PLAYER_LEFT_PUZZLES.format(name=name, cards=", ".join(e.discarded))
    return texts.EVENT_PLAYER_LEFT.format(name=name)


def _ended(e: ev.GameEnded, names: Names) -> str:
    sentence = texts.EVENT_GAME_SHARED if len(e.winners) > 1 else texts.EVENT_GAME_WON
    return sentence.format(names=and_list([seat_name(names, w) for w in e.winners]))


def _credits(e: ev.CreditsActivated, names: Names) -> str:
    sentence = texts.EVENT_CREDIT_ACTIVATED if e.count == 1 else texts.EVENT_CREDITS_ACTIVATED
    return sentence.format(name=seat_name(names, e.seat), count=e.count)


def _credits_to_bank(e: ev.CreditsReturnedToBank, names: Names) -> str:
    sentence = texts.EVENT_CREDIT_TO_BANK if e.count == 1 else texts.EVENT_CREDITS_TO_BANK
    return sentence.format(name=seat_name(names, e.seat), count=e.count)


def _returned_credit(e: ev.CreditReturned, names: Names) -> str:
    sentence = texts.EVENT_CREDIT_RETURNED_INACTIVE if e.inactive else texts.EVENT_CREDIT_RETURNED_ACTIVE
    return sentence.format(name=seat_name(names, e.seat))


def _tile_left(e: ev.FinesseTileRemoved, names: Names) -> str:
    live = finesse_tile_text(e.live) if e.live else None
    if e.tile is None:  # it was face down: never named
        if live is None:
            return texts.EVENT_FACE_DOWN_TILE_LEFT
        return texts.EVENT_FACE_DOWN_TILE_LEFT_LIVE.format(live=live)
    if live is not None:
        return texts.EVENT_TILE_LEFT_LIVE.format(tile=e.tile, live=live)
    return texts.EVENT_TILE_LEFT.format(tile=e.tile)


_SENTENCES: dict[type[ev.Event], Callable[[Any, Names], str]] = {
    ev.PuzzleTaken: _took,
    ev.CardRevealed: lambda e, n: (
        texts.EVENT_REVEALED_ROW.format(card=e.card, colour=colour(e.colour), slot=e.slot) if e.colour
        else texts.EVENT_REVEALED_GRID.format(card=e.card, slot=e.slot)),
    ev.DeckEmptied: lambda e, n: (texts.EVENT_DECK_EMPTY.format(colour=colour(e.colour)) if e.colour
                                  else texts.EVENT_SOLO_DECK_EMPTY),
    ev.WhiteDeckRenewed: lambda e, n: texts.EVENT_WHITE_RENEWED.format(cards=e.cards),
    ev.EndTriggered: lambda e, n: (
        texts.EVENT_END_TRIGGERED_THIS_ROUND.format(round=e.last_round) if e.last_round <= e.round
        else texts.EVENT_END_TRIGGERED.format(round=e.round, last_round=e.last_round)),
    ev.PieceGained: _gained,
    ev.DecisionAwaited: _decision,
    ev.PieceReturned: lambda e, n: texts.EVENT_PIECE_RETURNED.format(
        name=seat_name(n, e.seat), piece=with_article(e.shape)),
    ev.PiecePlaced: _placed,
    ev.PuzzleCompleted: _completed,
    ev.RowRecycled: lambda e, n: texts.EVENT_RECYCLED.format(
        colour=colour(e.colour), cards=", ".join(e.cards)),
    ev.TurnStarted: lambda e, n: texts.EVENT_TURN_STARTED.format(round=e.round, name=seat_name(n, e.seat)),
    ev.FinishingStarted: lambda e, n: texts.EVENT_FINISHING_STARTED,
    ev.FinishingDone: lambda e, n: texts.EVENT_FINISHING_DONE.format(name=seat_name(n, e.seat)),
    ev.MastermindTook: lambda e, n: texts.EVENT_MASTERMIND_TOOK.format(
        card=e.card, points=e.points, position=e.position),
    ev.LocksReleased: lambda e, n: texts.EVENT_LOCKS_RELEASED,
    ev.LocksMoved: lambda e, n: texts.EVENT_LOCKS_MOVED.format(
        column=e.column, counts=", ".join(str(count) for count in e.locks)),
    ev.LockTaken: lambda e, n: texts.EVENT_LOCK_TAKEN.format(column=e.column),
    ev.TurnSkipped: lambda e, n: texts.EVENT_TURN_SKIPPED.format(name=seat_name(n, e.seat)),
    ev.PlayerRemoved: _removed,
    ev.GameEnded: _ended,
    ev.GhostSplit: lambda e, n: texts.EVENT_GHOST_SPLIT.format(
        name=seat_name(n, e.seat), ghost=shape_label(e.ghost),
        pieces=Joined((shape_label(s) for s in e.pieces), ", ")),
    ev.LevelledUp: lambda e, n: texts.EVENT_LEVELLED_UP.format(
        name=seat_name(n, e.seat), give=with_article(e.give), take=with_article(e.take)),
    ev.LevelUpDeclined: lambda e, n: texts.EVENT_LEVEL_UP_DECLINED.format(name=seat_name(n, e.seat)),
    ev.AmbassadorFlipped: lambda e, n: texts.EVENT_AMBASSADOR_FLIPPED.format(
        name=seat_name(n, e.seat), card=e.card),
    ev.LevelUpLost: lambda e, n: texts.EVENT_LEVEL_UP_LOST.format(name=seat_name(n, e.seat)),
    ev.MarkersPassed: lambda e, n: texts.EVENT_MARKERS_PASSED.format(
        round=e.round, white=seat_name(n, e.white), black=seat_name(n, e.black)),
    ev.CreditEarned: lambda e, n: texts.EVENT_CREDIT_EARNED.format(
        name=seat_name(n, e.seat), reason=credit_reason(e.reason), tile=finesse_label_text(e.tile)),
    ev.CreditReturned: _returned_credit,
    ev.CreditsReturnedToBank: _credits_to_bank,
    ev.CreditsActivated: _credits,
    ev.ActionInserted: lambda e, n: texts.EVENT_ACTION_INSERTED.format(name=seat_name(n, e.seat)),
    ev.CreditPaidFinishing: lambda e, n: texts.EVENT_CREDIT_PAID_FINISHING.format(name=seat_name(n, e.seat)),
    ev.FinesseTileRemoved: _tile_left,
}


def event_text(event: ev.Event, names: Names, hidden: frozenset[int] = frozenset()) -> str:
    """``event`` as a sentence for a reader from whom the ``hidden`` seats' score piles are face
    down (``engine.visibility.describe_for``): a :class:`Text`, or the engine's own English words
    for an event the bot has no sentence for."""
    if isinstance(event, ev.PuzzleCompleted) and event.seat in hidden:
        return texts.EVENT_COMPLETED_HIDDEN.format(name=seat_name(names, event.seat))
    sentence = _SENTENCES.get(type(event))
    return sentence(event, names) if sentence is not None else event.describe(names)
