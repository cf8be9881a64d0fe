"""Turn reminders by DM, driven by rows in SQLite so they survive restarts.

How it fits together:

* The manager's hooks tell us when a human's turn starts (:meth:`ReminderScheduler.turn_started`)
  and when someone acts (:meth:`action_committed`). Each turn gets a ``turns`` row with the time
  its first reminder is due (:mod:`bot.core.days.reminder_policy` decides, from the player's preferences).
* :meth:`tick` sends whatever is due and announces turn clocks that ran out. Production calls it
  every :data:`TICK_SECONDS` from a ``discord.ext.tasks`` loop; tests with a
  :class:`~bot.core.clock.ManualClock` call it directly after moving the clock, so nothing sleeps.
* A reminder is **claimed in the database before it is sent** (see :mod:`bot.core.storage.days`):
  after a crash or restart every due reminder goes out once and none twice. The price is that a
  crash in the instant between claim and send loses that one DM; the next nudge still comes.

The first DM is due :data:`FIRST_REMINDER_DELAY` after the turn starts rather than at once: the
channel post with the table (which the DM links to) is made right after the commit, and a player
who is watching and acts within that minute is not DMed at all ("none while you are acting").
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import tasks

from bot.core.clock import Clock
from bot.core.days import pace, reminder_policy, turn_limits
from bot.core.days.heads_up import heads_up_now, seat_after
from bot.core.days.reminder_policy import Preferences
from bot.core.days.turnclock import turn_key, turn_keys
from bot.core.play.manager import Game, Seat, Step
from bot.core.shards import runs_guild
from bot.core.storage.days import DaysStore, ReminderPrefsRow, TurnKey, TurnRow, parse_ts
from bot.core.storage.held import HeldRow, HeldStore
from bot.core.storage.transactions import InTransaction, Write
from bot.core.wording import stored, texts
from bot.core.wording.catchup import catch_up_lines
from bot.core.wording.describe import alt_text, describe, mat_lines
from bot.core.wording.locales import Joined, localise, public_locale
from bot.discord.mentions import pinging
from engine.actions import TABLE_ACTIONS

from .services import FrontServices

log = logging.getLogger(__name__)

TICK_SECONDS = 60
LOOK_UP: Any = object()
"""``direct_message``'s default locale: look the player's up (a caller that has read their
preferences passes the locale, possibly None for English, instead)."""
JUMP_LINK = "https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
CHANNEL_LINK = "https://discord.com/channels/{guild_id}/{channel_id}"
FIRST_REMINDER_DELAY = timedelta(minutes=1)
REPLAN_TRIES = 3
"""How often a settings change re-plans one turn whose row another process changed meanwhile."""

TimeoutAnnouncer = Callable[[Game, TurnRow], Awaitable[None]]
TIMED_OUT_HOLD = "timeout:"
"""The start of the key a "time ran out" DM is held under, followed by the turn's key: one per
turn (:meth:`ReminderScheduler.tell_or_hold_timed_out`)."""


def timed_out_hold_key(key: TurnKey) -> str:
    return f"{TIMED_OUT_HOLD}{key.game_id}:{key.turn}:{key.phase}:{key.seat}"


def turn_key_of_hold(hold_key: str) -> TurnKey | None:
    """The turn a held "time ran out" DM is about (None: not such a key, or not one of ours)."""
    parts = hold_key.removeprefix(TIMED_OUT_HOLD).split(":")
    if not hold_key.startswith(TIMED_OUT_HOLD) or len(parts) != 4:
        return None
    try:
        return TurnKey(int(parts[0]), int(parts[1]), parts[2], int(parts[3]))
    except ValueError:
        return None


def preferences(row: ReminderPrefsRow) -> Preferences:
    return Preferences(
        enabled=row.enabled, interval=row.interval, quiet_start=row.quiet_start, quiet_end=row.quiet_end,
        timezone=row.timezone, vacation_until=row.vacation_until,
    )


class ReminderScheduler:
    """Plans, sends and de-duplicates turn reminders; announces expired turn clocks."""

    def __init__(
        self, bot: FrontServices, store: DaysStore, *, tick_seconds: float | None = TICK_SECONDS,
    ) -> None:
        self.bot = bot
        self.store = store
        self.tick_seconds = tick_seconds
        """Seconds between ticks of the production loop; None: no loop (tests call :meth:`tick`)."""
        self.announce_timeout: TimeoutAnnouncer | None = None
        """Set by the cogs: posts "time is up" with vote buttons in the game channel."""
        self._last_actor: dict[int, int | None] = {}
        self._decided: set[int] = set()
        """Games whose last committed step was a table decision (a vote), not a player's move."""
        self._loop: tasks.Loop[Callable[[], Coroutine[Any, Any, None]]] | None = None
        self._heads_ups: set[asyncio.Task[None]] = set()
        """Heads-up DMs on their way (:meth:`_heads_up`), awaited by :meth:`stop`."""
        self.held = HeldStore(store.storage)
        """One-off DMs held back by the player's settings (:meth:`send_or_hold`), sent by :meth:`tick`:
        kept in storage (``held_dms``), so a restart still sends them."""

    @property
    def clock(self) -> Clock:
        return self.bot.clock

    def install(self) -> None:
        manager = self.bot.manager
        manager.on_action_committed.append(self.action_committed)
        manager.commit_writes.append(self.activity_writes)
        manager.on_turn_started.append(self.turn_started)
        manager.on_game_finished.append(self.game_over)
        manager.on_game_cancelled.append(self.game_over)

    async def start(self) -> None:
        """At start-up: make sure every human to move has a turn row, then start the loop. Its
        first tick waits for the bot to be ready (channels must be cached to post)."""
        await self.sync_open_turns()
        if self.tick_seconds is not None and self._loop is None:
            loop = tasks.loop(seconds=self.tick_seconds)(self._tick_safely)
            loop.before_loop(self.bot.wait_until_ready)
            loop.start()
            self._loop = loop

    @property
    def running(self) -> bool:
        """True while the production loop is started and not stopped."""
        return self._loop is not None and self._loop.is_running()

    async def stop(self) -> None:
        """Stop the loop and wait until its task has ended, so no tick touches the database after
        the bot closes it. A tick cut short here loses at most the reminder it had claimed."""
        if self._heads_ups:
            await asyncio.wait(set(self._heads_ups))
        loop, self._loop = self._loop, None
        if loop is None:
            return
        task = loop.get_task()
        loop.cancel()
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait([task])

    async def _tick_safely(self) -> None:
        try:
            await self.tick()
        except Exception:  # the loop must outlive any one bad row
            log.exception("reminder tick failed")

    # -- hooks ------------------------------------------------------------------------------------

    async def action_committed(self, game: Game, step: Step) -> None:
        """Remember who acted (their reminder was pushed back in the action's commit). A table
        decision (a vote) is nobody's move: whoever is to play next — a voter included — has not
        been told yet, so their DM goes out at once (issue 31, item 15)."""
        decided = isinstance(step.action, TABLE_ACTIONS)
        # a planned step is not the player at the table: their turn's reminders stand
        self._last_actor[game.id] = None if decided or step.planned else step.user_id
        if decided:
            self._decided.add(game.id)
        else:
            self._decided.discard(game.id)
        if step.planned and step.state.turns and step.seat not in step.state.acting_seats:
            # Line Clear: a planned turn plays out in the commits that follow its TurnStarted, so
            # the action's own close (``activity_writes``) ran before this hook run opened the
            # seat's row; its turn is over while the other holder plays on: close the row now.
            await self.store.close_turns_of_seat(game.id, step.seat)

    async def activity_writes(self, game: Game, step: Step) -> list[Write | InTransaction]:
        """For the action's own transaction (``GameManager.commit_writes``): if the actor still has
        the move after it, push their next reminder back."""
        now = self.clock.now()
        writes: list[Write | InTransaction] = []
        if game.state is not None and game.state.turns:
            # Two turns at once (Line Clear): a holder whose turn this action ended (the other
            # plays on) no longer has the move: no reminder, no clock, not in their inbox.
            writes.append(self.store.close_seats_write(game.id, game.state.acting_seats, now))
        key = turn_key(game, step.seat)
        if step.user_id is None or step.planned or key is None or key.seat != step.seat:
            return writes
        if game.seats[step.seat].user_id != step.user_id:  # e.g. someone else left: not this player acting
            return writes
        def due(prefs: ReminderPrefsRow) -> datetime | None:  # on the connection's thread: plain code
            return reminder_policy.next_nudge_due(now, now, preferences(prefs))

        return [*writes, await self.store.activity_work(key, step.user_id, now, due)]

    async def turn_started(self, game: Game, seat: Seat) -> None:
        """Open the turn's row: first DM a minute from now, or a nudge later if they are acting."""
        key = turn_key(game, seat.seat)
        if key is None or seat.user_id is None:
            if game.state is not None and game.state.turns:
                await self.store.close_turns_of_seat(game.id, seat.seat)  # the other holder plays on
            else:
                await self.store.close_turns(game.id)
            return
        now = self.clock.now()
        same_player = self._last_actor.get(game.id) == seat.user_id
        decided = game.id in self._decided

        def due(row: ReminderPrefsRow) -> datetime | None:  # on the connection's thread: plain code
            prefs = preferences(row)
            if same_player:
                return reminder_policy.next_nudge_due(now, now, prefs)  # same player goes on (e.g. Solo)
            if decided:  # the table moved the game on: nobody here has seen it
                return reminder_policy.first_reminder_due(now, prefs)
            return reminder_policy.first_reminder_due(now + FIRST_REMINDER_DELAY, prefs)

        # the settings, the turn clock and the new row in one storage job (the turn post waits)
        await self.store.start_turn(key, user_id=seat.user_id, channel_id=game.channel_id, started_at=now,
                                    due=due, keep=turn_keys(game))
        task = asyncio.create_task(self._heads_up(game, seat))  # a DM must not hold up the action
        self._heads_ups.add(task)
        task.add_done_callback(self._heads_ups.discard)

    async def _heads_up(self, game: Game, seat: Seat) -> None:
        """Tell the player after ``seat`` they are next, if they asked to be told (and may be now).
        Sent once, when the turn starts; a crash in that instant loses it (the turn DM still comes)."""
        if game.state is None:
            return
        following = seat_after(game.state, seat.seat)
        user_id = None if following is None else game.seats[following].user_id
        if user_id is None or user_id == seat.user_id:
            return
        prefs = await self.store.get_prefs(user_id)
        if not prefs.heads_up or prefs.dms_closed:
            return
        if not heads_up_now(self.clock.now(), preferences(prefs)):
            return
        text = texts.HEADS_UP.format(game_id=game.id, channel_id=game.channel_id, name=seat.name,
                                     link=self.jump_link(game))
        await self.direct_message(user_id, text, game=game, locale=self._dm_locale_of(prefs.locale, game))

    async def game_over(self, game: Game) -> None:
        self._last_actor.pop(game.id, None)
        self._decided.discard(game.id)
        await self.store.close_turns(game.id)

    async def after_undo(self, game: Game, user_id: int) -> None:
        """The undoer has the move again and is acting: reopen their turn without a DM."""
        seat = game.seat_of(user_id)
        key = turn_key(game, None if seat is None else seat.seat)
        if key is None:
            return
        now = self.clock.now()
        prefs = preferences(await self.store.get_prefs(user_id))
        if await self.store.get_turn(key) is None:
            await self.store.open_turn(key, user_id=user_id, channel_id=game.channel_id, started_at=now,
                                       deadline_at=None, due_at=None, keep=turn_keys(game))
        await self.store.reopen_turn(key, now, reminder_policy.next_nudge_due(now, now, prefs),
                                     turn_keys(game))
        self._last_actor[game.id] = user_id

    async def preferences_changed(self, user_id: int) -> None:
        """Re-plan the player's open turns under their new settings (e.g. back from vacation); their
        held DMs are looked at again at the next tick."""
        now = self.clock.now()
        await self.held.due_now(user_id, now)
        prefs = preferences(await self.store.get_prefs(user_id))
        for row in await self.store.open_turns_of_user(user_id):
            for _ in range(REPLAN_TRIES):  # a reminder claimed meanwhile (another process): again
                if await self.store.reschedule(row, self._replanned_due(row, now, prefs)):
                    break
                found = await self.store.get_turn(row.key)
                if found is None or found.closed_at is not None:
                    break
                row = found

    @staticmethod
    def _replanned_due(row: TurnRow, now: datetime, prefs: Preferences) -> datetime | None:
        """When ``row``'s next reminder is due under ``prefs``."""
        if row.sent_count == 0 and row.last_acted_at is None:
            return reminder_policy.first_reminder_due(max(now, row.started_at), prefs)
        return reminder_policy.next_nudge_due(row.last_sent_at or row.started_at, row.last_acted_at, prefs)

    async def sync_open_turns(self) -> None:
        """Give every human to move a turn row (games resumed at start-up, or older than 0002)."""
        async for game in self.bot.manager.iter_active_games():
            await self._sync_game(game)

    async def _sync_game(self, game: Game) -> None:
        for key in turn_keys(game):
            seat = game.seats[key.seat]
            if seat.user_id is None:
                if game.state is not None and game.state.turns:
                    await self.store.close_turns_of_seat(game.id, seat.seat)
                else:
                    await self.store.close_turns(game.id)
                continue
            found = await self.store.get_turn(key)
            if found is not None and found.closed_at is None:
                continue
            started = parse_ts(game.updated_at) or self.clock.now()
            prefs = preferences(await self.store.get_prefs(seat.user_id))
            limit = await self.store.turn_limit(game.id)
            # a row closed while its turn runs (a Line Clear holder's, closed by the other's
            # before this was fixed) is opened again as it was: its first DM goes if never sent
            await self.store.open_turn(
                key, user_id=seat.user_id, channel_id=game.channel_id, started_at=started,
                deadline_at=None if limit is None else started + limit,
                due_at=reminder_policy.first_reminder_due(max(started, self.clock.now()), prefs),
                keep=turn_keys(game),
            )

    # -- sending ----------------------------------------------------------------------------------

    async def tick(self) -> int:
        """Announce every expired turn clock, then send every due reminder. Returns how many
        messages were sent. Safe to call any time, from several places at once.

        Timeouts first: the word to the player whose time ran out pushes their next nudge back, so
        a nudge that fell due in the same tick is not sent on top of it. Held DMs (:meth:`send_or_hold`)
        next, so what a planned turn did comes before the turn DM held to the same moment."""
        timeouts = await self.run_timeouts()
        held = await self.run_held()  # before the turn DMs: a planned turn's word, then the turn's
        return timeouts + held + await self.run_due()

    async def run_due(self) -> int:
        now = self.clock.now()
        sent = 0
        for row in await self.store.due_turns(now):
            game = await self.bot.manager.game(row.key.game_id)
            if game is None or row.key not in turn_keys(game):
                await self.store.close_turn(row.key)  # the turn ended while nobody was looking
                continue
            if not runs_guild(self.bot.settings, game.guild_id):
                continue  # the process running that server's shard sends it
            stored = await self.store.get_prefs(row.user_id)  # read once for this reminder
            prefs = preferences(stored)
            allowed = reminder_policy.deliverable_at(now, prefs)
            if allowed is None or allowed > now:  # settings changed since it was planned
                await self.store.reschedule(row, allowed)  # unless claimed or acted on since
                continue
            next_due = reminder_policy.next_nudge_due(now, row.last_acted_at, prefs)
            if not await self.store.claim_reminder(row, now, next_due):
                continue
            try:
                if await self._deliver(game, row, stored):
                    sent += 1
            except Exception:  # one bad row must not hold up everyone else's reminders
                log.exception("reminder for game %s seat %s failed", game.id, row.key.seat)
        return sent

    async def run_timeouts(self) -> int:
        """Announce each turn clock that ran out, once (claimed in the database first): a channel
        post mentioning the players who may vote, and a word to the player concerned."""
        now = self.clock.now()
        announced = 0
        for row in await self.store.expired_turns(now):
            game = await self.bot.manager.game(row.key.game_id)
            if game is None or row.key not in turn_keys(game):
                await self.store.close_turn(row.key)
                continue
            if not runs_guild(self.bot.settings, game.guild_id):
                continue  # posted by the process that has the channel (bot/core/shards.py)
            if not turn_limits.voters_for(game, row.key.seat):
                # Nobody else could vote (Solo, or only AI seats besides them): nothing to say,
                # reminders go on as before.
                await self.store.claim_timeout(row.key, now)
                continue
            # The word to the player below is their reminder too: the next nudge comes one
            # interval after it, moved in the claim itself.
            prefs = preferences(await self.store.get_prefs(row.user_id))
            nudge = reminder_policy.next_nudge_due(now, row.last_acted_at, prefs)
            if not await self.store.claim_timeout(row.key, now, nudge):
                continue
            if self.announce_timeout is not None:
                try:
                    await self.announce_timeout(game, row)
                    announced += 1
                except discord.HTTPException as error:
                    log.warning("could not announce the turn clock in %s: %s", game.channel_id, error)
            if await self.tell_or_hold_timed_out(game, row):
                announced += 1
        return announced

    async def tell_or_hold_timed_out(self, game: Game, row: TurnRow) -> bool:
        """:meth:`tell_timed_out` now, or at the end of the player's quiet hours (or vacation) if
        it falls in them: held in storage (``held_dms``, under a key naming the turn), sent by
        :meth:`run_held` — claimed first, so once however many processes tick — unless the turn is
        over or the player has played by then. Their reminders being off does not stop it (it is
        about their seat). Whether it was sent now."""
        now = self.clock.now()
        prefs = await self.store.get_prefs(row.user_id)
        allowed = reminder_policy.deliverable_at(now, replace(preferences(prefs), enabled=True))
        if allowed is not None and allowed > now:
            words = stored.dumps(await self._timed_out_text(game))  # what it will say (read: the turn)
            await self.held.hold(timed_out_hold_key(row.key), row.user_id, game.id, words, allowed)
            return False
        return await self.tell_timed_out(game, row)

    async def _tell_timed_out_later(self, held: HeldRow, game: Game | None) -> bool:
        """A held "time ran out" DM (claimed): sent if it is still true — the same turn still
        open, still the player's, and not played since its deadline — else dropped; held again
        if their settings now put it later. Whether it was sent."""
        key = turn_key_of_hold(held.key)
        row = None if key is None or game is None else await self.store.get_turn(key)
        if (game is None or row is None or row.closed_at is not None or row.deadline_at is None
                or row.key not in turn_keys(game) or row.user_id != held.user_id
                or turn_limits.clock_state(row.deadline_at, self.clock.now(), row.last_acted_at)
                is not turn_limits.ClockState.EXPIRED):
            return False
        return await self.tell_or_hold_timed_out(game, row)

    async def send_or_hold(self, key: str, user_id: int, content: Any, *, game: Game | None,
                           held_content: Any = None) -> str:
        """A one-off DM about ``game`` (what a planned turn did) under the rules the turn DMs
        follow, so a player who asked for no DMs, or for none at night, is not DMed by it either:
        none with reminders off (``"off"``); none while their DMs are known to be closed
        (``"closed"``: the turn-start DM is not tried either); in quiet hours or on vacation
        (:func:`~bot.core.days.reminder_policy.deliverable_at`) it is held until they end
        (``"held"``: kept in storage, so a restart keeps it; sent by :meth:`tick`, as
        ``held_content`` when given: words that stay true later, and that
        bot/core/wording/stored.py can keep). Whatever it does replaces any DM held under the
        same ``key``. A 403 marks their DMs closed, as for a reminder. Else ``"sent"`` or
        ``"failed"``. No channel fallback: the caller keeps what it said where the player can
        ask for it."""
        prefs = await self.store.get_prefs(user_id)
        now = self.clock.now()
        allowed = None if prefs.dms_closed else reminder_policy.deliverable_at(now, preferences(prefs))
        if allowed is not None and allowed > now:
            words = stored.dumps(content if held_content is None else held_content)
            await self.held.hold(key, user_id, None if game is None else game.id, words, allowed)
            return "held"
        await self.held.drop(key)
        if allowed is None:
            return "closed" if prefs.dms_closed else "off"
        outcome = await self.direct_message(user_id, content, game=game,
                                            locale=self._dm_locale_of(prefs.locale, game))
        if outcome == "closed":
            await self.store.set_dms_closed(user_id, True)
        return outcome

    async def run_held(self) -> int:
        """Send the held DMs whose time has come (the player's settings are read again: one held
        past quiet hours may be held again, or dropped if they turned DMs off meanwhile). Each is
        claimed in storage before it is sent, as a reminder is: once, whichever process ticks —
        the one running the server of the game it is about (bot/core/shards.py). One held about a
        game since cancelled goes all the same: what it says stays true."""
        now = self.clock.now()
        sent = 0
        for row in await self.held.due(now):
            try:
                game = None if row.game_id is None else await self.bot.manager.game(row.game_id)
                if not runs_guild(self.bot.settings, None if game is None else game.guild_id):
                    continue
                if not await self.held.claim(row):
                    continue  # another process sent it, or it was replaced since it was read
                if row.key.startswith(TIMED_OUT_HOLD):
                    sent += await self._tell_timed_out_later(row, game)
                    continue
                content = stored.loads(row.content)
                if await self.send_or_hold(row.key, row.user_id, content, game=game) == "sent":
                    sent += 1
            except Exception:  # one bad DM must not hold up the others
                log.exception("held DM to %s failed", row.user_id)
        return sent

    async def tell_timed_out(self, game: Game, row: TurnRow) -> bool:
        """Tell the player whose clock ran out what may now happen and how to keep their seat:
        a DM, or one channel mention when their DMs are closed. Not a reminder, so it is sent
        with their reminders off too: it is about their seat, and comes once per turn (outside
        their quiet hours and vacation: :meth:`tell_or_hold_timed_out`)."""
        prefs = await self.store.get_prefs(row.user_id)
        if not prefs.dms_closed:
            outcome = await self.direct_message(row.user_id, await self._timed_out_text(game), game=game)
            if outcome != "closed":
                return outcome == "sent"
            await self.store.set_dms_closed(row.user_id, True)
        return await self.post_mentioning(
            game.channel_id, texts.TIMED_OUT_FALLBACK.format(user_id=row.user_id), [row.user_id])

    async def _timed_out_text(self, game: Game) -> str:
        """The "time ran out" DM about ``game``."""
        limit = await self.store.turn_limit(game.id)
        limit_text = turn_limits.limit_text(limit) if limit is not None else ""
        return texts.TIMED_OUT_DM.format(channel_id=game.channel_id, limit=limit_text,
                                         link=self.jump_link(game))

    async def dm_locale(self, user_id: int, game: Game | None = None) -> Any:
        """The language of a DM to ``user_id``: the Discord locale of their latest table command
        (``players.locale``); for a player not seen since that was kept, the language of the
        server ``game`` is played in; else None (English)."""
        return self._dm_locale_of((await self.store.get_prefs(user_id)).locale, game)

    def _dm_locale_of(self, known: str | None, game: Game | None) -> Any:
        """:meth:`dm_locale` from the player's stored locale (``players.locale``), already read."""
        if known is not None or game is None:
            return known
        return public_locale(self.bot.get_channel(game.channel_id), self.bot.server_locales,
                             guild_id=game.guild_id)

    async def direct_message(
        self, user_id: int, content: str, files: list[discord.File] | None = None, *,
        game: Game | None = None, locale: Any = LOOK_UP,
    ) -> str:
        """``"sent"``, ``"closed"`` (Discord answered 403: the player does not accept DMs from the
        server) or ``"failed"`` (another HTTP error, logged). ``content`` (a sentence of
        bot/core/wording/texts.py, or a :class:`~bot.core.wording.locales.Joined` of them) is shown in the
        player's language
        (:meth:`dm_locale`; ``game`` is the game the DM is about), or in ``locale`` when the
        caller has worked it out already."""
        if locale is LOOK_UP:
            locale = await self.dm_locale(user_id, game)
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            await channel.send(localise(content, locale), files=files or [])
        except discord.Forbidden:
            log.info("DMs to %s are closed", user_id)
            return "closed"
        except discord.HTTPException as error:
            log.warning("DM to %s failed: %s", user_id, error)
            return "failed"
        return "sent"

    async def post_mentioning(self, channel_id: int, content: str, user_ids: list[int]) -> bool:
        """A channel post that pings exactly ``user_ids`` (no one else, no roles, no @everyone), in
        the server's language."""
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return False
        try:
            await channel.send(localise(content, public_locale(channel, self.bot.server_locales)),
                               allowed_mentions=pinging(user_ids))
        except discord.HTTPException as error:
            log.warning("post in %s failed: %s", channel_id, error)
            return False
        return True

    async def _deliver(self, game: Game, row: TurnRow, prefs: ReminderPrefsRow) -> bool:
        """DM the reminder; on a closed DM fall back to one channel mention for this turn.

        A player known to have closed DMs gets no DM attempt for the turn-start reminder (the turn
        post already pinged them in the channel) and exactly one at their first nudge of each turn:
        if it goes through their DMs are open again and the flag is cleared; if not, that turn's
        one channel mention is posted. Never more than one attempt per turn, so no retry loop.
        ``prefs`` are the player's stored preferences, read once for this reminder.
        """
        locale = self._dm_locale_of(prefs.locale, game)  # the DM's own language
        first = row.sent_count == 0 and row.last_acted_at is None  # else it is a nudge
        if prefs.dms_closed:
            if first or not await self.store.claim_channel_fallback(row.key):
                return False
            outcome = await self._send_dm(game, row, first, locale, prefs.text_only, prefs.timezone)
            if outcome == "sent":
                await self.store.set_dms_closed(row.user_id, False)
                return True
            return outcome == "closed" and await self._post_fallback(game, row)
        outcome = await self._send_dm(game, row, first, locale, prefs.text_only, prefs.timezone)
        if outcome == "closed":
            await self.store.set_dms_closed(row.user_id, True)
            return await self.store.claim_channel_fallback(row.key) and await self._post_fallback(game, row)
        return outcome == "sent"

    async def _send_dm(self, game: Game, row: TurnRow, first: bool, locale: Any,
                       text_only: bool = False, timezone: str = "UTC") -> str:
        """``"sent"``, ``"closed"`` (Discord answered 403) or ``"failed"`` (logged; the reminder
        counts as sent and the next nudge comes one interval later). With ``text_only`` (the
        player's setting) the mat comes as text in the DM, and its image in a second DM."""
        content = self._dm_text(game, row, first)
        assert game.state is not None
        if first and row.key.phase != "finishing":  # the turn DM starts with "While you were away"
            rows = await self.bot.manager.log(game.id)  # one read, at DM time
            away = catch_up_lines(game.state, rows, row.key.seat, game.names)
            content = Joined([*away, content], "\n") if away else content
        elif not first:  # a later reminder says when the game ends at this pace (one read)
            now = self.clock.now()
            turns = await self.store.turn_times(game.guild_id)
            end = pace.forecast_line(pace.game_forecast(game, turns, {}, now), now, timezone)
            content = Joined([content, end], "\n") if end is not None else content
        files: list[discord.File] = []
        try:
            mat = await self.bot.renderer.mat(game.state, row.key.seat, game.names, locale=locale)
            about = alt_text(describe(game.state, game.names, row.key.seat, mat=row.key.seat), locale)
            files.append(discord.File(io.BytesIO(mat), filename="mat.png", description=about))
        except Exception:  # a reminder without its picture beats no reminder
            log.warning("could not render the mat for a reminder in game %s", game.id, exc_info=True)
        if text_only:
            lines = mat_lines(game.state, game.names, row.key.seat)
            sent = await self.direct_message(row.user_id, Joined([content, "", *lines], "\n"), game=game,
                                             locale=locale)
            if sent != "sent" or not files:
                return sent
            await self.direct_message(row.user_id, "", files, game=game, locale=locale)
            return sent
        return await self.direct_message(row.user_id, content, files, game=game, locale=locale)

    async def _post_fallback(self, game: Game, row: TurnRow) -> bool:
        """The one channel mention that replaces this turn's DMs (caller claimed it)."""
        assert game.state is not None
        return await self.post_mentioning(
            game.channel_id, texts.REMINDER_FALLBACK.format(user_id=row.user_id, round=game.state.round),
            [row.user_id])

    def _dm_text(self, game: Game, row: TurnRow, first: bool) -> str:
        assert game.state is not None
        link = self.jump_link(game)
        if not first:
            text = texts.REMINDER_NUDGE.format(
                channel_id=game.channel_id, since=int(row.started_at.timestamp()), link=link)
        elif row.key.phase == "finishing":
            text = texts.REMINDER_FINISHING.format(channel_id=game.channel_id, link=link)
        else:
            text = texts.REMINDER_TURN.format(channel_id=game.channel_id, round=game.state.round,
                                              actions=game.state.focused(row.key.seat).actions_left,
                                              link=link)
        if row.deadline_at is not None and turn_limits.voters_for(game, row.key.seat):
            return Joined([text, turn_limits.reminder_clock_line(row.deadline_at, self.clock.now(),
                                                                 row.last_acted_at)])
        return text

    @staticmethod
    def channel_link(game: Game) -> str:
        """A link to the game's channel, which Discord opens on its latest message: for a word
        sent before the table is posted again (a planned turn's DM), where the table post known
        now is about to be an old board. "" outside a server."""
        if game.guild_id is None:
            return ""
        return CHANNEL_LINK.format(guild_id=game.guild_id, channel_id=game.channel_id)

    @staticmethod
    def jump_link(game: Game) -> str:
        """A link to the game's table message (or its lobby), or "" if there is none yet."""
        message = game.table_message_id or game.lobby_message_id
        if game.guild_id is None or message is None:
            return ""
        return JUMP_LINK.format(guild_id=game.guild_id, channel_id=game.channel_id, message_id=message)

