"""Settings from the environment (and an optional ``.env`` file), validated up front.

A newcomer's first run should fail with one readable sentence, never a traceback, so every
problem here raises :class:`ConfigError` whose message says what to fix.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from engine.cards import PuzzleCard
from engine.catalogue import CatalogueError, check_catalogue, load_catalogue

DEFAULT_DB_PATH = "projectl.sqlite3"
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
MIN_WEB_SECRET = 32
"""Characters a PROJECTL_WEB_SECRET needs at least: a short key could be guessed from links."""
SNOWFLAKE_DIGITS = 20
"""A Discord id fits 64 bits: at most 20 digits."""
MAX_SHARDS = 10_000
"""Far above any real deployment (Discord asks for one shard per 1,000 servers or so)."""
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_AI_TURN_SECONDS = 2.0
"""Wall-clock seconds a searching AI seat (Medium, Strong, Expert) thinks per turn before it plays
its best plan so far: with the commits and the post, a turn stays within 3 s on a busy machine."""
AI_TURN_SECONDS_RANGE = (0.1, 60.0)
# Three dot-separated base64url parts; Discord does not promise more, so check only the shape.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")


class ConfigError(Exception):
    """A setting is missing or wrong. ``str(error)`` is one sentence for the person running the bot."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment. See .env.example for each variable."""

    token: str
    db_path: str = DEFAULT_DB_PATH
    """A SQLite file, or a ``postgresql://`` URL when PROJECTL_DATABASE_URL is set."""
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    """Discord shards in the whole deployment (PROJECTL_SHARD_COUNT); None: one unsharded connection."""
    shard_ids: tuple[int, ...] | None = None
    """The shards THIS process runs (PROJECTL_SHARD_IDS); None with a count: all of them."""
    catalogue_path: str | None = None
    """A custom puzzle catalogue (engine/data/README.md) for new games; None: the shipped one."""
    ai_turn_seconds: float | None = DEFAULT_AI_TURN_SECONDS
    """PROJECTL_AI_TURN_SECONDS: a searching AI seat's wall-clock budget per turn; None (only
    from code: the tests) searches on the fixed work budget alone, with no clock."""
    web_bind: tuple[str, int] | None = None
    """Where the web board listens (PROJECTL_WEB_BIND ``host:port``, default 127.0.0.1:8080;
    ``off``: no web board). None here (settings built in code, as tests do): no web board."""
    web_url: str | None = None
    """The board's public base URL put in links (PROJECTL_WEB_URL); None: the bind address."""
    web_secret: str | None = None
    """The key board links are signed with (PROJECTL_WEB_SECRET); None: one generated once and
    kept in the database (migration 0016)."""
    activity: bool = False
    """PROJECTL_ACTIVITY=1: the application has its Activity set up (docs/deploy.md), so the Board
    button launches it instead of answering with a link."""
    client_secret: str | None = None
    """PROJECTL_CLIENT_SECRET: the application's OAuth2 client secret, which the Activity's code
    exchange needs (docs/deploy.md)."""

    @property
    def board_url(self) -> str:
        """The base of every board link: PROJECTL_WEB_URL, else the bind address."""
        if self.web_url is not None:
            return self.web_url
        host, port = self.web_bind or (DEFAULT_WEB_HOST, DEFAULT_WEB_PORT)
        return f"http://{host if ':' not in host else f'[{host}]'}:{port}"

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, dotenv_path: str | Path | None = ".env",
        require_token: bool = True,
    ) -> Settings:
        """Read settings from ``env`` (default ``os.environ``, after loading ``dotenv_path``)."""
        if env is None:
            if dotenv_path is not None and Path(dotenv_path).is_file():
                from dotenv import load_dotenv

                load_dotenv(dotenv_path, override=False)
            env = os.environ
        token = env.get("DISCORD_TOKEN", "").strip()
        if require_token:
            if not token:
                raise ConfigError(
                    "DISCORD_TOKEN is not set: copy .env.example to .env and paste your bot token "
                    "from the Discord developer portal (Bot -> Reset Token)."
                )
            if not _TOKEN_SHAPE.match(token):
                raise ConfigError(
                    "DISCORD_TOKEN does not look like a bot token (three dot-separated parts): "
                    "copy it again from the developer portal's Bot page."
                )
        db_path = _db_path(env.get("PROJECTL_DB_PATH", "").strip() or DEFAULT_DB_PATH)
        database_url = env.get("PROJECTL_DATABASE_URL", "").strip()
        if database_url:
            db_path = _database_url(database_url)
        guild_text = env.get("PROJECTL_DEV_GUILD_ID", "").strip()
        dev_guild_id: int | None = None
        if guild_text:
            if not guild_text.isascii() or not guild_text.isdecimal() or len(guild_text) > SNOWFLAKE_DIGITS:
                raise ConfigError(
                    f"PROJECTL_DEV_GUILD_ID must be a server id (digits only, at most {SNOWFLAKE_DIGITS} "
                    f"of them), not {_shown(guild_text)}."
                )
            dev_guild_id = int(guild_text)
        level = (env.get("PROJECTL_LOG_LEVEL", "").strip() or "INFO").upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"PROJECTL_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        catalogue_path = env.get("PROJECTL_CATALOGUE", "").strip() or None
        if catalogue_path is not None:
            _check_catalogue(catalogue_path)
        ai_turn_seconds = _ai_turn_seconds(env.get("PROJECTL_AI_TURN_SECONDS", "").strip())
        shard_count, shard_ids = _shards(env.get("PROJECTL_SHARD_COUNT", "").strip(),
                                         env.get("PROJECTL_SHARD_IDS", "").strip())
        web_secret = env.get("PROJECTL_WEB_SECRET", "").strip() or None
        if web_secret is not None and len(web_secret) < MIN_WEB_SECRET:
            raise ConfigError(
                f"PROJECTL_WEB_SECRET must be at least {MIN_WEB_SECRET} characters (for example the "
                "output of `python -c 'import secrets; print(secrets.token_urlsafe(32))'`), or unset.")
        return cls(
            token=token, db_path=db_path, dev_guild_id=dev_guild_id, log_level=level,
            catalogue_path=catalogue_path, shard_count=shard_count, shard_ids=shard_ids,
            ai_turn_seconds=ai_turn_seconds,
            web_bind=_web_bind(env.get("PROJECTL_WEB_BIND", "").strip()),
            web_url=_web_url(env.get("PROJECTL_WEB_URL", "").strip()), web_secret=web_secret,
            activity=_flag("PROJECTL_ACTIVITY", env.get("PROJECTL_ACTIVITY", "").strip()),
            client_secret=env.get("PROJECTL_CLIENT_SECRET", "").strip() or None,
        )

    def load_cards(self) -> tuple[PuzzleCard, ...] | None:
        """The custom catalogue's cards, or None for the shipped catalogue."""
        if self.catalogue_path is None:
            return None
        return load_catalogue(self.catalogue_path).cards


def _shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """PROJECTL_SHARD_COUNT ("4") and PROJECTL_SHARD_IDS ("0,1" or "0-1"): which Discord shards
    this process runs when several processes share the bot (docs/deploy.md)."""
    if not count_text:
        if ids_text:
            raise ConfigError(
                "PROJECTL_SHARD_IDS needs PROJECTL_SHARD_COUNT (the deployment's shard total).")
        return None, None
    if not _small_whole(count_text, MAX_SHARDS) or int(count_text) < 1:
        raise ConfigError(
            f"PROJECTL_SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARDS}, "
            f"not {_shown(count_text)}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: set[int] = set()
    for part in ids_text.split(","):
        low, _, high = part.strip().partition("-")
        if not _small_whole(low, count - 1) or (high and not _small_whole(high, count - 1)):
            raise ConfigError(
                f"PROJECTL_SHARD_IDS must be ids like 0,1 or 0-3, each below PROJECTL_SHARD_COUNT "
                f"({count}), not {_shown(ids_text)}.")
        span = range(int(low), int(high or low) + 1)  # both ends below count: bounded
        if not span or ids.intersection(span):
            raise ConfigError(
                f"PROJECTL_SHARD_IDS {_shown(ids_text)} must name distinct shards, each range low-high.")
        ids.update(span)
    return count, tuple(sorted(ids))


def _ai_turn_seconds(text: str) -> float:
    """PROJECTL_AI_TURN_SECONDS ("2", "0.5"): seconds within :data:`AI_TURN_SECONDS_RANGE`."""
    if not text:
        return DEFAULT_AI_TURN_SECONDS
    low, high = AI_TURN_SECONDS_RANGE
    try:
        seconds = float(text) if len(text) <= 12 else None
    except ValueError:
        seconds = None
    if seconds is None or not low <= seconds <= high:  # NaN and inf fail the comparison too
        raise ConfigError(
            f"PROJECTL_AI_TURN_SECONDS must be a number of seconds from {low:g} to {high:g} "
            f"(how long an AI seat thinks per turn), not {_shown(text)}.")
    return seconds
def _web_bind(text: str) -> tuple[str, int] | None:
    """PROJECTL_WEB_BIND: ``host:port`` (``[::1]:8080`` for IPv6), ``off``, or unset (the default)."""
    if not text:
        return DEFAULT_WEB_HOST, DEFAULT_WEB_PORT
    if text.lower() == "off":
        return None
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not _small_whole(port, 65535):
        raise ConfigError(
            f"PROJECTL_WEB_BIND must be host:port (such as 127.0.0.1:8080 or 0.0.0.0:8080) or off, "
            f"not {_shown(text)}.")
    return host, int(port)


def _web_url(text: str) -> str | None:
    """PROJECTL_WEB_URL: the public base URL of the board (no trailing slash kept)."""
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ConfigError(
            f"PROJECTL_WEB_URL must be the board's public base URL such as https://board.example.org, "
            f"not {_shown(text)}.")
    return text.rstrip("/")


def _flag(name: str, text: str) -> bool:
    if text.lower() in ("", "0", "false", "no", "off"):
        return False
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    raise ConfigError(f"{name} must be 1 or 0, not {_shown(text)}.")


def _small_whole(text: str, largest: int) -> bool:
    """Is ``text`` a whole number from 0 to ``largest``? (Checked on the digits first, so a
    number of thousands of digits never reaches int().)"""
    return (text.isascii() and text.isdecimal() and len(text) <= len(str(largest))
            and int(text) <= largest)


def _shown(text: str, limit: int = 40) -> str:
    """A setting's value quoted in a message, cut if it is long."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _db_path(text: str) -> str:
    """PROJECTL_DB_PATH with ``~`` expanded (a shell does not expand it inside .env)."""
    return text if text == ":memory:" else os.path.expanduser(text)


def _database_url(url: str) -> str:
    """PROJECTL_DATABASE_URL, checked for the parts a connection needs."""
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "PROJECTL_DATABASE_URL must be a postgresql://user@host:port/database URL "
            "(leave it unset to use the SQLite file PROJECTL_DB_PATH)."
        )
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - urlsplit checks the port only when it is read
    except ValueError:
        raise ConfigError(
            f"PROJECTL_DATABASE_URL has a port that is not a number from 1 to 65535 "
            f"({_shown(parts.netloc.rpartition('@')[2])}).") from None
    return url


def _check_catalogue(path: str) -> None:
    """Refuse to start on a catalogue that is malformed or cannot host any game."""
    try:
        report = check_catalogue(load_catalogue(path))
    except CatalogueError as error:
        raise ConfigError(_sentence(f"PROJECTL_CATALOGUE: {error}")) from None
    if not report.ok:
        raise ConfigError(_sentence(f"PROJECTL_CATALOGUE {path}: {'; '.join(report.problems)}"))


def _sentence(text: str) -> str:
    return text if text.endswith((".", "?", "!")) else text + "."
