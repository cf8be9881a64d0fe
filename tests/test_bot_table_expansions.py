"""``/projectl table new expansions:`` — Ambassador Pack, Phoenix, Finesse and the Finesse Ambassador
Pack in one text option (bot/core/play/expansions.py): the words in English and Portuguese, the
autocomplete's combinations in the asker's language, the engine's refusal of a Finesse Ambassador
Pack without Finesse, an unknown word refused privately, and the lobby naming what is on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused, final_reply

from bench.harnessed import running
from bot.core.errors import BadInputError
from bot.core.play import expansions
from bot.core.wording import texts
from engine.messages import MESSAGES


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "expansions.sqlite3") as harness:
        yield harness


def on(*flags: str) -> dict[str, bool]:
    return {flag: flag in flags for flag in expansions.EXPANSIONS}


@pytest.mark.parametrize(("typed", "locale", "flags"), [
    (None, None, ()),
    ("", None, ()),
    ("none", None, ()),
    ("finesse", None, ("finesse",)),
    ("ambassador,phoenix", None, ("ambassador", "phoenix")),
    ("Phoenix + Ambassador Pack", None, ("ambassador", "phoenix")),
    ("finesse, finesse ambassador pack", None, ("finesse", "finesse_ambassador")),
    ("finesse-ambassador;FINESSE", None, ("finesse", "finesse_ambassador")),
    ("Fênix + Pacote Embaixador", "pt-BR", ("ambassador", "phoenix")),
    ("fenix, finesse, pacote embaixador de finesse", "pt-BR", ("phoenix", "finesse", "finesse_ambassador")),
    ("ambassador,phoenix,finesse,finesse_ambassador", "pt-BR", expansions.EXPANSIONS),
])
def test_the_words_of_each_expansion(typed: str | None, locale: str | None, flags: tuple[str, ...]) -> None:
    assert expansions.parse(typed, locale) == on(*flags)


@pytest.mark.parametrize("typed", ["ghost", "finesse, phenix", "ambassador and phoenix", "x" * 6000])
def test_a_word_naming_no_expansion_is_refused_quoted(typed: str) -> None:
    with pytest.raises(BadInputError) as refused:
        expansions.parse(typed)
    message = str(refused.value.message)
    assert message.startswith("There is no expansion '") and "`finesse_ambassador`" in message
    assert len(message) < 400


def test_every_combination_the_rules_allow_is_suggested() -> None:
    combos = expansions.combinations()
    assert len(combos) == 11 == len(set(combos)) <= 25
    assert all("finesse" in combo for combo in combos if "finesse_ambassador" in combo)
    for combo in combos:  # each suggestion reads back as itself, in either language
        value = expansions.value_of(combo)
        assert expansions.parse(value) == on(*combo)
        assert expansions.parse(expansions.name_of(combo, "pt-BR"), "pt-BR") == on(*combo)
        assert expansions.parse(expansions.name_of(combo, None)) == on(*combo)


async def test_autocomplete_offers_the_combinations_in_the_askers_language(h: Any) -> None:
    alice = h.add_user("alice")
    everything = await h.autocomplete(alice, "games", "projectl table new", focused="expansions",
                                      expansions="")
    assert [c.value for c in everything] == [expansions.value_of(c) for c in expansions.combinations()]
    assert everything[0].name == "Ambassador Pack"
    phoenix = await h.autocomplete(alice, "games", "projectl table new", focused="expansions",
                                   expansions="fên", locale="pt-BR")
    assert phoenix and all("phoenix" in c.value.split(",") for c in phoenix)
    assert phoenix[0].name == "Fênix"
    assert "Pacote Embaixador + Fênix" in [c.name for c in phoenix]
    both = await h.autocomplete(alice, "games", "projectl table new", focused="expansions",
                                expansions="phoenix, finesse amb")
    assert [c.value for c in both] == ["phoenix,finesse,finesse_ambassador",
                                       "ambassador,phoenix,finesse,finesse_ambassador"]
    assert await h.autocomplete(alice, "games", "projectl table new", focused="expansions",
                                expansions="zzz") == []


async def test_the_lobby_names_each_expansion_on_in_the_servers_language(h: Any) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new", players=3,
                       expansions="Phoenix, ambassador, finesse, finesse ambassador")
    lobby = ix.original
    assert lobby is not None
    game = await h.bot.manager.game_in_channel(h.channel("games").id)
    rules = game.settings.rules
    assert (rules.ambassador, rules.phoenix, rules.finesse, rules.finesse_ambassador) == (True,) * 4
    content = lobby.content or ""
    for line in (texts.LOBBY_AMBASSADOR, texts.LOBBY_PHOENIX, texts.LOBBY_FINESSE,
                 texts.LOBBY_FINESSE_AMBASSADOR):
        assert str(line).lstrip(", ") in content, (line, content)
    assert content.index("Ambassador Pack on") < content.index("Phoenix on") \
        < content.index("Finesse expansion")


async def test_the_lobby_in_portuguese(h: Any) -> None:
    h.set_preferred_locale("pt-BR")  # a Brazilian server
    if True:
        bia = h.add_user("bia")
        ix = await h.slash(bia, "games", "projectl table new", players=2, expansions="fênix, embaixador",
                           locale="pt-BR")
        assert ix.original is not None
        content = ix.original.content or ""
        assert "Pacote Embaixador ligado" in content and "Fênix ligada" in content
        assert "Finesse" not in content


async def test_no_expansion_by_default_and_none_in_the_lobby(h: Any) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new", players=2)
    game = await h.bot.manager.game_in_channel(h.channel("games").id)
    rules = game.settings.rules
    assert not (rules.ambassador or rules.phoenix or rules.finesse or rules.finesse_ambassador)
    content = ix.original.content or ""
    assert "Ambassador" not in content and "Phoenix" not in content and "Finesse" not in content


async def test_refusals_are_private_and_write_nothing(h: Any) -> None:
    """An unknown word (quoted, in the asker's language) and the engine's own refusal of the
    Finesse Ambassador Pack without Finesse: answered privately at once, no table opened."""
    alice = h.add_user("alice")
    for typed, locale, fragment in (
            ("ghost", "en-US", "There is no expansion 'ghost'"),
            ("fênix, fantasma", "pt-BR", "Não há expansão 'fantasma'"),
            ("finesse_ambassador", "en-US", MESSAGES["setup.finesse_ambassador_needs_finesse"][:50]),
            ("pacote embaixador de finesse", "pt-BR", "O Pacote Embaixador de Finesse acrescenta")):
        ix = await h.slash(alice, "games", "projectl table new", expansions=typed, locale=locale)
        assert_refused(ix, fragment)
        assert ix.responses[0].callback_type == 4, typed
        assert await h.bot.manager.game_in_channel(h.channel("games").id) is None
    ix = await h.slash(alice, "games", "projectl table new", expansions="finesse, finesse_ambassador")
    assert not final_reply(ix).ephemeral
    assert await h.bot.manager.game_in_channel(h.channel("games").id) is not None
