"""``python -m engine sweep``: many strong-policy games over every table the engine accepts, to show
that the policy never returns an illegal action and never stalls a game.

The tables are every combination the variants and expansions accept (:func:`tables`): Solo at
each difficulty, 2–4 players (base game) and 5–6 players (Line Clear), each with and without the
Ghost Piece and Finesse expansions, and — for 2 or more players — with score piles face down
(``known_scores`` off, which changes what the policy may read) and with the Endless White Deck;
each of those once more with the Ambassador Pack and Phoenix on (and the Finesse Ambassador Pack
where Finesse is). A combination the engine refuses at setup (6 players without the Ghost Piece
or Phoenix, Endless White in Solo) is left out, so a new variant or expansion rule shows up here
without a change.

One seat is the strong policy (``--policy expert``: the expert policy, with its own small budget
:data:`EXPERT_SWEEP_BUDGET`), the others greedy; the strong seat moves round the table from
game to game (game ``i`` seats it at ``i mod players``), so every seat position — Line Clear's
two holders, the last player of a round — is played by it, and a game costs little more than
the strong seat's own searches. The strong seat has a small per-decision budget
(:data:`SWEEP_BUDGET`): few rollouts of a few turns each. Legality does not depend on the budget —
the candidate turns, the plan followed across a turn and the re-deals are the same code — only
the quality of the choice does, and a small budget lets a run play thousands of games.

Every action goes through :func:`engine.game.apply`, which refuses an illegal one: the sweep
counts refusals (``illegal``) instead of stopping, and any other exception as ``errors``. A game
that reaches the turn cap is ``stalled``. The exit code is 1 when any of the three is not zero.
The test suite runs a bounded sweep (``tests/test_policy_strong.py``).
"""

from __future__ import annotations

import functools
import itertools
import json
import time
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from .errors import IllegalActionError
from .game import apply, new_game
from .policies import ExpertPolicy, GreedyPolicy, Policy, StrongPolicy
from .simulate import DEFAULT_MAX_TURNS, default_cards
from .state import Difficulty, Options

SWEEP_BUDGET: dict[str, int] = {"rollouts": 2, "plans": 2, "beam": 2, "horizon": 2, "work": 0}
"""The strong policy's per-decision budget in a sweep (see :class:`~engine.policies.StrongPolicy`):
two rollouts of a couple of turns (exactly two: ``work`` 0), two candidate turns beside
greedy's, a beam of two."""
EXPERT_SWEEP_BUDGET: dict[str, int] = {"worlds": 1, "plans": 2, "beam": 2, "nodes": 120}
"""The expert policy's per-decision budget in a sweep (``--policy expert``; see
:class:`~engine.policies.ExpertPolicy`): one world, two candidate turns beside greedy's, a beam of
two, and replies by evaluation only while 120 states are left to apply."""
SWEPT_POLICIES = ("strong", "expert")
"""The policies a sweep can seat (``--policy``)."""
GAMES_PER_TABLE = 36
"""Games per table in a default run: about 3,000 games over the tables the engine accepts."""


@functools.cache
def tables() -> tuple[Options, ...]:
    """Every table the sweep plays (see the module), in a fixed order. Kept once found: finding
    them deals a game at each of some 180 combinations (about 0.3 s)."""
    found: list[Options] = []
    for players in range(1, 7):
        solo = players == 1
        difficulties = list(Difficulty) if solo else [Difficulty.NORMAL]
        flags = itertools.product(difficulties, (False, True), (False, True), (True, False), (False, True))
        for difficulty, ghost, finesse, known_scores, endless in flags:
            if solo and (not known_scores or endless):
                continue  # nobody's score pile to hide; Endless White needs 2+ players
            for packs in (False, True):
                options = Options.for_players(
                    players, ghost=ghost, finesse=finesse, known_scores=known_scores,
                    endless_white=endless, difficulty=difficulty, ambassador=packs, phoenix=packs,
                    finesse_ambassador=packs and finesse,
                )
                try:
                    new_game(options, 0, default_cards())
                except IllegalActionError:
                    continue
                found.append(options)
    return tuple(found)


def describe(options: Options) -> str:
    """A short name for a table: ``lineclear-6p+ghost+finesse+hidden-scores``."""
    name = f"{options.variant}-{options.players}p"
    if options.variant == "solo":
        name += f"-{options.difficulty.value}"
    extras = [
        ("ghost", options.ghost), ("finesse", options.finesse),
        ("hidden-scores", not options.known_scores), ("endless-white", options.endless_white),
        ("ambassador", options.ambassador), ("phoenix", options.phoenix),
        ("finesse-ambassador", options.finesse_ambassador),
    ]
    return name + "".join(f"+{label}" for label, on in extras if on)


@dataclass
class SweepResult:
    """What a set of sweep games found (results of several add up with :meth:`merge`)."""

    games: int = 0
    actions: int = 0
    """Actions applied, every seat's."""
    choices: int = 0
    """Actions the strong seat chose."""
    searches: int = 0
    """Of those, the ones it searched for (the rest came from a plan made earlier in the turn)."""
    illegal: int = 0
    stalled: int = 0
    errors: int = 0
    max_search_s: float = 0.0
    """The longest CPU time of one choice that ran a search."""
    problems: list[str] = field(default_factory=list)
    """One line per illegal action, stall or error: table, seed and what happened."""

    @property
    def clean(self) -> bool:
        return not (self.illegal or self.stalled or self.errors)

    def merge(self, other: SweepResult) -> None:
        self.games += other.games
        self.actions += other.actions
        self.choices += other.choices
        self.searches += other.searches
        self.illegal += other.illegal
        self.stalled += other.stalled
        self.errors += other.errors
        self.max_search_s = max(self.max_search_s, other.max_search_s)
        self.problems.extend(other.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "actions": self.actions, "strong_choices": self.choices,
            "strong_searches": self.searches,
            "illegal": self.illegal, "stalled": self.stalled, "errors": self.errors,
            "max_search_cpu_s": round(self.max_search_s, 3), "problems": self.problems[:20],
        }


Job = tuple[Options, int, int, dict[str, Any], int, str]
"""One sweep game: (table, game index, seed, budget, turn cap, policy name)."""


def play_one(job: Job) -> SweepResult:
    """One game of the sweep; ``job`` is (table, game index, seed, budget, turn cap, policy): the
    strong (or expert) policy with ``budget`` in seat ``index mod players``, greedy in the others."""
    options, index, seed, budget, max_turns, name = job
    result = SweepResult(games=1)
    strong_seat = index % options.players
    strong: StrongPolicy | ExpertPolicy = (
        ExpertPolicy(seed * 8 + strong_seat, **budget) if name == "expert"
        else StrongPolicy(seed * 8 + strong_seat, **budget)
    )
    seats: list[Policy] = [
        strong if seat == strong_seat else GreedyPolicy(seed * 8 + seat) for seat in range(options.players)
    ]
    where = f"{describe(options)} seed {seed} ({name} seat {strong_seat})"
    try:
        state = new_game(options, seed, default_cards())
        while not state.is_over and state.turn <= max_turns:
            policy = seats[state.current]
            before = strong.searches
            start = time.process_time()
            action = policy.choose(state)
            if policy is strong:
                result.choices += 1
                if strong.searches > before:
                    result.searches += 1
                    result.max_search_s = max(result.max_search_s, time.process_time() - start)
            try:
                state = apply(state, action).state
            except IllegalActionError as refusal:
                result.illegal += 1
                result.problems.append(f"{where}: turn {state.turn}, seat {state.current} chose "
                                       f"'{action}': {refusal}")
                return result
            result.actions += 1
        if not state.is_over:
            result.stalled += 1
            result.problems.append(f"{where}: still playing after {max_turns} turns")
    except Exception as error:  # noqa: BLE001 - a sweep reports every failure and plays on
        result.errors += 1
        last = traceback.extract_tb(error.__traceback__)[-1]
        result.problems.append(f"{where}: {type(error).__name__}: {error} "
                               f"({last.filename}:{last.lineno})")
    return result


def sweep(
    games_per_table: int = GAMES_PER_TABLE, *, seed: int = 0, workers: int = 1,
    budget: dict[str, int] | None = None, tables_to_play: Sequence[Options] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS, progress: bool = False, policy: str = "strong",
) -> tuple[SweepResult, dict[str, SweepResult]]:
    """Play ``games_per_table`` games on every table (game ``i`` from seed ``seed + i``) with
    ``policy`` ("strong" or "expert") in one seat; return the total and the result per table (by
    :func:`describe`). ``budget``: that policy's (default :data:`SWEEP_BUDGET`, or
    :data:`EXPERT_SWEEP_BUDGET` for the expert)."""
    chosen = list(tables() if tables_to_play is None else tables_to_play)
    default = EXPERT_SWEEP_BUDGET if policy == "expert" else SWEEP_BUDGET
    spend = dict(default if budget is None else budget)
    # Round by round over the tables, so that a run stopped early has played every table alike.
    jobs = [
        (options, i, seed + i, spend, max_turns, policy) for i in range(games_per_table) for options in chosen
    ]
    total = SweepResult()
    per_table: dict[str, SweepResult] = {describe(options): SweepResult() for options in chosen}
    for done, (job, result) in enumerate(zip(jobs, _results(jobs, workers), strict=True), start=1):
        total.merge(result)
        per_table[describe(job[0])].merge(result)
        if progress and (done % 100 == 0 or done == len(jobs)):
            print(f"  sweep: {done}/{len(jobs)} games, {total.choices:,} strong choices, "
                  f"{total.illegal} illegal, {total.stalled} stalled, {total.errors} errors", flush=True)
    return total, per_table


def _results(jobs: list[Job], workers: int) -> Iterable[SweepResult]:
    if workers <= 1:
        for job in jobs:
            yield play_one(job)
        return
    with Pool(workers) as pool:
        yield from pool.imap(play_one, jobs, chunksize=1)


def run_sweep(
    games_per_table: int, *, seed: int, workers: int, budget: dict[str, int] | None, policy: str = "strong",
) -> int:
    """The command: progress lines, one line per table, then the JSON summary; exit code 1 on any
    illegal action, stall or error. ``budget`` None: the policy's sweep budget."""
    start = time.perf_counter()
    total, per_table = sweep(
        games_per_table, seed=seed, workers=workers, budget=budget, progress=True, policy=policy
    )
    for name, result in per_table.items():
        print(f"{name}: {result.games} games, {result.choices:,} strong choices, {result.illegal} illegal, "
              f"{result.stalled} stalled, {result.errors} errors")
    for line in total.problems:
        print(f"PROBLEM {line}")
    summary = total.to_json()
    summary.update(tables=len(per_table), games_per_table=games_per_table, policy=policy,
                   budget=budget or (EXPERT_SWEEP_BUDGET if policy == "expert" else SWEEP_BUDGET),
                   seconds=round(time.perf_counter() - start, 1), workers=workers)
    print(json.dumps(summary), flush=True)
    return 0 if total.clean else 1
