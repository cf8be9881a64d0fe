"""Ratings and replays: their quick-bench figures, and ``python -m bench ratings``, which calibrates
the AI kinds' ratings by self-play and writes ``bot/core/records/data/ai_ratings.json`` (docs/ratings.md).

Quick bench (part of ``python -m bench bot``, a few seconds): ``rating_update_ms`` — the rating
step of a finished 4-player game inside its transaction (read, openskill update on two ladders,
write), median; ``replay_step_p95_ms`` — one replay step of a 4-player game as the bot shows it
(the steps rebuilt from the log on the first, then cached, and the step's table rendered), p95.
Both are CPU time of this process (``time.process_time``): the shared machine's load would
otherwise be most of a wall-clock figure; a render worker spends the same CPU per step.

Calibration: the kinds play each other (tables of every kind, seats rotated, and
2-seat pairs), each finished game is one Plackett-Luce update, and the ratings are shifted so the
Easy (greedy) AI sits at the starting rating (1,500 on the display scale): a new player is rated
like the Easy AI until games say otherwise. The Strong AI plays with a reduced search
(``--rollouts``, default 8 per search instead of 32) so the run fits in a few minutes; it is run
niced.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import engine
import renders
from bot.core.clock import ManualClock
from bot.core.play.manager import Game, GameManager, TableSettings
from bot.core.records import ratings, recap, replay
from bot.core.rendering.render import warm_render_worker
from bot.core.storage import Storage
from engine.policies import Policy, StrongPolicy, policy_by_name
from engine.simulate import play_game

from .load import percentile
from .report import BenchReport

KINDS = ("random", "greedy", "medium", "strong", "ladder_strong", "expert")
"""The AI kinds a seat can hold, weakest first: the levels a table can seat (bot/core/games.py
POLICY_NAMES) and the retired ``strong``, which seats stored before 2026-12-05 still play."""


async def _finished_game(workdir: Path, players: int = 4) -> tuple[Storage, GameManager, Game]:
    clock = ManualClock(datetime(2024, 1, 1, tzinfo=UTC))
    storage = await Storage.open(":memory:", clock)  # the figures are CPU, not the disk
    manager = GameManager(storage, clock=clock, seed_source=lambda: 2027)
    await manager.create_game(guild_id=1, channel_id=1, host_id=1, host_name="p1",
                              settings=TableSettings(max_players=players))
    for user in range(2, players + 1):
        await manager.join(1, user, f"p{user}")
    game = (await manager.start(1, 1)).game
    policy = policy_by_name("greedy", 1)
    while (found := await manager.game(game.id)) is not None and found.status != "finished":
        assert found.state is not None and found.current is not None and found.current.user_id is not None
        await manager.act(1, found.current.user_id, policy.choose(found.state))
    assert found is not None
    return storage, manager, found


async def _measure(workdir: Path) -> tuple[list[float], list[float], int, tuple[float, float, int]]:
    storage, manager, game = await _finished_game(workdir)
    try:
        assert game.state is not None
        state = game.state
        update_ms: list[float] = []
        for _ in range(40):
            step = ratings.rating_step(game, state)

            def work(conn: object, step: object = step) -> None:
                for table in ("rated_games", "rating_changes", "rating_order"):  # rate the same game again
                    conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game.id,))  # type: ignore[attr-defined]
                began = time.process_time()
                step.run(conn, "bench")  # type: ignore[attr-defined]
                update_ms.append((time.process_time() - began) * 1000)

            await storage.write(work)
        rows = await manager.log(game.id)
        step_ms: list[float] = []
        replay.CACHED_STEPS.clear()
        count = len(replay.cached_steps(game, rows))
        replay.CACHED_STEPS.clear()
        warm_render_worker()  # as every render worker is when the bot starts (bot/core/rendering/render.py)
        for number in range(count):
            began = time.process_time()
            shown = replay.cached_steps(game, await manager.log(game.id))[number]
            renders.render_table(replay.revealed(shown.state), game.names,
                                 None if shown.previous is None else replay.revealed(shown.previous))
            step_ms.append((time.process_time() - began) * 1000)
        replay.CACHED_STEPS.clear()
        began = time.process_time()
        shown_plan = recap.plan(game, rows)
        image = renders.render_recap(shown_plan.states, game.names, shown_plan.scores,
                                     None if shown_plan.swing is None else shown_plan.swing.frame)
        recap_cost = (time.process_time() - began, len(image) / 1e6, game.state.turn)
        return update_ms, step_ms, count, recap_cost
    finally:
        await storage.close()


def quick_cases(report: BenchReport) -> None:
    """The two quick-bench figures (a few seconds)."""
    with tempfile.TemporaryDirectory(prefix="projectl-ratings-") as tmp:
        update_ms, step_ms, steps, (recap_s, recap_mb, turns) = asyncio.run(_measure(Path(tmp)))
    report.add("rating_update_ms", round(statistics.median(update_ms), 2),
               label="a finished 4-player game's rating update in its transaction, median (CPU)", unit="ms")
    report.add("replay_step_p95_ms", round(percentile(step_ms, 95), 1),
               label="one replay step of a 4-player game (log replayed once, the table drawn), p95 (CPU)",
               unit="ms", note=f"{steps} steps")
    report.add("recap_cpu_s", round(recap_s, 2), unit="s", note=f"{turns} turns",
               label="the animated recap of a 4-player game (plan, swing and every frame), CPU")
    report.add("recap_mb", round(recap_mb, 2), unit="MB", label="... its animated PNG")


# -- calibration ------------------------------------------------------------------------------------


def _policy(kind: str, seed: int, rollouts: int) -> Policy:
    if kind == "strong":  # rollouts 0: the Strong AI exactly as a table seats it (its full search)
        return StrongPolicy(seed, rollouts=rollouts, max_rollouts=rollouts) if rollouts \
            else StrongPolicy(seed)
    return policy_by_name(kind, seed)


def tables(games: int) -> list[tuple[str, ...]]:
    """Who sits where in each game: tables of every kind (seats rotated) and, in between, 2-seat
    pairs of every two kinds (seats swapped on each pass)."""
    plans: list[tuple[str, ...]] = []
    rotations = [KINDS[i:] + KINDS[:i] for i in range(len(KINDS))]
    pairs = list(itertools.combinations(KINDS, 2))
    for n in range(games):
        k = n // 2
        pair = pairs[k % len(pairs)]
        plans.append(rotations[k % len(rotations)] if n % 2 == 0
                     else (pair if (k // len(pairs)) % 2 == 0 else pair[::-1]))
    return plans


def calibrate(games: int, rollouts: int, seed: int = 1) -> dict[str, tuple[float, float, int]]:
    model = ratings.MODEL
    current = {kind: model.rating(mu=ratings.INITIAL[0], sigma=ratings.INITIAL[1]) for kind in KINDS}
    played = dict.fromkeys(KINDS, 0)
    for n, seats in enumerate(tables(games)):
        record = play_game(engine.Options.for_players(len(seats)), seed + n,
                           [_policy(kind, seed + n * 7 + i, rollouts) for i, kind in enumerate(seats)],
                           keep_log=False)
        if not record.winners:
            continue  # stalled: no result
        ranks = [-float(score) for score in record.scores]
        updated = model.rate([[current[kind]] for kind in seats], ranks=ranks)
        for kind, team in zip(seats, updated, strict=True):
            current[kind] = team[0]
            played[kind] += 1
        print(f"game {n + 1}/{games}: {' / '.join(seats)} scored {record.scores}", flush=True)
    shift = ratings.INITIAL[0] - current["greedy"].mu
    return {kind: (current[kind].mu + shift, current[kind].sigma, played[kind]) for kind in KINDS}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench ratings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="self-play games (default 12: a few minutes)")
    parser.add_argument("--rollouts", type=int, default=8,
                        help="the Strong AI's rollouts per search (0: its full search, as a table seats it)")
    parser.add_argument("--out", type=Path, default=ratings.AI_RATINGS_FILE)
    args = parser.parse_args(argv)
    os.nice(10)  # the machine is shared: calibration never competes with the bot or the tests
    started = time.perf_counter()
    found = calibrate(args.games, args.rollouts)
    search = f"{args.rollouts} rollouts per search" if args.rollouts else "its full search"
    data: dict[str, object] = {"_about": (
        f"python -m bench ratings: {args.games} self-play games (Strong at {search}), openskill "
        "Plackett-Luce, shifted so the greedy (Easy) AI is at mu 25 (1,500 shown)")}
    for kind, (mu, sigma, games) in found.items():
        data[kind] = {"mu": round(mu, 3), "sigma": round(sigma, 3), "games": games,
                      "shown": ratings.display(mu)}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=1))
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")
    return 0
