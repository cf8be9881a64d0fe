"""The words of an image: Discord's alt text (an attachment's ``description``) for a board.

Built from the same state, names and viewer as the picture, so a reader who cannot see it learns
the same facts: whose turn it is first, then each player's score (only the completed count for a
face-down score pile, :func:`engine.visibility.hidden_scores`), the puzzles they are building, and
the cards on offer. :func:`describe` gives the sentences in English (translatable pieces);
:func:`alt_text` shows them in the reader's language, cut at a sentence boundary to Discord's limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Ambassador, LevelUp
from engine.state import GameState, LineClearTable, RowsTable, SoloTable
from engine.visibility import hidden_scores

from . import texts
from .event_texts import and_list, seat_name, shape_label
from .locales import Joined, localise

MAX_DESCRIPTION = 1024
"""Discord's limit on an attachment's description, in characters."""


def describe(state: GameState, names: Sequence[str], viewer: int | None = None,
             mat: int | None = None) -> Joined:
    """The image of ``state`` in sentences, most important first: whose turn, whose mat (``mat``),
    every player's score and unfinished puzzles, then the rows on offer. ``viewer`` is the seat
    the image is drawn for (None: everybody), whose hidden score piles stay hidden."""
    sentences: list[Any] = [_turn(state, names)]
    if mat is not None:
        sentences.append(texts.ALT_MAT.format(name=seat_name(names, mat)))
    hidden = hidden_scores(state, viewer)
    seats = [mat] if mat is not None else range(len(state.players))
    for seat in seats:
        sentences += _player(state, names, seat, hidden)
    sentences += _rows(state)
    return Joined(sentences, " ")


def alt_text(description: Joined, locale: Any) -> str:
    """``description`` in ``locale``, as many whole sentences as fit in :data:`MAX_DESCRIPTION`
    (a first sentence longer than that is cut with an ellipsis)."""
    kept: list[str] = []
    length = 0
    for sentence in description.parts:
        shown = str(localise(sentence, locale))
        extra = len(shown) + (1 if kept else 0)
        if length + extra > MAX_DESCRIPTION:
            break
        kept.append(shown)
        length += extra
    if not kept and description.parts:
        return str(localise(description.parts[0], locale))[: MAX_DESCRIPTION - 1] + "…"
    return " ".join(kept)


def _turn(state: GameState, names: Sequence[str]) -> Any:
    if state.is_over:
        return texts.ALT_OVER
    return texts.ALT_TURN.format(names=and_list([seat_name(names, s) for s in state.acting_seats]))


def _player(state: GameState, names: Sequence[str], seat: int, hidden: frozenset[int]) -> list[Any]:
    player = state.players[seat]
    name = seat_name(names, seat)
    completed = player.banked_cards + len(player.completed)
    if seat in hidden:
        score = texts.ALT_SCORE_HIDDEN.format(name=name, completed=completed, supply=player.supply_size)
    else:
        points = player.banked_points + sum(state.cards[d.card].points for d in player.completed)
        score = texts.ALT_SCORE.format(name=name, points=points, completed=completed,
                                       supply=player.supply_size)
    if not player.puzzles:
        return [score]
    building = Joined([texts.ALT_PUZZLE.format(card=p.card, left=state.cards[p.card].size - p.filled)
                       for p in player.puzzles], ", ")
    return [score, texts.ALT_BUILDING.format(name=name, cards=building)]


def _rows(state: GameState) -> list[Any]:
    table = state.table
    rows: list[tuple[str, tuple[str | None, ...]]]
    if isinstance(table, RowsTable):
        rows = [("white", table.white_row), ("black", table.black_row)]
    elif isinstance(table, LineClearTable):
        rows = [(name, getattr(table, name))
                for name in ("left_white", "left_black", "right_white", "right_black")]
    else:
        assert isinstance(table, SoloTable)
        rows = [("grid", table.grid)]
    return [_row(state, name, cards) for name, cards in rows]


def _row(state: GameState, name: str, cards: tuple[str | None, ...]) -> Any:
    if name == "grid":  # Solo's 3×3 grid: every slot, empty ones too, so positions can be counted
        return texts.ALT_GRID.format(cards=Joined([_card(state, card) for card in cards], ", "))
    row = texts.ALT_ROW_NAMES[name]
    if not any(cards):
        return texts.ALT_ROW_EMPTY.format(row=row)
    return texts.ALT_ROW.format(row=row, cards=Joined([_card(state, card) for card in cards], ", "))


def _card(state: GameState, card_id: str | None) -> Any:
    if card_id is None:
        return texts.ALT_EMPTY_SLOT
    card = state.cards[card_id]
    reward: str
    if isinstance(card.reward, LevelUp):
        reward = texts.ALT_LEVEL_UPS[card.reward.value]
    elif isinstance(card.reward, Ambassador):  # the Ambassador Pack's cards reward no piece
        reward = texts.ALT_AMBASSADOR
    else:
        reward = shape_label(card.reward)
    return texts.ALT_CARD.format(card=card.id, points=card.points, reward=reward)
