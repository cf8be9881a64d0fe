"""Event sentences: an event either fills in its ``sentence`` template or words itself.

A template may name only the event's own fields (and ``who``, the name of its ``seat``), so a
renamed field or a typo fails here rather than in a player's confirmation.
"""

from __future__ import annotations

import dataclasses
import inspect
import string

import pytest

import engine.events as ev
from engine.pieces import Shape

EVENTS = sorted((cls for cls in vars(ev).values() if inspect.isclass(cls) and issubclass(cls, ev.Event)
                 and cls is not ev.Event), key=lambda cls: cls.__name__)


def own_describe(cls: type[ev.Event]) -> bool:
    return any("describe" in vars(klass) for klass in cls.__mro__ if klass is not ev.Event)


@pytest.mark.parametrize("cls", EVENTS, ids=lambda cls: cls.__name__)
def test_every_event_has_words(cls: type[ev.Event]) -> None:
    if own_describe(cls):
        assert not cls.sentence, "a template that describe() ignores would mislead"
        return
    assert cls.sentence, f"{cls.__name__} says nothing"
    names = {f.name for f in dataclasses.fields(cls)}
    if "seat" in names:
        names.add("who")
    used = {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(cls.sentence)
            if field}
    assert used <= names, f"{cls.__name__} names {used - names}"


def test_a_template_fills_in_names_and_attributes() -> None:
    names = ["Ana", "Bo"]
    assert ev.PieceReturned(1, Shape.L3).describe(names) == "Bo returned an L3 (bent tromino) to the reserve."
    assert ev.TurnStarted(0, 4).describe(names) == "Round 4: Ana's turn."
    assert ev.TurnSkipped(ev.MASTERMIND).describe(names) == "The mastermind's turn was skipped."
    assert ev.TurnSkipped(5).describe(names) == "Player 6's turn was skipped."
    assert ev.LockTaken(2).describe(names) == "A lock piece from column 2 went to the mastermind's supply."
