"""Words kept in storage (bot/core/wording/stored.py): read back, they show in every language
exactly as the words they were made from — the bot's sentences, the engine's refusals with their
fields (pieces, colours, a decision's prompt), actions in the reader's notation, players' names —
and the stored text is JSON, never a pickle."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_bot_engine_locales import _waiting_for_a_substitute

import engine
from bot.core.games import PlanOutcome
from bot.core.play import plans
from bot.core.wording import texts
from bot.core.wording.locales import Joined, Notation, PlayerName, Text, localise
from bot.core.wording.refusals import engine_text
from bot.core.wording.stored import dumps, loads
from engine import errors
from engine.pieces import Shape


def refusal(action: str, state: engine.GameState | None = None) -> Any:
    with pytest.raises(engine.IllegalActionError) as caught:
        if state is None:
            engine.parse_action(action)
        else:
            engine.apply(state, engine.parse_action(action))
    return engine_text(caught.value)


WORDS = {
    "a sentence": texts.PLAN_PAST_THE_TURN,
    "a sentence with a card": texts.PLAN_CARD_GONE.format(card="W11"),
    "a refusal": refusal("take white 9"),
    "a refusal naming a piece": engine_text(errors.PieceNotInSupplyError("supply.no_piece", piece=Shape.L3)),
    "a refusal naming a colour": engine_text(errors.EmptySlotError("draw.empty_deck",
                                                                   colour=engine.Colour.BLACK)),
    "a decision's refusal": refusal("level1", _waiting_for_a_substitute()),
    "a plan's outcome": plans.outcome_words(PlanOutcome(
        7, 1, 1001, ("level1",), ("take white 3", "level1"), texts.PLAN_CARD_GONE.format(card="W11"), 2)),
    "a name": texts.PLAN_STEP.format(n=1, action=Joined((PlayerName("**Ana**"), Notation("take white 2")),
                                                        " ")),
    "plain text": "just words",
}


@pytest.mark.parametrize("words", list(WORDS.values()), ids=list(WORDS))
def test_words_read_back_show_as_they_did_in_every_language(words: Any) -> None:
    kept = dumps(words)
    json.loads(kept)  # plain JSON
    again = loads(kept)
    assert again == words  # the same English
    for locale in (None, "en-US", "pt-BR"):
        assert localise(again, locale) == localise(words, locale)


def test_a_plans_outcome_reads_back_in_portuguese() -> None:
    again = loads(dumps(WORDS["a plan's outcome"]))
    assert "W11 branco não está mais onde o plano o pegaria." in localise(again, "pt-BR")
    assert "`pegar branco 3`" in localise(again, "pt-BR")


def test_a_sentence_this_bot_no_longer_has_is_shown_in_its_stored_english() -> None:
    gone = dumps(Text("NO_SUCH_SENTENCE", "Words of an older bot.", {"n": 2}))
    assert localise(loads(gone), "pt-BR") == "Words of an older bot."


def test_what_is_not_stored_words_is_refused() -> None:
    with pytest.raises(ValueError, match="not stored words"):
        loads('{"pickle": "…"}')


@pytest.mark.parametrize("fields", [{}, {"n": 2}, {"reason": "x"}],
                         ids=["none", "one missing", "another missing"])
def test_a_sentence_whose_fields_changed_since_is_shown_in_its_stored_english(fields: dict[str, Any]) -> None:
    """Kept by an older (or newer) bot whose sentence had other fields: the English it was
    stored with, never a KeyError where it is shown (a held DM, /projectl-plan show, the board)
    nor a template with its ``{field}`` left in."""
    kept = json.dumps({"text": "PLAN_STEP_REFUSED", "en": "Words of another bot.", "fields": fields})
    for locale in (None, "pt-BR"):
        assert localise(loads(kept), locale) == "Words of another bot."
    refusal = json.dumps({"text": "engine:supply.no_piece", "en": "Words of another engine.", "fields": {}})
    for locale in (None, "pt-BR"):
        assert localise(loads(refusal), locale) == "Words of another engine."


def test_words_a_later_bot_kept_in_a_shape_this_one_cannot_read_are_refused_as_unreadable() -> None:
    for kept in ('{"text": "PLAN_NONE", "en": "x"}', '{"joined": 3, "sep": ""}',
                 '{"enum": "Shape", "value": 99}', '{"text": "PLAN_NONE", "en": "x", "fields": []}',
                 "[1, {}]"):
        with pytest.raises(ValueError):
            loads(kept)
