"""Every screen of an all-Portuguese table, scanned for English (issue 46, item 7).

A server whose language is Brazilian Portuguese, and players whose Discord speaks it. Two tables:
the first is put in a position where every panel screen applies (the Master, the Ambassador action,
the placement previews, upgrade, recycle, the typed placement menu and Master draft), looked at and
cancelled; the second is played to its end by ``/projectl play act`` in Portuguese notation, with
every look-up command on the way and every record after it (log, stats, leaderboard, replay,
recap, review, describe, catch-up, help, rules). Then everything Discord received — each message,
edit, embed, component label, menu option, autocomplete choice and image alt text — is scanned for
English: a sentence of bot/core/wording/texts.py whose Portuguese differs, found verbatim, or a
common English word. Nothing is exempt but names and the commands' own (synced) strings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from harness import Call, DiscordHarness, FakeMember
from positions import at_turn_start, with_cards, with_player
from test_bot_ambassador import AMB, AMB2, put, with_ambassadors
from test_bot_panel import Player, step_of, turn_post
from test_bot_support import (
    TOKEN,
    FakeRenderer,
    bot_factory,
    bot_of,
    cancel_table,
    final_reply,
    open_table,
    tiny_png,
)

from bot.core.wording import texts
from bot.core.wording.locales import catalogues, english, notation_in
from engine import GameState, Options, new_game
from engine.policies import policy_by_name

PT = "pt-BR"
MAX_ACTIONS = 600

COMMON_ENGLISH = (
    "the", "your", "you", "is", "are", "was", "with", "this", "that", "which", "nothing", "turn",
    "round", "piece", "pieces", "puzzle", "puzzles", "game", "games", "player", "players", "points",
    "left", "only", "for", "from", "and", "of", "to", "on", "at", "ratings", "rating", "step", "cells",
    "empty", "row", "deck", "cards", "card", "reward", "white", "black", "take", "place", "draw",
    "upgrade", "done", "pass", "back", "confirm", "choose", "start", "over", "won", "by", "so", "far",
    "yet", "chosen", "page", "next", "prev", "first", "last", "jump", "server", "supply", "reserve",
    "level", "none", "what", "who", "where", "when", "how", "why", "it", "its", "has", "have",
    "not", "will", "be", "been", "here", "there", "now", "after", "before", "until", "each",
    "every", "all", "one", "two", "three", "four", "hint", "plan", "winner", "score", "scores",
    "mat", "table", "status", "log", "help", "rules", "recap", "review", "replay", "leaderboard",
)
"""Words a Portuguese reader should never meet in the bot's own text."""
ALLOWED = ("Project L",)
"""Proper names that stay in English in every language."""

_WORD = re.compile(r"[A-Za-zÀ-ÿ_-]+")
_FIELD = re.compile(r"\{[^{}]*\}")
_CODE = re.compile(r"<[@#&!:][^>]*>")


# -- what Discord received ----------------------------------------------------------------------


def _strings(node: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every text a reader sees in a message-like payload, with where it sits."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key in ("custom_id", "url", "proxy_url", "filename", "id", "value", "type", "style",
                       "content_type", "allowed_mentions", "message_reference", "attachments_ids"):
                if key == "value" and isinstance(value, str) and "fields" in where:
                    yield f"{where}.value", value  # an embed field's value is shown
                continue
            yield from _strings(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _strings(item, f"{where}[{index}]")
    elif isinstance(node, str) and node.strip():
        yield where, node


def received(calls: list[Call]) -> list[tuple[str, str]]:
    """What a reader saw: each sent or edited message's texts, and each autocomplete's choices'
    names (the synced command list, Discord's own, is left out)."""
    seen: list[tuple[str, str]] = []
    for call in calls:
        if call.method == "PUT" and call.path.endswith("/commands"):
            continue
        body = call.json
        if isinstance(body, str):
            try:
                body = json.loads(body)
            except ValueError:
                continue
        if not isinstance(body, Mapping):
            continue
        data = body.get("data") if "type" in body and "data" in body else body
        if isinstance(body.get("data"), Mapping) and "choices" in body["data"]:
            seen += [(f"{call.path} choice", str(c.get("name", ""))) for c in body["data"]["choices"]]
            continue
        seen += [(f"{call.method} {call.path}{where}", text) for where, text in _strings(data, "")]
    return seen


def images_without_alt(calls: list[Call]) -> list[str]:
    """Each image sent (an attachment of a message or an edit) whose alt text is missing."""
    missing: list[str] = []
    for call in calls:
        body = call.json if isinstance(call.json, Mapping) else {}
        data = body.get("data") if isinstance(body.get("data"), Mapping) else body
        for attachment in data.get("attachments") or []:
            if "filename" in attachment and not attachment.get("description"):
                missing.append(f"{call.method} {call.path}: {attachment['filename']}")
    return missing


# -- what counts as English ---------------------------------------------------------------------


def english_fragments() -> list[str]:
    """Each stretch of English text between fields of a sentence of texts.py that Portuguese says
    differently: at least two words and ten characters, and not itself part of the Portuguese."""
    portuguese = catalogues()[PT]["texts"]
    everything_pt = "\n".join(portuguese.values())
    found: set[str] = set()
    for key, translated in portuguese.items():
        source = english(key)
        if source is None or str(source) == translated:
            continue
        for stretch in _FIELD.split(str(source)):
            for piece in re.split(r"[\n*`()\[\]:;·—|]+", stretch):
                piece = piece.strip(" .,!?'\"-")
                if len(piece) >= 10 and len(piece.split()) >= 2 and piece not in everything_pt:
                    found.add(piece)
    return sorted(found, key=len, reverse=True)


def english_in(text: str, fragments: list[str], names: set[str]) -> list[str]:
    """The English ``text`` holds: catalogue stretches verbatim, then common English words
    (names, Discord mentions and the allowed proper names taken out first)."""
    plain = _CODE.sub(" ", text)
    for allowed in (*ALLOWED, *names):
        plain = plain.replace(allowed, " ")
    hits = [fragment for fragment in fragments if fragment in plain]
    words = {word.lower() for word in _WORD.findall(plain)}
    hits += [word for word in COMMON_ENGLISH if word in words]
    return hits


# -- the tables ---------------------------------------------------------------------------------


class RecapRenderer(FakeRenderer):
    """The stand-in renderer, with the recap the end of a game posts."""

    async def recap(self, states: Any, names: Any, scores: Any, frame: Any, *, locale: Any = None) -> bytes:
        self._called("recap", locale)
        return tiny_png(5, 2)


class Portuguese(Player):
    """A player whose Discord speaks Brazilian Portuguese, tapping their panel."""

    async def play(self, post: Any) -> Any:
        self.taps += 1
        button = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
        ix = await self.h.click(self.user, post, button.custom_id, locale=PT)
        self.panel = final_reply(ix).message
        return ix

    async def tap(self, step: str) -> Any:
        assert self.panel is not None
        return self._follow(await self.h.click(self.user, self.h.message(self.panel.id),
                                               self.component(step).custom_id, locale=PT))

    async def choose(self, step: str, value: str | None = None) -> Any:
        assert self.panel is not None
        select = self.component(step)
        chosen = value if value is not None else select.options[0].value
        return self._follow(await self.h.select(self.user, self.h.message(self.panel.id), select.custom_id,
                                                [chosen], locale=PT))

    async def confirm(self) -> Any:
        assert self.panel is not None
        message = self.h.message(self.panel.id)
        button = next(b for b in message.buttons if b.custom_id.startswith("pl:do:"))
        return self._follow(await self.h.click(self.user, message, button.custom_id, locale=PT))


def every_screen_position() -> GameState:
    """Seat 0's turn at a table with the Ghost Piece, Finesse and the Ambassador Pack: two ready
    Ambassador cards, two puzzles a domino fits, and a ghost piece to split."""
    state = new_game(Options.for_players(2, ghost=True, finesse=True, ambassador=True), 1)
    state = at_turn_start(with_cards(state, [AMB, AMB2]), 0)
    state = with_player(state, 0, supply="1 2 I3 L3 O4 P5", puzzles=["TM", "TD"], completed=["TA", "TA2"])
    return with_ambassadors(state, 0, ["TA", "TA2"])


async def panel_screens(h: DiscordHarness, db: Path, ana: FakeMember, bia: FakeMember) -> None:
    """A table put where every panel screen applies: each one opened, in Portuguese; then cancelled."""
    await open_table(h, ana, [bia], players=2, expansions="ambassador, finesse", ghost=True)
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None
    put(db, game, every_screen_position())
    me = Portuguese(h, h.user(game.seats[0].user_id))  # type: ignore[arg-type]
    await me.play(turn_post(h))
    for screen in ("ms", "as"):  # the Master and the Ambassador action: puzzle, piece, spot, preview
        await me.tap(screen)
        multi = "m" if screen == "ms" else "a"
        await me.choose(f"{multi}c", "TD")
        await me.choose(f"{multi}p", "2")
        await me.choose(f"{multi}a")
        await me.tap("main")
    await me.choose("place", "2")  # a piece that fits two puzzles: which puzzle, where, the preview
    if me.has("puz"):
        await me.choose("puz")
    await me.choose("at")
    assert "preview.png" in h.message(me.panel.id).filenames  # type: ignore[union-attr]
    await me.tap("main")
    await me.choose("give")
    await me.tap("main")
    if me.has("rec"):
        await me.tap("rec")
    menu = final_reply(await h.slash(me.user, "games", "projectl play place", piece="2", puzzle="TD",
                                     locale=PT))
    await h.select(me.user, menu.message, menu.selects[0].custom_id, [menu.selects[0].options[0].value],
                   locale=PT)  # the typed placement's menu, then its preview
    for user, command, options in (
        (me.user, "projectl play ghost", {"split": "P5 to 1 O4"}),
        (me.user, "projectl play master-add", {"piece": "1", "puzzle": "TM", "cells": "A1"}),
        (me.user, "projectl play master-clear", {}),
        (me.user, "projectl play act", {"text": "colocar L3 em TM nas A1"}),  # refused by the engine
        (me.user, "projectl play act", {"text": "embaixador 1 em TM nas A1"}),
        (bia, "projectl play level1", {}),  # not bia's turn
    ):
        await h.slash(user, "games", command, locale=PT, **options)
    await cancel_table(h, ana, "games", locale=PT)


async def whole_game(h: DiscordHarness, users: dict[int, FakeMember]) -> int:
    """The channel's game played to its end, each move typed in Portuguese notation, looking at
    the table on the way."""
    policy = policy_by_name("greedy", 5)
    manager = bot_of(h).manager
    game = await manager.game_in_channel(h.channel("games").id)
    assert game is not None
    game_id, looked = game.id, False
    for _ in range(MAX_ACTIONS):
        game = await manager.game_in_channel(h.channel("games").id)
        if game is None:
            break
        seat = game.current
        assert seat is not None and seat.user_id is not None
        user = users[seat.user_id]
        if not looked and game.state is not None and game.state.round >= 2:
            looked = True
            for command, options in (("projectl play hint", {}), ("projectl status", {}),
                                     ("projectl mat", {}), ("projectl log", {}), ("projectl stats", {}),
                                     ("projectl-describe", {}), ("projectl-describe", {"view": "me"}),
                                     ("projectl-catchup", {}), ("projectl settings", {})):
                await h.slash(user, "games", command, locale=PT, **options)
            me = Portuguese(h, user)
            await me.play(turn_post(h))
        action = policy.choose(game.state)
        await h.slash(user, "games", "projectl play act", text=notation_in(str(action), PT), locale=PT)
    return game_id


async def records(h: DiscordHarness, ana: FakeMember, game_id: int) -> None:
    """Every look at the finished game, and every button under it."""
    for command, options in (("projectl log", {}), ("projectl stats", {}), ("projectl help", {}),
                             ("projectl-games leaderboard", {}), ("projectl-games replay", {}),
                             ("projectl-games recap", {}), ("projectl review", {}),
                             ("projectl-describe", {}), ("projectl rules", {})):
        ix = await h.slash(ana, "games", command, locale=PT, **options)
        reply = final_reply(ix)
        for button in reply.buttons:
            if not button.disabled and button.custom_id:
                await h.click(ana, reply.message, button.custom_id, locale=PT)
        for select in reply.selects:
            await h.select(ana, reply.message, select.custom_id, [select.options[-1].value], locale=PT)
    for topic in texts.RULES:
        await h.slash(ana, "games", "projectl rules", topic=topic, locale=PT)
    await h.autocomplete(ana, "games", "projectl-games replay", focused="game", game="", locale=PT)
    await h.autocomplete(ana, "games", "projectl rules", focused="topic", topic="", locale=PT)


async def test_an_all_portuguese_table_shows_no_english(tmp_path: Path) -> None:
    db = tmp_path / "pt.sqlite3"
    async with DiscordHarness(bot_factory=bot_factory(db, seed=11, renderer=RecapRenderer()), token=TOKEN,
                              trap_loggers=("discord", "bot"), settle_timeout=180.0) as h:
        h.set_preferred_locale(PT)
        ana, bia = h.add_user("ana"), h.add_user("bia")
        start = len(h.calls)
        await panel_screens(h, db, ana, bia)
        await h.slash(ana, "games", "projectl table new", players=3, locale=PT)
        lobby = h.channel_messages("games")[-1]
        game_id = lobby.buttons[0].custom_id.split(":")[-1]
        await h.click(bia, lobby, f"pl:lobby:join:{game_id}", locale=PT)
        await h.click(ana, lobby, f"pl:lobby:ai:{game_id}", locale=PT)
        await h.click(ana, lobby, f"pl:lobby:start:{game_id}", locale=PT)
        finished = await whole_game(h, {ana.id: ana, bia.id: bia})
        await records(h, ana, finished)

        assert "recap" in bot_of(h).renderer.calls  # type: ignore[attr-defined]
        assert images_without_alt(h.calls[start:]) == []
        fragments = english_fragments()
        assert "one piece on each puzzle you choose, all at once" in fragments
        names = {"ana", "bia"}
        seen = received(h.calls[start:])
        kinds = {kind: sum(kind in where for where, _ in seen)
                 for kind in ("attachments", "embeds", "components", "choice", ".content")}
        assert all(kinds.values()), kinds  # alt text, embeds, labels, choices and contents were all read
        found = [(where, text, hits) for where, text in seen
                 if (hits := english_in(text, fragments, names))]
        report = "\n".join(f"{where}: {hits} in {text[:300]!r}" for where, text, hits in found[:60])
        assert not found, f"{len(found)} texts with English:\n{report}"


def test_the_scan_finds_english() -> None:
    """The scan's own check: English sentences and words are found, Portuguese passes."""
    fragments = english_fragments()
    assert english_in("So far (nothing is placed until you confirm):", fragments, set())
    assert english_in("`place I3 on B14 at A1 A2 A3`", fragments, set())
    assert english_in("Ratings — este servidor", fragments, set())
    assert not english_in("Até agora (nada é colocado até você confirmar):", fragments, set())
    assert not english_in("`colocar I3 em B14 nas A1 A2 A3` · Project L", fragments, set())
    assert step_of("x") is None
