"""The AI's imagined decks hold only cards this game's own decks could hold.

A state keeps the whole catalogue (Ghost, Phoenix and Ambassador cards included) whatever its table
plays; :func:`engine.policies.hidden.redeal` refills the decks the AI cannot see from the cards it
has not seen — only those this game's setup could have put in a deck: the base cards and the cards
of the expansions its options switch on. Checked over every mode and every combination of the
options that change the decks, at the start and after play, for every viewer.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import fields

import pytest
from positions import progress_action

from engine import GameState, IllegalActionError, Options, apply, check_options, new_game
from engine.policies.hidden import redeal, visible_cards
from engine.rng import Rng
from engine.visibility import hidden_scores

DECK_OPTIONS = ("ghost", "phoenix", "ambassador", "endless_white", "known_scores", "finesse")
"""The options that change which cards a game deals (its expansions' cards, Finesse's Solo deck
sizes) or what a re-deal refills (Endless White's new decks, score piles face down)."""


def every_table() -> list[Options]:
    """Every mode (Solo, 2-4 players, Line Clear at 5 and 6) with every combination of
    :data:`DECK_OPTIONS` the engine accepts."""
    found = []
    for players in range(1, 7):
        for flags in itertools.product((False, True), repeat=len(DECK_OPTIONS)):
            chosen = dict(zip(DECK_OPTIONS, flags, strict=True))
            options = Options.for_players(players, **chosen)
            try:
                check_options(options)
            except IllegalActionError:
                continue
            found.append(options)
    return found


TABLES = every_table()


def own_card(state: GameState, card_id: str) -> bool:
    """A card this game's decks could hold: a base card, or one of an expansion the table plays."""
    expansion = state.cards[card_id].expansion
    return expansion is None or bool(getattr(state.options, expansion))


def deck_fields(state: GameState) -> list[str]:
    return [f.name for f in fields(state.table) if f.name.endswith("deck")]


def check_redeal(state: GameState, rng: Rng, viewer: int | None) -> None:
    dealt = redeal(state, rng, viewer)
    seen = visible_cards(state, viewer)
    imagined: list[str] = []
    for name in deck_fields(state):
        real, new = getattr(state.table, name), getattr(dealt.table, name)
        assert len(new) == len(real), name
        assert [state.cards[c].colour for c in new] == [state.cards[c].colour for c in real], name
        imagined += new
    hidden = hidden_scores(state, viewer)
    hidden_piles = [d.card for seat, player in enumerate(dealt.players) if seat in hidden
                    for d in player.completed if d.card not in seen]
    imagined += hidden_piles
    strangers = sorted({c for c in imagined if not own_card(state, c)})
    assert not strangers, f"{state.options}: {strangers} imagined in a game that cannot deal them"
    assert not seen & set(imagined), "a card the viewer sees was imagined in a deck"
    assert max(Counter(imagined).values(), default=1) == 1, "a card was imagined twice"
    assert Counter(state.cards[c].colour for c in imagined if c not in hidden_piles) == Counter(
        state.cards[c].colour for name in deck_fields(state) for c in getattr(state.table, name))


def test_every_table_deals_only_its_own_cards() -> None:
    """The rule the test relies on: a fresh game's decks and rows hold only its own cards."""
    assert len(TABLES) >= 60 and {o.players for o in TABLES} == set(range(1, 7))
    for options in TABLES:
        state = new_game(options, 5)
        table_cards = [c for f in fields(state.table) for c in _ids(getattr(state.table, f.name))]
        assert all(own_card(state, c) for c in table_cards), options


def _ids(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [c for item in value for c in _ids(item)]
    return []


def table_id(options: Options) -> str:
    return f"{options.players}p" + "".join(
        f"+{name}" for name in DECK_OPTIONS if name != "known_scores" and getattr(options, name)
    ) + ("" if options.known_scores else "+hidden_scores")


@pytest.mark.parametrize("options", TABLES, ids=table_id)
def test_imagined_decks_hold_only_this_games_cards(options: Options) -> None:
    for seed in range(3):
        state = new_game(options, seed)
        for viewer in (None, state.current):
            check_redeal(state, Rng(seed * 7 + 1), viewer)
    rng = Rng(11)
    state = new_game(options, 11)
    for step in range(1, 41):
        if state.is_over:
            break
        seat = state.acting_seats[rng.below(len(state.acting_seats))]
        state = apply(state, progress_action(state.focused(seat), rng), player=seat).state
        if step % 20 == 0:
            for viewer in (None, *range(options.players)):
                check_redeal(state, Rng(step + (viewer or 0)), viewer)


def test_a_plain_two_player_game_imagines_no_expansion_card() -> None:
    """The reported case: 30 re-deals of a plain 2-player game put no Ghost, Phoenix or Ambassador
    card in the decks the AI imagines."""
    state = new_game(Options(players=2), 3)
    expansion_cards = {c for c, card in state.cards.items() if card.expansion is not None}
    assert expansion_cards, "the catalogue has expansion cards"
    for n in range(30):
        dealt = redeal(state, Rng(n), state.current)
        decks = {c for name in deck_fields(dealt) for c in getattr(dealt.table, name)}
        assert not decks & expansion_cards
