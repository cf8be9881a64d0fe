"""Every policy by name: what AI seats, the CLI and the benchmark ask for."""

from __future__ import annotations

from collections.abc import Callable

from .end_racer import EndRacerPolicy
from .expert import ExpertPolicy
from .greedy import GreedyPolicy
from .hand_planner import HandPlannerPolicy
from .hoarder import HoardingPolicy
from .ladder_strong import LadderStrongPolicy
from .medium import MediumPolicy
from .plugins import installed_plugins, plugin_policy
from .policy import Policy
from .random_policy import RandomPolicy
from .rush_black import RushBlackPolicy
from .strong import StrongPolicy
from .turn_planner import TurnPlannerPolicy

__all__ = ["POLICIES", "policy_by_name"]

POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": RandomPolicy, "greedy": GreedyPolicy, "medium": MediumPolicy, "strong": StrongPolicy,
    "expert": ExpertPolicy, "ladder_strong": LadderStrongPolicy,
    "hand_planner": HandPlannerPolicy, "rush_black": RushBlackPolicy, "hoarder": HoardingPolicy,
    "end_racer": EndRacerPolicy, "turn_planner": TurnPlannerPolicy,
}
"""Policy factories by name, each taking a seed."""


def policy_by_name(name: str, seed: int = 0) -> Policy:
    """A fresh policy by name (a key of POLICIES: "random", "greedy", "medium", "strong",
    "expert", "ladder_strong", and the league's opponents built unlike the searches: "hand_planner",
    "rush_black", "hoarder", "end_racer", "turn_planner"; else an installed plug-in's entry-point name,
    :mod:`engine.policies.plugins`), seeded."""
    factory = POLICIES.get(name.strip().lower())
    if factory is not None:
        return factory(seed)
    if name in installed_plugins():
        return plugin_policy(name, seed)
    known = ", ".join([*POLICIES, *installed_plugins()])
    raise ValueError(f"Unknown policy '{name}'. Policies: {known}.")
