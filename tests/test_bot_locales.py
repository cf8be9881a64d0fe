"""Playing in Portuguese through Discord: the Portuguese notation and row names are accepted by
the slash commands, and the game records the same (English) action as if typed in English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_refusals import game_of, two_player_game
from test_bot_support import assert_refused, open_table, running_bot

import engine
from bot.core.games import ai_kinds
from bot.core.wording import texts
from bot.core.wording.locales import Text, catalogues, english, locales, localise, t
from bot.core.wording.refusals import engine_text

TEXTS = Path(texts.__file__)
TRANSLATED_SECTIONS = ("refusals", "play", "help",
                       "the private turn panel (bot/discord/panel_views.py)",
                       "lobby", "status", "reminders and settings", "turn clock and votes",
                       "leaving and replacing", "undo", "server language (bot/discord/cogs/server.py)",
                       "names", "events (bot/core/wording/event_texts.py)",
                       "play, continued (bot/discord/cogs/play.py, bot/discord/views.py)",
                       "the record (bot/core/records/history.py)",
                       "hints and reviews (bot/discord/cogs/advice.py)",
                       "ratings, replays and recaps (bot/discord/cogs/ladder.py)")
"""Sections of bot/core/wording/texts.py every catalogue translates completely (the rest shows in English for
now; a section joins this list when its translations are in)."""


def sections() -> dict[str, list[str]]:
    """The keys of bot/core/wording/texts.py by its ``# -- section --`` headings."""
    import re

    found: dict[str, list[str]] = {}
    section = ""
    for line in TEXTS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"([A-Z][A-Z0-9_]*)\s*(:[^=]*)?=", line)
        if line.startswith("# -- "):
            section = line[5:].split(" -")[0].strip()
        elif match:
            value = getattr(texts, match[1])
            keys = [f"{match[1]}.{entry}" for entry in value] if isinstance(value, dict) else [match[1]]
            found.setdefault(section, []).extend(keys)
    return found


def fields_of(template: str) -> set[str]:
    import string

    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("locale", locales())
def test_every_catalogue_translates_its_sections_and_nothing_unused(locale: str) -> None:
    """Every sentence of the translated sections has an entry, every entry is a sentence of
    bot/core/wording/texts.py, and each fills in exactly the same fields as the English."""
    translated = catalogues()[locale]["texts"]
    for section in TRANSLATED_SECTIONS:
        missing = [key for key in sections()[section] if key not in translated]
        assert missing == [], f"{locale} lacks {section}: {missing}"
    for key, template in translated.items():
        source = english(key)
        assert isinstance(source, Text), f"{locale} translates {key}, which bot/core/wording/texts.py lacks"
        assert fields_of(template) == fields_of(source), key


def test_t_translates_fills_in_and_falls_back_to_english() -> None:
    assert t("NOT_YOUR_TURN", "pt-BR", name="Bia") == (
        "Não é a sua vez: Bia está jogando. Só o jogador da vez pode agir.")
    assert t("NOT_YOUR_TURN", "en-US", name="Bia") == texts.NOT_YOUR_TURN.format(name="Bia")
    assert t("NOT_YOUR_TURN", None, name="Bia") == texts.NOT_YOUR_TURN.format(name="Bia")
    assert t("GAME_OVER", "fr") == texts.GAME_OVER
    filled = texts.NOT_YOUR_TURN.format(name="Bia")
    assert filled == "It is not your turn: Bia is playing. Only the current player can act."
    assert isinstance(filled, Text) and filled.key == "NOT_YOUR_TURN"
    import pickle

    assert pickle.loads(pickle.dumps(filled)).fields == {"name": "Bia"}


def test_sentences_joined_with_plus_stay_translatable() -> None:
    """``+`` between sentences (the Finesse turn panel's header adds its credits line) keeps each
    sentence translatable, and still reads as the English join."""
    turn, over = texts.NOT_YOUR_TURN.format(name="Bia"), texts.GAME_OVER
    for joined, pieces in (
        (turn + " " + over, (turn, " ", over)),
        ("» " + turn, ("» ", turn)),
        (turn + over, (turn, over)),
    ):
        assert joined == "".join(pieces)
        assert localise(joined, "pt-BR") == "".join(str(localise(p, "pt-BR")) for p in pieces)
    assert localise(turn + over, "pt-BR").startswith("Não é a sua vez: Bia")


async def test_a_refusal_is_in_the_users_own_language(h: DiscordHarness) -> None:
    """Private replies follow the user's Discord locale (``interaction.locale``)."""
    current, other, eve = await two_player_game(h)
    before = await game_of(h)
    ix = await h.slash(other, "games", "projectl play level1", locale="pt-BR")
    assert_refused(ix, "Não é a sua vez", current.name)
    ix = await h.slash(eve, "games", "projectl play take", puzzle="branco 1", locale="pt-BR")
    assert_refused(ix, "Você não está jogando nesta partida", "/projectl estado")
    ix = await h.slash(other, "games", "projectl play level1", locale="en-US")
    assert_refused(ix, "It is not your turn", current.name)
    after = await game_of(h)
    assert after.revision == before.revision


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "bot.sqlite3") as harness:
        yield harness


@pytest.mark.parametrize(("command", "fields", "english"), [
    ("projectl play act", {"text": "nivel1"}, "level1"),
    ("projectl play act", {"text": "pegar preto 2"}, "take black 2"),
    ("projectl play take", {"puzzle": "branco 1"}, "take white 1"),
    ("projectl play take", {"puzzle": "preta 3"}, "take black 3"),
])
async def test_portuguese_words_play_the_english_action(h: DiscordHarness, command: str,
                                                        fields: dict[str, str], english: str) -> None:
    current, _other, _ = await two_player_game(h)
    before = await game_of(h)
    await h.slash(current, "games", command, **fields)
    after = await game_of(h)
    assert after.revision == before.revision + 1
    assert after.state == engine.apply(before.state, engine.parse_action(english)).state


async def test_the_turn_post_is_in_the_servers_language(h: DiscordHarness) -> None:
    """Public posts follow the server's preferred locale (``guild_locale``), whoever acted."""
    import discord
    from test_bot_support import bot_of

    current, other, _ = await two_player_game(h)
    guild = bot_of(h).get_guild(h.world.guild_id)
    guild.preferred_locale = discord.Locale.brazil_portuguese  # as a GUILD_UPDATE would set it
    for _ in range(3):
        await h.slash(current, "games", "projectl play level1", locale="en-US")
    post = h.channel_messages("games")[-1]
    assert "é a sua vez (3 ações)" in post.content, post.content
    assert "it's your turn" not in post.content


async def test_help_and_rules_in_the_users_language(h: DiscordHarness) -> None:
    from test_bot_support import final_reply, replies

    bia = h.add_user("bia")
    help_pt = replies(await h.slash(bia, "games", "projectl help", locale="pt-BR"))[0]
    assert help_pt.ephemeral and "Seu turno: 3 ações" in help_pt.content
    rules = final_reply(await h.slash(bia, "games", "projectl rules", topic="master", locale="pt-BR"))
    assert "**Ação de Mestre** (uma vez por turno)" in rules.content
    rules = final_reply(await h.slash(bia, "games", "projectl rules", topic="master", locale="en-GB"))
    assert rules.content == texts.RULES["master"]


async def test_the_turn_panel_is_in_the_users_language(h: DiscordHarness) -> None:
    """The private panel behind **Play**: its text, buttons and menus in the user's locale, its
    custom ids unchanged (the bot reads them back whatever the language)."""
    from test_bot_panel import turn_post
    from test_bot_support import final_reply

    current, _other, _ = await two_player_game(h)
    post = turn_post(h)
    play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
    ix = await h.click(current, post, play.custom_id, locale="pt-BR")
    panel = final_reply(ix)
    assert panel.ephemeral and "**Sua vez** · ações restantes: 3" in panel.content, panel.content
    labels = {b.label for b in panel.message.buttons}
    assert "Peça de nível 1" in labels, labels
    english = final_reply(await h.click(current, post, play.custom_id, locale="en-US"))
    assert "**Your turn**" in english.content
    assert {b.custom_id for b in english.message.buttons} == {b.custom_id for b in panel.message.buttons}


async def test_images_are_drawn_in_the_language_of_who_sees_them(h: DiscordHarness) -> None:
    """The table posted in the channel is labelled in the server's language; the mat attached to
    a private reply, the preview and `/projectl status` (only you see it) in the reader's own."""
    import discord
    from test_bot_support import bot_of

    current, other, _ = await two_player_game(h)
    bot = bot_of(h)
    bot.get_guild(h.world.guild_id).preferred_locale = discord.Locale.brazil_portuguese
    renderer = bot.renderer
    renderer.calls.clear()
    renderer.locales.clear()
    for _ in range(3):  # the third action ends the turn: the actor's mat, then the table post
        await h.slash(current, "games", "projectl play level1", locale="en-US")
    drawn = dict(zip(renderer.calls, renderer.locales, strict=True))
    seat = (await game_of(h)).seat_of(current.id).seat
    assert drawn == {f"mat:{seat}": "en-US", "table": "pt-BR"}, drawn
    renderer.calls.clear()
    renderer.locales.clear()
    await h.slash(other, "games", "projectl status", locale="pt-BR")
    await h.slash(current, "games", "projectl status", locale="en-GB")
    shown = list(zip(renderer.calls, renderer.locales, strict=True))
    assert shown == [("table", "pt-BR"), ("table", "en-GB")]


@pytest.mark.parametrize("locale", locales())
def test_every_sentence_of_texts_py_is_translated(locale: str) -> None:
    """Issue 18: every English sentence, whatever its section, has an entry in every catalogue
    (the test above checks that no entry is unused and that each keeps the English fields)."""
    translated = catalogues()[locale]["texts"]
    every = {value.key for value in vars(texts).values() if isinstance(value, Text)}
    every |= {entry.key for value in vars(texts).values() if isinstance(value, dict)
              for entry in value.values() if isinstance(entry, Text)}
    assert every == {key for keys in sections().values() for key in keys}
    assert sorted(key for key in every if key not in translated) == []


def test_the_portuguese_wording_has_no_european_forms_parenthesised_plurals_or_tiles_called_pieces() -> None:
    """Issue 31 item 14: Brazilian wording, proper plurals, Finesse tiles never read as a *peça*."""
    text = (Path(__file__).parent.parent / "bot/core/wording/locales/pt-BR.json").read_text(encoding="utf-8")
    for wrong in ("jogada(s)", "A concluir", "mudou desde o último turno postado", "ter cada", "ter tipo",
                  "requinte", "Requinte", "ação(ões)", "restante(s)", "crédito(s)"):
        assert wrong not in text, wrong
    catalogue = json.loads(text)
    assert catalogue["images"]["finishing_part"] == {"one": "-{n} ajuste final",
                                                     "other": "-{n} ajustes finais"}
    assert catalogue["texts"]["ANY_PUZZLE"] == "qualquer quebra-cabeça"


def test_the_ai_kinds_are_named_in_the_readers_language_beside_the_keyword_one_types() -> None:
    assert localise(ai_kinds(), "pt-BR") == (
        "`greedy` (Fácil), `medium` (Média), `ladder_strong` (Forte), `expert` (Especialista), "
        "`random` (Aleatória)")
    assert localise(ai_kinds(), None) == (
        "`greedy` (Easy), `medium` (Medium), `ladder_strong` (Strong), `expert` (Expert), "
        "`random` (Random)")


async def test_the_start_post_names_ai_seats_in_the_servers_language(h: DiscordHarness) -> None:
    """Issue 31, item 13: the lobby's "The game has started! Seats: …" lists AI seats by their names
    in the reader's language (stored in English, ``Easy AI 1``, shown ``IA Fácil 1``)."""
    h.set_preferred_locale("pt-BR")
    ana = h.add_user("ana")
    lobby = await open_table(h, ana, [], ai=1, players=2)
    shown = h.message(lobby.id).content
    assert "IA Fácil 1" in shown and "ana" in shown, shown
    assert "Easy" not in shown and "Seats" not in shown, shown


def test_a_card_id_names_its_colour_in_words_for_a_portuguese_reader() -> None:
    """Issue 31, item 14: wherever a pt-BR reader sees a card id (a sentence's field, a list of them,
    an engine refusal), its colour is named too — a Brazilian reads B as *branco* — while the id
    itself is the one spelling every language types; English shows the bare id."""
    took = texts.EVENT_TOOK_ROW.format(name="Ana", card="B21", colour=texts.COLOURS["black"])
    assert localise(took, "pt-BR") == "Ana pegou o quebra-cabeça B21 preto da linha preta."
    assert localise(took, "en-US") == "Ana took puzzle B21 from the black row."
    mine = texts.NOT_YOUR_PUZZLE.format(card="W13", yours="B02, W07")
    assert localise(mine, "pt-BR") == ("Você não tem o quebra-cabeça incompleto W13 branco. "
                                       "Seus quebra-cabeças: B02 preto, W07 branco.")
    refusal = engine_text(engine.IllegalActionError("place.no_such_puzzle", card="W01", puzzles="B03"))
    assert "W01 branco" in localise(refusal, "pt-BR") and "B03 preto" in localise(refusal, "pt-BR")
    assert "branco" not in localise(refusal, "en-US")
    assert "12 quebra-cabeças" in localise(texts.EVENT_WHITE_RENEWED.format(cards=12), "pt-BR")  # a count
