"""Starting a game and applying actions: the one entry point that changes a game.

>>> from engine import Options, new_game, apply, parse_action
>>> state = new_game(Options(players=2), seed=7)
>>> outcome = apply(state, parse_action("level1"))
>>> outcome.state.actions_left
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import decisions, rules
from .actions import (
    TABLE_ACTIONS,
    Action,
    AmbassadorAction,
    Choose,
    DrawPuzzle,
    EndFinishing,
    EndTurn,
    GhostSplit,
    Insert,
    Master,
    Pass,
    Place,
    Recycle,
    RemovePlayer,
    SkipTurn,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
)
from .cards import PuzzleCard
from .catalogue import load_catalogue
from .errors import (
    ActionNotAvailableError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
)
from .events import (
    Event,
    FinishingDone,
    FinishingStarted,
    GameEnded,
    PlayerRemoved,
    TurnSkipped,
)
from .expansions import (  # noqa: F401  (importing an expansion registers it)
    ambassador,
    finesse,
    finesse_ambassador,
    ghost,
    phoenix,
)
from .expansions.base import (
    after_action,
    end_of_turn,
    expansion_for_action,
    free_action_types,
    holds_turn,
    is_free_action,
    player_removed,
)
from .legal import has_finishing_placement, legal_actions
from .state import GameState, Options, Phase
from .variants import Variant, variant_for
from .work import Work


@dataclass(frozen=True, slots=True)
class Outcome:
    """The state after an action, and what happened, in order."""

    state: GameState
    events: tuple[Event, ...]

    @property
    def reveals_hidden(self) -> bool:
        """True when the action showed a card nobody had seen: it cannot be undone."""
        return any(e.reveals_hidden for e in self.events)


def new_game(
    options: Options, seed: int, cards: Sequence[PuzzleCard] | None = None
) -> GameState:
    """Set up a game. ``cards`` defaults to the shipped catalogue."""
    if cards is None:
        cards = _default_cards()
    return variant_for(options.variant).setup(options, cards, seed)


def check_options(options: Options) -> None:
    """Refuse ``options`` no game can be set up with — an :class:`~engine.errors.IllegalActionError`
    keyed in :mod:`engine.messages` ("Six players need the Ghost Piece expansion or Phoenix…"),
    with nothing dealt. The one check of a table's rules: :func:`new_game` makes it too, and a
    front end asks it before it opens a table, so every refusal has the engine's wording.
    (Whether a catalogue has enough cards for the table is :func:`new_game`'s own question.)"""
    variant_for(options.variant).validate_options(options)


def initial_state(state: GameState) -> GameState:
    """The state this game started from: its seed and options dealt from the same catalogue.

    A game keeps every card of its catalogue, in catalogue order, so its start can be rebuilt
    (for replay, undo and verification) even if the server's catalogue file changes later.
    """
    return new_game(state.options, state.seed, tuple(state.cards.values()))


@lru_cache(maxsize=1)
def _default_cards() -> tuple[PuzzleCard, ...]:
    """The shipped catalogue, read and checked once per process (it never changes at run time)."""
    return load_catalogue(None).cards


def apply(state: GameState, action: Action, *, player: int | None = None) -> Outcome:
    """Apply ``action`` for the current player, or for ``player``.

    ``player`` must be the current seat — or, while several turns run at once (Line Clear's two
    marker holders), the seat of any unfinished turn: the action is applied to that turn, and
    actions of the two turns apply one after the other in the order they arrive.

    Raises an :class:`~engine.errors.IllegalActionError` subclass, with a message for the player,
    when the action is not allowed; ``state`` itself is never changed.
    """
    if state.phase is Phase.OVER:
        raise GameOverError("game.over")
    if player is not None and player not in state.acting_seats:
        raise NotYourTurnError("game.not_your_turn")
    variant = variant_for(state.options.variant)
    w = Work(state)
    if player is not None and player != state.current:
        w.focus(player)
    if isinstance(action, TABLE_ACTIONS):
        _apply_table_decision(w, variant, action)
    elif decisions.waiting(w):
        _apply_choice(w, variant, action)
    elif isinstance(action, Choose):
        raise IllegalActionError("choose.nothing_waiting")
    elif state.phase is Phase.PLAY:
        free = is_free_action(w.options, action)
        if isinstance(action, EndTurn):
            _apply_end_turn(w, variant)
            return Outcome(w.freeze(), tuple(w.events))
        if w.current in w.held and not free:
            raise IllegalActionError("game.actions_spent")
        seat, start = w.current, len(w.events)
        _apply_play(w, variant, action)
        after_action(w, seat, action, w.events[start:])
        if not free:
            w.actions_left -= 1
        if w.actions_left > 0 and w.current in w.held:
            w.held.remove(w.current)
        decisions.settle(w)
        _turn_spent(w, variant)
    else:
        _apply_finishing(w, variant, action)
    return Outcome(w.freeze(), tuple(w.events))


def replay(
    initial: GameState, actions: Iterable[Action], seats: Iterable[int | None] | None = None
) -> GameState:
    """Re-apply an action log from the initial state. ``seats`` names who acted, action by
    action: needed when turns run at once (Line Clear), where the order alone does not say."""
    state = initial
    if seats is None:
        for action in actions:
            state = apply(state, action).state
        return state
    for action, seat in zip(actions, seats, strict=True):
        state = apply(state, action, player=seat).state
    return state


def winners(state: GameState) -> tuple[int, ...]:
    """Winning seats of a finished game (-1 is the Solo mastermind)."""
    return variant_for(state.options.variant).winners(state)


def final_round(state: GameState) -> int | None:
    """The round that will be the last one played, once the end is triggered (None before). It
    is what players are told ("round 5 is the last"): in the base game and Solo the round after
    the trigger's, in Line Clear the round of the first player's second marker, and never beyond
    the round after which an expansion ends play (Finesse's tenth)."""
    return variant_for(state.options.variant).final_round(state)


def opponent_score(state: GameState) -> int | None:
    return variant_for(state.options.variant).opponent_score(state)


# -- pending decisions ----------------------------------------------------------------------------


def _apply_choice(w: Work, variant: Variant, action: Action) -> None:
    """Answer the pending decision. It spends no action; the turn ends once the player's third
    action is done and nothing is left to decide."""
    if not isinstance(action, Choose):
        head = decisions.focused_decision(w)
        assert head is not None
        # kind and about: what the prompt is made from, so a front end words it in its reader's
        # language (the English sentence uses the prompt and the options only).
        raise IllegalActionError("choose.first", prompt=decisions.prompt(head), options=list(head.options),
                                 kind=head.kind, about=head.about)
    seat, start = w.current, len(w.events)
    decisions.answer(w, action)
    after_action(w, seat, action, w.events[start:])
    decisions.settle(w)
    if decisions.waiting(w):
        return
    if w.phase is Phase.PLAY:
        _turn_spent(w, variant)
    elif w.phase is Phase.FINISHING:
        _settle_finishing(w, variant)


# -- play phase -----------------------------------------------------------------------------------

NOT_IN_GAME: dict[type, str] = {
    GhostSplit: "ghost.not_in_game", AmbassadorAction: "ambassador.not_in_game",
    Insert: "finesse.not_in_game",
}
"""The refusal of an expansion's action at a table that plays without that expansion."""



def _apply_play(w: Work, variant: Variant, action: Action) -> None:
    if isinstance(action, TakePuzzle):
        variant.take(w, action)
    elif isinstance(action, DrawPuzzle):
        variant.draw(w, action)
    elif isinstance(action, TakeLevelOne):
        rules.take_level_one(w, action)
    elif isinstance(action, Upgrade):
        rules.upgrade(w, action)
    elif isinstance(action, Place):
        rules.place(w, action)
    elif isinstance(action, Master):
        rules.master(w, action)
    elif isinstance(action, Recycle):
        variant.recycle(w, action)
    elif isinstance(action, Pass):
        state = w.base.focused(w.current)
        if Pass() not in legal_actions(state):
            raise IllegalActionError("game.pass_not_allowed")
    elif isinstance(action, EndFinishing):
        raise WrongPhaseError("game.done_not_finishing")
    else:
        expansion = expansion_for_action(w.options, action)
        if expansion is None:
            key = NOT_IN_GAME.get(type(action))
            if key is not None:
                raise ActionNotAvailableError(key)
            raise ActionNotAvailableError("game.unknown_action", action=repr(action))
        expansion.apply_action(w, action)


def _apply_table_decision(w: Work, variant: Variant, action: SkipTurn | RemovePlayer) -> None:
    """Skips and removals decided by the table (see docs/rules.md for the ruling)."""
    if isinstance(action, SkipTurn):
        decisions.answer_by_default(w, w.current)
        w.emit(TurnSkipped(w.current))
        if w.phase is Phase.PLAY:
            w.actions_left = 0
            _end_turn(w, variant)
        else:
            w.set_player(w.current, finished_touches=True)
            w.emit(FinishingDone(w.current))
            _settle_finishing(w, variant)
        return
    seat = action.seat
    if len(w.players) == 1:
        raise ActionNotAvailableError("remove.solo")
    if not 0 <= seat < len(w.players) or w.players[seat].removed:
        raise IllegalActionError("remove.no_seat", seat=seat + 1)
    if all(p.removed for i, p in enumerate(w.players) if i != seat):
        raise IllegalActionError("remove.last")
    turn_running = w.phase is Phase.PLAY and variant.seat_removed(w, seat)  # before its choices go
    decisions.drop(w, seat)
    player = w.players[seat]
    for puzzle in player.puzzles:
        for piece in puzzle.pieces:
            w.reserve[piece.shape.index] += 1
    for index, n in enumerate(player.supply):
        w.reserve[index] += n
    w.set_player(
        seat, supply=tuple(0 for _ in player.supply), puzzles=(), removed=True, finished_touches=True
    )
    w.emit(PlayerRemoved(seat, tuple(p.card for p in player.puzzles)))
    player_removed(w, seat)
    active = [i for i, p in enumerate(w.players) if not p.removed]
    if len(active) == 1 and w.phase is Phase.PLAY:
        _start_finishing(w, variant)
    elif w.phase is Phase.FINISHING:
        _settle_finishing(w, variant)
    elif turn_running:
        w.focus(seat)
        w.actions_left = 0
        _end_turn(w, variant)


def _turn_spent(w: Work, variant: Variant) -> None:
    """After an action or answer in play: a turn whose actions are spent and which has nothing
    left to decide ends — unless an expansion holds it open (Finesse: an Insert is still
    affordable), when it waits for that or for ``end turn``."""
    if w.actions_left > 0 or decisions.waiting(w):
        return
    if holds_turn(w, w.current):
        if w.current not in w.held:
            w.held.append(w.current)
        return
    _end_turn(w, variant)


def _apply_end_turn(w: Work, variant: Variant) -> None:
    if w.current not in w.held:
        if decisions.waiting(w):
            raise IllegalActionError("choose.answer_first")
        if not free_action_types(w.options):  # no expansion here ever holds a turn open
            raise IllegalActionError("game.end_turn_never")
        raise IllegalActionError("game.end_turn_early", n=w.actions_left)
    w.actions_left = 0
    _end_turn(w, variant)


def _end_turn(w: Work, variant: Variant) -> None:
    """The focused turn is over: expansions' end-of-turn hooks, then the variant starts the next
    turn(s) — or play is over and Finishing Touches begin."""
    if w.current in w.held:
        w.held.remove(w.current)
    end_of_turn(w, w.current)
    if variant.end_turn(w):
        _start_finishing(w, variant)


# -- finishing touches ----------------------------------------------------------------------------


def _start_finishing(w: Work, variant: Variant) -> None:
    w.turns = []
    w.held = []
    w.phase = Phase.FINISHING
    w.actions_left = 0
    w.master_used = False
    w.black_taken = False
    w.current = w.base.first_player
    w.emit(FinishingStarted())
    _settle_finishing(w, variant)


def _apply_finishing(w: Work, variant: Variant, action: Action) -> None:
    if isinstance(action, Place):
        seat, start = w.current, len(w.events)
        rules.place(w, action)
        after_action(w, seat, action, w.events[start:])
    elif isinstance(action, EndFinishing):
        w.set_player(w.current, finished_touches=True)
        w.emit(FinishingDone(w.current))
    else:
        raise WrongPhaseError("game.finishing_now")
    decisions.settle(w)
    if not w.pending:
        _settle_finishing(w, variant)


def _settle_finishing(w: Work, variant: Variant) -> None:
    """Move to the next player who still has a Finishing Touch to make; end the game if none."""
    count = len(w.players)
    for step in range(count):
        seat = (w.current + step) % count
        if w.players[seat].finished_touches:
            continue
        if not has_finishing_placement(w.base.cards, w.players[seat]):
            w.set_player(seat, finished_touches=True)
            w.emit(FinishingDone(seat))
            continue
        w.current = seat
        return
    w.phase = Phase.OVER
    final = w.freeze()
    scores = tuple(line.total for line in rules.score_lines(final))
    w.emit(GameEnded(scores, variant.winners(final)))
