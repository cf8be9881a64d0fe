"""Values the manager hands out: games, seats, steps, results, drafts (no Discord, no SQL).

They sit below every package of the core: the manager (:mod:`bot.core.play.manager`) makes them;
the turn clock, the records and the wording read them without needing the manager. Parsed states
are shared through a small cache keyed by their JSON text (states are immutable, and parsing one
takes about a millisecond).
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import engine
from bot.core.errors import BadInputError, UnreadableGameError
from bot.core.storage import GameRow, StoredCatalogue
from bot.core.wording import texts
from bot.core.wording.locales import Joined, PlayerName
from bot.core.wording.refusals import engine_text
from engine import (
    Action,
    GameState,
    IllegalActionError,
    Master,
    Options,
    Place,
    PuzzleCard,
    StateFormatError,
    serialisation,
)
from engine.events import Event, FinishingStarted, GameEnded, TurnStarted
from engine.policies import policy_by_name
from engine.serialisation import cards_from_text, catalogue_key, catalogue_text

log = logging.getLogger("bot.manager")

VARIANTS = ("base", "solo")
"""The table kinds ``/projectl table new`` offers (a ``base`` table plays Line Clear with 5–6 seats)."""
POLICY_NAMES = ("greedy", "medium", "ladder_strong", "expert", "random")
"""The AI levels a table can seat (the lobby's buttons, ``replace``, ``watch``), weakest first."""
POLICY_LABELS = {"greedy": "Easy", "medium": "Medium", "ladder_strong": "Strong", "strong": "Strong",
                 "expert": "Expert", "random": "Random"}
"""What players see for each policy: "greedy" is offered as Easy."""
RETIRED_LEVELS = {"strong": "ladder_strong"}
"""Level names no longer offered, and the level that seats in their place: a stale client or a
typed command may still send them. Seats stored with them keep the policy they name (the frozen
Strong, issue 29: the lobby's Strong level is ``ladder_strong`` since 2026-12-05)."""


def offered_level(policy: str) -> str:
    """The level a requested AI kind seats today (a retired name seats its successor)."""
    return RETIRED_LEVELS.get(policy, policy)


# -- values ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False)
class TableSettings:
    """A table's options: the engine's :class:`~engine.Options` (every rule) and beside them only
    what the bot alone decides — the one model of what the host chose in ``/projectl table new``.

    The rules are checked once, by the engine (:meth:`validate` asks ``engine.check_options``,
    whose refusal is shown with the engine's wording, in the reader's language), and stored in
    the engine's JSON form (:meth:`to_json`); nothing here re-states a rule. Build one from the
    host's choices, ``TableSettings("base", 6, ghost=False, finesse=True)`` (every keyword the
    engine's ``Options`` has passes through), or from stored rules with :meth:`of`.
    """

    rules: Options
    """The engine's options for the table when full: ``players`` is its seat count (1 for Solo),
    ``variant`` the one a full table plays (``base`` 2–4, ``lineclear`` 5–6, ``solo``)."""
    ghost_by_seats: bool
    """Ghost was left to its default, which follows the seats the game starts with (on for 5–6:
    ``Options.for_players``), so a 6-seat table started by 4 plays without it. ``rules.ghost``
    is then the full table's default."""
    hints: bool
    """Whether ``/projectl play hint`` may be used (a competitive table turns it off)."""
    rated: bool
    """Off: a casual table, recorded but never rated (docs/ratings.md)."""

    def __init__(self, variant: str = "base", max_players: int = 4, *, ghost: bool | None = None,
                 hints: bool = True, rated: bool = True,
                 difficulty: str | engine.Difficulty = engine.Difficulty.NORMAL,
                 rules: Options | None = None, ghost_by_seats: bool = False, **choices: Any) -> None:
        """The host's choices: ``variant`` is the table's kind, ``base`` (2–6 seats, 5–6 play
        Line Clear) or ``solo`` (1); ``ghost`` None = the default for the seats; ``choices`` are
        the engine's other ``Options`` fields (``reserve=15``, ``finesse=True``…). Nothing is
        checked here but the spelling of ``difficulty``: :meth:`validate` asks the engine.

        Or the stored form, ``rules=`` (with ``ghost_by_seats``, ``hints``, ``rated``) as they are: what
        :meth:`of` and ``dataclasses.replace`` pass."""
        if rules is None:
            full = Options.for_players(max(max_players, 2), ghost=ghost)
            kind = full.variant if variant == "base" else variant  # another name: the engine refuses it
            rules = Options(players=max_players, variant=kind, ghost=full.ghost,
                            difficulty=_difficulty(difficulty), **choices)
            ghost_by_seats = ghost is None
        elif choices or ghost is not None:
            raise TypeError("TableSettings takes rules= or the host's choices, not both")
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "ghost_by_seats", ghost_by_seats)
        object.__setattr__(self, "hints", hints)
        object.__setattr__(self, "rated", rated)

    @classmethod
    def of(cls, rules: Options, *, ghost_by_seats: bool = False, hints: bool = True,
           rated: bool = True) -> TableSettings:
        """The settings holding ``rules`` as they are (what a stored row or a test names)."""
        return cls(rules=rules, ghost_by_seats=ghost_by_seats, hints=hints, rated=rated)

    @property
    def variant(self) -> str:
        """The table's kind, as ``games.variant`` stores it: ``solo``, or ``base`` (which plays
        Line Clear with 5–6 seats)."""
        return "solo" if self.rules.variant == "solo" else "base"

    @property
    def max_players(self) -> int:
        """Most seats (1 for Solo): the full table's ``players``."""
        return self.rules.players

    def validate(self) -> None:
        """Refuse rules no game can be set up with: the engine's own check and its sentence."""
        try:
            engine.check_options(self.rules)
        except IllegalActionError as error:
            raise BadInputError(engine_text(error)) from error

    def options(self, players: int) -> Options:
        """The engine options for a game started with ``players`` seats: a ``base`` table plays
        the base game with 2–4 seats filled and Line Clear with 5–6."""
        seated = Options.for_players(players)
        return replace(self.rules, players=players, variant=seated.variant,
                       ghost=seated.ghost if self.ghost_by_seats else self.rules.ghost)

    @property
    def ghost_label(self) -> str:
        if self.ghost_by_seats:  # the default follows the seats: a table of at most 4 never gets it
            return texts.LOBBY_GHOST_DEFAULT if self.rules.ghost else texts.LOBBY_OFF
        return texts.LOBBY_ON if self.rules.ghost else texts.LOBBY_OFF

    def to_json(self) -> dict[str, Any]:
        """``games.options``: the rules in the engine's JSON form, the bot's fields beside them
        (each written only when it is on — ``ghost_by_seats`` — or off — ``hints``, ``rated`` —
        like the engine writes its flags only when they are on)."""
        data: dict[str, Any] = {"rules": serialisation.options_to_json(self.rules)}
        if self.ghost_by_seats:
            data["ghost_by_seats"] = True
        if not self.hints:
            data["hints"] = False
        if not self.rated:
            data["rated"] = False
        return data

    @classmethod
    def from_json(cls, variant: str, max_players: int, data: dict[str, Any]) -> TableSettings:
        """Stored settings: ``games.variant``, ``games.max_players`` and ``games.options``, in
        this version's form (:meth:`to_json`) or the one written before it (the host's choices
        one by one, each flag only when not its default; 0001's rows have just the first three).
        KeyError, TypeError or ValueError when they cannot be read."""
        if "rules" in data:
            settings = cls.of(serialisation.options_from_json(data["rules"]),
                              ghost_by_seats=bool(data.get("ghost_by_seats", False)),
                              hints=bool(data.get("hints", True)), rated=bool(data.get("rated", True)))
            if (settings.variant, settings.max_players) != (variant, max_players):
                raise ValueError(f"options for {settings.variant} × {settings.max_players}, "
                                 f"row for {variant} × {max_players}")
            return settings
        ghost = data.get("ghost")
        return cls(variant, max_players, reserve=int(data["reserve"]),
                   unfinished_penalty=bool(data["unfinished_penalty"]),
                   difficulty=engine.Difficulty(str(data["difficulty"])),
                   ghost=None if ghost is None else bool(ghost),
                   finesse=bool(data.get("finesse", False)),
                   known_scores=bool(data.get("known_scores", True)),
                   endless_white=bool(data.get("endless_white", False)),
                   hints=bool(data.get("hints", True)), rated=bool(data.get("rated", True)))

    @classmethod
    def from_row(cls, row: GameRow) -> TableSettings:
        return cls.from_json(row.variant, row.max_players, row.options)


def _difficulty(value: str | engine.Difficulty) -> engine.Difficulty:
    """A typed difficulty as the engine's value (a word the bot reads, not a rule)."""
    try:
        return engine.Difficulty(value)
    except ValueError:
        raise BadInputError(texts.BAD_DIFFICULTY) from None


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a human (``user_id``) or a policy seat (``policy``)."""

    seat: int
    user_id: int | None
    name: str
    policy: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class Game:
    """A snapshot of one game. Immutable: a later change gives a new Game."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str  # lobby / active / finished / cancelled
    host_id: int
    settings: TableSettings
    seed: int
    seats: tuple[Seat, ...]
    state: GameState | None
    revision: int
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    created_at: str = ""
    updated_at: str = ""
    catalogue_key: str | None = None
    """The catalogue the stored state names (None: a state stored with its cards, before 0006)."""
    channel_private: bool | None = None
    """Whether its channel was private when it opened (None: not known): who may read it
    (:mod:`bot.core.records.access`)."""

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def current(self) -> Seat | None:
        """Whose move it is (None in the lobby or after the end)."""
        if self.state is None or self.state.is_over or self.status != "active":
            return None
        return self.seats[self.state.current]

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.settings.max_players

    @classmethod
    def from_row(cls, row: GameRow) -> Game:
        """The game in ``row``; :class:`UnreadableGameError` (a refusal) if it is corrupt, so one
        damaged row stops only its own game."""
        try:
            state = None if row.state is None else _load_state(row.state, row)
            settings = TableSettings.from_row(row)
        except (StateFormatError, KeyError, TypeError, ValueError) as error:
            log.warning("game %s cannot be read: %s", row.id, error)
            raise UnreadableGameError(texts.GAME_UNREADABLE.format(id=row.id)) from error
        return cls(
            id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, status=row.status,
            host_id=row.host_id, settings=settings, seed=row.seed,
            seats=tuple(Seat(s.seat, s.user_id, seat_name(s.display_name, s.policy, s.user_id), s.policy)
                        for s in row.seats),
            state=state, revision=row.revision, lobby_message_id=row.lobby_message_id,
            table_message_id=row.table_message_id, created_at=row.created_at, updated_at=row.updated_at,
            catalogue_key=row.catalogue_key, channel_private=row.channel_private,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One committed action: who did what, what happened, and the state after it."""

    seat: int
    user_id: int | None
    action: Action
    events: tuple[Event, ...]
    revision: int
    state: GameState
    planned: bool = False
    """Played by the seat's plan (bot/core/play/plans.py) rather than tapped at the moment."""

    @property
    def text(self) -> str:
        return str(self.action)

    @property
    def ended_turn(self) -> bool:
        return any(isinstance(e, (TurnStarted, FinishingStarted, GameEnded)) for e in self.events)


@dataclass(frozen=True, slots=True)
class PlanOutcome:
    """What a seat's plan did when its turn came: the steps played, those left unplayed, and
    why it stopped early (the engine's reason, a card gone, the turn over), if it did."""

    game_id: int
    seat: int
    user_id: int
    played: tuple[str, ...]
    left: tuple[str, ...]
    reason: Any = None
    actions_left: int = 0
    """Actions the seat still has in the turn the plan played (0: the turn is over)."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    """What :meth:`GameManager.act` (or ``start``/``decide``) did: the player's step, then any
    steps policy seats played straight after, and the game as it now stands."""

    before: Game
    game: Game
    steps: tuple[Step, ...]
    started: Game | None = None
    """Set by ``start`` (and Solo ``create_game``): the game as dealt, before any policy move."""
    interrupted: BaseException | None = None
    """What stopped the policy seats' moves after the committed ones (a storage fault, a bug):
    everything in ``steps`` stands; the caller reports this as happening after them."""
    plans: tuple[PlanOutcome, ...] = ()
    """Planned turns that played (or stopped) among ``steps``: each player is told privately."""

    @property
    def first(self) -> Step | None:
        return self.steps[0] if self.steps else None

    @property
    def turn_changed(self) -> bool:
        """True when someone else (or a new turn/phase) is up: time to post the table."""
        if self.before.state is None:
            return self.game.state is not None
        if self.game.state is None:
            return False
        a, b = self.before.state, self.game.state
        if a.turns or b.turns:
            # Two turns at once (Line Clear): ``current`` is only the seat that acted last, so the
            # holders taking turns to act changes it mid-turn; a turn ends when a holder leaves the
            # acting seats (or the markers pass: a new turn, or the phase).
            return (a.turn, a.phase, a.acting_seats) != (b.turn, b.phase, b.acting_seats)
        return (a.current, a.turn, a.phase) != (b.current, b.turn, b.phase)

    @property
    def finished(self) -> bool:
        return self.game.status == "finished"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for s in self.steps for e in s.events)


@dataclass(frozen=True, slots=True)
class MasterDraft:
    """A Master action being assembled one placement at a time (``/projectl play master-add``).

    Drafts are kept by storage (``master_drafts``, migrations 0008 and 0009), so one survives a
    restart, tied to the seat's stamp it was built at: it is read only while the seat's view is
    unchanged (on a single-turn table, the revision) and the seat's own commit discards it, so a
    confirmed draft is always checked against the view it was built for — the other marker
    holder's actions in Line Clear leave it standing.
    """

    game_id: int
    seat: int
    revision: int
    placements: tuple[Place, ...] = ()
    stamp: str = ""
    """The seat's stamp it was built at (``bot/core/play/seat_view.py``): it is read back only there."""
    game: Game | None = field(default=None, compare=False, repr=False)
    """The game as loaded when the draft was read or extended (its answer needs no second load)."""

    @property
    def action(self) -> Master:
        return Master(self.placements)


class Policy(Protocol):
    def choose(self, state: GameState) -> Action: ...


PolicyFactory = Callable[[str, int], Policy]
TurnHook = Callable[[Game, Seat], Awaitable[None]]
StepHook = Callable[[Game, Step], Awaitable[None]]
GameHook = Callable[[Game], Awaitable[None]]


def engine_policy(name: str, seed: int) -> Policy:
    """The default policy factory: ``engine.policies.policy_by_name``."""
    return policy_by_name(name, seed)


def ai_kinds() -> Joined:
    """The AI kinds one may type, each with its name in the reader's language: ``greedy``
    (Fácil), ``strong`` (Forte)…; the typed keyword itself is one spelling everywhere."""
    return Joined((Joined(("`", kind, "` (", texts.POLICY_NAMES.get(kind, kind), ")"))
                   for kind in POLICY_NAMES), ", ")


def ai_name(policy: str, number: int) -> str:
    """``Easy AI 2``: the seat named after its level, as the lobby's button offers it (a sentence of
    bot/core/wording/texts.py, so it reads ``IA Fácil 2`` in Portuguese)."""
    named = texts.POLICY_NAMES.get(policy, policy.capitalize())
    return texts.AI_SEAT_NAME.format(policy=named, number=number)


def seat_name(name: str, policy: str | None, user_id: int | None) -> str:
    """A stored seat name as players read it: an AI seat's generated name (stored in English,
    ``Easy AI 2``, or an older ``Greedy bot 2``) becomes :func:`ai_name` again, so every reader
    sees it in their language;
    a seat the host handed to an AI (``Easy AI (for Ana)``) likewise; any other name is a
    player's own, quoted escaped (:class:`~bot.core.wording.locales.PlayerName`): this is where the names of
    seats enter the bot's wording."""
    if user_id is None and policy:
        legacy = LEGACY_AI_NAMES.get(policy, policy.capitalize())
        for numbered in (str(ai_name(policy, 0)), f"{legacy} bot 0"):
            match = re.fullmatch(re.escape(numbered).replace("0", r"(\d{1,3})"), name)
            if match:
                return ai_name(policy, int(match[1]))
        for before, after in (str(replaced_name(policy, "\0")).split("\0"),
                              (f"{legacy} bot (for ", ")")):
            if len(name) > len(before) + len(after) and name.startswith(before) and name.endswith(after):
                return replaced_name(policy, PlayerName(name[len(before):len(name) - len(after)]))
    return PlayerName(name)


LEGACY_AI_NAMES = {"random": "Random", "greedy": "Greedy", "medium": "Medium", "strong": "Strong",
                   "ladder_strong": "Strong", "expert": "Expert"}
"""How AI seats were once named in storage (``Greedy bot 2``, ``Greedy bot (for Ana)``): such a
stored name still reads as the seat's level (``Easy AI 2``) in every language."""


def replaced_name(policy: str, name: str) -> str:
    """``Easy AI (for Ana)``: the AI that took over Ana's seat (``/projectl table replace``)."""
    return texts.REPLACED_NAME.format(policy=texts.POLICY_NAMES.get(policy, policy.capitalize()), name=name)


@dataclass
class ManagerHooks:
    """The four lists of hooks a game manager awaits (``on_turn_started``, ``on_action_committed``,
    ``on_game_finished``, ``on_game_cancelled``), made together so each starts empty and unshared."""
    turn_started: list[TurnHook] = field(default_factory=list)
    action_committed: list[StepHook] = field(default_factory=list)
    game_finished: list[GameHook] = field(default_factory=list)
    game_cancelled: list[GameHook] = field(default_factory=list)



# -- parsed states ----------------------------------------------------------------------------


_PARSED: OrderedDict[str, GameState] = OrderedDict()
_parsed_bytes = 0
PARSED_STATES_BYTES = 4 * 1024 * 1024
"""What the parsed states remembered by their JSON text may cost together. Parsing one takes
about a millisecond (every card is rebuilt) and an action used to parse the same text up to three
times (load, re-read after the commit, the next action's load); states are immutable, so the value
can be shared. Bounded by bytes, not entries: a 6-player state with long logs is many times a
2-player one. 4 MB keeps the latest state of more than a hundred busy games."""
PARSED_BYTES_PER_CHARACTER = 5
"""A remembered state costs about five times its JSON text: the text itself (the key) and the
parsed objects, which measure about four times the text once the cards are stored apart and
shared (tracemalloc, 50 stored games: 1.5 KB of text, 5.7 KB parsed)."""


def _load_state(text: str, row: GameRow) -> GameState:
    state = _PARSED.get(text)
    if state is None:
        state = _remember(text, parse_stored_state(text, row))
    else:
        _PARSED.move_to_end(text)
    return state


def parse_stored_state(text: str, row: GameRow) -> GameState:
    """``row``'s state ``text``, read with the catalogue the row names (if it names one), without
    the cache of live states. :class:`StateFormatError` if they cannot be read."""
    if row.catalogue_key is None:
        return serialisation.loads(text)
    if row.catalogue is None:
        raise StateFormatError(f"catalogue {row.catalogue_key} is missing")
    return serialisation.loads(text, _cards_named(row.catalogue_key, row.catalogue))


def _dump_state(state: GameState) -> str:
    """``state`` as stored: without its cards (kept once per game, see :func:`stored_state`),
    remembered, since the row about to be written is read back straight away."""
    text = serialisation.dumps(state, cards=False)
    _remember(text, state)
    return text


def stored_state(game: Game, state: GameState) -> tuple[str, StoredCatalogue | None]:
    """What to write for ``game``'s new ``state``: its text without the cards, and the cards to
    store alongside when ``game``'s row does not name them yet (None when it does)."""
    text = _dump_state(state)
    key = catalogue_key(state.cards)
    return text, None if game.catalogue_key == key else StoredCatalogue(key, catalogue_text(state.cards))


_CARDS: OrderedDict[str, dict[str, PuzzleCard]] = OrderedDict()
CATALOGUES_KEPT = 8
"""Parsed catalogues by key. Every state of every game dealt from one catalogue shares one
cards mapping: it is parsed once per process, held once in memory, and its key (a hash) is
computed once (``engine.serialisation.catalogue_key`` remembers it per mapping)."""


def shared_cards(state: GameState) -> GameState:
    """``state`` holding the process's one mapping of its catalogue's cards (an equal state)."""
    key = catalogue_key(state.cards)
    cards = _CARDS.setdefault(key, state.cards)
    _CARDS.move_to_end(key)
    _trim_catalogues()
    return state if cards is state.cards else state.evolve(cards=cards)


def _cards_named(key: str, text: str) -> dict[str, PuzzleCard]:
    cards = _CARDS.get(key)
    if cards is None:
        cards = _CARDS[key] = cards_from_text(text)
        _trim_catalogues()
    else:
        _CARDS.move_to_end(key)
    return cards


def _trim_catalogues() -> None:
    while len(_CARDS) > CATALOGUES_KEPT:
        _CARDS.popitem(last=False)


def _remember(text: str, state: GameState) -> GameState:
    global _parsed_bytes
    cost = len(text) * PARSED_BYTES_PER_CHARACTER
    if cost > PARSED_STATES_BYTES:
        return state
    if text not in _PARSED:
        _parsed_bytes += cost
    _PARSED[text] = state
    _PARSED.move_to_end(text)
    while _parsed_bytes > PARSED_STATES_BYTES:
        dropped, _ = _PARSED.popitem(last=False)
        _parsed_bytes -= len(dropped) * PARSED_BYTES_PER_CHARACTER
    return state


def parsed_states_bytes() -> int:
    """What the remembered states cost now (for tests and the memory benchmark)."""
    return _parsed_bytes
