"""What one board request does, Discord-free: who asks (a verified token), what they see, and an
action played through the same flow as a panel tap.

Every request loads the game once and builds the flow's context from it
(:func:`bot.web.view.context_for`); an action is checked with :func:`bot.core.play.flow.acting`
against the stamp the page saw and committed by ``manager.act(..., expected_stamp=...)``, exactly
as a panel tap is. Answers are ``(status, JSON)``: 403 for a token that grants nothing here, 409
with the fresh view for a stale stamp, 422 with the engine's reason (in the seat's language) for
an action that is not legal now — and in every refusal nothing changed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.core.errors import (
    BadInputError,
    BotError,
    NotInGameError,
    NotYourTurnError,
    OutOfDateError,
    StaleError,
)
from bot.core.play import flow
from bot.core.play.flow import ActingContext
from bot.core.play.manager import ActionResult, Game, GameManager
from bot.core.play.plan_outcomes import PlanOutcomes
from bot.core.play.seat_view import PART_DIGITS, PARTS, SEAT_STAMP_PREFIX
from bot.core.play.undo import UndoResult, check_undo, undo_last
from bot.core.services import ResultPresenter
from bot.core.storage import ActionRow
from bot.core.storage.days import DaysStore
from bot.core.storage.faults import storage_fault
from bot.core.wording import texts
from bot.core.wording.event_texts import event_text
from bot.core.wording.locales import (
    NAME_STAND_IN,
    Joined,
    Notation,
    locales,
    localise,
    named,
    plain_name,
    plain_text,
    without_markdown,
)
from bot.core.wording.refusals import engine_text
from bot.web.live import LiveGames
from bot.web.tokens import BadTokenError, BoardToken, TokenSigner
from bot.web.view import LOG_LINES, Json, context_for, seat_view
from engine import Action, Master, Place
from engine import events as ev
from engine.actions import AmbassadorAction
from engine.pieces import GRID, cells_to_mask, parse_shape
from engine.visibility import hidden_scores

log = logging.getLogger(__name__)

MAX_PLACEMENTS = 8
"""A Master or an Ambassador action places at most one piece per open puzzle (four, or a few more)."""
MAX_CARD_ID = 12
MAX_CACHED = 512
"""Views (and log tails) kept at most, oldest dropped first: the latest of the games being watched."""


class Refused(Exception):
    """A request answered with ``status`` and ``payload`` (a refusal: nothing changed)."""

    def __init__(self, status: int, payload: Json) -> None:
        super().__init__(status)
        self.status = status
        self.payload = payload


class Forbidden(Refused):
    """403 for a link that grants nothing here (:func:`forbidden`). Such a link has no language to
    trust, so its sentence is said in the one the request asks for (:func:`asked_locale`), by the
    server, which reads the request: ``Forbidden(locale)``; English until then."""

    def __init__(self, locale: str | None = None) -> None:
        super().__init__(403, {"error": sentence(texts.BOARD_FORBIDDEN, locale)})


def forbidden() -> Forbidden:
    """403 for a missing, forged or expired link, another game's, one for a game that does not
    exist or a seat its user no longer holds, or a spectator's asked to act or plan: the same
    refusal whatever made the link bad."""
    return Forbidden()


@dataclass
class BoardFront:
    """The services the board uses: the manager, the key links are signed with, the presenter
    that tells the channel, and the live games of open pages."""

    manager: GameManager
    signer: TokenSigner
    present: ResultPresenter
    now: Callable[[], float] = time.time
    live: LiveGames | None = None
    present_undo: Callable[[UndoResult, int], Awaitable[None]] | None = None
    """Tells the table about an action taken back on the board (the bot: the channel's line, the
    turn clock reopened), as ``/projectl play undo`` does; None: nobody to tell."""
    plan_outcomes: PlanOutcomes = field(default_factory=PlanOutcomes)
    """What each seat's last planned turn did, for its page (``bot/web/planning.py``)."""
    _presenting: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    _stalled: set[asyncio.Future[None]] = field(default_factory=set)
    """Stopped AI turns being played on a refusal (:meth:`_play_stalled`)."""
    _views: dict[tuple[Any, ...], asyncio.Future[bytes]] = field(default_factory=dict)
    _logs: dict[tuple[int, int], asyncio.Future[list[ActionRow]]] = field(default_factory=dict)
    _channels: dict[int, int] = field(default_factory=dict)
    """Game id -> its channel (which never changes), so an action loads its game only once."""

    def __post_init__(self) -> None:
        if self.live is None:
            self.live = LiveGames(self.manager)
        self.plan_outcomes.attach(self.manager)

    # -- who asks -----------------------------------------------------------------------------------

    async def grant(self, token: str | None) -> tuple[BoardToken, Game]:
        """The verified grant of ``token`` and its game as loaded once for this request; 403 when
        the token is forged, expired, for a game that does not exist, or for a seat its user no
        longer holds."""
        grant = self._verified(token)
        game = await self.manager.game(grant.game_id)
        if game is None or game.state is None:
            raise forbidden()
        _require_seat(grant, game)
        self._channels[game.id] = game.channel_id
        return grant, game

    async def grant_to_act(self, token: str | None) -> tuple[BoardToken, Where]:
        """The verified grant of ``token`` and where its game is, for an action: the game itself
        is loaded once, by the flow (:meth:`_acting`), which checks the seat again."""
        grant = self._verified(token)
        channel = self._channels.get(grant.game_id)
        if channel is None:
            _, game = await self.grant(token)
            channel = game.channel_id
        _bound(self._channels)
        return grant, Where(grant.game_id, channel)

    def still_granted(self, grant: BoardToken, game: Game) -> bool:
        """Whether ``grant`` still shows its page ``game``: not expired, and its seat still its
        user's (a host's ``/projectl table replace`` hands it to an AI). An open page's stream
        checks it before each view, as every request does (:meth:`grant`)."""
        if grant.expires <= self.now():
            return False
        try:
            _require_seat(grant, game)
        except Refused:
            return False
        return True

    def _verified(self, token: str | None) -> BoardToken:
        if token is None:
            raise forbidden()
        try:
            return self.signer.verify(token, now=self.now())
        except BadTokenError:
            raise forbidden() from None

    def link(self, base_url: str, game_id: int, seat: int | None, user_id: int, *,
             locale: str | None = None, path: str = "/board") -> str:
        token = self.signer.sign(game_id, seat, user_id, now=self.now(), locale=locale)
        return f"{base_url.rstrip('/')}{path}#t={token}"

    # -- what they see ------------------------------------------------------------------------------

    async def view_bytes(self, grant: BoardToken, game: Game) -> bytes:
        """The seat's view of ``game`` as JSON bytes, built once per revision, seat and language:
        the pages of one seat — or of every spectator — share it, and the pages woken together by
        one commit wait for the one build rather than each making it."""
        key = (game.id, game.revision, game.status, grant.seat,
               None if grant.seat is None else grant.user_id, grant.locale)
        building = self._views.get(key)
        if building is None:
            self._forget_older(game)
            building = self._views[key] = asyncio.ensure_future(self._view_bytes(grant, game))
            _bound(self._views)
        try:
            return await asyncio.shield(building)
        except Exception:
            if self._views.get(key) is building:
                del self._views[key]
            raise

    async def _view_bytes(self, grant: BoardToken, game: Game) -> bytes:
        return dumps(await self.view(grant, game))

    async def view(self, grant: BoardToken, game: Game) -> Json:
        view = seat_view(context_for(game, grant.seat, grant.user_id, grant.locale), await self.recent(game),
                         blind=self.signer.blind)
        view["game"]["status"] = game.status
        return view

    async def recent(self, game: Game) -> list[ActionRow]:
        """The last rows of the game's log at its revision (read once for every page)."""
        key = (game.id, game.revision)
        reading = self._logs.get(key)
        if reading is None:
            self._logs = {k: v for k, v in self._logs.items() if k[0] != game.id or k[1] > game.revision}
            reading = self._logs[key] = asyncio.ensure_future(
                self.manager.log_tail(game.id, LOG_LINES, before_revision=game.revision + 1))
            _bound(self._logs)
        try:
            return await asyncio.shield(reading)
        except Exception:
            if self._logs.get(key) is reading:
                del self._logs[key]
            raise

    def _carry_log(self, result: ActionResult) -> None:
        """The log's tail after ``result`` from the tail before it and the steps it committed (what
        the log now holds, as rows), so the fresh views need not read it again."""
        game = result.game
        before = self._logs.get((game.id, result.before.revision))
        if before is None or not before.done() or before.cancelled() or before.exception() is not None \
                or not result.steps or result.steps[0].revision != result.before.revision + 1 \
                or result.steps[-1].revision != game.revision:
            return
        rows = list(before.result())
        seq = rows[-1].seq if rows else 0
        for number, step in enumerate(result.steps, start=1):
            rows.append(ActionRow(game.id, seq + number, step.seat, step.user_id, step.text, step.revision,
                                  "", step.planned))
        carried: asyncio.Future[list[ActionRow]] = asyncio.get_running_loop().create_future()
        carried.set_result(rows[-LOG_LINES:])
        self._logs[(game.id, game.revision)] = carried
        _bound(self._logs)

    def _forget_older(self, game: Game) -> None:
        """Views of this game at earlier revisions are never asked for again: dropped."""
        stale = [key for key in self._views if key[0] == game.id and key[1] < game.revision]
        for key in stale:
            del self._views[key]

    # -- what they do -------------------------------------------------------------------------------

    async def check(self, grant: BoardToken, game: Where, body: Any) -> Json:
        """Whether the action could be played now (a drop that does not fit springs back with the
        engine's reason): nothing is committed."""
        seat = _acting_seat(grant)
        action, stamp = parse_request(body, grant.locale)
        if isinstance(action, str):
            return await self._check_undo(grant, await self._loaded(grant, game), seat, stamp)
        try:
            ctx = await self._acting(grant, game, seat, stamp)
            ctx.check(action)
        except OutOfDateError as error:
            raise await self._stale(grant, error) from None
        except BotError as error:
            return {"ok": False, "reason": sentence(error.message, grant.locale)}
        return {"ok": True}

    async def act(self, grant: BoardToken, game: Where, body: Any) -> bytes:
        """Play the action through the flow, commit it, hand the result to the presenter (the
        channel's turn post) and answer (JSON) with the fresh view and what happened."""
        seat = _acting_seat(grant)
        action, stamp = parse_request(body, grant.locale)
        if isinstance(action, str):
            return await self.undo(grant, await self._loaded(grant, game), seat, stamp)
        try:
            ctx = await self._acting(grant, game, seat, stamp)
            result = await self.manager.act(game.channel_id, grant.user_id, action,
                                            expected_stamp=ctx.stamp, game_id=game.id)
        except OutOfDateError as error:
            raise await self._stale(grant, error) from None
        except StaleError as error:
            fresh = await self.manager.game(game.id)
            raise Refused(409, {"error": sentence(error.message, grant.locale),
                                "view": None if fresh is None or fresh.state is None
                                else await self.view(grant, fresh)}) from None
        except BotError as error:
            if isinstance(error, NotYourTurnError):
                self._play_stalled(game.channel_id)
            raise Refused(422, {"error": sentence(error.message, grant.locale)}) from None
        except Exception as error:
            raise storage_refusal(error, grant.locale) from None
        try:
            self._carry_log(result)
            self._present(result)  # its own task: a failure to post is logged there
        except Exception:
            log.exception("game %s: handing a committed result on failed", game.id)
        stopped = interruption(result)
        return await self.committed(grant, result.game, lambda: said(result, grant) + (
            [] if stopped is None else [sentence(stopped, grant.locale)]))

    async def undo(self, grant: BoardToken, game: Game, seat: int, shown: str) -> bytes:
        """Take back the seat's last action (``bot/core/play/undo.py`` checks it: theirs, the last
        one, revealing nothing), from the view the page showed."""
        await self._undo_shown(grant, game, seat, shown)
        try:
            done = await undo_last(self.manager, DaysStore(self.manager.storage), game.channel_id,
                                   grant.user_id, game_id=game.id)
        except BotError as error:
            raise Refused(422, {"error": sentence(error.message, grant.locale)}) from None
        except Exception as error:
            raise storage_refusal(error, grant.locale) from None
        if self.present_undo is not None:
            try:
                await self.present_undo(done, grant.user_id)
            except Exception:
                log.exception("telling game %s's table about an undo failed", game.id)
        return await self.committed(grant, done.game, lambda: [without_markdown(localise(
            texts.UNDO_DONE.format(action=Notation(str(done.action))), grant.locale))])

    async def _check_undo(self, grant: BoardToken, game: Game, seat: int, shown: str) -> Json:
        """Whether :meth:`undo` would take the seat's last action back now, answered as a check
        (409 for a stale stamp, else ok or the reason it would be refused): nothing changes."""
        await self._undo_shown(grant, game, seat, shown)
        try:
            await check_undo(self.manager, DaysStore(self.manager.storage), game.channel_id,
                             grant.user_id, game_id=game.id)
        except BotError as error:
            return {"ok": False, "reason": sentence(error.message, grant.locale)}
        return {"ok": True}

    async def _loaded(self, grant: BoardToken, game: Where) -> Game:
        """The game an undo is asked in, loaded (the flow's context is for playing actions);
        403 unless the token's seat is still its user's."""
        loaded = await self.manager.game(game.id)
        if loaded is None or loaded.state is None:
            raise forbidden()
        _require_seat(grant, loaded)
        return loaded

    async def _undo_shown(self, grant: BoardToken, game: Game, seat: int, shown: str) -> None:
        """409 with the fresh view unless the page's stamp is the seat's stamp now, as for an
        action (:meth:`_acting`): an undo is asked from the board the page showed."""
        now = self.signer.blind(ActingContext(game, seat, grant.user_id, grant.locale).stamp)
        if now != shown:
            changed = _changed(now, shown)
            fresh = await self.view(grant, game)
            raise Refused(409, {"error": sentence(texts.STALE_FOR_YOU.format(changed=Joined(
                [STALE_PARTS[part] for part in changed], ", ")), grant.locale), "view": fresh})

    async def committed(self, grant: BoardToken, game: Game, words: Callable[[], list[str]]) -> bytes:
        """The answer (JSON) to a change already committed: ``game``'s fresh view (its open pages
        woken too) and ``words``, what the change did.

        The change stands whatever fails from here on (the log read behind the view, a sentence),
        so the answer still says it was done: a 500 would tell the player it was not and invite
        them to do it again. What failed is logged for the operator; the page gets what can be
        said, ``"view": null`` (it reads the view again, and the live stream brings it) and a
        note that the board will catch up — a storage fault's own "your action stands" note."""
        note: Any = None
        try:
            assert self.live is not None
            await self.live.publish(game)
            view = await self.view_bytes(grant, game)  # the one its own open page is pushed too
        except Exception as error:
            log.exception("game %s: the view after a committed change failed", game.id)
            fault = storage_fault(error)
            note = texts.BOARD_DONE_CATCHING_UP if fault is None \
                else texts.STORAGE_FAULT_AFTER_COMMIT[fault.value]
            view = b"null"
        try:
            lines = words()
        except Exception:
            log.exception("game %s: telling what a committed change did failed", game.id)
            lines = []
            note = note or texts.BOARD_DONE_CATCHING_UP
        if note is not None:
            lines.append(sentence(note, grant.locale))
        return b'{"view":' + view + b',"said":' + dumps(lines) + b"}"

    async def _acting(self, grant: BoardToken, game: Where, seat: int, shown: str) -> flow.ActingContext:
        """The acting context of a panel tap (:func:`bot.core.play.flow.acting`: one load, the seat
        must hold the move), refused as out of date unless the page's stamp is the seat's stamp
        now as the page was shown it (:meth:`TokenSigner.blind`); the caller's commit is then
        pinned to that stamp (``expected_stamp``), so nothing can slip in between."""
        try:
            ctx = await flow.acting(self.manager, game.channel_id, grant.user_id, grant.locale,
                                    game_id=game.id)
        except NotInGameError:  # the token's user holds no seat in it (any more)
            raise forbidden() from None
        except BotError:  # refused (not their turn…): a token for a seat not theirs hears 403 first
            loaded = await self.manager.game(game.id)
            if loaded is None:
                raise forbidden() from None
            _require_seat(grant, loaded)
            raise
        if ctx.seat != seat:
            raise forbidden()
        now = self.signer.blind(ctx.stamp)
        if now != shown:
            changed = _changed(now, shown)
            raise OutOfDateError(texts.STALE_FOR_YOU.format(changed=Joined(
                [STALE_PARTS[part] for part in changed], ", ")), game=ctx.game, seat=seat, changed=changed)
        return ctx

    async def _stale(self, grant: BoardToken, error: OutOfDateError) -> Refused:
        fresh = error.game if isinstance(error.game, Game) else await self.manager.game(grant.game_id)
        return Refused(409, {"error": sentence(error.message, grant.locale),
                             "view": None if fresh is None else await self.view(grant, fresh)})

    def _present(self, result: ActionResult) -> None:
        """Hand ``result`` to the presenter without making the page wait for Discord: one game's
        results are presented in the order they were committed."""
        game_id = result.game.id
        before = self._presenting.get(game_id)

        async def present() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            try:
                await self.present(result)
            except Exception:
                log.exception("presenting game %s's result failed", game_id)
            finally:
                if self._presenting.get(game_id) is task:
                    del self._presenting[game_id]

        task = asyncio.ensure_future(present())
        self._presenting[game_id] = task

    def _play_stalled(self, channel_id: int) -> None:
        """A seat was refused while another holds the move: if that is an AI seat nothing plays —
        a fault stopped its turn after the action before it was saved — it plays now, in its own
        task, and its turn is presented (``GameManager.play_stalled``), as the Discord front does
        on the same refusal, instead of the game waiting for the bot's restart."""

        async def play() -> None:
            try:
                result = await self.manager.play_stalled(channel_id)
            except Exception as error:  # the refusal is answered; the AI plays at the next chance
                log.warning("the stopped AI turn in channel %s could not be played: %r", channel_id, error)
                return
            if result is not None:
                self._present(result)

        task = asyncio.ensure_future(play())
        self._stalled.add(task)
        task.add_done_callback(self._stalled.discard)

    async def settle(self) -> None:
        """Wait for the results still being presented (at shutdown, and in tests)."""
        while self._presenting or self._stalled:
            await asyncio.gather(*self._stalled, *self._presenting.values(), return_exceptions=True)


STALE_PARTS = {"turn": texts.STALE_PART_TURN, "mat": texts.STALE_PART_MAT, "rows": texts.STALE_PART_ROWS,
               "game": texts.STALE_PART_GAME}


def _changed(now: str, shown: str) -> tuple[str, ...]:
    """The parts of the seat's view that differ between two (blinded) stamps, as
    ``bot.core.play.seat_view.changed_parts`` tells them apart."""
    prefix = SEAT_STAMP_PREFIX
    if not (now.startswith(prefix) and shown.startswith(prefix) and len(now) == len(shown)):
        return ("game",)
    found = tuple(part for number, part in enumerate(PARTS)
                  if now[len(prefix) + number * PART_DIGITS:len(prefix) + (number + 1) * PART_DIGITS]
                  != shown[len(prefix) + number * PART_DIGITS:len(prefix) + (number + 1) * PART_DIGITS])
    return found or ("game",)


@dataclass(frozen=True, slots=True)
class Where:
    """Which game an action is for, and its channel (what the flow loads it by)."""

    id: int
    channel_id: int


def _require_seat(grant: BoardToken, game: Game) -> None:
    """403 unless the token's seat is still its user's (a spectator's token names none)."""
    if grant.seat is not None and (grant.seat >= len(game.seats)
                                   or game.seats[grant.seat].user_id != grant.user_id):
        raise forbidden()


def _bound(cache: dict[Any, Any]) -> None:
    """Drop the oldest entries beyond :data:`MAX_CACHED` (a dict keeps insertion order)."""
    while len(cache) > MAX_CACHED:
        del cache[next(iter(cache))]


def _acting_seat(grant: BoardToken) -> int:
    if grant.seat is None:  # a spectator's link is read-only
        raise forbidden()
    return grant.seat


def said(result: ActionResult, grant: BoardToken) -> list[str]:
    """What the player's action did, as the panel's confirmation says it (in their language)."""
    step = result.first
    game = result.game
    if step is None or game.state is None:
        return []
    hidden = hidden_scores(game.state, grant.seat)
    names = [plain_name(name, grant.locale) for name in game.names]
    stand_ins = [NAME_STAND_IN.format(seat) for seat in range(len(names))]
    lines: list[Any] = [texts.DONE_ACTION.format(action=Notation(step.text))]
    lines += [event_text(event, stand_ins, hidden) for event in step.events
              if not isinstance(event, ev.TurnStarted)]
    return [named(without_markdown(str(localise(line, grant.locale))), names) for line in lines]


def storage_refusal(error: Exception, locale: Any) -> Exception:
    """What the page hears when ``error`` stopped a change before it was committed: a storage
    fault is a 503 in the player's words (nothing was changed: try again); anything else is a
    bug, raised on as it is (logged by the server, a plain 500 to the page)."""
    fault = storage_fault(error)
    if fault is None:
        return error
    return Refused(503, {"error": sentence(texts.STORAGE_FAULT[fault.value], locale)})


def interruption(result: ActionResult) -> Any | None:
    """What to tell the player when something stopped after their committed action (an AI
    seat's move, a planned turn; ``result.interrupted``), as the Discord front says it: their
    action stands, what follows may be missing (the manager plays it at start-up)."""
    error = result.interrupted
    if error is None:
        return None
    if isinstance(error, BotError):
        return error.message
    fault = storage_fault(error)
    if fault is not None:
        return texts.STORAGE_FAULT_AFTER_COMMIT[fault.value]
    log.error("game %s: stopped after a committed action", result.game.id, exc_info=error)
    return texts.FAILED_AFTER_COMMIT


def sentence(content: Any, locale: Any) -> str:
    """A sentence written for Discord (a refusal, a plan's outcome) as the page shows it: in the
    reader's language, without markdown, each player's name as they wrote it (not escaped for
    Discord's markdown: the page shows text)."""
    return plain_text(content, locale)


# -- reading a request ---------------------------------------------------------------------------


class NotJson:
    """A request body that could not be read as JSON (``bot/web/server.py``): refused by whoever
    reads it, once the link's language is known (:func:`unreadable`)."""


NOT_JSON = NotJson()


def asked_locale(accept_language: str | None) -> str | None:
    """The language an ``Accept-Language`` header asks for first (the highest ``q``; the first of
    equals), as the code of a catalogue the bot speaks (``pt-BR``; ``pt`` or ``pt-PT`` as
    ``pt-BR``), else None, English: the rule of the page's own words before a view arrives
    (``browserLocale`` in static/i18n.js, from ``navigator.language``, the list's first), for the
    refusals made with no link's language to go by: the Activity's sign-in's (bot/web/activity.py)
    and a bad link's (:class:`Forbidden`). The page asks in the language it speaks (api.js)."""
    asked: list[tuple[float, int, str]] = []
    for order, part in enumerate((accept_language or "").split(",")):
        tag, *parameters = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and weight > 0:  # a NaN weight is not > 0 either
            asked.append((-weight, order, tag.lower()))
    if not asked:
        return None
    first = min(asked)[2]
    spoken = locales()
    return (next((code for code in spoken if code.lower() == first), None)
            or next((code for code in spoken if code.lower().split("-")[0] == first.split("-")[0]), None))


def unreadable(words: Any, locale: Any) -> Refused:
    """400 for a body the board cannot read, said as every refusal is (:func:`sentence`): in the
    link's language, plain text."""
    return Refused(400, {"error": sentence(words, locale)})


def parse_request(body: Any, locale: Any) -> tuple[Action | str, str]:
    """The action and the stamp of an ``act`` / ``check`` body (docs/web-board.md); 400 for a
    body that is not one."""
    if isinstance(body, NotJson):
        raise unreadable(texts.BOARD_NOT_JSON, locale)
    if not isinstance(body, dict) or not isinstance(body.get("stamp"), str) or len(body["stamp"]) > 40:
        raise unreadable(texts.BOARD_NEEDS_STAMP, locale)
    return parse_action_body(body, locale), body["stamp"]


def parse_action_body(body: Any, locale: Any) -> Action | str:
    """The action of a body as the page sends it (``action``, ``place``, ``master`` or
    ``ambassador``; ``"undo"`` as a word); 400 for one that names none."""
    try:
        if not isinstance(body, dict):
            raise ValueError("not an object")
        if isinstance(body.get("action"), str) and len(body["action"]) <= 400:
            text = body["action"].strip()
            if text == "undo":
                return "undo"
            return engine.parse_action(text)
        if "place" in body:
            return _place(body["place"])
        for kind, build in (("master", Master), ("ambassador", AmbassadorAction)):
            if kind in body:
                placements = body[kind]
                if not isinstance(placements, list) or not 0 < len(placements) <= MAX_PLACEMENTS:
                    break
                return build(tuple(_place(p) for p in placements))
    except engine.IllegalActionError as error:
        raise unreadable(engine_text(error), locale) from None
    except (BadInputError, ValueError, TypeError, KeyError):
        pass
    raise unreadable(texts.BOARD_NO_ACTION, locale)


def _place(data: Any) -> Place:
    if not isinstance(data, dict):
        raise ValueError("not a placement")
    card, shape, cells = data.get("card"), data.get("shape"), data.get("cells")
    if not isinstance(card, str) or not 0 < len(card) <= MAX_CARD_ID or not isinstance(shape, str) \
            or len(shape) > 4 or not isinstance(cells, list) or not 0 < len(cells) <= GRID * GRID:
        raise ValueError("not a placement")
    return Place(card.strip().upper(), parse_shape(shape), cells_to_mask(_cell(cell) for cell in cells))


def _cell(cell: Any) -> tuple[int, int]:
    """``[row, col]`` as the engine's ``(col, row)``."""
    if not isinstance(cell, list) or len(cell) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v < GRID for v in cell):
        raise ValueError("not a cell")
    return cell[1], cell[0]


JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str)
"""Compact JSON of a view (its sentences are ``str`` subclasses: plain text)."""


def dumps(value: Any) -> bytes:
    return JSON.encode(value).encode()
