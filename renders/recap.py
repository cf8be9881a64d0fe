"""The animated recap of a finished game: an animated PNG, one frame per round (the table after
it, drawn by :func:`renders.render_table`) with a score line per player growing beside it, and
the move that swung the game most marked (a gold ring on its round's point of the chart, and a
gold frame round that round's frame). Pure: states in, PNG bytes out (docs/replays.md).

Sized for Discord: the table is scaled to :data:`TABLE_WIDTH` and every frame is quantised to a
palette, so a 15-round game stays far below Discord's 10 MB; frames show for at most
:data:`FRAME_MS` each and the whole animation lasts at most :data:`MAX_SECONDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO

from PIL import Image, ImageDraw

from engine.state import GameState

from . import fonts
from .labels import Words
from .palette import ACCENT, INK, MUTED, PAGE, PANEL, PANEL_EDGE, RGB, rgb
from .table import render_table

TABLE_WIDTH = 760
CHART_WIDTH = 320
FRAME_MS = 1500
LAST_FRAME_MS = 3000
MAX_SECONDS = 20
LINE_COLOURS: tuple[RGB, ...] = (rgb("#1f77b4"), rgb("#d62728"), rgb("#2ca02c"), rgb("#9467bd"),
                                 rgb("#ff7f0e"), rgb("#17becf"), rgb("#7f7f7f"))
"""One colour per seat (the last one is the Solo mastermind's)."""


def durations(frames: int) -> list[int]:
    """Milliseconds per frame: a readable pace, the last one held, all within MAX_SECONDS."""
    if frames <= 1:
        return [LAST_FRAME_MS]
    each = min(FRAME_MS, (MAX_SECONDS * 1000 - LAST_FRAME_MS) // (frames - 1))
    return [each] * (frames - 1) + [LAST_FRAME_MS]


def render_recap(states: Sequence[GameState], names: Sequence[str], scores: Sequence[Sequence[int]],
                 swing: int | None = None, words: Words | None = None) -> bytes:
    """``states[k]``: the table after round k (0: the deal); ``scores[k]``: each line's total then
    (one line per seat, then the mastermind's in Solo); ``swing``: the frame of the swing move."""
    tables = [_table(state, names, words) for state in states]
    height = max([360, *(table.height for table in tables)])  # one canvas for every frame
    frames = [_frame(table, height, names, scores, k, swing) for k, table in enumerate(tables)]
    out = BytesIO()
    frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:],
                   duration=durations(len(frames)), loop=0, optimize=False)
    return out.getvalue()


def _table(state: GameState, names: Sequence[str], words: Words | None) -> Image.Image:
    """The table after a round, scaled to :data:`TABLE_WIDTH`."""
    table = Image.open(BytesIO(render_table(state, names, None, words))).convert("RGB")
    height = round(table.height * TABLE_WIDTH / table.width)
    return table.resize((TABLE_WIDTH, height), Image.Resampling.LANCZOS)


def _frame(table: Image.Image, height: int, names: Sequence[str], scores: Sequence[Sequence[int]],
           k: int, swing: int | None) -> Image.Image:
    """One frame, ``height`` tall whatever this round's table needs: an animated PNG has one
    canvas size, and a frame smaller than the one before would leave the rest of it black (the
    tables grow as players take puzzles)."""
    canvas = Image.new("RGB", (TABLE_WIDTH + CHART_WIDTH, height), PAGE)
    canvas.paste(table, (0, 0))
    _chart(ImageDraw.Draw(canvas), names, scores, k, swing, (TABLE_WIDTH + 10, 10, canvas.width - 10,
                                                               min(canvas.height - 10, 420)))
    if swing is not None and k == swing:
        ImageDraw.Draw(canvas).rectangle((2, 2, canvas.width - 3, canvas.height - 3), outline=ACCENT, width=6)
    return canvas.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def _chart(draw: ImageDraw.ImageDraw, names: Sequence[str], scores: Sequence[Sequence[int]], k: int,
           swing: int | None, box: tuple[int, int, int, int]) -> None:
    left, top, right, bottom = box
    draw.rectangle(box, fill=PANEL, outline=PANEL_EDGE, width=2)
    lines = len(scores[0]) if scores else 0
    legend = 22 * lines + 10
    inner = (left + 34, top + 12, right - 12, bottom - legend)
    values = [v for row in scores for v in row] or [0]
    low, high = min(0, *values), max(1, *values)
    rounds = max(1, len(scores) - 1)

    def point(frame: int, value: int) -> tuple[float, float]:
        x = inner[0] + (inner[2] - inner[0]) * frame / rounds
        y = inner[3] - (inner[3] - inner[1]) * (value - low) / (high - low)
        return x, y

    small = fonts.get_font(14)
    draw.line((inner[0], point(0, 0)[1], inner[2], point(0, 0)[1]), fill=PANEL_EDGE, width=1)
    draw.text((left + 4, inner[1] - 6), str(high), font=small, fill=MUTED)
    draw.text((left + 4, inner[3] - 8), str(low), font=small, fill=MUTED)
    for line in range(lines):
        colour = LINE_COLOURS[line % len(LINE_COLOURS)]
        points = [point(f, scores[f][line]) for f in range(k + 1)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=4, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
        name = names[line] if line < len(names) else "—"
        row = bottom - legend + 22 * line
        draw.rectangle((left + 12, row + 8, left + 26, row + 22), fill=colour)
        draw.text((left + 32, bottom - legend + 5 + 22 * line), f"{name[:22]}  {scores[k][line]}", font=small,
                  fill=INK)
    if swing is not None and swing <= k:
        for line in range(lines):
            x, y = point(swing, scores[swing][line])
            draw.ellipse((x - 11, y - 11, x + 11, y + 11), outline=ACCENT, width=3)
