"""Automatic players: a seeded random baseline and a fast greedy player.

A :class:`Policy` picks the next action for whoever's turn it is. Policies are used by the
simulator (``engine.simulate``), by the benchmark and by AI seats. Every policy here:

* returns a legal action in every state that is not over (Master included, Pass only when nothing
  else is legal);
* is deterministic given its own seed (an :class:`~engine.rng.Rng`, never the global ``random``);
* answers a pending decision (an empty-reserve substitute, …) through the same ``choose``: while
  one is pending the legal actions are its ``Choose`` answers, and the policy picks one of them;
* is cheap: it reads ``legal_actions`` once and otherwise works on bitmasks with memoised helpers
  (``pieces.placements_in`` and the solver are cached), never trying actions with ``apply``.

Why RandomPolicy is not "pick any legal action": the rules have no escape from a table where the
small pieces are all locked in half-filled puzzles and the reserve cannot supply what any puzzle
needs. Uniform play over action kinds drives most games there (hoarding, and puzzles riddled with
single-cell holes), and uniform play over the flat action list stalls ~70% of games. A random
baseline that never finishes a game measures nothing, so RandomPolicy adds the few guards that
any novice keeps, documented in its docstring, and stays uniform otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Protocol

from ..actions import (
    Action,
    Choose,
    EndFinishing,
    EndTurn,
    GhostSplit,
    Insert,
    Master,
    Pass,
    Place,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
)
from ..cards import PuzzleCard
from ..catalogue import MODES
from ..decisions import waiting_for
from ..expansions import mastermind_takes, solo_deck
from ..expansions.finesse import INSERT_COST, Tile, view
from ..expansions.level_up import KIND as LEVEL_UP
from ..game import apply
from ..legal import MasterOptions, legal_actions
from ..pieces import BASE_SHAPES, PLACEMENTS, SHAPES, Shape, parse_shape, placements_in, shape_of_mask
from ..rng import Rng
from ..rules import SUBSTITUTE
from ..solver import min_pieces, solve
from ..state import (
    ACTIONS_PER_TURN,
    MAX_UNFINISHED,
    ROW_SIZE,
    SOLO_GRID,
    GameState,
    Phase,
    PlayerState,
    SoloTable,
)
from ..variants import variant_for
from ..variants.solo import column_of, mastermind_picks
from .credits import live_tile, owned_shapes, paying_shapes, pink_credits, turns_after_this

__all__ = ["POLICIES", "GreedyPolicy", "Policy", "RandomPolicy", "policy_by_name"]


class Policy(Protocol):
    """Chooses the next action for the current player of a state that is not over."""

    def choose(self, state: GameState) -> Action: ...


# -- shared mask helpers -----------------------------------------------------------------------

_MONO = Shape.MONO
SOLO_DECK_AFTER_DEAL = sum(MODES["solo"]) - SOLO_GRID
_NON_MONO_BY_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        m for s in BASE_SHAPES if s is not _MONO for m in PLACEMENTS[s]
        if (m & -m).bit_length() - 1 == cell
    )
    for cell in range(25)
)


@lru_cache(maxsize=1 << 18)
def mono_need(free: int) -> int:
    """The fewest monominoes any exact filling of ``free`` needs (0: no single-cell nooks).

    Monominoes are the scarcest resource in a stalled game, so this is the measure RandomPolicy
    uses to avoid carving holes only a monomino can fill. Same lowest-cell search as the solver.
    """
    if free == 0:
        return 0
    low = free & -free
    best = 1 + mono_need(free ^ low)
    for placement in _NON_MONO_BY_CELL[low.bit_length() - 1]:
        if placement & free == placement:
            rest = mono_need(free ^ placement)
            if rest < best:
                best = rest
                if best == 0:
                    break
    return best


_KIND = attrgetter("kind")
_USEFUL_STEPS = 7
"""Greedy's preference steps 1–7 (completion to fetching a wanted piece): moves worth an Insert."""
_LAST_RESORT_STEPS = 2
"""Steps 8–9: any take with value, the placement costing the fewest extra pieces."""
_LOOKED_UP = frozenset({TakeLevelOne, Upgrade, GhostSplit})
"""Action types greedy looks up in its legal set (see GreedyPolicy.choose)."""


def _free_masks(state: GameState, player: PlayerState) -> dict[str, int]:
    cards = state.cards
    return {p.card: cards[p.card].recess & ~p.filled for p in player.puzzles}


def _completions(player: PlayerState, free: dict[str, int]) -> list[Place]:
    """Single placements that fill a puzzle's last hole with a piece in supply."""
    found = []
    for card, mask in free.items():
        if mask.bit_count() <= 4:
            shape = shape_of_mask(mask)
            if shape is not None and player.supply[shape.index] > 0:
                found.append(Place(card, shape, mask))
    return found


# -- the random baseline -------------------------------------------------------------------------


class RandomPolicy:
    """Uniformly random play, with four novice guards that let games finish.

    In play, the choice is made in two uniform steps: first an action *kind* among those legal
    now — take, draw, level1, upgrade (this includes exchanges), place, master, recycle — then one
    action of that kind. Guards, each there because without it most games stall (see the module
    docstring):

    1. **Obvious completion.** If a single Place fills the last hole of a puzzle, play it
       (uniformly among such). Completing is what returns pieces to circulation.
    2. **No hoarding.** ``level1`` is left out while the supply holds ``hoard_limit`` (4) pieces
       or more. Upgrades and exchanges stay: they return a piece for each one taken.
    3. **No new nooks.** A placement is *sane* when the free cells left need no more monominoes
       than before (one fewer if the piece placed is itself a monomino), or when the cells left
       are few enough to fill with the monominoes the player still holds. Place and Master
       use sane placements only; a kind with none is not offered.
    4. **One puzzle at a time.** Place picks among the sane placements on the puzzle with the
       fewest free cells, so pieces are not spread thin over four half-built puzzles.

    Master is a random non-empty subset of puzzles with a random sane placement each
    (:meth:`MasterOptions.sample`). In Finishing Touches the kinds are place and done, uniformly;
    each piece then costs a point, so random play there is simply bad play, as it should be.

    Measured: no stalled game in 4,500 random 2–4 player games and 1,500 Solo games (without
    guard 4, 1–3% stalled; without guard 3, 20–90%). Nothing in the rules rules a dead end out,
    though, so the simulator still reports any game that reaches its turn cap as stalled.
    """

    name = "random"

    def __init__(self, seed: int = 0, *, hoard_limit: int = 4) -> None:
        self.rng = Rng(seed)
        self.hoard_limit = hoard_limit

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        rng = self.rng
        if waiting_for(state) is not None:
            return actions[rng.below(len(actions))]
        if state.phase is Phase.FINISHING:
            if len(actions) > 1 and rng.below(2):
                return actions[rng.below(len(actions) - 1)]
            return EndFinishing()
        if state.current in state.held:
            # Finesse: actions spent, an Insert still affordable — insert or end, at random.
            return actions[rng.below(len(actions))]
        player = state.players[state.current]
        free = _free_masks(state, player)
        done = _completions(player, free)
        if done:
            return done[rng.below(len(done))]
        kinds = list(dict.fromkeys(map(_KIND, actions)))
        if player.supply_size >= self.hoard_limit and "level1" in kinds:
            kinds.remove("level1")
        if "place" in kinds and not state.master_used:
            kinds.append("master")
        # Uniform over kinds that turn out to have a candidate: draw, and redraw without a kind
        # that has none (equivalent to drawing among the viable kinds only).
        while kinds:
            kind = kinds.pop(rng.below(len(kinds)))
            if kind == "place":
                chosen = self._place(player, free, actions)
            elif kind == "master":
                chosen = self._master(player, free, actions)
            else:
                options = [a for a in actions if a.kind == kind]
                chosen = options[rng.below(len(options))]
            if chosen is not None:
                return chosen
        return actions[0] if actions else Pass()

    def _sane(self, player: PlayerState, free: dict[str, int], place: Place) -> bool:
        before = free[place.card]
        after = before ^ place.mask
        mono = place.shape is _MONO
        if mono_need(after) <= mono_need(before) - mono:
            return True
        return after.bit_count() <= player.supply[_MONO.index] - mono

    def _place(self, player: PlayerState, free: dict[str, int], actions: list[Action]) -> Action | None:
        # Group by the free cells of the puzzle, then test sanity from the emptiest-to-be group
        # on: the first group with a sane placement is the focus, the rest need no test.
        by_size: dict[int, list[Place]] = {}
        for p in actions:
            if type(p) is Place:
                by_size.setdefault(free[p.card].bit_count(), []).append(p)
        for size in sorted(by_size):
            sane = [p for p in by_size[size] if self._sane(player, free, p)]
            if sane:
                return sane[self.rng.below(len(sane))]
        return None

    def _master(self, player: PlayerState, free: dict[str, int], actions: list[Action]) -> Action | None:
        per_card: dict[str, list[Place]] = {}
        for p in actions:
            if isinstance(p, Place) and self._sane(player, free, p):
                per_card.setdefault(p.card, []).append(p)
        if not per_card:
            return None
        options = MasterOptions({c: tuple(v) for c, v in per_card.items()}, player.supply)
        return options.sample(self.rng)


# -- the greedy player ---------------------------------------------------------------------------


@lru_cache(maxsize=1 << 18)
def _pieces_to_fill(free: int) -> int:
    return min_pieces(free) or 0


@lru_cache(maxsize=1 << 16)
def _good_moves(free: int) -> tuple[tuple[Shape, int], ...]:
    """Placements that lie on some fewest-pieces filling of ``free`` (they cost nothing extra)."""
    target = _pieces_to_fill(free) - 1
    return tuple(
        (s, m) for s in BASE_SHAPES for m in placements_in(s, free) if _pieces_to_fill(free ^ m) == target
    )


@lru_cache(maxsize=1 << 16)
def _wanted_shapes(free: int) -> frozenset[Shape]:
    return frozenset(s for s, _ in _good_moves(free))


@lru_cache(maxsize=1 << 16)
def _finish_cost(free: int, supply: tuple[int, ...]) -> tuple[int, ...] | None:
    """Fewest-pieces filling of ``free`` from ``supply`` (Finishing Touches), or None."""
    tiling = solve(free, supply=supply)
    return None if tiling is None else tuple(tiling)


def _progress(state: GameState) -> float:
    """How far the game is toward its end trigger, 0 at the start to 1 when the deck is empty."""
    table = state.table
    if isinstance(table, SoloTable):
        deck = solo_deck(state.options)
        remaining = len(table.deck)
        start = SOLO_DECK_AFTER_DEAL if deck is None else sum(deck) - SOLO_GRID
    else:
        remaining = len(table.black_deck)
        start = max(1, MODES.get(f"{state.options.players}p", (0, 12))[1] - ROW_SIZE)
    progress = 1.0 - remaining / max(1, start)
    finesse = view(state)
    if finesse is not None:
        # Finesse: play also ends when the tenth tile leaves, whichever comes first.
        progress = max(progress, finesse.removed / (finesse.removed + max(1, len(finesse.row))))
    return max(0.0, min(1.0, progress))


def _mastermind_denial(state: GameState) -> dict[int, int]:
    """Solo: {grid position: points the mastermind loses if the player takes that card first}.

    The mastermind takes the most valuable card of an unlocked column (lowest position on a tie),
    and with Finesse a second, the least valuable left in that column; taking one of its picks
    first leaves it the next best. Locks are read as they stand (a take that frees a column is
    not simulated: close enough for a tie-breaking bonus).
    """
    table = state.table
    assert isinstance(table, SoloTable)
    points = [None if c is None else state.cards[c].points for c in table.grid]
    takes = mastermind_takes(state.options)
    now = _mastermind_points(points, table.locks, takes)
    result = {}
    for position in mastermind_picks(points, table.locks, takes):
        rest = list(points)
        rest[position - 1] = None
        result[position] = now - _mastermind_points(rest, table.locks, takes)
    return result


def _mastermind_points(points: Sequence[int | None], locks: Sequence[int], takes: int = 1) -> int:
    """Points the mastermind would take in one turn from a grid of ``points`` (None: empty):
    ``takes`` is 2 in Finesse Solo (:func:`~engine.variants.solo.mastermind_picks`, the
    engine's own choice); 0 when it takes nothing (every column holding a card is locked)."""
    return sum(points[p - 1] or 0 for p in mastermind_picks(points, locks, takes))


_EXPECTED_POINTS = {"white": 1, "black": 4}


def _mastermind_denial_by_take(state: GameState) -> dict[int, int]:
    """Solo: {grid position: points the mastermind's next pick loses if the player takes that
    card}, negative when the take unlocks a column holding a better card. The take's lock move
    and the refill are simulated; the refill counts as a typical card of the deck top's colour
    (public: the deck is white on top of black, and the white cards seen are counted)."""
    table = state.table
    assert isinstance(table, SoloTable)
    cards = state.cards
    points = [None if c is None else cards[c].points for c in table.grid]
    takes = mastermind_takes(state.options)
    now = _mastermind_points(points, table.locks, takes)
    if table.deck:
        refill: int | None = _EXPECTED_POINTS[cards[table.deck[0]].colour.value]
    else:
        refill = None
    result = {}
    for i, p in enumerate(points):
        if p is None:
            continue
        after = list(points)
        after[i] = refill
        locks = list(table.locks)
        column = column_of(i + 1) - 1
        locks[column] = max(0, locks[column] - 1)
        result[i + 1] = now - _mastermind_points(after, locks, takes)
    return result


def _my_actions_left(state: GameState) -> int | None:
    """Actions the current player still has before the game ends (None: the end is not in sight):
    the base end once triggered, or with Finesse the round the last tile leaves
    (:func:`~engine.policies.credits.turns_after_this`)."""
    turns = turns_after_this(state, state.current)
    if turns is None:
        return None
    return state.actions_left + ACTIONS_PER_TURN * turns


class GreedyPolicy:
    """A fast, reasonable player: finish puzzles, keep fillings cheap, fetch the pieces needed.

    Each action, in order of preference:

    1. complete a puzzle with one Place;
    2. Master when it puts down two or more pieces, each on a fewest-pieces filling;
    3. take a puzzle while fewer than the goal less one are open (the goal is 2–4, growing with
       the supply so Master has work);
    4. with Master unused and actions to spare, fetch a wanted piece first (fetch, fetch,
       Master beats fetch, place, fetch, place);
    5. Place a piece that lies on a fewest-pieces filling of its puzzle (``solver.min_pieces`` of
       the cells left does not grow), on the puzzle nearest completion;
    6. take a puzzle up to the goal. Value: points plus reward level (``reward_weight``, fading
       as the deck runs down) over the estimated actions to finish it; in Solo, plus the points
       the mastermind loses when its next pick is taken first (``denial_weight``). Near the end,
       puzzles that cannot be finished in the actions left are not taken;
    7. fetch a piece an open puzzle wants: level1 for a monomino, otherwise an exchange or
       upgrade of a spare piece (one no open puzzle can use) toward the wanted shape;
    8. fall back to taking any puzzle, any placement that costs the fewest extra pieces,
       level1, then anything legal.

    Once it is too late to finish a puzzle in play, taking one is still considered when
    Finishing Touches could complete it from the pieces held at a profit (``late_touches``).
    In Finishing Touches it completes a puzzle only when the points gained plus the unfinished
    penalty avoided exceed the pieces spent (``solver.solve`` with the supply), then says done.

    Weights: ``BASE_WEIGHTS`` (the base game) and ``SOLO_WEIGHTS`` (Solo's overrides, found by
    ``tools/tune_greedy.py``). Besides those named above: ``doubler_bonus`` (value added to a
    puzzle with a level 3–4 reward that one piece held completes: take and place return the piece
    with the reward), ``eager_take`` (step 3 takes up to the goal less this), ``prepare_master``
    (step 4 on or off), ``goal_min``/``goal_max``/``rich_level`` (the goal is ``goal_min`` plus
    one per ``rich_at`` pieces of level ``rich_level`` or more held, at most ``goal_max``),
    ``lock_aware`` (Solo denial simulates the take's lock move and refill, and turns negative
    when a take would unlock a better card for the mastermind).

    Finesse (``finesse_aim``; the predictions are in :mod:`engine.policies.credits`):

    * *The end.* Play also ends when the tenth tile leaves, so the actions left count the turns
      to that round (two a round in Line Clear): puzzles it cannot finish are not taken, and the
      reward weight fades with the tile row as with the deck.
    * *The live tile.* Among otherwise equal moves it plays the one the live pink tile pays for:
      the completion, the placement of a depicted piece; with the Master tile a last action's
      placement is played as a one-piece Master. A take is worth ``credit_weight`` points more per
      credit it earns (the take tile; the unfinished-puzzles tile pays for it at the end of the
      turn), and with ``aim_goal`` one more puzzle is kept open while such a tile is live. While a
      blue tile pays for owning pieces, it fetches the depicted ones first and gives them up last.
    * *Insert* (:meth:`_insert_or_end`): to complete a puzzle now; in its last turn for any
      useful move; otherwise only with at least ``insert_reserve`` active credits to spare,
      since saved credits buy the last turn's actions and pay Finishing Touches.
    * ``touch_credits`` counts the credits held as paying a late puzzle's Finishing Touches.
    * Solo: the mastermind's model is the engine's own pick (``mastermind_picks``), both takes.

    One seat of this greedy against the greedy of before these (the rest of the seats; the new
    seat rotating), with Finesse: 2 players, 600 games, 62.0% wins and +1.9 points a game;
    4 players, 300 games, 24.5% (an even share is 25%) and -0.1; Finesse Solo, 400 games,
    53.5% wins against 45.8% (with Ghost: 39.5% against 32.2%). Mid-game Inserts gained nothing
    in 2–4 player games (hence the reserve) but help in Solo, where counting credits for late
    Finishing Touches also helps; in 2-player games that cost 1.8 points a game, so only Solo
    does it.

    Strength, measured: it beats RandomPolicy in every 2-player game tried and the first
    version of itself 69–31. In Solo the tuned weights keep one or two puzzles open (finishing
    one black puzzle after another). Tuned when the mastermind still took a card every turn, it
    then averaged ~17 points to ~26 and almost never won. Under the rulebook's mastermind (no
    take while every column holding a card is locked) the same weights give, over 1,000 games
    each: Normal 8.0% wins, 19.9 to 23.5; Hard 0.8%, 18.7 to 24.8; Unbeatable 0%, 17.6 to 27.5.
    Changing the denial weight (0.3–2.0) moved Normal by under a point of win rate.
    The seed only breaks ties, so games stay varied but reproducible.
    """

    name = "greedy"

    BASE_WEIGHTS: dict[str, float | int | bool] = {
        "hoard_limit": 6, "reward_weight": 0.5, "fetch_cost": 1.5, "denial_weight": 2.0, "rich_at": 5,
        "late_touches": True, "doubler_bonus": 0.0, "eager_take": 1, "prepare_master": True,
        "goal_min": 2, "goal_max": 4, "lock_aware": False,
        "rich_level": 1, "finesse_aim": True, "credit_weight": 0.3, "insert_reserve": 8,
        "touch_credits": False, "aim_goal": False,
    }
    """Weights for the base game (and any weight not in SOLO_WEIGHTS)."""
    SOLO_WEIGHTS: dict[str, float | int | bool] = {
        "hoard_limit": 4, "reward_weight": 0.14, "fetch_cost": 0.34, "denial_weight": 0.58, "rich_at": 8,
        "doubler_bonus": 0.18, "goal_min": 1, "goal_max": 2, "lock_aware": True,
        "insert_reserve": 0, "touch_credits": True, "aim_goal": True,
    }
    """Solo overrides, from ``tools/tune_greedy.py`` (see its docstring for the search)."""

    def __init__(
        self, seed: int = 0, *, hoard_limit: int | None = None, reward_weight: float | None = None,
        fetch_cost: float | None = None, denial_weight: float | None = None, rich_at: int | None = None,
        late_touches: bool | None = None, doubler_bonus: float | None = None, eager_take: int | None = None,
        prepare_master: bool | None = None, goal_min: int | None = None, goal_max: int | None = None,
        lock_aware: bool | None = None, rich_level: int | None = None, finesse_aim: bool | None = None,
        credit_weight: float | None = None, insert_reserve: int | None = None,
        touch_credits: bool | None = None, aim_goal: bool | None = None,
    ) -> None:
        """Each weight left at None takes the variant's default (SOLO_WEIGHTS in Solo, else
        BASE_WEIGHTS); a weight given applies to every variant."""
        given = {k: v for k, v in locals().items() if k in self.BASE_WEIGHTS and v is not None}
        self.rng = Rng(seed)
        self._base = {**self.BASE_WEIGHTS, **given}
        self._solo = {**self.BASE_WEIGHTS, **self.SOLO_WEIGHTS, **given}
        self._active: dict[str, float | int | bool] | None = None
        self._use(self._base)
        self._aim(None)

    def _aim(self, tile: Tile | None) -> None:
        """Read the live Finesse tile once per choice (None: no tile to aim for, or
        ``finesse_aim`` off): which pieces pay when placed or owned, and what a take earns."""
        self._tile = tile if self.finesse_aim else None
        self._paying = paying_shapes(self._tile)
        self._owning = owned_shapes(self._tile)
        rule = None if self._tile is None else self._tile.rule
        # A take pays at once on the take tile; a puzzle still open at the end of the turn pays
        # on the unfinished-puzzles tile (blue).
        self._take_credits = int(rule == "take") + int(rule == "unfinished")
        self._credits = 0

    def _use(self, weights: dict[str, float | int | bool]) -> None:
        if self._active is not weights:
            self.__dict__.update(weights)
            self._active = weights

    # -- entry point ------------------------------------------------------------------------
    def choose(self, state: GameState) -> Action:
        self._use(self._solo if state.options.variant == "solo" else self._base)
        self._aim(live_tile(state))
        finesse = view(state)
        self._credits = 0 if finesse is None else finesse.credits(state.current)
        if waiting_for(state) is not None:
            return self._decide(state)
        if state.phase is Phase.FINISHING:
            return self._finishing(state)
        actions = legal_actions(state)
        player = state.players[state.current]
        free = _free_masks(state, player)
        if state.current in state.held:
            return self._insert_or_end(state, player, free)
        chosen = self._play(state, actions, player, free, _USEFUL_STEPS + _LAST_RESORT_STEPS)
        return chosen if chosen is not None else self._fallback(state, player, actions)

    def _play(
        self, state: GameState, actions: list[Action], player: PlayerState, free: dict[str, int],
        steps: int,
    ) -> Action | None:
        """The first of the first ``steps`` preference steps (see the class docstring) that
        finds a move; None when none does."""
        order = sorted(free, key=lambda c: (_pieces_to_fill(free[c]), -state.cards[c].points, c))
        # Only level-1, upgrades and ghost splits are looked up (hashing every placement and
        # recycle order cost a quarter of the whole choice).
        legal = {a for a in actions if type(a) in _LOOKED_UP}
        for step in (
            lambda: self._complete(player, free, state),
            lambda: self._master(state, player, free, order),
            lambda: self._take(state, player, free, actions, self._open_goal(player) - self.eager_take),
            lambda: self._prepare_master(state, player, free, order, legal),
            lambda: self._place(state, player, free, order),
            lambda: self._take(state, player, free, actions, self._open_goal(player)),
            lambda: self._fetch(state, player, free, order, legal),
            lambda: self._take(state, player, free, actions, MAX_UNFINISHED),
            lambda: self._any_place(player, free, order),
        )[:steps]:
            chosen = step()
            if chosen is not None:
                return chosen
        return None

    def _insert_or_end(
        self, state: GameState, player: PlayerState, free: dict[str, int]
    ) -> Action:
        """Finesse, actions spent: buy one more action for 2 active credits, or end the turn.

        It inserts when the extra action completes a puzzle now. Otherwise the extra action must
        have a useful move (a completion, Master, a take within the goal, a placement on a
        fewest-pieces filling or a wanted piece: steps 1–7): in its last turn that is enough;
        before it, at least ``insert_reserve`` active credits must be left after paying, since
        credits saved buy the last turn's actions and pay Finishing Touches. With
        ``finesse_aim`` off: only to complete a puzzle, or in the base game's last round.
        """
        if Insert() not in legal_actions(state):
            return EndTurn()
        if _completions(player, free):
            return Insert()
        if not self.finesse_aim:  # the first rule: insert only to complete, or in the last round
            closing = state.last_round is not None and state.round >= state.last_round
            return Insert() if closing else EndTurn()
        finesse = view(state)
        assert finesse is not None
        last_turn = turns_after_this(state, state.current) == 0
        if not last_turn and finesse.active[state.current] - INSERT_COST < self.insert_reserve:
            return EndTurn()
        after = apply(state, Insert()).state
        useful = self._play(after, legal_actions(after), player, free, _USEFUL_STEPS)
        return Insert() if useful is not None else EndTurn()

    def _open_goal(self, player: PlayerState) -> int:
        """How many puzzles to keep open: more as the supply grows, so Master has work; one more
        while the live Finesse tile pays for takes or for open puzzles."""
        if self.rich_level > 1:
            size = sum(player.supply[s.index] for s in BASE_SHAPES if s.level >= self.rich_level)
        else:
            size = player.supply_size
        goal = self.goal_min + (size >= self.rich_at) + (size >= 2 * self.rich_at)
        return min(min(goal, self.goal_max) + (self.aim_goal and self._take_credits > 0), MAX_UNFINISHED)

    # -- placing ------------------------------------------------------------------------------
    def _complete(self, player: PlayerState, free: dict[str, int], state: GameState) -> Action | None:
        done = _completions(player, free)
        if not done:
            return None
        tile = self._tile
        return max(done, key=lambda p: (
            state.cards[p.card].points,
            pink_credits(state, state.current, p, tile) if tile is not None else 0,
            state.cards[p.card].reward.level,
            p.card,
        ))

    def _moves(self, free: int, supply: Sequence[int]) -> tuple[tuple[Shape, int], ...]:
        """Moves worth making on ``free``. The supply is not consulted: a supply-aware plan
        (placements plus fetch actions) was tried and scored worse, as it settles for many
        small pieces where a fewest-pieces filling pays back the fetching."""
        return _good_moves(free)

    def _best_move(self, free: int, supply: Sequence[int]) -> tuple[Shape, int] | None:
        """The good move to make with pieces in ``supply``: completing first, then one that
        leaves cells this supply can keep filling, then one the live Finesse tile pays for,
        then using the shape held most."""
        best: tuple[tuple[int, int, int, int, int], tuple[Shape, int]] | None = None
        for shape, mask in self._moves(free, supply):
            have = supply[shape.index]
            if have <= 0:
                continue
            rest = free ^ mask
            ready = rest == 0 or any(
                supply[s.index] - (s is shape) > 0 for s, _ in self._moves(rest, supply)
            )
            key = (rest == 0, ready, shape in self._paying, have, shape.size)
            if best is None or key > best[0]:
                best = (key, (shape, mask))
        return None if best is None else best[1]

    def _master(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str]
    ) -> Action | None:
        if state.master_used or len(order) < 2:
            return None
        supply = list(player.supply)
        chosen: list[Place] = []
        for card in order:
            move = self._best_move(free[card], supply)
            if move is not None:
                shape, mask = move
                supply[shape.index] -= 1
                chosen.append(Place(card, shape, mask))
        return Master(tuple(chosen)) if len(chosen) >= 2 else None

    def _prepare_master(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str],
        legal: set[Action],
    ) -> Action | None:
        """With Master unused and actions to spare, fetch another wanted piece before placing:
        fetch, fetch, Master places three pieces in three actions where fetch, place, fetch,
        place needs four."""
        if not self.prepare_master or state.master_used or state.actions_left < 2 or len(order) < 2:
            return None
        return self._fetch(state, player, free, order, legal)

    def _place(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str]
    ) -> Action | None:
        for card in order:
            move = self._best_move(free[card], player.supply)
            if move is not None:
                place = Place(card, move[0], move[1])
                if (
                    self._tile is not None and self._tile.rule == "master" and not state.master_used
                    and state.actions_left == 1
                ):
                    # The Master tile pays per piece placed with Master: in the last action a
                    # one-piece Master is the same move plus a credit.
                    return Master((place,))
                return place
        return None

    def _any_place(self, player: PlayerState, free: dict[str, int], order: list[str]) -> Action | None:
        """The placement costing the fewest extra pieces, when nothing better is possible."""
        best: tuple[tuple[int, int], Place] | None = None
        for card in order:
            before = _pieces_to_fill(free[card])
            for shape in BASE_SHAPES:
                if player.supply[shape.index] <= 0:
                    continue
                for mask in placements_in(shape, free[card]):
                    extra = _pieces_to_fill(free[card] ^ mask) + 1 - before
                    key = (extra, -shape.size)
                    if best is None or key < best[0]:
                        best = (key, Place(card, shape, mask))
        return None if best is None else best[1]

    # -- taking puzzles -------------------------------------------------------------------------
    def _card_value(
        self, state: GameState, player: PlayerState, card: PuzzleCard, denial: int = 0
    ) -> float | None:
        pieces = _pieces_to_fill(card.recess)
        wanted = _wanted_shapes(card.recess)
        usable = sum(1 for s in wanted if player.supply[s.index] > 0)
        fetch = max(0, pieces - usable) * self.fetch_cost
        cost = 1 + pieces + fetch
        left = _my_actions_left(state)
        reward_weight = self.reward_weight * (1.0 - _progress(state))
        if left is not None:
            if state.options.unfinished_penalty and cost > left:
                return self._touch_value(player, card, denial) if self.late_touches else None
            if cost + 2 > left:
                reward_weight = 0.0
        value = card.points + self.denial_weight * denial + reward_weight * card.reward.level
        value += self.credit_weight * self._take_credits
        if self.doubler_bonus and card.reward.level >= 3 and (left is None or cost + 2 <= left):
            # One placement of a piece held completes it: the piece comes back with the reward.
            shape = shape_of_mask(card.recess)
            if shape is not None and player.supply[shape.index] > 0:
                value += self.doubler_bonus * (1.0 - _progress(state))
        if value <= 0.0:
            return None
        return value / cost

    def _touch_value(self, player: PlayerState, card: PuzzleCard, denial: int) -> float | None:
        """Too late to finish in play: still worth taking if Finishing Touches can complete it
        from the pieces held at a profit (points and, in Solo, what the mastermind loses,
        against a point per piece). The supply is shared with the open puzzles: an estimate."""
        tiling = _finish_cost(card.recess, player.supply)
        if tiling is None:
            return None
        # Finesse: with ``touch_credits`` the credits held are counted as paying these touches
        # (an estimate: they are shared with the other open puzzles and with Inserts).
        paid = self._credits if self.touch_credits else 0
        gain = card.points + self.denial_weight * denial - max(0, len(tiling) - paid)
        return gain / 4 if gain > 0 else None

    def _take(
        self, state: GameState, player: PlayerState, free: dict[str, int], actions: list[Action],
        limit: int,
    ) -> Action | None:
        if len(player.puzzles) >= limit:
            return None
        table = state.table
        if isinstance(table, SoloTable):
            denial = (_mastermind_denial_by_take if self.lock_aware else _mastermind_denial)(state)
        else:
            denial = {}
        variant = variant_for(state.options.variant)
        best: tuple[float, Action] | None = None
        for action in actions:
            if not isinstance(action, TakePuzzle):
                continue
            card_id = variant.card_for_take(state, action)
            if card_id is None:
                continue
            value = self._card_value(state, player, state.cards[card_id], denial.get(action.slot, 0))
            if value is not None and (best is None or value > best[0]):
                best = (value, action)
        return None if best is None else best[1]

    # -- fetching pieces --------------------------------------------------------------------------
    def _fetch(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str],
        legal: set[Action],
    ) -> Action | None:
        supply = player.supply
        wanted: list[Shape] = []
        useful: set[Shape] = set()
        for card in order:
            shapes = {s for s, _ in self._moves(free[card], supply)}
            useful |= shapes
            for shape in sorted(shapes, key=lambda s: (s not in self._owning, -s.size, s.index)):
                if supply[shape.index] == 0 and shape not in wanted:
                    wanted.append(shape)
        # A piece the live blue tile pays for owning is given up last.
        spare = sorted(
            (s for s in SHAPES if supply[s.index] > 0 and s not in useful), key=lambda s: s in self._owning
        )
        if wanted:
            # Ghost Piece: a ghost splits into several pieces at once; take a split that
            # brings the most wanted pieces (the ghost itself is never on a fewest-pieces plan).
            splits = [a for a in legal if isinstance(a, GhostSplit) and not a.placements]
            scored = [(sum(p in wanted for p in a.pieces), -len(a.pieces), str(a), a) for a in splits]
            best = max(scored, default=None)
            if best is not None and best[0] > 0:
                return best[3]
        for shape in wanted:
            if shape is _MONO:
                if state.reserve[_MONO.index] > 0 and TakeLevelOne() in legal:
                    return TakeLevelOne()
                continue
            # An exchange or upgrade straight to the wanted shape, from the biggest spare piece.
            for give in sorted(spare, key=lambda s: (s in self._owning, -s.level)):
                if Upgrade(give, shape) in legal:
                    return Upgrade(give, shape)
        for shape in wanted:
            # One step up toward it: upgrade a spare piece one level, preferring shapes wanted.
            for give in sorted(spare, key=lambda s: (s in self._owning, -s.level)):
                if give.level >= shape.level:
                    continue
                steps = [
                    Upgrade(give, s) for s in BASE_SHAPES
                    if s.level > give.level and Upgrade(give, s) in legal
                ]
                if steps:
                    return min(steps, key=lambda u: (u.take not in wanted, -state.reserve[u.take.index]))
        if wanted and player.supply_size < self.hoard_limit and TakeLevelOne() in legal:
            return TakeLevelOne()
        return None

    # -- the rest -------------------------------------------------------------------------------
    def _fallback(self, state: GameState, player: PlayerState, actions: list[Action]) -> Action:
        """Anything legal that keeps the game moving; Master when it is the only thing left."""
        for kind in ("level1", "draw", "upgrade", "take", "recycle"):
            options = [a for a in actions if a.kind == kind]
            if options:
                return options[self.rng.below(len(options))]
        if not state.master_used:
            free = _free_masks(state, player)
            for card, mask in free.items():
                for shape in BASE_SHAPES:
                    if player.supply[shape.index] > 0:
                        places = placements_in(shape, mask)
                        if places:
                            return Master((Place(card, shape, places[0]),))
        return actions[0] if actions else Pass()

    def _decide(self, state: GameState) -> Action:
        """Answer a pending decision. A substitute piece: one that lies on a fewest-pieces filling
        of an open puzzle, else the biggest (it can be exchanged down later). Kinds it does not
        know: the first option. A level-up: :func:`best_level_up`."""
        answers = [a for a in legal_actions(state) if isinstance(a, Choose)]
        decision = waiting_for(state)
        assert decision is not None
        if decision.kind == LEVEL_UP:
            return Choose(best_level_up(state, decision.seat, decision.options))
        if decision.kind != SUBSTITUTE:
            return answers[0]
        player = state.players[decision.seat]
        useful: set[Shape] = set()
        for free in _free_masks(state, player).values():
            useful |= _wanted_shapes(free)

        def value(answer: Choose) -> tuple[bool, int, int]:
            shape = parse_shape(answer.option)
            return (shape in useful, shape.level, -shape.index)

        return max(answers, key=value)

    def _finishing(self, state: GameState) -> Action:
        player = state.players[state.current]
        factor = 2 if state.options.unfinished_penalty else 1
        finesse = view(state)
        credits = finesse.credits(state.current) if finesse is not None else 0
        best: tuple[int, Place] | None = None
        for puzzle in player.puzzles:
            card = state.cards[puzzle.card]
            free = card.recess & ~puzzle.filled
            tiling = _finish_cost(free, player.supply)
            if tiling is None:
                continue
            # Finesse: Finishing Touches are paid with credits first, at no cost in points.
            gain = factor * card.points - max(0, len(tiling) - credits)
            if gain > 0 and (best is None or gain > best[0]):
                mask = tiling[0]
                shape = shape_of_mask(mask)
                assert shape is not None
                best = (gain, Place(card.id, shape, mask))
        return EndFinishing() if best is None else best[1]


# -- registry ------------------------------------------------------------------------------------

POLICIES: dict[str, Callable[[int], Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def policy_by_name(name: str, seed: int = 0) -> Policy:
    """A fresh policy by name (a key of POLICIES: "random", "greedy", "strong"), seeded."""
    try:
        factory = POLICIES[name.strip().lower()]
    except KeyError:
        known = ", ".join(POLICIES)
        raise ValueError(f"Unknown policy '{name}'. Policies: {known}.") from None
    return factory(seed)


def best_level_up(state: GameState, seat: int, options: Sequence[str]) -> str:
    """Greedy's answer to a level-up arrow (Ghost Piece expansion): raise a piece that no open
    puzzle wants into a shape that one does; failing that, the raise that gains the most (a
    level-4 piece into a ghost, which splits into several pieces later); decline only when
    every raise would give up a wanted piece for an unwanted one."""
    from ..expansions.level_up import DECLINE, parse_level_up

    player = state.players[seat]
    wanted: set[Shape] = set()
    for free in _free_masks(state, player).values():
        wanted |= _wanted_shapes(free)
    best: tuple[tuple[int, int, int], str] | None = None
    for option in options:
        raise_ = parse_level_up(option)
        if raise_ is None:
            continue
        give, take = raise_
        score = (take in wanted and give not in wanted, give not in wanted, take.level)
        if best is None or score > best[0]:
            best = (score, option)
    if best is None or (not best[0][0] and not best[0][1] and DECLINE in options):
        return DECLINE
    return best[1]
