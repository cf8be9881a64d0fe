"""A table's panels put together from kept tiles (renders.table._TiledPanel) show exactly what
drawing each panel whole shows, draw again only the tiles whose content changed, and a tile
that draws past its box is never used (the panel is drawn whole instead)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import Options
from renders import layers, panels, render_table, table
from renders.layers import clear_layers
from renders.palette import to_png
from renders.samples import names_for, play
from renders.table import table_image


def pixels(data: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(data))
    return image.size, image.convert("RGB").tobytes()


def turn_ends(options: Options, seed: int, count: int) -> list[tuple[object, object]]:
    """(state, the previous turn end's state) at the first ``count`` turn ends of a sample game."""
    states = list(play(options, seed))
    ends = []
    previous = None
    for before, after in zip(states, states[1:], strict=False):
        if after.turn != before.turn or after.phase is not before.phase:
            ends.append((after, previous))
            previous = after
    return ends[:count]


@pytest.fixture(autouse=True)
def emptied() -> None:
    clear_layers()  # the tiles too


def test_tiled_panels_show_what_whole_panels_show_and_tiles_are_found_again() -> None:
    names = list(names_for(next(play(Options(players=4), 3))))
    made: list[object] = []
    for state, previous in turn_ends(Options(players=4), 3, 12):
        with pytest.MonkeyPatch.context() as patch:
            original = table._TiledPanel._tile

            def counted(self, tile, dx, top, lit, where, original=original):  # type: ignore[no-untyped-def]
                before = layers.TILES.cache_info().misses
                found = original(self, tile, dx, top, lit, where)
                if layers.TILES.cache_info().misses > before:
                    made.append(tile.key[0])
                assert found is not None  # no tile of a real panel draws past its box
                return found

            patch.setattr(table._TiledPanel, "_tile", counted)
            tiled = render_table(state, names, previous)
        assert pixels(tiled) == pixels(to_png(table_image(state, names, previous)))
    assert made and made.count("puzzle") < 12 * 2 * 4  # two panels a turn end: most slots found kept


def test_a_tile_drawing_past_its_box_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    state, previous = turn_ends(Options(players=3), 5, 6)[-1]
    names = list(names_for(state))
    whole = pixels(to_png(table_image(state, names, previous)))
    tiles_of = panels.panel_tiles

    def squeezed(*args, **kwargs):  # type: ignore[no-untyped-def]
        tiles = tiles_of(*args, **kwargs)
        left, top, right, bottom = tiles[0].box  # the head, with its name cut off the box
        tiles[0] = panels.PanelTile((left, top + 30, right, bottom), tiles[0].key, tiles[0].paint)
        return tiles

    monkeypatch.setattr(table, "panel_tiles", squeezed)
    fell_back: list[bool] = []
    original = table._TiledPanel.mapped

    def mapped(self, *args):  # type: ignore[no-untyped-def]
        found = original(self, *args)
        fell_back.append(found is None)
        return found

    monkeypatch.setattr(table._TiledPanel, "mapped", mapped)
    assert pixels(render_table(state, names, previous)) == whole
    assert fell_back and all(fell_back)


@pytest.mark.parametrize("width", [380, 520, 1400])  # 1400: a Solo-wide panel, its supply beside the puzzles
def test_panel_geometry_works_out_its_measures_once_and_is_one_object_per_size(width: int) -> None:
    t = table.LAYOUT.t
    g = panels.PanelGeometry(width, t, table.MINI_CELL, table.SUPPLY_CELL)
    thumb = panels.mini_size(table.MINI_CELL)
    inner = width - 2 * (t.small // 2 + 4)
    puzzles_width = 4 * thumb + 3 * (t.small // 2)
    side = inner - puzzles_width >= 12 * t.small
    assert (g.pad, g.thumb, g.inner) == (t.small // 2, thumb, inner)
    assert (g.puzzles_width, g.side) == (puzzles_width, side)
    assert g.head == int(t.large * 1.35) + int(t.small * 1.35)
    assert g.puzzles == thumb + int(t.small * 1.45)
    assert g.done_step == panels.mini_size(panels.DONE_CELL) + t.small // 3
    assert g.line == max(int(t.small * 1.35), 2 * table.SUPPLY_CELL + 8)
    assert g.thumb_gap == (t.small // 2 if side else (inner - 4 * thumb) // 3)
    assert g.supply_width == (inner - puzzles_width - t.small if side else inner)
    assert side == (width == 1400)
    same = panels.PanelGeometry(width, t, table.MINI_CELL, table.SUPPLY_CELL)
    assert same == g and hash(same) == hash(g) and same != panels.PanelGeometry(width + 2, t, 9, 7)
    assert table._panel_geometry(width, t) is table._panel_geometry(width, t)
