"""Rule cases: the action text notation (what the log stores and players type).

Source: engine/actions.py and docs/engine.md "Action notation". ``parse_action(str(a)) == a`` for
every action; parsing is forgiving about case, spacing, cell order and shape aliases; errors say
what to write instead.
"""

from __future__ import annotations

import pytest
from positions import game, progress_action

from engine import (
    ActionSyntaxError,
    DrawPuzzle,
    EndFinishing,
    Master,
    Pass,
    Place,
    Recycle,
    RemovePlayer,
    Shape,
    SkipTurn,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
    apply,
    legal_actions,
    master_options,
    parse_action,
)
from engine.cards import Colour
from engine.events import PieceGained
from engine.pieces import SHAPES, parse_cells
from engine.rng import Rng

CANONICAL = [
    ("take white 3", TakePuzzle(Colour.WHITE, 3)),
    ("take black 1", TakePuzzle(Colour.BLACK, 1)),
    ("take 5", TakePuzzle(None, 5)),
    ("draw black", DrawPuzzle(Colour.BLACK)),
    ("draw", DrawPuzzle(None)),
    ("level1", TakeLevelOne()),
    ("upgrade 2 to L3", Upgrade(Shape.DOMINO, Shape.L3)),
    ("place L3 on W07 at A1 A2 B2", Place("W07", Shape.L3, parse_cells("A1 A2 B2"))),
    ("master 1 on B02 at C3; L3 on W07 at A1 A2 B2",
     Master((Place("W07", Shape.L3, parse_cells("A1 A2 B2")), Place("B02", Shape.MONO, parse_cells("C3"))))),
    ("recycle white 3 1 4 2", Recycle(Colour.WHITE, (3, 1, 4, 2))),
    ("done", EndFinishing()),
    ("pass", Pass()),
    ("skip", SkipTurn()),
    ("remove 2", RemovePlayer(1)),
]


@pytest.mark.parametrize(("text", "action"), CANONICAL)
def test_canonical_text_of_every_kind_of_action(text: str, action) -> None:
    """docs/engine.md notation table: each action has one canonical text, and it reads back."""
    assert str(action) == text
    assert parse_action(text) == action


@pytest.mark.parametrize(("loose", "canonical"), [
    ("TAKE White 2", "take white 2"),
    ("  take   black   4 ", "take black 4"),
    ("Level-1", "level1"),
    ("upgrade mono to j3", "upgrade 1 to L3"),
    ("upgrade d to z", "upgrade 2 to S4"),
    ("place l3 on w07 at b2 a1 a2", "place L3 on W07 at A1 A2 B2"),
    ("place Z4 on b01 at 1a, b1 b2 c2", "place S4 on B01 at A1 B1 B2 C2"),
    ("master L3 on W07 at A1 A2 B2; 1 on B02 at c3;", "master 1 on B02 at C3; L3 on W07 at A1 A2 B2"),
    ("DONE", "done"),
])
def test_parsing_is_forgiving(loose: str, canonical: str) -> None:
    """Players type loosely: case, spaces, cell order, '3B' for 'B3', commas, shape aliases
    (mono, D, J3, Z …); the value and its canonical text are the same either way."""
    assert str(parse_action(loose)) == canonical


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "Empty action"),
    ("   ", "Empty action"),
    ("jump", "'jump' is not an action. Actions: take"),
    ("take purple 2", "'purple' is not a row: say white or black"),
    ("take white 5", "use a number from 1 to 4"),
    ("take 10", "use a number from 1 to 9"),
    ("take", "Write 'take white 3'"),
    ("take white", "Say which white card: 'take white 1' to 'take white 4'"),
    ("take Black", "Say which black card"),
    ("draw white black", "Write 'draw white'"),
    ("upgrade 2 L3", "Write 'upgrade <piece> to <piece>'"),
    ("upgrade 2 to X9", "'X9' is not a piece. Pieces are: 1, 2, I3"),
    ("place L3 W07 A1", "Write a placement as '<piece> on <puzzle> at <cells>'"),
    ("place L3 on W07 at A1 A2 F2", "'F2' is not a cell on the card"),
    ("place L3 on W07 at A1 A2 A2", "Cell A2 is named twice"),
    ("place L3 on W07 at A1 A2 A3", "do not form an L3 (bent tromino) piece"),
    ("place 2 on W#7 at A1 B1", "is not a puzzle id"),
    ("master", "needs at least one placement"),
    ("master ; ;", "needs at least one placement"),
    ("recycle white", "Say the order"),
    ("recycle", "Write 'recycle white 1 2 3 4'"),
    ("remove 0", "use a number from 1 to 6"),
    ("take white ²", "not a position"),  # a digit to str.isdigit(), not to int(): once a crash
    ("recycle black 1 ³ 2 4", "not a position"),
    ("remove ²", "not a position"),
    ("x" * 401, "far too long"),
])
def test_parse_errors_are_helpful(text: str, fragment: str) -> None:
    """A text that is not an action raises ActionSyntaxError (an IllegalActionError) whose message
    says what was wrong and how to write it."""
    with pytest.raises(ActionSyntaxError) as caught:
        parse_action(text)
    assert fragment.lower() in str(caught.value).lower(), str(caught.value)


def test_master_placements_are_kept_in_a_canonical_order() -> None:
    """Notation: Master placements are sorted by card, so equal actions have equal values and text
    whatever order they were typed in."""
    a = parse_action("master 1 on W02 at A1; 2 on B01 at A1 B1")
    b = parse_action("master 2 on B01 at B1 A1; 1 on W02 at A1")
    assert a == b and str(a) == str(b) == "master 2 on B01 at A1 B1; 1 on W02 at A1"


def _round_trip(state) -> int:
    checked = 0
    for action in legal_actions(state):
        assert parse_action(str(action)) == action, str(action)
        checked += 1
    options = master_options(state)
    if options is not None:
        rng = Rng(state.turn)
        for _ in range(5):
            master = options.sample(rng)
            assert parse_action(str(master)) == master, str(master)
            checked += 1
    return checked


@pytest.mark.parametrize(("players", "seed"), [(1, 2), (2, 1), (3, 0), (4, 3)])
def test_every_legal_action_round_trips_through_its_text(players: int, seed: int) -> None:
    """actions.py: parse_action(str(a)) == a for every legal action, in every state of a whole game
    (play and Finishing Touches; base game and Solo), Master samples included."""
    state = game(players, seed=seed)
    rng = Rng(seed)
    checked = 0
    while not state.is_over and state.turn < 400:
        checked += _round_trip(state)
        state = apply(state, progress_action(state, rng)).state
    assert state.is_over and checked > 500


@pytest.mark.parametrize(("cell", "bit"),
                         [("A1", 0), ("E1", 4), ("A2", 5), ("B3", 11), ("E5", 24), ("3b", 11)])
def test_cells_are_columns_a_to_e_and_rows_1_to_5(cell: str, bit: int) -> None:
    """pieces.py: cell (column A–E, row 1–5 as printed on the card) is bit row*5 + column of a
    placement mask; rows are numbered from the top."""
    assert parse_cells(cell) == 1 << bit


def test_pieces_are_named_with_the_article_they_are_read_with() -> None:
    """'an I4', 'an L3', 'an O4', 'an S4' (letters read with a vowel sound), 'a T4', 'a domino'."""
    assert [s.with_article.split(" (")[0] for s in SHAPES[:9]] == [
        "a monomino", "a domino", "an I3", "an L3", "an I4", "an O4", "a T4", "an L4", "an S4",
    ]
    gained = PieceGained(0, Shape.I4, "upgrade", wanted=Shape.O4).describe(["Ana"])
    assert gained == (
        "Ana took an I4 (straight tetromino) (upgrade) instead of an O4 (square tetromino), "
        "which the reserve has run out of."
    )


PORTUGUESE = [
    ("pegar branco 3", "take white 3"),
    ("Pegar Preta 1", "take black 1"),
    ("pegar 5", "take 5"),
    ("comprar preto", "draw black"),
    ("comprar", "draw"),
    ("nivel1", "level1"),
    ("nível1", "level1"),
    ("aprimorar 2 para L3", "upgrade 2 to L3"),
    ("colocar l3 em w07 nas b2 a1 a2", "place L3 on W07 at A1 A2 B2"),
    ("mestre 1 em B02 na C3; L3 em W07 nas A1 A2 B2", "master 1 on B02 at C3; L3 on W07 at A1 A2 B2"),
    ("reciclar branca 3 1 4 2", "recycle white 3 1 4 2"),
    ("fantasma P5 para O4 1; 1 em W07 nas C3", "ghost P5 to 1 O4; 1 on W07 at C3"),
    ("escolher I4", "choose I4"),
    ("inserir", "insert"),
    ("encerrar turno", "end turn"),
    ("concluir", "done"),
    ("passar", "pass"),
    ("pular", "skip"),
    ("remover 2", "remove 2"),
]


@pytest.mark.parametrize(("portuguese", "canonical"), PORTUGUESE)
def test_portuguese_words_parse_to_the_same_action(portuguese: str, canonical: str) -> None:
    """The notation in Portuguese (the rulebook's verbs): the same action, its text English, so
    the log replays whichever language a player typed in."""
    action = parse_action(portuguese)
    assert action == parse_action(canonical)
    assert str(action) == canonical


def test_portuguese_and_english_words_mix_and_choose_keeps_its_option() -> None:
    """Words swap one by one (a player may mix languages); the option of a pending decision is
    canonical text and is taken as written, even when it looks like a Portuguese word."""
    assert str(parse_action("place L3 em W07 at A1 A2 B2")) == "place L3 on W07 at A1 A2 B2"
    assert str(parse_action("escolher em")) == "choose em"
    with pytest.raises(ActionSyntaxError, match="not a row"):
        parse_action("pegar verde 3")
    with pytest.raises(ActionSyntaxError, match="not an action"):
        parse_action("voar 3")


@pytest.mark.parametrize(("players", "seed"), [(1, 2), (2, 1), (4, 3)])
def test_every_legal_action_typed_in_portuguese_is_the_same_action(players: int, seed: int) -> None:
    """Through a whole game (base and Solo), every legal action written with the Portuguese words
    parses to that very action."""
    from engine.actions import PORTUGUESE as WORDS

    portuguese = {english: word for word, english in WORDS.items()}
    state = game(players, seed=seed)
    rng = Rng(seed)
    checked = 0
    while not state.is_over and state.turn < 400:
        for action in legal_actions(state):
            typed = " ".join(portuguese.get(word, word) for word in str(action).split(" "))
            assert parse_action(typed) == action, typed
            checked += 1
        state = apply(state, progress_action(state, rng)).state
    assert state.is_over and checked > 500
