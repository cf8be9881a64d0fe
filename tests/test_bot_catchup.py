""""While you were away": what changed since a player's own last turn, from the stored action
log replayed through the engine — after 0, 1 and many turns, across a restart, in the turn DM,
the turn panel's header and ``/projectl-catchup``; and ``/projectl-describe``, the table or one's
mat as text, a line per item."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from days_support import CHANNEL, START, current_user, days_bot, game_of, tick
from harness import DiscordHarness
from test_bot_support import bot_of, final_reply, open_table, replies, running_bot

from bot.core.clock import ManualClock
from bot.core.play import flow
from bot.core.play.manager import Game, GameManager, TableSettings
from bot.core.storage import Storage
from bot.core.wording import texts
from bot.core.wording.catchup import catch_up_lines
from bot.core.wording.locales import localise

TURN = ("take white 1", "level1", "level1")
"""One turn: a card from the white row, then two monominoes."""


def shown(lines: list[Any], locale: str | None = None) -> list[str]:
    return [str(localise(line, locale)) for line in lines]


async def table(storage: Storage) -> tuple[GameManager, Game]:
    manager = GameManager(storage, seed_source=lambda: 11)
    await manager.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana",
                              settings=TableSettings(max_players=2))
    await manager.join(10, 200, "Bo")
    return manager, (await manager.start(10, by_user_id=100)).game


async def play_turn(manager: GameManager) -> list[str]:
    """The current player's turn; returns the card they took."""
    game = await manager.game_in_channel(10)
    assert game is not None and game.current is not None and game.state is not None
    card = game.state.table.white_row[0]  # type: ignore[union-attr]
    for action in TURN:
        await manager.act(10, game.current.user_id, action)
    return [card]


async def news_for(manager: GameManager, seat: int) -> list[str]:
    game = await manager.game_in_channel(10)
    assert game is not None and game.state is not None
    return shown(catch_up_lines(game.state, await manager.log(game.id), seat, game.names))


async def test_after_no_turn_one_turn_and_many(tmp_path: Path) -> None:
    storage = await Storage.open(str(tmp_path / "catchup.sqlite3"))
    try:
        manager, game = await table(storage)
        assert game.current is not None
        first = game.current.seat
        other = 1 - first
        names = game.names
        assert await news_for(manager, first) == []          # 0 turns: nothing happened yet
        mine = await play_turn(manager)
        assert await news_for(manager, first) == []          # not back yet: Bo has not played
        theirs = await play_turn(manager)                     # 1 turn between
        news = await news_for(manager, first)
        assert news[0].startswith("**While you were away**")
        assert news[1] == f"Taken: {theirs[0]} by {names[other]}."
        assert mine[0] not in "".join(news)                   # one's own doings are not news
        assert len(news) <= 4                                 # the title and at most three lines
        # the other seat's view while it is not their turn: what happened since their own turn
        assert (await news_for(manager, other)) == []
        for _ in range(3):                                    # many turns: only the last one counts
            await play_turn(manager)
            last = await play_turn(manager)
        news = await news_for(manager, first)
        assert news[1] == f"Taken: {last[0]} by {names[other]}."
    finally:
        await storage.close()

    storage = await Storage.open(str(tmp_path / "catchup.sqlite3"))  # a restart: a new process
    try:
        manager = GameManager(storage, seed_source=lambda: 11)
        assert await news_for(manager, first) == news
    finally:
        await storage.close()


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "catchup-bot.sqlite3") as harness:
        yield harness


async def played_round(h: DiscordHarness) -> tuple[Game, list[str]]:
    """Both players play one turn (by typed commands); returns the game and the cards taken."""
    cards = []
    for _ in range(2):
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.current is not None and game.state is not None
        cards.append(game.state.table.white_row[0])  # type: ignore[union-attr]
        user = h.user(game.current.name)
        await h.slash(user, "games", "projectl play take", puzzle="white 1")
        await h.slash(user, "games", "projectl play level1")
        await h.slash(user, "games", "projectl play level1")
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None
    return game, cards


async def test_catchup_command_and_the_panel_header(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None
    mover = h.user(game.current.name)
    nothing = final_reply(await h.slash(mover, "games", "projectl-catchup"))
    # no turn yet: never "since your last turn"
    assert nothing.ephemeral and nothing.content == "This is your first turn: nothing happened before it."
    game, cards = await played_round(h)
    same = final_reply(await h.slash(mover, "games", "projectl-catchup"))
    assert "since your last turn" in same.content.splitlines()[0]
    assert game.current is not None and h.user(game.current.name) is mover
    other = next(s.name for s in game.seats if s.name != mover.name)
    reply = final_reply(await h.slash(mover, "games", "projectl-catchup"))
    assert reply.ephemeral
    assert reply.content.splitlines()[:2] == ["**While you were away** (since your last turn):",
                                              f"Taken: {cards[1]} by {other}."]
    pt = final_reply(await h.slash(mover, "games", "projectl-catchup", locale="pt-BR"))
    assert pt.content.splitlines()[1] == f"Pegos: {cards[1]} por {other}."
    post = h.channel_messages("games")[-1]
    play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
    panel = final_reply(await h.click(mover, post, play.custom_id))
    assert panel.content.startswith("**While you were away**"), panel.content[:100]
    assert f"Taken: {cards[1]} by {other}." in panel.content


async def test_catchup_without_a_seat_says_so_in_its_own_words(h: DiscordHarness) -> None:
    """A spectator's ``/projectl-catchup`` is refused with catch-up's own sentence (no last turn to
    catch up on), in the reader's language, never describe's "no mat of yours to describe"."""
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    await open_table(h, alice, [bob])
    en = final_reply(await h.slash(carol, "games", "projectl-catchup"))
    assert en.ephemeral and en.content == texts.CATCHUP_NOT_SEATED, en.content
    assert "no last turn of yours to catch up on" in en.content and "describe" not in en.content.split(":")[0]
    pt = final_reply(await h.slash(carol, "games", "projectl-catchup", locale="pt-BR"))
    assert pt.ephemeral and pt.content == localise(texts.CATCHUP_NOT_SEATED, "pt-BR"), pt.content
    assert "último turno seu" in pt.content and "tabuleiro seu para descrever" not in pt.content


async def test_the_turn_dm_starts_with_what_changed(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, ("ana", "bob")) as h:
        ix = await h.slash(h.user("ana"), CHANNEL, "projectl table new")
        lobby = ix.original
        assert lobby is not None
        game_id = lobby.buttons[0].custom_id.split(":")[-1]
        await h.click(h.user("bob"), lobby, f"pl:lobby:join:{game_id}")
        await h.click(h.user("ana"), lobby, f"pl:lobby:start:{game_id}")
        first = await current_user(h)
        clock.advance(minutes=1)
        assert await tick(h) == 1
        assert h.dms_to(first)[-1].content.startswith("Your turn in <#")  # nothing to catch up on
        taken = []
        for _ in range(2):
            user = await current_user(h)
            game = await game_of(h)
            taken.append(game.state.table.white_row[0])  # type: ignore[union-attr]
            await h.slash(user, CHANNEL, "projectl play take", puzzle="white 1")
            for _ in range(2):
                await h.slash(user, CHANNEL, "projectl play level1")
        assert await current_user(h) is first
        clock.advance(minutes=1)
        assert await tick(h) == 1
        dm = h.dms_to(first)[-1].content
        lines = dm.splitlines()
        assert lines[0] == "**While you were away** (since your last turn):", dm
        assert lines[1].startswith(f"Taken: {taken[1]} by ") and "Your turn in <#" in dm


async def test_describe_the_table_and_my_mat(h: DiscordHarness) -> None:
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    await open_table(h, alice, [bob])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None and game.state is not None
    reply = final_reply(await h.slash(carol, "games", "projectl-describe"))  # a spectator may read it
    lines = reply.content.splitlines()
    assert reply.ephemeral and lines[0] == f"{game.current.name} to move." and lines[1] == "Round 1."
    row = game.state.table.white_row  # type: ignore[union-attr]
    for slot, card in enumerate(row, start=1):
        points = game.state.cards[card].points
        assert any(line.startswith(f"White row, slot {slot}: {card} ({points} pt, reward ") for line in lines)
    assert "Reserve, monomino: " + str(game.state.reserve[0]) + "." in lines
    assert not any(ch in reply.content for ch in "█▓░┌┐└┘│─")  # no drawing, only words
    mine = final_reply(await h.slash(bob, "games", "projectl-describe", view="me"))
    assert "This is bob's mat." in mine.content.splitlines()
    assert "No puzzle being built." in mine.content and "Piece monomino: 1." in mine.content
    refused = final_reply(await h.slash(carol, "games", "projectl-describe", view="me"))
    assert refused.ephemeral and "no seat at this table" in refused.content
    pt = final_reply(await h.slash(bob, "games", "projectl-describe", view="me", locale="pt-BR"))
    assert "Este é o tabuleiro de bob." in pt.content and "Nenhum quebra-cabeça em montagem." in pt.content


async def test_text_only_boards_come_as_text_first(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None
    before = replies(await h.slash(bob, "games", "projectl status"))
    assert len(before) == 1 and before[0].filenames == ["table.png"]  # by default: the image alone
    saved = final_reply(await h.slash(bob, "games", "projectl settings", text_only=True))
    assert "Boards as text first (text_only): on" in saved.content
    first, second = replies(await h.slash(bob, "games", "projectl status"))
    assert first.ephemeral and not first.filenames
    assert first.content.startswith(f"{game.current.name} to move.")
    assert "Round 1." in first.content.splitlines() and second.filenames == ["table.png"]
    first, second = replies(await h.slash(bob, "games", "projectl mat"))
    assert "This is bob's mat." in first.content and "Piece monomino: 1." in first.content
    assert second.filenames == ["mat.png"]
    pt = final_reply(await h.slash(bob, "games", "projectl settings", locale="pt-BR"))
    assert "Tabuleiros em texto primeiro (so_texto): ligados" in pt.content
    mover = await current_user(h)  # the Play button's panel comes with the mat: text first too
    await h.slash(mover, "games", "projectl settings", text_only=True)
    post = next(m for m in reversed(h.channel_messages("games"))
                if any(b.custom_id.startswith("plp:play:") for b in m.buttons))
    play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
    text, panel = replies(await h.click(mover, post, play.custom_id))
    assert f"This is {mover.name}'s mat." in text.content and not text.filenames
    assert panel.filenames == ["mat.png"] and panel.components  # the panel's buttons follow
    await h.slash(bob, "games", "projectl settings", text_only=False)
    assert len(replies(await h.slash(bob, "games", "projectl status"))) == 1


async def test_a_seat_without_a_turn_yet_is_told_so_not_since_your_last_turn(tmp_path: Path) -> None:
    """The first mover before their first turn, the second player before theirs, and the turn DM
    and panel's block: nothing says "since your last turn" to a seat that has had none."""
    storage = await Storage.open(str(tmp_path / "first.sqlite3"))
    try:
        manager, game = await table(storage)
        assert game.current is not None and game.state is not None
        first = game.current.seat
        other = 1 - first

        async def block(seat: int, locale: str | None = None) -> list[str]:
            now = await manager.game_in_channel(10)
            assert now is not None
            return shown(await flow.ReadingContext(now, seat, 0).catch_up(manager), locale)

        assert await block(first) == [str(texts.CATCHUP_FIRST_TURN)]
        assert await block(other) == [str(texts.CATCHUP_NOTHING_YET)]
        assert await block(first, "pt-BR") == [str(localise(texts.CATCHUP_FIRST_TURN, "pt-BR"))]
        taken = await play_turn(manager)
        news = await block(other)
        assert news[0] == str(texts.CATCHUP_TITLE_FIRST)
        assert news[1] == f"Taken: {taken[0]} by {game.names[first]}."
        assert (await news_for(manager, other))[0] == str(texts.CATCHUP_TITLE_FIRST)  # the DM and panel too
        assert await block(first) == [str(texts.CATCHUP_NOTHING)]
        await play_turn(manager)
        assert (await block(first))[0] == str(texts.CATCHUP_TITLE)
    finally:
        await storage.close()
