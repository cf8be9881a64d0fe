"""Every word the images print, in one module, so a translation replaces only this file.

Layout code never builds English itself: it asks for finished text here, passing numbers and
names. Plural forms, word order and punctuation therefore live beside the words they belong to
(Portuguese, for one, puts numbers and nouns in a different order and agrees more words).
"""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str) -> str:
    """'1 puzzle', '3 puzzles'."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def points(n: int) -> str:
    """'1 pt', '16 pts', '-2 pts'."""
    return f"{n} {points_unit(n)}"


def points_unit(n: int) -> str:
    """The unit beside a large score number."""
    return "pt" if n == 1 else "pts"


def join_names(names: Sequence[str]) -> str:
    """'Ana', 'Ana and Bo', 'Ana, Bo and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def ordinal(n: int) -> str:
    """'1st', '2nd', '3rd', '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- status bar, banners, header ----------------------------------------------------------------------


def round_number(n: int) -> str:
    return f"Round {n}"


def actions_left_short(n: int) -> str:
    """Beside the action pips in the status bar."""
    return f"{n} left"


def to_play(name: str) -> str:
    return f"{name} to play"


GAME_OVER = "Game over"


def banner_over(winners: str) -> str:
    return f"{GAME_OVER}: {winners}"


BANNER_FINISHING = "Finishing Touches: -1 point per piece placed"


def banner_last_round(last: int) -> str:
    return f"Last round! Round {last} is the final round"


def banner_end_triggered(last: int, one_black_per_turn: bool) -> str:
    limit = " (1 black per turn)" if one_black_per_turn else ""
    return f"End triggered: round {last} is the last{limit}"


# -- market, decks, reserve ---------------------------------------------------------------------------

EMPTY = "empty"
IN_DECK = "in deck"
DECK = "Deck"


def colour_deck(colour: str) -> str:
    """'White deck', 'Black deck' (``colour`` is the engine's colour value)."""
    return {"white": "White deck", "black": "Black deck"}.get(colour, f"{colour.capitalize()} deck")


REWARD = "reward"
RESERVE = "Reserve"
RESERVE_HINT = "pieces left to take"
CHANGED_LEGEND = "changed since the last turn post"

# -- Solo ------------------------------------------------------------------------------------------------

LOCK_OPEN = "open"


def locks(n: int) -> str:
    return plural(n, "lock")


MASTERMIND = "Mastermind"
MASTERMIND_SCORE = "Score"
MASTERMIND_PUZZLES = "Puzzles"
MASTERMIND_PIECES = "Pieces"
MASTERMIND_TIE_LINES = ("A tie goes to", "the mastermind")
SOLO_TIE_NOTE = "A tie goes to the mastermind: you must score more to win."

# -- player panels ------------------------------------------------------------------------------------

SUPPLY = "Supply"
SUPPLY_EMPTY = "empty"
DONE = "Done"
LEFT_THE_GAME = "left the game"
TO_PLAY_PILL = "To play"
WHITE_MARKER = "White marker"  # Line Clear: the holder takes from the left rows
BLACK_MARKER = "Black marker"  # and from the right rows
TURN_DONE_WAITING = "done, waiting"


def ghost_split_title(ghost: str) -> str:
    """Above a Ghost Piece split preview: 'Ghost P5 splits into'."""
    return f"Ghost {ghost} splits into"


def marker_holder(marker: str, name: str) -> str:
    """Above each side of Line Clear's market: 'White marker: Ann'."""
    return f"{marker}: {name}"
FINISHING_PILL = "Finishing"
NONE_PLACED_YET = "none placed yet"


def count_of(n: int) -> str:
    """A count beside a piece icon: 'x3'."""
    return f"x{n}"


def puzzles_done(n: int) -> str:
    return plural(n, "puzzle") + " done"


def actions_left(n: int) -> str:
    return plural(n, "action") + " left"


def finishing_placed(n: int) -> str:
    """The current player's Finishing Touches so far, with the points they cost."""
    return f"{n} placed (-{n})" if n else NONE_PLACED_YET


def finishing_status(finished: bool, placed: int) -> str:
    word = "Finished" if finished else "Waiting to finish"
    return f"{word} (-{placed})" if placed else word


# -- mat and preview -----------------------------------------------------------------------------------


def mat_title(name: str) -> str:
    return f"{name}'s mat"


MAT_YOUR_FINISHING = "Your Finishing Touches"


def mat_your_turn(actions: int) -> str:
    return f"Your turn: {actions_left(actions)}"


def mat_summary(completed: int, supply: int) -> str:
    return f"  {plural(completed, 'puzzle')} done, {plural(supply, 'piece')} in supply"


FREE_SLOT = "free slot"
FREE_SLOT_HINT = "take a puzzle"
MAT_SUPPLY_EMPTY = "empty: take a level-1 piece or upgrade"


def level(n: int) -> str:
    return f"Level {n}"


SCORE_PILE = "Score pile"


def score_pile_note(total: int) -> str:
    return f"{points(total)}, * = Finishing Touch"


PILE_EMPTY = "no puzzles completed yet"
FINISHING_MARK = "*"


def preview_title(piece: str, card: str) -> str:
    return f"Place {piece} on {card}?"


def preview_cells(cells: str) -> str:
    return f"at {cells}"


def preview_completes(card: str, worth: int) -> str:
    return f"Completes {card}: +{points(worth)}"


def preview_cells_left(left: int) -> str:
    return f"New piece framed in pink; {plural(left, 'cell')} left after it"


# -- results -------------------------------------------------------------------------------------------


def winners_solo(name: str, won: bool) -> str:
    return f"{name} beats the mastermind" if won else "the mastermind wins"


def winners_line(names: Sequence[str]) -> str:
    return f"{names[0]} wins" if len(names) == 1 else f"{join_names(names)} share the win"


VERSUS = "vs"
LEFT_SUFFIX = " (left the game)"


def completed_part(points_: int, count: int) -> str:
    return f"+{points_} for {plural(count, 'puzzle')}"


def finishing_part(penalty: int) -> str:
    return f"-{penalty} finishing"


def unfinished_part(penalty: int) -> str:
    return f"-{penalty} unfinished"


TIEBREAK_PUZZLES = "puzzles completed"
TIEBREAK_PIECES = "pieces left"


def tie_shared(who: str, total: int, puzzles: int, pieces: int, place: int) -> str:
    what = "the win" if place == 1 else f"{ordinal(place)} place"
    return (
        f"Tie on {total} — {who} also tie on {TIEBREAK_PUZZLES} ({puzzles}) and "
        f"{TIEBREAK_PIECES} ({pieces}): they share {what}."
    )


def tie_broken(total: int, who: str, group: bool, wins: bool, criterion: str, ahead: int, behind: int) -> str:
    """'Tie on 16 — Alice wins on puzzles completed (5 vs 4).'"""
    verb = "wins" if wins else ("rank ahead" if group else "ranks ahead")
    return f"Tie on {total} — {who} {verb} on {criterion} ({ahead} vs {behind})."


# -- Finesse expansion ----------------------------------------------------------------------------

FINESSE = "Finesse"
FINESSE_LIVE = "LIVE"
FINESSE_NEXT = "next"
FINESSE_FACE_DOWN = "?"
FINESSE_ALL_GONE = "all 10 tiles played: the game ends after this round"

FINESSE_RULE: dict[str, str] = {
    "place": "place",
    "pieces": "own each",
    "unfinished": "open",
    "master": "Master",
    "complete": "complete",
    "take": "take",
    "types": "own type",
    "upgrade": "upgrade",
}
"""The caption under each tile's pictogram: what earns its credit (pieces are drawn above)."""

FINESSE_MASTER_GLYPH = "M"
"""Master's tile shows its initial (the other piece-less tiles are drawn)."""


def finesse_bank(n: int) -> str:
    """'bank 35' — credits left in the bank."""
    return f"bank {n}"


def finesse_when(colour: str) -> str:
    """Pink tiles pay at once, blue at the end of the turn."""
    return "now" if colour == "pink" else "end of turn"


def finesse_credits(name: str, active: int, inactive: int) -> str:
    """'Ana: 3 cr (+1 new)': active credits, and inactive ones that turn active at the end of the
    turn."""
    return f"{name}: {active} cr" + (f" (+{inactive} new)" if inactive else "")


# -- hidden score piles (option known_scores off) ---------------------------------------------------

POINTS_HIDDEN = "?"
POINTS_HIDDEN_UNIT = "pts (hidden)"
SCORE_HIDDEN = f"{POINTS_HIDDEN} {POINTS_HIDDEN_UNIT}"
"""A hidden score as one line (a mat's summary)."""
PILE_HIDDEN_NOTE = "points hidden from the other players until the end"


def pile_face_down(count: int) -> str:
    return f"{plural(count, 'completed card')}, face down until the end"
