"""The ground under every change the manager makes: the per-channel locks, reading games, the
commit of one action (log row, state and revision in one transaction, with the writes that join
it), and the hooks run after a commit, outside the lock.

Its own module because the manager's many ways to change a game — the lobby, a player's action, a
table decision, AI seats and planned turns (ai_moves.py, plan_playing.py), Master drafts — all
read and commit through these few methods, and nothing here decides what a change should be.
:class:`~bot.core.play.manager.GameManager` is this class with those decisions added.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import engine
from bot.core.clock import Clock, SystemClock
from bot.core.errors import (
    InvalidActionError,
    NoGameError,
    NotHostError,
    StaleError,
    UnreadableGameError,
    WrongStageError,
)
from bot.core.games import (
    ActionResult,
    Game,
    GameHook,
    ManagerHooks,
    PlanOutcome,
    PolicyFactory,
    Step,
    StepHook,
    TurnHook,
    engine_policy,
    stored_state,
)
from bot.core.play.ai_moves import AiMoves
from bot.core.play.plugins import PLUGIN_BUDGET_S, PluginRunner, ServerPluginAIs
from bot.core.play.thinking import Thinker
from bot.core.records.ratings import rating_step
from bot.core.records.results import seat_results
from bot.core.storage import ActionRow, Storage
from bot.core.storage import StaleRevisionError as _StorageStale
from bot.core.storage.plans import PlanRow, planned_write, plans_read
from bot.core.storage.stats import result_writes
from bot.core.storage.transactions import InTransaction, Write
from bot.core.wording import texts
from bot.core.wording.refusals import engine_text
from engine import Action, IllegalActionError, Phase, PuzzleCard, serialisation
from engine.catalogue import load_catalogue, supported_modes
from engine.events import TurnStarted

log = logging.getLogger(__name__)

CommitWrites = Callable[[Game, Step], Awaitable[Sequence[Write | InTransaction]]]
"""Awaited as ``hook(game, step)`` with the game and step an action is ABOUT to commit (see
:attr:`GamesCore.commit_writes`)."""


class GamesCore:
    """Reads and commits games under their channel's lock, and runs the hooks after a commit."""

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
        hooks = ManagerHooks()
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
        self._plans_read: dict[int, tuple[int, dict[int, PlanRow]]] = {}
        """Per game, the plans its last commit that handed the move on read in its own
        transaction, with that commit's revision (:meth:`plans_read_with`)."""

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

    # -- committing ----------------------------------------------------------------------------

    async def _commit(
        self, game: Game, seat: int, user_id: int | None, action: Action,
        outcome: engine.Outcome | None = None, *, planned: Sequence[Write | InTransaction] | None = None,
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
        # The move handed on: the plan a seat may have for its turn is read in this same job (on
        # SQLite; on PostgreSQL the commit stays one statement sent from the loop, the plans are
        # read after it). Not by a planned step's commit: the plan playing may stop and be dropped
        # at the same revision, and what this read would then hand on is a plan no longer kept.
        found: dict[int, PlanRow] | None = None
        handed_on = not finished and move_changed_hands(game.state, outcome.state)
        if handed_on and planned is None and self.storage.dialect == "sqlite":
            found = {}
            also.append(plans_read(game.id, found))
        text, catalogue = stored_state(game, outcome.state)
        try:
            row = await self.storage.commit_action(
                game.id, game.revision, seat=seat, user_id=user_id, action=str(action),
                state=text, state_schema=outcome.state.schema, finished=finished,
                also=also, catalogue=catalogue,
            )
        except _StorageStale as error:
            raise StaleError(texts.STALE_BUTTON) from error
        if found is not None:
            self._plans_read[game.id] = (row.revision, found)
        return (Step(seat, user_id, action, outcome.events, row.revision, outcome.state, planned is not None),
                Game.from_row(row))

    def plans_read_with(self, game: Game) -> dict[int, PlanRow] | None:
        """The plans (seat to plan) that the commit which made ``game`` read in its own
        transaction, once (None: it read none, or ``game`` is not that commit's)."""
        read = self._plans_read.pop(game.id, None)
        return read[1] if read is not None and read[0] == game.revision else None

    def forget_plans_read(self, game_id: int) -> None:
        """Drop what a commit of the game read of its plans (:meth:`plans_read_with`)."""
        self._plans_read.pop(game_id, None)

    # -- after a commit --------------------------------------------------------------------------

    async def plan_changed(self, game_id: int, seat: int) -> None:
        """Run the ``on_plan_changed`` hooks (their errors are logged: the plan change stands)."""
        await run_hooks(self.on_plan_changed, game_id, seat)

    async def _after(self, result: ActionResult) -> None:
        """Run hooks for a committed result, outside the lock."""
        previous = result.before.state
        running = result.before
        started = result.started
        if previous is None and started is not None and started.state is not None:
            previous = started.state
            for seat in started.state.acting_seats:
                await run_hooks(self.on_turn_started, started, started.seats[seat])
        for step in result.steps:
            running = _with_state(result.game, step)
            await run_hooks(self.on_action_committed, running, step)
            if step.state.turns:
                # Two turns at once (Line Clear): each new turn is announced by its own event;
                # one holder finishing never "starts" the other's.
                for event in step.events:
                    if isinstance(event, TurnStarted):
                        await run_hooks(self.on_turn_started, running, running.seats[event.seat])
            elif previous is None or (previous.current, previous.turn, previous.phase) != (
                step.state.current, step.state.turn, step.state.phase
            ):
                if step.state.phase is not Phase.OVER:
                    await run_hooks(self.on_turn_started, running, running.seats[step.state.current])
            previous = step.state
        for outcome in result.plans:
            await run_hooks(self.on_plan_played, outcome)
        if result.finished and result.before.status != "finished":
            self.ai.forget_seats(result.game)
            await run_hooks(self.on_game_finished, result.game)


def move_changed_hands(before: engine.GameState | None, after: engine.GameState | None) -> bool:
    """Whether another seat (or a new turn, or phase) holds the move in ``after``."""
    if before is None or after is None:
        return True
    return ((before.current, before.turn, before.phase, before.acting_seats)
            != (after.current, after.turn, after.phase, after.acting_seats))


def _with_state(game: Game, step: Step) -> Game:
    return replace(game, state=step.state, revision=step.revision)


async def run_hooks(hooks: list[Any], *args: Any) -> None:
    """Await every hook with ``args``, in order; one that fails is logged and the others still run."""
    for hook in list(hooks):
        try:
            await hook(*args)
        except Exception:
            log.exception("manager hook %r failed", hook)
