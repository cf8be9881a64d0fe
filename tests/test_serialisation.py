"""Game state ↔ JSON, the schema version, determinism and replay.

See docs/engine.md "JSON format" and "Determinism & replay": ``loads(dumps(s)) == s``
exactly, ``dumps`` is stable (key-sorted, compact), unknown schema versions and malformed data are
refused with StateFormatError, and a game is fully determined by its seed and its action log.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest
from positions import at_turn_start, game, play, play_out, with_player

from engine import (
    SCHEMA_VERSION,
    Difficulty,
    EngineError,
    GameState,
    IllegalActionError,
    Options,
    Phase,
    RemovePlayer,
    StateFormatError,
    new_game,
    parse_action,
    replay,
    serialisation,
)
from engine.catalogue import load_catalogue
from engine.serialisation import cards_from_text, catalogue_key, catalogue_text

TOP_LEVEL_KEYS = {
    "schema", "options", "seed", "rng_state", "cards", "reserve", "players", "table", "phase",
    "current", "first_player", "round", "turn", "actions_left", "master_used", "black_taken",
    "last_round",
}


def _states() -> dict[str, GameState]:
    """States from every corner of the format: both tables, pieces on puzzles, Finishing-Touch
    cards with their pieces, a removed player, test cards, every phase."""
    base = game(3, seed=5, reserve=15, unfinished_penalty=False)
    mid = with_player(at_turn_start(base, 1), 1, supply="1 2 L3 S4",
                      puzzles=[("TO", [("2", "A1 B1")]), ("TB", [("I3", "A1 B1 C1"), ("1", "D2")])],
                      completed=["TD"])
    finishing = mid.evolve(phase=Phase.FINISHING, actions_left=0, last_round=3, round=3)
    finishing = play(finishing.evolve(current=1), "place 1 on TB at A2")
    removed = play(at_turn_start(base, 0), RemovePlayer(2))
    solo_game = game(1, seed=9, difficulty=Difficulty.HARD)
    finished, _ = play_out(game(2, seed=1), 1)
    assert finished.is_over
    return {
        "fresh": base, "mid": mid, "finishing": finishing, "removed": removed,
        "finishing-completed": play(finishing, "place 2 on TO at A2 B2"),
        "solo": solo_game, "solo-played": play(solo_game, "take 4", "draw", "level1", "level1"),
        "over": finished,
    }


STATES = _states()


@pytest.mark.parametrize("name", list(STATES))
def test_json_round_trip_is_exact(name: str) -> None:
    """state.py: serialisation.loads(serialisation.dumps(s)) == s, and dumping again gives the same text."""
    state = STATES[name]
    text = serialisation.dumps(state)
    again = serialisation.loads(text)
    assert again == state
    assert serialisation.dumps(again) == text
    assert serialisation.state_from_json(json.loads(text)) == state


def test_dumps_is_compact_and_key_sorted() -> None:
    """Equal states give equal text: compact separators and sorted keys at every level."""
    state = STATES["mid"]
    text = serialisation.dumps(state)
    data = json.loads(text)
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"))
    assert set(data) == TOP_LEVEL_KEYS
    assert data["schema"] == SCHEMA_VERSION == 4


def test_json_is_readable() -> None:
    """The format is meant to be read: shapes by code, cells by name, recesses drawn with '#'."""
    data = json.loads(serialisation.dumps(STATES["finishing"]))
    player = data["players"][1]
    assert player["supply"] == {"2": 1, "L3": 1, "S4": 1}     # zero counts are left out
    assert player["puzzles"] == [
        {"card": "TO", "pieces": [["2", "A1 B1"]]},
        {"card": "TB", "pieces": [["I3", "A1 B1 C1"], ["1", "D2"], ["1", "A2"]]},
    ]
    assert player["completed"] == [{"card": "TD", "finishing": False, "pieces": []}]
    assert player["finishing_pieces"] == 1
    done = json.loads(serialisation.dumps(STATES["finishing-completed"]))["players"][1]["completed"][1]
    assert done == {"card": "TO", "finishing": True, "pieces": [["2", "A1 B1"], ["2", "A2 B2"]]}
    cards = {c["id"]: c for c in data["cards"]}
    assert cards["TD"]["recess"] == ["##...", ".....", ".....", ".....", "....."]
    assert data["options"] == {"players": 3, "variant": "base", "reserve": 15,
                               "unfinished_penalty": False, "difficulty": "normal"}


def test_state_keeps_its_own_cards() -> None:
    """state.py: a game stores the full cards it was dealt, so loading it does not depend on the
    catalogue (a server may change its catalogue between sessions)."""
    custom = [replace(c, points=c.points + 1) for c in load_catalogue(None).cards]
    state = new_game(Options(players=2), seed=3, cards=custom)
    again = serialisation.loads(serialisation.dumps(state))
    assert all(again.card(cid).points == state.card(cid).points for cid in state.cards)
    assert again.card("W01").points == load_catalogue(None).by_id("W01").points + 1


def test_unknown_schema_version_is_refused() -> None:
    """A state saved by another schema version is refused with a message naming both versions."""
    data = json.loads(serialisation.dumps(STATES["fresh"]))
    data["schema"] = SCHEMA_VERSION + 1
    with pytest.raises(StateFormatError, match=f"schema {SCHEMA_VERSION + 1}.*reads {SCHEMA_VERSION}"):
        serialisation.loads(json.dumps(data))


def test_a_schema_1_solo_state_is_read_with_its_grid_turned_row_by_row() -> None:
    """Schema 2 stores the Solo grid row by row (positions 1 2 3 are the top row); schema 1 stored
    it column by column. A schema-1 state loads with every card in the same place on the table,
    and is written back in the current schema."""
    state = game(1, seed=9)
    data = json.loads(serialisation.dumps(state))
    by_rows = data["table"]["grid"]
    data["schema"] = 1
    data["table"]["grid"] = [by_rows[(i % 3) * 3 + i // 3] for i in range(9)]  # column by column
    loaded = serialisation.loads(json.dumps(data))
    assert loaded == state and loaded.schema == SCHEMA_VERSION
    base = json.loads(serialisation.dumps(STATES["mid"]))
    base["schema"] = 1
    assert serialisation.loads(json.dumps(base)) == STATES["mid"]


@pytest.mark.parametrize("name", list(STATES))
def test_a_state_stored_without_its_cards_reads_back_exactly_with_them(name: str) -> None:
    """Schema 3: ``dumps(cards=False)`` names the catalogue by its content key instead of listing
    the cards (what the bot stores; the cards are kept once per game), and ``loads`` given those
    cards gives the same state — which dumps to the same text in either form."""
    state = STATES[name]
    text = serialisation.dumps(state, cards=False)
    data = json.loads(text)
    assert set(data) == TOP_LEVEL_KEYS - {"cards"} | {"catalogue"}
    assert data["catalogue"] == catalogue_key(state.cards)
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"))
    cards = cards_from_text(catalogue_text(state.cards))  # as a store gives them back
    again = serialisation.loads(text, cards)
    assert again == state
    assert serialisation.dumps(again, cards=False) == text
    assert serialisation.dumps(again) == serialisation.dumps(state)
    # the listed cards win over the ones given
    assert serialisation.loads(serialisation.dumps(state), cards) == state
    assert len(text) < len(serialisation.dumps(state)) / 3


def test_a_state_without_its_cards_needs_exactly_its_own_catalogue() -> None:
    """Read without the cards, or with other cards, such a state is refused (never half-read)."""
    state = STATES["mid"]
    text = serialisation.dumps(state, cards=False)
    with pytest.raises(StateFormatError, match="without its catalogue"):
        serialisation.loads(text)
    other = {c.id: c for c in (replace(card, points=card.points + 1) for card in state.cards.values())}
    with pytest.raises(StateFormatError, match="not from the one given"):
        serialisation.loads(text, other)


def test_the_catalogue_key_names_the_cards_and_their_order() -> None:
    """Equal cards in the same order have one key wherever they come from; changing any card, or
    the order, gives another."""
    cards = STATES["fresh"].cards
    copied = cards_from_text(catalogue_text(cards))
    assert copied is not cards and copied == cards and list(copied) == list(cards)
    assert catalogue_key(copied) == catalogue_key(cards)
    first = next(iter(cards))
    changed = {**cards, first: replace(cards[first], points=cards[first].points + 1)}
    reordered = dict(reversed(list(cards.items())))
    keys = {catalogue_key(cards), catalogue_key(changed), catalogue_key(reordered)}
    assert len(keys) == 3 and all(len(k) == 32 for k in keys)


@pytest.mark.parametrize("schema", [2, 3])
def test_a_schema_2_or_3_state_is_read_as_it_is_and_written_as_the_current_schema(schema: int) -> None:
    """Schema 2 always listed the cards; that form is still the full form, and schema 3 differs
    only with banked Ambassador cards, so a stored schema-2 or -3 state without them loads
    unchanged and is written back (either form) in the current schema."""
    state = STATES["mid"]
    data = json.loads(serialisation.dumps(state))
    data["schema"] = schema
    loaded = serialisation.loads(json.dumps(data))
    assert loaded == state and loaded.schema == SCHEMA_VERSION == 4
    assert json.loads(serialisation.dumps(loaded, cards=False))["schema"] == 4


def test_a_malformed_catalogue_is_refused() -> None:
    for text in ("{garbage", "{}", '[{"id": "W01"}]'):
        with pytest.raises(StateFormatError, match="catalogue"):
            cards_from_text(text)


def _broken(change) -> str:
    data = copy.deepcopy(json.loads(serialisation.dumps(STATES["mid"])))
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    "not json",
    "[1, 2, 3]",
    "null",
    _broken(lambda d: d.pop("players")),
    _broken(lambda d: d.__setitem__("phase", "lunch")),
    _broken(lambda d: d["table"].__setitem__("kind", "hexagon")),
    _broken(lambda d: d["players"][1]["supply"].__setitem__("Q7", 1)),
    _broken(lambda d: d["players"][1]["puzzles"][0]["pieces"][0].__setitem__(1, "Z9")),
    _broken(lambda d: d["cards"][0].__setitem__("recess", ["#####"])),
    _broken(lambda d: d["options"].__setitem__("difficulty", "easy")),
    _broken(lambda d: d.__setitem__("round", "three")),
])
def test_malformed_state_is_refused(text: str) -> None:
    """Malformed stored state raises StateFormatError (an EngineError, not an IllegalActionError:
    it is a storage problem, not a player's mistake)."""
    with pytest.raises(StateFormatError):
        serialisation.loads(text)
    assert issubclass(StateFormatError, EngineError)
    assert not issubclass(StateFormatError, IllegalActionError)


def test_solo_locks_must_be_three_columns() -> None:
    """Solo's table has exactly three lock counters."""
    data = json.loads(serialisation.dumps(STATES["solo"]))
    data["table"]["locks"] = [1, 2]
    with pytest.raises(StateFormatError, match="3 columns"):
        serialisation.loads(json.dumps(data))


def test_a_game_is_determined_by_its_seed_and_its_log() -> None:
    """Determinism (docs/engine.md): the same seed gives the same setup; replaying the action log —
    as values or as text — from the initial state gives exactly the final state."""
    initial = game(4, seed=3)
    final, log = play_out(initial, 3)
    assert final.is_over
    assert replay(game(4, seed=3), log) == final
    replayed = replay(initial, [parse_action(str(a)) for a in log])
    assert serialisation.dumps(replayed) == serialisation.dumps(final)


def test_saving_and_loading_between_every_action_changes_nothing() -> None:
    """A bot stores the state after every action; continuing from the loaded copy must give the
    same game as never saving."""
    initial = game(1, seed=4)
    final, log = play_out(initial, 4)
    state = initial
    for action in log:
        state = serialisation.loads(serialisation.dumps(state))
        state = replay(state, [action])
    assert state == final
