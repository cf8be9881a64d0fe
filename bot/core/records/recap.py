"""What a finished game's animated recap shows (pure: no SQL, no Discord; docs/replays.md): the
table after each round, every line's score then, and the move that swung the game most.

The swing is measured by a cheap evaluation, not the Strong AI's value: the strong policy's
search costs about half a second of CPU per position, and a recap would need two per action
(several minutes for a 4-player game, against a 5-second budget). Instead, after every action, the
eventual winner's **lead** — their running total (engine.score_lines: completed points minus
the penalties that would apply now) minus the best other running total (in Solo, the
mastermind's points) — and the swing is the action that changed that lead the most, either way
(the earliest among equals). It reads the score sheet as it stood, so a completed puzzle, a
puzzle taken that the winner could not finish, or the Finishing Touches show as what they were
worth then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import engine
from bot.core.games import Game
from bot.core.records.replay import cached_steps, revealed
from bot.core.storage import ActionRow
from engine import GameState


@dataclass(frozen=True, slots=True)
class Swing:
    frame: int
    """The recap frame (round) it happened in."""
    seat: int
    action: str
    delta: int
    """How much the winner's lead changed."""
    round: int


@dataclass(frozen=True, slots=True)
class RecapPlan:
    states: tuple[GameState, ...]
    """The table after each round; 0 is the deal. Score piles face up: the game is over."""
    scores: tuple[tuple[int, ...], ...]
    """Each line's total at each frame: one per seat, then the mastermind's in Solo."""
    swing: Swing | None


def totals(state: GameState) -> tuple[int, ...]:
    found = tuple(line.total for line in engine.score_lines(state))
    opponent = engine.opponent_score(state)
    return found if opponent is None else (*found, opponent)


def lead(state: GameState, winner: int) -> int:
    """The winner's running total minus the best other line's (``winner`` -1: the mastermind)."""
    lines = totals(state)
    mine = lines[winner] if winner >= 0 else lines[-1]
    others = [v for i, v in enumerate(lines) if i != (winner if winner >= 0 else len(lines) - 1)]
    return mine - max(others, default=0)


def biggest_swing(leads: Sequence[int]) -> int | None:
    """The index of the action (``leads[i]`` before it, ``leads[i + 1]`` after) that moved the lead
    most, the earliest among equals; None when nothing ever moved it."""
    best, found = 0, None
    for i in range(len(leads) - 1):
        change = abs(leads[i + 1] - leads[i])
        if change > best:
            best, found = change, i
    return found


def plan(game: Game, rows: Sequence[ActionRow]) -> RecapPlan:
    assert game.state is not None
    steps = cached_steps(game, rows)
    frames = [steps[0].state]
    for step, following in zip(steps[1:], [*steps[2:], None], strict=True):
        if following is None or following.round != step.round:
            frames.append(step.state)
    won = engine.winners(game.state)
    winner = won[0] if won else 0
    state = engine.initial_state(game.state)
    leads, rounds = [lead(state, winner)], []
    for row in rows:
        rounds.append(state.round)
        state = engine.apply(state, engine.parse_action(row.action), player=row.seat).state
        leads.append(lead(state, winner))
    found = biggest_swing(leads)
    swing = None
    if found is not None:
        row = rows[found]
        swing = Swing(min(rounds[found], len(frames) - 1), row.seat, row.action,
                      leads[found + 1] - leads[found], rounds[found])
    return RecapPlan(tuple(revealed(s) for s in frames), tuple(totals(s) for s in frames), swing)
