"""The actions worth trying at one step of a search: the pruning the strong and the expert
policies share, so a new action kind (a variant's own) is handled once for both.

Every take and draw, level-1, the upgrades to a shape an unfinished puzzle wants (or up from one
it does not), one recycle per colour, the best placements on a fewest-pieces filling of each
puzzle, the greedy policy's choice, its Master and Ambassador flip, and the first
:data:`OTHER_KIND_LIMIT` actions of any kind this module does not know. A step with few legal
actions, or outside the play phase (a pending decision, Finishing Touches), tries them all.
"""

from __future__ import annotations

from ..actions import Action, AmbassadorAction, Master, Place, Upgrade
from ..legal import legal_actions
from ..state import GameState, Phase
from .fillings import free_masks, good_moves
from .greedy import GreedyPolicy

OTHER_KIND_LIMIT = 8
"""Actions of a kind this module does not know (a variant's own) tried per step, in legal order."""
KNOWN_KINDS = frozenset({"take", "draw", "level1", "done", "pass"})
ALL_UNDER = 8
"""A step with at most this many legal actions tries every one."""


def step_candidates(state: GameState, pruner: GreedyPolicy, per_card: int = 3,
                    with_greedy: bool = True) -> list[Action]:
    """The actions worth trying from ``state`` (see the module), without repeats, in a stable
    order: ``pruner``'s choice first when ``with_greedy``, then ``per_card`` placements a puzzle."""
    actions = legal_actions(state)
    chosen: dict[Action, None] = {pruner.choose(state): None} if with_greedy else {}
    if len(actions) <= ALL_UNDER or state.phase is not Phase.PLAY:
        chosen.update(dict.fromkeys(actions))
        return list(chosen)
    player = state.players[state.current]
    free = free_masks(state, player)
    wanted = {s for mask in free.values() for s, _ in good_moves(mask)}
    places: dict[str, list[Place]] = {}
    recycled: set[object] = set()
    others: dict[str, int] = {}
    for action in actions:
        kind = action.kind
        if kind == "place":
            assert isinstance(action, Place)
            if (action.shape, action.mask) in good_moves(free[action.card]):
                places.setdefault(action.card, []).append(action)
        elif kind == "upgrade":
            assert isinstance(action, Upgrade)
            if action.take in wanted and player.supply[action.take.index] == 0:
                chosen[action] = None
            elif action.give not in wanted and action.take.level > action.give.level:
                chosen[action] = None
        elif kind == "recycle":
            colour = getattr(action, "colour", None)
            if colour not in recycled:
                recycled.add(colour)
                chosen[action] = None
        elif kind in KNOWN_KINDS:
            chosen[action] = None
        elif others.get(kind, 0) < OTHER_KIND_LIMIT:
            others[kind] = others.get(kind, 0) + 1
            chosen[action] = None
    for card, found in places.items():
        rest = free[card]
        found.sort(key=lambda p: (p.mask == rest, p.shape.size, player.supply[p.shape.index]), reverse=True)
        chosen.update(dict.fromkeys(found[:per_card]))
    order = sorted(free)
    master = pruner.master_action(state, player, free, order)
    if isinstance(master, Master | AmbassadorAction):
        chosen[master] = None
    # Ambassador Pack: the flip is a candidate beside Master, not only once Master is used.
    ambassador = pruner.ambassador_action(state, player, free, order)
    if ambassador is not None:
        chosen[ambassador] = None
    return list(chosen)
