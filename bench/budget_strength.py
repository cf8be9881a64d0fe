"""``python -m bench.budget_strength``: how much an AI seat loses when its wall-clock budget is cut
(issue 50: "measure its strength at 25 % of the usual budget").

Two Experts play 2-player games, each searching as a bot's AI seat does — against a deadline set
when its turn starts (:class:`TurnBudget`, the same check as the bot's worker:
:func:`bot.core.play.thinking.deadline_check`) — one at ``--short`` seconds a turn (default 25 % of
``PROJECTL_AI_TURN_SECONDS``' default), the other at ``--full``. Each deal is played twice, the
seats swapped, from held-out seeds (:data:`SEED`). Printed: the short budget's win share with its
95 % Wilson interval, the mean margin, and the share of each side's searches the deadline cut
(the figures depend on the machine and its load, which are printed too: a wall-clock budget
binds only when the search is slower than it).

Not part of ``make bench``: minutes of games, and no budget to hold (a report).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.core.config import DEFAULT_AI_TURN_SECONDS
from bot.core.play.thinking import deadline_check, wall_now
from engine import Action, GameState, Options
from engine.policies import ExpertPolicy
from engine.simulate import play_game

SEED = 16_000_000
"""Deals no tuning and no other bench uses (the league's start at 4,000,000)."""


@dataclass
class TurnBudget:
    """An Expert that stops thinking ``seconds`` after its turn's first search began."""

    seconds: float
    seed: int
    policy: ExpertPolicy = field(init=False)
    turn: tuple[int, int] | None = None
    searches: int = 0
    cut: int = 0

    def __post_init__(self) -> None:
        self.policy = ExpertPolicy(self.seed)

    def choose(self, state: GameState) -> Action:
        key = (state.turn, state.current)
        if key != self.turn:
            self.turn = key
            self.policy.should_stop = deadline_check(wall_now() + self.seconds)
        before = self.policy.searches
        action = self.policy.choose(state)
        if self.policy.searches != before and self.policy.last is not None:
            self.searches += 1
            self.cut += self.policy.last.capped
        return action


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share (a shared win counted as half)."""
    if games == 0:
        return 0.0, 1.0
    share = wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.budget_strength",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games (an even number: each deal twice)")
    parser.add_argument("--short", type=float, default=DEFAULT_AI_TURN_SECONDS / 4)
    parser.add_argument("--full", type=float, default=DEFAULT_AI_TURN_SECONDS)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; short {args.short} s against full {args.full} s a turn",
          flush=True)
    wins = margin = 0.0
    searches = {"short": [0, 0], "full": [0, 0]}
    started = time.perf_counter()
    for index in range(args.games):
        seed = args.seed + index // 2
        short, full = TurnBudget(args.short, seed), TurnBudget(args.full, seed + 7919)
        seat = index % 2
        seats = [short, full] if seat == 0 else [full, short]
        record = play_game(Options(players=2), seed, seats, keep_log=False)
        won = seat in record.winners
        wins += (1.0 / len(record.winners)) if won else 0.0
        margin += record.scores[seat] - record.scores[1 - seat]
        for name, side in (("short", short), ("full", full)):
            searches[name][0] += side.searches
            searches[name][1] += side.cut
        low, high = wilson(wins, index + 1)
        score = f"{record.scores[seat]}-{record.scores[1 - seat]}"
        print(f"game {index + 1}: short {'won' if won else 'lost'} {score}; "
              f"short {wins / (index + 1):.1%} of {index + 1} (95 % {low:.1%}-{high:.1%}); "
              f"{time.perf_counter() - started:.0f} s", flush=True)
    games = max(1, args.games)
    low, high = wilson(wins, games)
    print(json.dumps({
        "short_s": args.short, "full_s": args.full, "games": args.games,
        "short_win_share": round(wins / games, 4), "interval_95": [round(low, 4), round(high, 4)],
        "short_mean_margin": round(margin / games, 2),
        "searches_cut": {name: f"{cut} of {total}" for name, (total, cut) in searches.items()},
        "load_1min_at_end": round(os.getloadavg()[0], 2),
    }), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
