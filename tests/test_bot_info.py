"""Looking at a game (status, any player's mat, rules, help) and what autocomplete offers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_support import assert_refused, bot_of, final_reply, is_png, open_table, running_bot

from bot.core import texts


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "info.sqlite3") as harness:
        yield harness


async def test_help_and_rules_are_ephemeral(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    reply = final_reply(await h.slash(alice, "games", "projectl help"))
    assert reply.ephemeral and "/projectl table new" in reply.content and "A1 top left" in reply.content
    for topic in texts.RULES:
        reply = final_reply(await h.slash(alice, "games", "projectl rules", topic=topic))
        assert reply.ephemeral and reply.content == texts.RULES[topic]
    assert len(texts.HELP) < 2000 and all(len(t) < 2000 for t in texts.RULES.values())


async def test_status_and_mats(h: DiscordHarness) -> None:
    alice, bob, eve = h.add_user("alice"), h.add_user("bob"), h.add_user("eve")
    ix = await h.slash(alice, "games", "projectl table new", players=3)
    status = final_reply(await h.slash(eve, "games", "projectl status"))
    assert status.ephemeral and "Seats: 1/3" in status.content  # the lobby, while it is one
    assert ix.original is not None
    game_id = ix.original.buttons[0].custom_id.rsplit(":", 1)[1]
    await h.click(bob, ix.original, f"pl:lobby:join:{game_id}")
    await h.click(alice, ix.original, f"pl:lobby:ai:{game_id}")
    await h.click(alice, ix.original, f"pl:lobby:start:{game_id}")
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None

    status = final_reply(await h.slash(eve, "games", "projectl status"))
    assert status.ephemeral and status.filenames == ["table.png"] and is_png(status.files[0][1])
    assert f"{game.current.name} to play" in status.content

    mine = final_reply(await h.slash(bob, "games", "projectl mat"))
    assert mine.ephemeral and mine.content == "bob's mat" and is_png(mine.files[0][1])
    theirs = final_reply(await h.slash(eve, "games", "projectl mat", player=alice))
    assert theirs.ephemeral and theirs.content == "alice's mat"
    ai = final_reply(await h.slash(eve, "games", "projectl mat", seat=3))
    assert ai.content == "Greedy bot 1's mat"
    assert_refused(await h.slash(eve, "games", "projectl mat"), "not playing")
    assert_refused(await h.slash(alice, "games", "projectl mat", player=eve), "eve is not playing")
    assert_refused(await h.slash(alice, "games", "projectl mat", seat=4), "no seat 4")


async def test_mat_seat_accepts_seats_five_and_six_and_ai_seats(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    await open_table(h, alice, [], ai=5, players=6)
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and len(game.seats) == 6
    mat = next(c for c in bot_of(h).tree.get_command("projectl").commands if c.name == "mat")  # type: ignore[union-attr]
    assert mat._params["seat"].max_value == 6  # the synced schema lets a client pick seats 5-6
    for seat in (5, 6):
        shown = final_reply(await h.slash(alice, "games", "projectl mat", seat=seat))
        assert shown.ephemeral and is_png(shown.files[0][1])
        assert shown.content == f"{game.seats[seat - 1].name}'s mat" and game.seats[seat - 1].user_id is None


async def test_autocomplete_offers_what_is_legal(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2)
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None and game.current is not None
    current = alice if game.current.user_id == alice.id else bob

    offers = await h.autocomplete(current, "games", "projectl play take", focused="puzzle", puzzle="")
    assert [c.value for c in offers] == [f"{colour} {slot}" for colour in ("white", "black")
                                         for slot in range(1, 5)]
    card = game.state.table.white_row[2]  # type: ignore[union-attr]
    assert offers[2].name.startswith(f"White 3: {card} · ")
    assert [c.value for c in await h.autocomplete(current, "games", "projectl play take", focused="puzzle",
                                                  puzzle=card)] == ["white 3"]

    pieces = await h.autocomplete(current, "games", "projectl play place", focused="piece", piece="")
    assert [c.value for c in pieces] == ["1", "2"]  # the starting supply
    assert await h.autocomplete(current, "games", "projectl play place", focused="puzzle", piece="1",
                                puzzle="") == []  # no puzzles yet
    await h.slash(current, "games", "projectl play take", puzzle="white 3")
    puzzles = await h.autocomplete(current, "games", "projectl play place", focused="puzzle", piece="2",
                                   puzzle="")
    assert [c.value for c in puzzles] == [card] and "0/" in puzzles[0].name
    cells = await h.autocomplete(current, "games", "projectl play place", focused="cells", piece="2",
                                 puzzle=card, cells="")
    recess = game.state.cards[card].recess
    assert cells and all(len(c.value.split()) == 2 for c in cells)
    from engine.pieces import parse_cells

    assert all(parse_cells(c.value) & ~recess == 0 for c in cells)
    upgrades = await h.autocomplete(current, "games", "projectl play upgrade", focused="take", give="1",
                                    take="")
    assert [c.value for c in upgrades] == ["2"]  # one level up only
    actions = await h.autocomplete(current, "games", "projectl play act", focused="text", text="level")
    assert [c.value for c in actions] == ["level1"]
    other = bob if current is alice else alice
    assert await h.autocomplete(other, "games", "projectl play act", focused="text", text="") == []
