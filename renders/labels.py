"""Every word the images print, in one module, in English and in whatever language a render asks for.

Layout code never builds text itself: it asks here for finished text, passing numbers and names
(``labels.round_number(7)``, ``labels.RESERVE``). Each piece of text has a key and an English
template in :data:`ENGLISH`; a translation is a mapping with the same keys (the bot keeps one per
locale, the ``images`` section of ``bot/core/wording/locales/<code>.json``) that a render function receives as
its ``words`` argument and makes current with :func:`speaking` while it draws. A key the
translation lacks shows in English, so a partial catalogue never breaks an image.

A template is one of:

* a ``str`` with ``{field}`` placeholders (upper-case keys are fixed words: ``labels.RESERVE``);
* a ``{"one": …, "other": …}`` pair for a count ``n`` (lower-case keys): ``one`` when ``n`` is 1,
  ``other`` otherwise (``0 peças``, ``0 pieces``, ``-1 pts``);
* a list of lines (``MASTERMIND_TIE_LINES``) or a table by engine value (``FINESSE_RULE``).

A translation may leave out a field its language does not need (``ordinal``'s English suffix) but
never add one; ``tests/test_renders_locales.py`` checks every catalogue.

Read fixed words as ``labels.RESERVE`` while drawing: ``from .labels import RESERVE`` would copy
the English once, at import.
"""

from __future__ import annotations

import hashlib
import json
import threading
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Words = Mapping[str, Any]
"""A translation of :data:`ENGLISH` (some or all of its keys)."""

ENGLISH: dict[str, Any] = {
    # -- shared pieces ------------------------------------------------------------------------
    "points": {"one": "{n} pt", "other": "{n} pts"},
    "points_unit": {"one": "pt", "other": "pts"},
    "and_names": "{names} and {last}",
    "ordinal": "{n}{suffix}",
    "count_of": "x{n}",
    "SHAPE_NAMES": {
        "1": "monomino", "2": "domino", "I3": "straight tromino", "L3": "bent tromino",
        "I4": "straight tetromino", "O4": "square tetromino", "T4": "T tetromino", "L4": "L tetromino",
        "S4": "S tetromino", "P5": "P pentomino", "U5": "U pentomino", "L5": "L pentomino",
    },
    "piece_label": "{code} ({name})",
    "player_fallback": "Player {n}",
    # -- status bar, banners, header ----------------------------------------------------------
    "round_number": "Round {n}",
    "actions_left_short": "{n} left",
    "to_play": "{name} to play",
    "GAME_OVER": "Game over",
    "banner_over": "Game over: {winners}",
    "BANNER_FINISHING": "Finishing Touches: -1 point per piece placed",
    "banner_last_round": "Last round! Round {last} is the final round",
    "banner_end_triggered": "End triggered: round {last} is the last",
    "banner_end_triggered_one_black": "End triggered: round {last} is the last (1 black per turn)",
    # -- market, decks, reserve ---------------------------------------------------------------
    "EMPTY": "empty",  # a market slot
    "DECK_EMPTY": "empty",  # a deck (a word that agrees with "deck" where words have gender)
    "IN_DECK": "in deck",
    "DECK": "Deck",
    "COLOUR_DECK": {"white": "White deck", "black": "Black deck"},
    "REWARD": "reward",
    "RESERVE": "Reserve",
    "RESERVE_HINT": "pieces left to take",
    "CHANGED_LEGEND": "changed since the last turn post",
    # -- Solo ---------------------------------------------------------------------------------
    "LOCK_OPEN": "open",
    "locks": {"one": "{n} lock", "other": "{n} locks"},
    "MASTERMIND": "Mastermind",
    "MASTERMIND_SCORE": "Score",
    "MASTERMIND_PUZZLES": "Puzzles",
    "MASTERMIND_PIECES": "Pieces",
    "MASTERMIND_TIE_LINES": ["A tie goes to", "the mastermind"],
    "SOLO_TIE_NOTE": "A tie goes to the mastermind: you must score more to win.",
    # -- player panels ------------------------------------------------------------------------
    "SUPPLY": "Supply",
    "SUPPLY_EMPTY": "empty",
    "DONE": "Done",
    "LEFT_THE_GAME": "left the game",
    "TO_PLAY_PILL": "To play",
    "WHITE_MARKER": "White marker",
    "BLACK_MARKER": "Black marker",
    "WHITE_MARKER_PILL": "White marker",  # the holder's panel: beside their actions left,
    "BLACK_MARKER_PILL": "Black marker",  # so a longer language may shorten it
    "TURN_DONE_WAITING": "done, waiting",
    "ghost_split_title": "Ghost {ghost} splits into",
    "marker_holder": "{marker}: {name}",
    "FINISHING_PILL": "Finishing",
    "NONE_PLACED_YET": "none placed yet",
    "puzzles_done": {"one": "{n} puzzle done", "other": "{n} puzzles done"},
    "done_count": {"one": "{n} done", "other": "{n} done"},
    "actions_left": {"one": "{n} action left", "other": "{n} actions left"},
    "finishing_placed": "{n} placed (-{n})",
    "FINISHED": "Finished",
    "WAITING_TO_FINISH": "Waiting to finish",
    "finishing_status": "{status} (-{placed})",
    # -- mat and preview ----------------------------------------------------------------------
    "mat_title": "{name}'s mat",
    "MAT_YOUR_FINISHING": "Your Finishing Touches",
    "mat_your_turn": "Your turn: {actions}",
    "mat_summary_puzzles": {"one": "{n} puzzle done", "other": "{n} puzzles done"},
    "mat_summary_pieces": {"one": "{n} piece in supply", "other": "{n} pieces in supply"},
    "mat_summary": "  {puzzles}, {pieces}",
    "FREE_SLOT": "free slot",
    "FREE_SLOT_HINT": "take a puzzle",
    "MAT_SUPPLY_EMPTY": "empty: take a level-1 piece or upgrade",
    "level": "Level {n}",
    "SCORE_PILE": "Score pile",
    "score_pile_note": "{points}, * = Finishing Touch",
    "PILE_EMPTY": "no puzzles completed yet",
    "FINISHING_MARK": "*",
    "preview_title": "Place {piece} on {card}?",
    "preview_cells": "at {cells}",
    "preview_completes": "Completes {card}: +{points}",
    "preview_cells_left": {
        "one": "New piece framed in pink; {n} cell left after it",
        "other": "New piece framed in pink; {n} cells left after it",
    },
    "master_preview_title": {"one": "Master: place {n} piece?", "other": "Master: place {n} pieces at once?"},
    "MASTER_PREVIEW_NOTE": "New pieces framed in pink, one per puzzle",
    "master_preview_piece": "{piece} at {cells}",
    "master_preview_cells_left": {"one": "{n} cell left after it", "other": "{n} cells left after it"},
    # -- results ------------------------------------------------------------------------------
    "winners_solo_won": "{name} beats the mastermind",
    "WINNERS_SOLO_LOST": "the mastermind wins",
    "winner_one": "{name} wins",
    "winners_shared": "{names} share the win",
    "VERSUS": "vs",
    "LEFT_SUFFIX": " (left the game)",
    "completed_part": {"one": "+{points} for {n} puzzle", "other": "+{points} for {n} puzzles"},
    "finishing_part": "-{n} finishing",
    "unfinished_part": "-{n} unfinished",
    "TIEBREAK_PUZZLES": "puzzles completed",
    "TIEBREAK_PIECES": "pieces left",
    "TIEBREAK_CREDITS": "credits",
    "THE_WIN": "the win",
    "place_ordinal": "{ordinal} place",
    "tie_shared": "Tie on {total} — {who} also tie on puzzles completed ({puzzles}) and pieces left "
                  "({pieces}): they share {what}.",
    "tie_shared_credits": "Tie on {total} — {who} also tie on credits ({credits}), puzzles completed "
                          "({puzzles}) and pieces left ({pieces}): they share {what}.",
    "tie_wins": "Tie on {total} — {who} wins on {criterion} ({ahead} vs {behind}).",
    "tie_ranks_ahead": "Tie on {total} — {who} ranks ahead on {criterion} ({ahead} vs {behind}).",
    "tie_group_ahead": "Tie on {total} — {who} rank ahead on {criterion} ({ahead} vs {behind}).",
    # -- Finesse expansion --------------------------------------------------------------------
    "FINESSE": "Finesse",
    "FINESSE_LIVE": "LIVE",
    "FINESSE_FACE_DOWN": "?",
    "FINESSE_ALL_GONE": "all 10 tiles played: the game ends after this round",
    "FINESSE_RULE": {  # a tile's caption, by renders.finesse.caption_key: no two rules alike
        "place": "place {shapes}",
        "pieces": "own {shapes}",
        "unfinished": "unfinished",
        "master": "Master",
        "complete": "complete",
        "take": "take",
        "types-small": "small types",
        "types-tetro": "tetromino types",
        "place-small": "place small",
        "place-tetro": "place tetromino",
        "upgrade": "upgrade",
        "no_unfinished": "none unfinished",
        "recycle": "recycle",
        "every_level": "every level",
        "insert": "insert",
        "all_different": "all different",
        "no_small": "no small",
    },
    "FINESSE_MASTER_GLYPH": "M",
    "finesse_bank": "bank {n}",
    "finesse_credits": {"one": "{name}: {n} credit", "other": "{name}: {n} credits"},
    "finesse_credits_new": {"one": "{name}: {n} credit (+{inactive} new)",
                            "other": "{name}: {n} credits (+{inactive} new)"},
    "results_credits": {"one": "{n} credit", "other": "{n} credits"},
    "MAT_CREDITS": "Credits",
    "MAT_AMBASSADORS": "Ambassador cards",
    "TABLE_AMBASSADORS": "Ambassador",
    "mat_ambassador_ready": "{card} ({points} pt, ready)",
    "mat_ambassador_later": "{card} ({points} pt, next turn)",
    "AMBASSADOR_LEGEND": "Ambassador: flip the completed card later for an extra Master",
    "AMBASSADOR_READY_LEGEND": "beside a player's card: ready to flip now",
    "AMBASSADOR_BANKED": "banked",
    "mat_credits_active": {"one": "{n} active", "other": "{n} active"},
    "mat_credits_inactive": {
        "one": "{n} inactive until your turn ends",
        "other": "{n} inactive until your turn ends",
    },
    # -- hidden score piles (option known_scores off) -----------------------------------------
    "POINTS_HIDDEN": "?",
    "POINTS_HIDDEN_UNIT": "pts (hidden)",
    "SCORE_HIDDEN": "? pts (hidden)",
    "PILE_HIDDEN_NOTE": "points hidden from the other players until the end",
    "pile_face_down": {
        "one": "{n} completed card, face down until the end",
        "other": "{n} completed cards, face down until the end",
    },
}
"""The English of every image text, by key: the source every translation follows."""

_CURRENT: ContextVar[Words | None] = ContextVar("renders_words", default=None)


@contextmanager
def speaking(words: Words | None) -> Iterator[None]:
    """Draw in ``words`` (a translation of :data:`ENGLISH`; None or empty: English) inside the
    ``with`` block. Render functions wrap their drawing in it, so every helper they call finds the
    language without passing it down (a context variable: threads and tasks keep their own)."""
    token = _CURRENT.set(words)
    try:
        yield
    finally:
        _CURRENT.reset(token)


_LANGUAGE_KEYS: dict[int, tuple[Words, str]] = {}
_LANGUAGE_KEYS_KEPT = 32
_LANGUAGE_KEYS_LOCK = threading.Lock()


def language_key() -> str:
    """A short fingerprint of the words drawn in now ("" for English): part of the key of every
    cached image that prints words (:mod:`renders.layers`). Worked out once per translation
    object (the bot keeps one per locale), from its content."""
    words = _CURRENT.get()
    if not words:
        return ""
    with _LANGUAGE_KEYS_LOCK:
        found = _LANGUAGE_KEYS.get(id(words))
        if found is not None and found[0] is words:
            return found[1]
    text = json.dumps(words, sort_keys=True, ensure_ascii=False, default=str)
    key = hashlib.sha256(text.encode()).hexdigest()[:32]
    with _LANGUAGE_KEYS_LOCK:
        if len(_LANGUAGE_KEYS) >= _LANGUAGE_KEYS_KEPT:
            _LANGUAGE_KEYS.pop(next(iter(_LANGUAGE_KEYS)))
        _LANGUAGE_KEYS[id(words)] = (words, key)
    return key


def template(key: str) -> Any:
    """The current language's template for ``key`` (English when the translation lacks it)."""
    found = (_CURRENT.get() or {}).get(key)
    return ENGLISH[key] if found is None else found


def say(key: str, **fields: Any) -> str:
    """The text ``key`` in the current language, filled in with ``fields`` (a count template
    chooses its form by the field ``n``; a field in a right-to-left script is kept apart,
    :func:`kept_apart`)."""
    form = template(key)
    if isinstance(form, Mapping):
        form = form["one" if fields["n"] == 1 else "other"]
    return str(form).format(**{name: kept_apart(value) for name, value in fields.items()})


LRM = "\u200e"
"""The left-to-right mark: a strong left-to-right character that no face draws (it takes no room)."""


def kept_apart(value: Any) -> Any:
    """A text with right-to-left letters (a name) between left-to-right marks, so that what the
    label puts around it stays in the label's order: without them "عبد: 0 credits" is drawn
    "0 :عبد credits" — the colon and the number after a right-to-left name are drawn with it
    (Unicode's bidirectional algorithm, rules W2 and N1). Anything else as it is."""
    if isinstance(value, str) and any(unicodedata.bidirectional(char) in ("R", "AL") for char in value):
        return f"{LRM}{value}{LRM}"
    return value


def __getattr__(name: str) -> Any:
    """The fixed words (``labels.RESERVE``, ``labels.FINESSE_RULE``…), in the current language."""
    if name.isupper() and name in ENGLISH:
        value = template(name)
        if isinstance(value, Mapping):  # a table by engine value: English fills any gap
            return {**ENGLISH[name], **value}
        if isinstance(value, list):
            return tuple(value)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- shared pieces -----------------------------------------------------------------------------


def points(n: int) -> str:
    """'1 pt', '16 pts', '-2 pts'."""
    return say("points", n=n)


def points_unit(n: int) -> str:
    """The unit beside a large score number."""
    return say("points_unit", n=n)


def join_names(names: Sequence[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return say("and_names", names=", ".join(names[:-1]), last=names[-1])


def ordinal(n: int) -> str:
    """'1st', '2nd', '3rd', '11th' (the English suffix is a field a translation may ignore)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return say("ordinal", n=n, suffix=suffix)


def count_of(n: int) -> str:
    """A count beside a piece icon: 'x3'."""
    return say("count_of", n=n)


def player_fallback(n: int) -> str:
    """Seat ``n``'s name when nothing of the player's own can be drawn (only emoji, say)."""
    return say("player_fallback", n=n)


def piece_label(code: str) -> str:
    """A piece named for people, by its engine code: 'L3 (bent tromino)', 'monomino' (the
    pieces '1' and '2' go by their names alone), like the engine's ``Shape.label``."""
    name = str(__getattr__("SHAPE_NAMES").get(code, code))
    return name if code in {"1", "2"} else say("piece_label", code=code, name=name)


# -- status bar, banners, header ---------------------------------------------------------------


def round_number(n: int) -> str:
    return say("round_number", n=n)


def actions_left_short(n: int) -> str:
    """Beside the action pips in the status bar."""
    return say("actions_left_short", n=n)


def to_play(name: str) -> str:
    return say("to_play", name=name)


def banner_over(winners: str) -> str:
    return say("banner_over", winners=winners)


def banner_last_round(last: int) -> str:
    return say("banner_last_round", last=last)


def banner_end_triggered(last: int, one_black_per_turn: bool) -> str:
    return say("banner_end_triggered_one_black" if one_black_per_turn else "banner_end_triggered", last=last)


# -- market, decks, reserve --------------------------------------------------------------------


def colour_deck(colour: str) -> str:
    """'White deck', 'Black deck' (``colour`` is the engine's colour value)."""
    return str(__getattr__("COLOUR_DECK").get(colour, colour))


def locks(n: int) -> str:
    return say("locks", n=n)


# -- player panels -----------------------------------------------------------------------------


def ghost_split_title(ghost: str) -> str:
    """Above a Ghost Piece split preview: 'Ghost P5 splits into'."""
    return say("ghost_split_title", ghost=ghost)


def marker_holder(marker: str, name: str) -> str:
    """Above each side of Line Clear's market: 'White marker: Ann'."""
    return say("marker_holder", marker=marker, name=name)


def puzzles_done(n: int) -> str:
    return say("puzzles_done", n=n)


def done_count(n: int) -> str:
    """The short form, where a name must keep its room: '3 done'."""
    return say("done_count", n=n)


def actions_left(n: int) -> str:
    return say("actions_left", n=n)


def finishing_placed(n: int) -> str:
    """The current player's Finishing Touches so far, with the points they cost."""
    return say("finishing_placed", n=n) if n else __getattr__("NONE_PLACED_YET")


def finishing_status(finished: bool, placed: int) -> str:
    status = __getattr__("FINISHED" if finished else "WAITING_TO_FINISH")
    return say("finishing_status", status=status, placed=placed) if placed else status


# -- mat and preview ---------------------------------------------------------------------------


def mat_title(name: str) -> str:
    return say("mat_title", name=name)


def mat_your_turn(actions: int) -> str:
    return say("mat_your_turn", actions=actions_left(actions))


def mat_summary(completed: int, supply: int) -> str:
    return say("mat_summary", puzzles=say("mat_summary_puzzles", n=completed),
               pieces=say("mat_summary_pieces", n=supply))


def level(n: int) -> str:
    return say("level", n=n)


def score_pile_note(total: int) -> str:
    return say("score_pile_note", points=points(total))


def preview_title(piece: str, card: str) -> str:
    return say("preview_title", piece=piece, card=card)


def preview_cells(cells: str) -> str:
    return say("preview_cells", cells=cells)


def preview_completes(card: str, worth: int) -> str:
    return say("preview_completes", card=card, points=points(worth))


def preview_cells_left(left: int) -> str:
    return say("preview_cells_left", n=left)


def master_preview_title(pieces: int) -> str:
    """Above a Master draft's preview: every piece it places at once."""
    return say("master_preview_title", n=pieces)


def master_preview_piece(piece: str, cells: str) -> str:
    return say("master_preview_piece", piece=piece, cells=cells)


def master_preview_cells_left(left: int) -> str:
    return say("master_preview_cells_left", n=left)


# -- results -----------------------------------------------------------------------------------


def winners_solo(name: str, won: bool) -> str:
    return say("winners_solo_won", name=name) if won else __getattr__("WINNERS_SOLO_LOST")


def winners_line(names: Sequence[str]) -> str:
    if len(names) == 1:
        return say("winner_one", name=names[0])
    return say("winners_shared", names=join_names(names))


def completed_part(points_: int, count: int) -> str:
    return say("completed_part", points=points_, n=count)


def finishing_part(penalty: int) -> str:
    return say("finishing_part", n=penalty)


def unfinished_part(penalty: int) -> str:
    return say("unfinished_part", n=penalty)


def tie_shared(
    who: str, total: int, puzzles: int, pieces: int, place: int, credits: int | None = None
) -> str:
    """A tie no tie-break settles; with Finesse (``credits`` given) credits were compared first."""
    what = __getattr__("THE_WIN") if place == 1 else say("place_ordinal", ordinal=ordinal(place))
    if credits is not None:
        return say("tie_shared_credits", who=who, total=total, credits=credits, puzzles=puzzles,
                   pieces=pieces, what=what)
    return say("tie_shared", who=who, total=total, puzzles=puzzles, pieces=pieces, what=what)


def tie_broken(total: int, who: str, group: bool, wins: bool, criterion: str, ahead: int, behind: int) -> str:
    """'Tie on 16 — Alice wins on puzzles completed (5 vs 4).'"""
    key = "tie_wins" if wins else ("tie_group_ahead" if group else "tie_ranks_ahead")
    return say(key, total=total, who=who, criterion=criterion, ahead=ahead, behind=behind)


# -- Finesse expansion -------------------------------------------------------------------------


def finesse_bank(n: int) -> str:
    """'bank 35' — credits left in the bank."""
    return say("finesse_bank", n=n)


def finesse_credits(name: str, active: int, inactive: int) -> str:
    """'Ana: 3 credits (+1 new)': active credits (the word, never "cr"), and inactive ones that
    turn active at the end of the turn."""
    if inactive:
        return say("finesse_credits_new", name=name, n=active, inactive=inactive)
    return say("finesse_credits", name=name, n=active)


def results_credits(n: int) -> str:
    """A player's final credits on the results image (they break ties on points first)."""
    return say("results_credits", n=n)


def mat_ambassador_card(card: str, points: int, ready: bool) -> str:
    """'B33 (4 pt, ready)': an unflipped Ambassador card (face up: its points are public),
    and whether it may be flipped now or only from the owner's next turn (completed this one)."""
    return say("mat_ambassador_ready" if ready else "mat_ambassador_later", card=card, points=points)


def mat_credits_active(n: int) -> str:
    """'3 active' — credits that can pay for an Insert now."""
    return say("mat_credits_active", n=n)


def mat_credits_inactive(n: int) -> str:
    """'1 inactive until your turn ends' — credits earned this turn."""
    return say("mat_credits_inactive", n=n)


# -- hidden score piles (option known_scores off) ----------------------------------------------


def pile_face_down(count: int) -> str:
    return say("pile_face_down", n=count)
