"""Speed-ups must not change play: the fixed games of ``tools/identity_games.py`` that are cheap
enough for every test run (greedy and random tables of every variant, one whole Strong Solo game
with every search's scored plans, and the Expert against Strong) give the digests recorded in
``tools/identity_games.json``. The tool itself plays the rest (Strong two-player and Finesse tables).
The Expert's game runs in every test run because its search reads float sums: a change there (or
a Python whose ``sum`` rounds differently: the Expert sums with ``math.fsum``) shows at once, not
when someone next runs the tool.

A deliberate change of play is recorded with ``python tools/identity_games.py --write``."""

from __future__ import annotations

import json

from tools import identity_games

CHEAP = [name for name, game in identity_games.GAMES.items() if not game[3]] + ["strong_solo_hard"]


def recorded() -> dict[str, str]:
    """The digests in ``tools/identity_games.json``."""
    found: dict[str, str] = json.loads(identity_games.REFERENCE.read_text())
    return found


def test_cheap_identity_games_are_unchanged() -> None:
    reference = recorded()
    changed = []
    for name in CHEAP:
        text, _ = identity_games.record(name)
        if identity_games.digest(text) != reference[name]:
            changed.append(name)
    assert not changed, f"play changed in {changed}: python tools/identity_games.py --dump DIR to see how"


def test_the_expert_against_strong_is_unchanged() -> None:
    text, _ = identity_games.record("expert_vs_strong_2p")
    assert identity_games.digest(text) == recorded()["expert_vs_strong_2p"], \
        "play changed: python tools/identity_games.py --dump DIR to see how"
