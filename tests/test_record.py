"""A finished game's record (engine/record.py, ``python -m engine replay``): exported, it replays
to the same final state and scores on every table the engine accepts; a changed, newer or
foreign file is refused with one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import apply, new_game, serialisation
from engine.__main__ import main
from engine.policies import policy_by_name
from engine.record import (
    RECORD_VERSION,
    RecordedAction,
    RecordError,
    make_record,
    record_text,
    replay_record,
)
from engine.state import GameState
from engine.sweep import tables

GAMES = 200
"""Round trips checked: one game on each of the sweep's tables (every mode and expansion), then
more seeds from the start of that list; in chunks, so parallel test workers share them."""
CHUNK = 25


def _played(index: int) -> tuple[GameState, list[RecordedAction]]:
    options = tables()[index % len(tables())]
    state = new_game(options, 9_000 + index)
    policy = policy_by_name("greedy")
    log = []
    while not state.is_over:
        seat = state.current
        action = policy.choose(state)
        state = apply(state, action, player=seat).state
        log.append(RecordedAction(seat, str(action)))
    return state, log


@pytest.fixture(scope="module")
def games() -> list[tuple[GameState, list[RecordedAction]]]:
    return [_played(0)]


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_every_finished_game_replays_to_its_final_state(first: int) -> None:
    for final, log in map(_played, range(first, first + CHUNK)):
        names = [f"Player {seat + 1}" for seat in range(final.options.players)]
        replayed = replay_record(record_text(make_record(final, log, names)))
        assert serialisation.dumps(replayed.state) == serialisation.dumps(final)
        assert replayed.actions == len(log)
        assert replayed.names == tuple(names)


def _record(games: list[tuple[GameState, list[RecordedAction]]]) -> dict[str, object]:
    final, log = games[0]
    return make_record(final, log, ["Ana", "<b>Bo</b>"][: final.options.players] or ["Ana"])


def _redigest(record: dict[str, object]) -> dict[str, object]:
    """The record as a forger would leave it: the digest recomputed over the changed body."""
    from engine.record import _digest

    body = {k: v for k, v in record.items() if k != "digest"}
    return {**body, "digest": _digest(body)}


def test_a_changed_record_is_refused(games: list[tuple[GameState, list[RecordedAction]]]) -> None:
    record = _record(games)
    scores = json.loads(json.dumps(record))
    scores["result"]["scores"][0] += 5
    with pytest.raises(RecordError, match="changed after it was exported"):
        replay_record(record_text(scores))
    with pytest.raises(RecordError, match="does not replay to the result it claims"):
        replay_record(record_text(_redigest(scores)))
    dropped = json.loads(json.dumps(record))
    dropped["actions"] = dropped["actions"][:-1]
    with pytest.raises(RecordError):
        replay_record(record_text(_redigest(dropped)))
    swapped = json.loads(json.dumps(record))
    swapped["actions"][0]["action"] = "place I1 on W99 at A1"
    with pytest.raises(RecordError, match="Action 1 of this game record"):
        replay_record(record_text(_redigest(swapped)))


@pytest.mark.parametrize(("text", "says"), [
    ("not json {", "not JSON"),
    ("[1, 2]", "not a Project L game record"),
    (json.dumps({"kind": "projectl-game-record"}), "no readable version"),
    (json.dumps({"kind": "projectl-game-record", "version": RECORD_VERSION + 1}), "update it"),
])
def test_a_foreign_or_newer_file_is_refused(text: str, says: str) -> None:
    with pytest.raises(RecordError, match=says):
        replay_record(text)


def test_an_incomplete_record_is_refused_in_one_sentence() -> None:
    body = {"kind": "projectl-game-record", "version": RECORD_VERSION, "seed": 1}
    with pytest.raises(RecordError, match="incomplete or malformed"):
        replay_record(record_text(_redigest(body)))


def test_the_command_prints_the_scores(tmp_path: Path, games: list[tuple[GameState, list[RecordedAction]]],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(games)
    path = tmp_path / "game.json"
    path.write_text(record_text(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Replayed ") and "matches" in out[0]
    assert out[1:] == [f"{name}: {score}" for name, score in
                       zip(record["names"], record["result"]["scores"], strict=False)]  # type: ignore[call-overload]


def test_the_command_refuses_in_one_line(tmp_path: Path, games: list[tuple[GameState, list[RecordedAction]]],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(games)
    record["seed"] = 12345
    path = tmp_path / "game.json"
    path.write_text(record_text(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "changed after it was exported" in captured.err
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
