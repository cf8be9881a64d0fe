"""What an offer shown to one seat relies on: a stamp of that seat's view of the game.

A panel, a preview's Confirm, a Master draft or an autocomplete value was computed for one seat at
one moment. On a single-turn table everything that changes the game is that seat's own business
(or ends its turn), so the moment is the game's revision, as it always was. While two turns run at
once (Line Clear's marker holders), the other holder's actions change the revision but usually
not what this seat was offered: its own turn, its own puzzles and pieces, the rows on its side of
the table. The stamp of a concurrent state is a digest of exactly those parts, so the other
holder's action leaves it unchanged and a change to any of them makes it differ:

========  ===========================================================================================
``turn``  the phase, the seat's own turn (actions left, Master used, black taken, its side), whether it
          is held open or has a decision waiting, and the expansions' shared data (Finesse's tiles
          and credits: an Insert relies on them)
``mat``   the seat's player state: puzzles (and how they are filled), supply, completed cards
``rows``  the face-up rows on the seat's side and whether each deck can still be drawn from
========  ===========================================================================================

What an offer relies on beyond those — the reserve an upgrade or a level-1 piece is taken from, a
deck's next card — is checked against the fresh state instead: the action is looked up among the
seat's legal actions there (an upgrade to a piece the reserve no longer has is not among them).
Every value a component carries names a concrete action (a card, a shape, cells) or positions
inside the parts above (a slot of the seat's rows, an index into its puzzles), so an unchanged
stamp means the component still means the same action.

Pure functions of engine values: no Discord, no storage.
"""

from __future__ import annotations

import hashlib
import re

from engine import GameState
from engine.cards import Colour
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


def _parts(state: GameState, seat: int) -> tuple[str, str, str]:
    turn = state.turn_of(seat)
    waiting = tuple(d for d in state.pending if d.seat == seat)
    turn_text = repr((state.phase.value, turn, seat in state.held, seat in state.acting_seats, waiting,
                      sorted(state.ext.items())))
    mat_text = repr(state.players[seat])
    table = state.table
    if isinstance(table, LineClearTable) and turn is not None:
        rows_text = repr(tuple(table.row(turn.side, colour) for colour in (Colour.WHITE, Colour.BLACK))
                         + tuple(bool(table.deck(colour)) for colour in (Colour.WHITE, Colour.BLACK)))
    else:
        rows_text = repr(table)  # no side of its own: the whole market
    return turn_text, mat_text, rows_text


def _digest(text: str) -> str:
    value = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    digits = ""
    for _ in range(PART_DIGITS):
        value, rest = divmod(value, 36)
        digits += _B36[rest]
    return digits
