"""The picture README shows ("Play on the board"): a game a few turns in, a piece dragged over a
puzzle with the cells where it fits lit. Written to ``$PROJECTL_BOARD_SCREENSHOT`` when set (to
refresh docs/images/web/board.png), else into the test's temporary folder.

The committed picture carries a record of what it shows that no machine or font changes: the
seats' names and a digest of the files that lay the page out (index.html, board.css). Without
``$PROJECTL_BOARD_SCREENSHOT`` the test compares that record and the picture's size with the page's
now, so a change to the page's layout or to the names it gives the seats fails here until the
picture is refreshed. Its pixels are not compared: fonts and anti-aliasing differ between machines."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from board_pages import DESKTOP, cell_centre, lead, open_board, piece_cell_centre, placement_in_hand, view
from PIL import Image, PngImagePlugin
from playwright.sync_api import Page

from bot.board import BoardHandle
from bot.core.play.manager import engine_policy
from engine import legal_actions

ROOT = Path(__file__).resolve().parents[2]
PICTURE = "docs/images/web/board.png"
REFRESH = f"PROJECTL_BOARD_SCREENSHOT={PICTURE} pytest tests/browser/test_browser_screenshot.py"
LAYOUT = ("bot/web/static/index.html", "bot/web/static/board.css")
"""The files that lay the page out: a change to one changes what the picture should show."""
RECORD = "projectl-board"
"""The PNG text chunk holding the picture's record (JSON)."""


def record(page: Page) -> dict[str, Any]:
    """What the picture shows, in facts the same on every machine: the seats' names as the page
    gives them, and a digest of the layout's files (line endings aside)."""
    digest = hashlib.sha256()
    for name in LAYOUT:
        digest.update((ROOT / name).read_bytes().replace(b"\r\n", b"\n"))
    return {"seats": [player["name"] for player in view(page)["players"]], "layout": digest.hexdigest()[:16]}


def keep(shot: Path, target: Path, facts: dict[str, Any]) -> None:
    """Write the screenshot to ``target`` with its record, in 256 colours: a third of the size, and
    no shade one can tell apart is lost (the screenshot's ~4,000 colours are mostly anti-aliasing)."""
    info = PngImagePlugin.PngInfo()
    info.add_text(RECORD, json.dumps(facts, sort_keys=True))
    with Image.open(shot) as image:
        small = image.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(target, optimize=True, pnginfo=info)


def test_the_board_screenshot(page: Page, boards: Callable[..., BoardHandle], tmp_path: Path) -> None:
    board = boards(players=3, names=("Ana", "Bia", "Caio"), seed=5)
    chooser = engine_policy("strong", 5)
    def ready() -> bool:
        state = board.state()
        puzzles = state.players[0].puzzles
        return (state.turn >= 21 and state.actions_left == 3 and len(puzzles) >= 2
                and any(p.filled for p in puzzles) and any(a.kind == "place" for a in legal_actions(state)))

    while not ready():
        state = board.state()
        assert state.current == 0 and not state.is_over and state.turn < 60
        board.act(0, str(chooser.choose(state)))
    open_board(page, board.link(0))
    supply = view(page)["supply"]
    shapes = [item["shape"] for item in supply if view(page)["placements"].get(item["shape"])]
    assert shapes, "a piece that fits somewhere"
    shape = max(shapes, key=lambda name: len(view(page)["shapes"][name]))
    page.locator(f'#supply button.piece[data-shape="{shape}"]').click()
    for _ in range(4):
        if page.locator("#puzzles rect.fits").count():
            break
        page.keyboard.press("r")
    page.locator(f'#supply button.piece[data-shape="{shape}"]').click()  # put it down: drag it instead
    placement = placement_in_hand(page, shape)
    start = piece_cell_centre(page, shape)
    end = cell_centre(page, placement["card"], *lead(placement["cells"]))
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=5)
    page.mouse.move(*end, steps=5)
    assert page.locator("#puzzles rect.preview-ok").count() == len(placement["cells"])
    assert page.locator("#puzzles rect.fits:not(.preview-ok)").count(), "cells lit besides the piece's"
    shot = tmp_path / "board.png"
    page.screenshot(path=str(shot), full_page=False)
    facts = record(page)
    page.mouse.move(2, 2, steps=3)
    page.mouse.up()
    assert shot.stat().st_size > 10_000
    refresh = os.environ.get("PROJECTL_BOARD_SCREENSHOT")
    if refresh:
        keep(shot, Path(refresh), facts)
        return
    with Image.open(ROOT / PICTURE) as committed:
        kept = json.loads(committed.info.get(RECORD, "null"))
        size = committed.size
    assert (size, kept) == ((DESKTOP["width"], DESKTOP["height"]), facts), (
        f"{PICTURE} is not what the page shows now (size {size}, record {kept}; now {facts}): "
        f"refresh it with {REFRESH}")
