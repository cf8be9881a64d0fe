"""``python -m bot.board`` (``make board``): play a game on the web board against AI seats, offline.

No Discord and no token: the game runs through the bot's own :class:`GameManager` and SQLite
storage (in a temporary folder unless ``--db`` names one), the board's server listens on
``--bind`` (default 127.0.0.1:8080) and the link for your seat is printed. The turn posts a
channel would get are written to the log instead.

Tests and benches use the same entry point: :func:`open_board` (in a running event loop) or
:func:`start_board` (from synchronous code, such as Playwright's: the board runs in a thread with
its own loop), both on port 0 by default.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from bot.core.config import DEFAULT_AI_TURN_SECONDS, DEFAULT_WEB_HOST, DEFAULT_WEB_PORT
from bot.core.errors import BotError
from bot.core.play.manager import ActionResult, Game, GameManager, TableSettings
from bot.core.storage import Storage, StorageOpenError
from bot.core.wording import texts
from bot.web.acting import BoardFront
from bot.web.activity import ActivityInstance, ActivitySignIn, SignedIn, SignInError
from bot.web.live import LiveGames
from bot.web.server import PortTakenError, RunningBoard, start_board_server
from bot.web.tokens import TokenSigner, new_secret
from engine import GameState

log = logging.getLogger("bot.board")
T = TypeVar("T")

CHANNEL_ID = 1
FIRST_USER = 1
DEFAULT_NAMES = ("Ana", "Bia", "Caio", "Duda", "Enzo", "Flor")


@dataclass
class Posts:
    """What the channel would have been told: one entry per result presented (the offline
    presenter), so a test can count the turn posts a web action gives."""

    results: list[ActionResult] = field(default_factory=list)

    async def __call__(self, result: ActionResult) -> None:
        self.results.append(result)
        if result.turn_changed or result.finished:
            game = result.game
            who = "the game is over" if result.finished else (
                f"{game.current.name} to play" if game.current is not None else "")
            log.info("turn post for game %s (revision %s): %s", game.id, game.revision, who)

    @property
    def turn_posts(self) -> int:
        return sum(1 for r in self.results if r.turn_changed or r.finished)


@dataclass(frozen=True)
class KnownCodes:
    """An OAuth2 code exchanger for tests and the offline board: each code names a user (the
    Embedded App SDK's mock always sends ``mock_code``)."""

    users: Mapping[str, int]

    async def exchange(self, code: str) -> SignedIn:
        if code not in self.users:
            raise SignInError(texts.ACTIVITY_CODE_REFUSED)
        return SignedIn(self.users[code], f"offline-access-{self.users[code]}")

    async def instance(self, instance_id: str) -> ActivityInstance | None:
        """Offline, every instance is in the board's channel, with every user a code names."""
        return ActivityInstance(CHANNEL_ID, frozenset(self.users.values()))


@dataclass
class Board:
    """An offline game with its board server."""

    storage: Storage
    manager: GameManager
    front: BoardFront
    running: RunningBoard
    game_id: int
    users: dict[int, int]
    """Seat -> the user id playing it (the human seats)."""
    posts: Posts

    @property
    def base_url(self) -> str:
        return f"http://{self.running.host}:{self.running.port}"

    def token(self, seat: int | None, *, expires_in: int = 24 * 3600, user_id: int | None = None,
              game_id: int | None = None, locale: str | None = None) -> str:
        """A token for ``seat`` (None: a spectator); any of it may be bent for tests."""
        user = user_id if user_id is not None else self.users.get(seat, 999) if seat is not None else 999
        return self.front.signer.sign(self.game_id if game_id is None else game_id, seat, user,
                                      now=self.front.now(), lifetime=expires_in, locale=locale)

    def link(self, seat: int | None, *, locale: str | None = None) -> str:
        return f"{self.base_url}/board#t={self.token(seat, locale=locale)}"

    async def game(self) -> Game:
        game = await self.manager.game(self.game_id)
        assert game is not None
        return game

    async def act(self, seat: int, action: str) -> ActionResult:
        """Play ``action`` for a human seat as a typed command would (sets a position up quickly)."""
        result = await self.manager.act(CHANNEL_ID, self.users[seat], action, game_id=self.game_id)
        await self.posts(result)
        return result

    async def stop(self) -> None:
        try:
            await self.running.stop()
        finally:
            self.manager.thinker.close()
            await self.storage.close()


async def open_board(
    folder: Path, *, players: int = 2, human_seats: Sequence[int] = (0,), variant: str = "base",
    seed: int = 7, policy: str = "greedy", names: Sequence[str] = DEFAULT_NAMES,
    host: str = DEFAULT_WEB_HOST, port: int = 0, now: Callable[[], float] = time.time,
    poll_seconds: float | None = None, activity_codes: Mapping[str, int] | None = None,
    client_id: str = "0", ai_turn_seconds: float | None = None, **options: Any,
) -> Board:
    """A new game in ``folder``'s database with its board listening on ``host:port`` (0: any free
    port). ``human_seats`` (seat 0 among them) are played on the board by users 1, 2, …; the others
    are ``policy`` AI seats. ``options``: the table's (``finesse=True``, ``ambassador=True``,
    ``known_scores=False``, ``ghost=True``…). Solo: ``variant="solo"``. ``activity_codes`` (code ->
    seat) turns the Activity's sign-in on, with :class:`KnownCodes` for Discord's exchange.
    ``ai_turn_seconds``: the searching AI seats' wall-clock budget per turn, as the bot's
    (``make board`` passes the bot's default); None (the tests): the fixed work budget alone."""
    if 0 not in human_seats:
        raise ValueError("seat 0 is the host's: it must be a human seat")
    folder.mkdir(parents=True, exist_ok=True)
    storage = await Storage.open(folder / "board.sqlite3")
    try:
        manager = GameManager(storage, seed_source=lambda: seed, ai_turn_seconds=ai_turn_seconds)
        solo = variant == "solo"
        settings = TableSettings(variant=variant, max_players=1 if solo else players, **options)
        users = {seat: FIRST_USER + seat for seat in human_seats}
        result = await manager.create_game(guild_id=None, channel_id=CHANNEL_ID, host_id=users[0],
                                           host_name=names[0], settings=settings)
        if not solo:
            for seat in range(1, players):
                if seat in users:
                    await manager.join(CHANNEL_ID, users[seat], names[seat % len(names)])
                else:
                    await manager.add_policy_seat(CHANNEL_ID, users[0], policy)
            result = await manager.start(CHANNEL_ID, users[0])
        secret = await storage.kept_secret("web_board", new_secret())
        posts = Posts()
        front = BoardFront(manager, TokenSigner(secret), posts, now=now,
                           live=LiveGames(manager, poll_seconds=poll_seconds))
        codes = KnownCodes({code: users[seat] for code, seat in (activity_codes or {}).items()})
        sign_in = None if activity_codes is None else ActivitySignIn(front, manager, codes, client_id)
        running = await start_board_server(front, host, port, sign_in=sign_in)
    except BaseException:
        await storage.close()
        raise
    return Board(storage, manager, front, running, result.game.id, users, posts)


# -- from synchronous code (browser tests) ---------------------------------------------------------


class BoardHandle:
    """A board running in its own thread and event loop, driven from synchronous code."""

    def __init__(self, folder: Path, **kwargs: Any) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="board", daemon=True)
        self._thread.start()
        self.board: Board = self._run(open_board(folder, **kwargs))

    def _run(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        done: Future[T] = asyncio.run_coroutine_threadsafe(work, self._loop)
        return done.result(timeout)

    @property
    def base_url(self) -> str:
        return self.board.base_url

    def link(self, seat: int | None, *, locale: str | None = None) -> str:
        return self.board.link(seat, locale=locale)

    def token(self, seat: int | None, **kwargs: Any) -> str:
        return self.board.token(seat, **kwargs)

    def act(self, seat: int, action: str) -> ActionResult:
        return self._run(self.board.act(seat, action))

    def game(self) -> Game:
        return self._run(self.board.game())

    def state(self) -> GameState:
        state = self.game().state
        assert state is not None
        return state

    @property
    def turn_posts(self) -> int:
        return self.board.posts.turn_posts

    def stop(self) -> None:
        try:
            self._run(self.board.stop())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()


def start_board(folder: Path, **kwargs: Any) -> BoardHandle:
    """:func:`open_board` in a background thread: the handle's ``base_url``, ``link(seat)``,
    ``token(seat, expires_in=…)``, ``act(seat, text)``, ``state()`` and ``stop()``."""
    return BoardHandle(folder, **kwargs)


# -- python -m bot.board -----------------------------------------------------------------------------

EXPANSION_FLAGS = ("ghost", "finesse", "ambassador", "phoenix", "endless_white", "finesse_ambassador")
"""The table options ``python -m bot.board`` switches on by a flag of the same name (``--endless-white``)."""


async def _serve(args: argparse.Namespace, folder: Path) -> None:
    host, _, port = args.bind.rpartition(":")
    options: dict[str, Any] = {name: True for name in EXPANSION_FLAGS if getattr(args, name)}
    if args.hidden_scores:
        options["known_scores"] = False
    if args.difficulty is not None:
        options["difficulty"] = args.difficulty
    board = await open_board(
        folder, players=args.players, variant=args.variant, seed=args.seed, policy=args.policy,
        host=host or DEFAULT_WEB_HOST, port=int(port), poll_seconds=None,
        ai_turn_seconds=DEFAULT_AI_TURN_SECONDS, **options)
    try:
        print(f"Your board: {board.link(0, locale=args.locale)}")
        print("Anyone may watch read-only at:", board.link(None, locale=args.locale))
        print("Ctrl-C stops it.", flush=True)
        stopped = asyncio.Event()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signals here
            # SIGTERM (a kill, a supervisor) stops it as Ctrl-C does: the temporary folder goes too
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stopped.set)
        await stopped.wait()
    finally:
        await board.stop()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.board", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6),
                        help="2-4 base game, 5-6 Line Clear (you and AI seats)")
    parser.add_argument("--variant", default="base", choices=("base", "solo"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--policy", default="greedy", choices=("greedy", "random", "medium", "strong"))
    for name in EXPANSION_FLAGS:
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, action="store_true")
    parser.add_argument("--difficulty", default=None, choices=("normal", "hard", "unbeatable"),
                        help="Solo: the mastermind's")
    parser.add_argument("--hidden-scores", action="store_true", help="score piles face down")
    parser.add_argument("--locale", default=None, choices=("en-US", "pt-BR"), help="the board's language")
    parser.add_argument("--bind", default=f"{DEFAULT_WEB_HOST}:{DEFAULT_WEB_PORT}", help="host:port")
    parser.add_argument("--db", default=None, help="folder for the game's database (default: temporary)")
    args = parser.parse_args(argv)
    port = args.bind.rpartition(":")[2]
    if not (port.isascii() and port.isdecimal() and len(port) <= 5 and int(port) <= 65535):
        parser.error("--bind must be host:port, the port from 0 to 65535")
    if args.db is not None:
        try:
            Path(args.db).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"python -m bot.board: cannot use {args.db} as the --db folder "
                  f"({error.strerror or error}): name a folder the board may create and write.",
                  file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="projectl-board-") as temporary:
        try:
            asyncio.run(_serve(args, Path(args.db or temporary)))
        except PortTakenError as error:
            print(f"python -m bot.board: The web board cannot listen on {error.where} ({error.why}): "
                  'choose a free host:port with --bind (make board ARGS="--bind 127.0.0.1:8081").',
                  file=sys.stderr)
            return 2
        except StorageOpenError as error:  # --db holds a file the board cannot use: its sentence
            print(f"python -m bot.board: {error}", file=sys.stderr)
            return 2
        except BotError as error:  # options no table can be set up with: the engine's sentence
            print(f"python -m bot.board: {error.message}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
