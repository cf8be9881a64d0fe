"""The expert policy: whole-turn search guided by a position evaluation, over re-dealt decks.

Where the strong policy (:mod:`.strong`) scores a few candidate turns by playing the game out with
greedy in every seat, the expert scores more candidate turns by looking one turn round the table
and reading the position with an evaluation (:func:`evaluate`) — the issue's probe found that the
long greedy rollouts buy little beyond that, and greedy is an exact model of nobody but greedy.

How a decision is made (:meth:`ExpertPolicy.analyse`):

1. **Worlds.** The hidden cards — the decks' order and, with ``known_scores`` off, the other score
   piles — are re-dealt ``worlds`` times from the cards the player to act cannot see
   (:func:`~engine.policies.hidden.redeal`), each world seeded from the policy's seed and the
   position's public fields (so the same position gives the same decision, and two positions
   that differ only in hidden cards give the same one).
2. **Candidate turns.** A beam search on the first world walks the rest of the turn (up to three
   actions, Master, pending decisions, a variant's own actions) through
   :func:`~engine.legal.legal_actions`, each step pruned as the strong policy prunes it, ranked by
   :func:`evaluate`; the best ``plans`` whole turns, plus greedy's own turn, go on (in the last
   turns also every take with greedy's rest of the turn: :meth:`ExpertPolicy._closing_takes`).
   A plan stops at a blind draw (what follows depends on a card the player does not know yet).
3. **Lines.** Each candidate is played on every world (the same worlds for every candidate:
   common random numbers): the rest of its turn if it stopped at a blind card, then every other
   seat's reply turn until the player is to act again, each reply chosen action by action by the
   same evaluation from the replying seat's side (greedy-by-evaluation); once the node budget for
   the line is spent, greedy answers instead. At two players the line then plays one more own
   turn by greedy and another reply round (:data:`DUEL_TURNS`); in Solo four more own turns, each
   with the mastermind's reply (:data:`SOLO_TURNS`), the mastermind's pick the engine's own.
   When the end has been triggered, the line is played out to the end (greedy in every seat, with
   its Finishing Touches) and scored by the real score; otherwise by the evaluation's margin (own
   value minus the best other seat's, or the mastermind's score).
4. **The best mean wins**, and the policy plays that plan's actions on its next calls without
   searching again, unless something new was revealed (then it searches again).

**The evaluation** (:func:`evaluate`, its weights an :class:`ExpertWeights`): banked points, less
Finishing Touches pieces; each open puzzle by what finishing it is worth (points, its reward
piece, the pieces lying on it that come back) less the actions it still costs at
``action_value`` points an action (placements — cheaper with Master when two or more puzzles are
open — plus fetching the pieces of its cheapest filling that the supply lacks), weighted by how
likely it is to be finished in the actions left (the puzzles taken cheapest first against the
actions the player has before the end: exact once the end is triggered or Finesse's tile row
says when play ends, else estimated from how far the black deck has run); an unfinished puzzle
counts its penalty, or what Finishing Touches would save of it from the supply. Pieces count by
level, fading to nothing as the end nears; Finesse credits count a little. Everything but the
banked points is then weighted by ``potential`` (a half): in real games a puzzle in hand or a
piece turned out worth about that share of what these terms say, banked points nearly all.

**Budget** (deterministic, no clock): ``nodes`` states applied per decision. The beam search takes
what it needs (a few hundred), and the lines share the rest, each replying by evaluation while it
has budget left and by greedy after. The CPU time is therefore bounded by the node count (the
bench's ``expert_decision_p95_s``).

**Stopping early** (``should_stop``, a :data:`~engine.policies.policy.StopCheck`; an AI seat passes
a wall-clock deadline, bot/core/play/thinking.py): it is asked before each beam step, each closing
take and each line. The work is ordered so that a search stopped at any moment still decides well:
greedy's turn first, then the beam's plans best first, each scored on every world before the next
is started; a stopped search compares only the candidates scored on every world, so its choice
is what the whole search would have chosen among those. Stopped before one was, it ranks the
candidates as the beam does (:func:`_plan_value` where each turn ends on the first world): the
league's ``planner`` (bench/league.py), which plays about as well as the whole search, is that ranking checked
against greedy's turn. A search never stopped does exactly what it did without the check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import fsum

from ..actions import Action
from ..errors import IllegalActionError
from ..expansions.base import mastermind_takes
from ..expansions.finesse import view
from ..game import apply, opponent_score, winners
from ..legal import legal_actions, master_options
from ..pieces import SHAPES, Shape, shape_of_mask
from ..rng import Rng
from ..rules import score_line, score_lines
from ..solver import solve
from ..state import ACTIONS_PER_TURN, GameState, Phase, SoloTable
from .candidates import step_candidates
from .credits import turns_after_this
from .fillings import finish_cost
from .greedy import GreedyPolicy
from .greedy_answers import finishing_touch
from .hidden import redeal, visible_cards
from .kept_turn import KeptTurn
from .mastermind import mastermind_points
from .outlook import progress
from .policy import StopCheck, never_stop
from .strong import Analysis, PlanValue, mixed_seed, position_key

__all__ = [
    "DUEL_TURNS", "EXPERT_WEIGHTS", "ExpertPolicy", "ExpertWeights", "evaluate", "evaluation_parts",
    "evaluation_terms", "expected_actions", "projected_mastermind",
]

NODES = 2000
"""States a decision may apply (the default ``nodes``)."""
MAX_PLAN_ACTIONS = 6
"""Actions a plan may hold: three per turn, plus pending decisions raised along the way."""
REPLY_CAP = 40
"""Actions a line plays for the other seats before it is scored as it stands."""
PLAYOUT_CAP = 400
"""Actions a line plays after the end is triggered before it is scored as it stands."""
SOLO_TURNS = 4
"""Solo: the player's own turns a line plays by greedy after the plan's (each followed by the
mastermind's), before it is scored: the mastermind's picks and its locks' moves are exact and
cheap, and what a turn does to them shows only a few turns later. Normal, 200 games on seeds
7,000,000+ with six worlds: 2 turns 46.5 %, 4 turns 69.0 %; 6 and 8 no better."""
SOLO_CLOSING_DECK = 6
"""Solo: cards left in the deck at or below which every take is a candidate turn too
(:meth:`ExpertPolicy._closing_takes`); once the end is triggered, always. Paired, 100 games a
setting: Normal (seeds 13,600,000+) at 2 cards 72 %, 4 89 %, 6 87 % (mean margins +2.32, +3.45,
+3.81); Unbeatable (13,500,000+) without the takes 10 %, at 2 12 %, 4 15 %, 6 15 % (−4.24,
−3.93, −3.37, −3.01). 6 for its margins."""
CLOSING_BLACK_DECK = 6
"""Two or more players: black puzzles left in the deck at or below which every take is a
candidate turn too, as in Solo (:meth:`ExpertPolicy._closing_takes`; the same blind spot: a lone
take the turn's last actions finish reads as a loss to the evaluation). Paired, 100 games a
setting at two players, fresh deals: against Strong (seeds 14,000,000+) 86 % -> 96 %, mean margin
+2.33 +- 0.60 a game; against greedy (14,100,000+) 96 % -> 96 %, +2.03 +- 0.66."""
DUEL_TURNS = 1
"""Two players: the own turns a line plays by greedy after the plan's and its reply round, each
followed by another reply round, before it is scored. What a turn sets up (a puzzle nearly done,
the pieces for the next) shows in the evaluation only once it is played; Solo's lines gained most
from the same (:data:`SOLO_TURNS`). Against Strong, paired deals and seats, 0 -> 1: tuning deals
(seeds 8,000,000+, 40 games) 77.5 % -> 87.5 %, paired margin +0.55 +- 1.09; held out, 40 games
each, 9,000,000+ 67.5 % -> 80.0 % (+2.48 +- 1.05) and 1,200,000+ 77.5 % -> 90.0 % (+2.00 +- 1.06);
about the same CPU a game, the node budget bounds it. Tables of three
or more keep 0: not measured there. Hints and reviews keep 0 too (``extra_turns=0`` in
:mod:`bot.core.play.thinking`): with it, the hint bench's regret budget failed (4 of 100 positions
over 2 points, budget 3; 1 without)."""
TURNS_PRIOR = {1: 12.5, 2: 10.0, 3: 9.0, 4: 8.5, 5: 7.0, 6: 7.8}
"""Turns a seat plays in a whole game, by players (greedy games, 20 each): the prior for how
many turns are left while no end is in sight."""


@dataclass(frozen=True, slots=True)
class ExpertWeights:
    """The evaluation's numbers (see :func:`evaluate`)."""

    action_value: float = 0.45
    """Points one action is worth (what the actions a puzzle still costs are charged at)."""
    fetch_per_level: float = 0.8
    """Actions per level to fetch a piece a puzzle's cheapest filling needs and the supply lacks
    (a level-3 piece: a level-1 piece and two upgrades, less what spare pieces save)."""
    master_place: float = 0.8
    """Actions per placement while two or more puzzles are open (Master places several)."""
    ramp: float = 2.5
    """Actions over which a puzzle goes from surely finished to surely not, against the time left."""
    piece_base: float = 0.15
    """Value of a piece in supply, plus ``piece_level`` per level, while the end is far."""
    piece_level: float = 0.35
    piece_horizon: float = 9.0
    """Actions left below which pieces (and rewards) fade linearly to nothing."""
    useful_pieces: int = 7
    """Pieces in supply counted in full (the most valuable first); the rest at ``extra_piece``."""
    extra_piece: float = 0.4
    credit_value: float = 0.25
    """Finesse: points per credit held."""
    win_bonus: float = 6.0
    """Points a win is worth on top of the margin, when a line plays to the end."""
    potential: float = 0.5
    """Weight of everything not banked yet (open puzzles, pieces, credits) against banked points,
    at tables of two or more players (Solo counts it in full: it was not fitted there). One factor
    on all of them keeps their trade-offs with each other (a piece against an action against a
    placement) as they were; it only makes the expert bank points sooner and hoard less. How it
    was chosen: :data:`EXPERT_WEIGHTS`."""
    piece_potential: float | None = None
    """Weight of the pieces in supply (and Finesse credits) at tables of two or more players,
    apart from the open puzzles' ``potential``; None: ``potential`` too, the same arithmetic as
    before it existed. A knob for tuning: 0.2 and 0.8 both lost to None (:data:`EXPERT_WEIGHTS`)."""
    mastermind_rate: float = 1.5
    """Solo: points the mastermind is expected to take in each of its turns after the next (see
    :func:`projected_mastermind`)."""


EXPERT_WEIGHTS = ExpertWeights()
"""The weights the expert plays with.

``potential`` 0.5 (2026-12-03, issue 29): fitted from positions, then checked in games.
``tools/fit_expert.py`` regresses the final margin of Expert–Strong games on the evaluation's
banked and unbanked differences between the two seats. On 80 games (seeds 8,000,000–8,000,039,
each deal played from both seats, the expert at ``potential`` 1, 3,900 turn-start positions) a
point of unbanked value was worth 0.21 of a banked point (bootstrap over games, 10th–90th
percentile 0.13–0.33; 0.20 in the last nine actions alone). 0.5 goes halfway: the fit's own
terms are noisy, which biases it towards 0. Same deals, same seats, before -> after: against
Strong 62.5 % -> 75.0 % of 80 (mean margin +1.45 -> +3.39; 15 games turned to wins, 5 to
losses); against greedy 77.5 % -> 95.0 % of 40 (seeds 8,100,000–8,100,019). Only this one
setting was played; a lower ``potential`` (the fit says 0.2) is the next to try.

The others were chosen on 2-player games against greedy dealt from seeds 5,000–5,015 (never the
bench's), 16 games a setting: ``action_value`` 0.6 (with ``master_place`` 0.7, ``ramp`` 3) won
10; 0.8 (0.85, 2) won 2 of the first 14 (stopped there); 0.45 (0.8, 2.5) won 13; 0.3 (0.8, 2.5)
won 10. A coarse search: more games would likely find better numbers.

Checked again against Strong (2026-12-04, the league's ``planner``, ``ExpertPolicy(worlds=1, plans=1,
nodes=0)`` on the same 40 paired tuning deals from 8,000,000, shipped weights 85.0 %, mean margin
+4.03): ``action_value`` 0.6 72.5 % (+2.33), 0.35 62.5 % (+1.78); ``win_bonus`` 12 85.0 %
(+4.08, almost no game changed); ``piece_potential`` 0.2 62.5 %, 0.8 60.0 % (+0.90), although a
regression of margins on the evaluation's parts gave pieces 0.01 of a banked point (a fixed-point
trap; the tuning runs: `git show c8a416e:docs/engine.md`, section 7). None ships;
``piece_potential`` stays None. ``useful_pieces`` 5 against 7 (issue 50's early level-1 takes; 30
paired games against greedy, seeds 16,500,000+): 100 % both, paired margin −0.43 ± 1.03, 0.93
level-1 takes a game against 1.10; not kept."""


def expected_actions(state: GameState, seat: int) -> float:
    """Actions ``seat`` still has before play ends: exact once the end is in sight
    (:func:`~engine.policies.credits.turns_after_this`), else estimated from how far the black
    deck (Solo: the deck) has run against :data:`TURNS_PRIOR`."""
    if state.phase is not Phase.PLAY:
        return 0.0
    now = state.actions_left if seat == state.current else 0
    turns = turns_after_this(state, seat)
    if turns is not None:
        return float(now + ACTIONS_PER_TURN * turns)
    prior = TURNS_PRIOR.get(len(state.players), 8.0)
    left = max(1.0, (1.0 - progress(state)) * prior)
    return now + ACTIONS_PER_TURN * left


@lru_cache(maxsize=1 << 16)
def _filling_shapes(free: int) -> tuple[Shape, ...]:
    """The shapes of one fewest-pieces filling of ``free``, biggest first."""
    masks = solve(free) or []
    found = [shape_of_mask(m) for m in masks]
    return tuple(sorted((s for s in found if s is not None), key=lambda s: -s.level))


def _piece_value(shape: Shape, w: ExpertWeights) -> float:
    return w.piece_base + w.piece_level * shape.level


def evaluate(state: GameState, seat: int, w: ExpertWeights = EXPERT_WEIGHTS) -> float:
    """How well ``seat`` stands, in points (see the module): the final score once the game is over."""
    if w.piece_potential is None or len(state.players) == 1:
        banked, unbanked = evaluation_terms(state, seat, w)
        # Solo keeps the unbanked value in full: ``potential`` was fitted on two-player games only.
        return banked + (w.potential if len(state.players) > 1 else 1.0) * unbanked
    banked, puzzles, pieces = evaluation_parts(state, seat, w)
    return banked + w.potential * puzzles + w.piece_potential * pieces


def evaluation_terms(state: GameState, seat: int, w: ExpertWeights = EXPERT_WEIGHTS) -> tuple[float, float]:
    """:func:`evaluate`'s two parts: the points banked (the final score once the game is over) and
    the value of what is not banked yet before ``potential`` weights it (open puzzles, pieces,
    credits; 0 once over). Apart so that ``tools/fit_expert.py`` can fit ``potential`` from games."""
    banked, puzzles, capital, credits = _parts(state, seat, w)
    return banked, puzzles + capital + credits  # the sum in the order it always was: the same bits


def evaluation_parts(
    state: GameState, seat: int, w: ExpertWeights = EXPERT_WEIGHTS
) -> tuple[float, float, float]:
    """:func:`evaluate`'s three parts before any ``potential`` weights them: the points banked, the
    open puzzles' value and the pieces' (with Finesse credits). Apart so that
    ``tools/try_expert.py`` can regress games' margins on each."""
    banked, puzzles, capital, credits = _parts(state, seat, w)
    return banked, puzzles, capital + credits


def _parts(state: GameState, seat: int, w: ExpertWeights) -> tuple[float, float, float, float]:
    """Banked points, open puzzles' value, pieces' value, credits' value (see :func:`evaluate`)."""
    player = state.players[seat]
    line = score_line(state, seat)
    if state.phase is Phase.OVER:
        return float(line.total), 0.0, 0.0, 0.0
    banked = float(line.completed_points - line.finishing_penalty)
    value = 0.0
    left = expected_actions(state, seat)
    fade = min(1.0, left / w.piece_horizon)
    supply = player.supply
    spare = list(supply)
    cards = state.cards
    penalty = state.options.unfinished_penalty
    place_cost = w.master_place if len(player.puzzles) >= 2 else 1.0
    entries: list[tuple[float, int, float, int | None]] = []
    frees = sorted(
        ((cards[p.card].recess & ~p.filled, p) for p in player.puzzles), key=lambda fp: fp[0].bit_count()
    )
    for free, puzzle in frees:
        card = cards[puzzle.card]
        tiling = finish_cost(free, supply)
        shapes = _filling_shapes(free)
        fetch = 0.0
        for shape in shapes:  # the supply's pieces go to the puzzles nearest completion first
            if spare[shape.index] > 0:
                spare[shape.index] -= 1
            else:
                fetch += shape.level
        cost = len(shapes) * place_cost + fetch * w.fetch_per_level
        # fsum, not sum: exact, so the same position gets the same choice on every supported Python
        back = fsum(_piece_value(p.shape, w) for p in puzzle.pieces)
        reward = w.piece_base + w.piece_level * int(getattr(card.reward, "level", 1))
        gain = card.points + (reward + back) * fade - w.action_value * cost
        entries.append((cost, card.points, gain, None if tiling is None else len(tiling)))
    entries.sort(key=lambda e: (e[0], -e[1]))
    spent = 0.0
    for cost, points, gain, touches in entries:
        spent += cost
        chance = 0.0 if left <= 0 else min(1.0, max(0.0, (left - spent) / w.ramp + 0.5))
        lost = points if penalty else 0
        fail = float(-lost) if touches is None else float(max(-lost, points - touches))
        value += chance * gain + (1.0 - chance) * fail
    held = 0.0
    if fade > 0:
        pieces = sorted((_piece_value(s, w) for s in SHAPES for _ in range(supply[s.index])), reverse=True)
        capital = fsum(v if i < w.useful_pieces else v * w.extra_piece for i, v in enumerate(pieces))
        held = capital * fade
    finesse = view(state)
    credits = 0.0 if finesse is None else w.credit_value * finesse.credits(seat)
    return banked, value, held, credits


def projected_mastermind(state: GameState, seat: int, w: ExpertWeights = EXPERT_WEIGHTS) -> float | None:
    """Solo: the mastermind's expected final score, on the same footing as :func:`evaluate`'s
    player, who is credited with the puzzles it will probably finish; None outside Solo.

    Its score pile, plus the pick it would make from the grid as it stands (the engine's own,
    :func:`~engine.policies.mastermind.mastermind_points`: 0 when every column holding a card is
    locked), plus ``mastermind_rate`` (times its takes per turn) for each of its later turns. It
    moves after each of the player's turns, so it has as many turns left as the player: the
    player's expected actions (:func:`expected_actions`) less the current turn's, over three, plus
    the current one. Counting only its pile made every turn the player spends without ending the
    game look free, while the mastermind scores in each of them (issue 29: the Expert stalled and
    lost Solo to greedy's pace)."""
    table = state.table
    if not isinstance(table, SoloTable):
        return None
    pile = float(opponent_score(state) or 0)
    if state.phase is not Phase.PLAY:
        return pile
    takes = mastermind_takes(state.options)
    cards = state.cards
    points = [None if c is None else cards[c].points for c in table.grid]
    now = state.actions_left if seat == state.current else 0
    later = max(0.0, (expected_actions(state, seat) - now) / ACTIONS_PER_TURN)
    return pile + mastermind_points(points, table.locks, takes) + w.mastermind_rate * takes * later


def margin(state: GameState, seat: int, w: ExpertWeights = EXPERT_WEIGHTS) -> float:
    """``seat``'s evaluation less the best other seat's (in Solo the mastermind's projected final
    score, :func:`projected_mastermind`); at the end, the real margin plus ``win_bonus`` for a win."""
    if state.is_over:
        scores = [line.total for line in score_lines(state)]
        others = [s for i, s in enumerate(scores) if i != seat and not state.players[i].removed]
        rival = opponent_score(state)
        if rival is not None:
            others.append(rival)
        own = float(scores[seat] - max(others)) if others else float(scores[seat])
        return own + w.win_bonus * (seat in winners(state))
    mine = evaluate(state, seat, w)
    values = [
        evaluate(state, s, w) for s in range(len(state.players)) if s != seat and not state.players[s].removed
    ]
    projected = projected_mastermind(state, seat, w)
    if projected is not None:
        values.append(projected)
    return mine - max(values) if values else mine


def _plan_value(state: GameState, seat: int, w: ExpertWeights) -> float:
    """What the plan search ranks partial turns by: :func:`evaluate`, less in Solo the
    mastermind's projected score (:func:`projected_mastermind`), so that the candidate turns
    include ones that deny it its next pick or keep its columns locked; elsewhere the rivals are
    left to the lines' reply round."""
    projected = projected_mastermind(state, seat, w)
    value = evaluate(state, seat, w)
    return value if projected is None else value - projected


def _hand_reveal(state: GameState, seat: int, visible: frozenset[str]) -> bool:
    """True when ``seat`` now holds a card that was not visible when the plan started."""
    return any(p.card not in visible for p in state.players[seat].puzzles)


class ExpertPolicy:
    """Whole-turn search with an evaluation and one reply round, over re-dealt decks (see the module).

    ``worlds``: re-deals each candidate is played on. ``plans``: candidate turns beside greedy's.
    ``beam``: partial turns kept per step of the plan search. ``nodes``: states a decision may
    apply (the budget; no clock). ``weights``: the evaluation's :class:`ExpertWeights`.
    ``solo_turns``: Solo's own turns a line plays after the plan's (:data:`SOLO_TURNS`).
    ``extra_turns``: the same at two or more players, each own turn by greedy followed by a
    reply round; None: :data:`DUEL_TURNS` at two players, 0 (one reply round, then the
    evaluation) at more.
    ``solo_closing``: Solo's last turns try every take too (:meth:`_closing_takes`), from
    ``closing_deck`` cards left in the deck on (:data:`SOLO_CLOSING_DECK`).
    ``closing_black``: the same at two or more players, from that many black puzzles left in
    the deck on (:data:`CLOSING_BLACK_DECK`; 0: never).
    ``should_stop``: asked between slices of the search, True ends it early (see the module).
    """

    name = "expert"

    def __init__(
        self, seed: int = 0, *, worlds: int = 6, plans: int = 6, beam: int = 6, nodes: int = NODES,
        weights: ExpertWeights = EXPERT_WEIGHTS, solo_turns: int | None = None,
        extra_turns: int | None = None, solo_closing: bool = True, closing_deck: int = SOLO_CLOSING_DECK,
        closing_black: int = CLOSING_BLACK_DECK, should_stop: StopCheck = never_stop,
    ) -> None:
        self.seed = seed
        self.worlds = worlds
        self.plans = plans
        self.beam = beam
        self.nodes = nodes
        self.weights = weights
        self.solo_turns = SOLO_TURNS if solo_turns is None else solo_turns
        self.extra_turns = extra_turns
        self.solo_closing = solo_closing
        self.closing_deck = closing_deck
        self.closing_black = closing_black
        self.should_stop = should_stop
        self._pruner = GreedyPolicy(seed)
        self._kept = KeptTurn()
        self._spent = 0
        self._stopped = False
        self.last: Analysis | None = None
        """The last search (None until one ran)."""
        self.searches = 0

    # -- playing -------------------------------------------------------------------------------
    def choose(self, state: GameState) -> Action:
        """The rest of the planned turn while nothing new has been seen, else a fresh search."""
        kept = self._kept.next(state)
        if kept is not None:
            return kept
        if state.phase is Phase.FINISHING and not state.pending:
            return finishing_touch(state)
        actions = legal_actions(state)
        if len(actions) == 1 and master_options(state) is None:
            return actions[0]
        best = self.analyse(state).best.actions
        return self._kept.start(state, best)

    @property
    def planned(self) -> tuple[Action, ...]:
        """The rest of the turn this policy means to play after the action it just chose."""
        return self._kept.rest


    # -- searching -------------------------------------------------------------------------------
    def analyse(self, state: GameState, *, forced: Sequence[tuple[Action, ...]] = ()) -> Analysis:
        """Score candidate turns for the player to act in ``state`` (see the module).

        ``forced`` plans are scored too (source "forced", first on a tie), on the same worlds:
        the turn a player really played, for a review, or another search's advice, for the hint
        bench's regret."""
        seat = state.current
        base = mixed_seed(self.seed, state.rng_state, state.round, state.turn, seat, state.actions_left)
        worlds = [redeal(state, Rng(mixed_seed(base, i + 1)), seat) for i in range(max(1, self.worlds))]
        self._spent = 0
        self._stopped = False
        candidates: list[tuple[tuple[Action, ...], str]] = []
        seen: set[tuple[Action, ...]] = set()
        for plan, source in [(tuple(p), "forced") for p in forced] + [
            (self._greedy_turn(worlds[0], seat, base), "greedy")
        ] + [(plan, "search") for plan in self._search_plans(worlds[0], seat)] + [
            (plan, "search") for plan in self._closing_takes(worlds[0], seat, base)
        ]:
            if plan and plan not in seen:
                seen.add(plan)
                candidates.append((plan, source))
        if len(candidates) == 1:
            only = PlanValue(candidates[0][0], 0.0, 0.0, 0.0, 0, candidates[0][1])
            return self._done(Analysis(seat, (only,), 0, self._stopped))
        lines = len(candidates) * len(worlds)
        per_line = max(0, (self.nodes - self._spent) // lines)
        scored = []
        for plan, source in candidates:
            values = []
            for i, world in enumerate(worlds):
                if self._stop():
                    break
                values.append(self._line(world, plan, seat, mixed_seed(base, 100 + i), per_line))
            if len(values) < len(worlds):  # stopped: only the candidates scored on every world count
                break
            mean = fsum(values) / len(values)
            scored.append(PlanValue(plan, mean, mean, 0.0, len(values), source))
        if not scored:  # stopped before a candidate was scored on every world: the beam's ranking
            scored = [self._unscored(worlds[0], plan, source, seat) for plan, source in candidates]
        order = {"forced": 0, "greedy": 1, "search": 2}
        scored.sort(key=lambda p: (-p.value, order[p.source]))
        return self._done(Analysis(seat, tuple(scored), lines, self._stopped))

    def _unscored(self, world: GameState, plan: tuple[Action, ...], source: str, seat: int) -> PlanValue:
        """``plan`` valued as the beam search ranks whole turns (:func:`_plan_value` where it ends
        on ``world``), with no line played: what a search stopped before its lines decides by
        (0 worlds)."""
        state = world
        for action in plan:
            try:
                state = self._apply(state, action)
            except IllegalActionError:
                break
        value = _plan_value(state, seat, self.weights)
        return PlanValue(plan, value, value, 0.0, 0, source)

    def _stop(self) -> bool:
        """Ask ``should_stop`` (once it said yes, the search stays stopped)."""
        if not self._stopped and self.should_stop():
            self._stopped = True
        return self._stopped

    def _done(self, analysis: Analysis) -> Analysis:
        self.last = analysis
        self.searches += 1
        return analysis

    def _apply(self, state: GameState, action: Action) -> GameState:
        self._spent += 1
        return apply(state, action).state

    def _greedy_turn(
        self, root: GameState, seat: int, seed: int, first: Action | None = None
    ) -> tuple[Action, ...]:
        """The turn greedy would play from ``root`` (stopping, like every plan, at a blind card),
        or with ``first`` played first and greedy's rest of the turn after it."""
        greedy = GreedyPolicy(seed)
        visible = visible_cards(root, seat)
        plan: list[Action] = []
        state = root
        start = (state.turn, seat)
        if first is not None:
            try:
                state = self._apply(state, first)
            except IllegalActionError:
                return ()
            plan.append(first)
            if _hand_reveal(state, seat, visible):
                return tuple(plan)
        while len(plan) < MAX_PLAN_ACTIONS and not state.is_over and (state.turn, state.current) == start:
            action = greedy.choose(state)
            plan.append(action)
            state = self._apply(state, action)
            if _hand_reveal(state, seat, visible):
                break
        return tuple(plan)

    def _closing_takes(self, root: GameState, seat: int, seed: int) -> list[tuple[Action, ...]]:
        """With the end triggered, or at most ``closing_deck`` cards left in Solo's deck
        (``closing_black`` black puzzles at other tables): each take of a grid card with
        greedy's rest of the turn after it, beside the beam's plans.

        Why: on the last turns a puzzle taken and finished by placements and Finishing Touches is
        often the point that beats the mastermind (or the other players), but the beam ranks a
        lone take by the evaluation, which with no actions left to finish it reads it as a loss,
        so the plans held level-1 pieces and upgrades only (seed 13,000,001 at Normal: a tie
        where taking a black puzzle won 20–18). The lines there are short (they play to the end), so the extra
        candidates cost little."""
        table = root.table
        if isinstance(table, SoloTable):
            enabled, left, limit = self.solo_closing, len(table.deck), self.closing_deck
        else:
            enabled, left, limit = self.closing_black > 0, len(table.black_deck), self.closing_black
        if not enabled or not (root.end_triggered or left <= limit):
            return []
        return [
            self._greedy_turn(root, seat, seed, first=action)
            for action in legal_actions(root) if action.kind == "take" and not self._stop()
        ]

    def _search_plans(self, root: GameState, seat: int) -> list[tuple[Action, ...]]:
        """The ``plans`` best whole turns by :func:`evaluate`, found by a beam search."""
        w = self.weights
        visible = visible_cards(root, seat)
        start = (root.turn, seat)
        frontier: list[tuple[tuple[Action, ...], GameState]] = [((), root)]
        finished: dict[tuple[object, ...], tuple[float, tuple[Action, ...]]] = {}
        for _ in range(MAX_PLAN_ACTIONS):
            children: dict[tuple[object, ...], tuple[float, tuple[Action, ...], GameState]] = {}
            for plan, state in frontier:
                if self._stop():  # the whole turns found so far
                    return [plan for _, plan in sorted(finished.values(), key=lambda c: -c[0])[: self.plans]]
                for action in step_candidates(state, self._pruner, 3):
                    try:
                        after = self._apply(state, action)
                    except IllegalActionError:
                        continue
                    steps = plan + (action,)
                    key = position_key(after)
                    value = _plan_value(after, seat, w)
                    ended = (
                        after.is_over or (after.turn, after.current) != start
                        or _hand_reveal(after, seat, visible) or len(steps) == MAX_PLAN_ACTIONS
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
        ranked = sorted(finished.values(), key=lambda c: -c[0])
        return [plan for _, plan in ranked[: self.plans]]

    def _best_by_evaluation(self, state: GameState) -> Action:
        """The action the seat to act likes best by one step of :func:`evaluate` (its reply model)."""
        mover = state.current
        best: tuple[float, Action] | None = None
        for action in step_candidates(state, self._pruner, 2, with_greedy=False):
            try:
                after = self._apply(state, action)
            except IllegalActionError:
                continue
            value = _plan_value(after, mover, self.weights)
            if best is None or value > best[0]:
                best = (value, action)
        if best is None:
            return legal_actions(state)[0]
        return best[1]

    def _line(self, world: GameState, plan: Sequence[Action], seat: int, seed: int, budget: int) -> float:
        """The value of playing ``plan`` on ``world``: the rest of the turn and every other seat's
        reply by evaluation (greedy once ``budget`` states are spent), to the end once it is
        triggered; then :func:`margin`."""
        start_spent = self._spent
        state = world
        for action in plan:
            try:
                state = self._apply(state, action)
            except IllegalActionError:
                break
        greedy = GreedyPolicy(seed)
        start_turn = world.turn
        solo = isinstance(world.table, SoloTable)
        if solo:
            extra = self.solo_turns
        elif self.extra_turns is not None:
            extra = self.extra_turns
        else:
            extra = DUEL_TURNS if len(world.players) == 2 else 0
        cap = REPLY_CAP if solo else REPLY_CAP * (1 + extra)
        moves = own = 0
        last_turn = start_turn
        while not state.is_over and not state.end_triggered and moves < cap:
            if state.current == seat and state.turn != start_turn:
                if state.turn != last_turn:
                    own, last_turn = own + 1, state.turn
                if own > extra:
                    break
                action = greedy.choose(state)
            elif self._spent - start_spent < budget and state.phase is Phase.PLAY:
                action = self._best_by_evaluation(state)
            else:
                action = greedy.choose(state)
            state = self._apply(state, action)
            moves += 1
        if state.end_triggered:
            moves = 0
            while not state.is_over and moves < PLAYOUT_CAP:
                state = self._apply(state, greedy.choose(state))
                moves += 1
        return margin(state, seat, self.weights)
