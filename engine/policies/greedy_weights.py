"""The greedy player's weights: one frozen value per variant, so a policy's tuning is data.

:class:`~engine.policies.greedy.GreedyPolicy` reads every tunable number from a
:class:`GreedyWeights`; ``tools/tune_greedy.py`` searches over them. The class docstring of
``GreedyPolicy`` says what each one does in its preference steps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["BASE_WEIGHTS", "SOLO_WEIGHTS", "GreedyWeights"]


@dataclass(frozen=True, slots=True)
class GreedyWeights:
    """Every weight greedy plays with; the defaults are the base game's (:data:`BASE_WEIGHTS`)."""

    hoard_limit: int = 6
    """Step 7 takes a level-1 piece only while the supply holds fewer pieces than this."""
    reward_weight: float = 0.5
    """A take's value per level of its reward, fading as the deck runs down."""
    fetch_cost: float = 1.5
    """Actions counted for each piece a puzzle needs that the supply lacks."""
    denial_weight: float = 2.0
    """Solo: value per point the mastermind loses when its next pick is taken first."""
    rich_at: int = 5
    """The open-puzzle goal grows by one per this many pieces held (twice at most)."""
    late_touches: bool = True
    """Too late to finish in play: still take a puzzle Finishing Touches completes at a profit."""
    doubler_bonus: float = 0.0
    """Value added to a puzzle with a level 3–4 reward that one piece held completes."""
    eager_take: int = 1
    """Step 3 takes puzzles up to the goal less this."""
    prepare_master: bool = True
    """Step 4 (fetch a wanted piece before a Master) on or off."""
    goal_min: int = 2
    """Open puzzles to keep with a small supply."""
    goal_max: int = 4
    """The most open puzzles the goal reaches by supply."""
    lock_aware: bool = False
    """Solo denial simulates the take's lock move and refill (negative when it frees a better card)."""
    rich_level: int = 1
    """Only pieces of this level or more count toward ``rich_at``."""
    finesse_aim: bool = True
    """Finesse: aim for the live tile (tie-breaks, credit values, Inserts for useful moves)."""
    credit_weight: float = 0.3
    """Finesse: value per credit a take earns."""
    insert_reserve: int = 8
    """Finesse: active credits that must be left after an Insert before the last turn."""
    touch_credits: bool = False
    """Finesse: count the credits held as paying a late puzzle's Finishing Touches."""
    aim_goal: bool = False
    """Finesse: keep one more puzzle open while the live tile pays for takes or open puzzles."""


BASE_WEIGHTS = GreedyWeights()
"""Weights for the base game (and every variant but Solo)."""

SOLO_WEIGHTS = replace(
    BASE_WEIGHTS,
    hoard_limit=4, reward_weight=0.14, fetch_cost=0.34, denial_weight=0.58, rich_at=8,
    doubler_bonus=0.18, goal_min=1, goal_max=2, lock_aware=True,
    insert_reserve=0, touch_credits=True, aim_goal=True,
)
"""Solo's weights, from ``tools/tune_greedy.py`` (see its docstring for the search)."""
