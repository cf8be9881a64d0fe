"""Project L rules engine: pure, deterministic, serialisable.

No Discord, database, images, clock or global randomness here. A game is a :class:`GameState`;
:func:`apply` takes a state and an action value and returns the next state plus events, or raises
an :class:`IllegalActionError` whose message a player can read. See docs/engine.md.
"""

from . import serialisation
from .actions import (
    TABLE_ACTIONS,
    Action,
    Choose,
    DrawPuzzle,
    EndFinishing,
    Master,
    Pass,
    Place,
    Recycle,
    RemovePlayer,
    SkipTurn,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
    parse_action,
    parse_placement,
)
from .cards import Colour, PuzzleCard
from .errors import (
    ActionSyntaxError,
    EngineError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    StateFormatError,
)
from .events import MASTERMIND, Event
from .game import (
    Outcome,
    apply,
    check_options,
    final_round,
    initial_state,
    new_game,
    opponent_score,
    replay,
    winners,
)
from .legal import iter_legal_actions, legal_actions, master_options, placements_for
from .pieces import SHAPES, Shape, parse_shape
from .rules import ScoreLine, score_lines
from .state import (
    SCHEMA_VERSION,
    Difficulty,
    GameState,
    Options,
    PendingDecision,
    Phase,
    PlayerState,
    RowsTable,
    SoloTable,
)

__all__ = [
    "Action", "ActionSyntaxError", "Choose", "Colour", "Difficulty", "DrawPuzzle", "EndFinishing",
    "EngineError", "Event", "GameOverError", "GameState", "IllegalActionError", "MASTERMIND",
    "Master", "NotYourTurnError", "Options", "Outcome", "Pass", "PendingDecision", "Phase", "Place",
    "PlayerState",
    "PuzzleCard", "Recycle", "RemovePlayer", "SkipTurn", "RowsTable", "SCHEMA_VERSION", "SHAPES",
    "ScoreLine", "Shape",
    "SoloTable", "StateFormatError", "TABLE_ACTIONS", "TakeLevelOne", "TakePuzzle", "Upgrade", "apply",
    "final_round",
    "check_options", "initial_state", "iter_legal_actions", "legal_actions", "master_options", "new_game",
    "opponent_score",
    "parse_action", "parse_placement", "parse_shape", "placements_for", "replay", "score_lines",
    "serialisation", "winners",
]
