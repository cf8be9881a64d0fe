"""Every migration keeps the rows a bot of each older schema stored, on SQLite and on PostgreSQL.

For each schema version v, a database is built with migrations 1..v only
(``migrations.migrate(..., up_to=v)``) and filled with the rows a bot of that version wrote into
every table it had: a finished rated game with its results and ratings, a game in mid-play with
its action log, a lobby, and, where their tables exist, a plan and a planned turn's outcome, held
DMs, hints, turns, a vote, turn limits, a server's settings and a kept secret. Discord ids reach
2**63 - 1, game ids pass 2**31 and 2**53, names are not ASCII. Today's ``Storage`` then opens it
(migrating to the newest) and every row must read back as it was written, the columns added since
holding their defaults; the bot then loads the game in mid-play and commits its next action.

Why: a migration runs once, on the players' own data, with no second chance. The schema tests
(tests/test_storage_backends.py) start from empty databases, and tests/test_hardening_storage.py
migrates one game written with 0001's columns; neither would see a migration that rebuilds a
table and loses a column, mistranslates a value on PostgreSQL, or backfills the wrong value.

The rows are written once here, as the newest schema holds them (:func:`full_rows`); a column's
migration and the value older rows take (:data:`ADDED_COLUMNS`) say which columns a version's
rows leave out and what they read back as. The tables and columns found in each database built
must be exactly those the rows name, so a new migration fails here until its rows are added.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

import engine
from bench.players import choose_action, policy_factory
from bot.core.clock import ManualClock
from bot.core.play.manager import GameManager
from bot.core.storage import Storage, migrations
from bot.core.storage.postgres import PgConnection, is_postgres_url
from engine.serialisation import catalogue_key, catalogue_text
from engine.state import ACTIONS_PER_TURN

NEWEST = len(migrations.available())
BUILT_AT = "2024-05-01T09:00:00+00:00"
"""When the old bot applied its migrations (``schema_version.applied_at``)."""
OPENED = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
"""When today's bot opens the database."""

Row = dict[str, Any]

# -- who and where: Discord snowflakes up to the largest 64-bit value, names in several scripts ----

GUILD = 1_098_765_432_109_876_543
ALICE, BOB, CAROL, DAVE = 2**63 - 1, 290_926_798_626_357_250, 2**62 + 3, 2**31 + 7
NAMES = {ALICE: "Zoë Ångström 🧩", BOB: "山田 太郎", CAROL: "مريم", DAVE: "Ñandú O'Brien"}
TABLE_CHANNEL = 2**63 - 1
"""The channel of the game in mid-play, and of the finished game before it."""
LOBBY_THREAD, LOBBY_PARENT = 2**62 + 11, 1_200_000_000_000_000_017
FINISHED_ID, PLAYING_ID, LOBBY_ID = 7, 2**53 + 1, 2**31 + 1
"""2**53 + 1 is no float; 2**31 + 1 is no 32-bit integer: either would show a lossy conversion."""
PLAYING_SEED = 4_611_686_018_427_387_903
PLAYING_SEATS = (ALICE, BOB, None)
"""The game in mid-play: two players and CAROL's seat, handed to an AI mid-game (0011)."""
PLAYING_REVISION_BEFORE_LOG = 4
"""Its revision when the first action was logged (the lobby's changes and the start came first)."""


def options_text(players: int) -> str:
    """``games.options`` of a base table for ``players``, as the bot writes it."""
    return ('{"ghost_by_seats": true, "rules": {"difficulty": "normal", "players": ' f"{players}"
            ', "reserve": 10, "unfinished_penalty": true, "variant": "base"}}')


def at(day: int, hour: int = 12, minute: int = 0) -> str:
    """A time in May 2024, as the bot's clock writes it."""
    return datetime(2024, 5, day, hour, minute, tzinfo=UTC).isoformat()


@cache
def playing_log() -> tuple[engine.GameState, tuple[tuple[int, str], ...]]:
    """The game in mid-play: its state and log ((seat, action) in order), stopped at the start of
    a turn so that one more action does not hand the move on (to the AI, or to BOB's plan)."""
    state = engine.new_game(engine.Options(players=3), PLAYING_SEED)
    rng = random.Random(2024)
    log: list[tuple[int, str]] = []
    while len(log) < 7 or state.actions_left != ACTIONS_PER_TURN or state.pending \
            or PLAYING_SEATS[state.current] is None:
        action = choose_action(state, rng)
        log.append((state.acting_seat, str(action)))
        state = engine.apply(state, action).state
    return state, tuple(log)


def stored_state(state: engine.GameState, version: int) -> tuple[str, int]:
    """The state text and ``state_schema`` a bot of ``version`` wrote: with every card inside
    (state schema 2) before catalogues were kept apart (0006), without them after."""
    if version >= 6:
        return engine.serialisation.dumps(state, cards=False), engine.SCHEMA_VERSION
    text = engine.serialisation.dumps(state)
    current = f'"schema":{engine.SCHEMA_VERSION}'
    assert current in text
    return text.replace(current, '"schema":2'), 2


# -- the rows, as the newest schema holds them ------------------------------------------------------

TABLE_KEYS: Mapping[str, str] = {
    "catalogues": "catalogue_key", "games": "id", "seats": "game_id, seat", "actions": "game_id, seq",
    "players": "user_id", "turns": "game_id, turn, phase, seat", "table_options": "game_id",
    "votes": "game_id, turn, phase, seat, voter_id", "undone_actions": "game_id, undo_revision",
    "game_results": "game_id, seat", "hints": "game_id, seat", "server_settings": "guild_id",
    "master_drafts": "game_id, seat", "rated_games": "game_id", "rating_order": "seq",
    "ratings": "ladder, player",
    "rating_changes": "game_id, ladder, player", "plans": "game_id, seat",
    "bot_secrets": "name", "plan_outcomes": "game_id, seat", "held_dms": "hold_key",
}
"""Every table the bot keeps, in an order its rows can be written in (a row's references first),
with the key its rows are read back in."""
TABLE_SINCE: Mapping[str, int] = {
    "catalogues": 6, "games": 1, "seats": 1, "actions": 1, "players": 1, "turns": 2,
    "table_options": 2, "votes": 2, "undone_actions": 2, "game_results": 3, "hints": 4,
    "server_settings": 7, "master_drafts": 8, "rated_games": 11, "ratings": 11, "rating_changes": 11,
    "plans": 13, "bot_secrets": 16, "plan_outcomes": 17, "held_dms": 17, "rating_order": 20,
}
"""The migration that created each table."""
FILLED_TABLES: Mapping[str, int] = {"rating_order": 11}
"""Tables whose migration fills them from older rows (0020 numbers every game in ``rated_games``):
a database written at this version or later reads them back with the rows the newest schema
holds, though its bot never wrote them."""

OlderValue = Any | Callable[[Row], Any]
ADDED_COLUMNS: Mapping[tuple[str, str], tuple[int, OlderValue]] = {
    ("players", "reminders_enabled"): (2, 1),
    ("players", "reminder_interval_minutes"): (2, 720),
    ("players", "quiet_start"): (2, None),
    ("players", "quiet_end"): (2, None),
    ("players", "timezone"): (2, "UTC"),
    ("players", "vacation_until"): (2, None),
    ("players", "dms_closed"): (2, 0),
    ("players", "locale"): (5, None),
    ("games", "catalogue_key"): (6, None),
    ("master_drafts", "stamp"): (9, lambda row: str(row["revision"])),  # 0009 backfills the revision
    ("players", "text_only"): (10, 0),
    ("players", "vacation_from"): (10, None),
    ("seats", "replaced_user_id"): (11, None),
    ("players", "heads_up"): (12, 0),
    ("actions", "planned"): (13, 0),
    ("server_settings", "plugin_ais"): (14, 0),
    ("games", "channel_private"): (15, None),
    ("games", "parent_id"): (18, None),
    ("plans", "side"): (19, None),
}
"""Each column added to a table after it was created: (its migration, what a row written before
it reads as: the column's default, or a function of the row when the migration fills it in)."""


@cache
def full_rows(version: int) -> dict[str, list[Row]]:
    """Every row of every table, as the newest schema holds them, with what a bot of ``version``
    wrote where that differs (the game states, 0006). Every column added later holds a value that
    is not its default, so a migration that resets one is seen. Kept once per version: read only."""
    state, log = playing_log()
    playing_state, playing_schema = stored_state(state, version)
    key = catalogue_key(state.cards)
    playing_revision = PLAYING_REVISION_BEFORE_LOG + len(log)
    turn, current = state.turn, state.current
    planner = 1 - current  # the other player lays out their turn while it is not theirs
    # the finished game's state is only carried, never read here: a dealt game stands in for it
    finished_state, finished_schema = stored_state(engine.new_game(engine.Options(players=2), 31), version)
    games: list[Row] = [
        dict(id=FINISHED_ID, guild_id=GUILD, channel_id=TABLE_CHANNEL, status="finished", host_id=ALICE,
             variant="base", max_players=2, options=options_text(2), seed=31,
             state=finished_state, state_schema=finished_schema, revision=57,
             lobby_message_id=1_240_000_000_000_000_001, table_message_id=1_240_000_000_000_000_099,
             created_at=at(1), updated_at=at(3, 20),
             ended_at=at(3, 20), catalogue_key=key, channel_private=0, parent_id=TABLE_CHANNEL),
        dict(id=PLAYING_ID, guild_id=GUILD, channel_id=TABLE_CHANNEL, status="active", host_id=ALICE,
             variant="base", max_players=3, options=options_text(3), seed=PLAYING_SEED, state=playing_state,
             state_schema=playing_schema, revision=playing_revision,
             lobby_message_id=1_250_000_000_000_000_003, table_message_id=2**63 - 2, created_at=at(4),
             updated_at=at(9, 8, 30), ended_at=None, catalogue_key=key, channel_private=0,
             parent_id=TABLE_CHANNEL),
        dict(id=LOBBY_ID, guild_id=GUILD, channel_id=LOBBY_THREAD, status="lobby", host_id=DAVE,
             variant="base", max_players=4, options=options_text(4),
             seed=2**62 + 5, state=None, state_schema=None, revision=2,
             lobby_message_id=1_260_000_000_000_000_005, table_message_id=None, created_at=at(9, 7),
             updated_at=at(9, 7, 5), ended_at=None, catalogue_key=None, channel_private=1,
             parent_id=LOBBY_PARENT),
    ]
    seats: list[Row] = [
        *(dict(game_id=FINISHED_ID, seat=seat, user_id=user, display_name=NAMES[user], policy=None,
               joined_at=at(1), replaced_user_id=None) for seat, user in enumerate((ALICE, BOB))),
        *(dict(game_id=PLAYING_ID, seat=seat, user_id=user, display_name=NAMES[user], policy=None,
               joined_at=at(4), replaced_user_id=None) for seat, user in enumerate(PLAYING_SEATS[:2])),
        dict(game_id=PLAYING_ID, seat=2, user_id=None, display_name="AI (random)", policy="random",
             joined_at=at(4), replaced_user_id=CAROL),
        *(dict(game_id=LOBBY_ID, seat=seat, user_id=user, display_name=NAMES[user], policy=None,
               joined_at=at(9, 7, seat), replaced_user_id=None) for seat, user in enumerate((DAVE, CAROL))),
    ]
    actions: list[Row] = [
        *(dict(game_id=FINISHED_ID, seq=seq, seat=seq % 2, user_id=(ALICE, BOB)[seq % 2], action=text,
               revision=50 + seq, created_at=at(3, 19, seq), planned=0)
          for seq, text in enumerate(("take white 1", "level1", "master"), start=1)),
        *(dict(game_id=PLAYING_ID, seq=seq, seat=seat, user_id=PLAYING_SEATS[seat], action=text,
               revision=PLAYING_REVISION_BEFORE_LOG + seq, created_at=at(5 + seq // 3, 9, seq),
               planned=int(seat == 1 and seq == 4))  # one of BOB's was played by his plan
          for seq, (seat, text) in enumerate(log, start=1)),
    ]
    players: list[Row] = [
        dict(user_id=ALICE, display_name=NAMES[ALICE], mention_on_turn=0, created_at=at(1), updated_at=at(8),
             reminders_enabled=0, reminder_interval_minutes=180, quiet_start="22:30", quiet_end="07:00",
             timezone="America/Sao_Paulo", vacation_until="2024-06-01", dms_closed=1, locale="pt-BR",
             text_only=1, vacation_from="2024-05-20", heads_up=1),
        *(dict(user_id=user, display_name=NAMES[user], mention_on_turn=1, created_at=at(2), updated_at=at(2),
               reminders_enabled=1, reminder_interval_minutes=60 * (index + 2), quiet_start=None,
               quiet_end=None, timezone="Asia/Tokyo", vacation_until=None, dms_closed=0, locale="ja",
               text_only=0, vacation_from=None, heads_up=1)
          for index, user in enumerate((BOB, CAROL, DAVE))),
    ]
    return {
        "catalogues": [dict(catalogue_key=key, cards=catalogue_text(state.cards), created_at=at(1))],
        "games": games,
        "seats": seats,
        "actions": actions,
        "players": players,
        "turns": [
            dict(game_id=PLAYING_ID, turn=turn - 1, phase="play", seat=2, user_id=CAROL,
                 channel_id=TABLE_CHANNEL, started_at=at(7), deadline_at=at(9), due_at=None, sent_count=3,
                 last_sent_at=at(8), last_acted_at=None, channel_fallback=1, timed_out_at=at(9),
                 closed_at=at(9, 8)),
            dict(game_id=PLAYING_ID, turn=turn, phase="play", seat=current, user_id=PLAYING_SEATS[current],
                 channel_id=TABLE_CHANNEL, started_at=at(9, 8, 30), deadline_at=at(11, 8, 30),
                 due_at=at(9, 20, 30), sent_count=0, last_sent_at=None, last_acted_at=None,
                 channel_fallback=0, timed_out_at=None, closed_at=None),
        ],
        "table_options": [dict(game_id=PLAYING_ID, turn_limit_hours=48),
                          dict(game_id=LOBBY_ID, turn_limit_hours=None)],
        "votes": [dict(game_id=PLAYING_ID, turn=turn - 1, phase="play", seat=2, voter_id=BOB,
                       choice="remove", created_at=at(9, 1))],
        "undone_actions": [dict(game_id=PLAYING_ID, undo_revision=PLAYING_REVISION_BEFORE_LOG + 3, seq=2,
                                seat=log[1][0], user_id=PLAYING_SEATS[log[1][0]], action="take black 2",
                                revision=PLAYING_REVISION_BEFORE_LOG + 2, created_at=at(5, 9, 1),
                                undone_at=at(5, 9, 2), undone_by=ALICE)],
        "game_results": [
            dict(game_id=FINISHED_ID, seat=0, guild_id=GUILD, user_id=ALICE, display_name=NAMES[ALICE],
                 score=31, won=1, left_game=0),
            dict(game_id=FINISHED_ID, seat=1, guild_id=GUILD, user_id=BOB, display_name=NAMES[BOB],
                 score=-4, won=0, left_game=0),
        ],
        "hints": [dict(game_id=PLAYING_ID, seat=current, used=2)],
        "server_settings": [dict(guild_id=GUILD, locale="pt-BR", set_by=ALICE, updated_at=at(2),
                                 plugin_ais=1)],
        "master_drafts": [dict(game_id=PLAYING_ID, seat=current, user_id=PLAYING_SEATS[current],
                               revision=playing_revision, placements="L3 on W07 at A1 A2 B2; 1 on B03 at C3",
                               updated_at=at(9, 9), stamp="v:3f9a0c27e41b")],
        "rated_games": [dict(game_id=FINISHED_ID, rated=1, reason=None, rated_at=at(3, 20))],
        "rating_order": [dict(seq=1, game_id=FINISHED_ID)],
        "ratings": [
            dict(ladder=ladder, player=f"user:{user}", user_id=user, display_name=NAMES[user], mu=mu,
                 sigma=sigma, ordinal=mu - 3 * sigma, games=4, updated_at=at(3, 20))
            for ladder in ("all", f"server:{GUILD}")
            for user, mu, sigma in ((ALICE, 27.312_845_601_234_57, 6.021), (BOB, 22.687_154_398_765_43, 6.5))
        ],
        "rating_changes": [
            dict(game_id=FINISHED_ID, ladder=ladder, player=f"user:{user}", seat=seat, mu_before=25.0 + seat,
                 sigma_before=6.25, mu_after=mu, sigma_after=1 / 3)
            for ladder in ("all", f"server:{GUILD}")
            for seat, user, mu in ((0, ALICE, 27.312_845_601_234_57), (1, BOB, 22.687_154_398_765_43))
        ],
        "plans": [dict(game_id=PLAYING_ID, seat=planner, user_id=PLAYING_SEATS[planner],
                       steps='[{"action": "take white 1", "card": null}, {"action": "level1", "card": null}]',
                       played=0, turn=None, created_at=at(9, 8, 45), side="right")],
        "bot_secrets": [dict(name="web_board", value="kQ9_zX2-ü", created_at=at(1))],
        "plan_outcomes": [dict(game_id=PLAYING_ID, seat=current, user_id=PLAYING_SEATS[current],
                               played='["level1"]', unplayed='["take white 1"]',
                               reason='{"en": "Não coube.", "fields": {}, "text": "plan.stopped"}',
                               actions_left=2, kept=1, kept_at=at(9, 8, 31))],
        "held_dms": [
            dict(hold_key=f"plan:{PLAYING_ID}:{current}", user_id=PLAYING_SEATS[current], game_id=PLAYING_ID,
                 content='{"en": "Your plan played.", "fields": {}, "text": "plan.played"}',
                 due_at=at(10, 7), held_at=at(9, 8, 31)),
            dict(hold_key=f"vacation:{DAVE}", user_id=DAVE, game_id=None, content='"Até já 👋"',
                 due_at=at(12), held_at=at(9)),
        ],
    }


def columns_at(table: str, row: Row, version: int) -> list[str]:
    """The columns of ``row`` that ``table`` had at schema ``version``."""
    return [name for name in row if ADDED_COLUMNS.get((table, name), (0, None))[0] <= version]


def written_at(version: int) -> dict[str, list[Row]]:
    """The rows a bot at schema ``version`` wrote: its tables, its columns."""
    return {table: [{name: row[name] for name in columns_at(table, row, version)} for row in rows]
            for table, rows in full_rows(version).items() if TABLE_SINCE[table] <= version}


def read_back_after(version: int) -> dict[str, list[Row]]:
    """What the rows written at ``version`` must read as after migrating to the newest: as written,
    and each column added since at the value a migration gives an older row."""
    expected: dict[str, list[Row]] = {table: [] for table in TABLE_KEYS}
    for table, rows in full_rows(version).items():
        if TABLE_SINCE[table] > version:
            if FILLED_TABLES.get(table, TABLE_SINCE[table]) <= version:
                expected[table].extend(dict(row) for row in rows)
            continue
        for row in rows:
            kept = dict(row)
            for name in row:
                since, older = ADDED_COLUMNS.get((table, name), (0, None))
                if since > version:
                    kept[name] = older(row) if callable(older) else older
            expected[table].append(kept)
    return expected


# -- the database, either engine --------------------------------------------------------------------

Connection = aiosqlite.Connection | PgConnection


@asynccontextmanager
async def raw_connection(target: str) -> AsyncIterator[Connection]:
    """A connection with no ``Storage`` around it (autocommit: migrations manage their own
    transactions), foreign keys enforced on SQLite as the bot's own connection enforces them."""
    db: Connection
    if is_postgres_url(target):
        db = await PgConnection.connect(target)
    else:
        db = await aiosqlite.connect(target, isolation_level=None)
        await db.execute("PRAGMA foreign_keys=ON")
    try:
        yield db
    finally:
        await db.close()


async def fetch(db: Connection, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    async with db.execute(sql, params) as cursor:  # aiosqlite's surface, which PgConnection has
        return [tuple(row) for row in await cursor.fetchall()]


async def schema_of(db: Connection) -> dict[str, set[str]]:
    """Each table of the database (``schema_version`` aside) and its columns."""
    if isinstance(db, PgConnection):
        found = await fetch(db, "SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema = current_schema()")
    else:
        found = await fetch(db, "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c"
                                " WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'")
    tables: dict[str, set[str]] = {}
    for table, column in found:
        tables.setdefault(str(table), set()).add(str(column))
    tables.pop("schema_version", None)
    return tables


def expected_schema(version: int) -> dict[str, set[str]]:
    return {table: set(columns_at(table, rows[0], version)) for table, rows in full_rows(version).items()
            if TABLE_SINCE[table] <= version}


SCHEMA_CHANGED = ("the tables or columns of the database are not those of the rows here: a migration added"
                  " or changed some; give them rows (full_rows, TABLE_KEYS, TABLE_SINCE, ADDED_COLUMNS)")


async def build_at_version(target: str, version: int) -> None:
    """A database a bot of schema ``version`` made and played on: migrations 1..version, then
    its rows, in one transaction."""
    async with raw_connection(target) as db:
        await migrations.migrate(db, BUILT_AT, up_to=version)  # type: ignore[arg-type]
        assert await schema_of(db) == expected_schema(version), SCHEMA_CHANGED
        await db.execute("BEGIN IMMEDIATE")
        for table, rows in written_at(version).items():
            for row in rows:
                marks = ", ".join("?" for _ in row)
                await db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})",
                                 tuple(row.values()))
        await db.execute("COMMIT")


async def every_row(storage: Storage) -> dict[str, list[Row]]:
    """Every row of every table, read through the store's own connection."""
    columns = {table: list(rows[0]) for table, rows in full_rows(NEWEST).items()}

    def read(conn: Any) -> dict[str, list[Row]]:
        return {table: [dict(zip(columns[table], values, strict=True)) for values in conn.execute(
                    f"SELECT {', '.join(columns[table])} FROM {table} ORDER BY {key}").fetchall()]
                for table, key in TABLE_KEYS.items()}

    return await storage.job(read)  # one read of everything, on either engine


# -- the test ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(1, NEWEST + 1), ids=lambda version: f"v{version:02d}")
async def test_every_row_survives_migrating_from_each_version(version: int, storage_target: str) -> None:
    await build_at_version(storage_target, version)
    storage = await Storage.open(storage_target, ManualClock(OPENED))
    try:
        assert await storage.schema_version() == NEWEST
        rows = await every_row(storage)
        expected = read_back_after(version)
        for table in TABLE_KEYS:
            assert by_key(rows[table], table) == by_key(expected[table], table), table
        async with raw_connection(storage_target) as db:
            assert await schema_of(db) == expected_schema(NEWEST), SCHEMA_CHANGED
            applied = await fetch(db, "SELECT version, applied_at FROM schema_version ORDER BY version")
        assert applied == [(number, BUILT_AT if number <= version else OPENED.isoformat())
                           for number in range(1, NEWEST + 1)]
        await plays_on(storage, version)
    finally:
        await storage.close()


def by_key(rows: list[Row], table: str) -> list[Row]:
    """``rows`` in the order of their table's key, compared in Python: each engine orders text its
    own way (its collation), and a difference is to show as the row that differs."""
    names = [name.strip() for name in TABLE_KEYS[table].split(",")]
    return sorted(rows, key=lambda row: tuple(row[name] for name in names))


async def plays_on(storage: Storage, version: int) -> None:
    """Today's bot loads the game in mid-play (and the lobby), finds its state the replay of its
    log, and commits the next action, whose state names the catalogue from then on."""
    state, log = playing_log()
    manager = GameManager(storage, clock=ManualClock(OPENED), seed_source=lambda: 7, policies=policy_factory)
    game = await manager.game_in_channel(TABLE_CHANNEL)
    assert game is not None and game.id == PLAYING_ID and game.state == state
    assert [seat.user_id for seat in game.seats] == list(PLAYING_SEATS)
    assert await manager.verify(PLAYING_ID)
    lobby = await manager.game_in_channel(LOBBY_THREAD)
    assert lobby is not None and lobby.id == LOBBY_ID and [s.user_id for s in lobby.seats] == [DAVE, CAROL]
    mover = PLAYING_SEATS[state.current]
    assert mover is not None
    result = await manager.act(TABLE_CHANNEL, mover, choose_action(state, random.Random(version)))
    assert result.first is not None
    after = await storage.get_game(PLAYING_ID)
    assert after.revision == game.revision + 1 and after.status == "active"
    assert after.catalogue_key == catalogue_key(state.cards) and '"cards"' not in (after.state or "")
    assert [row.seq for row in await storage.actions(PLAYING_ID)] == list(range(1, len(log) + 2))
    assert await manager.verify(PLAYING_ID)


async def test_a_database_is_built_only_at_a_version_there_is(tmp_path: Path) -> None:
    """``up_to`` names a version of this folder: a mistyped one is refused, not taken as the newest."""
    async with raw_connection(str(tmp_path / "none.sqlite3")) as db:
        for version in (-1, NEWEST + 1):
            with pytest.raises(ValueError, match="no schema version"):
                await migrations.migrate(db, BUILT_AT, up_to=version)  # type: ignore[arg-type]
        assert await migrations.migrate(db, BUILT_AT, up_to=0) == []  # type: ignore[arg-type]
        assert await migrations.current_version(db) == 0  # type: ignore[arg-type]
