"""Playing whole games with policies: the simulator behind tests, the CLI and the benchmark.

A game that reaches the turn cap is reported as ``stalled`` with no winner, never as finished:
some tables really have no way forward (see ``engine.policies``), and a simulator that hid them
would hide rule and policy bugs too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import PuzzleCard
from .catalogue import load_catalogue
from .events import ActionInserted, CreditEarned
from .game import apply, new_game, opponent_score, winners
from .policies import Policy
from .rules import score_lines
from .state import GameState, Options

DEFAULT_MAX_TURNS = 600
"""Player turns before a game counts as stalled: finished games take 30–120 turns."""


@lru_cache(maxsize=1)
def default_cards() -> tuple[PuzzleCard, ...]:
    """The shipped catalogue, loaded once: ``new_game`` without cards re-reads and re-validates
    the file every time (about 7 ms, more than a whole random game's actions)."""
    return load_catalogue(None).cards


@dataclass(frozen=True)
class GameRecord:
    """What happened in one simulated game.

    ``winners`` is empty for a stalled game; -1 is the Solo mastermind. ``mastermind`` is the
    mastermind's score in Solo and None otherwise. ``log`` holds every action in text form.
    """

    seed: int
    options: Options
    rounds: int
    turns: int
    actions: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    stalled: bool
    mastermind: int | None = None
    inserts: int = 0
    """Finesse: Insert actions played (all seats)."""
    credits: tuple[int, ...] = ()
    """Finesse: credits earned per seat over the game (before any were spent)."""
    log: tuple[str, ...] = field(default=(), repr=False)
    final_state: GameState | None = field(default=None, repr=False, compare=False)

    @property
    def ended(self) -> bool:
        """True when the game reached its normal end (Finishing Touches done, scores final)."""
        return not self.stalled

    def to_json(self, *, with_log: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seed": self.seed,
            "variant": self.options.variant,
            "players": self.options.players,
            **({"ghost": True} if self.options.ghost else {}),
            **{flag: True for flag in ("ambassador", "phoenix", "finesse_ambassador")
               if getattr(self.options, flag)},
            **({"finesse": True, "inserts": self.inserts, "credits": list(self.credits)}
               if self.options.finesse else {}),
            "rounds": self.rounds,
            "turns": self.turns,
            "actions": self.actions,
            "scores": list(self.scores),
            "winner": list(self.winners),
            "stalled": self.stalled,
        }
        if self.options.variant == "solo":
            data["difficulty"] = self.options.difficulty.value
            data["mastermind"] = self.mastermind
        if with_log:
            data["log"] = list(self.log)
        return data


def play_game(
    options: Options,
    seed: int,
    policies: Sequence[Policy],
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    keep_log: bool = True,
    cards: Sequence[PuzzleCard] | None = None,
) -> GameRecord:
    """Play one game from ``seed``, seat ``i`` choosing with ``policies[i]``.

    Stops after ``max_turns`` player turns and reports the game as stalled. Scores of a stalled
    game are what the score sheet would say at that moment, for diagnosis only. ``cards``
    defaults to the shipped catalogue.
    """
    if len(policies) != options.players:
        raise ValueError(f"{options.players} seat(s) but {len(policies)} policies.")
    state = new_game(options, seed, default_cards() if cards is None else cards)
    log: list[str] = []
    actions = inserts = 0
    credits = [0] * options.players
    while not state.is_over and state.turn <= max_turns:
        action = policies[state.current].choose(state)
        outcome = apply(state, action)
        state = outcome.state
        actions += 1
        if options.finesse:
            for event in outcome.events:
                if isinstance(event, CreditEarned):
                    credits[event.seat] += 1
                elif isinstance(event, ActionInserted):
                    inserts += 1
        if keep_log:
            log.append(str(action))
    stalled = not state.is_over
    return GameRecord(
        seed=seed,
        options=options,
        rounds=state.round,
        turns=state.turn,
        actions=actions,
        scores=tuple(line.total for line in score_lines(state)),
        winners=() if stalled else winners(state),
        stalled=stalled,
        mastermind=opponent_score(state),
        inserts=inserts,
        credits=tuple(credits) if options.finesse else (),
        log=tuple(log),
        final_state=state,
    )
