"""``python -m engine bench``: how fast the engine and the policies are, and how good greedy is.

Human-readable lines first (times are CPU seconds of this process: see ``CLOCK``), then each
figure beside its budget (:mod:`engine.budget`; the exit code is 1 when one is missed); the LAST
line is one JSON object with these keys, plus ``budgets`` and ``within_budget``:

* ``placements_ms`` — one enumeration of the legal placements of all nine shapes on four puzzles
  (``legal.placements_for``), with the placement caches cleared before every call. That cold
  figure is the honest one: the warm figure (also printed) is a dictionary lookup, and play keeps
  creating free areas the cache has not seen.
* ``random_actions_per_s`` — 4-player games with RandomPolicy on one core: actions chosen and
  applied per second, legal-action enumeration included (the policy calls ``legal_actions``).
* ``random_games_per_s`` — the same games, per second.
* ``random_6p_line_clear_actions_per_s`` — the same measure for 6-player Line Clear with the
  Ghost Piece expansion (two holders' turns, ghost splits and level-up choices included), to set
  beside the 4-player figure.
* ``greedy_2p_game_s`` — seconds per 2-player game of GreedyPolicy against itself.
* ``solo_greedy_win_rate`` — {difficulty: fraction of Solo games greedy wins}.
* ``solo_greedy_mean_scores`` — {difficulty: [greedy's mean score, the mastermind's]}.
* ``strong_vs_greedy_2p``, ``strong_vs_tuned_greedy_2p``, ``strong_decision_p95_s``,
  ``strong_solo_win_rate`` (a dict by difficulty; also one unbudgeted figure per difficulty,
  ``strong_solo_win_rate_<difficulty>``, so docs/benchmarks.md lists them) and unbudgeted
  details — the strong policy, see
  :mod:`engine.bench_strong`; ``--strong-games``, ``--strong-solo-games`` and ``--workers`` size
  that part (``--strong-games 0`` skips it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from . import legal, pieces
from .bench_strong import STRONG_GAMES, STRONG_SOLO_GAMES, bench_strong
from .budget import BenchReport
from .cards import Colour, PuzzleCard
from .catalogue import load_catalogue
from .pieces import BASE_SHAPES
from .policies import GreedyPolicy, RandomPolicy
from .simulate import play_game
from .state import Difficulty, OpenPuzzle, Options, PlayerState, counts_of

CLOCK = time.process_time
"""Every figure is CPU time of this (single-threaded) process: "on one core" even when other
work shares the machine, which would otherwise make wall-clock figures swing by 30% or more."""

Cards = Sequence[PuzzleCard] | None

RANDOM_GAMES = 40
GREEDY_GAMES = 20


def bench_placements(repeats: int = 200, cards: Cards = None) -> tuple[float, float]:
    """(cold ms, warm ms) per enumeration over the four largest recesses of the catalogue."""
    cards = load_catalogue(None).cards if cards is None else cards
    whites = sorted((c for c in cards if c.colour is Colour.WHITE), key=lambda c: -c.size)[:2]
    blacks = sorted((c for c in cards if c.colour is Colour.BLACK), key=lambda c: -c.size)[:2]
    chosen = whites + blacks
    player = PlayerState(
        supply=counts_of({s: 1 for s in BASE_SHAPES}),
        puzzles=tuple(OpenPuzzle(c.id) for c in chosen),
    )
    mapping = {c.id: c for c in chosen}
    cold = 0.0
    for _ in range(repeats):
        pieces.placements_in.cache_clear()
        legal._place_actions.cache_clear()
        start = CLOCK()
        legal.placements_for(mapping, player)
        cold += CLOCK() - start
    start = CLOCK()
    for _ in range(repeats):
        legal.placements_for(mapping, player)
    warm = CLOCK() - start
    return cold / repeats * 1000, warm / repeats * 1000


def bench_random(
    games: int | None = None, seed: int = 0, options: Options | None = None, cards: Cards = None,
) -> tuple[float, float, int]:
    """(actions/s, games/s, stalled) for random play (4 players unless ``options`` say else)."""
    games = RANDOM_GAMES if games is None else games
    options = Options(players=4) if options is None else options
    actions = stalled = 0
    start = CLOCK()
    for i in range(games):
        policies = [RandomPolicy(seed + i * 8 + s) for s in range(options.players)]
        record = play_game(options, seed + i, policies, keep_log=False, cards=cards)
        actions += record.actions
        stalled += record.stalled
    elapsed = CLOCK() - start
    return actions / elapsed, games / elapsed, stalled


def bench_greedy_2p(games: int | None = None, seed: int = 0, cards: Cards = None) -> float:
    games = GREEDY_GAMES if games is None else games
    options = Options(players=2)
    start = CLOCK()
    for i in range(games):
        policies = [GreedyPolicy(seed + i * 8 + s) for s in range(2)]
        play_game(options, seed + i, policies, keep_log=False, cards=cards)
    return (CLOCK() - start) / games


def bench_solo(
    games: int, seed: int = 0, cards: Cards = None,
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Greedy's Solo win rate per difficulty, and its mean score against the mastermind's (the
    win rate alone hides how far off a losing player is)."""
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


PLACEMENTS_BUDGET_MS = 1.0
RANDOM_BUDGET_PER_S = 10_000
STRONG_VS_GREEDY_BUDGET = 0.85
STRONG_VS_TUNED_BUDGET = 0.75
STRONG_DECISION_BUDGET_S = 0.5


def run_bench(
    *, solo_games: int = 1000, seed: int = 0, cards: Cards = None, strong_games: int = STRONG_GAMES,
    strong_solo_games: int = STRONG_SOLO_GAMES, workers: int = 1,
) -> int:
    """Measure, print each figure beside its budget (:mod:`engine.budget`), end with the JSON line;
    the exit code is 1 when a budget is missed. ``cards``: a catalogue's cards (default: shipped)."""
    total = time.perf_counter()
    report = BenchReport("engine")
    cold, warm = bench_placements(cards=cards)
    print(f"placements, 9 shapes on 4 puzzles: {cold:.3f} ms cold cache, {warm:.4f} ms warm")
    per_action, per_game, stalled = bench_random(seed=seed, cards=cards)
    print(
        f"random 4p: {per_action:,.0f} actions/s, {per_game:.1f} games/s "
        f"({stalled} of {RANDOM_GAMES} stalled)"
    )
    line_clear, _, lc_stalled = bench_random(seed=seed, options=Options.for_players(6), cards=cards)
    print(f"random 6p Line Clear + ghost: {line_clear:,.0f} actions/s "
          f"({lc_stalled} of {RANDOM_GAMES} stalled)")
    greedy = bench_greedy_2p(seed=seed, cards=cards)
    print(f"greedy 2p: {greedy:.3f} s per game")
    rates, means = bench_solo(solo_games, seed=seed, cards=cards)
    strong = None
    if strong_games or strong_solo_games:
        strong = bench_strong(strong_games, strong_solo_games, workers=workers, seed=seed)
    print(f"total {time.perf_counter() - total:.1f} s")
    report.add("placements_ms", round(cold, 4), label="legal placements, 9 shapes on 4 puzzles, cold",
               unit="ms", at_most=PLACEMENTS_BUDGET_MS)
    report.add("random_actions_per_s", round(per_action), label="random-policy 4-player play, one core",
               unit="actions/s", at_least=RANDOM_BUDGET_PER_S)
    report.add("random_games_per_s", round(per_game, 2), label="random-policy 4-player games", unit="games/s")
    report.add("random_6p_line_clear_actions_per_s", round(line_clear),
               label="random-policy 6-player Line Clear with ghost, one core", unit="actions/s")
    report.add("greedy_2p_game_s", round(greedy, 4), label="one greedy 2-player game", unit="s")
    report.info("solo_greedy_win_rate", rates)
    report.info("solo_greedy_mean_scores", means)
    if strong is not None and strong_games:
        sample = f"{strong_games} games, seats alternating"
        report.add("strong_vs_greedy_2p", strong["strong_vs_greedy_2p"], label="strong policy's 2-player "
                   "win rate against greedy", at_least=STRONG_VS_GREEDY_BUDGET, note=sample)
        report.add("strong_vs_tuned_greedy_2p", strong["strong_vs_tuned_greedy_2p"], label="strong policy's "
                   "2-player win rate against a differently tuned greedy", at_least=STRONG_VS_TUNED_BUDGET,
                   note=sample)
        report.add("strong_decision_p95_s", strong["strong_decision_p95_s"], label="strong policy's "
                   "decision (a search), 95th percentile, CPU", unit="s", at_most=STRONG_DECISION_BUDGET_S,
                   note=f"{strong['strong_decisions']} searches")
    if strong is not None and strong_solo_games:
        for difficulty, rate in strong["strong_solo_win_rate"].items():
            report.add(f"strong_solo_win_rate_{difficulty}", rate, label=f"strong policy's Solo win rate, "
                       f"{difficulty}", note=f"{strong_solo_games} games")
    if strong is not None:
        for key in ("strong_solo_win_rate", "strong_decision_mean_s", "strong_mean_margin", "strong_games"):
            report.info(key, strong[key])
    return report.finish()
