"""A deep copy for the JSON-shaped payloads the harness snapshots.

The harness copies every request body, response and message payload so that discord.py's
in-place mutations never reach what a test inspects. ``copy.deepcopy`` pays for a memo of
every object and a dispatch per value; for dicts, lists and scalars that is several times
the work of rebuilding them, and it was the harness's largest cost per action (a third of
an action's time in the latency bench). Strings of any class are kept, as immutable;
anything else falls back to ``copy.deepcopy``.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T")

_SCALARS = (str, int, float, bool, type(None))


def json_copy(value: T) -> T:
    """``value`` copied as ``copy.deepcopy`` would, fast for plain dicts, lists and tuples.

    >>> payload = {"a": [1, {"b": "c"}], "t": (1, 2)}
    >>> clone = json_copy(payload)
    >>> clone == payload and clone["a"] is not payload["a"] and clone["a"][1] is not payload["a"][1]
    True
    """
    return _copy(value)  # type: ignore[no-any-return]


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list:
        return [_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    if kind is tuple:
        return tuple(_copy(item) for item in value)
    if isinstance(value, str):  # the bot's wording (locales.Text, PlayerName): immutable strings
        return value
    return copy.deepcopy(value)
