"""The engine's refusals in the reader's language: every catalogue translates every engine message
key (its ``engine`` section) and nothing else, with the English one's fields; a pt-BR player gets
a rule or notation refusal in Portuguese, an en-US player in the engine's English."""

from __future__ import annotations

import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_refusals import game_of, two_player_game
from test_bot_support import assert_refused, running_bot

import engine
from bot.locales import catalogues, engine_text, locales, localise
from engine import errors
from engine.messages import MESSAGES
from engine.pieces import Shape

OPTIONAL = {"article", "prompt"}
"""English-only fields a translation may leave out: the a/an before a piece, and a decision's
English prompt (its options are listed either way)."""


def fields_of(template: Any) -> set[str]:
    if isinstance(template, Mapping):
        return set().union(*(fields_of(form) for form in template.values()))
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("locale", locales())
def test_every_catalogue_translates_every_engine_message_and_nothing_unused(locale: str) -> None:
    messages = catalogues()[locale]["engine"]["messages"]
    assert sorted(set(MESSAGES) - set(messages)) == [], f"{locale} lacks engine messages"
    assert sorted(set(messages) - set(MESSAGES)) == [], f"{locale} has unused engine messages"
    for key, english in MESSAGES.items():
        translated = messages[key]
        if isinstance(translated, Mapping):
            assert set(translated) == {"one", "other"} and "n" in fields_of(english), key
        assert fields_of(translated) <= fields_of(english), key
        assert fields_of(english) - fields_of(translated) <= OPTIONAL, key


def test_a_refusal_reads_in_the_readers_language() -> None:
    with pytest.raises(engine.IllegalActionError) as caught:
        engine.parse_action("take white 9")
    text = engine_text(caught.value)
    assert text == "'9' is not a position: use a number from 1 to 4."  # it is the English
    assert localise(text, "pt-BR") == "'9' não é uma posição: use um número de 1 a 4."
    assert localise(text, "en-GB") == str(text) and localise(text, None) == str(text)


def test_fields_are_translated_too() -> None:
    """A piece by the name the images give it, a row's colour through the ``words`` table."""
    supply = errors.PieceNotInSupplyError("supply.no_piece", piece=Shape.L3)
    assert localise(engine_text(supply), "pt-BR") == "Seu suprimento não tem a peça L3 (triminó em L)."
    deck = errors.EmptySlotError("draw.empty_deck", colour=engine.Colour.BLACK)
    assert str(deck) == "The black deck is empty."
    assert localise(engine_text(deck), "pt-BR") == "A pilha de quebra-cabeças pretos está vazia."
    early = engine.IllegalActionError("game.end_turn_early", n=1)
    assert localise(engine_text(early), "pt-BR").startswith("Você ainda tem 1 ação neste turno")


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "bot.sqlite3") as harness:
        yield harness


async def test_engine_refusals_through_discord_follow_the_users_locale(h: DiscordHarness) -> None:
    """The same refused moves, typed by the current player: Portuguese for pt-BR, English for
    en-US; nothing changes either way."""
    current, _other, _ = await two_player_game(h)
    before = await game_of(h)
    ix = await h.slash(current, "games", "projectl play act", text="pegar branco 9", locale="pt-BR")
    assert_refused(ix, "não é uma posição: use um número de 1 a 4")
    ix = await h.slash(current, "games", "projectl play act", text="take white 9", locale="en-US")
    assert_refused(ix, "is not a position: use a number from 1 to 4")
    ix = await h.slash(current, "games", "projectl play act", text="colocar L3 em W01 nas A1 A2 B2",
                       locale="pt-BR")
    assert_refused(ix, "Você não tem o quebra-cabeça incompleto W01. Seus quebra-cabeças: nenhum.")
    ix = await h.slash(current, "games", "projectl play act", text="encerrar turno", locale="pt-BR")
    assert_refused(ix, "Você ainda tem 3 ações neste turno")
    after = await game_of(h)
    assert after.revision == before.revision
