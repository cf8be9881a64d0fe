"""A finished game's record: the file a player takes away and replays anywhere.

A record is versioned JSON holding what the engine needs to play the game again exactly — the
options, the seed, the catalogue the game was dealt from, and every action with the seat that
made it — plus the result it reached and a digest of all of it. Replaying is
``new_game(options, seed, cards)`` followed by each action: the engine is deterministic, so the
final state, and its scores, come out the same on any machine.

Why a digest *and* a replay check: the digest says at once that the file was changed after it
was written (an edited score, a dropped action); the replay then proves the record's own claim —
a file whose actions are legal but whose result was rewritten (and its digest recomputed) is
still refused, because the replayed result differs.

Refusals are :class:`RecordError`, one sentence for the person who handed in the file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import parse_action
from .errors import EngineError
from .game import apply, new_game
from .rules import score_lines
from .serialisation import cards_from_json, cards_to_json, options_from_json, options_to_json
from .state import GameState

RECORD_KIND = "projectl-game-record"
RECORD_VERSION = 1
"""The record format this engine writes and reads; a newer file is refused, not guessed at."""


class RecordError(ValueError):
    """A record that cannot be replayed: the message is one sentence saying why."""


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One action of the log: the seat that played it and its engine notation."""

    seat: int
    action: str


@dataclass(frozen=True, slots=True)
class Replayed:
    """A record played through again: the final state and each seat's final score."""

    state: GameState
    scores: tuple[int, ...]
    names: tuple[str, ...]
    actions: int


def make_record(final: GameState, actions: Sequence[RecordedAction], names: Sequence[str]) -> dict[str, Any]:
    """The record of ``final`` reached by ``actions`` from its own seed (the digest included)."""
    body: dict[str, Any] = {
        "kind": RECORD_KIND,
        "version": RECORD_VERSION,
        "options": options_to_json(final.options),
        "seed": final.seed,
        "cards": cards_to_json(final.cards),
        "names": [str(name) for name in names],
        "actions": [{"seat": a.seat, "action": a.action} for a in actions],
        "result": {"over": final.is_over, "scores": [line.total for line in score_lines(final)]},
    }
    return {**body, "digest": _digest(body)}


def record_text(record: Mapping[str, Any]) -> str:
    """The file's text: indented so a person can read it, keys in a stable order."""
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def replay_record(text: str) -> Replayed:
    """Play the record in ``text`` again; refuse (:class:`RecordError`) a file that is not a
    record, is of a newer version, was changed after it was written, or does not replay to the
    result it claims."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError("This file is not a Project L game record (it is not JSON).") from None
    if not isinstance(data, dict) or data.get("kind") != RECORD_KIND:
        raise RecordError("This file is not a Project L game record.")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError("This game record has no readable version number.")
    if version > RECORD_VERSION:
        raise RecordError(f"This game record is of format version {version}; this version of the engine "
                          f"reads version {RECORD_VERSION} and older: update it to replay this file.")
    body = {key: value for key, value in data.items() if key != "digest"}
    if data.get("digest") != _digest(body):
        raise RecordError("This game record was changed after it was exported (its digest does not match).")
    try:
        options = options_from_json(data["options"])
        cards = cards_from_json(data["cards"])
        if not cards:
            raise ValueError("no cards")
        seed = int(data["seed"])
        names = tuple(str(name) for name in data["names"])
        actions = [RecordedAction(int(a["seat"]), str(a["action"])) for a in data["actions"]]
        claimed = [int(score) for score in data["result"]["scores"]]
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"This game record is incomplete or malformed ({error!s}).") from None
    state = _replay(options, seed, cards, actions)
    scores = tuple(line.total for line in score_lines(state))
    if list(scores) != claimed or state.is_over != bool(data["result"].get("over")):
        raise RecordError("This game record does not replay to the result it claims.")
    return Replayed(state, scores, names, len(actions))


def _replay(options: Any, seed: int, cards: Mapping[str, Any],
            actions: Sequence[RecordedAction]) -> GameState:
    try:
        state = new_game(options, seed, tuple(cards.values()))
    except (EngineError, KeyError, TypeError, ValueError) as error:
        raise RecordError(f"This game record's table cannot be set up: {error}") from None
    for number, recorded in enumerate(actions, start=1):
        try:
            state = apply(state, parse_action(recorded.action), player=recorded.seat).state
        except EngineError as error:
            raise RecordError(f"Action {number} of this game record ({recorded.action!r}, seat "
                              f"{recorded.seat + 1}) cannot be played: {error}") from None
    return state


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
