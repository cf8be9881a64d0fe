"""The web board's settings (bot/core/config.py) and its kept secret (migration 0016)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.board as board_module
from bot.board import EXPANSION_FLAGS
from bot.board import main as board_main
from bot.core.config import DEFAULT_AI_TURN_SECONDS, ConfigError, Settings
from bot.core.errors import BotError
from bot.core.storage import Storage
from bot.web.tokens import BadTokenError, TokenSigner

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": TOKEN, **env})


def test_the_board_listens_on_localhost_8080_unless_told() -> None:
    default = settings()
    assert default.web_bind == ("127.0.0.1", 8080) and default.board_url == "http://127.0.0.1:8080"
    assert settings(PROJECTL_WEB_BIND="off").web_bind is None
    chosen = settings(PROJECTL_WEB_BIND="0.0.0.0:9000", PROJECTL_WEB_URL="https://board.example.org/")
    assert chosen.web_bind == ("0.0.0.0", 9000) and chosen.board_url == "https://board.example.org"
    assert settings(PROJECTL_WEB_BIND="[::1]:8081").board_url == "http://[::1]:8081"
    assert settings(PROJECTL_ACTIVITY="1", PROJECTL_CLIENT_SECRET="s").activity is True


@pytest.mark.parametrize(("name", "value", "fragment"), [
    ("PROJECTL_WEB_BIND", "8080", "host:port"),
    ("PROJECTL_WEB_BIND", "localhost:99999", "host:port"),
    ("PROJECTL_WEB_URL", "board.example.org", "public base URL"),
    ("PROJECTL_WEB_URL", "https://x.org/#t=1", "public base URL"),
    ("PROJECTL_WEB_SECRET", "short", "at least 32"),
    ("PROJECTL_ACTIVITY", "maybe", "1 or 0"),
])
def test_a_wrong_web_setting_is_one_sentence(name: str, value: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        settings(**{name: value})


async def test_the_generated_secret_is_kept_once(tmp_path: Path) -> None:
    first = await Storage.open(tmp_path / "a.sqlite3")
    try:
        kept = await first.kept_secret("web_board", "one" * 12)
        assert kept == "one" * 12
        assert await first.kept_secret("web_board", "two" * 12) == kept
    finally:
        await first.close()
    again = await Storage.open(tmp_path / "a.sqlite3")
    try:
        assert await again.kept_secret("web_board", "three" * 8) == kept
    finally:
        await again.close()


async def test_the_secret_is_kept_in_postgresql_too(postgres_url: str) -> None:
    storage = await Storage.open(postgres_url)
    try:
        kept = await storage.kept_secret("web_board", "pg" * 20)
        assert await storage.kept_secret("web_board", "other" * 8) == kept
    finally:
        await storage.close()


def test_tokens_name_what_they_grant_and_nothing_else_verifies() -> None:
    signer = TokenSigner("k" * 40)
    token = signer.sign(7, 2, 99, now=1000, locale="pt-BR")
    grant = signer.verify(token, now=1000 + 3600)
    assert (grant.game_id, grant.seat, grant.user_id, grant.locale) == (7, 2, 99, "pt-BR")
    assert signer.verify(signer.sign(7, None, 99, now=1000), now=1001).spectator
    with pytest.raises(BadTokenError):
        signer.verify(token, now=1000 + 24 * 3600)  # expired after a day
    with pytest.raises(BadTokenError):
        TokenSigner("j" * 40).verify(token, now=1001)  # another key
    body, signature = token.split(".")
    for bent in (f"{body}x.{signature}", f"{body}.{signature}x", body, "", "a.b.c"):
        with pytest.raises(BadTokenError):
            signer.verify(bent, now=1001)


def test_make_board_takes_every_expansion_and_says_why_a_table_cannot_be_set_up(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``python -m bot.board`` (``make board``): each expansion has its flag, and options no table
    can be set up with are the engine's one sentence and exit 2, not a traceback."""
    assert board_main(["--finesse-ambassador", "--db", str(tmp_path), "--bind", "127.0.0.1:0"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m bot.board: ") and "finesse option on too" in error
    assert "Traceback" not in error
    flags = [f"--{name.replace('_', '-')}" for name in EXPANSION_FLAGS]
    assert {"--ghost", "--endless-white", "--finesse-ambassador", "--phoenix"} <= set(flags)


def test_make_board_says_what_to_change_in_one_sentence(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``make board`` on a taken port names its own option (``--bind``; it reads no
    PROJECTL_WEB_BIND); a port past 65535 and a ``--db`` folder that cannot be made are one
    sentence and exit 2 too, not a traceback."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert board_main(["--db", str(tmp_path / "a"), "--bind", f"127.0.0.1:{port}"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m bot.board: ") and "the port is taken" in error
    assert "--bind" in error and "PROJECTL_WEB_BIND" not in error and error.count("\n") == 1
    with pytest.raises(SystemExit) as exit_:
        board_main(["--db", str(tmp_path / "b"), "--bind", "127.0.0.1:99999"])
    assert exit_.value.code == 2 and "--bind must be host:port" in capsys.readouterr().err
    (tmp_path / "file").write_text("not a folder")
    assert board_main(["--db", str(tmp_path / "file" / "c"), "--bind", "127.0.0.1:0"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m bot.board: ") and "--db" in error and "Traceback" not in error


def test_make_board_ai_seats_think_within_the_bots_turn_budget(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``make board``'s Medium and Strong seats stop thinking at the bot's wall-clock budget
    (2 s a turn), as they would in Discord, rather than searching unbounded."""
    seen: dict[str, Any] = {}

    async def opened(folder: Path, **kwargs: Any) -> Any:
        seen.update(kwargs)
        raise BotError("stop here")

    monkeypatch.setattr(board_module, "open_board", opened)
    assert board_main(["--policy", "strong", "--db", str(tmp_path), "--bind", "127.0.0.1:0"]) == 2
    assert seen["policy"] == "strong" and seen["ai_turn_seconds"] == DEFAULT_AI_TURN_SECONDS
