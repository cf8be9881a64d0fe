"""The animated recap of a finished game: an animated PNG, one frame per round (the table after
it, drawn by :func:`renders.render_table`) with a score line per player growing below it, and
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

from . import fonts, labels
from .labels import Words
from .palette import ACCENT, INK, MUTED, PAGE, PANEL, PANEL_EDGE, RGB, rgb
from .table import render_table

TABLE_WIDTH = 760
CHART_HEIGHT = 300
"""The score chart's plot, below the table across its whole width: on a phone (the recap shown
about half size) its 26 px labels read like the chat's own text."""
LABEL = 26
LEGEND_ROW = 40
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
    with labels.speaking(words):
        tables = [_table(state, names, words) for state in states]
        height = max(table.height for table in tables)  # one canvas for every frame
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


def chart_height(lines: int) -> int:
    """The chart's whole height: the plot, its round numbers, a legend row per two lines."""
    return CHART_HEIGHT + LABEL + 24 + LEGEND_ROW * ((lines + 1) // 2) + 20


def _frame(table: Image.Image, height: int, names: Sequence[str], scores: Sequence[Sequence[int]],
           k: int, swing: int | None) -> Image.Image:
    """One frame: the table (``height``: the tallest table's, since an animated PNG has one
    canvas size and the tables grow as players take puzzles), the chart below it."""
    lines = len(scores[0]) if scores else 0
    canvas = Image.new("RGB", (TABLE_WIDTH, height + chart_height(lines)), PAGE)
    canvas.paste(table, (0, 0))
    _chart(canvas, names, scores, k, swing, (10, height + 10, canvas.width - 10,
                                                             canvas.height - 10))
    if swing is not None and k == swing:
        ImageDraw.Draw(canvas).rectangle((2, 2, canvas.width - 3, canvas.height - 3), outline=ACCENT, width=6)
    return canvas.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def _chart(image: Image.Image, names: Sequence[str], scores: Sequence[Sequence[int]], k: int,
           swing: int | None, box: tuple[int, int, int, int]) -> None:
    """The score lines up to frame ``k``: the round numbers on the axis (0: the deal), the
    highest and lowest score beside it, and a legend of each line's name and score now."""
    left, top, right, bottom = box
    draw = ImageDraw.Draw(image)
    draw.rectangle(box, fill=PANEL, outline=PANEL_EDGE, width=2)
    lines = len(scores[0]) if scores else 0
    font = fonts.get_font(LABEL)
    values = [v for row in scores for v in row] or [0]
    low, high = min(0, *values), max(1, *values)
    margin = max(fonts.width(str(value), LABEL) for value in (low, high)) + 24
    inner = (left + margin, top + 20, right - 24, top + 20 + CHART_HEIGHT - 40)
    rounds = max(1, len(scores) - 1)

    def point(frame: int, value: int) -> tuple[float, float]:
        x = inner[0] + (inner[2] - inner[0]) * frame / rounds
        y = inner[3] - (inner[3] - inner[1]) * (value - low) / (high - low)
        return x, y

    draw.line((inner[0], point(0, 0)[1], inner[2], point(0, 0)[1]), fill=PANEL_EDGE, width=2)
    draw.text((left + 10, inner[1] - LABEL // 2), str(high), font=font, fill=MUTED)
    draw.text((left + 10, inner[3] - LABEL // 2), str(low), font=font, fill=MUTED)
    step = max(1, -(-(rounds + 1) // 12))  # at most a dozen round numbers along the axis
    for frame in range(0, rounds + 1, step):
        x = point(frame, low)[0]
        label = str(frame)
        draw.text((x - fonts.width(label, LABEL) / 2, inner[3] + 10), label, font=font,
                  fill=INK if frame == k else MUTED)  # this frame's round stands out
    legend = inner[3] + 10 + LABEL + 24
    column = (right - left) // 2
    for line in range(lines):
        colour = LINE_COLOURS[line % len(LINE_COLOURS)]
        points = [point(f, scores[f][line]) for f in range(k + 1)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=5, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=colour)
        name = names[line] if line < len(names) else "—"
        at_x, at_y = left + 16 + column * (line % 2), legend + LEGEND_ROW * (line // 2)
        draw.rectangle((at_x, at_y + 6, at_x + 22, at_y + 28), fill=colour)
        # The name in any script (font fallback, right to left), shortened, never the score.
        shown = fonts.fit_name(name, LABEL, column - 110)
        name_w = fonts.draw(image, at_x + 32, at_y + 17, shown, LABEL, INK, anchor="lm")
        fonts.draw(image, at_x + 32 + name_w + LABEL // 2, at_y + 17, str(scores[k][line]), LABEL, INK,
                   anchor="lm")
    if swing is not None and swing <= k:
        for line in range(lines):
            x, y = point(swing, scores[swing][line])
            draw.ellipse((x - 13, y - 13, x + 13, y + 13), outline=ACCENT, width=4)
