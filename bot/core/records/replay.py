"""A finished game, step by step: the states after each turn, rebuilt from the stored action log
through the engine, and each turn's log lines (pure: no SQL, no Discord; docs/replays.md).

Why from the log: the store keeps only the final state, and the log is the game's record (the
replay is what ``verify`` does, kept turn by turn). A finished game never changes, so its steps
are computed once per process and kept (a few games, :data:`KEPT`), and each step shown costs one
render of that step's table, nothing more. Hidden score piles are revealed: the game is over, so
each step's state is shown as if scores were known (:func:`revealed`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import engine
from bot.core.games import Game
from bot.core.records.history import Entry, log_entries
from bot.core.storage import ActionRow
from engine import GameState

KEPT = 8
"""Finished games whose steps are remembered (by game id: a finished game never changes)."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The table after one turn (step 0: the start), and the log lines of that turn."""

    number: int
    state: GameState
    previous: GameState | None
    entries: tuple[Entry, ...]
    round: int


def steps_of(game: Game, rows: Sequence[ActionRow]) -> list[ReplayStep]:
    """Step 0 (the deal) and one step per turn: a turn ends when the engine hands the move on
    (its ``turn`` counter moves, or the game ends)."""
    assert game.state is not None
    by_seq = {entry.seq: entry for entry in log_entries(game, rows) if entry.seq is not None}
    state = engine.initial_state(game.state)
    steps = [ReplayStep(0, state, None, (), state.round)]
    lines: list[Entry] = []
    start = state
    for row in rows:
        state = engine.apply(state, engine.parse_action(row.action), player=row.seat).state
        if row.seq in by_seq:
            lines.append(by_seq[row.seq])
        if state.turn != start.turn or state.is_over or state.phase is not start.phase:
            steps.append(ReplayStep(len(steps), state, start, tuple(lines), start.round))
            lines, start = [], state
    if lines:
        steps.append(ReplayStep(len(steps), state, start, tuple(lines), start.round))
    return steps


def revealed(state: GameState) -> GameState:
    """``state`` with its score piles face up (for a replay: the game is over)."""
    if state.options.known_scores:
        return state
    return replace(state, options=replace(state.options, known_scores=True))


CACHED_STEPS: OrderedDict[tuple[int, int, int, int], list[ReplayStep]] = OrderedDict()
""":func:`cached_steps`' replays, oldest first, at most :data:`KEPT` (a benchmark clears it to
time a replay from nothing)."""


def cached_steps(game: Game, rows: Sequence[ActionRow]) -> list[ReplayStep]:
    """:func:`steps_of`, remembered per finished game (keyed by its id, seed, revision and log
    length, so another database's game of the same id is never mistaken for it)."""
    key = (game.id, game.seed, game.revision, len(rows))
    found = CACHED_STEPS.get(key)
    if found is None:
        found = CACHED_STEPS[key] = steps_of(game, rows)
        while len(CACHED_STEPS) > KEPT:
            CACHED_STEPS.popitem(last=False)
    else:
        CACHED_STEPS.move_to_end(key)
    return found


def jump_targets(count: int, current: int, limit: int = 25) -> list[int]:
    """At most ``limit`` step numbers to offer in the "jump to turn" menu: every step when they
    fit, else evenly spread over the game, always with the first, the last and the current one."""
    if count <= limit:
        return list(range(count))
    spread = {round(i * (count - 1) / (limit - 2)) for i in range(limit - 1)} | {current}
    return sorted(spread)[:limit]
