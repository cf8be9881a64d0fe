"""``python -m bench ai``: how strong the AI is (``make bench-ai``; long: about 90 minutes on 2 cores).

The strength games, kept out of the quick bench because their figures need hundreds of games:

* ``strong_vs_greedy_2p``, ``strong_vs_tuned_greedy_2p`` — the Strong policy's two-player win
  rates against greedy and against a differently tuned greedy (:mod:`bench.strong`: seats
  alternating, a shared win counting one half), ``--strong-games`` per opponent (400);
* ``strong_solo_win_rate_<difficulty>`` — its Solo win rate, ``--strong-solo-games`` per
  difficulty (134), no budget;
* ``strong_decision_p95_s`` — the decision percentile over every search of those games (the quick
  bench measures it on a few games, :mod:`bench.engine`);
* ``expert_share_3p``, ``expert_share_4p``, ``expert_solo_win_rate_normal``,
  ``expert_solo_win_rate_unbeatable`` — the Expert's other tables (:func:`bench.expert.expert_tables`):
  its win share at 3 and 4 players beside greedy seats (it sits in each seat in turn; a win shared
  by k counts 1/k), and its Solo win rates; ``--expert-table-games`` per kind (40), dealt from
  seeds 2,000,000 and up;
* ``hint_regret_over_2`` — of ``--hint-positions`` fixed mid-game positions (100), how many hints
  lose more than 2 points against a 4x-budget Expert (:mod:`bench.hints`; ``hint_regret_mean``
  and ``hint_regret_max`` in the JSON);
* ``solo_greedy_win_rate``, ``solo_greedy_mean_scores`` (JSON only) — greedy's Solo results,
  ``--solo-games`` per difficulty (1,000): the win rate, and its mean score against the
  mastermind's (the win rate alone hides how far off a losing player is);
* ``ladder_medium_vs_greedy_2p``, ``ladder_strong_vs_medium_2p``, ``ladder_expert_vs_strong_2p``
  — the AI ladder (issue 29, :mod:`bench.ladder`): each level's two-player win share against the
  level below, held to 65–85 %, ``--ladder-games`` per pair (400; about three hours of CPU), dealt
  from held-out seeds (1,000,000 and up);
* ``league_expert_vs_<member>_2p`` — the Expert's two-player win share against every other member
  of the league (:mod:`bench.league`, the held-out opponents included), each held to 75 % or more
  and printed with its Wilson 95 % interval, ``--league-games`` per pairing (400; some fifteen
  hours of CPU for the nine pairings), dealt from the league's held-out seeds (4,000,000 and up).

Figures beside their budgets (:mod:`bench.budgets`), then one JSON line; the exit code is 1 when
a budget is missed.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.policies import GreedyPolicy
from engine.simulate import play_game
from engine.state import Difficulty, Options

from .engine import CLOCK, Cards, arguments, load_cards
from .expert import TABLES, expert_tables
from .hints import HINT_POSITIONS, bench_hints
from .ladder import LADDER_GAMES, PAIRS, bench_ladder
from .league import MEMBERS, bench_league, interval
from .report import BenchReport
from .strong import bench_strong

STRONG_GAMES = 400
"""Two-player games per opponent."""
EXPERT_TABLE_GAMES = 40
"""Expert games per table kind of :data:`bench.expert.TABLES` (some 20 s of CPU each)."""
STRONG_SOLO_GAMES = 134
"""Solo games per difficulty."""
SOLO_GAMES = 1000
"""Greedy's Solo games per difficulty."""
LEAGUE_AI_GAMES = 400
"""Two-player games of the Expert against each other league member (issue 50: 400 or more)."""


def expert_league_shares(figures: dict[str, object]) -> dict[str, tuple[float, int]]:
    """From :func:`bench.league.bench_league`'s figures (``involving="expert"``): the Expert's win
    share and game count against each other member, whichever seat of the pairing it was named in."""
    rows = figures["pairings"]
    assert isinstance(rows, dict)
    shares: dict[str, tuple[float, int]] = {}
    for pairing, row in rows.items():
        first, second = pairing.split(":")
        other, share = (second, row["share"]) if first == "expert" else (first, 1.0 - row["share"])
        shares[other] = (round(share, 4), row["games"])
    return shares


def bench_solo(
    games: int, seed: int = 0, cards: Cards = None,
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Greedy's Solo win rate per difficulty, and its mean score against the mastermind's."""
    rates: dict[str, float] = {}
    means: dict[str, list[float]] = {}
    for difficulty in Difficulty:
        options = Options(players=1, variant="solo", difficulty=difficulty)
        wins = mine = theirs = 0
        start = CLOCK()
        for i in range(games):
            record = play_game(
                options, seed + i, [GreedyPolicy(seed + i)], keep_log=False, cards=cards
            )
            wins += record.winners == (0,)
            mine += record.scores[0]
            theirs += record.mastermind or 0
        elapsed = CLOCK() - start
        rates[difficulty.value] = round(wins / games, 4)
        means[difficulty.value] = [round(mine / games, 2), round(theirs / games, 2)]
        print(
            f"solo {difficulty.value}: greedy won {wins}/{games}, mean score {mine / games:.1f} "
            f"vs the mastermind's {theirs / games:.1f} ({elapsed:.1f} s)"
        )
    return rates, means


def run_bench(
    *, solo_games: int = SOLO_GAMES, seed: int = 0, cards: Cards = None, strong_games: int = STRONG_GAMES,
    strong_solo_games: int = STRONG_SOLO_GAMES, workers: int = 1, ladder_games: int = LADDER_GAMES,
    hint_positions: int = HINT_POSITIONS, expert_table_games: int = EXPERT_TABLE_GAMES,
    league_games: int = LEAGUE_AI_GAMES,
) -> int:
    """Play, print each figure beside its budget, end with the JSON line; the exit code is 1 when
    a budget is missed. ``cards``: the catalogue greedy's Solo games deal from (default: shipped)."""
    total = time.perf_counter()
    report = BenchReport("ai")
    if solo_games:
        rates, means = bench_solo(solo_games, seed=seed, cards=cards)
        report.info("solo_greedy_win_rate", rates)
        report.info("solo_greedy_mean_scores", means)
        report.info("solo_greedy_games", solo_games)
    if strong_games or strong_solo_games:
        strong = bench_strong(strong_games, strong_solo_games, workers=workers, seed=seed)
        if strong_games:
            sample = f"{strong_games} games, seats alternating"
            report.add("strong_vs_greedy_2p", strong["strong_vs_greedy_2p"],
                       label="strong policy's 2-player win rate against greedy", note=sample)
            report.add("strong_vs_tuned_greedy_2p", strong["strong_vs_tuned_greedy_2p"],
                       label="strong policy's 2-player win rate against a differently tuned greedy",
                       note=sample)
        report.add("strong_decision_p95_s", strong["strong_decision_p95_s"],
                   label="strong policy's decision (a search), 95th percentile, CPU", unit="s",
                   note=f"{strong['strong_decisions']} searches")
        if strong_solo_games:
            for difficulty, rate in strong["strong_solo_win_rate"].items():
                report.add(f"strong_solo_win_rate_{difficulty}", rate,
                           label=f"strong policy's Solo win rate, {difficulty}",
                           note=f"{strong_solo_games} games")
        for key in ("strong_solo_win_rate", "strong_decision_mean_s", "strong_mean_margin", "strong_games",
                    "strong_decisions"):
            report.info(key, strong[key])
    if ladder_games:
        ladder = bench_ladder(ladder_games, workers=workers, seed=seed)
        sample = f"{ladder_games} games, seats alternating, seeds {ladder['ladder_first_seed']}+"
        for pair, (upper, lower) in PAIRS.items():
            report.add(f"ladder_{pair}_2p", ladder[f"ladder_{pair}_2p"],
                       label=f"the ladder: {upper}'s 2-player win share against {lower}", note=sample)
        for key in ("ladder_mean_margin", "ladder_games", "ladder_first_seed"):
            report.info(key, ladder[key])
    if league_games:
        figures = bench_league(league_games, tuple(MEMBERS), workers=workers, seed=seed, involving="expert")
        for other, (share, games) in expert_league_shares(figures).items():
            low, high = interval(share, games)
            report.add(f"league_expert_vs_{other}_2p", share,
                       label=f"the Expert's 2-player win share against the league's {other}",
                       note=f"{games} games, 95 % interval {low:.1%}–{high:.1%}, "
                            f"seeds {figures['first_seed']}+")
        report.info("league_expert", figures)
    if expert_table_games:
        tables = expert_tables(expert_table_games, workers=workers)
        sample = f"{expert_table_games} games"
        for kind in TABLES:
            key = f"expert_share_{kind}" if kind.endswith("p") else f"expert_solo_win_rate_{kind}"
            what = f"{kind[0]} players beside greedy" if kind.endswith("p") else f"Solo, {kind}"
            report.add(key, tables.rate(kind), label=f"expert policy's win share, {what}", note=sample)
        report.info("expert_table_mean_margin", {kind: tables.margin(kind) for kind in TABLES})
    if hint_positions:
        hints = bench_hints(hint_positions)
        report.add("hint_regret_over_2", hints["hint_regret_over_2"],
                   label="hints losing more than 2 points against a 4x-budget Expert",
                   note=f"of {hints['hint_positions']} fixed mid-game positions")
        for key in ("hint_regret_mean", "hint_regret_max", "hint_positions"):
            report.info(key, hints[key])
    print(f"total {time.perf_counter() - total:.1f} s")
    return report.finish()


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("python -m bench ai", "How strong the AI is (long).")
    parser.add_argument("--strong-games", type=int, default=STRONG_GAMES,
                        help=f"2-player games per opponent, strong policy (default {STRONG_GAMES}; 0: skip)")
    parser.add_argument("--strong-solo-games", type=int, default=STRONG_SOLO_GAMES,
                        help=f"strong-policy Solo games per difficulty (default {STRONG_SOLO_GAMES})")
    parser.add_argument("--solo-games", type=int, default=SOLO_GAMES,
                        help=f"greedy's Solo games per difficulty (default {SOLO_GAMES}; 0: skip)")
    parser.add_argument("--ladder-games", type=int, default=LADDER_GAMES,
                        help=f"2-player games per ladder pair (default {LADDER_GAMES}; 0: skip)")
    parser.add_argument("--expert-table-games", type=int, default=EXPERT_TABLE_GAMES,
                        help=f"Expert games per table kind: 3p, 4p, Solo normal and unbeatable "
                             f"(default {EXPERT_TABLE_GAMES}; 0: skip)")
    parser.add_argument("--league-games", type=int, default=LEAGUE_AI_GAMES,
                        help=f"2-player games of the Expert against each other league member "
                             f"(default {LEAGUE_AI_GAMES}; 0: skip)")
    parser.add_argument("--hint-positions", type=int, default=HINT_POSITIONS,
                        help=f"fixed positions the hints' regret is measured on (default {HINT_POSITIONS}; "
                             "0: skip)")
    args = parser.parse_args(argv)
    cards = load_cards(parser, args.catalogue)
    return run_bench(solo_games=args.solo_games, seed=args.seed, cards=cards, strong_games=args.strong_games,
                     strong_solo_games=args.strong_solo_games, workers=args.workers,
                     ladder_games=args.ladder_games, hint_positions=args.hint_positions,
                     expert_table_games=args.expert_table_games, league_games=args.league_games)
