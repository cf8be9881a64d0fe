"""Automatic players (the package): the random baseline and greedy live in :mod:`.simple`.

Import from ``engine.policies``; the modules inside are an implementation detail.
"""

from __future__ import annotations

from .simple import POLICIES, GreedyPolicy, Policy, RandomPolicy, mono_need, policy_by_name

__all__ = ["POLICIES", "GreedyPolicy", "Policy", "RandomPolicy", "mono_need", "policy_by_name"]
