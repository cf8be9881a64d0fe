"""The strong policy: whole-turn plans, scored by playing the game out over re-dealt decks.

How a decision is made (:meth:`StrongPolicy.analyse`):

1. **Candidates are whole turns.** From the current state a beam search walks the rest of the turn
   (up to three actions, plus any pending decision the rules raise on the way) through
   :func:`~engine.legal.legal_actions` — generically, so a variant's own actions (``Choose``, Ghost,
   Finesse...) are planned like any other. Each step is pruned to the moves worth trying (every
   take and draw, level-1, upgrades to a shape a puzzle wants, placements on a fewest-pieces
   filling, greedy's Master, the first few of any action kind this module does not know), and the
   beam keeps the partial turns that a static evaluation (:func:`static_value`: points banked,
   puzzles in hand by how far along they are, pieces by level) likes best. A plan ends early
   after an action that puts a card nobody had seen into the player's hands (a blind draw): what
   follows depends on a card the player does not know yet, so the rollout policy plays the rest
   of that turn.
2. **The best few plans, plus greedy's own turn, are played out** to the end of the game with
   :class:`~engine.policies.GreedyPolicy` in every seat, each rollout on a different re-deal of
   the hidden decks (:func:`~engine.policies.hidden.redeal`). Every plan sees the same re-deals
   and the same rollout seeds (common random numbers), so plans are compared on equal luck.
   Rollouts are shared out by successive halving: every plan gets a few, the better half gets
   more, and so on.
3. **The plan with the best mean value wins**; value = final margin (own score minus the best
   other score, the mastermind's in Solo) plus ``win_bonus`` for a win. The policy then plays that
   plan's actions on its next calls without searching again, unless something new was revealed
   (a refill after a take): then it searches again with what it now sees.

**Hidden information.** The search never reads the real decks, nor — with the table option
``known_scores`` off — the other players' score piles (:func:`engine.visibility.hidden_scores`):
every state it looks at is a re-deal (:func:`~engine.policies.hidden.redeal`, as the player to act
sees the table) drawn from the cards that player cannot see, seeded by the policy's seed and the
state's own ``rng_state`` (which depends on neither). Two states that differ only in the hidden
order of their decks, or in what the hidden score piles hold, get the same decision (tested).

**Budget.** A search spends ``work`` playout actions: the first round of rollouts (one per plan)
measures how long a playout is from here, and the search plays as many rollouts as ``work`` pays
for at that length, never fewer than ``rollouts`` nor more than ``max_rollouts``. An opening
playout runs some 75 actions, so an opening decision gets about 32 rollouts; a playout near the
end is a handful of actions, so the decisions that settle close games get up to eight times as
many for the same CPU. The count depends only on the state and the seed (playout lengths are
deterministic), so a decision is deterministic for a seed. ``work=0`` plays exactly ``rollouts``
(the post-game review and the tests' small budgets do). ``should_stop`` (a
:data:`~engine.policies.policy.StopCheck`, asked before each plan-search step and each
rollout) can end a search early: it then decides on the rollouts every plan still in the running
has had on every world it finished (a world stopped half-way is dropped; greedy's turn when no
world was finished). An AI seat passes a wall-clock deadline
(bot/core/play/thinking.py), so its choice can then depend on the machine's speed; nothing else
does. The defaults keep a search under about 0.5 s of CPU on the development machine (measured
by ``python -m bench engine``, ``strong_decision_p95_s``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from math import fsum

from ..actions import Action
from ..errors import IllegalActionError
from ..game import apply, opponent_score, winners
from ..legal import legal_actions, master_options
from ..pieces import SHAPES
from ..rng import Rng
from ..rules import score_line, score_lines
from ..state import GameState
from .candidates import step_candidates
from .fillings import pieces_to_fill
from .greedy import GreedyPolicy
from .hidden import redeal, visible_cards
from .kept_turn import KeptTurn
from .policy import StopCheck, never_stop

ROLLOUT_TURN_CAP = 600
"""Player turns after which a rollout stops and is scored as it stands (a stalled table): the
default ``horizon``."""
WORK = 2500
"""Playout actions a search may spend (the default ``work``): about 32 rollouts of an opening
position, where a rollout plays some 75 actions to the end."""
MAX_PLAN_ACTIONS = 6
"""Actions a plan may hold: three per turn, plus pending decisions raised along the way."""


@dataclass(frozen=True, slots=True)
class PlanValue:
    """One candidate turn and what the rollouts made of it."""

    actions: tuple[Action, ...]
    value: float
    """Mean rollout value: margin plus ``win_bonus`` per win."""
    margin: float
    """Mean final margin (own score minus the best other score)."""
    wins: float
    """Fraction of rollouts won."""
    rollouts: int
    source: str = "search"
    """"search", "greedy" (greedy's own turn) or "forced" (a plan the caller asked to score)."""


@dataclass(frozen=True, slots=True)
class Analysis:
    """The result of one search: the plans scored, best first (compared on equal rollouts)."""

    seat: int
    plans: tuple[PlanValue, ...]
    rollouts: int
    capped: bool
    """True when ``should_stop`` ended the search before its budget was spent."""

    @property
    def best(self) -> PlanValue:
        return self.plans[0]

    def value_of(self, source: str) -> PlanValue | None:
        for plan in self.plans:
            if plan.source == source:
                return plan
        return None


def mixed_seed(*parts: int) -> int:
    """A 64-bit seed from several integers (one SplitMix64 step per part): every searching policy
    derives its re-deals and rollouts' seeds with it, so the same position always plays the same."""
    rng = Rng(0x5EED)
    for part in parts:
        rng.state ^= part & ((1 << 64) - 1)
        rng.next_u64()
    return rng.next_u64()


def _reward_level(card: object) -> int:
    return int(getattr(getattr(card, "reward", None), "level", 1))


def static_value(state: GameState, seat: int) -> float:
    """A quick estimate of how well ``seat`` stands, in points, for pruning turn plans.

    Banked points count in full. A puzzle in hand counts a share of its points that grows as it
    fills (and less for every piece still needed), plus a little for its reward; near the end a
    puzzle that cannot be finished counts against. Pieces count by level: bigger pieces are
    tempo (one action places more cells).
    """
    player = state.players[seat]
    line = score_line(state, seat)
    value = float(line.completed_points - line.finishing_penalty)
    cards = state.cards
    for puzzle in player.puzzles:
        card = cards[puzzle.card]
        free = card.recess & ~puzzle.filled
        need = pieces_to_fill(free)
        done = 1.0 - free.bit_count() / max(1, card.recess.bit_count())
        value += card.points * (0.3 + 0.5 * done) - 0.35 * need + 0.3 * _reward_level(card)
    for shape in SHAPES:
        count = player.supply[shape.index]
        if count:
            value += count * (0.2 + 0.15 * shape.level)
    return value


def _hashable(value: object) -> object:
    """``value`` as something hashable: a mapping (an expansion's ``ext`` data) becomes its sorted
    items, recursively; anything else is returned as it is."""
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def position_key(state: GameState) -> tuple[object, ...]:
    """Everything but the card catalogue: equal keys, same position (the turn searches merge
    transpositions by it)."""
    return tuple(_hashable(getattr(state, f.name)) for f in fields(state) if f.name != "cards")


class StrongPolicy:
    """Plans whole turns and scores them by seeded rollouts over re-dealt decks (see the module).

    ``rollouts``: playouts per search, at least (deterministic). ``work``: playout actions a
    search may spend; when the first rollouts show a playout is short (late in the game), the
    search plays as many more as that pays for, up to ``max_rollouts`` (0 turns this off:
    exactly ``rollouts``). ``plans``: candidate turns
    that reach the rollouts (greedy's turn is always one more). ``beam``: partial turns kept per
    step of the plan search. ``should_stop``: asked between slices of the search, True ends it
early (see the module; default: never). ``win_bonus``:
    points a win is worth on top of the margin. ``rollout_policy``: builds the policy every seat
    plays in a rollout, from a seed (greedy by default). ``horizon``: player turns a rollout plays
    before it is scored as it stands (the default plays to the end; a short one is a cheap budget
    for checks that need many games, such as ``python -m engine sweep``, not for strength).
    """

    name = "strong"

    def __init__(
        self, seed: int = 0, *, rollouts: int = 32, work: int = WORK, max_rollouts: int = 256,
        plans: int = 6, beam: int = 8, should_stop: StopCheck = never_stop, win_bonus: float = 6.0,
        rollout_policy: Callable[[int], GreedyPolicy] | None = None, horizon: int = ROLLOUT_TURN_CAP,
    ) -> None:
        self.seed = seed
        self.rollouts = rollouts
        self.work = work
        self.max_rollouts = max_rollouts
        self.plans = plans
        self.beam = beam
        self.should_stop = should_stop
        self.win_bonus = win_bonus
        self.horizon = horizon
        self._rollout_policy = rollout_policy or GreedyPolicy
        self._pruner = GreedyPolicy(seed)
        self._kept = KeptTurn()
        self._stopped = False
        self.last: Analysis | None = None
        """The last search (None until one ran)."""
        self.searches = 0

    # -- playing -------------------------------------------------------------------------------
    def choose(self, state: GameState) -> Action:
        """The next action: the rest of the planned turn while nothing new has been seen, else
        the first action of a fresh search."""
        kept = self._kept.next(state)
        if kept is not None:
            return kept
        actions = legal_actions(state)
        if len(actions) == 1 and master_options(state) is None:
            return actions[0]
        best = self.analyse(state).best.actions
        return self._kept.start(state, best)

    @property
    def planned(self) -> tuple[Action, ...]:
        """The rest of the turn this policy means to play after the action it just chose (empty
        when that action revealed a card: the next call searches again)."""
        return self._kept.rest


    # -- searching -------------------------------------------------------------------------------
    def analyse(
        self, state: GameState, *, forced: Sequence[tuple[Action, ...]] = (), rollouts: int | None = None,
    ) -> Analysis:
        """Score candidate turns for the player to act in ``state`` (see the module docstring).

        ``forced`` plans are scored too (source "forced"), e.g. the turn a player really played,
        for the post-game review; ``rollouts`` overrides the budget for this search.
        """
        budget = self.rollouts if rollouts is None else rollouts
        seat = state.current
        base = mixed_seed(self.seed, state.rng_state, state.round, state.turn, seat, state.actions_left)
        root = redeal(state, Rng(base), seat)
        candidates: list[tuple[tuple[Action, ...], str]] = []
        seen_plans: set[tuple[Action, ...]] = set()

        def add(plan: tuple[Action, ...], source: str) -> None:
            if plan and plan not in seen_plans:
                seen_plans.add(plan)
                candidates.append((plan, source))

        self._stopped = False
        for plan in forced:
            add(tuple(plan), "forced")
        add(self._greedy_turn(root, seat, base), "greedy")
        for plan in self._search_plans(root, seat):
            add(plan, "search")
        worlds: list[GameState] = []
        results: list[list[tuple[float, float, bool]]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        spent = plies = 0
        capped = self._stopped

        def play_world(index: int) -> bool:
            """One more rollout on world ``index`` for every plan alive; False when capped."""
            nonlocal spent, plies
            while len(worlds) <= index:
                worlds.append(redeal(state, Rng(mixed_seed(base, len(worlds) + 1)), seat))
            for played, c in enumerate(alive):
                if self.should_stop():  # the world's rollouts so far are dropped: equal counts
                    for d in alive[:played]:
                        del results[d][index:]
                    spent -= played
                    return False
                result, length = self._rollout(worlds[index], candidates[c][0], seat, base + index)
                results[c].append(result)
                spent += 1
                plies += length
            return True

        if len(candidates) > 1 and not capped:
            capped = not play_world(0)
            if not capped and rollouts is None:
                budget = self._budget_for(plies / max(1, spent))
            rounds = max(1, (len(candidates) - 1).bit_length())
            for round_no in range(rounds):
                if capped:
                    break
                left_rounds = rounds - round_no
                per = max(0 if round_no == 0 else 1, (budget - spent) // (len(alive) * left_rounds))
                if round_no == rounds - 1:
                    per = max(1, (budget - spent) // len(alive))
                for _ in range(per):
                    if not play_world(len(results[alive[0]])):
                        capped = True
                        break
                if capped or len(alive) <= 1:
                    break
                if round_no < rounds - 1:
                    alive.sort(key=lambda c: -self._mean(results[c])[0])
                    keep = max(1, (len(alive) + 1) // 2)
                    forced_alive = [c for c in alive[keep:] if candidates[c][1] == "forced"]
                    alive = alive[:keep] + forced_alive
        scored = []
        for i, (plan, source) in enumerate(candidates):
            value, margin, wins = self._mean(results[i])
            scored.append(PlanValue(plan, value, margin, wins, len(results[i]), source))
        # Most rollouts first (they are compared on the same re-deals), then value; greedy's turn
        # and forced plans first on a tie, so a plan must be better to replace them.
        order = {"forced": 0, "greedy": 1, "search": 2}
        scored.sort(key=lambda p: (-p.rollouts, -p.value, order[p.source]))
        analysis = Analysis(seat, tuple(scored), spent, capped)
        self.last = analysis
        self.searches += 1
        return analysis

    def _budget_for(self, plies_per_rollout: float) -> int:
        """Rollouts for this search: as many as ``work`` playout actions pay for at the length the
        first rollouts measured, between ``rollouts`` and ``max_rollouts``. Late in the game a
        playout is short, so the decisions that settle close games get many more rollouts for
        the CPU an opening decision spends on ``rollouts``; deterministic, as the lengths are."""
        if self.work <= 0:
            return self.rollouts
        wanted = int(self.work / max(1.0, plies_per_rollout))
        return max(self.rollouts, min(self.max_rollouts, wanted))

    @staticmethod
    def _mean(results: list[tuple[float, float, bool]]) -> tuple[float, float, float]:
        if not results:
            return 0.0, 0.0, 0.0
        n = len(results)
        value, margin, wins = (fsum(column) / n for column in zip(*results, strict=True))
        return value, margin, wins

    def _greedy_turn(self, root: GameState, seat: int, seed: int) -> tuple[Action, ...]:
        """The turn greedy would play from ``root`` (stopping, like every plan, at a blind card)."""
        greedy = self._rollout_policy(seed)
        visible = visible_cards(root, seat)
        plan: list[Action] = []
        state = root
        start = (state.turn, seat)
        while len(plan) < MAX_PLAN_ACTIONS and not state.is_over and (state.turn, state.current) == start:
            action = greedy.choose(state)
            plan.append(action)
            state = apply(state, action).state
            if self._reveals_to(state, seat, visible):
                break
        return tuple(plan)

    @staticmethod
    def _reveals_to(state: GameState, seat: int, visible: frozenset[str]) -> bool:
        """True when ``seat`` now holds a card that was not visible when the plan started."""
        return any(p.card not in visible for p in state.players[seat].puzzles)

    def _search_plans(self, root: GameState, seat: int) -> list[tuple[Action, ...]]:
        """The ``plans`` best whole turns by :func:`static_value`, found by a beam search."""
        visible = visible_cards(root, seat)
        start = (root.turn, seat)
        frontier: list[tuple[tuple[Action, ...], GameState]] = [((), root)]
        finished: dict[tuple[object, ...], tuple[float, tuple[Action, ...]]] = {}
        for _ in range(MAX_PLAN_ACTIONS):
            children: dict[tuple[object, ...], tuple[float, tuple[Action, ...], GameState]] = {}
            for plan, state in frontier:
                if self.should_stop():  # decide on the whole turns found so far
                    self._stopped = True
                    return [plan for _, plan in sorted(finished.values(), key=lambda c: -c[0])[: self.plans]]
                for action in step_candidates(state, self._pruner):
                    try:
                        after = apply(state, action).state
                    except IllegalActionError:
                        continue
                    steps = plan + (action,)
                    key = position_key(after)
                    value = static_value(after, seat)
                    ended = (
                        after.is_over or (after.turn, after.current) != start
                        or self._reveals_to(after, seat, visible) or len(steps) == MAX_PLAN_ACTIONS
                    )
                    if ended:
                        if key not in finished or finished[key][0] < value:
                            finished[key] = (value, steps)
                    elif key not in children or children[key][0] < value:
                        children[key] = (value, steps, after)
            if not children:
                break
            best = sorted(children.values(), key=lambda c: -c[0])[: self.beam]
            frontier = [(steps, after) for _, steps, after in best]
        else:
            for plan, state in frontier:
                finished.setdefault(position_key(state), (static_value(state, seat), plan))
        ranked = sorted(finished.values(), key=lambda c: -c[0])
        return [plan for _, plan in ranked[: self.plans]]

    # -- rollouts --------------------------------------------------------------------------------
    def _rollout(
        self, world: GameState, plan: tuple[Action, ...], seat: int, seed: int
    ) -> tuple[tuple[float, float, bool], int]:
        """The outcome of playing ``plan`` then greedy to the end on ``world``, and the number of
        actions that took (the work the budget counts)."""
        state = world
        length = 0
        for action in plan:
            try:
                state = apply(state, action).state
            except IllegalActionError:
                break
            length += 1
        policies = [self._rollout_policy(mixed_seed(seed, s)) for s in range(len(state.players))]
        cap = state.turn + self.horizon
        while not state.is_over and state.turn <= cap:
            state = apply(state, policies[state.current].choose(state)).state
            length += 1
        return self._outcome(state, seat), length

    def _outcome(self, state: GameState, seat: int) -> tuple[float, float, bool]:
        scores = [line.total for line in score_lines(state)]
        others = [s for i, s in enumerate(scores) if i != seat and not state.players[i].removed]
        rival = opponent_score(state)
        if rival is not None:
            others.append(rival)
        margin = float(scores[seat] - max(others)) if others else float(scores[seat])
        won = state.is_over and seat in winners(state)
        return margin + self.win_bonus * won, margin, won
