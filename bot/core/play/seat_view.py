"""What an offer shown to one seat relies on: a stamp of what that seat may do.

A panel, a preview's Confirm, a Master draft or an autocomplete value was computed for one seat at
one moment. On a single-turn table everything that changes the game is that seat's own business
(or ends its turn), so the moment is the game's revision, as it always was. While two turns run at
once (Line Clear's marker holders), the other holder's actions change the revision but usually
not what this seat may do. The stamp of a concurrent state is a digest of exactly what the seat
may do and what each of its offers means, so an action of the other holder leaves it unchanged
unless it changes that (then it always differs):

========  ===========================================================================================
``turn``  the phase, the seat's own turn (actions left, Master used, black taken, its side), whether it
          is held open, may act, or has decisions waiting; its legal actions other than the market's
          and placements (:func:`engine.legal_actions`: level 1, upgrades and Ghost splits read the
          reserve, Insert the seat's credits, ``choose`` its decision's options) and which
          combinatorial kinds are open to it (:func:`engine.legal.combinatorial_kinds`: Master, an
          Ambassador card to flip)
``mat``   the seat's supply and unfinished puzzles (with what lies on them): they fix every Place,
          Master and Ambassador action and the Ghost action's placements
``rows``  the face-up rows on the seat's side and its market actions there (take, draw, recycle:
          whether a deck can be drawn from matters only to the holder who may draw or recycle)
========  ===========================================================================================

Left out, because no offer relies on them: the other holder's turn, mat, decisions and expansion
data (its Ambassador cards, its credits), the seat's own score pile (an Endless White Deck banks it
on the other holder's draw), the reserve's counts beyond which actions they allow, the decks'
contents, and the other side's rows. Every value a component carries names a concrete action (a
card, a shape, cells) or positions inside the parts above (a slot of the seat's rows, an index
into its puzzles), so an unchanged stamp means the component still means the same action; the
action is still looked up among the seat's legal actions in the fresh state when it is applied.

Pure functions of engine values: no Discord, no storage.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import fields

import engine
from engine import GameState
from engine.cards import Colour
from engine.legal import combinatorial_kinds
from engine.state import LineClearTable

SEAT_STAMP_PREFIX = "s"
PART_DIGITS = 4
PARTS = ("turn", "mat", "rows")
"""The parts of a seat's view, in the order their digests appear in a stamp."""

_STAMP = re.compile(rf"^(?:\d{{1,20}}|{SEAT_STAMP_PREFIX}[0-9a-z]{{{PART_DIGITS * len(PARTS)}}})$")
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def stamp(state: GameState | None, revision: int, seat: int) -> str:
    """The stamp an offer to ``seat`` carries: the revision on a single-turn table (or before the
    deal), else ``s`` and one digest per part of :data:`PARTS`."""
    if state is None or not state.concurrent:
        return str(revision)
    return SEAT_STAMP_PREFIX + "".join(_digest(text) for text in _parts(state, seat))


def is_stamp(text: str | None) -> bool:
    """Whether ``text`` could be a stamp we made (a custom id's field: anything else is forged)."""
    return text is not None and bool(_STAMP.match(text))


def changed_parts(state: GameState | None, revision: int, seat: int, old: str) -> tuple[str, ...]:
    """The parts of :data:`PARTS` that differ between the offer's stamp ``old`` and the game now;
    ``("game",)`` when the two cannot be compared part by part (a revision on either side), and
    ``()`` when nothing the offer relies on changed."""
    now = stamp(state, revision, seat)
    if now == old:
        return ()
    if not (now.startswith(SEAT_STAMP_PREFIX) and old.startswith(SEAT_STAMP_PREFIX)):
        return ("game",)
    found = tuple(part for number, part in enumerate(PARTS)
                  if _piece(now, number) != _piece(old, number))
    return found or ("game",)


def _piece(text: str, number: int) -> str:
    start = len(SEAT_STAMP_PREFIX) + number * PART_DIGITS
    return text[start:start + PART_DIGITS]


MARKET_KINDS = frozenset({"take", "draw", "recycle"})
"""Action kinds that act on the market: the ``rows`` part; the rest of the listing is ``turn``'s."""


def _parts(state: GameState, seat: int) -> tuple[str, str, str]:
    turn = state.turn_of(seat)
    actions = engine.legal_actions(state, seat, places=False)  # none when the seat cannot act
    # By kind and colour: with the rows that fixes every one (a take is any occupied slot of the
    # row, a recycle any order of them) at a tenth of the cost of writing each out.
    market = sorted({(a.kind, str(getattr(a, "colour", ""))) for a in actions if a.kind in MARKET_KINDS})
    others = tuple(str(a) for a in actions if a.kind not in MARKET_KINDS)
    waiting = tuple(d for d in state.pending if d.seat == seat)
    turn_text = repr((state.phase.value, turn, seat in state.held, seat in state.acting_seats, waiting,
                      others, combinatorial_kinds(state, seat)))
    player = state.players[seat]
    mat_text = repr((player.supply, player.puzzles))
    table = state.table
    if isinstance(table, LineClearTable) and turn is not None:
        rows_text = repr((tuple(table.row(turn.side, colour) for colour in (Colour.WHITE, Colour.BLACK)),
                          market))
    else:
        rows_text = repr((_face_up(table), market))  # no side of its own: the whole market
    return turn_text, mat_text, rows_text


def _face_up(table: object) -> tuple[tuple[str, object], ...]:
    """The market as every seat sees it: each deck by its size, never its order (a stamp travels
    in custom ids a client can read, so it must digest nothing hidden)."""
    return tuple((f.name, len(value) if "deck" in f.name else value)
                 for f in fields(table)  # type: ignore[arg-type]
                 for value in [getattr(table, f.name)])


def _digest(text: str) -> str:
    value = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    digits = ""
    for _ in range(PART_DIGITS):
        value, rest = divmod(value, 36)
        digits += _B36[rest]
    return digits
