"""Plug-in policies: AIs from other Python packages, which see only what their seat may see.

A package offers a policy through the entry-point group :data:`GROUP` (``projectl.policies``);
the entry point names a factory that takes a seed and returns an object with
``choose(view: SeatView) -> Action | str`` (``examples/projectl-example-policy`` is the minimum).
The plug-in never receives the game's state: :func:`seat_view` builds its :class:`SeatView` with
the engine's own visibility rules — the decks and every score pile hidden from the seat re-dealt
from the cards the seat cannot see (:func:`engine.policies.hidden.redeal`, with a fixed generator,
so two games that look alike to the seat give the same view), the face-down Finesse tiles blanked,
and the game's seed and random state zeroed (from either the real deal could be computed again).
Whatever the plug-in answers is applied to the real state by the engine, which refuses what is
illegal; :class:`PluginPolicy` then plays a legal fallback and counts it (the bot runs plug-ins in
a worker process with a time limit instead: bot/core/play/plugins.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

from ..actions import TABLE_ACTIONS, Action, parse_action
from ..expansions.finesse import FinesseExpansion
from ..expansions.finesse import view as finesse_view
from ..game import apply
from ..legal import legal_actions, master_options
from ..rng import Rng
from ..state import GameState
from .hidden import redeal

__all__ = ["GROUP", "FACE_DOWN_TILE", "PluginPolicy", "SeatView", "installed_plugins", "plugin_policy",
           "said", "seat_view"]

GROUP = "projectl.policies"
"""The entry-point group a plug-in package declares its policy factory in."""
SAID_CHARS = 300
"""At most this much of a plug-in's error text is told (:func:`said`)."""
FACE_DOWN_TILE = "?"
"""What a face-down Finesse tile reads as in a view (its identity is never shown)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a plug-in is given: its seat, the position as that seat sees it (a whole
    :class:`GameState`, so the engine's own functions work on it; its hidden parts are
    stand-ins, see the module) and the legal actions (Master aside: a plug-in may also answer
    with a Master action, which the engine checks like any other)."""

    seat: int
    state: GameState
    legal: tuple[Action, ...]


class PluginChooser(Protocol):
    """The object a plug-in's factory returns."""

    def choose(self, view: SeatView) -> Action | str: ...


def seat_view(state: GameState, seat: int) -> SeatView:
    """``state`` as ``seat`` sees it (see the module) with ``seat``'s legal actions."""
    return SeatView(seat, seen_position(state, seat), tuple(legal_actions(state, seat)))


def seen_position(state: GameState, seat: int) -> GameState:
    """``state`` with everything hidden from ``seat`` replaced by stand-ins (see the module): the
    decks and hidden piles re-dealt with a fixed generator, face-down tiles blank, no seed."""
    return redeal(state, Rng(0), viewer=seat).evolve(seed=0, rng_state=0, ext=_blank_tiles(state))


def _blank_tiles(state: GameState) -> dict[str, Any]:
    """The state's expansion data with every face-down Finesse tile read as :data:`FACE_DOWN_TILE`."""
    fv = finesse_view(state)
    if fv is None or not fv.face_down:
        return state.ext
    data = dict(state.ext[FinesseExpansion.name])
    data["row"] = [FACE_DOWN_TILE] * fv.face_down + list(fv.row[fv.face_down:])
    return {**state.ext, FinesseExpansion.name: data}


def installed_plugins() -> dict[str, EntryPoint]:
    """Every installed plug-in policy by its entry point's name (read afresh each call)."""
    return {point.name: point for point in entry_points(group=GROUP)}


def plugin_factory(name: str) -> Callable[[int], PluginChooser]:
    """The factory an installed plug-in declares under ``name``; ValueError when none does."""
    point = installed_plugins().get(name)
    if point is None:
        raise ValueError(f"No plug-in policy '{name}' is installed (entry-point group {GROUP}).")
    factory: Callable[[int], PluginChooser] = point.load()
    return factory


def said(error: BaseException) -> str:
    """A plug-in's ``error`` as one short line for an operator: its class's name and its text, at
    most :data:`SAID_CHARS` characters (its ``__str__`` is the plug-in's: it may fail too)."""
    try:
        text = f"{type(error).__name__}: {error}"
    except Exception:  # noqa: BLE001
        text = type(error).__name__
    text = " ".join(str.__str__(text).split())
    return text if len(text) <= SAID_CHARS else text[:SAID_CHARS - 1] + "…"


def answer_action(answer: Action | str) -> Action:
    """A plug-in's answer as an action (text is parsed); anything else, or a table's decision
    (skip, remove: never a player's), is refused."""
    action: object = parse_action(answer) if isinstance(answer, str) else answer
    if not isinstance(action, Action) or isinstance(action, TABLE_ACTIONS):
        raise TypeError(f"a plug-in policy answered {answer!r}, not a player's action")
    return action


def fallback_action(state: GameState, seat: int) -> Action:
    """A legal move for ``seat`` when its policy's answer cannot be played (the first legal
    action, else a Master, as the game manager plays for a failing built-in policy)."""
    legal = legal_actions(state, seat)
    if legal:
        return legal[0]
    options = master_options(state, seat)
    if options is None:
        raise ValueError(f"seat {seat} has no legal action")
    return next(options.iter_actions())


class PluginPolicy:
    """A plug-in as an engine :class:`~engine.policies.Policy` (benches, the simulator): it
    chooses from the acting seat's view; an answer that fails or is illegal is replaced by a
    legal fallback, counted in :attr:`fallbacks` with its reason in :attr:`last_error`."""

    def __init__(self, chooser: PluginChooser) -> None:
        self.chooser = chooser
        self.fallbacks = 0
        self.last_error: str | None = None

    def choose(self, state: GameState) -> Action:
        seat = state.acting_seat
        try:
            action = answer_action(self.chooser.choose(seat_view(state, seat)))
            apply(state, action, player=seat)  # the engine checks it
            return action
        except Exception as error:  # noqa: BLE001 - a plug-in's failure never stops the game
            self.fallbacks += 1
            self.last_error = said(error)
        return fallback_action(state, seat)


def plugin_policy(name: str, seed: int = 0) -> PluginPolicy:
    """The installed plug-in ``name``, seeded, as an engine policy."""
    return PluginPolicy(plugin_factory(name)(seed))
