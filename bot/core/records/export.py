"""A finished game to take away (``/projectl-games export``): its record, the versioned JSON that
``python -m engine replay`` plays again exactly (engine/record.py), and its log as text in the
reader's language — plain text, each name as its player wrote it (a file is read in an editor,
not by Discord's markdown). Pure: no SQL, no Discord.

Only a finished game is exported: the record holds the seed and the catalogue, from which every
deck's order follows, which no seat may know while the game is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.errors import BadInputError
from bot.core.games import Game
from bot.core.records.history import log_entries, summary_lines
from bot.core.storage import ActionRow
from bot.core.wording import texts
from bot.core.wording.locales import as_written, plain_text
from engine.record import RecordedAction, make_record, record_text


@dataclass(frozen=True, slots=True)
class ExportedGame:
    """The two files of an export: their names and their text."""

    record_name: str
    record: str
    log_name: str
    log: str


def export_game(game: Game, rows: Sequence[ActionRow], locale: Any = None) -> ExportedGame:
    """``game``'s record and readable log; refused for a game that is not finished."""
    if game.status != "finished" or game.state is None or not game.state.is_over:
        raise BadInputError(texts.EXPORT_NOT_FINISHED.format(game_id=game.id))
    names = [str(as_written(seat.name))  # already read as a seat's name (Game.from_row): once
             for seat in sorted(game.seats, key=lambda seat: seat.seat)]
    record = make_record(game.state, [RecordedAction(row.seat, row.action) for row in rows], names)
    heading = plain_text(texts.EXPORT_LOG_TITLE.format(game_id=game.id), locale)
    lines = [heading, "", *(plain_text(entry.text, locale) for entry in log_entries(game, rows)), ""]
    lines += [plain_text(line, locale) for line in summary_lines(game, rows)]
    return ExportedGame(f"projectl-game-{game.id}.json", record_text(record),
                        f"projectl-game-{game.id}.txt", "\n".join(lines) + "\n")
