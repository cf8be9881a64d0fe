"""Alt text at its longest (issue 46, items 9 and 11): six players of Line Clear with every
expansion, both marker holders to move, names as long as Discord allows, every puzzle with its
empty cells scattered, a turn post that took and completed cards. Discord keeps 1,024 characters
of an image's description; in English and in Portuguese what matters most is kept whole — a
table's whose turn, what changed, every score, the end, the live Finesse tile, the markers and
every card on offer; a mat's whose turn, its puzzles with their empty cells, its supply and its
score; the recap's every score round by round — and the rest is one command away
(``/projectl-describe``)."""

from __future__ import annotations

import dataclasses

import pytest
from test_bot_describe_facts import played

import engine
from bot.core.wording import texts
from bot.core.wording.catchup import post_changes
from bot.core.wording.describe import (
    MAX_DESCRIPTION,
    alt_name,
    alt_text,
    describe,
    describe_recap,
    empty_cells,
)
from bot.core.wording.locales import localise
from engine import Options
from engine import events as ev
from engine.pieces import Shape
from engine.state import GameState, LineClearTable, OpenPuzzle, Phase, Placed
from renders.changes import market_cards
from renders.graphemes import cuts

LONGEST = ["Wolfeschlegelsteinhausenbergerdo", "Maximiliano Rodrigues da Silva 1",
           "Maximiliano Rodrigues da Silva 2", "عبد الرحمن بن محمد بن عبد الله الأ", "龍" * 32,
           "Anastácia Beatriz Gonçalves Lima"]
"""Display names of Discord's 32 characters (wide glyphs, right to left, a seat number at the end)."""


def worst_state() -> GameState:
    """Mid-game, both markers' holders to move, the end triggered, a Finesse tile live; every
    seat builds four of the largest puzzles with every other cell filled (the most runs)."""
    options = Options.for_players(6, finesse=True, ambassador=True, phoenix=True, finesse_ambassador=True)
    state = engine.new_game(options, 5)
    assert len(state.acting_seats) == 2
    offered = set(market_cards(state.table))
    largest = iter(sorted((c for c in state.cards.values() if c.id not in offered), key=lambda c: -c.size))
    players = []
    for player in state.players:
        puzzles = []
        for card in (next(largest) for _ in range(4)):
            cells = [i for i in range(25) if card.recess >> i & 1]
            every_other = sum(1 << i for i in cells[::2])
            puzzles.append(OpenPuzzle(card.id, (Placed(Shape.MONO, every_other),)))
        players.append(dataclasses.replace(player, puzzles=tuple(puzzles)))
    return state.evolve(players=tuple(players), last_round=state.round + 1)


def worst_changes(state: GameState) -> list[object]:
    """A post in which both holders took a card and completed one, and the end was triggered: as
    long as the longest of some 600 posts of six-player games with these names (169 characters)."""
    movers = state.acting_seats
    found: list[ev.Event] = [ev.PuzzleTaken(seat, card, "row", None, 1)
                             for seat, card in zip(movers, ("W02", "B14"), strict=True)]
    found += [ev.PuzzleCompleted(seat, card, 5) for seat, card in zip(movers, ("B33", "B34"), strict=True)]
    found.append(ev.EndTriggered(state.round, engine.final_round(state)))
    return post_changes(found, LONGEST, state)


def said(sentence: object, locale: str | None) -> str:
    return str(localise(sentence, locale))


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_a_six_player_table_keeps_what_matters_most_within_discords_limit(locale: str | None) -> None:
    state = worst_state()
    table = state.table
    assert isinstance(table, LineClearTable) and state.last_round is not None
    changed = worst_changes(state)
    description = describe(state, LONGEST, changed=changed)
    shown = alt_text(description, locale)
    more = said(texts.ALT_MORE, locale)
    assert len(shown) <= MAX_DESCRIPTION and shown.endswith(more)
    names = [alt_name(name) for name in LONGEST]
    turn = said(texts.ALT_TURN.format(names=" and ".join(names[s] for s in state.acting_seats)), locale)
    assert shown.startswith(turn.replace(" and ", " e ") if locale else turn)
    for sentence in changed:
        assert said(sentence, locale) in shown
    for name in names:
        assert f"{name}: " in shown  # every score
    assert said(texts.ALT_END_TRIGGERED.format(round=engine.final_round(state)), locale) in shown
    white, black = table.markers
    assert said(texts.ALT_MARKERS.format(white=names[white], black=names[black]), locale) in shown
    for card in market_cards(table):
        assert f"{card}" in shown and f" ({state.cards[card].points} pt, " in shown


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_a_six_player_mat_keeps_its_puzzles_supply_and_score(locale: str | None) -> None:
    state = worst_state()
    for seat in range(6):
        shown = alt_text(describe(state, LONGEST, seat, mat=seat, changed=worst_changes(state)), locale)
        assert len(shown) <= MAX_DESCRIPTION
        for puzzle in state.players[seat].puzzles:
            assert empty_cells(state.cards[puzzle.card].recess, puzzle.filled) in shown
        name = alt_name(LONGEST[seat])
        assert f"{name}: " in shown and said(texts.ALT_SUPPLY, locale).split("{")[0] in shown


def test_a_long_name_is_shortened_between_letters_keeping_its_seat_number() -> None:
    assert alt_name("Ana") == "Ana"
    assert alt_name("Maximiliano Rodrigues da Silva 1") != alt_name("Maximiliano Rodrigues da Silva 2")
    assert alt_name("Maximiliano Rodrigues da Silva 1").endswith("… 1")
    name = "Zoe\u0308" * 12  # an accent NFC could join, kept apart
    for letters in range(4, 14):
        shown = alt_name(name, letters).removesuffix("…")
        assert name.startswith(shown) and len(shown) in cuts(name)  # the accent stays with its letter


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_a_six_player_recap_keeps_every_score_round_by_round(locale: str | None) -> None:
    state = worst_state().evolve(phase=Phase.OVER)
    rounds = 14  # a long Line Clear game
    scores = [[seat * 7 - rounds + k for seat in range(6)] for k in range(rounds + 1)]
    swing = "No single move swung this game."
    shown = alt_text(describe_recap(state, LONGEST, 123, scores, swing), locale)
    assert len(shown) <= MAX_DESCRIPTION
    for seat, name in enumerate(LONGEST):
        assert f"{alt_name(name)}" in shown and ", ".join(str(row[seat]) for row in scores) in shown


@pytest.mark.parametrize("options", [{"finesse": True}, {"ghost": True}], ids=["finesse", "ghost"])
def test_random_six_player_tables_keep_every_score_and_card_on_offer(options: dict[str, bool]) -> None:
    """Random positions of six-player games with the Ambassador Pack, the longest names and a
    long post: every score and every card on offer stay in both languages."""
    for seed in range(12):
        state = played(6, {"ambassador": True, **options}, seed * 13 + 1)
        if state.is_over:
            continue
        changed = worst_changes(state) if len(state.acting_seats) == 2 else []
        description = describe(state, LONGEST, changed=changed)
        for locale in (None, "pt-BR"):
            shown = alt_text(description, locale)
            assert all(f"{alt_name(name)}: " in shown for name in LONGEST), (seed, locale)
            assert all(card in shown for card in market_cards(state.table)), (seed, locale, shown)
