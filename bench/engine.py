"""``python -m bench engine``: how fast the engine and the policies are (part of ``make bench``).

Times are CPU seconds of this process (``CLOCK``), so other work on the machine does not count.
Human-readable lines first, then each figure beside its budget (:mod:`bench.budgets`; the exit
code is 1 when one is missed); the LAST line is one JSON object with these keys, plus
``budgets`` and ``within_budget``:

* ``reference_loop_ms`` — CPU time of a fixed pure-Python loop (:func:`reference_loop_ms`): how
  fast the machine is, so the other figures can be compared across machines and days.
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
* ``strong_decision_p95_s`` — 95th percentile of the CPU time of a Strong decision (a search),
  over every search of ``--strong-games`` two-player games against greedy (:mod:`bench.strong`).
  The AI bench (``python -m bench ai``) measures the same percentile over its 800 games; here a
  few games are enough for the percentile of a few hundred searches.
* ``expert_decision_p95_s`` — the same percentile for the Expert policy's searches, over its
  ``--expert-games`` games per opponent (:mod:`bench.expert`).
* ``expert_vs_strong_2p``, ``expert_vs_greedy_2p`` — the Expert's 2-player win shares against
  Strong and against greedy (seats alternating, a shared win one half), and ``expert_games``.
  The quick bench plays :data:`~bench.expert.EXPERT_GAMES` (2) games per opponent: a smoke figure
  with no budget; ``--expert-games 400`` is the full measurement (about 20 s of CPU a game).

How often the policies win is otherwise the AI bench's (:mod:`bench.ai`), not this one's.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from typing import NoReturn

from engine import legal, pieces
from engine.cards import Colour, PuzzleCard
from engine.catalogue import CatalogueError, load_catalogue
from engine.pieces import BASE_SHAPES
from engine.policies import GreedyPolicy, RandomPolicy
from engine.simulate import play_game
from engine.state import OpenPuzzle, Options, PlayerState, counts_of

from .expert import EXPERT_GAMES, expert_games
from .report import BenchReport
from .strong import percentile, strong_games

CLOCK = time.process_time
"""Every figure is CPU time of this (single-threaded) process: "on one core" even when other
work shares the machine, which would otherwise make wall-clock figures swing by 30% or more."""

Cards = Sequence[PuzzleCard] | None

RANDOM_GAMES = 40
GREEDY_GAMES = 20
STRONG_DECISION_GAMES = 3
"""Two-player games against greedy for the decision percentile: about 50 searches, some 20 s of
CPU (the AI bench measures the same percentile over its 800 games)."""
CATALOGUE_ENV = "PROJECTL_CATALOGUE"


REFERENCE_LOOPS = 2_000_000


def reference_loop_ms(loops: int | None = None) -> float:
    """CPU milliseconds of a fixed pure-Python loop (integer arithmetic and a dict store, the
    interpreter's bread and butter): the speed of the machine the other figures ran on, best of
    three. The same code measured 554 and 558 million instructions for the same four random
    games before and after the Ambassador and Phoenix expansions (callgrind), while this machine's
    random figure went from 16,348 to 4,880 actions/s: the figure follows the machine (a shared
    virtual machine whose CPU time includes the host's contention), so set it beside this one."""
    loops = REFERENCE_LOOPS if loops is None else loops
    best = float("inf")
    for _ in range(3):
        start = CLOCK()
        total = 0
        seen: dict[int, int] = {}
        for i in range(loops):
            total += i % 7
            seen[i & 1023] = total
        best = min(best, CLOCK() - start)
    return best * 1000


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
        legal.shape_place_actions.cache_clear()
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


def run_bench(
    *, seed: int = 0, cards: Cards = None, strong_games_played: int = STRONG_DECISION_GAMES, workers: int = 1,
    expert_games_played: int = EXPERT_GAMES,
) -> int:
    """Measure, print each figure beside its budget, end with the JSON line; the exit code is 1
    when a budget is missed. ``cards``: a catalogue's cards (default: shipped)."""
    total = time.perf_counter()
    report = BenchReport("engine")
    loop_ms = reference_loop_ms()
    print(f"reference loop: {loop_ms:.0f} ms CPU for {REFERENCE_LOOPS:,} pure-Python iterations")
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
    report.add("reference_loop_ms", round(loop_ms, 1), label="the machine: a fixed pure-Python loop, CPU",
               unit="ms", note=f"{REFERENCE_LOOPS:,} iterations, best of 3")
    report.add("placements_ms", round(cold, 4), label="legal placements, 9 shapes on 4 puzzles, cold",
               unit="ms", note="200 enumerations")
    report.add("random_actions_per_s", round(per_action), label="random-policy 4-player play, one core",
               unit="actions/s", note=f"{RANDOM_GAMES} games")
    report.add("random_games_per_s", round(per_game, 2), label="random-policy 4-player games", unit="games/s")
    report.add("random_6p_line_clear_actions_per_s", round(line_clear),
               label="random-policy 6-player Line Clear with ghost, one core", unit="actions/s",
               note=f"{RANDOM_GAMES} games")
    report.add("greedy_2p_game_s", round(greedy, 4), label="one greedy 2-player game", unit="s",
               note=f"{GREEDY_GAMES} games")
    if strong_games_played:
        played = strong_games(strong_games_played, 0, workers=workers, seed=seed, opponents=("greedy",))
        times = played.decision_times
        print(f"strong decisions: p95 {percentile(times, 0.95):.3f} s CPU over {len(times)} searches "
              f"in {strong_games_played} games against greedy")
        report.add("strong_decision_p95_s", round(percentile(times, 0.95), 4),
                   label="strong policy's decision (a search), 95th percentile, CPU", unit="s",
                   note=f"{len(times)} searches, {strong_games_played} games")
        report.info("strong_decisions", len(times))
    if expert_games_played:
        games = expert_games(expert_games_played, workers=workers, seed=seed)
        times = games.decision_times
        p95 = round(percentile(times, 0.95), 4)
        print(f"expert: won {games.rate('strong'):.1%} vs strong, {games.rate('greedy'):.1%} vs greedy "
              f"({expert_games_played} games each); decision p95 {p95:.3f} s CPU over {len(times)} searches; "
              f"{games.wall_s:.0f} s wall")
        report.add("expert_decision_p95_s", p95,
                   label="expert policy's decision (a search), 95th percentile, CPU", unit="s",
                   note=f"{len(times)} searches, {2 * expert_games_played} games")
        report.info("expert_vs_strong_2p", games.rate("strong"))
        report.info("expert_vs_greedy_2p", games.rate("greedy"))
        report.info("expert_games", {name: len(rows) for name, rows in games.results.items()})
        report.info("expert_mean_margin", {name: games.margin(name) for name in games.results})
    print(f"total {time.perf_counter() - total:.1f} s")
    return report.finish()


def cards_of(path: str | None) -> tuple[PuzzleCard, ...]:
    """The cards of ``path``, else of $PROJECTL_CATALOGUE, else the shipped catalogue — the same
    file the bot would deal from, so anyone can measure a server's own cards."""
    return load_catalogue(path or os.environ.get(CATALOGUE_ENV, "").strip() or None).cards


class _Parser(argparse.ArgumentParser):
    """One line on a bad argument (argparse would print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def arguments(prog: str, description: str) -> argparse.ArgumentParser:
    """The options every engine-side suite takes (seed, catalogue, workers)."""
    parser = _Parser(prog=prog, description=description)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    parser.add_argument("--catalogue", metavar="FILE", default=None,
                        help=f"catalogue JSON (default: ${CATALOGUE_ENV}, else the shipped one)")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes sharing the strong-policy games (default: up to 2)")
    return parser


def load_cards(parser: argparse.ArgumentParser, path: str | None) -> tuple[PuzzleCard, ...]:
    try:
        return cards_of(path)
    except CatalogueError as error:
        parser.error(str(error))
        raise  # unreachable: parser.error exits


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments("python -m bench engine", "How fast the engine and the policies are.")
    parser.add_argument("--strong-games", type=int, default=STRONG_DECISION_GAMES,
                        help="2-player games against greedy for the Strong decision percentile (0: skip)")
    parser.add_argument("--expert-games", type=int, default=EXPERT_GAMES,
                        help="2-player games per opponent (strong, greedy) for the Expert's win shares and "
                             f"decision percentile (default {EXPERT_GAMES}; 400: the full measurement; "
                             "0: skip)")
    args = parser.parse_args(argv)
    cards = load_cards(parser, args.catalogue)
    return run_bench(seed=args.seed, cards=cards, strong_games_played=args.strong_games, workers=args.workers,
                     expert_games_played=args.expert_games)
