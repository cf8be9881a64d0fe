"""The table's own texts in two languages at one table: the lobby, ``status``, ``settings``, votes,
undo and the reminder DMs. Private replies follow each user's Discord locale, public posts the
server's preferred locale, and DMs the locale the player last used at the table (remembered in
``players.locale``), so a pt-BR player and an en-US player in the same game each read their own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import discord
from days_support import CHANNEL, START, current_user, days, days_bot, game_of, tick
from harness import DiscordHarness, FakeMember
from test_bot_support import assert_refused, bot_of, final_reply

from bot.core.clock import ManualClock
from bot.core.wording import texts
from bot.core.wording.locales import t

PLAYERS = ("ana", "bia", "bob", "cid")
LOCALE = {"ana": "pt-BR", "bia": "pt-BR", "bob": "en-US", "cid": "en-US"}
"""Each player's Discord language (ana hosts)."""


def speaks_portuguese(user: FakeMember) -> bool:
    return LOCALE[user.name] == "pt-BR"


def server_speaks(h: DiscordHarness, locale: discord.Locale) -> None:
    """The server's preferred locale, as a GUILD_UPDATE would set it in the bot's cache."""
    guild = bot_of(h).get_guild(h.world.guild_id)
    assert guild is not None
    guild.preferred_locale = locale


async def open_table(h: DiscordHarness, users: Sequence[str] = PLAYERS, **options: object) -> object:
    """``table new`` by the first user and Join by the others, each from their own client; returns
    the lobby message (not started)."""
    host, *others = (h.user(name) for name in users)
    ix = await h.slash(host, CHANNEL, "projectl table new", locale=LOCALE[host.name], **options)
    lobby = ix.original
    assert lobby is not None
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    for user in others:
        await h.click(user, lobby, f"pl:lobby:join:{game_id}", locale=LOCALE[user.name])
    return lobby


async def start(h: DiscordHarness, lobby: object, host_name: str = PLAYERS[0]) -> None:
    game_id = lobby.buttons[0].custom_id.split(":")[-1]  # type: ignore[attr-defined]
    host = h.user(host_name)
    await h.click(host, lobby, f"pl:lobby:start:{game_id}", locale=LOCALE[host.name])
    assert (await game_of(h)).status == "active"


async def test_the_lobby_follows_the_server_and_private_replies_the_user(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        ana, bob = h.user("ana"), h.user("bob")
        ix = await h.slash(ana, CHANNEL, "projectl table new", turn_limit_days=2, locale="pt-BR")
        lobby = ix.original
        assert lobby is not None
        # The server speaks English: the lobby everyone sees is English, buttons too ...
        assert lobby.content.startswith("**Project L — base game table**"), lobby.content
        assert "1. ana (host)" in lobby.content and "Turn clock: 2 days per turn." in lobby.content
        assert [b.label for b in lobby.buttons][:2] == ["Join", "Leave"]
        # ... and the host's private confirmation is in her language.
        confirmation = final_reply(ix)
        assert confirmation.ephemeral
        two_days = texts.TURN_CLOCK_DAYS.format(days=2)
        assert confirmation.content == t("TURN_LIMIT_SET", "pt-BR", limit=two_days)
        assert confirmation.content.startswith("Relógio do turno: 2 dias por turno.")
        # A status of the lobby is private: each reader's own language.
        pt = final_reply(await h.slash(ana, CHANNEL, "projectl status", locale="pt-BR"))
        assert pt.content.startswith("**Project L — mesa de jogo base**"), pt.content
        assert "1. ana (anfitrião)" in pt.content and "Relógio do turno: 2 dias por turno." in pt.content
        assert "penalidade por quebra-cabeças incompletos ligada" in pt.content
        en = final_reply(await h.slash(bob, CHANNEL, "projectl status", locale="en-US"))
        assert en.content == lobby.content
        # The server switches to Portuguese: the next refresh of the lobby (an English-speaking
        # player's click) is in Portuguese, buttons included; custom ids never change.
        server_speaks(h, discord.Locale.brazil_portuguese)
        ids = [b.custom_id for b in lobby.buttons]
        game_id = ids[0].split(":")[-1]
        await h.click(bob, lobby, f"pl:lobby:join:{game_id}", locale="en-US")
        assert lobby.content.startswith("**Project L — mesa de jogo base**"), lobby.content
        assert "2. bob" in lobby.content and "Aperte **Entrar**" in lobby.content
        assert [b.label for b in lobby.buttons] == [
            "Entrar", "Sair", "Adicionar IA Fácil", "Adicionar IA Média", "Adicionar IA Forte",
            "Adicionar IA Especialista", "Começar", "Cancelar"]
        assert [b.custom_id for b in lobby.buttons] == ids
        # A refusal from a lobby button is private: the clicker's language.
        assert_refused(await h.click(bob, lobby, f"pl:lobby:start:{game_id}", locale="en-US"),
                       "Only the host can start")
        await h.click(ana, lobby, f"pl:lobby:start:{game_id}", locale="pt-BR")
        assert lobby.content.startswith("A partida começou! Assentos: ana, bob."), lobby.content
        assert "Relógio do turno: 2 dias por turno: quando o tempo" in lobby.content


async def test_status_and_settings_in_each_users_language(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        await start(h, await open_table(h, turn_limit_days=1))
        game = await game_of(h)
        current = game.current
        assert current is not None
        ana, bob = h.user("ana"), h.user("bob")
        pt = final_reply(await h.slash(ana, CHANNEL, "projectl status", locale="pt-BR"))
        assert pt.content.startswith(f"Rodada 1 · em jogo · vez de {current.name} (ações restantes: 3)")
        assert f"Relógio do turno: 1 dia por turno · o tempo de {current.name} se esgota <t:" in pt.content
        en = final_reply(await h.slash(bob, CHANNEL, "projectl status", locale="en-US"))
        assert en.content.startswith(f"Round 1 · playing · {current.name} to play (3 action(s) left)")
        assert f"Turn clock: 1 day per turn · {current.name}'s time runs out <t:" in en.content
        assert pt.filenames == en.filenames == ["table.png"]

        pt = final_reply(await h.slash(ana, CHANNEL, "projectl settings", locale="pt-BR"))
        assert pt.content.startswith("**Suas preferências de lembrete** (todas as suas partidas):")
        assert "Lembretes: ligados · a cada 12 h" in pt.content and "Férias até: nenhuma" in pt.content
        en = final_reply(await h.slash(bob, CHANNEL, "projectl settings", locale="en-US"))
        assert en.content.startswith("**Your reminder settings**")
        assert "Reminders: on · every 12 h" in en.content
        saved = final_reply(await h.slash(ana, CHANNEL, "projectl settings", interval_hours=6,
                                          quiet_hours="off", locale="pt-BR"))
        assert saved.content.startswith("Salvo. **Suas preferências de lembrete**")
        assert "a cada 6 h" in saved.content and "Horas de silêncio: nenhuma (UTC)" in saved.content
        saved = final_reply(await h.slash(bob, CHANNEL, "projectl settings", reminders=False, locale="en-US"))
        assert saved.content.startswith("Saved. **Your reminder settings**")
        assert "Reminders: off" in saved.content
        assert_refused(await h.slash(ana, CHANNEL, "projectl settings", timezone="Marte/Olimpo",
                                     locale="pt-BR"), "não é um fuso horário que eu conheça")
        assert_refused(await h.slash(bob, CHANNEL, "projectl settings", timezone="Mars/Olympus",
                                     locale="en-US"), "is not a time zone I know")


async def test_votes_and_their_dms_in_each_players_language(tmp_path: Path) -> None:
    """The server speaks Portuguese: the time-is-up post and the vote's outcome are in Portuguese;
    each voter's private answer is in their own language, and the absent player's DMs in theirs."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        server_speaks(h, discord.Locale.brazil_portuguese)
        await start(h, await open_table(h, turn_limit_days=2))
        absent = await current_user(h)
        voters = [h.user(n) for n in PLAYERS if n != absent.name]
        clock.advance(days=2)
        assert await tick(h) >= 1
        post = next(m for m in reversed(h.channel_messages(CHANNEL)) if m.content.startswith("⏰"))
        assert f"⏰ O tempo de {absent.name} para este turno se esgotou (2 dias por turno)." in post.content
        assert "A maioria (2 de 3) decide" in post.content
        assert [b.label for b in post.buttons] == ["Votar: pular o turno", "Votar: remover o jogador"]
        timed_out_dm = h.dms_to(absent)[-1].content
        if speaks_portuguese(absent):
            assert timed_out_dm.startswith("⏰ Seu tempo para este turno em"), timed_out_dm
            assert "(2 dias por turno)" in timed_out_dm
        else:
            assert timed_out_dm.startswith("⏰ Your time for this turn in"), timed_out_dm
            assert "(2 days per turn)" in timed_out_dm
        first = next(v for v in voters if speaks_portuguese(v))
        second = next(v for v in voters if not speaks_portuguese(v))
        skip = post.buttons[0].custom_id
        reply = final_reply(await h.click(first, post, skip, locale="pt-BR"))
        assert reply.ephemeral and reply.content == (
            "Seu voto para pular o turno foi registrado: pular 1, remover 0; são necessários 2.")
        assert_refused(await h.slash(absent, CHANNEL, "projectl table vote", choice="skip",
                                     locale=LOCALE[absent.name]),
                       "próprio turno" if speaks_portuguese(absent) else "own turn")
        reply = final_reply(await h.slash(second, CHANNEL, "projectl table vote", choice="skip",
                                          locale="en-US"))
        assert reply.content == "Your vote to skip the turn is recorded: skip 2, remove 0; 2 needed."
        outcome = [m.content for m in h.channel_messages(CHANNEL)]
        assert f"A mesa votou para pular o turno de <@{absent.id}>." in outcome
        skipped_dm = h.dms_to(absent)[-1].content
        assert skipped_dm.startswith("A mesa em <#" if speaks_portuguese(absent) else "The table in <#")
        assert (await game_of(h)).current.user_id != absent.id


async def test_reminder_dms_in_each_players_language(tmp_path: Path) -> None:
    """Turn reminders are DMs: each in the language the player used at the table, while the
    server (and so the turn posts) speaks English."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        await start(h, await open_table(h, turn_limit_days=3))
        seen: set[str] = set()
        for _ in range(len(PLAYERS)):
            user = await current_user(h)
            clock.advance(minutes=1)
            assert await tick(h) == 1
            dm = h.dms_to(user)[-1].content
            if speaks_portuguese(user):
                assert dm.startswith("Sua vez em <#") and "rodada 1, 3 ações." in dm, dm
                assert "\nO relógio do turno da mesa se esgota <t:" in dm
            else:
                assert dm.startswith("Your turn in <#") and "round 1, 3 actions." in dm, dm
                assert "\nThe table's turn clock runs out <t:" in dm
            seen.add(LOCALE[user.name])
            for _ in range(3):
                await h.slash(user, CHANNEL, "projectl play level1", locale=LOCALE[user.name])
        assert seen == {"pt-BR", "en-US"}
        assert "it's your turn" in h.channel_messages(CHANNEL)[-1].content  # the server's English


async def test_undo_answers_privately_in_the_users_language_and_posts_in_the_servers(
        tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        server_speaks(h, discord.Locale.brazil_portuguese)
        await start(h, await open_table(h))
        seen: set[str] = set()
        while len(seen) < 2:
            user = await current_user(h)
            locale = LOCALE[user.name]
            await h.slash(user, CHANNEL, "projectl play level1", locale=locale)
            reply = final_reply(await h.slash(user, CHANNEL, "projectl play undo", locale=locale))
            if speaks_portuguese(user):
                assert reply.content.startswith("Desfeito: `nível1`. Ações restantes neste turno: 3.")
            else:
                assert reply.content.startswith("Took back `level1`. 3 action(s) left this turn.")
            public = h.channel_messages(CHANNEL)[-1].content
            assert public == f"↩️ {user.name} desfez a última ação (`nível1`)."  # the server's notation
            seen.add(locale)
            for _ in range(3):
                await h.slash(user, CHANNEL, "projectl play level1", locale=locale)


async def test_a_players_locale_is_remembered_for_dms(tmp_path: Path) -> None:
    """The locale of the latest table command is kept per player (``players.locale``); a command
    without one (an older row) keeps what was known."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        await open_table(h, ("ana", "bob"))
        store = days(h).store
        assert (await store.get_prefs(h.user("ana").id)).locale == "pt-BR"
        assert (await store.get_prefs(h.user("bob").id)).locale == "en-US"
        assert (await store.get_prefs(h.user("cid").id)).locale is None  # never seen: English
        await h.bot.storage.upsert_player(h.user("ana").id, "ana")  # type: ignore[attr-defined]
        assert (await store.get_prefs(h.user("ana").id)).locale == "pt-BR"
        await h.slash(h.user("ana"), CHANNEL, "projectl settings", reminders=True, locale="en-GB")
        assert (await store.get_prefs(h.user("ana").id)).locale == "en-GB"


async def test_an_action_confirmation_is_in_the_users_language(tmp_path: Path) -> None:
    """The private "Done" after an action is one message built from two sentences (what was done,
    actions left): both in the player's language."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        await start(h, await open_table(h, ("ana", "bob")))
        user = await current_user(h)
        pt = final_reply(await h.slash(user, CHANNEL, "projectl play level1", locale="pt-BR"))
        assert pt.content.startswith("Feito: `nível1`. Ações restantes neste turno: 2."), pt.content
        en = final_reply(await h.slash(user, CHANNEL, "projectl play level1", locale="en-US"))
        assert en.content.startswith("Done: `level1`. 1 action(s) left this turn."), en.content


def test_joined_is_the_english_join_and_translates_piece_by_piece() -> None:
    import pickle

    from bot.core.wording.locales import Joined, localise

    who = Joined([texts.STATUS_TO_PLAY.format(name="Ana", n=2),
                  texts.STATUS_TO_PLAY.format(name="Bob", n=3)], texts.STATUS_AND)
    line = texts.STATUS_HEADER.format(round=4, phase=texts.STATUS_PHASE["play"], current=who)
    message = Joined([line, "", "plain"], "\n")  # empty pieces are left out
    assert message == ("Round 4 · playing · Ana to play (2 action(s) left) and Bob to play "
                       "(3 action(s) left)\nplain")
    assert localise(message, "en-US") == message and localise(message, None) == message
    assert localise(message, "pt-BR") == (
        "Rodada 4 · em jogo · vez de Ana (ações restantes: 2) e vez de Bob "
        "(ações restantes: 3)\nplain")
    copy = pickle.loads(pickle.dumps(message))
    assert isinstance(copy, Joined) and localise(copy, "pt-BR") == localise(message, "pt-BR")


async def test_a_player_whose_language_is_not_known_gets_dms_in_the_servers(tmp_path: Path) -> None:
    """A player last seen before languages were remembered (``players.locale`` NULL, as after the
    migration) is DMed in the language of the server the game is played in."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, PLAYERS) as h:
        await start(h, await open_table(h, ("bob", "cid")), "bob")  # both en-US
        storage = h.bot.storage  # type: ignore[attr-defined]
        await storage.write(lambda conn: conn.execute("UPDATE players SET locale = NULL"))
        server_speaks(h, discord.Locale.brazil_portuguese)
        user = await current_user(h)
        clock.advance(minutes=1)
        assert await tick(h) == 1
        assert h.dms_to(user)[-1].content.startswith("Sua vez em <#"), h.dms_to(user)[-1].content
        assert await days(h).reminders.dm_locale(user.id) is None  # no game to go by: English
