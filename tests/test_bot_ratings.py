"""/projectl-games leaderboard (paged, names escaped, pinging nobody), the lobby's rated switch,
and ratings in /projectl stats — through the harness, asserting on what Discord receives."""

from __future__ import annotations

from pathlib import Path

from days_support import CHANNEL, START, days_bot, game_of
from harness import DiscordHarness
from test_bot_support import assert_refused, final_reply
from test_hardening_mentions import sent_messages

from bot.core.clock import ManualClock
from bot.core.records import ratings
from bot.core.storage.hints import HintStore
from bot.core.storage.ratings import RatingStore
from engine.policies import policy_by_name


async def seed_ladder(h: DiscordHarness, players: int) -> None:
    """``players`` rated players on the server's ladder and the global one (test data)."""
    storage = h.bot.storage  # type: ignore[attr-defined]
    guild = h.world.guild_id

    def work(conn: object) -> None:
        for i in range(players):
            mu = 20.0 + i
            for ladder in (ratings.GLOBAL, ratings.server_ladder(guild)):
                conn.execute(  # type: ignore[attr-defined]
                    "INSERT INTO ratings (ladder, player, user_id, display_name, mu, sigma, ordinal, games,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, 2.0, ?, ?, 'now')",
                    (ladder, f"user:{1000 + i}", 1000 + i, f"**p{i}** <@1>", mu, mu - 6, 3 + i))

    await storage.write(work)


async def test_the_leaderboard_pages_escapes_names_and_pings_nobody(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        await seed_ladder(h, 12)
        ix = await h.slash(h.user("alice"), CHANNEL, "projectl-games leaderboard")
        reply = final_reply(ix)
        assert reply.ephemeral
        [page] = reply.embeds
        assert page.title == "Ratings — this server, multiplayer (page 1/2)"
        lines = page.description.split("\n\n")[0].splitlines()
        assert len(lines) == 10 and lines[0].startswith("`#1` **\\*\\*p11\\*\\*")
        assert "1,740" in lines[0] and "AI levels on the same scale: Random AI ≈" in page.description
        prev, following = reply.buttons
        assert prev.disabled and not following.disabled
        ix = await h.click(h.user("alice"), reply.message, following.custom_id)
        [second] = h.last_response(ix).embeds
        assert second.title.endswith("(page 2/2)")
        assert [line.split("**")[0] for line in second.description.split("\n\n")[0].splitlines()] == \
            ["`#11` ", "`#12` "]
        ix = await h.slash(h.user("alice"), CHANNEL, "projectl-games leaderboard", page=2, scope="all",
                           locale="pt-BR")
        [global_page] = final_reply(ix).embeds
        assert global_page.title == "Classificação — todos os servidores, multijogador (página 2/2)"
        assert "IA Forte ≈" in global_page.description
        for _, data in sent_messages(h):
            assert data.get("allowed_mentions", {}).get("parse") == []


async def test_the_host_makes_a_lobby_casual_and_the_game_is_recorded_unrated(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice, bob = h.user("alice"), h.user("bob")
        ix = await h.slash(alice, CHANNEL, "projectl table new")
        lobby = final_reply(ix).message
        assert lobby is not None and ", rated" in h.message(lobby.id).content  # the lobby says it
        assert_refused(await h.slash(bob, CHANNEL, "projectl-games rated", value=False), "Only the host")
        ix = await h.slash(alice, CHANNEL, "projectl-games rated", value=False)
        reply = final_reply(ix)
        assert not reply.ephemeral and "**casual**" in reply.content
        assert ", casual (not rated)" in h.message(lobby.id).content  # and its lobby shows it now
        game = await game_of(h)
        assert game.settings.rated is False
        manager = h.bot.manager  # type: ignore[attr-defined]
        await manager.join(game.channel_id, bob.id, "bob")
        await manager.start(game.channel_id, alice.id)
        late = assert_refused(await h.slash(alice, CHANNEL, "projectl-games rated", value=True),
                              "already started", "rated or casual")
        assert "join or leave" not in late  # it was the words for a late Join
        total, _ = await RatingStore(h.bot.storage).ladder(ratings.GLOBAL)  # type: ignore[attr-defined]
        assert total == 0


async def test_a_rated_table_refuses_hints_and_says_how_to_make_it_casual(tmp_path: Path) -> None:
    """A hint would make the game casual for everyone, so a losing player could void the result:
    a rated multiplayer table refuses it, in the player's language, and counts nothing."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice, bob = h.user("alice"), h.user("bob")
        lobby = final_reply(await h.slash(alice, CHANNEL, "projectl table new")).message
        assert lobby is not None and ", rated (no hints at a rated table)" in h.message(lobby.id).content
        game = await game_of(h)
        manager = h.bot.manager  # type: ignore[attr-defined]
        await manager.join(game.channel_id, bob.id, "bob")
        await manager.start(game.channel_id, alice.id)
        game = await game_of(h)
        mover = alice if game.current.user_id == alice.id else bob
        assert_refused(await h.slash(mover, CHANNEL, "projectl play hint"),
                       "No hints at a rated table", "`/projectl-games rated value:False`")
        assert_refused(await h.slash(mover, CHANNEL, "projectl play hint", locale="pt-BR"),
                       "Sem dicas numa mesa ranqueada", "`/projectl-games rated value:False`")
        assert await HintStore(h.bot.storage).hints_used(game.id) == {}  # type: ignore[attr-defined]
        assert (await game_of(h)).revision == game.revision


async def test_cancelling_a_started_game_asks_first_and_says_it_counts_as_a_loss(tmp_path: Path) -> None:
    """One typo must not end a game of several days: ``/projectl table cancel`` on a game in play
    asks privately, naming the consequence, with Cancel the game / Keep playing, only for the
    asker. Keep playing changes nothing; a click after the game moved on, or a second click, says
    so; the confirmed cancel is public, says it counted as the host's loss, and the leaderboard
    shows it."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice, bob = h.user("alice"), h.user("bob")
        await h.slash(alice, CHANNEL, "projectl table new", players=2)
        game = await game_of(h)
        manager = h.bot.manager  # type: ignore[attr-defined]
        await manager.join(game.channel_id, bob.id, "bob")
        await manager.start(game.channel_id, alice.id)
        game = await game_of(h)
        ask = final_reply(await h.slash(alice, CHANNEL, "projectl table cancel"))
        assert ask.ephemeral and ask.content == f"Cancel game {game.id}? It ends for everyone at the table."
        assert [b.label for b in ask.buttons] == ["Cancel the game", "Keep playing"]
        assert (await game_of(h)).status == "active"
        no = ask.buttons[1]  # only alice sees them (the answer is private; the button checks her id too)
        kept = h.last_response(await h.click(alice, ask.message, no.custom_id))
        assert kept.content == f"Game {game.id} goes on: nothing was cancelled."
        before_move = final_reply(await h.slash(alice, CHANNEL, "projectl table cancel"))
        action = policy_by_name("greedy", 1).choose(game.state)
        await manager.act(game.channel_id, game.current.user_id, action)
        late = h.last_response(await h.click(alice, before_move.message, before_move.buttons[0].custom_id))
        assert "has moved on since you asked: nothing was cancelled" in late.content
        assert (await game_of(h)).status == "active"
        old = final_reply(await h.slash(alice, CHANNEL, "projectl table cancel", locale="pt-BR"))
        assert old.content.startswith(f"Cancelar a partida {game.id}?")
        assert "conta como sua derrota" in old.content
        ask = final_reply(await h.slash(alice, CHANNEL, "projectl table cancel"))
        assert "as it is rated it counts as your loss" in ask.content
        ix = await h.click(alice, ask.message, ask.buttons[0].custom_id)
        notice = h.last_response(ix)
        assert not notice.ephemeral and "cancelled by alice" in notice.content
        assert "counts as alice's loss" in notice.content
        assert h.message(ask.message.id).content == f"Game {game.id} is cancelled."  # the question, answered
        again = h.last_response(await h.click(alice, old.message, old.buttons[0].custom_id))  # a second yes
        assert again.content == f"Game {game.id} is no longer running here: nothing was cancelled."
        board = final_reply(await h.slash(bob, CHANNEL, "projectl-games leaderboard")).embeds[0].description
        lines = board.split("\n\n")[0].splitlines()
        assert len(lines) == 1 and "alice" in lines[0]  # the canceller's loss; bob's rating does not move
