"""`python -m bot.core.storage.move`: an existing SQLite database into an empty PostgreSQL one."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.clock import ManualClock
from bot.core.storage import DaysStore, NewSeat, Storage, StoredCatalogue, TurnKey
from bot.core.storage.held import HeldStore
from bot.core.storage.move import MoveError, main, move
from bot.core.storage.plans import PlanStore

START = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
CATALOGUE = StoredCatalogue("c" * 32, '[{"id": "W01"}]')


async def filled_sqlite(path: Path) -> int:
    store = await Storage.open(path, ManualClock(START))
    game = await store.create_game(guild_id=1, channel_id=2**60, host_id=5, variant="base", max_players=2,
                                   options={"reserve": 10}, seed=9,
                                   seats=[NewSeat("alice", user_id=5), NewSeat("bot", policy="greedy")])
    game = await store.start_game(game.id, game.revision, '{"s": 0}', 1, CATALOGUE)
    game = await store.commit_action(game.id, game.revision, seat=0, user_id=5, action="take white 3",
                                     state='{"s": 1}', state_schema=1, finished=False)
    await DaysStore(store).open_turn(TurnKey(game.id, 1, "play", 0), user_id=5, channel_id=2**60,
                                     started_at=START, deadline_at=None, due_at=START + timedelta(hours=1))
    await store.upsert_player(5, "alice")
    await store.set_server_locale(1, "pt-BR", set_by=5)  # /projectl-server (migration 0007)
    await store.save_master_draft(game.id, game.revision, seat=0, user_id=5,  # master-add (0008)
                                  placements="1 on W01 at A1")
    await PlanStore(store).keep_outcome(game.id, 0, 5, ["level1"], [], None, 2, keep_at_most=9)  # (0017)
    await HeldStore(store).hold("plan:1:0", 5, game.id, '"x"', START + timedelta(hours=8))
    await store.write(lambda conn: (  # judged for ratings (0011), in the order committed (0020)
        conn.execute("INSERT INTO rated_games (game_id, rated, reason, rated_at) VALUES (?, 0, 'casual', ?)",
                     (game.id, START.isoformat())),
        conn.execute("INSERT INTO rating_order (game_id) VALUES (?)", (game.id,))))
    await store.close()
    return game.id


async def test_move_copies_everything_and_play_continues(tmp_path: Path, postgres_url: str) -> None:
    game_id = await filled_sqlite(tmp_path / "old.sqlite3")
    copied = await move(tmp_path / "old.sqlite3", postgres_url)
    assert copied["games"] == 1 and copied["actions"] == 1 and copied["turns"] == 1 and copied["players"] == 1
    assert copied["catalogues"] == 1  # the cards every stored state names (migration 0006)
    assert copied["server_settings"] == 1 and copied["master_drafts"] == 1
    assert copied["plan_outcomes"] == 1 and copied["held_dms"] == 1
    store = await Storage.open(postgres_url, ManualClock(START))
    try:
        game = await store.get_game(game_id)
        assert game.channel_id == 2**60 and game.state == '{"s": 1}' and len(game.seats) == 2
        assert (game.catalogue_key, game.catalogue) == (CATALOGUE.key, CATALOGUE.cards)
        assert await store.server_locales() == {1: "pt-BR"}
        assert await store.master_draft(game_id, 0, 5, game.revision) == "1 on W01 at A1"
        assert (await PlanStore(store).outcome(game_id, 0)).played == ("level1",)  # type: ignore[union-attr]
        assert [row.content for row in await HeldStore(store).of_user(5)] == ['"x"']
        assert await store.read_scalar("SELECT cards FROM catalogues WHERE catalogue_key = ?",
                                   (CATALOGUE.key,)) == CATALOGUE.cards
        game = await store.commit_action(game_id, game.revision, seat=1, user_id=None, action="pass",
                                         state='{"s": 2}', state_schema=1, finished=False)
        assert [a.seq for a in await store.actions(game_id)] == [1, 2]
        fresh = await store.create_game(guild_id=1, channel_id=3, host_id=5, variant="base", max_players=2,
                                        options={}, seed=1)
        assert fresh.id > game_id  # the id sequence moved past the copied games
        assert copied["rating_order"] == 1
        await store.write(lambda conn: conn.execute("INSERT INTO rating_order (game_id) VALUES (?)",
                                                     (fresh.id,)))
        order = await store.job(lambda conn: conn.execute(
            "SELECT game_id FROM rating_order ORDER BY seq").fetchall())
        assert [row[0] for row in order] == [game_id, fresh.id]  # the order's sequence moved past them too
        await PlanStore(store).keep_outcome(fresh.id, 1, 5, ["pass"], [], None, 2, keep_at_most=9)
        kept = await store.job(lambda conn: conn.execute(
            "SELECT game_id FROM plan_outcomes ORDER BY kept").fetchall())
        assert [row[0] for row in kept] == [game_id, fresh.id]  # and the outcomes' numbering (0021)
    finally:
        await store.close()
    with pytest.raises(MoveError, match="already has rows in players, catalogues, games"):  # never a used one
        await move(tmp_path / "old.sqlite3", postgres_url)


def test_command_line(tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "missing.sqlite3"), postgres_url]) == 1
    assert "does not exist" in capsys.readouterr().err
    asyncio.run(filled_sqlite(tmp_path / "old.sqlite3"))
    assert main([str(tmp_path / "old.sqlite3"), postgres_url]) == 0
    assert "games: 1" in capsys.readouterr().out


async def test_a_target_holding_any_row_is_refused_in_a_sentence(tmp_path: Path, postgres_url: str) -> None:
    """A bot started once on the PostgreSQL database keeps its board key there (bot_secrets)
    before any game is played: the move refuses it by name, rather than dying on a duplicate
    key half-way through its transaction."""
    await filled_sqlite(tmp_path / "old.sqlite3")
    source = await Storage.open(tmp_path / "old.sqlite3", ManualClock(START))
    await source.kept_secret("web_board", "a" * 40)
    await source.close()
    target = await Storage.open(postgres_url, ManualClock(START))
    await target.kept_secret("web_board", "b" * 40)  # what the bot's start-up writes
    await target.close()
    with pytest.raises(MoveError, match="already has rows in bot_secrets"):
        await move(tmp_path / "old.sqlite3", postgres_url)
    target = await Storage.open(postgres_url, ManualClock(START))
    try:
        assert await target.kept_secret("web_board", "c" * 40) == "b" * 40  # left as it was
        assert await target.read_scalar("SELECT COUNT(*) FROM players") == 0
    finally:
        await target.close()


async def _newer(target: str | Path) -> None:
    store = await Storage.open(target, ManualClock(START))
    await store.write(lambda conn: conn.execute(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (999, '0999_future', 'x')"))
    await store.close()


@pytest.mark.parametrize("case", ["newer source", "not a database", "newer target", "no server",
                                  "target not postgresql"])
def test_a_database_that_cannot_be_used_is_one_sentence(
    case: str, tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    source, target = tmp_path / "old.sqlite3", postgres_url
    asyncio.run(filled_sqlite(source))
    if case == "newer source":
        asyncio.run(_newer(source))
    elif case == "not a database":
        source.write_text("not a database")
    elif case == "newer target":
        asyncio.run(_newer(target))
    elif case == "no server":
        target = "postgresql://postgres@127.0.0.1:1/projectl"
    else:
        target = str(tmp_path / "new.sqlite3")
    assert main([str(source), target]) == 1  # no traceback: an exception would fail the test
    err = capsys.readouterr().err
    assert err.startswith("Nothing moved: ") and err.count("\n") == 1 and "Traceback" not in err
    expected = {"newer source": "newer than this bot", "not a database": "is not a SQLite database",
                "newer target": "newer than this bot", "no server": "could not connect to PostgreSQL",
                "target not postgresql": "postgresql:// URL"}[case]
    assert expected in err
    assert not (tmp_path / "new.sqlite3").exists()  # nothing made where nothing is moved
