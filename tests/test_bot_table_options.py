"""One table-options model (issue 23, item 4): a table's options are the engine's ``Options`` plus
the bot's own fields (``TableSettings``), checked once, by the engine, with its wording.

- every combination of the engine's options: the lobby refuses exactly what the engine refuses,
  with the engine's sentence; with the engine's check switched off the bot refuses nothing (it
  holds no copy of a rule);
- ``/projectl table new`` shows each of those refusals privately, in English and pt-BR, and
  writes nothing;
- rows stored by earlier versions (SQLite and PostgreSQL) load as they did.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused

import engine
from bench.harnessed import running
from bot.core import games
from bot.core.clock import ManualClock
from bot.core.errors import BadInputError
from bot.core.games import Game, TableSettings
from bot.core.play.expansions import EXPANSIONS
from bot.core.play.manager import GameManager, validate_new_table
from bot.core.storage import NewSeat, Storage
from bot.core.wording import texts
from bot.core.wording.locales import ENGINE_KEY, catalogues, localise
from bot.core.wording.refusals import engine_text
from engine import Difficulty, IllegalActionError, Options
from engine.messages import MESSAGES

FLAGS = tuple(f.name for f in dataclasses.fields(Options) if f.type in (bool, "bool") and f.name != "ghost")
"""Every on/off rule the engine has (a new one is enumerated without touching this file)."""
TABLES = (("solo", 1), *(("base", n) for n in range(1, 8)))
"""Table kinds and seat counts, one beyond each end of what a base table may have."""


def full_table(kind: str, seats: int, ghost: bool | None, reserve: int, flags: dict[str, Any]) -> Options:
    """What the engine plays for the full table, worked out here from the rulebook's mapping (a
    base table plays Line Clear with 5–6 seats; Ghost by default only there), not by the bot."""
    if kind == "solo":
        return Options(players=seats, variant="solo", ghost=bool(ghost), reserve=reserve, **flags)
    variant = "base" if seats <= 4 else "lineclear"
    return Options(players=seats, variant=variant, ghost=variant == "lineclear" if ghost is None else ghost,
                   reserve=reserve, **flags)


def combinations() -> Iterator[tuple[str, int, bool | None, int, dict[str, Any]]]:
    for (kind, seats), ghost, reserve in itertools.product(TABLES, (None, True, False), (10, 15, 12)):
        for values in itertools.product((False, True), repeat=len(FLAGS)):
            yield kind, seats, ghost, reserve, dict(zip(FLAGS, values, strict=True))


def engine_refusal(options: Options) -> IllegalActionError | None:
    try:
        engine.check_options(options)
    except IllegalActionError as error:
        return error
    return None


def bot_refusal(kind: str, seats: int, ghost: bool | None, reserve: int, flags: dict[str, Any]) -> Any:
    try:
        validate_new_table(TableSettings(kind, seats, ghost=ghost, reserve=reserve, **flags))
    except BadInputError as error:
        return error.message
    return None


def test_the_lobby_refuses_exactly_what_the_engine_refuses_in_its_words() -> None:
    refused = accepted = 0
    for kind, seats, ghost, reserve, flags in combinations():
        expected = engine_refusal(full_table(kind, seats, ghost, reserve, flags))
        got = bot_refusal(kind, seats, ghost, reserve, flags)
        case = (kind, seats, ghost, reserve, flags)
        if expected is None:
            assert got is None, (case, got)
            accepted += 1
            continue
        refused += 1
        assert got is not None, case
        assert got.key == ENGINE_KEY + expected.key and str(got) == str(expected), (case, got)
    assert refused and accepted


def test_the_bot_holds_no_copy_of_a_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the engine's check switched off, no combination is refused: every refusal above was
    the engine's."""
    monkeypatch.setattr(engine, "check_options", lambda options: None)
    refused = [case for case in combinations() if bot_refusal(*case) is not None]
    assert refused == []


def test_the_engine_check_is_the_one_new_game_makes() -> None:
    """``check_options`` is what setting a game up refuses, key for key (so the lobby's check
    and the start's cannot disagree)."""
    for kind, seats, ghost, reserve, flags in combinations():
        options = full_table(kind, seats, ghost, reserve, flags)
        expected = engine_refusal(options)
        if expected is None:
            continue
        with pytest.raises(IllegalActionError) as refused:
            engine.new_game(options, 1)
        assert refused.value.key == expected.key


def test_the_engine_option_refusals_read_in_portuguese() -> None:
    """Every refusal of the options, in the pt-BR catalogue's wording (its ``engine`` section), as
    the bot shows it."""
    messages = catalogues()["pt-BR"]["engine"]["messages"]
    seen: set[str] = set()
    for case in combinations():
        error = engine_refusal(full_table(*case))
        if error is None or error.key in seen:
            continue
        seen.add(error.key)
        shown = localise(engine_text(error), "pt-BR")
        assert error.key in messages, error.key
        assert shown != str(error) and "{" not in shown, (error.key, shown)
        if not error.fields:
            assert shown == messages[error.key]
    assert {"setup.six_need_ghost", "setup.endless_solo", "setup.reserve", "setup.players",
            "setup.line_clear_players"} <= seen


def test_a_table_plays_the_options_for_its_seats() -> None:
    """Ghost left to its default follows the seats the game starts with; chosen, it stays."""
    six = TableSettings("base", 6, phoenix=True)
    assert six.options(4) == Options(players=4, phoenix=True)
    assert six.options(6) == Options(players=6, variant="lineclear", ghost=True, phoenix=True)
    assert TableSettings("base", 6, ghost=False, phoenix=True).options(5) == \
        Options(players=5, variant="lineclear", phoenix=True)
    assert TableSettings("base", 3, ghost=True).options(2) == Options(players=2, ghost=True)
    solo = TableSettings("solo", 1, difficulty="hard")
    assert solo.options(1) == Options(players=1, variant="solo", difficulty=Difficulty.HARD)
    with pytest.raises(BadInputError) as refused:
        TableSettings("solo", 1, difficulty="impossible")
    assert refused.value.message == texts.BAD_DIFFICULTY


# -- /projectl table new, through Discord --------------------------------------------------------


def command_cases(h: Any) -> dict[str, dict[str, Any]]:
    """For each refusal the engine makes among the combinations ``/projectl table new`` can send
    (its own parameters and choices, read from the command tree), the first such combination."""
    new = h.bot.tree.get_command("projectl").get_command("table").get_command("new")
    rule_names = {f.name for f in dataclasses.fields(Options)} | {"variant", "players"}
    values: dict[str, list[Any]] = {}
    for parameter in new.parameters:
        if parameter.name == "expansions":  # a text: every set of its words, the refused ones too
            values[parameter.name] = [None, *(",".join(combo) for size in range(1, len(EXPANSIONS) + 1)
                                              for combo in itertools.combinations(EXPANSIONS, size))]
            continue
        if parameter.name not in rule_names:
            continue
        if parameter.choices:
            values[parameter.name] = [c.value for c in parameter.choices]
        elif parameter.type.name == "boolean":
            values[parameter.name] = [True, False] + ([None] if parameter.default is None else [])
        elif parameter.min_value is not None and parameter.max_value is not None:
            values[parameter.name] = list(range(int(parameter.min_value), int(parameter.max_value) + 1))
    assert {"variant", "players", "ghost", "reserve", "expansions"} <= set(values)
    found: dict[str, dict[str, Any]] = {}
    for chosen in itertools.product(*values.values()):
        sent = dict(zip(values, chosen, strict=True))
        kind, seats = sent["variant"], 1 if sent["variant"] == "solo" else sent["players"]
        flags = {name: value for name, value in sent.items() if name in FLAGS}
        flags |= {flag: flag in (sent.get("expansions") or "").split(",") for flag in EXPANSIONS}
        error = engine_refusal(full_table(kind, seats, sent["ghost"], sent["reserve"], flags))
        if error is not None and error.key not in found:
            found[error.key] = {name: value for name, value in sent.items() if value is not None}
    return found


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "options.sqlite3") as harness:
        yield harness


async def test_table_new_refuses_with_the_engine_sentence_in_each_language(h: Any) -> None:
    alice = h.add_user("alice")
    cases = command_cases(h)
    assert {"setup.six_need_ghost", "setup.endless_solo",
            "setup.finesse_ambassador_needs_finesse"} <= set(cases)
    messages = catalogues()["pt-BR"]["engine"]["messages"]
    english = dict(MESSAGES)
    for key, options in cases.items():
        for locale, wording in (("en-US", english), ("pt-BR", messages)):
            ix = await h.slash(alice, "games", "projectl table new", locale=locale, **options)
            assert_refused(ix, wording[key].split("{")[0][:60])
            assert ix.responses[0].callback_type == 4, (key, locale)  # answered privately, at once
        assert await h.bot.manager.game_in_channel(h.channel("games").id) is None


# -- rows stored by earlier versions -------------------------------------------------------------

START = "2025-03-01T12:00:00+00:00"

OLD_ROWS: list[tuple[str, int, dict[str, Any], TableSettings]] = [
    # (games.variant, games.max_players, games.options as the code before this one wrote them, the
    # settings they are). Before: ``reserve``/``unfinished_penalty``/``difficulty`` always, each
    # other field only when not its default; 0001's rows had only those first three.
    ("base", 2, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True},
     TableSettings("base", 2)),
    ("base", 4, {"difficulty": "normal", "reserve": 15, "unfinished_penalty": False},
     TableSettings("base", 4, reserve=15, unfinished_penalty=False)),
    ("base", 5, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True, "ghost": False},
     TableSettings("base", 5, ghost=False)),
    ("base", 3, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True, "ghost": True},
     TableSettings("base", 3, ghost=True)),
    ("base", 6, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True, "finesse": True,
                 "known_scores": False, "endless_white": True, "hints": False},
     TableSettings("base", 6, finesse=True, known_scores=False, endless_white=True, hints=False)),
    ("base", 6, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True, "ghost": True},
     TableSettings("base", 6, ghost=True)),
    ("solo", 1, {"difficulty": "unbeatable", "reserve": 10, "unfinished_penalty": True},
     TableSettings("solo", 1, difficulty="unbeatable")),
    ("solo", 1, {"difficulty": "hard", "reserve": 15, "unfinished_penalty": True, "ghost": True,
                 "finesse": True, "hints": False},
     TableSettings("solo", 1, difficulty="hard", reserve=15, ghost=True, finesse=True, hints=False)),
    ("base", 4, {"difficulty": "normal", "reserve": 10, "unfinished_penalty": True, "hints": False,
                 "rated": False},
     TableSettings("base", 4, hints=False, rated=False)),
]


def old_options(data: dict[str, Any], players: int) -> Options:
    """What the code before this one played for ``data`` with ``players`` seats (its
    ``TableSettings.from_row(...).options(players)``, copied)."""
    ghost = data.get("ghost")
    return Options.for_players(
        players, ghost=None if ghost is None else bool(ghost), reserve=int(data["reserve"]),
        unfinished_penalty=bool(data["unfinished_penalty"]), difficulty=Difficulty(str(data["difficulty"])),
        finesse=bool(data.get("finesse", False)), known_scores=bool(data.get("known_scores", True)),
        endless_white=bool(data.get("endless_white", False)),
    )


def old_ghost_label(variant: str, max_players: int, data: dict[str, Any]) -> str:
    ghost = data.get("ghost")
    if ghost is None:
        return texts.LOBBY_GHOST_DEFAULT if variant != "solo" and max_players >= 5 else texts.LOBBY_OFF
    return texts.LOBBY_ON if ghost else texts.LOBBY_OFF


async def test_rows_of_earlier_versions_load_as_they_did(storage_target: str) -> None:
    storage = await Storage.open(storage_target, ManualClock())
    try:
        manager = GameManager(storage, clock=ManualClock(), seed_source=lambda: 7)
        for channel, (variant, max_players, data, expected) in enumerate(OLD_ROWS, start=100):
            row = await storage.create_game(guild_id=1, channel_id=channel, host_id=channel, variant=variant,
                                            max_players=max_players, options=data, seed=3,
                                            seats=[NewSeat("host", user_id=channel)])
            assert row.options == data  # stored as it was
            game = await manager.game(row.id)
            assert game is not None
            settings = game.settings
            assert settings == expected, (data, settings)
            assert (settings.variant, settings.max_players) == (variant, max_players)
            assert settings.hints == data.get("hints", True) and settings.rated == data.get("rated", True)
            assert settings.ghost_label == old_ghost_label(variant, max_players, data)
            for players in range(1 if variant == "solo" else 2, max_players + 1):
                assert settings.options(players) == old_options(data, players), (data, players)
            if variant == "base":  # a lobby written before starts as it did
                await manager.join(channel, channel + 1000, "guest")
                started = await manager.start(channel, channel)
                assert started.game.state is not None
                assert started.game.state.options == old_options(data, 2)
            again = await storage.get_game(row.id)
            assert again.options == data  # starting rewrote nothing of it
    finally:
        await storage.close()


def test_the_0001_text_of_a_row_reads_like_its_json() -> None:
    """0001's rows were written as text with its spacing; what the store parses is the same."""
    text = '{"difficulty": "normal", "reserve": 10, "unfinished_penalty": true}'
    assert TableSettings.from_json("base", 2, json.loads(text)) == TableSettings("base", 2)


async def test_new_rows_store_the_engine_options_json_and_read_back(storage_target: str) -> None:
    storage = await Storage.open(storage_target, ManualClock())
    try:
        manager = GameManager(storage, clock=ManualClock(), seed_source=lambda: 7)
        tables = [TableSettings("base", 6, ghost=False, phoenix=True, hints=False, rated=False),
                  TableSettings("base", 5, finesse=True, finesse_ambassador=True, known_scores=False),
                  TableSettings("solo", 1, difficulty="hard", ambassador=True), TableSettings()]
        for channel, settings in enumerate(tables, start=200):
            created = await manager.create_game(guild_id=1, channel_id=channel, host_id=1, host_name="ann",
                                                settings=settings)
            row = await storage.get_game(created.game.id)
            assert row.options["rules"] == engine.serialisation.options_to_json(settings.rules)
            assert set(row.options) <= {"rules", "ghost_by_seats", "hints", "rated"}
            assert created.game.settings == settings == Game.from_row(row).settings
    finally:
        await storage.close()


def test_stored_settings_that_disagree_with_their_row_are_unreadable() -> None:
    data = TableSettings("base", 4).to_json()
    with pytest.raises(ValueError):
        TableSettings.from_json("base", 5, data)
    with pytest.raises(KeyError):
        TableSettings.from_json("base", 4, {})
    assert games.TableSettings.from_json("base", 4, data) == TableSettings("base", 4)
    assert dataclasses.replace(TableSettings("base", 4), hints=False) == TableSettings("base", 4, hints=False)
