"""The words of an image: Discord's alt text (an attachment's ``description``) for a board.

Built from the same state, names and viewer as the picture, so a reader who cannot see it learns
the same facts: whose turn it is first, then each player's score (only the completed count for a
face-down score pile, :func:`engine.visibility.hidden_scores`), the puzzles they are building, and
the cards on offer. :func:`describe` gives the sentences in English (translatable pieces);
:func:`alt_text` shows them in the reader's language, cut at a sentence boundary to Discord's limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.wording import texts
from bot.core.wording.event_texts import and_list, finesse_tile, seat_name, shape_label
from bot.core.wording.locales import Joined, PlayerName, Text, as_written, english, localise
from engine import final_round, opponent_score, score_lines, winners
from engine.cards import Ambassador, LevelUp, PuzzleCard
from engine.events import MASTERMIND
from engine.expansions import finesse
from engine.pieces import BASE_SHAPES, GRID, SHAPES, Shape, cell_name
from engine.state import GameState, LineClearTable, PlayerState, RowsTable, SoloTable
from engine.visibility import hidden_scores
from renders.graphemes import clusters

MAX_DESCRIPTION = 1024
"""Discord's limit on an attachment's description, in characters."""


def describe(state: GameState, names: Sequence[str], viewer: int | None = None,
             mat: int | None = None, changed: Sequence[Any] = ()) -> Joined:
    """The image of ``state`` in sentences, most important first, since Discord keeps only the
    first 1,024 characters (:func:`alt_text`; ``/projectl-describe`` has everything).

    A table: whose turn and what ``changed`` (sentences: :func:`bot.core.wording.catchup.post_changes`),
    every score, the end if triggered, the markers, the rows on offer (Solo: the grid, its locks
    and the mastermind), Finesse's live tile, the puzzles of the seats to move with their empty
    cells (each has them first on their mat), Finesse's credits, the reserve and the decks, then
    everybody else's puzzles. A mat (``mat``): whose turn and what changed, whose mat, its puzzles
    with their empty cells and its supply, its score, then the rest. ``viewer`` is the seat the
    image is drawn for (None: everybody), whose hidden score piles stay hidden. Names are spelt
    out to :data:`NAME_LETTERS` letters (:func:`alt_name`). At six players, with the longest
    names and every expansion, in English and Portuguese, a table's text keeps everything up to
    the rows on offer and a mat's its puzzles, supply and score (tests/test_bot_alt_text_worst.py)."""
    names = [alt_name(name) for name in names]
    sentences: list[Any] = [*_turn(state, names), *changed]
    hidden = hidden_scores(state, viewer)
    if mat is not None:
        sentences += [texts.ALT_MAT.format(name=seat_name(names, mat)), *_building(state, names, mat),
                      _supply(state.players[mat], names, mat), _score(state, names, mat, hidden)]
        first: list[int] = [mat]
    else:
        sentences += [_score(state, names, seat, hidden) for seat in range(len(state.players))]
        first = [seat for seat in state.acting_seats if seat < len(state.players)]
    end = texts.ALT_END_TRIGGERED.format(round=final_round(state))
    if state.last_round is not None and not state.is_over and end not in changed:  # said once
        sentences.append(end)
    if isinstance(state.table, LineClearTable):
        white, black = state.table.markers
        sentences.append(texts.ALT_MARKERS.format(white=seat_name(names, white),
                                                  black=seat_name(names, black)))
    sentences += _rows(state)
    tile_and_credits = _finesse(state, names, [mat] if mat is not None else list(range(len(state.players))))
    sentences += tile_and_credits[:1]
    if mat is None:
        sentences += [s for seat in first for s in _building(state, names, seat)]
    sentences += [*tile_and_credits[1:], _reserve(state), _decks(state)]
    if mat is None:
        sentences += [s for seat in range(len(state.players)) if seat not in first
                      for s in _building(state, names, seat)]
    return Joined(sentences, " ")


NAME_LETTERS = 12
"""The most letters (grapheme clusters) of a player's name the alt text spells out: with six
players a name comes up some ten times, and 32-letter names would crowd the rest of the table
out of Discord's 1,024 characters (``/projectl-describe`` names everyone in full)."""


def alt_name(name: str, letters: int = NAME_LETTERS) -> str:
    """``name``, or its beginning and an ellipsis when it has more than ``letters`` letters; a
    short last word (a seat number: "Greedy bot 12") is kept after the ellipsis, so two seats'
    names that differ only there still differ. Cut between letters only (never inside an
    accented letter or a syllable: :mod:`renders.graphemes`).

    A player's name (:class:`PlayerName`) is cut as they wrote it and stays a player's name (no
    backslash of its escaping counted or cut in two). An AI seat's name is a sentence of texts.py,
    worded in the reader's language when shown, so it stays one: only the name of the player
    whose seat it took is shortened ("Easy AI (for Maximiliano…)", "IA Fácil (no lugar de
    Maximiliano…)"); cut as English text it read "Easy AI (fo…" in every language."""
    if isinstance(name, PlayerName):
        short = _shortened(name.raw, letters)
        return name if short == name.raw else PlayerName(short)
    if isinstance(name, Text):
        source = english(name.key)
        if source is None or not name.fields:
            return name
        return source.format(**{key: alt_name(value, letters) if isinstance(value, PlayerName) else value
                                for key, value in name.fields.items()})
    return _shortened(name, letters)


def _shortened(name: str, letters: int) -> str:
    found = clusters(name)
    if len(found) <= letters:
        return name
    head, _, last = name.rpartition(" ")
    tail = clusters(last)
    if head and len(tail) <= 3:
        kept = "".join(clusters(head)[: letters - len(tail) - 2]).rstrip()
        return f"{kept}… {last}"
    return "".join(found[: letters - 1]).rstrip() + "…"


def counted(nouns: Mapping[str, str], n: int) -> str:
    """``n`` with its noun (a table of texts.py such as ``ALT_PIECES``): "1 piece", "3 pieces",
    "-1 point" (a final score may be below zero)."""
    return nouns["one" if abs(n) == 1 else "other"].format(n=n)


def empty_cells(recess: int, filled: int) -> str:
    """A puzzle's empty cells, row by row, a run of neighbours in a row as its ends:
    ``A1–C1, B2, D2–E2`` (the cell names of the notation, the same in every language, so a reader
    can plan a placement)."""
    runs: list[str] = []
    empty = recess & ~filled
    for row in range(GRID):
        columns = [col for col in range(GRID) if empty >> (row * GRID + col) & 1]
        while columns:
            start = end = columns.pop(0)
            while columns and columns[0] == end + 1:
                end = columns.pop(0)
            runs.append(cell_name(start, row) if start == end else
                        f"{cell_name(start, row)}–{cell_name(end, row)}")
    return ", ".join(runs)


def describe_recap(state: GameState, names: Sequence[str], game_id: int,
                   scores: Sequence[Sequence[int]], swing: Any) -> Joined:
    """The animated recap in sentences: what it shows, who won, the move that swung it
    (``swing``, a sentence), then each line's score at the deal and after each round (``scores``:
    a frame's totals, one per seat, then the mastermind's in Solo)."""
    names = [alt_name(name) for name in names]
    lines = [seat_name(names, seat) for seat in range(len(state.players))]
    if scores and len(scores[0]) > len(lines):
        lines.append(seat_name(names, MASTERMIND))
    sentences: list[Any] = [texts.ALT_RECAP.format(game_id=game_id, rounds=max(len(scores) - 1, 0)),
                            *_turn(state, names), swing]
    sentences += [texts.ALT_RECAP_SCORES.format(name=name, scores=", ".join(str(row[line]) for row in scores))
                  for line, name in enumerate(lines)]
    return Joined(sentences, " ")


def table_lines(state: GameState, names: Sequence[str], viewer: int | None = None) -> list[Any]:
    """``/projectl-describe``: the table image's facts as one line per item, for a screen reader
    (no drawing): whose turn and the round, each score (``viewer``'s hidden piles hidden), the end,
    Finesse, the markers, one line per slot of each row (Solo: of the grid, then its locks and the
    mastermind), each player's puzzles being built, the reserve (a line per shape) and the decks."""
    lines: list[Any] = [*_turn(state, names)]
    if not state.is_over:
        lines.append(texts.DESCRIBE_ROUND.format(round=state.round))
    hidden = hidden_scores(state, viewer)
    seats = list(range(len(state.players)))
    lines += [_score(state, names, seat, hidden) for seat in seats]
    if state.last_round is not None and not state.is_over:
        lines.append(texts.ALT_END_TRIGGERED.format(round=final_round(state)))
    lines += _finesse(state, names, seats)
    table = state.table
    if isinstance(table, LineClearTable):
        white, black = table.markers
        lines.append(texts.ALT_MARKERS.format(white=seat_name(names, white), black=seat_name(names, black)))
    for name, cards in _slots(state):
        for slot, card in enumerate(cards, start=1):
            lines.append(texts.DESCRIBE_SLOT.format(row=texts.DESCRIBE_ROWS[name], slot=slot,
                                                    card=_card_line(state, card)))
    if isinstance(table, SoloTable):
        lines += _rows(state)[1:]  # the locks and the mastermind
    lines += [s for seat in seats for s in _building(state, names, seat)]
    lines += _piece_lines(state.reserve, texts.DESCRIBE_RESERVE,
                          SHAPES if state.options.ghost else BASE_SHAPES)
    lines.append(_decks(state))
    return lines


def mat_lines(state: GameState, names: Sequence[str], seat: int) -> list[Any]:
    """``/projectl-describe view:me``: the owner's mat, one line per item: whose turn, the score
    (one's own pile is never hidden from one), each puzzle with its cells filled and left, its
    points and reward, then one line per shape of the supply."""
    player = state.players[seat]
    lines: list[Any] = [*_turn(state, names), texts.ALT_MAT.format(name=seat_name(names, seat))]
    if not player.puzzles:
        lines.append(texts.DESCRIBE_NO_PUZZLES)
    for puzzle in player.puzzles:
        card = state.cards[puzzle.card]
        left = card.size - puzzle.filled.bit_count()  # ``filled`` is the mask of covered cells
        lines.append(texts.DESCRIBE_PUZZLE.format(card=_card(state, puzzle.card), size=card.size,
                                                  left=counted(texts.ALT_CELLS_LEFT, left),
                                                  cells=empty_cells(card.recess, puzzle.filled)))
    lines += _piece_lines(player.supply, texts.DESCRIBE_PIECE) or [texts.DESCRIBE_NO_PIECES]
    lines.append(_score(state, names, seat, frozenset()))
    lines += _finesse(state, names, [seat])
    return lines


def _slots(state: GameState) -> list[tuple[str, tuple[str | None, ...]]]:
    table = state.table
    if isinstance(table, RowsTable):
        return [("white", table.white_row), ("black", table.black_row)]
    if isinstance(table, LineClearTable):
        return [(name, getattr(table, name))
                for name in ("left_white", "left_black", "right_white", "right_black")]
    assert isinstance(table, SoloTable)
    return [("grid", table.grid)]


def _card_line(state: GameState, card_id: str | None) -> Any:
    """``W07 (3 pt, reward L3), 7 cells``, or ``empty``."""
    if card_id is None:
        return texts.ALT_EMPTY_SLOT
    return texts.DESCRIBE_CARD.format(card=_card(state, card_id),
                                      size=counted(texts.ALT_CELLS, state.cards[card_id].size))


def _piece_lines(counts: Sequence[int], line: Any, always: Sequence[Shape] = ()) -> list[Any]:
    return [line.format(piece=shape_label(shape), count=counts[shape.index])
            for shape in SHAPES if counts[shape.index] > 0 or shape in always]


def alt_text(description: Joined, locale: Any) -> str:
    """``description`` in ``locale``, players' names as they wrote them (Discord reads no markdown
    in alt text), as many whole sentences as fit in :data:`MAX_DESCRIPTION`;
    when some are left out, the last says where the rest is (``ALT_MORE``). A first sentence
    longer than the limit is cut with an ellipsis."""
    shown: list[str] = []
    length = -1
    for sentence in description.parts:  # shown one by one: the rest is not drawn once it is cut
        shown.append(str(localise(as_written(sentence), locale)))  # plain text: names unescaped
        length += len(shown[-1]) + 1
        if length > MAX_DESCRIPTION:
            break
    else:
        return " ".join(shown)
    more = str(localise(texts.ALT_MORE, locale))
    kept: list[str] = []
    length = len(more)
    for sentence in shown:
        if length + len(sentence) + 1 > MAX_DESCRIPTION:
            break
        kept.append(sentence)
        length += len(sentence) + 1
    if not kept:
        return shown[0][: MAX_DESCRIPTION - 1] + "…"
    return " ".join([*kept, more])


def _turn(state: GameState, names: Sequence[str]) -> list[Any]:
    if state.is_over:
        won = [seat_name(names, s) for s in winners(state)]
        return [texts.ALT_OVER] + ([texts.ALT_WINNERS.format(names=and_list(won))] if won else [])
    return [texts.ALT_TURN.format(names=and_list([seat_name(names, s) for s in state.acting_seats]))]


def _score(state: GameState, names: Sequence[str], seat: int, hidden: frozenset[int]) -> Any:
    player = state.players[seat]
    name = seat_name(names, seat)
    completed = player.banked_cards + len(player.completed)
    done, supply = counted(texts.ALT_COMPLETED, completed), counted(texts.ALT_PIECES, player.supply_size)
    if seat in hidden:
        return texts.ALT_SCORE_HIDDEN.format(name=name, completed=done, supply=supply)
    # once the game is over, the final score the results show (penalties taken off), not the pile's
    points = (score_lines(state)[seat].total if state.is_over
              else player.banked_points + sum(state.cards[d.card].points for d in player.completed))
    return texts.ALT_SCORE.format(name=name, points=counted(texts.ALT_POINTS, points), completed=done,
                                  supply=supply)


def _building(state: GameState, names: Sequence[str], seat: int) -> list[Any]:
    player = state.players[seat]
    if not player.puzzles:
        return []
    building = Joined([texts.ALT_PUZZLE.format(  # ``filled``: the mask of covered cells
        card=p.card, left=counted(texts.ALT_CELLS_LEFT, state.cards[p.card].size - p.filled.bit_count()),
        cells=empty_cells(state.cards[p.card].recess, p.filled)) for p in player.puzzles], ", ")
    return [texts.ALT_BUILDING.format(name=seat_name(names, seat), cards=building)]


def _finesse(state: GameState, names: Sequence[str], seats: Sequence[int]) -> list[Any]:
    """Finesse's live tile (or how many are still face down) and each seat's credits."""
    fv = finesse.view(state)
    if fv is None:
        return []
    live = fv.live
    tile = (texts.ALT_FINESSE_LIVE.format(tile=finesse_tile(live)) if live is not None
            else texts.ALT_FINESSE_NONE.format(face_down=fv.face_down))
    credits = Joined([texts.ALT_CREDITS_OF.format(name=seat_name(names, seat), active=fv.active[seat],
                                                  inactive=fv.inactive[seat]) for seat in seats], ", ")
    return [tile, texts.ALT_CREDITS.format(credits=credits)]


def _counts(counts: Sequence[int], always: Sequence[Shape] = ()) -> Any:
    """``1 ×3, L3 ×1``: the shapes of ``counts`` (a supply or the reserve) with how many, and the
    ``always`` shapes even at none (the reserve image shows the base ones, and ghosts if played)."""
    shown = [shape for shape in SHAPES if counts[shape.index] > 0 or shape in always]
    if not shown:
        return texts.ALT_NO_PIECES
    return Joined([texts.ALT_COUNT.format(code=shape.value, count=counts[shape.index]) for shape in shown],
                  ", ")


def _supply(player: PlayerState, names: Sequence[str], seat: int) -> Any:
    return texts.ALT_SUPPLY.format(name=seat_name(names, seat), pieces=_counts(player.supply))


def _reserve(state: GameState) -> Any:
    always = SHAPES if state.options.ghost else BASE_SHAPES
    return texts.ALT_RESERVE.format(pieces=_counts(state.reserve, always))


def _decks(state: GameState) -> Any:
    table = state.table
    if isinstance(table, SoloTable):
        return texts.ALT_SOLO_DECK.format(cards=len(table.deck))
    return texts.ALT_DECKS.format(white=len(table.white_deck), black=len(table.black_deck))


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
        mastermind = texts.ALT_MASTERMIND.format(name=seat_name([], MASTERMIND),
                                                 points=counted(texts.ALT_POINTS, opponent_score(state) or 0),
                                                 cards=counted(texts.ALT_PUZZLES, len(table.mastermind_pile)),
                                                 pieces=counted(texts.ALT_PIECES, table.mastermind_supply))
        return [_row(state, "grid", table.grid),
                texts.ALT_LOCKS.format(locks=", ".join(str(n) for n in table.locks)), mastermind]
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
    return texts.ALT_CARD.format(card=card.id, points=card.points, reward=reward_words(card))


def reward_words(card: PuzzleCard) -> str:
    """A card's reward as a reader is told it: a piece by its code (as the images print it), a
    level-up or an Ambassador action in words of the reader's language — never the engine's value
    (``up2``)."""
    if isinstance(card.reward, LevelUp):
        return texts.ALT_LEVEL_UPS[card.reward.value]
    if isinstance(card.reward, Ambassador):  # the Ambassador Pack's cards reward no piece
        return texts.ALT_AMBASSADOR
    return str(card.reward.value)
