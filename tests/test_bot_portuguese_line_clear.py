"""Issue 31, done-when: a 5-player Line Clear table with Ghost Piece and Finesse, played to its end
through the harness by Bia (her Discord speaks Brazilian Portuguese) and Ben (English) beside three
AI seats, shows Bia no English sentence.

The rule for a mixed table: what is shown to one player (an ephemeral reply, a panel, a DM) is in
that player's language (``interaction.locale``, or the remembered one for a DM); what everybody in
the channel sees (the lobby, turn posts, results) is in the server's language —
``bot.core.wording.locales.public_locale``, here the server's preferred locale, Portuguese. So everything
Bia receives — her DMs, her ephemeral replies and panels, and the public posts — is scanned: every
message's content, embed, component label, menu option and image description (alt text). Ben's
own private replies are checked to be English, so the scan is not passing because everything is
Portuguese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from days_support import days
from harness import DiscordHarness, FakeMember, MessageRecord
from test_bot_support import TOKEN, bot_factory, bot_of, final_reply

from bot.core.wording.locales import notation_in
from engine.policies import policy_by_name

PT, EN = "pt-BR", "en-US"
MAX_ACTIONS = 1500

ENGLISH = re.compile(
    r"\b(the|your|you|is|are|and|of|with|turn|turns|puzzles?|pieces?|has|have|for|player|players|"
    r"credits?|marker|took|placed|completed|round|game|left|it's|there|this|that|from|was|were|"
    r"to|on|at|by|its|their|waiting|choose|play|done|draw|take|upgrade|place|none|new|live|"
    r"tile|tiles|supply|reserve|points?|deck|row|actions?|up2?)\b",  # up2: a level-up's engine value
    re.IGNORECASE,
)
"""Common English words; a Portuguese sentence has none of them (the notation words are swapped
for Portuguese ones before anything is shown)."""
ALLOWED = re.compile(
    r"`[^`]*`"                      # code: notation (already in the reader's words), commands
    r"|<[@#][!&]?\d+>|<t:\d+(:\w)?>"  # mentions, channel links, timestamps
    r"|https?://\S+"                # jump links
    r"|\b[WB]\d{2}\b|\b[A-C]\d{1,2}\b"  # card and tile ids
    r"|\bProject L\b|\bFinesse\b"   # names of the game and the expansion, the same in Portuguese
)


def english_words(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words of ``text`` once code, mentions, ids and the players' names are set aside."""
    for name in names:
        text = text.replace(name, " ")
    return ENGLISH.findall(ALLOWED.sub(" ", text))


def test_the_detector_flags_english_and_passes_portuguese() -> None:
    assert english_words("It's your turn (3 actions).") != []
    assert english_words("Ana took puzzle W13 from the white row.") != []
    assert english_words("Not your turn: Lc1 and Lc3 are playing.") != []
    assert english_words("É a sua vez (3 ações). `pegar branco 1` · W13 branco · <@123>") == []
    assert english_words("Feito: `take white 1`. IA Fácil 1 pegou o quebra-cabeça B21 preto.") == []


def shown_texts(message: MessageRecord) -> Iterator[tuple[str, str]]:
    """(where, text) for everything a reader sees of ``message``, every edit included: content,
    embeds, button labels, menu placeholders and options, image descriptions."""
    payloads = [*getattr(message, "history", []), message.payload]
    for payload in payloads:
        yield "content", payload.get("content") or ""
        for embed in payload.get("embeds") or []:
            yield "embed title", embed.get("title") or ""
            yield "embed", embed.get("description") or ""
            yield "embed footer", (embed.get("footer") or {}).get("text") or ""
            yield "embed author", (embed.get("author") or {}).get("name") or ""
            for field in embed.get("fields") or []:
                yield "embed field", f"{field.get('name') or ''}: {field.get('value') or ''}"
        for attachment in payload.get("attachments") or []:
            yield "image description", attachment.get("description") or ""
        for row in payload.get("components") or []:
            for item in row.get("components") or [row]:
                yield "label", item.get("label") or ""
                yield "placeholder", item.get("placeholder") or ""
                for choice in item.get("options") or []:
                    yield "option", f"{choice.get('label') or ''} {choice.get('description') or ''}"


class Table:
    """Plays the channel's game to its end: a greedy policy picks each human holder's move, typed
    with ``/projectl play act`` in their own notation; Bia also opens her panel, mat and status."""

    def __init__(self, h: DiscordHarness, bia: FakeMember, ben: FakeMember) -> None:
        self.h, self.bia, self.ben = h, bia, ben
        self.locales = {bia.id: PT, ben.id: EN}
        self.users = {bia.id: bia, ben.id: ben}
        self.policy = policy_by_name("greedy", 5)
        self.ben_replies: list[str] = []
        self.looked = 0

    async def game(self) -> Any:
        return await bot_of(self.h).manager.game_in_channel(self.h.channel("games").id)

    async def look(self) -> None:
        """Bia's private views, now and then: the panel under the latest post, her mat, status."""
        h, bia = self.h, self.bia
        post = next((m for m in reversed(h.channel_messages("games"))
                     if any((b.custom_id or "").startswith("plp:play:") for b in m.buttons)), None)
        if post is not None:
            play = next(b for b in post.buttons if (b.custom_id or "").startswith("plp:play:"))
            await h.click(bia, post, play.custom_id, locale=PT)
        await h.slash(bia, "games", "projectl mat", locale=PT)
        await h.slash(bia, "games", "projectl status", locale=PT)
        bot_of(h).clock.advance(hours=3)  # long enough for her turn's DM and a nudge
        await days(h).reminders.tick()
        await h.settle()
        self.looked += 1

    async def play(self) -> int:
        game = await self.game()
        game_id = game.id
        turns = 0
        for _ in range(MAX_ACTIONS):
            game = await self.game()
            if game is None:
                break
            state = game.state
            humans = [s for s in state.acting_seats if game.seats[s].user_id is not None]
            assert humans, "the AI seats never wait"
            seat = humans[0]
            user_id = game.seats[seat].user_id
            user, locale = self.users[user_id], self.locales[user_id]
            if user_id == self.bia.id and turns % 7 == 0:
                await self.look()
            turns += 1
            focused = state.focused(seat)
            action = self.policy.choose(focused)
            ix = await self.h.slash(user, "games", "projectl play act", text=notation_in(str(action), locale),
                                    locale=locale)
            reply = final_reply(ix)
            if locale == EN:
                self.ben_replies.append(reply.content or "")
        finished = await bot_of(self.h).manager.game(game_id)
        assert finished is not None and finished.status == "finished", "the game did not end"
        return game_id


def bias_messages(h: DiscordHarness, bia: FakeMember) -> list[MessageRecord]:
    """Every message Bia can see: her DMs, what is ephemeral to her, and the public posts."""
    seen = []
    for message in h.world.messages.values():
        channel = h.world.channels[message.channel_id]
        if channel.is_dm:
            if channel.recipient_id == bia.id:
                seen.append(message)
        elif message.visible_to in (None, bia.id):
            seen.append(message)
    return seen


async def test_a_line_clear_game_with_ghost_and_finesse_shows_bia_no_english(tmp_path: Path) -> None:
    async with DiscordHarness(bot_factory=bot_factory(tmp_path / "lc-pt.sqlite3", seed=7), token=TOKEN,
                              trap_loggers=("discord", "bot"), settle_timeout=300.0) as h:
        h.set_preferred_locale(PT)  # a Brazilian server; Ben reads English
        bia, ben = h.add_user("bia"), h.add_user("ben")
        await h.slash(bia, "games", "projectl help", locale=PT)
        await h.slash(bia, "games", "projectl rules", topic="lineclear", locale=PT)
        opened = await h.slash(bia, "games", "projectl table new", players=5, expansions="finesse", locale=PT)
        lobby = opened.original
        assert lobby is not None
        game_id = lobby.buttons[0].custom_id.split(":")[-1]
        await h.click(ben, lobby, f"pl:lobby:join:{game_id}", locale=EN)
        for _ in range(3):
            await h.click(bia, lobby, f"pl:lobby:ai:{game_id}", locale=PT)
        await h.click(bia, lobby, f"pl:lobby:start:{game_id}", locale=PT)
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game.state.options.ghost and game.state.options.finesse and game.state.concurrent
        table = Table(h, bia, ben)
        await table.play()
        await h.slash(bia, "games", "projectl log", locale=PT)
        await h.slash(bia, "games", "projectl stats", locale=PT)

        names = tuple(s.name for s in game.seats) + ("bia", "ben")
        found: list[tuple[str, str, list[str]]] = []
        messages = bias_messages(h, bia)
        assert len(messages) > 30 and table.looked >= 2
        assert h.dms_to(bia), "Bia's reminders are part of what she reads"
        for message in messages:
            for where, text in shown_texts(message):
                words = english_words(text, names)
                if words:
                    found.append((where, text[:300], words))
        assert found == [], "\n".join(f"{w}: {t!r} {ws}" for w, t, ws in found[:30])
        # the check reads English where English is shown: Ben's own replies
        assert sum(bool(english_words(text)) for text in table.ben_replies) > len(table.ben_replies) // 2
