"""``python -m bench league``: every AI against every other, two players (issue 29, "a league, not
one sparring partner").

Why a round robin: a policy tuned against one opponent learns that opponent's habits — Strong's
rollouts play greedy for every seat, so greedy was the one player it modelled exactly, and it beat
greedy far more often than it beat anything else. Measuring each member against every other
shows whether a gain is general: a member that climbs against one and falls against another has
learnt a habit, not the game.

The members (:data:`MEMBERS`):

* ``greedy`` — Easy: the rule-based player with the base game's weights.
* ``tuned`` — greedy with the first weight set ``tools/tune_greedy.py`` found
  (:data:`bench.strong.TUNED_GREEDY`), which plays two-player games differently.
* ``medium`` — Strong's search on a small fixed budget (:mod:`engine.policies.medium`).
* ``strong`` — today's Strong, the frozen baseline the Expert's targets are measured against.
* ``planner`` — a turn planner: the Expert's whole-turn beam search, on one re-deal, ranked by the
  position evaluation with the weights of 2026-12-07 (:data:`PLANNER_WEIGHTS`); its best turn
  is checked against greedy's over one round of greedy replies (``nodes=0``: no evaluation
  replies, no budget to share).
* ``expert`` — the Expert (:mod:`engine.policies.expert`).

Five more play unlike the searches (issue 50: an Expert strong against opponents it never met),
each a short policy of :mod:`engine.policies` whose docstring says how it plays:

* ``rush_black`` — greedy that grabs big black puzzles early and races them;
* ``hoarder`` — builds its supply with level-1 takes and upgrades before it places;
* ``end_racer`` — drains the black row to trigger the end as soon as it leads;
* ``hand_planner`` — plans its own turn by a bounded enumeration and a hand-written formula;
* ``turn_planner`` — the strong outsider: plans its whole turn by enumeration and a hand-written
  reading of both sides' positions (:mod:`engine.policies.turn_planner`).

:data:`HELD_OUT` are never used to tune the Expert (no setting is chosen on games against them):
they measure whether a gain generalises. :data:`TUNING` are the ones tuning may play against.

Every pairing plays as the other two-player benches do (:func:`bench.strong.duel`: seats
alternating, a shared win one half; the first-named member seeded with the game's seed, the
other with seed + 7919), dealt from held-out seeds ``LEAGUE_SEED + i`` that no tuning used, the
pairings taken in turn (:func:`bench.strong.interleaved`) so a run stopped early still holds
every pairing on an equal sample. The report is one row per pairing (the first member's win
share, its Wilson 95 % interval and mean margin) and one line per member (its mean share over all
its pairings). ``--policies`` pits any installed policies instead of the members: built-in names
and plug-ins' entry-point names (docs/plugins.md), 6 games a pairing unless ``--games`` says more.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from engine import Options, new_game
from engine.policies import POLICIES, ExpertPolicy, ExpertWeights, GreedyPolicy, Policy, policy_by_name
from engine.policies.plugins import PluginPolicy, installed_plugins, plugin_factory, said

from .strong import TUNED_GREEDY, Job, Result, StrongGames, duel, interleaved, play_jobs

LEAGUE_SEED = 4_000_000
"""Where the league's deals start: far from the tuning seeds (0+, 5,000+, 7,000,000+,
8,000,000+) and the other benches' (0–399, 1,000,000+, 2,000,000+, 3,000,000+)."""
LEAGUE_GAMES = 20
"""Two-player games per pairing by default (55 pairings: about two and a half hours of CPU)."""
POLICY_GAMES = 6
"""Games per pairing by default with ``--policies`` (a quick look; ``--games`` for more)."""


PLANNER_WEIGHTS = ExpertWeights(
    action_value=0.45, fetch_per_level=0.8, master_place=0.8, ramp=2.5, piece_base=0.15,
    piece_level=0.35, piece_horizon=9.0, useful_pieces=7, extra_piece=0.4, credit_value=0.25,
    win_bonus=6.0, potential=0.5, piece_potential=None, mastermind_rate=1.5)
"""The planner's evaluation weights: the Expert's of 2026-12-07, written out so that they stay
put. A league member is a fixed opponent, as the frozen ``strong`` is: a new Expert setting is
measured against the planner, not carried into it (the planner ranks turns by the Expert's own
evaluation, so with shared weights every gain of the evaluation would be the planner's too)."""


def planner(seed: int) -> Policy:
    """The league's turn planner (see the module): one reply round a line, as before the Expert's
    two-player lines played a second own turn (``expert.DUEL_TURNS``, which the planner loses with)."""
    return ExpertPolicy(seed, worlds=1, plans=1, nodes=0, extra_turns=0, weights=PLANNER_WEIGHTS)


MEMBERS: dict[str, Callable[[int], Policy]] = {
    "greedy": POLICIES["greedy"],
    "tuned": lambda seed: GreedyPolicy(seed, **TUNED_GREEDY),
    "medium": POLICIES["medium"],
    "strong": POLICIES["strong"],
    "planner": planner,
    "expert": POLICIES["expert"],
    "rush_black": POLICIES["rush_black"],
    "hoarder": POLICIES["hoarder"],
    "end_racer": POLICIES["end_racer"],
    "hand_planner": POLICIES["hand_planner"],
    "turn_planner": POLICIES["turn_planner"],
}
"""Every league member by name, each a factory taking a seed."""
HELD_OUT: tuple[str, ...] = ("end_racer", "hand_planner", "turn_planner")
"""Members no Expert setting is ever chosen against: the held-out opponents."""
TUNING: tuple[str, ...] = tuple(m for m in MEMBERS if m not in HELD_OUT and m != "expert")
"""Members the Expert's settings may be tuned against."""


def known_policies() -> tuple[str, ...]:
    """Every name ``--policies`` accepts: the league's members, the built-in policies and the
    installed plug-ins (entry points of ``projectl.policies``, engine/policies/plugins.py)."""
    return tuple(dict.fromkeys([*MEMBERS, *POLICIES, *installed_plugins()]))


def member(name: str, seed: int) -> Policy:
    """A league member by name, else any policy :func:`engine.policies.policy_by_name` knows."""
    factory = MEMBERS.get(name)
    return factory(seed) if factory is not None else policy_by_name(name, seed)


def interval(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95 % interval of a win share over ``games`` games (a shared win counts half)."""
    if games == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def pairings(members: Sequence[str], involving: str | None = None) -> tuple[str, ...]:
    """Every pairing of ``members`` once, as ``"a:b"`` (``a`` listed before ``b``); with
    ``involving``, only the pairings that member plays (to measure again one member that changed)."""
    pairs = (f"{a}:{b}" for a, b in itertools.combinations(members, 2))
    return tuple(p for p in pairs if involving is None or involving in p.split(":"))


def play_one(job: Job) -> Result:
    """One game of a pairing: (``"a:b"``, index, seed) -> (a's result, a's margin, no times)."""
    pairing, index, seed = job
    first, second = pairing.split(":")
    result, margin = duel(member(first, seed), member(second, seed + 7919), index, seed)
    return result, margin, []


def league_jobs(games: int, members: Sequence[str], seed: int = 0, involving: str | None = None) -> list[Job]:
    """``games`` jobs per pairing, the pairings in turn, game ``i`` dealt from ``LEAGUE_SEED + seed + i``."""
    return interleaved(games, 0, LEAGUE_SEED + seed, pairings(members, involving))


def standings(played: StrongGames, members: Sequence[str]) -> dict[str, float]:
    """Each member's mean win share over its pairings played (each pairing weighs the same)."""
    shares: dict[str, list[float]] = {name: [] for name in members}
    for pairing in pairings(members):
        if not played.results.get(pairing):
            continue
        first, second = pairing.split(":")
        rate = played.rate(pairing)
        shares[first].append(rate)
        shares[second].append(1.0 - rate)
    return {name: round(sum(s) / len(s), 4) if s else 0.0 for name, s in shares.items()}


def bench_league(games: int, members: Sequence[str] = tuple(MEMBERS), *, workers: int = 1,
                 seed: int = 0, involving: str | None = None) -> dict[str, Any]:
    """Play the league (or only ``involving``'s pairings) and return its figures: per pairing the
    first member's win share, mean margin and game count, and each member's standing."""
    played = play_jobs(league_jobs(games, members, seed, involving), workers, play_one, "league")
    rows = {}
    for pairing in pairings(members, involving):
        share, count = played.rate(pairing), len(played.results.get(pairing, []))
        rows[pairing] = {"share": share, "margin": played.margin(pairing), "games": count,
                         "interval": interval(share, count)}
    return {"pairings": rows, "standings": standings(played, members), "first_seed": LEAGUE_SEED + seed,
            "wall_s": round(played.wall_s, 1), "workers": workers}


def markdown(figures: dict[str, Any]) -> str:
    """The league as a Markdown table (for a report or docs/ai.md): one row per pairing, then standings."""
    lines = ["| Pairing | Games | First's win share | 95 % interval | First's mean margin |",
             "|---|---|---|---|---|"]
    for pairing, row in figures["pairings"].items():
        first, second = pairing.split(":")
        low, high = row.get("interval", interval(row["share"], row["games"]))
        lines.append(f"| {first} – {second} | {row['games']} | {row['share']:.1%} | {low:.0%}–{high:.0%} "
                     f"| {row['margin']:+.2f} |")
    lines += ["", "| Member | Mean win share over its pairings |", "|---|---|"]
    ranked = sorted(figures["standings"].items(), key=lambda item: -item[1])
    lines += [f"| {name} | {share:.1%} |" for name, share in ranked]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench league", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help=f"games per pairing ({LEAGUE_GAMES}; "
                        f"{POLICY_GAMES} with --policies)")
    parser.add_argument("--members", default=",".join(MEMBERS),
                        help=f"comma-separated members (default all: {', '.join(MEMBERS)})")
    parser.add_argument("--policies", help="comma-separated policies to pit instead: league members, "
                        "built-in policies and installed plug-ins (docs/plugins.md)")
    parser.add_argument("--involving", help="only the pairings this member plays")
    parser.add_argument("--workers", type=int, default=1, help="game processes (1)")
    parser.add_argument("--seed", type=int, default=0, help="offset from the league's first seed (0)")
    parser.add_argument("--json", dest="json_path", help="also write the figures here")
    args = parser.parse_args(argv)
    known = known_policies() if args.policies is not None else tuple(MEMBERS)
    chosen = args.policies if args.policies is not None else args.members
    members = [m.strip() for m in chosen.split(",") if m.strip()]
    unknown = [m for m in members if m not in known]
    if unknown or len(members) < 2:
        parser.error(f"members must be two or more of {', '.join(known)} (unknown: {', '.join(unknown)})")
    for name in members:
        if name in MEMBERS or name in POLICIES:
            continue
        try:  # a broken plug-in is told once, here, not as a traceback from inside a game
            trial = PluginPolicy(plugin_factory(name)(LEAGUE_SEED))
            trial.choose(new_game(Options(players=2), LEAGUE_SEED))
        except Exception as error:  # noqa: BLE001 - someone else's code
            parser.error(f"plug-in '{name}' cannot be used: {said(error)}")
        if trial.fallbacks:
            print(f"warning: plug-in '{name}' failed its trial move ({trial.last_error}); each move "
                  "it fails is played by a legal fallback, counted as its own", file=sys.stderr)
    games = args.games or (POLICY_GAMES if args.policies is not None else LEAGUE_GAMES)
    if args.involving is not None and args.involving not in members:
        parser.error(f"--involving must name a member ({', '.join(members)})")
    figures = bench_league(games, members, workers=args.workers, seed=args.seed,
                           involving=args.involving)
    print(markdown(figures))
    print(f"seeds {figures['first_seed']}+, {figures['wall_s']:.0f} s wall, {args.workers} worker(s)")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0
