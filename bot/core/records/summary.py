"""A finished game as sentences: who won and every seat's score, for the results post (and the
offline demo, which prints the same summary)."""

from __future__ import annotations

from bot.core.games import Game
from bot.core.wording import texts
from bot.core.wording.event_texts import and_list
from bot.core.wording.locales import Joined
from engine import opponent_score, score_lines, winners
from engine.events import MASTERMIND
from engine.rules import ScoreLine


def seat_label(game: Game, seat: int) -> str:
    if seat == MASTERMIND:
        return texts.MASTERMIND_NAME
    return game.seats[seat].name


def score_details(line: ScoreLine) -> list[str]:
    """Where a final score comes from: its puzzles, then only the deductions it really has (no
    "-0 unfinished")."""
    puzzles = (texts.FINAL_FROM_ONE_PUZZLE if line.completed_count == 1 else texts.FINAL_FROM_PUZZLES)
    details = [puzzles.format(points=line.completed_points, count=line.completed_count)]
    if line.finishing_penalty:
        details.append(texts.FINAL_FINISHING.format(points=line.finishing_penalty))
    if line.unfinished_penalty:
        details.append(texts.FINAL_UNFINISHED.format(points=line.unfinished_penalty))
    return details


def final_summary(game: Game) -> Joined:
    assert game.state is not None
    won = winners(game.state)
    names = and_list([seat_label(game, s) for s in won])
    lines: list[str] = [texts.GAME_FINISHED.format(winners=texts.WINNER.format(names=names) if won else "")]
    for line in score_lines(game.state):
        if game.state.players[line.seat].removed:
            continue
        lines.append(texts.FINAL_SCORE.format(name=seat_label(game, line.seat), total=line.total,
                                              details=Joined(score_details(line), ", ")))
    rival = opponent_score(game.state)
    if rival is not None:
        lines.append(texts.FINAL_MASTERMIND.format(points=rival))
    return Joined(lines, "\n")
