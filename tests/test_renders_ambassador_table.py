"""The public table shows which Ambassador cards may be flipped now (issue 46, item 11): in a
player's panel the Ambassador diamond stands before a card that is ready (completed on an earlier
turn), not before one completed this turn, and a legend under the market says what the diamond
means there and on a market card. An action whose card the Endless White Deck banked shows as
banked, without the id, which now names a card in the white deck."""

from __future__ import annotations

import pytest

import engine
from bot.core.wording.locales import image_words
from engine import Options
from engine.cards import Ambassador
from engine.expansions.ambassador import BANKED, standing
from engine.state import GameState
from renders import fonts, labels, panels, render_table

NAMES = ["Ana", "Bo"]


def with_ambassadors(ready: list[str], fresh: list[str], **options: bool) -> GameState:
    state = engine.new_game(Options(players=2, ambassador=True, **options), 3)
    return state.evolve(ext={**state.ext, "ambassador": {"ready": [ready, []], "fresh": [fresh, []]}})


def ambassador_cards(state: GameState) -> list[str]:
    return sorted(c.id for c in state.cards.values() if isinstance(c.reward, Ambassador))


def drawn_panel(state: GameState, monkeypatch: pytest.MonkeyPatch,
                words: dict | None = None) -> tuple[list[fonts.Drawn], list[tuple[int, int]]]:
    """What the table draws, and where (canvas, x) a panel pastes a diamond."""
    diamonds: list[tuple[int, int]] = []
    real = panels.paste_reward

    def spy(image, reward, cell, x, y, **kw):  # type: ignore[no-untyped-def]
        diamonds.append((id(image), x))
        return real(image, reward, cell, x, y, **kw)

    monkeypatch.setattr(panels, "paste_reward", spy)
    with fonts.recording() as drawn:
        render_table(state, NAMES, words=words)
    return drawn, diamonds


@pytest.mark.parametrize("known_scores", [True, False])
def test_a_ready_card_has_the_diamond_before_it_and_a_fresh_one_not(
    known_scores: bool, monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = engine.new_game(Options(players=2, ambassador=True, known_scores=known_scores), 3)
    ready, fresh = ambassador_cards(state)[:2]
    state = with_ambassadors([ready], [fresh], known_scores=known_scores)
    assert standing(state, 0) == ((ready, True, False), (fresh, False, False))
    drawn, diamonds = drawn_panel(state, monkeypatch)
    ids = {d.text: d for d in drawn if d.text in (ready, fresh)}
    assert set(ids) == {ready, fresh}  # face up: shown whatever known_scores says
    canvas = ids[ready].canvas
    before = [x for c, x in diamonds if c == canvas]
    assert len(before) == 1  # one diamond, before the ready card
    assert 0 < ids[ready].box[0] - before[0] <= fonts.width(ready, 29) and before[0] < ids[fresh].box[0]
    assert not [x for x in before if ids[ready].box[2] < x < ids[fresh].box[0]]


def test_a_banked_action_shows_without_its_card(monkeypatch: pytest.MonkeyPatch) -> None:
    base = engine.new_game(Options(players=2, ambassador=True, endless_white=True), 3)
    white = next(c for c in ambassador_cards(base) if c.startswith("W"))
    state = with_ambassadors([BANKED + white], [], endless_white=True)
    drawn, diamonds = drawn_panel(state, monkeypatch)
    banked = [d for d in drawn if d.text == labels.AMBASSADOR_BANKED]
    assert len(banked) == 1
    assert not [d for d in drawn if d.text == white and d.canvas == banked[0].canvas]
    assert [x for c, x in diamonds if c == banked[0].canvas]  # still ready to flip


@pytest.mark.parametrize("locale", [None, "pt-BR"])
def test_the_legend_says_what_the_diamond_beside_a_card_means(locale: str | None) -> None:
    words = image_words(locale) if locale else None
    with labels.speaking(words):
        legend = labels.AMBASSADOR_READY_LEGEND
    assert locale is None or legend != labels.ENGLISH["AMBASSADOR_READY_LEGEND"]
    for options, shown in ((Options(players=2), False), (Options(players=2, ambassador=True), True)):
        with fonts.recording() as drawn:
            render_table(engine.new_game(options, 3), NAMES, words=words)
        assert (legend in [d.text for d in drawn]) is shown
