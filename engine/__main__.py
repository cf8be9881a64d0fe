"""Command line: ``python -m engine simulate|catalogue|sweep|replay``.

* ``simulate`` plays games with policies and prints one JSON line per game, then a summary line
  (also JSON) with games per second.
* ``catalogue --check [FILE]`` reports on a puzzle catalogue (the shipped one by default); the
  exit code is 0 only when it is usable.
* ``sweep`` plays strong-policy games (``--policy expert``: expert-policy games) on every table
  the engine accepts and counts illegal actions, stalls and errors (see ``engine.sweep``); the
  exit code is 1 when one is not zero.
* ``replay FILE`` plays an exported game record (``engine.record``) again and prints each seat's
  final score; a file that is not a record, is of a newer format, was changed, or does not replay
  to its result is refused with one sentence and exit code 1.

``simulate`` takes ``--catalogue FILE`` (default: ``$PROJECTL_CATALOGUE``, as the
bot, else the shipped catalogue).

Argument errors print one line and exit with code 2, as argparse does, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .cards import PuzzleCard
from .catalogue import CatalogueError, load_catalogue, main_check
from .errors import IllegalActionError
from .game import new_game
from .policies import POLICIES, policy_by_name
from .record import RecordError, replay_record
from .simulate import play_game
from .state import Difficulty, Options
from .sweep import GAMES_PER_TABLE, SWEEP_BUDGET, SWEPT_POLICIES, run_sweep


class _Parser(argparse.ArgumentParser):
    """argparse prints the whole usage on an error; one clear line is friendlier in scripts."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _count(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} must be 0 or more")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def _seed(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer seed") from None


CATALOGUE_ENV = "PROJECTL_CATALOGUE"


def _catalogue_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--catalogue", metavar="FILE", default=None,
        help=f"play with this catalogue JSON (default: ${CATALOGUE_ENV}, else the shipped one)",
    )


def _cards(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[PuzzleCard, ...]:
    """The cards of ``--catalogue``, else of $PROJECTL_CATALOGUE, else the shipped catalogue —
    the same file the bot would deal from, so anyone can measure a server's own cards."""
    path = args.catalogue or os.environ.get(CATALOGUE_ENV, "").strip() or None
    try:
        return load_catalogue(path).cards
    except CatalogueError as error:
        parser.error(str(error))
        raise  # unreachable: parser.error exits


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Project L engine tools.")
    commands = parser.add_subparsers(
        dest="command", metavar="{simulate,catalogue,sweep,replay}", parser_class=_Parser
    )
    commands.required = True

    sim = commands.add_parser("simulate", help="play games with automatic players, one JSON line each")
    sim.add_argument(
        "--players", type=_positive, default=None,
        help="2-4 (base), 5-6 (Line Clear) or 1 (solo; default)",
    )
    sim.add_argument("--games", type=_positive, default=1)
    sim.add_argument("--seed", type=_seed, default=0, help="seed of the first game; game i uses seed+i")
    sim.add_argument(
        "--variant", choices=("base", "solo", "lineclear"), default=None,
        help="default: from --players (1 solo, 2-4 base, 5-6 lineclear)",
    )
    ghost = sim.add_mutually_exclusive_group()
    ghost.add_argument("--ghost", dest="ghost", action="store_true", default=None,
                       help="play with the Ghost Piece expansion (default on for 5-6 players)")
    ghost.add_argument("--no-ghost", dest="ghost", action="store_false",
                       help="without the Ghost Piece expansion (5 players only)")
    sim.add_argument("--finesse", action="store_true",
                     help="play with the Finesse expansion (credits, tiles, Insert)")
    sim.add_argument("--ambassador", action="store_true",
                     help="play with the Ambassador Pack (Ambassador cards, the Ambassador action)")
    sim.add_argument("--phoenix", action="store_true",
                     help="play with Phoenix (7 black 6-point cards; 6 players may then drop Ghost)")
    sim.add_argument("--finesse-ambassador", action="store_true",
                     help="play with the Finesse Ambassador Pack's six Set C tiles (needs --finesse)")
    sim.add_argument("--difficulty", choices=[d.value for d in Difficulty], default="normal")
    sim.add_argument(
        "--policy", default="greedy",
        help=f"{' or '.join(POLICIES)}; a comma list gives one per seat (greedy,random)",
    )
    sim.add_argument("--reserve", type=int, choices=(10, 15), default=10)
    sim.add_argument("--no-unfinished-penalty", action="store_true")
    sim.add_argument("--max-turns", type=_positive, default=None, help="stall cap in player turns")
    sim.add_argument("--log", action="store_true", help="include each game's action log")
    _catalogue_argument(sim)

    cat = commands.add_parser("catalogue", help="check a puzzle catalogue")
    cat.add_argument("--check", action="store_true", required=True, help="report on the catalogue")
    cat.add_argument("file", nargs="?", default=None, help="catalogue JSON (default: the shipped one)")

    sweep = commands.add_parser(
        "sweep", help="strong-policy games on every variant and expansion: illegal actions and stalls"
    )
    sweep.add_argument("--games", type=_positive, default=GAMES_PER_TABLE, help="games per table")
    sweep.add_argument("--seed", type=_seed, default=0, help="seed of the first game; game i uses seed+i")
    sweep.add_argument("--workers", type=_positive, default=1, help="processes sharing the games")
    sweep.add_argument("--policy", choices=SWEPT_POLICIES, default="strong",
                       help="the policy in the swept seat (default strong; expert has its own budget)")
    for name, value in SWEEP_BUDGET.items():
        sweep.add_argument(f"--{name}", type=_count if name == "work" else _positive, default=None,
                           help=f"the strong policy's {name} per decision (default {value})")

    again = commands.add_parser("replay", help="replay an exported game record and print its scores")
    again.add_argument("file", help="the record (a .json file from /projectl-games export)")
    return parser


def _replay(path: str) -> int:
    """Rebuild the final state of the record at ``path``; one sentence on any refusal."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"python -m engine replay: cannot read {path}: {getattr(error, 'strerror', None) or error}",
              file=sys.stderr)
        return 1
    try:
        replayed = replay_record(text)
    except RecordError as error:
        print(f"python -m engine replay: {error}", file=sys.stderr)
        return 1
    print(f"Replayed {replayed.actions} actions from the seed: the result matches the record.")
    for seat, score in enumerate(replayed.scores):
        name = replayed.names[seat] if seat < len(replayed.names) else f"Seat {seat + 1}"
        print(f"{name}: {score}")
    return 0


def _simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    solo = args.variant == "solo"
    players = args.players if args.players is not None else (1 if solo else 2)
    variant = args.variant or Options.for_players(min(players, 6)).variant
    if variant == "solo" and players != 1:
        parser.error("solo is played by 1 player: omit --players or use --players 1")
    if variant == "base" and not 2 <= players <= 4:
        parser.error(f"the base game is played by 2-4 players, not {players}")
    if variant == "lineclear" and not 5 <= players <= 6:
        parser.error(f"Line Clear is played by 5-6 players, not {players}")
    ghost = args.ghost if args.ghost is not None else variant == "lineclear"
    names = [n.strip().lower() for n in args.policy.split(",")]
    unknown = [n for n in names if n not in POLICIES]
    if unknown or len(names) not in (1, players):
        parser.error(
            f"--policy must be {' or '.join(POLICIES)}, or a comma list with one per seat "
            f"({players}); got '{args.policy}'"
        )
    options = Options(
        players=players,
        variant=variant,
        reserve=args.reserve,
        unfinished_penalty=not args.no_unfinished_penalty,
        difficulty=Difficulty(args.difficulty),
        ghost=ghost,
        finesse=args.finesse,
        ambassador=args.ambassador,
        phoenix=args.phoenix,
        finesse_ambassador=args.finesse_ambassador,
    )
    cards = _cards(args, parser)
    try:  # the engine validates the options once, with a readable refusal
        new_game(options, args.seed, cards)
    except IllegalActionError as refusal:
        parser.error(str(refusal))
    extra = {} if args.max_turns is None else {"max_turns": args.max_turns}
    stalled = inserts = credits = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        policies = [policy_by_name(names[seat % len(names)], seed * 8 + seat) for seat in range(players)]
        record = play_game(options, seed, policies, keep_log=args.log, cards=cards, **extra)
        stalled += record.stalled
        inserts += record.inserts
        credits += sum(record.credits)
        print(json.dumps(record.to_json(with_log=args.log)), flush=False)
    elapsed = time.perf_counter() - start
    summary = {
        "games": args.games,
        "stalled": stalled,
        "seconds": round(elapsed, 3),
        "games_per_s": round(args.games / elapsed, 2) if elapsed > 0 else None,
    }
    if args.finesse:
        summary["inserts_per_game"] = round(inserts / args.games, 2)
        summary["credits_per_player_game"] = round(credits / (args.games * players), 2)
    print(json.dumps(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse exits on errors and --help; return its code instead
        return int(stop.code or 0)
    if args.command == "simulate":
        try:
            return _simulate(args, parser)
        except SystemExit as stop:
            return int(stop.code or 0)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "sweep":
        given = {name: getattr(args, name) for name in SWEEP_BUDGET if getattr(args, name) is not None}
        if args.policy == "expert":
            if given:
                print("python -m engine sweep: error: the budget options are the strong policy's; "
                      "--policy expert has its own", file=sys.stderr)
                return 2
            return run_sweep(args.games, seed=args.seed, workers=args.workers, budget=None, policy="expert")
        budget = {**SWEEP_BUDGET, **given}
        return run_sweep(args.games, seed=args.seed, workers=args.workers, budget=budget)
    return main_check(args.file)


def _run() -> int:
    """``main`` for the process: a closed pipe (``| head``) ends quietly, as Unix tools do."""
    try:
        return main()
    except BrokenPipeError:
        sys.stderr.close()  # nothing more can be reported, and Python would complain at exit
        return 0


if __name__ == "__main__":
    sys.exit(_run())
