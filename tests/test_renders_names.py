"""Players' names on the table image are drawn whole (issue 31, item 6's rule, for the player
panels too): shrunk, then wrapped onto two lines, never cut, for the longest names Discord allows."""

from __future__ import annotations

from typing import Any

import pytest

import engine
import renders
from engine.state import Options
from renders import fonts, panels

LONG_NAMES = ("Maximiliano Rodrigues da Silva Jr", "Bartholomew the Magnificent XIV",
              "Zoë Ærøskøbing-Ångström-Nørrebro", "Greedy AI (seat 4) of the table", "Ana",
              "Anastasia Konstantinopoulou 2nd")
"""Display names of up to Discord's 32 characters, the last ones with spaces to wrap at."""


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_every_players_name_is_drawn_whole(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    set_names: list[tuple[str, list[str]]] = []
    real = panels.panel_name_lines

    def spy(name: str, room: int, t: Any) -> tuple[int, list[str]]:
        size, lines = real(name, room, t)
        set_names.append((name, lines))
        return size, lines

    monkeypatch.setattr(panels, "panel_name_lines", spy)
    options = Options.for_players(players) if players > 1 else Options(players=1, variant="solo")
    state = engine.new_game(options, 7)
    renders.render_table(state, list(LONG_NAMES[:players]))
    assert {name for name, _ in set_names} == set(LONG_NAMES[:players])
    for name, lines in set_names:
        assert "".join(lines).replace(" ", "") == name.replace(" ", ""), lines  # every letter, in order
        assert not any(fonts.ELLIPSIS in line for line in lines), lines
        assert len(lines) <= 2
