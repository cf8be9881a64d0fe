"""``python -m bot.ratings recompute --db PATH``: rebuild every rating from the stored results.

Why a command: ratings are derived data (docs/ratings.md). After a rule change, a restored
backup or a doubt, the maintainer rebuilds them from the finished games with the very step the
game end runs, in the order the games ended, in one transaction. ``--db`` takes a SQLite file or
a ``postgresql://`` URL (default: PROJECTL_DATABASE_URL, else PROJECTL_DB_PATH, else the bot's
default file).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from bot.core.config import DEFAULT_DB_PATH
from bot.core.records.ratings import recompute
from bot.core.storage import Storage, StorageOpenError
from bot.core.storage.postgres import is_postgres_url


async def _recompute(target: str) -> int:
    if not is_postgres_url(target) and not Path(target).expanduser().exists():
        return _fail(f"there is no database file {target}: name the bot's database with --db.")
    try:
        storage = await Storage.open(target)
    except StorageOpenError as error:  # a newer bot's database, not a database, locked, no server
        return _fail(str(error))
    try:
        judged, unreadable = await recompute(storage)
    finally:
        await storage.close()
    print(f"ratings recomputed from {judged} finished game(s)"
          + (f"; {unreadable} unreadable game(s) left out" if unreadable else ""))
    return 0


def _fail(message: str) -> int:
    print(f"python -m bot.ratings: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ratings", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    again = commands.add_parser("recompute", help="rebuild every rating from the finished games")
    again.add_argument("--db", default=os.environ.get("PROJECTL_DATABASE_URL")
                       or os.environ.get("PROJECTL_DB_PATH") or DEFAULT_DB_PATH)
    args = parser.parse_args(argv)
    return asyncio.run(_recompute(args.db))


if __name__ == "__main__":
    sys.exit(main())
