"""``python -m bot`` / ``projectl-bot``: start the bot with settings from the environment / .env.

A first run should end in one sentence that says what to fix, never a traceback: configuration
problems, a database that cannot be opened (checked before Discord is contacted), a rejected
token and an unreachable Discord are each reported that way, with a non-zero exit.

SIGTERM (what ``systemctl stop`` and ``docker stop`` send) stops the bot as Ctrl-C does: the
gateway and the database are closed, and the process exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sqlite3
import sys

import aiohttp
import discord

from bot.core.config import ConfigError, Settings
from bot.core.rendering.allocator import limit_heap_growth
from bot.core.rendering.collector import tune_collector
from bot.core.storage import OPEN_STATUSES, Storage, StorageOpenError
from bot.core.storage.opening import known_sqlite_fault
from bot.core.storage.postgres import is_postgres_url

from .discord.app import create_bot


class _NoVoiceNoise(logging.Filter):
    """This bot has no voice features; discord.py's "voice will NOT be supported" warnings would
    only worry a newcomer."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def _fail(message: str) -> int:
    print(f"projectl-bot: {message}", file=sys.stderr)
    return 2


async def _check_storage(settings: Settings) -> None:
    """Open (and migrate) the database once before contacting Discord, so that a database that
    cannot be used is reported as such, not as a failed login or an unreachable Discord; and read
    the open games of a SQLite file, as ``resume()`` will first: a damaged page there opens fine
    but is found only by a read (PostgreSQL has no such file: nothing is read twice there)."""
    storage = await Storage.open(settings.db_path)
    try:
        if not is_postgres_url(settings.db_path):
            async for _ in storage.iter_games_with_status(*OPEN_STATUSES):
                pass
    except sqlite3.DatabaseError as error:
        raise _sqlite_fault(settings, error) from None
    finally:
        await storage.close()


def _sqlite_fault(settings: Settings, error: sqlite3.DatabaseError) -> BaseException:
    """A fault of the SQLite file as the sentence that says so; any other error as it is."""
    return known_sqlite_fault(settings.db_path, error) or error


async def _run(settings: Settings) -> None:
    stopping = stop_on_sigterm()
    bot = create_bot(settings)
    try:
        async with bot:  # closing the bot closes the gateway, the renderer and the database
            await bot.start(settings.token)
    except asyncio.CancelledError:
        if not stopping.is_set():
            raise


def stop_on_sigterm() -> asyncio.Event:
    """Make SIGTERM cancel the running main task, as asyncio.run does for Ctrl-C, so that the
    ``async with`` blocks above it close what they opened. The event tells a cancellation that
    SIGTERM asked for from any other."""
    stopping = asyncio.Event()
    task = asyncio.current_task()

    def stop() -> None:
        stopping.set()
        if task is not None:
            task.cancel()

    try:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
        pass
    return stopping


def main(argv: list[str] | None = None) -> int:
    """Start the bot; ``argv`` (the command line's arguments) takes only ``--help``: every setting
    comes from the environment or .env, so anything else is refused rather than ignored."""
    argparse.ArgumentParser(
        prog="python -m bot", description="Run the Project L bot on Discord.",
        epilog="Settings come from the environment or .env (DISCORD_TOKEN and the PROJECTL_* "
               "variables; see .env.example and README.md). make run starts it the same way.",
    ).parse_args(argv)
    limit_heap_growth()
    tune_collector()
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        return _fail(str(error))
    logging.basicConfig(
        level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("discord.client").addFilter(_NoVoiceNoise())
    try:
        asyncio.run(_check_storage(settings))
    except StorageOpenError as error:
        return _fail(str(error))
    try:
        asyncio.run(_run(settings))
    except StorageOpenError as error:  # the database changed between the check and the start
        return _fail(str(error))
    except sqlite3.DatabaseError as error:  # a damaged page read later in the start (resume())
        fault = _sqlite_fault(settings, error)
        if fault is error:
            raise
        return _fail(str(fault))
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
