"""A whole game in Portuguese through Discord, end to end (issue 18).

Ana's Discord speaks Brazilian Portuguese, Ben's English, and the server prefers Portuguese. They
play a whole game against a greedy AI seat through the offline harness, each typing moves in their
own notation. What Discord receives is checked after every action: each private reply is in its
reader's language, every public post in the server's, and every action is shown in the notation
of the language it is shown in. The synced commands carry their Portuguese names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from harness import DiscordHarness, FakeMember, MessageRecord
from test_bot_support import TOKEN, bot_factory, bot_of, final_reply, open_table

import engine
from bot.core.wording.locales import notation_in
from engine.policies import policy_by_name

PT, EN = "pt-BR", "en-US"
ENGLISH_WORDS = (" took ", " placed ", " completed ", "action(s) left", "Your turn is over", "it's your turn",
                 "Round ", " returned ", "Finishing Touches", "Game over", "Winner", "The mastermind")
PORTUGUESE_WORDS = (" pegou ", " colocou ", " completou ", "restantes", "Seu turno acabou", "é a sua vez",
                    "Rodada ", " devolveu ", "Ajustes Finais", "Fim de jogo", "Vencedor", "O Mentor")
MAX_ACTIONS = 600


def english_in(text: str) -> list[str]:
    return [word for word in ENGLISH_WORDS if word in text]


def portuguese_in(text: str) -> list[str]:
    return [word for word in PORTUGUESE_WORDS if word in text]


def synced_commands(h: DiscordHarness) -> list[dict[str, Any]]:
    puts = [c for c in h.calls if c.method == "PUT" and c.path.endswith("/commands")]
    assert puts, "the bot never synced its commands"
    return list(puts[-1].json)


def option(node: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in node["options"] if o["name"] == name)


class Table:
    """Plays the channel's game to the end: a greedy policy picks each human's move, which the
    human types with ``/projectl play act`` in their own notation."""

    def __init__(self, h: DiscordHarness, locales: dict[int, str]) -> None:
        self.h, self.locales = h, locales
        self.policy = policy_by_name("greedy", 5)
        self.users: dict[int, FakeMember] = {}
        self.public: list[MessageRecord] = []
        self.hinted: set[int] = set()
        self.replies = {PT: 0, EN: 0}

    async def game(self) -> Any:
        return await bot_of(self.h).manager.game_in_channel(self.h.channel("games").id)

    async def play(self) -> int:
        game = await self.game()
        game_id = game.id
        for _ in range(MAX_ACTIONS):
            game = await self.game()
            if game is None:
                break
            seat = game.current
            assert seat is not None and seat.user_id is not None, "the AI seat never waits"
            user, locale = self.users[seat.user_id], self.locales[seat.user_id]
            if seat.user_id not in self.hinted and game.state.phase.value == "play":
                await self.hint(user, locale)
            action = self.policy.choose(game.state)
            shown = notation_in(str(action), locale)
            posts = len(self.h.channel_messages("games"))
            ix = await self.h.slash(user, "games", "projectl play act", text=shown, locale=locale)
            self.check_reply(final_reply(ix), action, locale)
            new_posts = self.h.channel_messages("games")[posts:]
            for post in new_posts:
                self.check_public(post)
            if new_posts:  # the move that ended the turn, in the server's notation
                last = new_posts[-1].content or ""
                assert f"`{notation_in(str(action), PT)}`" in last, last
            self.public += new_posts
        finished = await bot_of(self.h).manager.game(game_id)
        assert finished is not None and finished.status == "finished"
        return game_id

    def check_reply(self, reply: Any, action: engine.Action, locale: str) -> None:
        content = reply.content or ""
        assert reply.ephemeral
        if locale == PT:
            assert content.startswith(f"Feito: `{notation_in(str(action), PT)}`"), content
            assert english_in(content) == [], content
        else:
            assert content.startswith(f"Done: `{action}`"), content
            assert portuguese_in(content) == [], content
        self.replies[locale] += 1

    def check_public(self, post: MessageRecord) -> None:
        content = post.content or ""
        assert not post.ephemeral
        assert english_in(content) == [], content
        assert portuguese_in(content), content
        for button in post.buttons:
            assert button.label in {"Jogar", "Meu tabuleiro", "My mat", "Revisão"}, button.label

    async def hint(self, user: FakeMember, locale: str) -> None:
        """The strong AI's hint, privately, in the asker's language and notation."""
        game = await self.game()
        reply = final_reply(await self.h.slash(user, "games", "projectl play hint", locale=locale))
        content = reply.content or ""
        opening = "Dica (só você vê isto; dicas usadas nesta partida: 1)" if locale == PT else \
            "Hint (only you see this; hints used this game: 1)"
        assert reply.ephemeral and content.startswith(opening), content
        suggested = content.split("**`", 1)[1].split("`**", 1)[0]
        action = engine.parse_action(suggested)  # the reader's notation parses back
        assert suggested == notation_in(str(action), locale)
        engine.apply(game.state.focused(game.current.seat), action)
        assert ("Plano para este turno" in content) == (locale == PT)
        self.hinted.add(user.id)


async def test_a_whole_game_in_portuguese_and_english(tmp_path: Path) -> None:
    async with DiscordHarness(bot_factory=bot_factory(tmp_path / "pt.sqlite3", seed=11), token=TOKEN,
                              trap_loggers=("discord", "bot"), settle_timeout=180.0) as h:
        commands = synced_commands(h)
        projectl = commands[0]
        play = option(projectl, "play")
        assert play["name_localizations"][PT] == "jogar"
        assert option(play, "act")["name_localizations"][PT] == "agir"
        assert option(play, "take")["name_localizations"][PT] == "pegar"
        assert option(projectl, "log")["name_localizations"][PT] == "registro"
        assert option(option(play, "act"), "text")["name_localizations"][PT] == "texto"

        h.set_preferred_locale(PT)  # Server Settings → Community: Portuguese
        ana, ben = h.add_user("ana"), h.add_user("ben")
        table = Table(h, {ana.id: PT, ben.id: EN})
        table.users = {ana.id: ana, ben.id: ben}
        await open_table(h, ana, [ben], players=3, ai=1, casual=True)  # casual: both ask for a hint
        game_id = await table.play()

        assert table.replies[PT] > 10 and table.replies[EN] > 10 and table.hinted == {ana.id, ben.id}
        everything = "\n".join(post.content or "" for post in table.public)
        assert "**IA Fácil 1**: `" in everything  # the AI seat's name and moves, in Portuguese
        assert "Easy AI" not in everything
        final = table.public[-1]
        assert "**Fim de jogo!** Vencedor" in (final.content or ""), final.content
        assert re.search(r"\(\d+ de \d+ quebra-cabeças?[,)]", final.content or ""), final.content
        assert [b.label for b in final.buttons] == ["Revisão"]

        # the log and the final summary, each in its reader's language and notation
        log_pt = final_reply(await h.slash(ana, "games", "projectl log", locale=PT))
        assert log_pt.ephemeral and log_pt.content.startswith("Só você vê isto")
        page, summary = log_pt.embeds
        assert page.title.startswith(f"Partida {game_id} — ações ") and summary.title.endswith("resumo final")
        assert "`pegar " in page.description or "`colocar " in page.description, page.description
        assert english_in(page.description or "") == [] and "`take " not in (page.description or "")
        assert "completou" in (summary.description or "")
        assert [b.label for b in log_pt.buttons] == ["◀ Anterior", "Próxima ▶"]
        earlier = final_reply(await h.click(ana, log_pt.message, log_pt.buttons[0].custom_id, locale=PT))
        assert earlier.embeds[0].title.startswith(f"Partida {game_id}")
        assert earlier.embeds[0].description != page.description
        log_en = final_reply(await h.slash(ben, "games", "projectl log", locale=EN))
        assert log_en.embeds[0].title.startswith(f"Game {game_id} — actions ")
        assert portuguese_in(log_en.embeds[0].description or "") == []
        assert [b.label for b in log_en.buttons] == ["◀ Prev", "Next ▶"]

        stats_pt = final_reply(await h.slash(ana, "games", "projectl stats", locale=PT))
        assert stats_pt.embeds[0].title == "Project L neste servidor — 1 partida(s) terminada(s)"
        assert "**ana**: partidas: 1" in (stats_pt.embeds[0].description or "")
        stats_en = final_reply(await h.slash(ben, "games", "projectl stats", locale=EN))
        assert stats_en.embeds[0].title == "Project L in this server — 1 finished game(s)"


async def test_a_solo_game_and_its_review_in_portuguese(tmp_path: Path) -> None:
    """Solo in a Portuguese server: the mastermind is *o Mentor* in every post, the results name its
    score, and the review behind the **Revisão** button reads in the clicker's language."""
    async with DiscordHarness(bot_factory=bot_factory(tmp_path / "solo.sqlite3", seed=3), token=TOKEN,
                              trap_loggers=("discord", "bot"), settle_timeout=180.0) as h:
        h.set_preferred_locale(PT)
        bia, eve = h.add_user("bia"), h.add_user("eve")
        await h.slash(bia, "games", "projectl table new", variant="solo", locale=PT)
        table = Table(h, {bia.id: PT})
        table.users = {bia.id: bia}
        table.hinted = {bia.id}  # no hint here: the review below is the strong AI's part
        game_id = await table.play()
        everything = "\n".join(post.content or "" for post in table.public)
        assert "O Mentor pegou " in everything and "The mastermind" not in everything
        final = table.public[-1]
        assert "\nO Mentor: " in (final.content or ""), final.content
        button = next(b for b in final.buttons if b.custom_id == f"pld:review:{game_id}")
        assert button.label == "Revisão"
        review = final_reply(await h.click(bia, final, button.custom_id, locale=PT))
        assert review.ephemeral and review.content.startswith(f"**Revisão da partida {game_id}**")
        assert "**bia**" in review.content and english_in(review.content) == []
        english_moves = ("`take ", "`place ", "`upgrade ", "`level1`", "`draw", "`master ", "`pass`")
        assert [move for move in english_moves if move in review.content] == [], review.content
        again = final_reply(await h.click(eve, final, button.custom_id, locale=EN))  # the same review, cached
        assert again.content.startswith(f"**Review of game {game_id}**")
        assert portuguese_in(again.content) == []
