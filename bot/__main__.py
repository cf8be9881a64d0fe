"""``python -m bot`` / ``projectl-bot``: start the bot with settings from the environment / .env.

A first run should end in one sentence that says what to fix, never a traceback: configuration
problems, a rejected token and an unreachable Discord are each reported that way.
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord

from .allocator import limit_heap_growth
from .app import create_bot
from .config import ConfigError, Settings


class _NoVoiceNoise(logging.Filter):
    """This bot has no voice features; discord.py's "voice will NOT be supported" warnings would
    only worry a newcomer."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def _fail(message: str) -> int:
    print(f"projectl-bot: {message}", file=sys.stderr)
    return 2


async def _run(settings: Settings) -> None:
    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.token)


def main(argv: list[str] | None = None) -> int:
    limit_heap_growth()
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        return _fail(str(error))
    logging.basicConfig(
        level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord.client").addFilter(_NoVoiceNoise())
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        return _fail("Discord rejected DISCORD_TOKEN: reset the token on your application's Bot page "
                     "and paste the new one into .env.")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested intents; this bot needs no privileged intents, "
                     "so check you are running this project's code.")
    except (aiohttp.ClientConnectionError, OSError) as error:
        return _fail(f"Could not reach Discord ({error.__class__.__name__}): check the network and "
                     "try again.")
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
