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
from bot.core.wording.locales import catalogues, locales, localise
from bot.core.wording.refusals import engine_text
from engine import errors
from engine.messages import MESSAGES
from engine.pieces import Shape

OPTIONAL = {"article"}
"""English-only fields a translation may leave out: the a/an before a piece. (A decision's prompt
is not one: the bot words it in the reader's language, see bot/core/wording/locales ``_worded_fields``.)"""


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
    assert_refused(ix, "Você não tem o quebra-cabeça incompleto W01 branco. Seus quebra-cabeças: nenhum.")
    ix = await h.slash(current, "games", "projectl play act", text="encerrar turno", locale="pt-BR")
    assert_refused(ix, "Nesta mesa o turno acaba sozinho depois da última ação")
    after = await game_of(h)
    assert after.revision == before.revision


def _waiting_for_a_substitute() -> engine.GameState:
    """Seat 0 completed TO, whose T4 reward the reserve no longer has: it must choose I4 or O4."""
    from positions import at_turn_start, game, play, with_player, without_shapes

    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                        puzzles=[("TO", [("2", "A1 B1")]), "TD"])
    waiting = play(without_shapes(state, "T4", "L4", "S4"), "place 2 on TO at A2 B2")
    assert [d.options for d in waiting.pending] == [("I4", "O4")]
    return waiting


def test_the_first_choose_refusal_words_the_decision_in_the_readers_language() -> None:
    """The engine's English prompt stays the English sentence; a catalogue's reader gets the prompt
    the turn post gives (built from the decision's kind and about) and the options in its notation."""
    with pytest.raises(engine.IllegalActionError) as caught:
        engine.apply(_waiting_for_a_substitute(), engine.parse_action("level1"))
    text = engine_text(caught.value)
    assert text == ("First choose: the reserve has no T4 (T tetromino) left for your reward: pick "
                    "another piece. Write 'choose <option>' with one of I4, O4.")
    assert localise(text, "en-US") == str(text)
    assert localise(text, "pt-BR") == (
        "Primeiro escolha: a reserva não tem mais T4 (tetraminó T) para a sua recompensa: escolha "
        "outra peça. Escreva 'escolher <opção>' com uma de I4, O4.")
    from engine.expansions import level_up

    arrow = engine.IllegalActionError(  # a Ghost Piece level-up: its options in the reader's notation
        "choose.first", prompt="raise a piece", options=["L3 to O4", level_up.DECLINE],
        kind=level_up.KIND, about="arrow 1 of 1")
    assert str(arrow) == "First choose: raise a piece. Write 'choose <option>' with one of L3 to O4, decline."
    assert localise(engine_text(arrow), "pt-BR") == (
        "Primeiro escolha: Recompensa de subida de nível: suba uma peça do seu suprimento exatamente "
        "um nível (uma peça de nível 4 pode virar um fantasma), ou recuse. Escreva 'escolher <opção>' "
        "com uma de L3 para O4, recusar.")


async def test_an_action_typed_while_a_choice_waits_is_refused_in_the_users_language(
        h: DiscordHarness, tmp_path: Path) -> None:
    """Through Discord: the current player types an action while their substitute piece is still
    to choose; the refusal names the choice and its options in pt-BR, as before in en-US."""
    import sqlite3

    await two_player_game(h)
    table = await game_of(h)
    with sqlite3.connect(tmp_path / "bot.sqlite3") as raw:  # a rules-test position, on this table
        raw.execute("UPDATE games SET state = ?, revision = revision + 1 WHERE id = ?",
                    (engine.serialisation.dumps(_waiting_for_a_substitute()), table.id))
    before = await game_of(h)
    me = h.user(table.seats[0].user_id)
    ix = await h.slash(me, "games", "projectl play act", text="nível1", locale="pt-BR")
    assert_refused(ix, "Primeiro escolha: a reserva não tem mais T4 (tetraminó T) para a sua recompensa",
                   "'escolher <opção>' com uma de I4, O4.")
    ix = await h.slash(me, "games", "projectl play act", text="level1", locale="en-US")
    assert_refused(ix, "First choose: the reserve has no T4 (T tetromino) left for your reward: pick "
                       "another piece. Write 'choose <option>' with one of I4, O4.")
    after = await game_of(h)
    assert after.revision == before.revision and after.state == before.state
