"""The engine's refusals carry a stable key and fields (engine/messages.py): every refusal raised
names a key, every key is raised somewhere, the English is the engine's own message, and the key
and fields survive a pickle (process pools)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

import engine
from engine.errors import Keyed, PlacementError
from engine.messages import MESSAGES, english
from engine.pieces import BadCellError, Shape, UnknownShapeError, parse_cells, parse_shape

ENGINE = Path(engine.__file__).parent


def keyed_classes() -> set[str]:
    import engine.errors as errors
    import engine.pieces as pieces

    return {name for module in (errors, pieces) for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, Keyed)}


def test_every_refusal_names_a_key_and_every_key_is_raised() -> None:
    classes = keyed_classes()
    unkeyed, used = [], set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in MESSAGES:
                used.add(node.value)
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in classes:
                continue
            first = node.exc.args[0] if node.exc.args else None
            named = isinstance(first, ast.Constant) and first.value in MESSAGES
            if not named and not isinstance(first, ast.Name):  # a Name: a key handed to a helper
                unkeyed.append(f"{path.relative_to(ENGINE)}:{node.lineno}")
    assert unkeyed == []
    assert sorted(set(MESSAGES) - used) == []


def test_the_english_is_the_message_and_the_fields_stay() -> None:
    with pytest.raises(engine.IllegalActionError) as caught:
        engine.parse_action("take white 9")
    error = caught.value
    assert error.key == "parse.not_a_position" and error.fields == {"text": "'9'", "highest": 4}
    assert str(error) == "'9' is not a position: use a number from 1 to 4."
    assert english("supply.no_piece", {"piece": Shape.L3}) == "Your supply has no L3 (bent tromino) piece."
    assert english("game.end_turn_early", {"n": 1}).startswith("You still have 1 action this turn")
    assert english("game.end_turn_early", {"n": 2}).startswith("You still have 2 actions this turn")


def test_a_piece_or_cell_the_engine_cannot_read_is_keyed_too() -> None:
    with pytest.raises(UnknownShapeError) as shape:
        parse_shape("Q9")
    assert shape.value.key == "parse.not_a_piece"
    with pytest.raises(BadCellError) as cell:
        parse_cells("A1 A1")
    assert cell.value.key == "parse.cell_twice" and cell.value.fields == {"cell": "A1"}
    with pytest.raises(engine.IllegalActionError) as wrapped:  # the parser re-raises it as syntax
        engine.parse_action("place L3 on W07 at Z9")
    assert wrapped.value.key == "parse.not_a_cell" and isinstance(wrapped.value, engine.ActionSyntaxError)


def test_a_refusal_pickles_with_its_key_and_fields() -> None:
    error = PlacementError("place.occupied", cells="A1", card="W07")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is PlacementError and str(again) == str(error) == "A1 on W07 already has a piece."
    assert (again.key, again.fields) == ("place.occupied", {"cells": "A1", "card": "W07"})


def test_an_unknown_key_is_a_bug_not_a_message() -> None:
    with pytest.raises(KeyError):
        engine.IllegalActionError("no.such.key")
