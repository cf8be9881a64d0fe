"""AI thinking off the event loop: the strong policy's searches run in worker processes.

Greedy and random choose in about a millisecond and run inline. The strong policy searches for
up to half a second of CPU per move (``engine.policies.strong``), which would stall every channel
if it ran on the event loop and would hold the GIL if it ran in a thread; so its moves, hints and
post-game reviews run in a :class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start
method: a worker never inherits the bot's event loop, sockets or database handle). The functions
sent to a worker take and return plain data (state JSON, action text, numbers), so nothing but
the engine crosses the process boundary.

A worker that dies (killed, out of memory) breaks the pool; :class:`Thinker` builds a new pool
and retries once, then lets the error through (the manager then plays a legal fallback move).

**The wall-clock budget.** An AI seat's move is searched against a deadline (:func:`policy_move`'s
``deadline``, on :data:`WALL_CLOCK`, which every process of the machine shares): the manager sets
it once per turn of the seat (``PROJECTL_AI_TURN_SECONDS``, 2 s by default) and the worker hands
the search a check of it (:func:`deadline_check`), which the engine's searches ask between slices
of their work (:class:`engine.policies.Interruptible`); past it they decide on what they have
scored. The engine reads no clock, so the same search without a deadline — a hint, a review, a
test, a bench game — stays deterministic. The move chosen is committed as an action like any
other, so a replay replays it and never searches again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from engine import TABLE_ACTIONS, GameState, Options, apply, new_game, parse_action, serialisation
from engine.expansions import finesse
from engine.policies import (
    Analysis,
    ExpertPolicy,
    Interruptible,
    PlanGist,
    StopCheck,
    StrongPolicy,
    plan_gist,
    policy_by_name,
)
from engine.policies.hidden import redeal
from engine.rng import Rng

log = logging.getLogger("bot.thinking")

HEAVY_POLICIES = frozenset({"medium", "strong", "ladder_strong", "expert"})
"""Policies whose moves are computed in the process pool (a search of a fraction of a second)."""
T = TypeVar("T")


# -- the work sent to a worker (module-level functions, plain data in and out) --------------------


WALL_CLOCK: Callable[[], float] = time.monotonic
"""The clock a deadline is read on: monotonic and, on the systems the bot runs on, the same in
every process of the machine, so the bot's deadline means the same instant in a worker."""


def wall_now() -> float:
    """:data:`WALL_CLOCK` now (read through the module, so a test's fake clock counts)."""
    return WALL_CLOCK()


def deadline_check(deadline: float) -> StopCheck:
    """A search's stop check (:data:`engine.policies.StopCheck`): True from ``deadline`` on."""
    return lambda: wall_now() >= deadline


WARM_DEAL = 0
"""The deal :func:`warm_worker` searches once (any fixed one: the warm-up must not vary)."""
WARM_NODES = 200
"""Its search's budget: enough to fill the solver's and the evaluation's first caches."""


def warm_worker() -> None:
    """A worker's first job, sent to each as the pool starts (:meth:`Thinker._executor`): its
    imports (unpickling this function loads the engine) and one small Expert search, so that no
    AI seat's turn pays them inside its wall-clock budget."""
    ExpertPolicy(WARM_DEAL, nodes=WARM_NODES).choose(new_game(Options(players=2), WARM_DEAL))


def policy_move(
    state_text: str, seed: int, name: str = "strong", deadline: float | None = None,
) -> tuple[str, ...]:
    """A searching policy's (``name``: one of :data:`HEAVY_POLICIES`) next action for the player
    to act, then the rest of its planned turn (empty after an action that reveals a card), as
    action texts. ``deadline`` (on :data:`WALL_CLOCK`): the search stops there and plays the
    best it has scored (None: its whole fixed budget, deterministic)."""
    policy = policy_by_name(name, seed)
    if deadline is not None and isinstance(policy, Interruptible):
        policy.should_stop = deadline_check(deadline)
    first = policy.choose(serialisation.loads(state_text))
    return (str(first), *(str(a) for a in getattr(policy, "planned", ())))


@dataclass(frozen=True, slots=True)
class Hint:
    """A searching policy's suggestion for the player to act (plain data, from a worker)."""

    action: str
    plan: tuple[str, ...]
    margin: float
    """The plan's estimated final margin against the best rival (Strong: its rollouts' mean;
    Expert: its evaluation's after the rivals' replies)."""
    wins: float | None
    """The share of rollouts won (Strong); None for a search that reads positions instead of
    playing them out (Expert)."""
    rollouts: int
    """Rollouts (Strong) or re-dealt worlds (Expert) each candidate was scored on."""
    alternative: str | None
    alternative_margin: float | None
    gist: PlanGist
    """What the plan does on the board (points now, the puzzle it builds towards, pieces gained)."""


def public_position(state: GameState, seat: int) -> GameState:
    """``state`` as ``seat`` sees it and nothing more: the hidden parts (the decks' order,
    face-down score piles) re-dealt with a fixed generator — equal for equal visible positions
    (:func:`engine.policies.hidden.redeal`) — and the game's own random state zeroed. A hint planned
    from it depends on the visible position alone (the search mixes the state's random state into
    its seeds), and can name nothing the asker could not see. Finesse's face-down tiles are
    hidden too: fixed stand-ins replace them (:func:`engine.expansions.finesse.hide_face_down`)."""
    return finesse.hide_face_down(redeal(state, Rng(0), viewer=seat).evolve(rng_state=0))


def position_seed(state: GameState, seat: int) -> int:
    """The hint's search seed, from :func:`public_position` alone: the same position gives the
    same hint in any game, at any revision, however it was reached. The digest is a stable one,
    unlike ``hash()``."""
    public = public_position(state, seat)
    digest = hashlib.blake2b(serialisation.dumps(public).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF


def strong_hint(state_text: str, seed: int) -> Hint:
    """The strong policy's advice for the player to act in ``state_text`` (a
    :func:`public_position`), with the runner-up first move and the plan's gist."""
    return _strong_hint(serialisation.loads(state_text), seed)


def expert_hint(state_text: str, seed: int) -> Hint:
    """The expert policy's advice: as :func:`strong_hint`, from the search whose budget is a node
    count (no clock), so the same position and seed always give the same hint."""
    return _expert_hint(serialisation.loads(state_text), seed)


def advice_hint(state_text: str, seed: int) -> Hint:
    """What ``/projectl play hint`` gives: the strongest search there is, the Expert's, at every
    table. Solo too since 2026-12-03: until then Strong's rollouts read the mastermind's race
    better, but on the same 100 Normal deals (seeds 7,000,000–7,000,099) the Expert with six
    worlds and four more own turns a line won 71 %, Strong 42 % (docs/ai.md)."""
    return _expert_hint(serialisation.loads(state_text), seed)


def _strong_hint(state: GameState, seed: int) -> Hint:
    analysis = StrongPolicy(seed).analyse(state)  # its work budget alone: no deadline, no clock
    return _hint(state, analysis, analysis.rollouts, analysis.best.wins)


def _expert_hint(state: GameState, seed: int) -> Hint:
    # One reply round a line (extra_turns=0), not the seat's second own turn at two players
    # (expert.DUEL_TURNS): with it, 4 of the hint bench's 100 positions lost more than 2 points
    # against its 4x judge (budget 3; 1 without), the longer lines being the noisier.
    analysis = ExpertPolicy(seed, extra_turns=0).analyse(state)
    return _hint(state, analysis, analysis.best.rollouts, None)


def _hint(state: GameState, analysis: Analysis, rollouts: int, wins: float | None) -> Hint:
    best = analysis.best
    other = next((p for p in analysis.plans[1:] if p.actions[0] != best.actions[0]
                  and p.rollouts == best.rollouts), None)
    return Hint(str(best.actions[0]), tuple(str(a) for a in best.actions), best.margin, wins,
                rollouts, None if other is None else str(other.actions[0]),
                None if other is None else other.margin, plan_gist(state, best.actions))


@dataclass(frozen=True, slots=True)
class Mistake:
    """One turn of a finished game, scored: what was played, what the expert policy prefers."""

    seat: int
    round: int
    turn: int
    played: tuple[str, ...]
    better: tuple[str, ...]
    cost: float
    """Estimated points lost: the expert's best plan's mean margin minus the played turn's."""
    state_text: str
    """The position before the turn (for its image)."""


def review_game(initial_text: str, log_rows: Sequence[tuple[int, str]], seed: int,
                seats: Sequence[int]) -> list[Mistake]:
    """Every play-phase turn of ``seats`` in a finished game, scored by the hints' search (the
    expert policy, as :func:`advice_hint`): the turn actually played is a forced candidate beside
    the policy's own plans, on the same re-deals.
    Costs are clipped at 0 (the policy's estimate, not an oracle: a turn it rates as good as its
    own costs nothing). Table decisions (skip, remove) are replayed but not scored."""
    state = serialisation.loads(initial_text)
    wanted = set(seats)
    turns: list[tuple[GameState, int, list[str]]] = []
    for seat, text in log_rows:
        if state.is_over:
            break
        action = parse_action(text)
        key = (state.turn, state.current)
        scored = seat in wanted and not isinstance(action, TABLE_ACTIONS)
        if scored and state.phase.value == "play" and seat == state.current:
            if not turns or (turns[-1][0].turn, turns[-1][0].current) != key:
                turns.append((state, seat, []))
            turns[-1][2].append(text)
        state = apply(state, action).state
    judge = ExpertPolicy(seed, extra_turns=0)  # the hint's search (see _expert_hint)
    found: list[Mistake] = []
    for before, seat, played in turns:
        actions = tuple(parse_action(t) for t in played)
        analysis = judge.analyse(before, forced=[actions])
        mine = analysis.value_of("forced")
        best = analysis.best
        if mine is None or best.source == "forced":
            cost = 0.0
        else:
            cost = max(0.0, best.margin - mine.margin)
        better = tuple(str(a) for a in best.actions)
        found.append(Mistake(seat, before.round, before.turn, tuple(played), better, round(cost, 2),
                             serialisation.dumps(before)))
    return found


# -- the pool ------------------------------------------------------------------------------------


def _log_failed_warm_up(future: Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("an AI worker's warm-up failed: %r", future.exception())


class Thinker:
    """Runs the functions above in a lazily started process pool of ``workers`` processes."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._warming: list[Future[None]] = []

    def _executor(self) -> ProcessPoolExecutor:
        """The pool, started with every worker at once, each sent :func:`warm_worker` first.

        Why: a spawn pool starts a worker only when a job finds none idle, so the second worker
        used to start inside the first AI turn that overlapped another search (or raced the
        first's end): its start and imports, seconds on a busy machine, were spent inside that
        turn's wall-clock budget (a 5.4 s turn of ``python -m bench waits``)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            self._warming = [self._pool.submit(warm_worker) for _ in range(self.workers)]
            for future in self._warming:
                future.add_done_callback(_log_failed_warm_up)
        return self._pool

    async def ready(self) -> None:
        """Start the pool (if it is not) and wait for its workers' warm-up: a bench that times
        AI turns calls this first, so it measures the bot after start-up."""
        self._executor()
        await asyncio.gather(*(asyncio.wrap_future(future) for future in self._warming))

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._executor(), function, *args)
            except BrokenProcessPool:
                log.warning("the AI process pool broke (attempt %d); starting a new one", attempt)
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def move(
        self, state: GameState, seed: int, policy: str = "strong", deadline: float | None = None,
    ) -> tuple[str, ...]:
        """:func:`policy_move` in a worker; ``deadline`` on :data:`WALL_CLOCK` (None: none)."""
        return await self.run(policy_move, serialisation.dumps(state), seed, policy, deadline)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
