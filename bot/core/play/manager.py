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

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from typing import TypeVar

import engine
from bot.core.errors import (
    AlreadySeatedError,
    BadInputError,
    ChannelBusyError,
    GameFullError,
    InvalidActionError,
    NotHostError,
    NotInGameError,
    StaleError,
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
    ai_kinds,
    ai_name,
    engine_policy,
    offered_level,
    shared_cards,
    stored_state,
)
from bot.core.play.games_core import GamesCore, move_changed_hands, run_hooks
from bot.core.play.master_drafts import add_placement, read_placement, stored_draft
from bot.core.play.plan_playing import play_planned_turn
from bot.core.play.turn_checks import (
    current_seat_for,
    player_action,
    read_action,
    refuse_someone_elses_choice,
    require_current,
)
from bot.core.records.ratings import cancel_rating_step
from bot.core.storage import ChannelBusyError as _StorageBusy
from bot.core.storage import NewSeat
from bot.core.storage import StaleRevisionError as _StorageStale
from bot.core.wording import texts
from bot.core.wording.locales import unescaped
from bot.core.wording.refusals import engine_text
from engine import Action, IllegalActionError, Place

__all__ = [
    "MAX_POLICY_STEPS", "POLICY_LABELS", "POLICY_NAMES", "VARIANTS", "ActionResult", "Game", "GameHook",
    "GameManager",
    "MasterDraft", "Policy", "PolicyFactory", "Seat", "Step", "StepHook", "TableSettings", "TurnHook",
    "ai_name", "engine_policy", "validate_new_table",
]

log = logging.getLogger(__name__)

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


class GameManager(GamesCore):
    """Creates, runs and finishes games. One instance per bot (or per test)."""

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
        self.ai.forget_seats(cancelled)
        await run_hooks(self.on_game_cancelled, cancelled)
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
            self.ai.forget_seats(cancelled)
            await run_hooks(self.on_game_cancelled, cancelled)
        return cancelled

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
        on_committed: Callable[[ActionResult], object] | None = None,
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
        ``on_committed(result)`` is called with the result once everything is committed, before
        the after-commit hooks run (the reminders' new turn row, the web board's live update):
        a turn end's images start drawing meanwhile instead of after them.
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
            if on_committed is not None:
                try:
                    on_committed(result)
                except Exception:  # as a failing hook: logged, the committed action stands
                    log.exception("on_committed %r failed", on_committed)
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

    async def _play_on(
        self, game: Game, *, since: engine.GameState | None = None,
    ) -> tuple[list[Step], Game, Exception | None, tuple[PlanOutcome, ...]]:
        """After a commit: policy seats move, and a human seat whose turn has started plays its
        plan (bot/core/play/plans.py), in turn, until a human is to move without one. Plans are
        looked for only when the move changed hands since ``since`` (the state before the
        caller's commit; None: always, as at start-up), so an ordinary action costs no read."""
        steps: list[Step] = []
        outcomes: list[PlanOutcome] = []
        if since is None:  # not straight after a commit here: plans kept since are not in what it read
            self.forget_plans_read(game.id)
        while True:
            moved, game, stopped = await self._play_policies(game)
            steps += moved
            if stopped is not None:
                return steps, game, stopped, tuple(outcomes)
            if since is not None and not moved and not move_changed_hands(since, game.state):
                return steps, game, None, tuple(outcomes)
            try:
                played, game, outcome, stopped = await play_planned_turn(
                    game, self.storage, self._commit, known=self.plans_read_with(game))
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


