"""Automatic players: a seeded random baseline (:mod:`.random_policy`), greedy (:mod:`.greedy`,
its weights in :mod:`.greedy_weights`), and the strong policy that plans whole turns with
rollouts (:mod:`.strong`; :mod:`.medium` is it on a small budget), the expert policy that plans
whole turns with a position evaluation and one reply round (:mod:`.expert`), and the lobby's
Strong level that plans some turns with each (:mod:`.ladder_strong`); :mod:`.registry` names them.

Import from ``engine.policies``; the modules inside are an implementation detail.
"""

from __future__ import annotations

from .expert import EXPERT_WEIGHTS, ExpertPolicy, ExpertWeights
from .fillings import mono_need
from .gist import PlanGist, plan_gist
from .greedy import GreedyPolicy
from .greedy_weights import BASE_WEIGHTS, SOLO_WEIGHTS, GreedyWeights
from .ladder_strong import LadderStrongPolicy
from .medium import MediumPolicy
from .policy import Interruptible, Policy, StopCheck, never_stop
from .random_policy import RandomPolicy
from .registry import POLICIES, policy_by_name
from .strong import Analysis, PlanValue, StrongPolicy

__all__ = [
    "BASE_WEIGHTS", "EXPERT_WEIGHTS", "POLICIES", "SOLO_WEIGHTS", "Analysis", "ExpertPolicy", "ExpertWeights",
    "GreedyPolicy", "GreedyWeights", "Interruptible", "LadderStrongPolicy", "MediumPolicy", "PlanGist",
    "PlanValue", "Policy", "RandomPolicy", "StopCheck", "StrongPolicy", "mono_need", "never_stop",
    "plan_gist", "policy_by_name",
]
