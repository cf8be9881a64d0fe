"""Every policy by name: what AI seats, the CLI and the benchmark ask for."""

from __future__ import annotations

from collections.abc import Callable

from .expert import ExpertPolicy
from .greedy import GreedyPolicy
from .ladder_strong import LadderStrongPolicy
from .medium import MediumPolicy
from .policy import Policy
from .random_policy import RandomPolicy
from .strong import StrongPolicy

__all__ = ["POLICIES", "policy_by_name"]

POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": RandomPolicy, "greedy": GreedyPolicy, "medium": MediumPolicy, "strong": StrongPolicy,
    "expert": ExpertPolicy, "ladder_strong": LadderStrongPolicy,
}
"""Policy factories by name, each taking a seed."""


def policy_by_name(name: str, seed: int = 0) -> Policy:
    """A fresh policy by name (a key of POLICIES: "random", "greedy", "medium", "strong",
    "expert", "ladder_strong"), seeded."""
    try:
        factory = POLICIES[name.strip().lower()]
    except KeyError:
        known = ", ".join(POLICIES)
        raise ValueError(f"Unknown policy '{name}'. Policies: {known}.") from None
    return factory(seed)
