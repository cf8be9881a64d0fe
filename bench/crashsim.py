"""The process the soak kills: simulated tables playing through GameManager on a file database.

``python -m bench.crashsim DB --seed S [--channels N] [--per-channel K]``

It is the bot minus Discord: the same Storage (WAL, ``synchronous=FULL``), the same manager and
its per-channel locks, ``resume()`` at start-up, several channels playing concurrently. Whenever
the manager returns — i.e. the moment the bot would tell a player "done" — it prints one line
(written with a single ``write`` on an unbuffered pipe, so a SIGKILL cannot leave half of it):

* ``READY`` once the database is open and ``resume()`` ran;
* ``ACT <game> <revision> <action text>`` for every committed step (AI seats' included);
* ``STATE <game> <revision> <status>`` after a lobby change (create, join, AI seat, start, cancel).

The parent (:mod:`bench.soak`) kills it at random moments and checks every such line against the
database. Without ``--per-channel`` it plays until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys

from bot.core.errors import BotError
from bot.core.play.manager import ActionResult, Game, GameManager, TableSettings
from bot.core.storage import Storage

from .players import choose_action, policy_factory

CANCEL_AFTER_REVISION = 300
"""Simulated games that stall (random play can) are cancelled by their host and replaced."""


def emit(line: str) -> None:
    """One acknowledgement line, one write(2): atomic on a pipe, so never torn by a kill."""
    os.write(1, (line + "\n").encode())


def emit_result(result: ActionResult) -> None:
    if result.started is not None:
        emit(f"STATE {result.started.id} {result.started.revision} {result.started.status}")
    for step in result.steps:
        emit(f"ACT {result.game.id} {step.revision} {step.text}")
    if not result.steps and result.started is None:
        emit(f"STATE {result.game.id} {result.game.revision} {result.game.status}")


def host_of(channel: int) -> int:
    return channel * 10 + 1


async def open_table(manager: GameManager, channel: int, rng: random.Random) -> None:
    """Create a lobby (sometimes Solo, sometimes with an AI seat), fill it and start it."""
    solo = rng.random() < 0.2
    settings = TableSettings("solo", 1) if solo else TableSettings("base", rng.randint(2, 4))
    result = await manager.create_game(
        guild_id=1, channel_id=channel, host_id=host_of(channel), host_name="host", settings=settings
    )
    emit_result(result)


async def fill_lobby(manager: GameManager, game: Game, rng: random.Random) -> None:
    """One lobby step: add a human or an AI seat, or start when full."""
    if game.is_full:
        emit_result(await manager.start(game.channel_id, game.host_id))
        return
    if rng.random() < 0.3 and not any(s.is_ai for s in game.seats):
        changed = await manager.add_policy_seat(game.channel_id, game.host_id, "random")
    else:
        user = game.channel_id * 10 + len(game.seats) + 1
        changed = await manager.join(game.channel_id, user, f"player{len(game.seats) + 1}")
    emit(f"STATE {changed.id} {changed.revision} {changed.status}")


async def step(manager: GameManager, channel: int, rng: random.Random) -> bool:
    """Make one change in ``channel``; True when it was a player's action."""
    game = await manager.game_in_channel(channel)
    if game is None:
        await open_table(manager, channel, rng)
        return False
    if game.status == "lobby":
        await fill_lobby(manager, game, rng)
        return False
    current = game.current
    if current is not None and current.user_id is None:
        raise SystemExit(f"game {game.id}: an AI seat was left to move (resume() should have played)")
    if game.revision > CANCEL_AFTER_REVISION or current is None:
        cancelled = await manager.cancel(channel, game.host_id)
        emit(f"STATE {cancelled.id} {cancelled.revision} {cancelled.status}")
        return False
    assert game.state is not None
    emit_result(await manager.act(channel, current.user_id, choose_action(game.state, rng)))
    return True


async def play_channel(manager: GameManager, channel: int, seed: int, actions: int | None) -> None:
    rng = random.Random(seed)
    done = 0
    while actions is None or done < actions:
        try:
            done += await step(manager, channel, rng)
        except BotError as error:  # a refusal is a bug in this driver: make it loud
            raise SystemExit(f"channel {channel}: refused: {error.message}") from error
        await asyncio.sleep(0)


async def main(path: str, seed: int, channels: int, per_channel: int | None) -> None:
    storage = await Storage.open(path)
    rng = random.Random(seed)
    manager = GameManager(storage, seed_source=lambda: rng.getrandbits(62), policies=policy_factory)
    try:
        for result in await manager.resume():
            emit_result(result)
        emit("READY")
        await asyncio.gather(*(
            play_channel(manager, 1000 + c, seed * 7919 + c, per_channel) for c in range(channels)
        ))
    finally:
        await storage.close()


def cli(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crashsim", description=__doc__.split("\n\n")[0])
    parser.add_argument("db")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--channels", type=int, default=6)
    parser.add_argument("--per-channel", type=int, default=None,
                        help="stop after this many player actions per channel (default: until killed)")
    args = parser.parse_args(argv)
    asyncio.run(main(args.db, args.seed, args.channels, args.per_channel))
    return 0


if __name__ == "__main__":
    sys.exit(cli())
