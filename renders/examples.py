"""``python -m renders examples DIR``: the README images, from fixed sample games.

Regenerate after changing how anything looks; the files are small (palette PNGs) and the
output is deterministic, so an unchanged look gives unchanged files. The games are played by
greedy players (a realistic game, not random moves), and the names come in several scripts.
"""

from __future__ import annotations

from pathlib import Path

from engine import GameState, Options, Phase, Place, legal_actions

from . import render_mat, render_preview, render_results, render_table
from .changes import changes_between
from .samples import play

FOUR_PLAYER_SEED = 3
SOLO_SEED = 3
NAMES = ("Ana", "Дмитрий", "Chloé", "李小龍")


def turn_starts(states: list[GameState]) -> list[int]:
    """Indexes of the states a turn post shows: the first state of each turn."""
    return [
        i
        for i, s in enumerate(states)
        if i == 0
        or (s.current, s.turn, s.phase) != (states[i - 1].current, states[i - 1].turn, states[i - 1].phase)
    ]


def write_examples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    four = list(play(Options(players=4), FOUR_PLAYER_SEED, policy="greedy"))
    posts = [i for i in turn_starts(four) if four[i].phase is Phase.PLAY]
    at = next(  # a post with something to frame
        k
        for k, i in enumerate(posts)
        if i >= len(four) * 0.6 and k > 0 and changes_between(four[posts[k - 1]], four[i])
    )
    middle, previous = four[posts[at]], four[posts[at - 1]]
    names = NAMES
    planner = max(range(4), key=lambda seat: (len(middle.players[seat].puzzles), -seat))
    solo = list(play(Options(players=1, variant="solo"), SOLO_SEED, policy="greedy"))
    solo_posts = turn_starts(solo)
    solo_at = next(k for k, i in enumerate(solo_posts) if i >= len(solo) * 0.6)
    solo_mid, solo_previous = solo[solo_posts[solo_at]], solo[solo_posts[solo_at - 1]]
    outputs = {
        "table-4p.png": render_table(middle, names, previous=previous),
        "mat.png": render_mat(middle, planner, names),
        "solo.png": render_table(solo_mid, names[:1], previous=solo_previous),
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
