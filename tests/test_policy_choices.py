"""The random and greedy policies choose exactly as they did: seeded games replayed to a digest.

A refactoring of the policies (modules moved, weights made data) must not change one choice; a
change that means to (a new heuristic, a retuned weight, a rules change that alters positions)
updates the digests here on purpose. Print the current ones with
``python -m tests.test_policy_choices``.
"""

from __future__ import annotations

import hashlib

import pytest

from engine.policies import GreedyPolicy, RandomPolicy
from engine.simulate import play_game
from engine.state import Options

TABLES: dict[str, Options] = {
    "2p": Options(players=2),
    "4p": Options(players=4),
    "solo": Options(players=1, variant="solo"),
    "2p-ghost-finesse": Options(players=2, ghost=True, finesse=True),
    "solo-finesse-ghost": Options(players=1, variant="solo", finesse=True, ghost=True),
    "5p-lineclear": Options.for_players(5),
}
SEEDS = (0, 1)

DIGESTS: dict[str, str] = {
    "2p": "cfbc2c92cec726b3",
    "4p": "168b54e4526643a0",
    "solo": "772804fea236bebb",
    "2p-ghost-finesse": "5b0f02f3d8e2d726",
    "solo-finesse-ghost": "6867fa5a648fa4fa",
    "5p-lineclear": "80942b6f1cd9fd98",
}


def digest(options: Options) -> str:
    """The sha256 prefix of every action of both policies' games on ``options`` over SEEDS."""
    h = hashlib.sha256()
    for seed in SEEDS:
        for kind, policy in (("random", RandomPolicy), ("greedy", GreedyPolicy)):
            seats = [policy(seed * 8 + seat) for seat in range(options.players)]
            record = play_game(options, seed, seats)
            h.update(f"{kind} {seed}\n".encode() + "\n".join(record.log).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("table", sorted(TABLES))
def test_policies_choose_as_before(table: str) -> None:
    assert digest(TABLES[table]) == DIGESTS[table]


if __name__ == "__main__":
    for name, options in TABLES.items():
        print(f'    "{name}": "{digest(options)}",')
