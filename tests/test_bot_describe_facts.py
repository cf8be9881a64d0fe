"""The alt text states the same facts as the image, for random states of every mode.

Random seeded games of Solo, 2-6 players, Line Clear, Ghost, Finesse and the Endless White Deck,
with score piles known and hidden, are played some random legal actions in; then the facts are
read back from the description (English and pt-BR) and compared with the state: whose turn, each
score (points, or only the completed count for a hidden pile), every card on offer with its
points, the reserve's counts, each player's supply size, the decks, Solo's locks, Finesse's live
tile and credits, and a mat's own pieces.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import engine
from bot.core.wording import texts
from bot.core.wording.catchup import post_changes
from bot.core.wording.describe import MAX_DESCRIPTION, alt_text, describe
from bot.core.wording.locales import Joined, localise
from engine.expansions import finesse
from engine.pieces import SHAPES, mask_to_text, parse_cells
from engine.policies.registry import policy_by_name
from engine.state import GameState, LineClearTable, Options, RowsTable, SoloTable
from engine.visibility import hidden_scores

CARD_COLOUR = r"(?: \(?(?:branco|preto)\)?)?"
"""pt-BR names a card id's colour after it (``W13 branco``: CARD_ID in the catalogue)."""

MODES: list[tuple[int, dict[str, Any]]] = [
    (1, {}), (1, {"finesse": True}), (2, {}), (2, {"known_scores": False}), (3, {"finesse": True}),
    (3, {"ghost": True, "known_scores": False}), (4, {"endless_white": True}), (4, {"finesse": True}),
    (5, {}), (5, {"finesse": True, "known_scores": False}), (6, {}), (6, {"endless_white": True}),
]

WORDS = {
    None: {"turn": "{names} to move.", "and": " and ", "over": "The game is over.",
           "score": r"{name}: (-?\d+) points?, (\d+) puzzles? done, (\d+) pieces?\.",
           "hidden": r"{name}: (\d+) puzzles? done \(points hidden until the end\), (\d+) pieces?",
           "reserve": r"Reserve: ([^.]*)\.", "decks": r"Cards left in the decks: white (\d+), black (\d+)\.",
           "deck": r"Cards left in the deck: (\d+)\.", "locks": r"left to right: ([\d, ]+)\.",
           "pieces": r"{name}'s pieces: ([^.]*)\.", "live": "Live Finesse tile: {tile}",
           "credits": "{name} {a} and {i}", "left": r" \({left} cells? left: ([A-E1-5–, ]+)\)",
           "wrong": (r"\b1 (?:points|pieces|cells|puzzles)\b",
                     r"\b(?:[02-9]|\d\d+) (?:point|piece|cell|puzzle)\b(?!s)")},
    "pt-BR": {"turn": "Vez de {names}.", "and": " e ", "over": "A partida terminou.",
              "score": r"{name}: (-?\d+) pontos?, (\d+) completos?, (\d+) peças?\.",
              "hidden": r"{name}: (\d+) completos? \(pontos ocultos até o fim\), (\d+) peças?",
              "reserve": r"Reserva: ([^.]*)\.",
              "decks": r"Cartas restantes nos baralhos: branco (\d+), preto (\d+)\.",
              "deck": r"Cartas restantes no baralho: (\d+)\.",
              "locks": r"da esquerda para a direita: ([\d, ]+)\.",
              "pieces": r"Peças de {name}: ([^.]*)\.", "live": "Ficha Finesse ativa: ",
              "credits": "{name} {a} e {i}", "left": r" \(faltam? {left} casas?: ([A-E1-5–, ]+)\)",
              "wrong": (r"\b1 (?:pontos|peças|casas|quebra-cabeças)\b",
                        r"\bfaltam 1 |\bfalta (?:[02-9]|\d\d+) ",
                        r"\b(?:[02-9]|\d\d+) (?:ponto|peça|casa|quebra-cabeça)\b(?!s)")},
}


def played(players: int, options: dict[str, Any], seed: int) -> GameState:
    """A game of that mode, ``seed``-many actions in (at most 150, or to its end): mostly the
    greedy AI's (so puzzles get completed), a random legal one now and then."""
    rng = random.Random(seed)
    greedy = policy_by_name("greedy", seed)
    state = engine.new_game(Options.for_players(players, **options), seed)
    for _ in range(rng.randrange(0, 150)):
        if state.is_over:
            break
        seat = rng.choice(state.acting_seats)
        actions = engine.legal_actions(state, seat)
        if not actions:
            break
        action = rng.choice(actions) if rng.random() < 0.2 else greedy.choose(state.focused(seat))
        state = engine.apply(state, action, player=seat).state
    return state


def whole(description: Joined, locale: str | None) -> str:
    """Every sentence, uncut (the facts are checked on all of them; the cut separately)."""
    return " ".join(str(localise(part, locale)) for part in description.parts)


def offered(state: GameState) -> list[str]:
    table = state.table
    if isinstance(table, RowsTable):
        slots = table.white_row + table.black_row
    elif isinstance(table, LineClearTable):
        slots = table.left_white + table.left_black + table.right_white + table.right_black
    else:
        assert isinstance(table, SoloTable)
        slots = table.grid
    return [card for card in slots if card is not None]


def cells(runs: str) -> str:
    """``A1–C1, D2`` as the cells it names (``A1 B1 C1 D2``)."""
    named: list[str] = []
    for run in runs.split(", "):
        first, _, last = run.partition("–")
        last = last or first
        named += [f"{column}{first[1]}" for column in "ABCDE"[ord(first[0]) - 65:ord(last[0]) - 64]]
    return mask_to_text(parse_cells(" ".join(named)))


def counts(text: str) -> dict[str, int]:
    return {code: int(n) for code, n in re.findall(r"(\w+) ×(\d+)", text)}


def check(state: GameState, names: list[str], viewer: int | None, mat: int | None,
          locale: str | None) -> None:
    words = WORDS[locale]
    description = describe(state, names, viewer, mat=mat)
    text = whole(description, locale)
    cut = alt_text(description, locale)
    more = str(localise(texts.ALT_MORE, locale))
    assert len(cut) <= MAX_DESCRIPTION and cut.endswith(".")
    assert text.startswith(cut.removesuffix(" " + more)) and (cut == text or cut.endswith(more))
    assert [pattern for pattern in words["wrong"] if re.search(pattern, text)] == [], text  # "1 pieces"
    if state.is_over:
        assert text.startswith(words["over"])
    else:
        movers = words["and"].join(names[s] for s in state.acting_seats)
        assert text.startswith(words["turn"].format(names=movers)), text[:80]
        assert cut.startswith(words["turn"].format(names=movers))  # the first thing said survives the cut
    hidden = hidden_scores(state, viewer)
    for seat in ([mat] if mat is not None else range(len(state.players))):
        player = state.players[seat]
        completed = player.banked_cards + len(player.completed)
        if seat in hidden:
            found = re.search(words["hidden"].format(name=re.escape(names[seat])), text)
            assert found is not None and int(found[1]) == completed and int(found[2]) == player.supply_size
            assert re.search(words["score"].format(name=re.escape(names[seat])), text) is None
            for done in player.completed:
                assert done.card not in text or done.card in offered(state)
        else:
            found = re.search(words["score"].format(name=re.escape(names[seat])), text)
            points = player.banked_points + sum(state.cards[d.card].points for d in player.completed)
            if state.is_over:  # the final score, as the results show it
                points = engine.score_lines(state)[seat].total
            assert found is not None, (names[seat], text)
            assert (int(found[1]), int(found[2]), int(found[3])) == (points, completed, player.supply_size)
        for puzzle in player.puzzles:
            left = state.cards[puzzle.card].size - puzzle.filled.bit_count()
            found = re.search(re.escape(puzzle.card) + CARD_COLOUR + words["left"].format(left=left), text)
            assert found is not None, (puzzle.card, left)
            assert cells(found[1]) == mask_to_text(state.cards[puzzle.card].recess & ~puzzle.filled)
    for card in offered(state):
        assert re.search(re.escape(card) + CARD_COLOUR + rf" \({state.cards[card].points} pt,", text), card
    reserve = re.search(words["reserve"], text)
    assert reserve is not None
    assert {code: n for code, n in counts(reserve[1]).items()} == {
        s.value: state.reserve[s.index] for s in SHAPES if s.value in counts(reserve[1])}
    assert all(s.value in counts(reserve[1]) for s in SHAPES if state.reserve[s.index])
    table = state.table
    if isinstance(table, SoloTable):
        deck = re.search(words["deck"], text)
        assert deck is not None and int(deck[1]) == len(table.deck)
        locks = re.search(words["locks"], text)
        assert locks is not None and tuple(int(n) for n in locks[1].split(", ")) == table.locks
    else:
        decks = re.search(words["decks"], text)
        assert decks is not None
        assert (int(decks[1]), int(decks[2])) == (len(table.white_deck), len(table.black_deck))
    if mat is not None:
        pieces = re.search(words["pieces"].format(name=re.escape(names[mat])), text)
        assert pieces is not None
        supply = state.players[mat].supply
        assert counts(pieces[1]) == {s.value: supply[s.index] for s in SHAPES if supply[s.index]}
    fv = finesse.view(state)
    if fv is not None:
        if fv.live is not None:
            assert (words["live"].format(tile=fv.live.id) if locale is None else words["live"]) in text
            assert fv.live.id in text
        for seat in ([mat] if mat is not None else range(len(state.players))):
            assert words["credits"].format(name=names[seat], a=fv.active[seat], i=fv.inactive[seat]) in text


@pytest.mark.parametrize(("players", "options"), MODES)
def test_random_states_of_every_mode_read_back(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        state = played(players, options, seed * 31 + players)
        names = [f"P{i}x" for i in range(players)]
        for locale in (None, "pt-BR"):
            check(state, names, None, None, locale)           # the table image (public)
            seat = seed % players
            check(state, names, seat, seat, locale)           # the owner's mat
            if players > 1:
                other = (seat + 1) % players
                check(state, names, seat, other, locale)      # another's mat, as a player sees it


def test_what_a_post_changed_comes_right_after_whose_turn() -> None:
    state = engine.new_game(Options.for_players(2), 4)
    assert isinstance(state.table, RowsTable)
    card = state.table.white_row[0]
    assert card is not None
    outcome = engine.apply(state, engine.parse_action("take white 1"))
    after = outcome.state
    names = ["Ana", "Bo"]
    for locale, taken in ((None, f"Taken: {card} by Ana."), ("pt-BR", f"Pegos: {card} por Ana.")):
        shown = alt_text(describe(after, names, changed=post_changes(outcome.events, names, after)), locale)
        first, second = shown.split(". ", 2)[:2]
        assert second + "." == taken, shown[:120]
