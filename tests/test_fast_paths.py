"""The engine's and greedy's fast paths give what the plain definitions give: speed-ups of the
code every rollout runs must not change a single choice (``tools/identity_games.py`` checks
whole games; these check the pieces on many states)."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.actions import Place, Upgrade
from engine.catalogue import load_catalogue
from engine.decisions import waiting_for
from engine.errors import IllegalActionError
from engine.expansions.base import expansions_for, registered
from engine.game import apply, new_game
from engine.legal import legal_actions, upgrade_actions
from engine.pieces import BASE_SHAPES, SHAPE_COUNT, SHAPES
from engine.policies import RandomPolicy
from engine.policies.fillings import finish_cost, finish_floor
from engine.rules import check_upgrade
from engine.state import GameState, Options, Phase

TABLES = (
    Options(players=2), Options(players=4), Options(players=1, variant="solo"),
    Options.for_players(6, finesse=True), Options(players=3, ghost=True, ambassador=True),
)


def _states(options: Options, seed: int, limit: int = 400) -> list[GameState]:
    state = new_game(options, seed)
    seats = [RandomPolicy(seed + i) for i in range(options.players)]
    states = [state]
    while not state.is_over and len(states) < limit:
        state = apply(state, seats[state.current].choose(state)).state
        states.append(state)
    return states


def test_legal_actions_without_places_are_the_rest_in_order() -> None:
    for i, options in enumerate(TABLES):
        for state in _states(options, 40 + i):
            full = legal_actions(state)
            playing = (
                state.phase is Phase.PLAY and waiting_for(state) is None and state.current not in state.held
            )
            # Finishing Touches are placements only: there the list stays whole.
            expected = [a for a in full if not isinstance(a, Place)] if playing else full
            assert legal_actions(state, places=False) == expected


def test_upgrade_actions_are_the_upgrades_the_rules_allow() -> None:
    for i, options in enumerate(TABLES):
        for state in _states(options, 50 + i)[::3]:
            supply = state.players[state.current].supply
            allowed = []
            for give in SHAPES:
                for take in SHAPES:
                    try:
                        check_upgrade(state.reserve, supply, Upgrade(give, take))
                    except IllegalActionError:
                        continue
                    allowed.append(Upgrade(give, take))
            assert upgrade_actions(state) == allowed


def test_finish_floor_never_exceeds_the_pieces_a_finish_takes() -> None:
    rng = random.Random(3)
    cards = load_catalogue(None).cards
    for _ in range(400):
        free = rng.choice(cards).recess & (rng.getrandbits(25) | rng.getrandbits(25))
        supply = tuple(rng.choice((0, 0, 1, 1, 2, 3)) if i < len(BASE_SHAPES) else 0
                       for i in range(SHAPE_COUNT))
        floor, tiling = finish_floor(free, supply), finish_cost(free, supply)
        if floor is None:
            assert tiling is None
        elif tiling is not None:
            assert floor <= len(tiling)


def test_expansions_for_equal_options_objects_agree() -> None:
    for options in TABLES:
        twin = replace(options)
        assert twin is not options
        assert expansions_for(twin) == expansions_for(options)
        assert expansions_for(options) == tuple(e for e in registered() if e.enabled(options))
