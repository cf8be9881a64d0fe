"""Automatic players: a seeded random baseline and greedy (:mod:`.simple`), and the strong policy
that plans whole turns with rollouts (:mod:`.strong`).

Import from ``engine.policies``; the modules inside are an implementation detail.
"""

from __future__ import annotations

from .simple import POLICIES, GreedyPolicy, Policy, RandomPolicy, mono_need, policy_by_name
from .strong import Analysis, PlanValue, StrongPolicy

# The registry is defined beside the simple policies (policy_by_name reads it); the strong policy
# is registered here because its module builds on greedy.
POLICIES["strong"] = StrongPolicy

__all__ = [
    "POLICIES", "Analysis", "GreedyPolicy", "PlanValue", "Policy", "RandomPolicy", "StrongPolicy",
    "mono_need", "policy_by_name",
]
