"""What happened when an action was applied, as values a log or a UI can show.

Seats are numbers; ``describe(names)`` turns an event into a sentence given the seat names. Most
events say one fixed sentence about their fields: they set ``sentence`` (a ``str.format`` template,
``{who}`` being the name of the event's ``seat``); the few whose wording depends on their values
write ``describe`` themselves.
``reveals_hidden`` marks events that showed a card nobody had seen (a refill, a blind draw, a
recycle): an action that produced one cannot be taken back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

from .cards import Colour
from .pieces import Shape, mask_to_text

MASTERMIND = -1
"""Seat number used for the Solo mastermind in events."""


def seat_name(names: Sequence[str], seat: int) -> str:
    """What an event calls ``seat``: its name, "The mastermind" in Solo, or "Player N" when the
    names do not reach it (every English event text, and :mod:`engine.visibility`'s, uses it)."""
    if seat == MASTERMIND:
        return "The mastermind"
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


@dataclass(frozen=True, slots=True)
class Event:
    reveals_hidden = False
    sentence: ClassVar[str] = ""
    """What :meth:`describe` says: filled in with the event's fields, plus ``who`` (the name of
    its ``seat``, when it has one)."""

    def describe(self, names: Sequence[str]) -> str:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        if "seat" in values:
            values["who"] = seat_name(names, values["seat"])
        return self.sentence.format(**values)


@dataclass(frozen=True, slots=True)
class PuzzleTaken(Event):
    seat: int
    card: str
    source: str  # "row", "grid" or "deck"
    colour: Colour | None
    slot: int | None

    @property
    def reveals_hidden(self) -> bool:  # type: ignore[override]
        return self.source == "deck"

    def describe(self, names: Sequence[str]) -> str:
        if self.source == "deck":
            where = f"the top of the {self.colour} deck" if self.colour else "the top of the deck"
        elif self.source == "grid":
            where = f"grid position {self.slot}"
        else:
            where = f"the {self.colour} row"
        return f"{seat_name(names, self.seat)} took puzzle {self.card} from {where}."


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    card: str
    colour: Colour | None
    slot: int
    reveals_hidden = True

    def describe(self, names: Sequence[str]) -> str:
        where = f"the {self.colour} row" if self.colour else "the grid"
        return f"Puzzle {self.card} was revealed in {where} (position {self.slot})."


@dataclass(frozen=True, slots=True)
class DeckEmptied(Event):
    colour: Colour | None

    def describe(self, names: Sequence[str]) -> str:
        return f"The {self.colour} deck is empty." if self.colour else "The puzzle deck is empty."


@dataclass(frozen=True, slots=True)
class WhiteDeckRenewed(Event):
    """Endless White Deck: the white deck ran out, every player banked the points of their
    completed white cards (``banked``: seat and points, in seat order), and those ``cards`` became
    a new, shuffled white deck. The sentence names no points, so it is safe to post when scores
    are hidden (option ``known_scores`` off)."""

    cards: int
    banked: tuple[tuple[int, int], ...]

    reveals_hidden = True
    sentence = (
        "The white deck ran out: every player banked the points of their completed white cards, "
        "and those {cards} cards were shuffled into a new white deck."
    )


@dataclass(frozen=True, slots=True)
class EndTriggered(Event):
    round: int
    last_round: int

    """The black deck (Solo: the deck) ran out in ``round``; ``last_round`` is the round that will
    be the last played: usually the next one, but the same one when the game ends with it (Line
    Clear's markers, Finesse's tenth round)."""

    def describe(self, names: Sequence[str]) -> str:
        if self.last_round <= self.round:
            return f"The end of the game is triggered: round {self.last_round} is the last."
        return (f"The end of the game is triggered: round {self.round} is finished, then round "
                f"{self.last_round} is the last.")


@dataclass(frozen=True, slots=True)
class PieceGained(Event):
    seat: int
    shape: Shape
    reason: str  # "level1", "upgrade", "reward"
    wanted: Shape | None = None  # set when the reserve had none of the wanted shape

    def describe(self, names: Sequence[str]) -> str:
        text = f"{seat_name(names, self.seat)} took {self.shape.with_article} ({self.reason})"
        if self.wanted is not None and self.wanted is not self.shape:
            text += f" instead of {self.wanted.with_article}, which the reserve has run out of"
        return text + "."


@dataclass(frozen=True, slots=True)
class DecisionAwaited(Event):
    """The game waits for ``seat`` to choose (a pending decision, see engine/decisions.py)."""

    seat: int
    kind: str
    options: tuple[str, ...]
    prompt: str
    about: str = ""  # the decision's own note (``PendingDecision.about``), so a UI can word it

    def describe(self, names: Sequence[str]) -> str:
        choices = ", ".join(self.options)
        return f"{seat_name(names, self.seat)} must choose: {self.prompt} (choose {choices})."


@dataclass(frozen=True, slots=True)
class PieceReturned(Event):
    seat: int
    shape: Shape

    sentence = "{who} returned {shape.with_article} to the reserve."


@dataclass(frozen=True, slots=True)
class PiecePlaced(Event):
    seat: int
    card: str
    shape: Shape
    mask: int
    finishing: bool = False

    def describe(self, names: Sequence[str]) -> str:
        text = (
            f"{seat_name(names, self.seat)} placed {self.shape.label} on {self.card} at "
            f"{mask_to_text(self.mask)}"
        )
        return text + (" (Finishing Touch, -1 point)." if self.finishing else ".")


@dataclass(frozen=True, slots=True)
class PuzzleCompleted(Event):
    seat: int
    card: str
    points: int
    finishing: bool = False

    def describe(self, names: Sequence[str]) -> str:
        tail = " during Finishing Touches (no reward)" if self.finishing else ""
        return f"{seat_name(names, self.seat)} completed {self.card} for {self.points} pt{tail}."


@dataclass(frozen=True, slots=True)
class AmbassadorFlipped(Event):
    """Ambassador Pack: ``seat`` flipped its completed Ambassador card ``card`` face down for an
    Ambassador action (the placements follow as ``PiecePlaced`` events)."""

    seat: int
    card: str
    sentence = "{who} flipped Ambassador card {card} for an Ambassador action."


@dataclass(frozen=True, slots=True)
class RowRecycled(Event):
    colour: Colour
    cards: tuple[str, ...]
    reveals_hidden = True

    def describe(self, names: Sequence[str]) -> str:
        return f"The {self.colour} row ({', '.join(self.cards)}) went under its deck."


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    round: int

    sentence = "Round {round}: {who}'s turn."


@dataclass(frozen=True, slots=True)
class FinishingStarted(Event):
    sentence = "The last round is over: Finishing Touches begin (each piece placed costs 1 point)."


@dataclass(frozen=True, slots=True)
class FinishingDone(Event):
    seat: int

    sentence = "{who} is done with Finishing Touches."


@dataclass(frozen=True, slots=True)
class MastermindTook(Event):
    card: str
    position: int
    points: int

    sentence = "The mastermind took {card} ({points} pt) from grid position {position}."


@dataclass(frozen=True, slots=True)
class LocksReleased(Event):
    """Every column holding a puzzle was locked: one lock piece left each column, and the
    mastermind took nothing this turn."""

    sentence = ("Every column was locked: the mastermind removed one lock piece from above each column "
                "and took nothing this turn.")


@dataclass(frozen=True, slots=True)
class LocksMoved(Event):
    column: int
    locks: tuple[int, int, int]

    def describe(self, names: Sequence[str]) -> str:
        counts = ", ".join(str(n) for n in self.locks)
        return f"Lock pieces moved onto column {self.column}; locks per column now {counts}."


@dataclass(frozen=True, slots=True)
class LockTaken(Event):
    column: int

    sentence = "A lock piece from column {column} went to the mastermind's supply."


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    seat: int

    sentence = "{who}'s turn was skipped."


@dataclass(frozen=True, slots=True)
class PlayerRemoved(Event):
    seat: int
    discarded: tuple[str, ...]

    def describe(self, names: Sequence[str]) -> str:
        text = f"{seat_name(names, self.seat)} left the game; their pieces went back to the reserve"
        if self.discarded:
            text += f" and their unfinished puzzles ({', '.join(self.discarded)}) left play"
        return text + "."


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self, names: Sequence[str]) -> str:
        who = " and ".join(seat_name(names, w) for w in self.winners)
        verb = "share the victory" if len(self.winners) > 1 else "wins"
        return f"Game over: {who} {verb}."


@dataclass(frozen=True, slots=True)
class GhostSplit(Event):
    """The Ghost action: a ghost went back to the reserve for pieces that tile it."""

    seat: int
    ghost: Shape
    pieces: tuple[Shape, ...]

    def describe(self, names: Sequence[str]) -> str:
        got = ", ".join(s.label for s in self.pieces)
        return f"{seat_name(names, self.seat)} split a ghost {self.ghost.label} into {got}."


@dataclass(frozen=True, slots=True)
class LevelledUp(Event):
    """A level-up reward raised a piece one level."""

    seat: int
    give: Shape
    take: Shape

    sentence = "{who} levelled up {give.with_article} to {take.with_article}."


@dataclass(frozen=True, slots=True)
class LevelUpDeclined(Event):
    seat: int

    sentence = "{who} declined a level-up."


@dataclass(frozen=True, slots=True)
class LevelUpLost(Event):
    """An arrow with no possible raise (no piece has a stocked shape one level up) is lost."""

    seat: int

    sentence = ("{who}'s level-up was lost: no piece in their supply can go one level up with what is "
                "left in the reserve.")


@dataclass(frozen=True, slots=True)
class MarkersPassed(Event):
    """Line Clear: both marker holders are done; the markers moved clockwise."""

    white: int
    black: int
    round: int

    def describe(self, names: Sequence[str]) -> str:
        return (
            f"Round {self.round}: {seat_name(names, self.white)} holds the White marker (left rows), "
            f"{seat_name(names, self.black)} the Black marker (right rows); both play now."
        )


# -- Finesse expansion ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreditEarned(Event):
    """Finesse: ``seat`` took one credit from the bank (it is inactive until its turn ends).
    ``reason`` says what earned it ("placed an L4"), ``tile`` the live tile's short label."""

    seat: int
    tile: str
    reason: str

    sentence = "{who}: +1 credit: {reason} (Finesse: {tile})."


@dataclass(frozen=True, slots=True)
class CreditReturned(Event):
    """Finesse, empty bank: a player tied for the most credits returned one."""

    seat: int
    inactive: bool

    def describe(self, names: Sequence[str]) -> str:
        kind = "an inactive" if self.inactive else "an active"
        return (
            f"The credit bank was empty: {seat_name(names, self.seat)} (most credits) returned {kind} "
            "credit."
        )


@dataclass(frozen=True, slots=True)
class CreditsReturnedToBank(Event):
    """Finesse: a removed player's credits (``count``, active and inactive) went back to the bank,
    as their pieces went to the reserve (docs/rules.md §10)."""

    seat: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        plural = "s" if self.count != 1 else ""
        return f"{seat_name(names, self.seat)}'s {self.count} credit{plural} went back to the bank."


@dataclass(frozen=True, slots=True)
class CreditsActivated(Event):
    seat: int
    count: int

    def describe(self, names: Sequence[str]) -> str:
        plural = "s" if self.count != 1 else ""
        return f"{seat_name(names, self.seat)}'s {self.count} new credit{plural} became active."


@dataclass(frozen=True, slots=True)
class ActionInserted(Event):
    """Finesse: ``seat`` paid 2 active credits for one extra action this turn."""

    seat: int

    sentence = "{who} paid 2 credits to insert an extra action."


@dataclass(frozen=True, slots=True)
class CreditPaidFinishing(Event):
    """Finesse: a Finishing Touch cost a credit instead of a point."""

    seat: int

    sentence = "{who} paid that Finishing Touch with a credit instead of a point."


@dataclass(frozen=True, slots=True)
class FinesseTileRemoved(Event):
    """Finesse: a round ended and the leftmost tile left play; ``live`` is the next one ("" when
    none is left, or it is still face down).

    ``tile`` is None when the tile leaving was face down (rounds 1–2): a face-down tile is never
    revealed, not even as it leaves, so the event does not know which it was."""

    tile: str | None
    live: str

    def describe(self, names: Sequence[str]) -> str:
        text = "A face-down Finesse tile left play." if self.tile is None else (
            f"The Finesse tile {self.tile} left play."
        )
        return text + (f" Live now: {self.live}." if self.live else "")
