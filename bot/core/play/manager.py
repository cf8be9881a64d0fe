"""The game manager: the one place that changes games, one channel at a time.

Every change follows the same path — **lock → load → engine apply → commit → (caller renders and
responds)** — under one :class:`asyncio.Lock` per channel, so two clicks in the same channel can
never interleave, while games in different channels run in parallel. A change is committed (log
row + new state + revision bump, in one transaction) before this module returns, so whatever the
caller then tells the player is already durable.

No Discord here: callers pass plain ids and names and get plain values back (:class:`Game`,
:class:`ActionResult`), so the manager can be driven by tests, the demo, fuzzers and benchmarks.
Refusals are :class:`bot.core.errors.BotError` subclasses with a player-readable message; nothing is
changed when one is raised. See docs/bot.md for the API and the hooks.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import engine
from bot.core.clock import Clock, SystemClock
from bot.core.errors import (
    AlreadySeatedError,
    BadInputError,
    ChannelBusyError,
    GameFullError,
    InvalidActionError,
    NoGameError,
    NotHostError,
    NotInGameError,
    StaleError,
    UnreadableGameError,
    WrongStageError,
)
from bot.core.games import (
    POLICY_LABELS,
    POLICY_NAMES,
    VARIANTS,
    ActionResult,
    Game,
    GameHook,
    MasterDraft,
    PlanOutcome,
    Policy,
    PolicyFactory,
    Seat,
    Step,
    StepHook,
    TableSettings,
    TurnHook,
    _Hooks,
    ai_kinds,
    ai_name,
    engine_policy,
    offered_level,
    shared_cards,
    stored_state,
)
from bot.core.play.ai_moves import AiMoves
from bot.core.play.master_drafts import add_placement, read_placement, stored_draft
from bot.core.play.plan_playing import play_planned_turn
from bot.core.play.plugins import PLUGIN_BUDGET_S, PluginRunner, ServerPluginAIs
from bot.core.play.thinking import Thinker
from bot.core.play.turn_checks import (
    current_seat_for,
    player_action,
    read_action,
    refuse_someone_elses_choice,
    require_current,
)
from bot.core.records.ratings import cancel_rating_step, rating_step
from bot.core.records.results import seat_results
from bot.core.storage import ActionRow, NewSeat, Storage
from bot.core.storage import ChannelBusyError as _StorageBusy
from bot.core.storage import StaleRevisionError as _StorageStale
from bot.core.storage.plans import planned_write
from bot.core.storage.stats import result_writes
from bot.core.storage.transactions import InTransaction, Write
from bot.core.wording import texts
from bot.core.wording.locales import unescaped
from bot.core.wording.refusals import engine_text
from engine import Action, IllegalActionError, Phase, Place, PuzzleCard, serialisation
from engine.catalogue import load_catalogue, supported_modes
from engine.events import TurnStarted

__all__ = [
    "MAX_POLICY_STEPS", "POLICY_LABELS", "POLICY_NAMES", "VARIANTS", "ActionResult", "Game", "GameHook",
    "GameManager",
    "MasterDraft", "Policy", "PolicyFactory", "Seat", "Step", "StepHook", "TableSettings", "TurnHook",
    "ai_name", "engine_policy", "validate_new_table",
]

log = logging.getLogger(__name__)

CommitWrites = Callable[[Game, Step], Awaitable[Sequence[Write]]]
Chooser = Callable[[Game, int], Awaitable[Action]]
"""Works out, under the channel lock, the action a tap means on the game as just loaded for the
acting seat (``(game, seat) -> action``): one load and one enumeration per tap."""

MAX_POLICY_STEPS = 2000
"""Safety valve: policy seats never play more than this many actions in one go."""


# -- the manager -------------------------------------------------------------------------------


TYPED_ACTION_ATTEMPTS = 3
"""A typed action that lost a race with another process's commit to the same game is applied
again to the game as that commit left it, at most this many times in all."""
RACE_ATTEMPTS = 3
"""How often a lobby change or a cancel is decided again after losing a race to another process."""
T = TypeVar("T")


class _MovedOn(Exception):
    """The game's revision moved between this process's read and its write: another process
    sharing the database changed it (see :meth:`GameManager._decided_on_the_latest`)."""


class GameManager:
    """Creates, runs and finishes games. One instance per bot (or per test)."""

    def __init__(
        self, storage: Storage, *, clock: Clock | None = None,
        seed_source: Callable[[], int] | None = None, policies: PolicyFactory | None = None,
        cards: Sequence[PuzzleCard] | None = None, thinker: Thinker | None = None,
        ai_turn_seconds: float | None = None,
    ) -> None:
        self.storage = storage
        self.thinker = thinker or Thinker()
        self.plugins = PluginRunner(PLUGIN_BUDGET_S if ai_turn_seconds is None else ai_turn_seconds)
        """Where plug-in AIs choose: a worker process of their own, within the AI seats' time limit."""
        self.plugin_servers = ServerPluginAIs(storage)
        """The servers whose lobbies offer plug-in AIs (``/projectl-server plugin_ais:``)."""
        self.ai = AiMoves(policies=policies or engine_policy, thinker=self.thinker, plugins=self.plugins,
                          ai_turn_seconds=ai_turn_seconds)
        """What AI seats play next, and what they remember between moves (bot/core/play/ai_moves.py)."""
        self._cards = tuple(cards) if cards is not None else None
        """New games are dealt from these cards (None: the shipped catalogue)."""
        self.supported_modes = supported_modes(self._cards if self._cards is not None
                                               else load_catalogue().cards)
        """The modes ``catalogue --check`` reports for those cards: the only ones a table opens in."""
        self.clock = clock or SystemClock()
        self._seed_source = seed_source or (lambda: secrets.randbits(62))
        self._locks: dict[int, asyncio.Lock] = {}
        hooks = _Hooks()
        self.on_turn_started: list[TurnHook] = hooks.turn_started
        """Awaited as ``hook(game, seat)`` after a commit that hands the move to ``seat`` (human
        or AI; the game start counts). Hooks run outside the channel lock, errors are logged."""
        self.on_action_committed: list[StepHook] = hooks.action_committed
        """Awaited as ``hook(game, step)`` for every committed action, policy seats' included."""
        self.commit_writes: list[CommitWrites] = []
        """Awaited as ``hook(game, step)`` with the game and step an action is ABOUT to commit;
        the storage writes it returns join that action's transaction (one fsync, and the two
        cannot disagree after a crash). Errors are logged and the action commits without them."""
        self.on_plan_played: list[Callable[[PlanOutcome], Awaitable[None]]] = []
        """Awaited as ``hook(outcome)`` for each planned turn that played or stopped (the player
        is told privately what was played and what is left)."""
        self.on_plan_changed: list[Callable[[int, int], Awaitable[None]]] = []
        """Awaited as ``hook(game_id, seat)`` after a seat's plan was kept or dropped by its player
        (``plan_keeping``, from any front): no revision says so, so the board tells that seat's
        other open pages this way (never another seat's: a plan is private)."""
        self.on_game_finished: list[GameHook] = hooks.game_finished
        self.on_game_cancelled: list[GameHook] = hooks.game_cancelled

    @property
    def ai_turn_seconds(self) -> float | None:
        """The wall-clock seconds a searching AI seat's turn may think (the bot passes
        ``PROJECTL_AI_TURN_SECONDS``): its searches stop there and play their best so far. None:
        no clock, each search runs its fixed work budget (tests, benches: deterministic)."""
        return self.ai.ai_turn_seconds

    @ai_turn_seconds.setter
    def ai_turn_seconds(self, seconds: float | None) -> None:
        self.ai.ai_turn_seconds = seconds

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock. Hold it to read-modify-write a game; never across a Discord call."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # -- reading --------------------------------------------------------------------------------

    async def game_in_channel(self, channel_id: int) -> Game | None:
        """The lobby or active game in the channel, if any (no lock: a consistent snapshot)."""
        row = await self.storage.open_game_in_channel(channel_id)
        return None if row is None else Game.from_row(row)

    async def game(self, game_id: int) -> Game | None:
        row = await self.storage.find_game(game_id)
        return None if row is None else Game.from_row(row)

    async def active_games(self) -> list[Game]:
        """Every active game that can be read (an unreadable one is logged and left out, so it
        cannot stop ``resume()`` — and with it the whole bot — from starting)."""
        return [game async for game in self.iter_active_games()]

    async def iter_active_games(self) -> AsyncIterator[Game]:
        """:meth:`active_games` one at a time (read in small batches): start-up does not parse
        every active game into one list first."""
        async for row in self.storage.iter_games_with_status("active"):
            try:
                yield Game.from_row(row)
            except UnreadableGameError:
                continue

    async def log(self, game_id: int, *, after_seq: int = 0) -> list[ActionRow]:
        """The action log, oldest first: ``ActionRow(game_id, seq, seat, user_id, action, revision,
        created_at)``, ``action`` in engine text notation."""
        return await self.storage.actions(game_id, after_seq=after_seq)

    async def log_tail(
        self, game_id: int, limit: int, *, before_revision: int | None = None
    ) -> list[ActionRow]:
        """The last ``limit`` log rows (committed before ``before_revision``), oldest first."""
        return await self.storage.last_actions(game_id, limit, before_revision=before_revision)

    async def verify(self, game_id: int) -> bool:
        """Replay the log from the seed and compare with the stored state."""
        row = await self.storage.get_game(game_id)
        if row.state is None:
            return True
        state = Game.from_row(row).state
        assert state is not None  # loaded from row.state, which is set
        initial = engine.initial_state(state)
        rows = await self.storage.actions(game_id)
        actions = [engine.parse_action(a.action) for a in rows]
        replayed = engine.replay(initial, actions, [a.seat for a in rows])
        return serialisation.dumps(replayed, cards=False) == serialisation.dumps(state, cards=False)

    async def _require_lobby(
        self, channel_id: int, game_id: int | None, *, started: str = texts.ALREADY_STARTED,
        host: int | None = None, not_host: str = "",
    ) -> Game:
        """The channel's game, still in its lobby; with ``host``, that user must be its host."""
        game = await self._require_open(channel_id, game_id)
        if game.status != "lobby":
            raise WrongStageError(started)
        if host is not None and host != game.host_id:
            raise NotHostError(not_host)
        return game

    async def _require_open(self, channel_id: int, game_id: int | None = None) -> Game:
        game = await self.game_in_channel(channel_id)
        if game is None:
            if game_id is not None:
                raise StaleError(texts.STALE_GAME)
            raise NoGameError(texts.NO_GAME)
        if game_id is not None and game.id != game_id:
            raise StaleError(texts.STALE_GAME)
        return game

    # -- lobby ----------------------------------------------------------------------------------

    async def create_game(
        self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
        settings: TableSettings, turn_limit_hours: int | None = None, watch: str | None = None,
        host_locale: str | None = None, channel_private: bool | None = None, parent_id: int | None = None,
    ) -> ActionResult:
        """Open a lobby with the host seated. Solo games start at once (nobody else can join).
        The game and its table options (``turn_limit_hours``) are committed together.

        ``watch`` (Solo only): the seat goes to that AI policy instead of the host, who watches
        it play the mastermind. ``channel_private``: whether the channel is private (who may read
        the game, :mod:`bot.core.records.access`). ``parent_id``: the channel it belongs to, a
        thread's parent or else itself (whose deletion ends the game, :mod:`bot.core.play.gone`)."""
        watch = None if watch is None else offered_level(watch)
        validate_new_table(settings, watch)
        seat = NewSeat(host_name, user_id=host_id)
        if watch is not None:
            seat = NewSeat(ai_name(watch, 1), policy=watch)
        async with self.lock(channel_id):
            if await self.storage.open_game_in_channel(channel_id) is not None:
                raise ChannelBusyError(texts.CHANNEL_BUSY)
            await self.storage.upsert_player(host_id, host_name, host_locale)
            try:
                row = await self.storage.create_game(
                    guild_id=guild_id, channel_id=channel_id, host_id=host_id, variant=settings.variant,
                    max_players=settings.max_players, options=settings.to_json(),
                    seed=self._seed_source(), seats=[seat],
                    turn_limit_hours=turn_limit_hours, channel_private=channel_private,
                    parent_id=parent_id,
                )
            except _StorageBusy as error:
                raise ChannelBusyError(texts.CHANNEL_BUSY) from error
            game = Game.from_row(row)
            if settings.variant != "solo":
                return ActionResult(game, game, ())
            try:
                result = await self._start_locked(game)
            except _MovedOn as error:  # another process changed the game it has just created
                raise StaleError(texts.STALE_GAME) from error
        await self._after(result)
        return result

    async def join(self, channel_id: int, user_id: int, name: str, *, game_id: int | None = None,
                   locale: str | None = None) -> Game:
        """Seat ``user_id`` in the lobby (``locale``: their Discord language, kept for DMs)."""
        async def attempt() -> Game:
            game = await self._require_lobby(channel_id, game_id)
            if game.seat_of(user_id) is not None:
                raise AlreadySeatedError(texts.ALREADY_SEATED)
            if game.is_full:
                raise GameFullError(texts.GAME_FULL.format(limit=game.settings.max_players))
            await self.storage.upsert_player(user_id, name, locale)
            seats = [*_new_seats(game), NewSeat(name, user_id=user_id)]
            return await self._replace_seats(game, seats)

        return await self._decided_on_the_latest(channel_id, attempt)

    async def leave(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Game:
        """Leave the lobby. The host cannot leave (they cancel instead)."""
        async def attempt() -> Game:
            game = await self._require_lobby(channel_id, game_id, started=texts.LEAVE_STARTED)
            if game.seat_of(user_id) is None:
                raise NotInGameError(texts.NOT_IN_LOBBY)
            if user_id == game.host_id:
                raise NotHostError(texts.HOST_CANNOT_LEAVE)
            seats = [s for s in _new_seats(game) if s.user_id != user_id]
            return await self._replace_seats(game, seats)

        return await self._decided_on_the_latest(channel_id, attempt)

    async def add_policy_seat(
        self, channel_id: int, by_user_id: int, policy: str = "greedy", *, game_id: int | None = None,
        plugins: Collection[str] = (),
    ) -> Game:
        """Seat an AI player (host only). Its moves are played automatically after each turn.
        ``plugins``: the plug-in AIs the table's server offers (``ServerPluginAIs.offered``)."""
        policy = offered_level(policy)
        if policy not in POLICY_NAMES and policy not in plugins:
            raise BadInputError(texts.BAD_POLICY.format(names=ai_kinds()))
        async def attempt() -> Game:
            game = await self._require_lobby(
                channel_id, game_id, host=by_user_id, not_host=texts.HOST_ONLY_AI
            )
            if game.is_full:
                raise GameFullError(texts.GAME_FULL.format(limit=game.settings.max_players))
            number = sum(1 for s in game.seats if s.is_ai) + 1
            seats = [*_new_seats(game), NewSeat(ai_name(policy, number), policy=policy)]
            return await self._replace_seats(game, seats)

        return await self._decided_on_the_latest(channel_id, attempt)

    async def set_rated(self, channel_id: int, by_user_id: int, rated: bool) -> Game:
        """Make the lobby's table rated or casual (host only, before the start: docs/ratings.md)."""

        async def attempt() -> Game:
            game = await self._require_lobby(channel_id, None, host=by_user_id,
                                             not_host=texts.HOST_ONLY_RATED, started=texts.RATED_STARTED)
            options = replace(game.settings, rated=rated).to_json()
            try:
                row = await self.storage.set_options(game.id, game.revision, options)
            except _StorageStale as error:
                raise _MovedOn from error
            return Game.from_row(row)

        return await self._decided_on_the_latest(channel_id, attempt)

    async def _replace_seats(self, game: Game, seats: list[NewSeat]) -> Game:
        try:
            row = await self.storage.replace_seats(game.id, game.revision, seats)
        except _StorageStale as error:
            raise _MovedOn from error
        return Game.from_row(row)

    async def _decided_on_the_latest(self, channel_id: int, attempt: Callable[[], Awaitable[T]]) -> T:
        """``attempt()`` under the channel's lock — again, on the game as it now is, when another
        bot process sharing the database changed the game between this one's read and its write
        (:class:`_MovedOn`). The loser of a race across processes is then answered for what is
        true now (seated, full, already started, cancelled), like the loser of a race within one
        process, instead of being told its game is "no longer open"."""
        for _ in range(RACE_ATTEMPTS):
            async with self.lock(channel_id):
                try:
                    return await attempt()
                except _MovedOn:
                    log.info("channel %s's game moved on in another process; deciding again", channel_id)
        raise StaleError(texts.STALE_GAME)

    async def start(
        self, channel_id: int, by_user_id: int, *, game_id: int | None = None, play_policies: bool = True,
    ) -> ActionResult:
        """Deal the game (host only, enough players). Policy seats who start play at once — or,
        with ``play_policies=False``, when the caller calls :meth:`play_policies` (the bot
        answers the Start click first, so it is never late for Discord's 3 seconds)."""
        async def attempt() -> ActionResult:
            game = await self._require_lobby(
                channel_id, game_id, host=by_user_id, not_host=texts.HOST_ONLY_START,
                started=texts.START_ALREADY,
            )
            minimum = 1 if game.settings.variant == "solo" else 2
            if len(game.seats) < minimum:
                raise WrongStageError(texts.NEED_PLAYERS.format(n=minimum))
            return await self._start_locked(game, play_policies=play_policies)

        result = await self._decided_on_the_latest(channel_id, attempt)
        await self._after(result)
        return result

    async def _start_locked(self, game: Game, *, play_policies: bool = True) -> ActionResult:
        try:
            state = engine.new_game(game.settings.options(len(game.seats)), game.seed, self._cards)
        except IllegalActionError as error:
            raise BadInputError(engine_text(error)) from error
        state = shared_cards(state)
        text, catalogue = stored_state(game, state)
        try:
            row = await self.storage.start_game(game.id, game.revision, text, state.schema, catalogue)
        except _StorageStale as error:
            raise _MovedOn from error
        started = Game.from_row(row)
        steps, final, stopped = await self._play_policies(started) if play_policies else ([], started, None)
        return ActionResult(game, final, tuple(steps), started=started, interrupted=stopped)

    async def cancel(
        self, channel_id: int, by_user_id: int, *, can_manage_channel: bool = False,
        game_id: int | None = None, expected_revision: int | None = None, lobby_only: bool = False,
    ) -> Game:
        """Cancel the channel's open game: the host, or anyone allowed to manage the channel.
        ``lobby_only`` (a lobby's Cancel button): a game that has started is refused, pointing to
        ``/projectl table cancel``, which asks first (a game in play never ends on one click). A
        started game cancelled by a player holding a seat in it is rated as their loss, in the
        same transaction, when it would be rated (docs/ratings.md). ``expected_revision`` (a
        confirmed cancel) cancels the game only as it was when the user was asked: a game that
        moved on since is refused (:class:`StaleError`), changing nothing."""
        async def attempt() -> Game:
            game = await self._require_open(channel_id, game_id)
            if by_user_id != game.host_id and not can_manage_channel:
                raise NotHostError(texts.HOST_ONLY_CANCEL)
            if expected_revision is not None and game.revision != expected_revision:
                raise StaleError(texts.CANCEL_MOVED_ON.format(game_id=game.id))
            if lobby_only and game.state is not None:
                raise StaleError(texts.LOBBY_CANCEL_STARTED.format(game_id=game.id))
            rated = [cancel_rating_step(game, game.state, by_user_id)] \
                if game.state is not None and game.seat_of(by_user_id) is not None else []
            try:
                row = await self.storage.set_status(game.id, game.revision, "cancelled", also=rated)
            except _StorageStale as error:
                if expected_revision is not None:
                    raise StaleError(texts.CANCEL_MOVED_ON.format(game_id=game.id)) from error
                raise _MovedOn from error  # an action, a join…: cancel the game as it now is
            return Game.from_row(row)

        cancelled = await self._decided_on_the_latest(channel_id, attempt)
        self._forget_seats(cancelled)
        await _run_hooks(self.on_game_cancelled, cancelled)
        return cancelled

    async def cancel_gone(self, channel_id: int) -> Game | None:
        """Cancel the channel's open game because the channel is gone (deleted, or the bot was
        removed from its server): :meth:`cancel`'s path — same status, same hooks — with nobody
        to authorise. None when the channel has no open game (an unrelated channel, a second
        delete event, a game that has just ended)."""
        async def attempt() -> Game | None:
            row = await self.storage.open_game_in_channel(channel_id)
            if row is None:
                return None
            try:
                row = await self.storage.set_status(row.id, row.revision, "cancelled")
            except _StorageStale as error:
                raise _MovedOn from error
            return Game.from_row(row)

        cancelled = await self._decided_on_the_latest(channel_id, attempt)
        if cancelled is not None:
            log.info("game %s cancelled: channel %s is gone", cancelled.id, channel_id)
            self._forget_seats(cancelled)
            await _run_hooks(self.on_game_cancelled, cancelled)
        return cancelled

    def _forget_seats(self, game: Game) -> None:
        """Drop what this process keeps in memory about an ended game's seats (their turn
        deadlines, a plug-in seat's strikes): nothing reads it once the game is over."""
        self.ai.forget_seats(game)

    # -- playing --------------------------------------------------------------------------------

    async def check_turn(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> tuple[Game, Seat]:
        """The active game and the user's seat, if it is their move; else the right refusal."""
        game = await self._require_open(channel_id, game_id)
        return game, current_seat_for(game, user_id)

    async def act(
        self, channel_id: int, user_id: int, action: Action | str | None = None, *,
        expected_revision: int | None = None, game_id: int | None = None,
        expected_stamp: str | None = None, choose: Chooser | None = None,
    ) -> ActionResult:
        """Apply the user's action (engine text or value), commit, then let policy seats play.

        ``expected_revision`` makes the call idempotent for buttons: a second click on the same
        confirmation finds the revision moved on and gets :class:`StaleError`, changing nothing.
        ``expected_stamp`` is the acting seat's stamp the offer was made at (a panel, a preview's
        Confirm: ``bot/core/play/seat_view.py``): the action stands while what it relies on is
        unchanged — on a concurrent table the other holder may have acted meanwhile — and is
        refused with :class:`~bot.errors.OutOfDateError` (which carries the fresh game) otherwise;
        the action's own acting seat's commit changes the stamp, so a second click is refused too.
        ``choose`` works out the action from the game as loaded here (instead of ``action``).
        """
        if (action is None) == (choose is None):
            raise TypeError("act() takes an action or a chooser")
        parsed = None if action is None else player_action(read_action(action))
        for attempt in range(1, TYPED_ACTION_ATTEMPTS + 1):
            async with self.lock(channel_id):
                game = await self._require_open(channel_id, game_id)
                seat = current_seat_for(game, user_id)
                if expected_revision is not None and expected_revision != game.revision:
                    raise StaleError(texts.STALE_BUTTON)
                if expected_stamp is not None:
                    require_current(game, seat.seat, expected_stamp)
                chosen = parsed if choose is None else player_action(await choose(game, seat.seat))
                assert chosen is not None
                refuse_someone_elses_choice(game, seat.seat, chosen)
                try:
                    step, after = await self._commit(game, seat.seat, user_id, chosen)
                except StaleError:
                    # Another bot process (sharing the database) committed to this game between
                    # our load and our commit. A button was meant for the state it showed; a
                    # typed action is applied again to the new state, as if it had queued; so is
                    # an offer with a seat stamp, checked again on that state.
                    if expected_revision is not None or attempt == TYPED_ACTION_ATTEMPTS:
                        raise
                    continue
                steps, final, stopped, planned = await self._play_on(after, since=game.state)
                result = ActionResult(game, final, (step, *steps), interrupted=stopped, plans=planned)
            await self._after(result)
            return result
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def decide(
        self, channel_id: int, decision: engine.SkipTurn | engine.RemovePlayer, *,
        by_user_id: int | None = None, game_id: int | None = None, expected_revision: int | None = None,
        seat: int | None = None,
    ) -> ActionResult:
        """Apply a table decision (skip the current turn, remove a seat) decided elsewhere — by a
        vote or a turn clock. The caller authorises; the log records ``by_user_id``.
        ``expected_revision`` pins the state the decision was made on (two votes completing a
        majority at once must not skip two turns). ``seat`` names the turn a skip ends when two
        run at once (Line Clear's marker holders); default: the current one."""
        if not isinstance(decision, engine.TABLE_ACTIONS):
            raise TypeError(f"decide() takes a table decision, not {decision!r}: players act through act()")
        async with self.lock(channel_id):
            game = await self._require_open(channel_id, game_id)
            if game.status != "active" or game.state is None:
                raise WrongStageError(texts.NOT_STARTED)
            if expected_revision is not None and expected_revision != game.revision:
                raise StaleError(texts.STALE_BUTTON)
            acting = game.state.current if seat is None else seat
            step, after = await self._commit(game, acting, by_user_id, decision)
            steps, final, stopped, planned = await self._play_on(after, since=game.state)
            result = ActionResult(game, final, (step, *steps), interrupted=stopped, plans=planned)
        await self._after(result)
        return result

    async def play_policies(self, channel_id: int) -> ActionResult | None:
        """Let policy seats move now, e.g. after a human seat was handed to an AI mid-game. None
        when no policy seat was to move."""
        async with self.lock(channel_id):
            result = await self._play_now(await self._require_open(channel_id))
        if result is not None:
            await self._after(result)
        return result

    async def _play_now(self, game: Game) -> ActionResult | None:
        """The policy seats' moves from ``game`` on, committed (the caller holds the channel's
        lock): None when none was to move; what stopped them is in the result's ``interrupted``, or
        raised when nothing could be played."""
        steps, final, stopped, planned = await self._play_on(game)
        if not steps and not planned:
            if stopped is not None:
                raise stopped
            return None
        return ActionResult(game, final, tuple(steps), interrupted=stopped, plans=planned)

    async def play_stalled(self, channel_id: int) -> ActionResult | None:
        """An AI seat left holding the move with nothing playing it — a fault stopped its turn
        after the action before it was committed (``ActionResult.interrupted``: the disk was full)
        — plays now, as :meth:`resume` would at the next start-up. None when no AI seat is to move
        (one that is thinking holds the lock, and has moved when this gets it). What stops it again
        is in the result's ``interrupted``, or raised when nothing could be played."""
        async with self.lock(channel_id):
            game = await self.game_in_channel(channel_id)
            if game is None or game.status != "active" or _policy_seat(game) is None:
                return None
            result = await self._play_now(game)
        if result is not None:
            await self._after(result)
        return result

    async def resume(self, ours: Callable[[Game], bool] | None = None) -> list[ActionResult]:
        """At start-up: check every active game loads, and let policy seats play any turn a crash
        interrupted. Returns the games where something was played. ``ours``: only the games it
        accepts are played (a sharded process plays those of the servers it runs and posts)."""
        results: list[ActionResult] = []
        async for game in self.iter_active_games():
            if ours is not None and not ours(game):
                continue
            async with self.lock(game.channel_id):
                fresh = Game.from_row(await self.storage.get_game(game.id))
                steps, final, _, planned = await self._play_on(fresh)  # a fault stops it till next time
                if not steps and not planned:
                    continue
                result = ActionResult(fresh, final, tuple(steps), plans=planned)
            await self._after(result)
            results.append(result)
        return results

    async def _commit(
        self, game: Game, seat: int, user_id: int | None, action: Action,
        outcome: engine.Outcome | None = None, *, planned: Sequence[Write] | None = None,
    ) -> tuple[Step, Game]:
        """Apply and commit one action; the step and the game as committed (read back in the
        same storage job, so nothing re-reads it). ``outcome``: the action already applied to
        ``game.state`` by the caller (an AI's move, checked as it was chosen), not applied again.
        ``planned``: the action is a step of the seat's plan, and these writes (its progress)
        commit with it."""
        assert game.state is not None
        if outcome is None:
            try:
                outcome = engine.apply(game.state, action, player=seat)
            except IllegalActionError as error:
                raise InvalidActionError(engine_text(error)) from error
        finished = outcome.state.is_over
        # A finishing action records every seat's result with it (what /projectl stats reads).
        also: list[Write | InTransaction] = []
        if finished:  # ... and its rating change, read and written in that same transaction
            also.extend(result_writes(game.id, game.guild_id, seat_results(game.seats, outcome.state)))
            also.append(rating_step(game, outcome.state))
        # Writes that belong to this moment (a reminder pushed back) join the same transaction.
        if planned is not None:
            also.extend(planned)
            also.append(planned_write(game.id, game.revision + 1))
        pending = Step(seat, user_id, action, outcome.events, game.revision + 1, outcome.state,
                       planned is not None)
        provisional = replace(game, state=outcome.state, revision=game.revision + 1,
                              status="finished" if finished else game.status)
        for hook in list(self.commit_writes):
            try:
                also.extend(await hook(provisional, pending))
            except Exception:
                log.exception("commit hook %r failed", hook)
        text, catalogue = stored_state(game, outcome.state)
        try:
            row = await self.storage.commit_action(
                game.id, game.revision, seat=seat, user_id=user_id, action=str(action),
                state=text, state_schema=outcome.state.schema, finished=finished,
                also=also, catalogue=catalogue,
            )
        except _StorageStale as error:
            raise StaleError(texts.STALE_BUTTON) from error
        return (Step(seat, user_id, action, outcome.events, row.revision, outcome.state, planned is not None),
                Game.from_row(row))

    async def _play_on(
        self, game: Game, *, since: engine.GameState | None = None,
    ) -> tuple[list[Step], Game, Exception | None, tuple[PlanOutcome, ...]]:
        """After a commit: policy seats move, and a human seat whose turn has started plays its
        plan (bot/core/play/plans.py), in turn, until a human is to move without one. Plans are
        looked for only when the move changed hands since ``since`` (the state before the
        caller's commit; None: always, as at start-up), so an ordinary action costs no read."""
        steps: list[Step] = []
        outcomes: list[PlanOutcome] = []
        while True:
            moved, game, stopped = await self._play_policies(game)
            steps += moved
            if stopped is not None:
                return steps, game, stopped, tuple(outcomes)
            if since is not None and not moved and not _move_changed_hands(since, game.state):
                return steps, game, None, tuple(outcomes)
            try:
                played, game, outcome, stopped = await play_planned_turn(game, self.storage, self._commit)
            except Exception as error:  # reading or dropping a plan: reported after what was committed
                log.warning("looking for a plan in game %s failed: %r", game.id, error)
                return steps, game, error, tuple(outcomes)
            steps += played
            if outcome is not None:
                outcomes.append(outcome)
            if stopped is not None or (outcome is None and not played):
                return steps, game, stopped, tuple(outcomes)
            since = None

    async def _play_policies(self, game: Game) -> tuple[list[Step], Game, Exception | None]:
        """While a policy seat is to move, let it move (each action its own commit). The steps,
        the game after the last of them, and what stopped them early, if anything did: a move
        that could not be committed (the disk is full…) must not undo the player's committed
        action in what the player is told. The seat plays on at the next start-up (``resume``)."""
        steps: list[Step] = []
        while len(steps) < MAX_POLICY_STEPS:
            seat = _policy_seat(game)
            if seat is None or game.state is None:
                break
            action, outcome = await self.ai.choose(game, seat)
            try:
                step, game = await self._commit(game, seat.seat, None, action, outcome)
            except StaleError:
                # Another bot process sharing the database changed this game since it was loaded
                # here: it played this AI's move itself, or a vote or a turn clock decided. That
                # process plays on from its own commit, so this one stops with what it committed
                # (the caller's action stays committed and answered, not refused).
                log.info("game %s moved on in another process; its AI seats play on there", game.id)
                self.ai.forget_plan(game.id, seat.seat)  # planned from a turn not played here
                break
            except Exception as error:  # the caller reports it, after what was committed
                log.info("AI play in game %s stopped after %d move(s): %r", game.id, len(steps), error)
                return steps, game, error
            steps.append(step)
        return steps, game, None

    async def plan_changed(self, game_id: int, seat: int) -> None:
        """Run the ``on_plan_changed`` hooks (their errors are logged: the plan change stands)."""
        await _run_hooks(self.on_plan_changed, game_id, seat)

    async def _after(self, result: ActionResult) -> None:
        """Run hooks for a committed result, outside the lock."""
        previous = result.before.state
        running = result.before
        started = result.started
        if previous is None and started is not None and started.state is not None:
            previous = started.state
            for seat in started.state.acting_seats:
                await _run_hooks(self.on_turn_started, started, started.seats[seat])
        for step in result.steps:
            running = _with_state(result.game, step)
            await _run_hooks(self.on_action_committed, running, step)
            if step.state.turns:
                # Two turns at once (Line Clear): each new turn is announced by its own event;
                # one holder finishing never "starts" the other's.
                for event in step.events:
                    if isinstance(event, TurnStarted):
                        await _run_hooks(self.on_turn_started, running, running.seats[event.seat])
            elif previous is None or (previous.current, previous.turn, previous.phase) != (
                step.state.current, step.state.turn, step.state.phase
            ):
                if step.state.phase is not Phase.OVER:
                    await _run_hooks(self.on_turn_started, running, running.seats[step.state.current])
            previous = step.state
        for outcome in result.plans:
            await _run_hooks(self.on_plan_played, outcome)
        if result.finished and result.before.status != "finished":
            self._forget_seats(result.game)
            await _run_hooks(self.on_game_finished, result.game)

    # -- Master drafts ----------------------------------------------------------------------------
    # The drafts' rules are in bot/core/play/master_drafts.py; here, the lock and the seat.

    async def master_add(
        self, channel_id: int, user_id: int, place: Place | str, *, game_id: int | None = None,
    ) -> MasterDraft:
        """Add a placement to the user's Master draft after checking the whole draft is legal for
        their seat (seen from their own turn: the other marker holder's puzzles are not theirs).
        The draft comes back with the game it was checked on (``draft.game``)."""
        place = read_placement(place)
        async with self.lock(channel_id):
            game = await self._require_open(channel_id, game_id)
            seat = current_seat_for(game, user_id)
            return await add_placement(self.storage, game, seat.seat, user_id, place)

    async def master_draft(self, channel_id: int, user_id: int) -> tuple[Game, MasterDraft]:
        game = await self._require_open(channel_id)
        seat = current_seat_for(game, user_id)
        return game, await stored_draft(self.storage, game, seat.seat, user_id)

    async def master_clear(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> None:
        """Forget the user's Master draft; ``game_id`` pins the game a Clear button was shown in (a
        button of the channel's previous game clears nothing of the next one's)."""
        async with self.lock(channel_id):
            game = await self._require_open(channel_id, game_id)
            seat = current_seat_for(game, user_id)
            await self.storage.clear_master_draft(game.id, seat.seat)

    async def master_confirm(
        self, channel_id: int, user_id: int, *, expected_stamp: str | None = None,
        game_id: int | None = None,
    ) -> ActionResult:
        """Play the user's stored draft: read, under the lock, for their seat's view as it stands
        (one load); ``expected_stamp`` pins the view a Confirm button showed it on."""

        async def stored(game: Game, seat: int) -> Action:
            draft = await stored_draft(self.storage, game, seat, user_id)
            if not draft.placements:
                raise InvalidActionError(texts.MASTER_EMPTY)
            return draft.action

        return await self.act(channel_id, user_id, choose=stored, expected_stamp=expected_stamp,
                              game_id=game_id)

    # -- odds and ends ---------------------------------------------------------------------------

    async def wants_mention(self, user_id: int) -> bool:
        """Whether to ping this player when their turn starts (``players.mention_on_turn``)."""
        player = await self.storage.get_player(user_id)
        return True if player is None else player.mention_on_turn

    async def set_mention(self, user_id: int, name: str, enabled: bool) -> None:
        await self.storage.upsert_player(user_id, name)
        await self.storage.set_preference(user_id, "mention_on_turn", int(enabled))

    async def remember_messages(
        self, game_id: int, *, lobby_message_id: int | None = None, table_message_id: int | None = None,
    ) -> None:
        """Record where the lobby / latest table image was posted (not game state)."""
        await self.storage.set_message_ids(
            game_id, lobby_message_id=lobby_message_id, table_message_id=table_message_id
        )


# -- helpers -------------------------------------------------------------------------------------


def validate_new_table(settings: TableSettings, watch: str | None = None) -> None:
    """Every check :meth:`GameManager.create_game` makes before writing a table: callers run it
    before anything else visible (a public "thinking…", a new thread) so a refusal is private and
    leaves nothing behind."""
    settings.validate()
    watch = None if watch is None else offered_level(watch)
    if watch is not None and (settings.variant != "solo" or watch not in POLICY_NAMES):
        raise BadInputError(texts.WATCH_SOLO_ONLY if watch in POLICY_NAMES else
                            texts.BAD_POLICY.format(names=ai_kinds()))


def _policy_seat(game: Game) -> Seat | None:
    """A policy seat that may act now (with two turns at once, either holder's)."""
    if game.state is None or game.current is None:
        return None
    for seat in game.state.acting_seats:
        if game.seats[seat].is_ai:
            return game.seats[seat]
    return None


def _new_seats(game: Game) -> list[NewSeat]:
    """``game``'s seats to store again, each name as it was given (not escaped twice)."""
    return [NewSeat(unescaped(s.name), user_id=s.user_id, policy=s.policy) for s in game.seats]


def _with_state(game: Game, step: Step) -> Game:
    return replace(game, state=step.state, revision=step.revision)


def _move_changed_hands(before: engine.GameState | None, after: engine.GameState | None) -> bool:
    """Whether another seat (or a new turn, or phase) holds the move in ``after``."""
    if before is None or after is None:
        return True
    return ((before.current, before.turn, before.phase, before.acting_seats)
            != (after.current, after.turn, after.phase, after.acting_seats))


async def _run_hooks(hooks: list[Any], *args: Any) -> None:
    for hook in list(hooks):
        try:
            await hook(*args)
        except Exception:
            log.exception("manager hook %r failed", hook)
