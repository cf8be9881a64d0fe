"""``python -m renders examples DIR``: the README images, from fixed sample games.

Regenerate after changing how anything looks; the files are small (palette PNGs) and the
output is deterministic, so an unchanged look gives unchanged files.
"""

from __future__ import annotations

from pathlib import Path

from engine import Options, Phase, Place, legal_actions

from . import render_mat, render_preview, render_results, render_table
from .samples import names_for, play

FOUR_PLAYER_SEED = 3
SOLO_SEED = 3


def write_examples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    four = list(play(Options(players=4), FOUR_PLAYER_SEED))
    middle = next(s for s in four[int(len(four) * 0.6) :] if s.phase is Phase.PLAY)
    names = names_for(middle)
    planner = max(range(4), key=lambda seat: (len(middle.players[seat].puzzles), -seat))
    solo = list(play(Options(players=1, variant="solo"), SOLO_SEED))
    solo_mid = solo[int(len(solo) * 0.6)]
    outputs = {
        "table-4p.png": render_table(middle, names),
        "mat.png": render_mat(middle, planner, names),
        "solo.png": render_table(solo_mid, names_for(solo_mid)),
        "results.png": render_results(four[-1], names),
    }
    places = [a for a in legal_actions(middle) if isinstance(a, Place)]
    if places:
        place = max(places, key=lambda p: (p.shape.size, p.card, p.mask))
        outputs["preview.png"] = render_preview(middle, middle.current, place, names)
    written = []
    for name, data in outputs.items():
        path = directory / name
        path.write_bytes(data)
        written.append(path)
    return written


def main(directory: str) -> int:
    for path in write_examples(Path(directory)):
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0
