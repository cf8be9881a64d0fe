"""Every way a player can be refused: each gets a clear ephemeral message and changes nothing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember, SchemaError
from test_bot_support import assert_refused, bot_of, cancel_table, final_reply, open_table, running_bot

import engine
from bot.core.wording import texts
from engine.pieces import mask_to_text


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "bot.sqlite3") as harness:
        yield harness


async def game_of(h: DiscordHarness, channel: str = "games") -> Any:
    return await bot_of(h).manager.game_in_channel(h.channel(channel).id)


async def two_player_game(h: DiscordHarness) -> tuple[FakeMember, FakeMember, FakeMember]:
    """alice hosts, bob joins, game started. Returns (current player, other player, outsider)."""
    alice, bob, eve = h.add_user("alice"), h.add_user("bob"), h.add_user("eve")
    await open_table(h, alice, [bob], players=2)
    game = await game_of(h)
    current = alice if game.current.user_id == alice.id else bob
    return current, (bob if current is alice else alice), eve


async def test_not_your_turn_changes_nothing(h: DiscordHarness) -> None:
    current, other, _ = await two_player_game(h)
    before = await game_of(h)
    ix = await h.slash(other, "games", "projectl play level1")
    assert_refused(ix, "not your turn", current.name)
    after = await game_of(h)
    assert after.revision == before.revision and after.state == before.state


async def test_outsider_is_not_in_game(h: DiscordHarness) -> None:
    _, _, eve = await two_player_game(h)
    ix = await h.slash(eve, "games", "projectl play take", puzzle="white 1")
    assert_refused(ix, "not playing in this game")


async def test_no_game_in_channel(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "random", "projectl play level1")
    assert_refused(ix, "no project l game")
    ix = await h.slash(alice, "random", "projectl status")
    assert_refused(ix, "/projectl table new")


async def test_game_full_and_double_join(h: DiscordHarness) -> None:
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    ix = await h.slash(alice, "games", "projectl table new", players=2)
    lobby = ix.original
    assert lobby is not None
    join = lobby.buttons[0].custom_id
    assert join.startswith("pl:lobby:join:")
    ix = await h.click(alice, lobby, join)
    assert_refused(ix, "already at this table")
    await h.click(bob, lobby, join)
    assert "2/2" in (lobby.content or "")
    ix = await h.click(carol, lobby, join)
    assert_refused(ix, "full", "2 players")
    assert "carol" not in (lobby.content or "")


async def test_lobby_refusals(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    ix = await h.slash(alice, "games", "projectl table new", players=3)
    lobby = ix.original
    assert lobby is not None
    game_id = lobby.buttons[0].custom_id.rsplit(":", 1)[1]
    assert_refused(await h.click(alice, lobby, f"pl:lobby:start:{game_id}"), "at least 2")
    assert_refused(await h.click(bob, lobby, f"pl:lobby:leave:{game_id}"), "not at this table")
    assert_refused(await h.click(alice, lobby, f"pl:lobby:leave:{game_id}"), "you are the host")
    await h.click(bob, lobby, f"pl:lobby:join:{game_id}")
    assert_refused(await h.click(bob, lobby, f"pl:lobby:start:{game_id}"), "only the host")
    assert_refused(await h.click(bob, lobby, f"pl:lobby:ai:{game_id}"), "only the host")
    assert_refused(await h.slash(bob, "games", "projectl play level1"), "not started")
    await h.click(bob, lobby, f"pl:lobby:leave:{game_id}")
    assert "bob" not in (lobby.content or "")


async def test_join_after_start_is_refused(h: DiscordHarness) -> None:
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    ix = await h.slash(alice, "games", "projectl table new", players=3)
    lobby = ix.original
    assert lobby is not None
    game_id = lobby.buttons[0].custom_id.rsplit(":", 1)[1]
    join_id = f"pl:lobby:join:{game_id}"
    await h.click(bob, lobby, join_id)
    forged = await forge_button(h, lobby.channel_id, join_id)  # the lobby lost its buttons on start
    await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
    assert lobby.buttons == []
    ix = await h.click(carol, forged, join_id)
    assert_refused(ix, "already started")


async def test_second_game_in_channel(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await h.slash(alice, "games", "projectl table new")
    ix = await h.slash(bob, "games", "projectl table new", variant="solo")
    assert_refused(ix, "already has a project l game")
    ok = await h.slash(bob, "random", "projectl table new", variant="solo")
    assert not final_reply(ok).ephemeral


async def test_cancel_by_non_host_refused_then_by_manager(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    boss = h.add_user("boss", manage_channel=True)
    await open_table(h, alice, [bob], players=2)
    ix = await h.slash(bob, "games", "projectl table cancel")
    assert_refused(ix, "only the host")
    assert (await game_of(h)) is not None
    ix = await cancel_table(h, boss, "games")
    reply = final_reply(ix)
    assert not reply.ephemeral and "cancelled by boss" in reply.content
    assert await game_of(h) is None
    game = await bot_of(h).manager.game(1)
    assert game is not None and game.status == "cancelled"


async def test_host_cancels_lobby_and_buttons_go(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new")
    lobby = ix.original
    assert lobby is not None
    await cancel_table(h, alice, "games")
    assert lobby.buttons == [] and lobby.content == texts.LOBBY_CANCELLED


async def test_unknown_piece_bad_cells_wrong_puzzle(h: DiscordHarness) -> None:
    current, _, _ = await two_player_game(h)
    game = await game_of(h)
    before = game.revision
    ix = await h.slash(current, "games", "projectl play place", piece="X9", puzzle="W01", cells="A1")
    assert_refused(ix, "'X9' is not a piece")
    ix = await h.slash(current, "games", "projectl play place", piece="1", puzzle="W01", cells="F9")
    assert_refused(ix, "not a cell on the card")
    ix = await h.slash(current, "games", "projectl play place", piece="2", puzzle="W01", cells="A1 C3")
    assert_refused(ix, "do not form")
    ix = await h.slash(current, "games", "projectl play place", piece="1", puzzle="W01", cells="A1")
    assert_refused(ix, "no unfinished puzzle W01")
    ix = await h.slash(current, "games", "projectl play act", text="fly to the moon")
    assert_refused(ix, "'fly' is not an action")
    ix = await h.slash(current, "games", "projectl play take", puzzle="purple 9")
    assert_refused(ix, "not a puzzle on offer")
    ix = await h.slash(current, "games", "projectl play upgrade", give="L3", take="T4")
    assert_refused(ix, "no L3")
    ix = await h.slash(current, "games", "projectl play pass")
    assert_refused(ix, "only pass when no other action")
    ix = await h.slash(current, "games", "projectl play done")
    assert_refused(ix, "finishing touches")
    ix = await h.slash(current, "games", "projectl play recycle", row="white", order="1 1 2 3")
    assert_refused(ix)
    assert (await game_of(h)).revision == before


async def test_cells_outside_recess(h: DiscordHarness) -> None:
    current, _, _ = await two_player_game(h)
    game = await game_of(h)
    card = game.state.table.white_row[0]
    await h.slash(current, "games", "projectl play take", puzzle="white 1")
    recess = game.state.cards[card].recess
    outside = next(i for i in range(25) if not recess >> i & 1)
    cell = mask_to_text(1 << outside)
    ix = await h.slash(current, "games", "projectl play place", piece="1", puzzle=card, cells=cell)
    assert_refused(ix, "outside the recess")


async def test_master_refusals(h: DiscordHarness) -> None:
    current, other, _ = await two_player_game(h)
    ix = await h.slash(current, "games", "projectl play master-confirm")
    assert_refused(ix, "no placements yet")
    ix = await h.slash(other, "games", "projectl play master-confirm")
    assert_refused(ix, "not your turn")
    game = await game_of(h)
    card = game.state.table.white_row[0]
    await h.slash(current, "games", "projectl play take", puzzle="white 1")
    game = await game_of(h)
    player = game.state.players[game.current.seat]
    place = engine.placements_for(game.state.cards, player, card=card, shape=engine.Shape.MONO)[0]
    cells = mask_to_text(place.mask)
    ix = await h.slash(current, "games", "projectl play master-add", piece="1", puzzle=card, cells=cells)
    assert final_reply(ix).ephemeral and cells in final_reply(ix).content
    ix = await h.slash(current, "games", "projectl play master-add", piece="2", puzzle=card, cells="A1 B1")
    assert_refused(ix, f"already has a piece on {card}")


async def test_stale_confirm_button_and_double_click(h: DiscordHarness) -> None:
    current, _, _ = await two_player_game(h)
    game = await game_of(h)
    card = game.state.table.white_row[0]
    await h.slash(current, "games", "projectl play take", puzzle="white 1")
    ix = await h.slash(current, "games", "projectl play place", piece="1", puzzle=card)
    menu = final_reply(ix)
    assert menu.ephemeral and menu.selects
    select = menu.selects[0]
    assert select.custom_id.startswith(f"pl:pick:{game.id}:{current.id}:")
    pick = await h.select(current, ix.original, select.custom_id, [select.options[0].value])
    preview = final_reply(pick)
    assert preview.ephemeral and preview.filenames == ["preview.png"]
    confirm = preview.buttons[0].custom_id
    assert confirm.startswith(f"pl:do:{game.id}:{current.id}:")
    first = await h.click(current, preview.message, confirm)
    assert "Done: `place 1 on" in final_reply(first).content
    again = await h.click(current, preview.message, confirm)
    assert_refused(again, "out of date")
    stale_pick = await h.select(current, ix.original, select.custom_id, [select.options[-1].value])
    assert_refused(stale_pick, "out of date")


async def forge_button(h: DiscordHarness, channel_id: int, custom_id: str) -> Any:
    """A public bot message carrying a button with ``custom_id``, as a tampering client could send."""
    channel = h.world.channels[channel_id]
    components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "X", "custom_id": custom_id}]}]
    return h.api.messages.create(channel, {"content": "forged", "components": components}, [])


@pytest.mark.parametrize("custom_id", [
    "pl:do:1:{other}:{rev}:level1",       # someone else's confirmation
    "pl:do:1:{me}:abc:level1",            # malformed revision
    "pl:do:1:{me}:{rev}:fly.away",        # not an action
    "pl:do:99:{me}:{rev}:level1",         # another game
    "pl:do:1:{me}:0:level1",              # an old revision
    "pl:master:ok:1:{other}:{rev}",
    "pl:lobby:join:xyz",
    "pl:lobby:explode:1",
    "pl:teleport:1",
])
async def test_forged_buttons_are_refused(h: DiscordHarness, custom_id: str) -> None:
    current, other, _ = await two_player_game(h)
    game = await game_of(h)
    forged_id = custom_id.format(me=current.id, other=other.id, rev=game.revision)
    message = await forge_button(h, h.channel("games").id, forged_id)
    ix = await h.click(current, message, forged_id)
    text = assert_refused(ix)
    assert any(word in text for word in ("not valid", "out of date", "is for", "no longer open", "not an"))
    assert (await game_of(h)).revision == game.revision


async def test_commands_are_not_offered_in_dms(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    with pytest.raises(SchemaError):
        await h.slash(alice, h.dm(alice), "projectl help")


async def test_unexpected_error_is_a_friendly_message(h: DiscordHarness, monkeypatch: Any) -> None:
    current, _, _ = await two_player_game(h)
    manager = bot_of(h).manager

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(manager, "act", broken)
    with h.expect_errors() as errors:
        ix = await h.slash(current, "games", "projectl play level1")
    text = assert_refused(ix, "something went wrong")
    assert "Traceback" not in text and "database on fire" not in text
    assert any("database on fire" in str(e.original) for e in errors)


async def test_refusal_copy_of_message_is_not_changed(h: DiscordHarness) -> None:
    """Editing a lobby message from a stale game id is refused and leaves the message alone."""
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new")
    lobby = ix.original
    assert lobby is not None
    content = copy.deepcopy(lobby.content)
    forged = await forge_button(h, lobby.channel_id, "pl:lobby:join:77")
    ix = await h.click(alice, forged, "pl:lobby:join:77")
    assert_refused(ix, "no longer open")
    assert lobby.content == content


async def test_missing_channel_permission_is_explained(h: DiscordHarness) -> None:
    """If Discord refuses the turn post, the move still counts and the player is told why."""
    from harness import ApiError

    current, other, _ = await two_player_game(h)

    def forbidden(call: Any) -> Any:
        raise ApiError(403, 50013, "Missing Permissions")

    h.api.add_route("POST", "/channels/{channel_id}/messages", forbidden)
    for _ in range(2):
        await h.slash(current, "games", "projectl play level1")
    ix = await h.slash(current, "games", "projectl play level1")
    texts_ = [r.content for r in ix.responses if r.content]
    assert texts_[0].startswith("Done: `level1`") and texts_[-1] == texts.CANNOT_POST
    game = await game_of(h)
    assert game.current is not None and game.current.user_id == other.id


async def test_a_finesse_action_at_a_table_without_finesse_is_explained(h: DiscordHarness) -> None:
    """``insert`` at a table without Finesse read "Unknown action Insert()." (a Python repr) in
    English and Portuguese; now it says the table plays without the expansion."""
    current, _, _ = await two_player_game(h)
    before = (await game_of(h)).revision
    for text in ("insert",):
        reply = assert_refused(await h.slash(current, "games", "projectl play act", text=text),
                               "without the finesse expansion")
        assert "()" not in reply and "Unknown" not in reply
        reply = assert_refused(await h.slash(current, "games", "projectl play act", text=text,
                                             locale="pt-BR"), "sem a expansão Finesse")
        assert "()" not in reply
    assert (await game_of(h)).revision == before
