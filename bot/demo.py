"""``python -m bot.demo --out demo-output``: a whole game between AI players, without Discord.

The game runs through the same :class:`~bot.core.play.manager.GameManager` and SQLite storage the bot uses
(the database is kept in the output folder), so the demo is also a smoke test of the bot's core.
Seat 1 is a "human" seat whose moves a policy picks and submits with ``manager.act`` — the path a
slash command takes; the other seats are policy seats that the manager plays by itself.

Written to the output folder: ``turn-NNN.png`` (the table after every turn, as the channel would
see it), ``mat-<seat>.png`` (each player's mat at the end), ``results.png``, ``recap.png`` (the
animated recap the channel gets after the results) and ``log.txt`` (every action and what it
caused).

Alongside it, in ``<out>/finesse/``, the same is written for a 2-player table with the Finesse
expansion (:data:`FINESSE_SEED`): its tile strip, credits earned and why, Inserts (the seed is
one in which the players insert) and the credits on the mats and results. ``--finesse`` plays the
requested game itself with Finesse instead; ``--single`` writes only the requested game.

``--catalogue FILE`` deals from a catalogue file (default: ``$PROJECTL_CATALOGUE``, as the bot,
else the shipped one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.core.clock import SystemClock
from bot.core.play.manager import ActionResult, GameManager, TableSettings, engine_policy
from bot.core.records import recap
from bot.core.records.summary import final_summary
from bot.core.rendering.render import ThreadedRenderer
from bot.core.storage import Storage
from engine import GameState, PuzzleCard
from engine.catalogue import CatalogueError, load_catalogue

HOST_ID = 1
CHANNEL_ID = 1
HOST_NAME = "Ana"
"""The demo's first seat: a human seat, played (like the AI seats) by the chosen policy."""
FINESSE_PLAYERS = 2
FINESSE_SEED = 3
"""The Finesse table written alongside the requested game (a seed whose players insert)."""
FINESSE_FOLDER = "finesse"


def game_kind(state: GameState | None) -> str:
    """What the log calls the table: a Line Clear table is not 'base game'."""
    variant = "base" if state is None else state.options.variant
    return {"solo": "Solo game", "lineclear": "Line Clear game"}.get(variant, "base game")


async def play(out: Path, *, players: int = 3, seed: int = 7, policy: str = "greedy",
               variant: str = "base", finesse: bool = False, quiet: bool = False,
               cards: Sequence[PuzzleCard] | None = None) -> Path:
    """Play one game, write its images and log to ``out``; return the log path."""
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.sqlite3"
    for stale in [db, *out.glob("demo.sqlite3-*"), *out.glob("*.png")]:
        stale.unlink(missing_ok=True)
    storage = await Storage.open(db, SystemClock())
    renderer = ThreadedRenderer()
    lines: list[str] = []
    try:
        manager = GameManager(storage, seed_source=lambda: seed, cards=cards)
        solo = variant == "solo"
        settings = TableSettings(variant=variant, max_players=1 if solo else players, finesse=finesse)
        result = await manager.create_game(guild_id=None, channel_id=CHANNEL_ID, host_id=HOST_ID,
                                           host_name=HOST_NAME, settings=settings)
        if not solo:
            for _ in range(players - 1):
                await manager.add_policy_seat(CHANNEL_ID, HOST_ID, policy)
            result = await manager.start(CHANNEL_ID, HOST_ID)
        chooser = engine_policy(policy, seed)
        game = result.game
        table = f"{game_kind(game.state)}{' with Finesse' if finesse else ''}"
        lines += [f"Project L demo: {table}, seed {seed}, seats: {', '.join(game.names)} "
                  f"({HOST_NAME} played by the {policy} policy too)",
                  f"{game.names[game.state.current] if game.state else '?'} plays first.", ""]
        turn, posted = await _record(out, renderer, result, lines, 0, None)
        while result.game.status == "active":
            state = result.game.state
            assert state is not None
            result = await manager.act(CHANNEL_ID, HOST_ID, chooser.choose(state))
            turn, posted = await _record(out, renderer, result, lines, turn, posted)
        game = result.game
        assert game.state is not None
        for seat in game.seats:
            image = await renderer.mat(game.state, seat.seat, game.names)
            (out / f"mat-{seat.seat + 1}.png").write_bytes(image)
        (out / "results.png").write_bytes(await renderer.results(game.state, game.names))
        plan = recap.plan(game, await manager.log(game.id))
        (out / "recap.png").write_bytes(await renderer.recap(plan.states, game.names, plan.scores,
                                                             plan.swing.frame if plan.swing else None))
        lines += ["", final_summary(game).replace("**", ""),
                  f"Replay of the stored log matches the stored state: {await manager.verify(game.id)}"]
    finally:
        await storage.close()
    log_path = out / "log.txt"
    log_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if not quiet:
        tables = len(list(out.glob("turn-*.png")))
        print(f"Wrote {tables} table image{'s' if tables != 1 else ''}, mats, results.png, recap.png and "
              f"log.txt to {out}/")
    return log_path


async def _record(out: Path, renderer: ThreadedRenderer, result: ActionResult, lines: list[str],
                  turn: int, posted: GameState | None) -> tuple[int, GameState | None]:
    """Log every step and write the table image after every turn (the deal counts as turn 0),
    each framing what changed since the one before. Returns the turn count and the last state
    drawn."""
    game = result.game
    names = game.names
    if result.started is not None and result.started.state is not None:
        posted = result.started.state
        (out / "turn-000.png").write_bytes(await renderer.table(posted, names))
    for step in result.steps:
        lines.append(f"[rev {step.revision:4d}] {names[step.seat]}: {step.text}")
        lines += [f"             {event.describe(names)}" for event in step.events]
        if step.ended_turn:
            turn += 1
            (out / f"turn-{turn:03d}.png").write_bytes(await renderer.table(step.state, names, posted))
            posted = step.state
    return turn, posted


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="demo-output", help="folder for images and log")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4, 5, 6),
                        help="2-4 base game, 5-6 Line Clear with the Ghost Piece expansion")
    parser.add_argument("--variant", default="base", choices=("base", "solo"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", default="greedy", choices=("greedy", "random"))
    parser.add_argument("--finesse", action="store_true",
                        help="play the requested game with the Finesse expansion")
    parser.add_argument("--single", action="store_true",
                        help=f"write only the requested game (no Finesse table in OUT/{FINESSE_FOLDER})")
    parser.add_argument("--catalogue", metavar="FILE", default=None,
                        help="deal from this catalogue JSON "
                             "(default: $PROJECTL_CATALOGUE, else the shipped one)")
    args = parser.parse_args(argv)
    path = args.catalogue or os.environ.get("PROJECTL_CATALOGUE", "").strip() or None
    try:
        cards = load_catalogue(path).cards
    except CatalogueError as error:
        parser.error(str(error))
    out = Path(args.out)
    asyncio.run(play(out, players=args.players, seed=args.seed, policy=args.policy,
                     variant=args.variant, finesse=args.finesse, cards=cards))
    if not (args.single or args.finesse):
        asyncio.run(play(out / FINESSE_FOLDER, players=FINESSE_PLAYERS, seed=FINESSE_SEED, finesse=True,
                         policy=args.policy, cards=cards))
    return 0


if __name__ == "__main__":
    sys.exit(main())
