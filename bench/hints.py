"""How far a hint is from a deeper search's advice: ``hint_regret_over_2`` (issue 29, item 4).

The positions: ``positions`` fixed mid-game positions (2, 3 and 4 players in turn), each the start
of a turn in rounds 4-7 of a greedy self-play game dealt from seed ``HINT_SEEDS + i`` — deals the
Expert's tuning never used, the same on every run.

On each, the hint is computed exactly as ``/projectl play hint`` computes it
(:func:`bot.core.play.thinking.expert_hint` on :func:`~bot.core.play.thinking.public_position`, seeded by
:func:`~bot.core.play.thinking.position_seed`), and a reference Expert with four times the budget —
four times the re-dealt worlds, twice the candidate turns and beam, and the node budget scaled so
each line is searched as deep — seeded apart from the hint (its worlds are not the hint's, so
the hint's own luck is not what judges it) scores its own candidates and the hint's plan, forced
in, on the same worlds. The regret is the reference's best value minus its value of
the hint's plan (0 when the hint's is its best). Figures: how many of the positions lose more
than :data:`REGRET_POINTS` points (budget: at most 3 of 100), the mean and the worst regret.
"""

from __future__ import annotations

import statistics
import time

from bot.core.play.thinking import expert_hint, position_seed, public_position
from engine import Options, apply, new_game, parse_action, serialisation
from engine.policies import ExpertPolicy, GreedyPolicy
from engine.state import GameState, Phase

HINT_POSITIONS = 100
HINT_SEEDS = 3_000_000
REFERENCE_SCALE = 4
REGRET_POINTS = 2.0
REFERENCE_SEED = 0x5EED_4EF0


def positions(count: int, seed: int = HINT_SEEDS) -> list[GameState]:
    """``count`` mid-game positions, each at the start of a turn (see the module)."""
    found: list[GameState] = []
    index = 0
    while len(found) < count:
        players = 2 + index % 3
        state = new_game(Options.for_players(players), seed=seed + index)
        policies = [GreedyPolicy(seed + index + p) for p in range(players)]
        target_round = 4 + index % 4
        index += 1
        for _ in range(2000):
            if state.is_over:
                break
            if (state.round >= target_round and state.phase is Phase.PLAY and not state.pending
                    and state.actions_left == 3 and not state.end_triggered):
                found.append(state)
                break
            state = apply(state, policies[state.current].choose(state)).state
    return found


def regret(state: GameState) -> float:
    """The reference's value of its best turn minus its value of the hint's (see the module)."""
    seat = state.current
    public = public_position(state, seat)
    seed = position_seed(state, seat)
    hint = expert_hint(serialisation.dumps(public), seed)
    plan = tuple(parse_action(text) for text in hint.plan)
    hinting = ExpertPolicy(seed, extra_turns=0)  # the search the hint ran (bot.core.play.thinking)
    reference = ExpertPolicy(seed ^ REFERENCE_SEED, worlds=hinting.worlds * REFERENCE_SCALE,
                             plans=hinting.plans * 2, beam=hinting.beam * 2,
                             nodes=hinting.nodes * REFERENCE_SCALE * 2, extra_turns=0)
    analysis = reference.analyse(public, forced=[plan])
    mine = analysis.value_of("forced")
    if mine is None or analysis.best.source == "forced":
        return 0.0
    return max(0.0, analysis.best.value - mine.value)


def bench_hints(count: int = HINT_POSITIONS, seed: int = HINT_SEEDS) -> dict[str, float]:
    """The figures: ``hint_regret_over_2`` (positions), ``hint_regret_mean``, ``hint_regret_max``."""
    started = time.perf_counter()
    regrets = [regret(state) for state in positions(count, seed)]
    over = sum(r > REGRET_POINTS for r in regrets)
    print(f"hints: {over} of {len(regrets)} positions lose more than {REGRET_POINTS:g} points against a "
          f"{REFERENCE_SCALE}x Expert (mean {statistics.fmean(regrets):.2f}, worst {max(regrets):.2f}; "
          f"{time.perf_counter() - started:.0f} s)", flush=True)
    return {"hint_regret_over_2": over, "hint_regret_mean": round(statistics.fmean(regrets), 3),
            "hint_regret_max": round(max(regrets), 2), "hint_positions": len(regrets)}
