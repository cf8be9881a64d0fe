"""(being written) Shared helpers for cogs: error reporting and turn posts."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)


async def report_error(interaction: discord.Interaction, error: Exception) -> None:
    log.error("unhandled error", exc_info=error)


async def post_turn(bot: Any, channel: Any, result: Any) -> None:
    return None
