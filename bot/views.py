"""(being written) Persistent buttons (discord.ui.DynamicItem)."""

from __future__ import annotations

from typing import Any

DYNAMIC_ITEMS: tuple[Any, ...] = ()
