"""Settings and start-up: a newcomer's mistakes end in one sentence, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as entry
from bot.core.config import DEFAULT_DB_PATH, ConfigError, Settings
from engine.catalogue import default_catalogue_text

GOOD_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_defaults_and_parsing() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN})
    assert settings == Settings(token=GOOD_TOKEN, db_path=DEFAULT_DB_PATH, dev_guild_id=None,
                                log_level="INFO", web_bind=("127.0.0.1", 8080))
    settings = Settings.from_env({"DISCORD_TOKEN": f"  {GOOD_TOKEN} ", "PROJECTL_DB_PATH": "/tmp/x.db",
                                  "PROJECTL_DEV_GUILD_ID": "123", "PROJECTL_LOG_LEVEL": "debug"})
    assert (settings.db_path, settings.dev_guild_id, settings.log_level) == ("/tmp/x.db", 123, "DEBUG")
    assert settings.log_level_number == 10


@pytest.mark.parametrize(("env", "fragment"), [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "hunter2"}, "does not look like a bot token"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_DEV_GUILD_ID": "my server"}, "digits only"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_LOG_LEVEL": "LOUD"}, "PROJECTL_LOG_LEVEL"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_DATABASE_URL": "mysql://x/y"}, "PROJECTL_DATABASE_URL"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_SHARD_IDS": "0"}, "needs PROJECTL_SHARD_COUNT"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_SHARD_COUNT": "zero"}, "PROJECTL_SHARD_COUNT"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_SHARD_COUNT": "2", "PROJECTL_SHARD_IDS": "1-2"}, "below"),
    ({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_SHARD_COUNT": "2", "PROJECTL_SHARD_IDS": "a"}, "ids like"),
])
def test_bad_settings_are_one_sentence(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        Settings.from_env(env)
    message = str(info.value)
    assert fragment in message and "\n" not in message and message.endswith(".")


def test_env_example_lists_every_setting() -> None:
    text = (Path(__file__).resolve().parents[1] / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "PROJECTL_DB_PATH", "PROJECTL_DEV_GUILD_ID", "PROJECTL_LOG_LEVEL",
                 "PROJECTL_CATALOGUE", "PROJECTL_DATABASE_URL", "PROJECTL_SHARD_COUNT", "PROJECTL_SHARD_IDS"):
        assert f"{name}=" in text


def test_an_env_file_copied_from_the_example_keeps_the_images_settings() -> None:
    """docs/deploy.md: ``cp .env.example .env``, then ``docker run --env-file .env``. Every line
    ``NAME=value`` of an env file overrides the image's ``ENV`` (the SQLite file in the /data
    volume, the board on 0.0.0.0), so the example assigns none of those; its defaults are shown
    commented out."""
    root = Path(__file__).resolve().parents[1]
    containerfile = (root / "deploy" / "Containerfile").read_text().splitlines()
    image = {line.split()[1].partition("=")[0] for line in containerfile if line.startswith("ENV ")}
    assert {"PROJECTL_DB_PATH", "PROJECTL_WEB_BIND"} <= image
    assigned = {line.partition("=")[0].strip() for line in (root / ".env.example").read_text().splitlines()
                if "=" in line and not line.lstrip().startswith("#")}
    assert not image & assigned


def test_database_url_chooses_postgresql() -> None:
    url = "postgresql://projectl@127.0.0.1:5432/projectl"
    settings = Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_DB_PATH": "x.db",
                                  "PROJECTL_DATABASE_URL": url})
    assert settings.db_path == url


async def test_shard_settings_make_an_auto_sharded_bot() -> None:
    """One of several processes: it runs exactly the shards its settings name (not connected
    here: the offline harness drives the unsharded bot)."""
    import discord

    from bot.discord.app import ProjectLBot, ShardedProjectLBot, create_bot

    settings = Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_SHARD_COUNT": "4",
                                  "PROJECTL_SHARD_IDS": "2-3"})
    assert (settings.shard_count, settings.shard_ids) == (4, (2, 3))
    async with create_bot(settings) as bot:  # as `python -m bot` does; closes on the way out
        assert isinstance(bot, ShardedProjectLBot) and isinstance(bot, discord.AutoShardedClient)
        assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    async with create_bot(Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN})) as plain:
        assert type(plain) is ProjectLBot and plain.shard_count is None


def run_main(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str],
             capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    for name in ("DISCORD_TOKEN", "PROJECTL_DB_PATH", "PROJECTL_DEV_GUILD_ID", "PROJECTL_LOG_LEVEL",
                 "PROJECTL_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = entry.main([])
    captured = capsys.readouterr()
    return code, captured.err + captured.out


def test_missing_token_exits_with_one_sentence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, output = run_main(monkeypatch, tmp_path, {}, capsys)
    assert code == 2
    assert output.count("\n") == 1 and "DISCORD_TOKEN is not set" in output
    assert "Traceback" not in output


def test_token_from_dotenv_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-token\n")
    code, output = run_main(monkeypatch, tmp_path, {}, capsys)
    assert code == 2 and "does not look like a bot token" in output


@pytest.mark.parametrize(("error", "fragment"), [
    (discord.LoginFailure("Improper token has been passed."), "Discord rejected DISCORD_TOKEN"),
    (OSError("Name or service not known"), "Could not reach Discord"),
])
def test_rejected_token_or_no_network_is_one_sentence(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    error: Exception, fragment: str,
) -> None:
    async def failing_run(settings: Any) -> None:
        raise error

    monkeypatch.setattr(entry, "_run", failing_run)
    code, output = run_main(monkeypatch, tmp_path, {"DISCORD_TOKEN": GOOD_TOKEN,
                                                     "PROJECTL_LOG_LEVEL": "ERROR"}, capsys)
    assert code == 2 and fragment in output and "Traceback" not in output
    assert output.strip().count("\n") == 0


def test_custom_catalogue_is_checked_at_start_up(tmp_path: Path) -> None:
    """A server's own catalogue is loaded for new games; a malformed card stops start-up with a
    sentence that names the card."""
    shipped = json.loads(default_catalogue_text())
    good = tmp_path / "house.json"
    good.write_text(json.dumps(shipped))
    settings = Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_CATALOGUE": str(good)})
    cards = settings.load_cards()
    assert cards is not None and len(cards) == 52 + 24 + 10  # base, Ghost Piece, Ambassador Pack, Phoenix
    shipped["cards"][3]["recess"] = ["#....", ".....", ".....", ".....", "....#"]
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(shipped))
    with pytest.raises(ConfigError) as info:
        Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN, "PROJECTL_CATALOGUE": str(bad)})
    assert shipped["cards"][3]["id"] in str(info.value) and "connected" in str(info.value)


def test_the_command_line_takes_only_help(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot --help`` says where the settings come from instead of starting the bot;
    an argument it does not take is refused (exit 2), not ignored."""
    with pytest.raises(SystemExit) as done:
        entry.main(["--help"])
    assert done.value.code == 0 and ".env" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        entry.main(["--token", "x"])
    assert done.value.code == 2 and "unrecognized arguments" in capsys.readouterr().err
