"""``/projectl-server language:``: a server's admins choose the language of the bot's public posts
(turn posts, lobby, the table image); private replies and DMs keep following each player's own
Discord locale. Only a member who may manage the server can choose; the choice survives a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from harness import DiscordHarness, FakeMember, SchemaError
from test_bot_refusals import two_player_game
from test_bot_support import TOKEN, assert_refused, bot_factory, bot_of, final_reply, running_bot

from bot.core.wording.locales import public_locale
from bot.discord.cogs.server import FOLLOW, language_choices

COMMAND = "projectl-server"
GUILD = 4343


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "bot.sqlite3") as harness:
        yield harness


def server_admin(h: DiscordHarness, name: str = "ana") -> FakeMember:
    """A member whose role carries Manage Server (and nothing else a table needs)."""
    member = h.add_user(name)
    h.give_role(member, h.add_role("mods", permissions=discord.Permissions(manage_guild=True)))
    return member


async def end_turn(h: DiscordHarness, player: FakeMember) -> Any:
    """Three actions (the player's Discord is in English); the last reply, the turn post after."""
    for _ in range(3):
        ix = await h.slash(player, "games", "projectl play level1", locale="en-US")
    return final_reply(ix)


async def test_the_choices_are_english_every_catalogue_and_following_the_server() -> None:
    assert [(c.name, c.value) for c in language_choices()] == [
        ("English", "en-US"), ("Português (Brasil)", "pt-BR"),
        ("Follow the server's preferred locale", FOLLOW)]


async def test_public_posts_in_the_chosen_language_private_replies_in_the_players(h: DiscordHarness) -> None:
    """An English server set to pt-BR: the next turn post is Portuguese — its text and its table
    image — while the en-US player's own reply (and mat) stay English. Reset: English again."""
    current, other, _ = await two_player_game(h)
    admin = server_admin(h)
    ix = await h.slash(admin, "games", COMMAND, language="pt-BR")
    assert_refused(ix, "now in Português (Brasil)")  # private, in the admin's own (English) locale
    renderer = bot_of(h).renderer
    renderer.calls.clear()
    renderer.locales.clear()
    mine = await end_turn(h, current)
    assert mine.ephemeral and mine.content.startswith("Done: `level1`"), mine.content
    post = h.channel_messages("games")[-1]
    assert "é a sua vez (3 ações)" in post.content and "your turn" not in post.content, post.content
    seat = (await bot_of(h).manager.game_in_channel(h.channel("games").id)).seat_of(current.id).seat
    assert dict(zip(renderer.calls, renderer.locales, strict=True)) == {
        f"mat:{seat}": "en-US", "table": "pt-BR"}

    ix = await h.slash(admin, "games", COMMAND, language=FOLLOW, locale="pt-BR")
    assert_refused(ix, "voltam a seguir o idioma preferido", "English")  # the admin reads Portuguese
    await end_turn(h, other)
    post = h.channel_messages("games")[-1]
    assert "it's your turn (3 actions)" in post.content, post.content


async def test_english_chosen_on_a_portuguese_server(h: DiscordHarness) -> None:
    """The choice beats the server's preferred locale, whichever way round."""
    current, _, _ = await two_player_game(h)
    bot_of(h).get_guild(h.world.guild_id).preferred_locale = discord.Locale.brazil_portuguese
    await h.slash(server_admin(h), "games", COMMAND, language="en-US")
    await end_turn(h, current)
    assert "it's your turn (3 actions)" in h.channel_messages("games")[-1].content


async def test_only_a_server_manager_may_choose(h: DiscordHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord hides the command from members without Manage Server; if an admin grants it to
    them anyway (command permissions in the server's Integrations settings), the bot refuses,
    privately and in their language, changing nothing."""
    bob = h.add_user("bob")
    with pytest.raises(SchemaError, match="default_member_permissions"):
        await h.slash(bob, "games", COMMAND, language="pt-BR")
    monkeypatch.setattr(h.schema, "check_access", lambda *args: None)  # the command granted to all
    ix = await h.slash(bob, "games", COMMAND, language="pt-BR", locale="pt-BR")
    assert_refused(ix, "Gerenciar Servidor")
    ix = await h.slash(bob, "games", COMMAND)
    assert_refused(ix, "Manage Server")
    assert dict(bot_of(h).server_locales) == {}
    assert not h.channel_messages("games")


async def test_without_a_choice_it_says_what_public_posts_are_in(h: DiscordHarness) -> None:
    admin = server_admin(h)
    assert_refused(await h.slash(admin, "games", COMMAND), "follow its preferred locale: English")
    bot_of(h).get_guild(h.world.guild_id).preferred_locale = discord.Locale.french
    assert_refused(await h.slash(admin, "games", COMMAND), "preferred locale: English")  # no catalogue
    await h.slash(admin, "games", COMMAND, language="pt-BR")
    assert_refused(await h.slash(admin, "games", COMMAND), "in Português (Brasil), chosen")


def test_the_one_rule_for_a_public_post() -> None:
    """The chosen language first, then the server's preferred locale; an uncached server by the
    ids and locale an interaction carries."""
    class Guild:
        id, preferred_locale = 7, discord.Locale.american_english

    class Channel:
        guild = Guild()

    assert public_locale(Channel(), {}) == discord.Locale.american_english
    assert public_locale(Channel(), {7: "pt-BR", 8: "en-US"}) == "pt-BR"
    assert public_locale(None, {7: "pt-BR"}, guild_id=7, preferred="en-US") == "pt-BR"
    assert public_locale(None, {}, guild_id=7, preferred="en-US") == "en-US"
    assert public_locale(None, {7: "pt-BR"}) is None  # a DM: no server


async def test_the_choice_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"

    def harness() -> DiscordHarness:
        return DiscordHarness(bot_factory=bot_factory(db), token=TOKEN, guild_id=GUILD,
                              trap_loggers=("discord", "bot"))

    first = harness()
    admin = server_admin(first)
    async with first as h:
        await h.slash(admin, "games", COMMAND, language="pt-BR")
    second = harness()
    admin = server_admin(second)
    host = second.add_user("alice")
    async with second as h:
        assert dict(bot_of(h).server_locales) == {GUILD: "pt-BR"}
        assert_refused(await h.slash(admin, "games", COMMAND), "in Português (Brasil), chosen")
        ix = await h.slash(host, "games", "projectl table new", players=2)
        assert ix.original is not None and "mesa de" in (ix.original.content or ""), ix.original
