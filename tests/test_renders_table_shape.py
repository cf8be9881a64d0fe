"""The table image's shape (issue 46, item 11): a chat preview shrinks an image to fit a box about
as wide as tall or wider, so a table 960 px wide and two or three times as tall showed as a
sliver. With the players' panels beside the shared table, every player count, with every
expansion it allows or none, is at most 1.3 times as tall as wide, and its text keeps the sizes
it had (3% of the shared table's 960 px)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import GameState, Options
from renders import fonts, render_table
from renders.samples import names_for, play
from renders.table import LAYOUT, panel_columns_beside, table_width

MOST = 1.3
"""The tallest an image may be, as a multiple of its width."""


def everything(players: int) -> Options:
    """Every expansion the player count allows (Phoenix needs a second player's market)."""
    return Options.for_players(players, ghost=True, phoenix=players > 1, ambassador=True, finesse=True,
                               finesse_ambassador=True, endless_white=players > 1)


def some_states(options: Options, count: int = 8) -> list[GameState]:
    states = list(play(options, 3))
    step = max(1, len(states) // count)
    return [*states[::step], states[-1]]


@pytest.mark.parametrize("players", range(1, 7))
@pytest.mark.parametrize("expansions", ["none", "all"])
def test_every_table_is_at_most_a_third_taller_than_wide(players: int, expansions: str) -> None:
    options = everything(players) if expansions == "all" else Options.for_players(players, ghost=players > 4)
    for state in some_states(options):
        image = Image.open(io.BytesIO(render_table(state, names_for(state))))
        assert image.width == table_width(panel_columns_beside(options))
        assert image.height <= MOST * image.width, f"{image.width}x{image.height} at {players} players"


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_panels_beside_the_table_keep_the_text_sizes(players: int) -> None:
    """No text smaller than the smallest size of a 960 px table (3% of it)."""
    state = some_states(everything(players))[4]
    with fonts.recording_sizes() as sizes:
        render_table(state, names_for(state))
    assert min(sizes) >= LAYOUT.t.small == -(-LAYOUT.width * 3 // 100)

