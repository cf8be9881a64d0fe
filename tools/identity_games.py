"""Fixed games whose every action, search result and final state must not change when the engine
or the policies are only made faster: ``python tools/identity_games.py`` prints one digest per
game and checks them against ``tools/identity_games.json``.

The Strong policy is a frozen baseline, and its searches spend a fixed amount of work (playout
actions), so an optimisation of the code a playout runs (greedy's choice, ``legal_actions``,
``apply``, the re-deals) must leave every game here byte-identical: the action log, every Strong
search's scored plans (values and rollout counts, so a changed rollout shows even when the choice
survives it) and the final state's JSON. ``--write`` records the digests after a deliberate
change of play; ``--quick`` skips the slow games (the Strong and Expert tables); ``--dump DIR``
writes each game's full record, to diff when a digest differs. The digests are the same on every
supported Python (3.11–3.13): Strong and the Expert sum floats with ``math.fsum``, whose result does not
depend on the version (the built-in ``sum`` of floats rounds differently from 3.12 on).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.policies import ExpertPolicy, GreedyPolicy, Policy, RandomPolicy, StrongPolicy
from engine.serialisation import dumps
from engine.simulate import play_game
from engine.state import Difficulty, GameState, Options

REFERENCE = Path(__file__).with_suffix(".json")


class Recorded:
    """Wraps a policy: every search's scored plans, when it is a searching policy."""

    def __init__(self, policy: Policy, lines: list[str]) -> None:
        self.policy = policy
        self.lines = lines

    def choose(self, state: GameState) -> Action:
        before = getattr(self.policy, "searches", 0)
        action = self.policy.choose(state)
        last: Any = getattr(self.policy, "last", None)
        if getattr(self.policy, "searches", 0) > before and last is not None and hasattr(last, "plans"):
            plans = [
                (" | ".join(map(str, p.actions)), repr(p.value), repr(p.margin), repr(p.wins), p.rollouts,
                 p.source)
                for p in last.plans
            ]
            self.lines.append(json.dumps({"search": state.turn, "seat": last.seat, "rollouts": last.rollouts,
                                          "capped": last.capped, "plans": plans}))
        return action


Seats = Callable[[int], Sequence[Policy]]


def greedy_seats(players: int) -> Seats:
    return lambda s: [GreedyPolicy(s + i) for i in range(players)]


def random_seats(players: int) -> Seats:
    return lambda s: [RandomPolicy(s + i) for i in range(players)]


TWO = Options(players=2)
GAMES: dict[str, tuple[Options, int, Seats, bool]] = {
    # name: (options, seed, seats from the seed, slow)
    "strong_first_vs_greedy_2p": (TWO, 0, lambda s: [StrongPolicy(s), GreedyPolicy(s + 7919)], True),
    "strong_second_vs_greedy_2p": (TWO, 1, lambda s: [GreedyPolicy(s + 7919), StrongPolicy(s)], True),
    "strong_finesse_ghost_hidden_3p": (
        Options(players=3, finesse=True, ghost=True, known_scores=False), 5,
        lambda s: [GreedyPolicy(s + 1), StrongPolicy(s), GreedyPolicy(s + 2)], True,
    ),
    "strong_solo_hard": (
        Options(players=1, variant="solo", difficulty=Difficulty.HARD), 3, lambda s: [StrongPolicy(s)], True,
    ),
    "expert_vs_strong_2p": (TWO, 2, lambda s: [ExpertPolicy(s), StrongPolicy(s + 7919)], True),
    "greedy_4p": (Options(players=4), 11, greedy_seats(4), False),
    "greedy_2p_tuned": (
        TWO, 12, lambda s: [GreedyPolicy(s, hoard_limit=3, reward_weight=0.33), GreedyPolicy(s + 1)], False,
    ),
    "greedy_solo_normal": (Options(players=1, variant="solo"), 13, greedy_seats(1), False),
    "greedy_solo_finesse_ghost": (
        Options(players=1, variant="solo", finesse=True, ghost=True), 14, greedy_seats(1), False,
    ),
    "greedy_line_clear_6p_finesse_ghost": (Options.for_players(6, finesse=True), 15, greedy_seats(6), False),
    "greedy_3p_endless_ambassador": (
        Options(players=3, endless_white=True, ambassador=True, finesse=True, finesse_ambassador=True), 16,
        greedy_seats(3), False,
    ),
    "greedy_5p_line_clear_phoenix": (
        Options.for_players(5, ghost=False, phoenix=True), 17, greedy_seats(5), False,
    ),
    "random_4p": (Options(players=4), 18, random_seats(4), False),
    "random_6p_line_clear": (Options.for_players(6), 19, random_seats(6), False),
}
GAMES.update({
    f"greedy_{players}p_seed{seed}": (Options(players=players), seed, greedy_seats(players), False)
    for players in (2, 3, 4) for seed in range(100, 110)
})
GAMES.update({
    f"greedy_solo_{d.value}_seed{seed}": (
        Options(players=1, variant="solo", difficulty=d), seed, greedy_seats(1), False,
    )
    for d in Difficulty for seed in range(100, 104)
})


def record(name: str) -> tuple[str, float]:
    """The full record of game ``name`` (one text) and the CPU seconds it took."""
    options, seed, seats, _ = GAMES[name]
    searches: list[str] = []
    start = time.process_time()
    policies = [Recorded(p, searches) for p in seats(seed)]
    game = play_game(options, seed, policies, keep_log=True)
    cpu = time.process_time() - start
    assert game.final_state is not None
    text = "\n".join([*game.log, *searches, dumps(game.final_state, cards=False)]) + "\n"
    return text, cpu


def digest(text: str) -> str:
    """A game record's digest, as recorded in :data:`REFERENCE`."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/identity_games.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the slow (Strong, Expert) games")
    parser.add_argument("--write", action="store_true", help=f"record the digests in {REFERENCE.name}")
    parser.add_argument("--dump", metavar="DIR", help="write each game's full record there")
    parser.add_argument("games", nargs="*", help="only these games")
    args = parser.parse_args(argv)
    reference: dict[str, Any] = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    names = args.games or [n for n, game in GAMES.items() if not (args.quick and game[3])]
    failed = 0
    total = 0.0
    for name in names:
        text, cpu = record(name)
        total += cpu
        found = digest(text)
        if args.dump:
            Path(args.dump).mkdir(parents=True, exist_ok=True)
            (Path(args.dump) / f"{name}.txt").write_text(text)
        want = reference.get(name)
        verdict = "recorded" if args.write else "same" if found == want else "DIFFERENT"
        failed += verdict == "DIFFERENT"
        print(f"{name:40} {found} {verdict:9} {cpu:6.2f} s CPU", flush=True)
        reference[name] = found
    print(f"total {total:.2f} s CPU; {failed} different")
    if args.write:
        REFERENCE.write_text(json.dumps(reference, indent=1, sort_keys=True) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
