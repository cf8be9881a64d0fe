"""The greedy player: fast, reasonable play by fixed preferences over the legal actions.

Its weights are data (:mod:`.greedy_weights`); its answers to pending decisions and its Finishing
Touches are in :mod:`.greedy_answers`; the fillings it aims for come from :mod:`.fillings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..actions import (
    Action,
    AmbassadorAction,
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
from ..decisions import waiting_for
from ..expansions.ambassador import ready
from ..expansions.finesse import INSERT_COST, Tile, view
from ..game import apply
from ..legal import legal_actions
from ..pieces import BASE_SHAPES, SHAPES, Shape, placements_in, shape_of_mask
from ..rng import Rng
from ..state import MAX_UNFINISHED, GameState, Phase, PlayerState, SoloTable
from ..variants import variant_for
from .credits import live_tile, owned_shapes, paying_shapes, pink_credits, turns_after_this
from .fillings import (
    completions,
    finish_cost,
    finish_floor,
    free_masks,
    good_moves,
    pieces_to_fill,
    wanted_shapes,
)
from .greedy_answers import answer_decision, finishing_touch
from .greedy_weights import BASE_WEIGHTS, SOLO_WEIGHTS
from .mastermind import mastermind_denial, mastermind_denial_by_take
from .outlook import my_actions_left, progress

__all__ = ["GreedyPolicy"]

_MONO = Shape.MONO
_USEFUL_STEPS = 7
"""Greedy's preference steps 1–7 (completion to fetching a wanted piece): moves worth an Insert."""
_LAST_RESORT_STEPS = 2
"""Steps 8–9: any take with value, the placement costing the fewest extra pieces."""
_LOOKED_UP = frozenset({TakeLevelOne, Upgrade, GhostSplit})
"""Action types greedy looks up in its legal set (see GreedyPolicy.choose)."""


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

    Weights: a :class:`~engine.policies.greedy_weights.GreedyWeights` (each documented there):
    ``BASE_WEIGHTS`` for the base game, ``SOLO_WEIGHTS`` (found by ``tools/tune_greedy.py``) in Solo.

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

    def __init__(self, seed: int = 0, **weights: Any) -> None:
        """``weights`` override fields of :class:`GreedyWeights` by name in every variant; the
        rest are the variant's defaults (``SOLO_WEIGHTS`` in Solo, else ``BASE_WEIGHTS``). An
        unknown name is a TypeError."""
        self.rng = Rng(seed)
        self._base = replace(BASE_WEIGHTS, **weights)
        self._solo = replace(SOLO_WEIGHTS, **weights)
        self.weights = self._base
        self._aim(None)

    def _aim(self, tile: Tile | None) -> None:
        """Read the live Finesse tile once per choice (None: no tile to aim for, or
        ``finesse_aim`` off): which pieces pay when placed or owned, and what a take earns."""
        self._tile = tile if self.weights.finesse_aim else None
        self._paying = paying_shapes(self._tile)
        self._owning = owned_shapes(self._tile)
        rule = None if self._tile is None else self._tile.rule
        # A take pays at once on the take tile; a puzzle still open at the end of the turn pays
        # on the unfinished-puzzles tile (blue).
        self._take_credits = int(rule == "take") + int(rule == "unfinished")
        self._credits = 0

    # -- entry point ------------------------------------------------------------------------
    def choose(self, state: GameState) -> Action:
        self.weights = self._solo if state.options.variant == "solo" else self._base
        self._aim(live_tile(state))
        finesse = view(state)
        self._credits = 0 if finesse is None else finesse.credits(state.current)
        if waiting_for(state) is not None:
            return answer_decision(state)
        if state.phase is Phase.FINISHING:
            return finishing_touch(state)
        player = state.players[state.current]
        free = free_masks(state, player)
        if state.current in state.held:
            return self._insert_or_end(state, player, free)
        # Placements are read from the free cells (:mod:`.fillings`), never from the legal list.
        actions = legal_actions(state, places=False)
        chosen = self._play(state, actions, player, free, _USEFUL_STEPS + _LAST_RESORT_STEPS)
        return chosen if chosen is not None else self._fallback(state, player)

    def _play(
        self, state: GameState, actions: list[Action], player: PlayerState, free: dict[str, int],
        steps: int,
    ) -> Action | None:
        """The first of the first ``steps`` preference steps (see the class docstring) that
        finds a move; None when none does."""
        order = sorted(free, key=lambda c: (pieces_to_fill(free[c]), -state.cards[c].points, c))
        # Only level-1, upgrades and ghost splits are looked up (hashing every placement and
        # recycle order cost a quarter of the whole choice); takes are sorted out in the same
        # pass (the list holds every recycle order).
        legal: set[Action] = set()
        takes: list[TakePuzzle] = []
        for action in actions:
            if type(action) in _LOOKED_UP:
                legal.add(action)
            elif isinstance(action, TakePuzzle):
                takes.append(action)
        best_take: list[Action | None] = []

        def take(limit: int) -> Action | None:
            """The best take while fewer than ``limit`` puzzles are open (valued once: the
            three take steps differ only in the limit)."""
            if len(player.puzzles) >= limit:
                return None
            if not best_take:
                best_take.append(self._best_take(state, player, takes))
            return best_take[0]

        for step in (
            lambda: self._complete(player, free, state),
            lambda: self.master_action(state, player, free, order),
            lambda: take(self._open_goal(player) - self.weights.eager_take),
            lambda: self._prepare_master(state, player, free, order, legal),
            lambda: self._place(state, player, free, order),
            lambda: take(self._open_goal(player)),
            lambda: self._fetch(state, player, free, order, legal),
            lambda: take(MAX_UNFINISHED),
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
        if completions(player, free):
            return Insert()
        if not self.weights.finesse_aim:  # the first rule: insert only to complete, or in the last round
            closing = state.last_round is not None and state.round >= state.last_round
            return Insert() if closing else EndTurn()
        finesse = view(state)
        assert finesse is not None
        last_turn = turns_after_this(state, state.current) == 0
        if not last_turn and finesse.active[state.current] - INSERT_COST < self.weights.insert_reserve:
            return EndTurn()
        after = apply(state, Insert()).state
        useful = self._play(after, legal_actions(after, places=False), player, free, _USEFUL_STEPS)
        return Insert() if useful is not None else EndTurn()

    def _open_goal(self, player: PlayerState) -> int:
        """How many puzzles to keep open: more as the supply grows, so Master has work; one more
        while the live Finesse tile pays for takes or for open puzzles."""
        weights = self.weights
        if weights.rich_level > 1:
            size = sum(player.supply[s.index] for s in BASE_SHAPES if s.level >= weights.rich_level)
        else:
            size = player.supply_size
        goal = weights.goal_min + (size >= weights.rich_at) + (size >= 2 * weights.rich_at)
        aiming = weights.aim_goal and self._take_credits > 0
        return min(min(goal, weights.goal_max) + aiming, MAX_UNFINISHED)

    # -- placing ------------------------------------------------------------------------------
    def _complete(self, player: PlayerState, free: dict[str, int], state: GameState) -> Action | None:
        done = completions(player, free)
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
        return good_moves(free)

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

    def master_action(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str]
    ) -> Action | None:
        """A Master putting down two or more pieces; with Master used, the same as an Ambassador
        action when an Ambassador card is ready to flip (Ambassador Pack). The searching policies'
        candidate turns (:func:`.candidates.step_candidates`) offer it too."""
        if state.master_used:
            return self.ambassador_action(state, player, free, order)
        chosen = self._one_per_puzzle(player, free, order)
        return Master(chosen) if len(chosen) >= 2 else None

    def ambassador_action(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str]
    ) -> Action | None:
        """An Ambassador action putting down two or more pieces, when a card is ready to flip (also a
        candidate beside Master in :func:`.candidates.step_candidates`)."""
        if not ready(state, state.current):
            return None
        chosen = self._one_per_puzzle(player, free, order)
        return AmbassadorAction(chosen) if len(chosen) >= 2 else None

    def _one_per_puzzle(
        self, player: PlayerState, free: dict[str, int], order: list[str]
    ) -> tuple[Place, ...]:
        """The best move on each puzzle, from the supply as it stands (a Master's placements)."""
        if len(order) < 2:
            return ()
        supply = list(player.supply)
        chosen: list[Place] = []
        for card in order:
            move = self._best_move(free[card], supply)
            if move is not None:
                shape, mask = move
                supply[shape.index] -= 1
                chosen.append(Place(card, shape, mask))
        return tuple(chosen)

    def _prepare_master(
        self, state: GameState, player: PlayerState, free: dict[str, int], order: list[str],
        legal: set[Action],
    ) -> Action | None:
        """With Master unused and actions to spare, fetch another wanted piece before placing:
        fetch, fetch, Master places three pieces in three actions where fetch, place, fetch,
        place needs four."""
        if not self.weights.prepare_master or state.master_used or state.actions_left < 2 or len(order) < 2:
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
            before = pieces_to_fill(free[card])
            for shape in BASE_SHAPES:
                if player.supply[shape.index] <= 0:
                    continue
                for mask in placements_in(shape, free[card]):
                    extra = pieces_to_fill(free[card] ^ mask) + 1 - before
                    key = (extra, -shape.size)
                    if best is None or key < best[0]:
                        best = (key, Place(card, shape, mask))
        return None if best is None else best[1]

    # -- taking puzzles -------------------------------------------------------------------------
    def _card_value(
        self, state: GameState, player: PlayerState, card: PuzzleCard, denial: int = 0,
        outlook: tuple[int | None, float] | None = None,
    ) -> float | None:
        """What taking ``card`` is worth per action it costs (None: not worth taking).
        ``outlook``: the state's (:func:`my_actions_left`, ``1 - progress``), when the caller
        values several cards of one state."""
        pieces = pieces_to_fill(card.recess)
        wanted = wanted_shapes(card.recess)
        usable = sum(1 for s in wanted if player.supply[s.index] > 0)
        fetch = max(0, pieces - usable) * self.weights.fetch_cost
        cost = 1 + pieces + fetch
        left, fade = (my_actions_left(state), 1.0 - progress(state)) if outlook is None else outlook
        reward_weight = self.weights.reward_weight * fade
        if left is not None:
            if state.options.unfinished_penalty and cost > left:
                return self._touch_value(player, card, denial) if self.weights.late_touches else None
            if cost + 2 > left:
                reward_weight = 0.0
        value = card.points + self.weights.denial_weight * denial + reward_weight * card.reward.level
        value += self.weights.credit_weight * self._take_credits
        if self.weights.doubler_bonus and card.reward.level >= 3 and (left is None or cost + 2 <= left):
            # One placement of a piece held completes it: the piece comes back with the reward.
            shape = shape_of_mask(card.recess)
            if shape is not None and player.supply[shape.index] > 0:
                value += self.weights.doubler_bonus * fade
        if value <= 0.0:
            return None
        return value / cost

    def _touch_value(self, player: PlayerState, card: PuzzleCard, denial: int) -> float | None:
        """Too late to finish in play: still worth taking if Finishing Touches can complete it
        from the pieces held at a profit (points and, in Solo, what the mastermind loses,
        against a point per piece). The supply is shared with the open puzzles: an estimate."""
        # Finesse: with ``touch_credits`` the credits held are counted as paying these touches
        # (an estimate: they are shared with the other open puzzles and with Inserts).
        paid = self._credits if self.weights.touch_credits else 0
        worth = card.points + self.weights.denial_weight * denial
        floor = finish_floor(card.recess, player.supply)
        if floor is None or worth - max(0, floor - paid) <= 0:
            # Not worth it even with the fewest pieces this supply could fill it with: skip the
            # supply search (the rollouts' costliest question near the end of a game).
            return None
        tiling = finish_cost(card.recess, player.supply)
        if tiling is None:
            return None
        gain = worth - max(0, len(tiling) - paid)
        return gain / 4 if gain > 0 else None

    def _best_take(self, state: GameState, player: PlayerState, takes: list[TakePuzzle]) -> Action | None:
        """The take worth the most per action (see :meth:`_card_value`), if any is worth it."""
        table = state.table
        if isinstance(table, SoloTable):
            denial = (mastermind_denial_by_take if self.weights.lock_aware else mastermind_denial)(state)
        else:
            denial = {}
        variant = variant_for(state.options.variant)
        best: tuple[float, Action] | None = None
        outlook: tuple[int | None, float] | None = None
        for action in takes:
            card_id = variant.card_for_take(state, action)
            if card_id is None:
                continue
            if outlook is None:
                outlook = (my_actions_left(state), 1.0 - progress(state))
            value = self._card_value(state, player, state.cards[card_id], denial.get(action.slot, 0), outlook)
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
        if wanted and player.supply_size < self.weights.hoard_limit and TakeLevelOne() in legal:
            return TakeLevelOne()
        return None

    # -- the rest -------------------------------------------------------------------------------
    def _fallback(self, state: GameState, player: PlayerState) -> Action:
        """Anything legal that keeps the game moving; Master when it is the only thing left."""
        actions = legal_actions(state)
        for kind in ("level1", "draw", "upgrade", "take", "recycle"):
            options = [a for a in actions if a.kind == kind]
            if options:
                return options[self.rng.below(len(options))]
        if not state.master_used:
            free = free_masks(state, player)
            for card, mask in free.items():
                for shape in BASE_SHAPES:
                    if player.supply[shape.index] > 0:
                        places = placements_in(shape, mask)
                        if places:
                            return Master((Place(card, shape, places[0]),))
        return actions[0] if actions else Pass()

