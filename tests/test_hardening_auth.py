"""Authorisation through Discord: who may act, who may cancel, whose buttons, what stays secret.

* Only the current player acts: every acting command, by the other player and by an outsider,
  is refused ephemerally and changes nothing.
* Only the host or a member with Manage Channel cancels (command and lobby button); only the host
  starts or adds AI seats.
* Buttons are bound to a user, a game and a revision: a button clicked by someone else, carried to
  another channel's game, kept from a cancelled game, or out of date changes nothing.
* Whole games (Solo, base with an AI seat, three players) never send a card still hidden in a
  deck, the seed or the RNG state in any payload — and every payload is within Discord's limits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused, cancel_table

from bench.checks import integrity
from bench.harnessed import forge_click, open_table, placement_preview, running
from bench.limits import check_call
from bench.sessions import SecretWatch, deck_cards, watched_game
from bench.tables import snapshot

ACTING = [
    ("projectl play level1", {}), ("projectl play take", {"puzzle": "white 1"}),
    ("projectl play draw", {"deck": "black"}), ("projectl play upgrade", {"give": "1", "take": "2"}),
    ("projectl play pass", {}), ("projectl play done", {}),
    ("projectl play place", {"piece": "1", "puzzle": "W01", "cells": "A1"}),
    ("projectl play recycle", {"row": "white", "order": "1 2 3 4"}),
    ("projectl play act", {"text": "level1"}),
    ("projectl play master-add", {"piece": "1", "puzzle": "W01", "cells": "A1"}),
    ("projectl play master-confirm", {}),
]


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "auth.sqlite3") as harness:
        yield harness
    assert integrity(tmp_path / "auth.sqlite3") == "ok"


def db(h: Any) -> Path:
    return Path(h.bot.settings.db_path)


async def game_in(h: Any, channel: str) -> Any:
    return await h.bot.manager.game_in_channel(h.channel(channel).id)


async def two_players(h: Any, channel: str = "games") -> tuple[Any, Any, Any]:
    """alice hosts, bob joins, started. Returns (mover, waiting player, outsider)."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    eve = h.add_user("eve")
    await open_table(h, alice, [bob], channel=channel, players=2)
    game = await game_in(h, channel)
    mover = alice if game.current.user_id == alice.id else bob
    return mover, (bob if mover is alice else alice), eve


async def test_only_the_current_player_acts(h: Any) -> None:
    _, waiting, outsider = await two_players(h)
    for user, expected in ((waiting, "not your turn"), (outsider, "not playing in this game")):
        for command, options in ACTING:
            before = snapshot(db(h))
            ix = await h.slash(user, "games", command, **options)
            assert_refused(ix, expected)
            assert snapshot(db(h)) == before, f"{command} by {user.name} changed the game"


async def test_only_host_or_channel_manager_cancels(h: Any) -> None:
    alice, bob, eve = h.add_user("alice"), h.add_user("bob"), h.add_user("eve")
    mo = h.add_user("mo", manage_channel=True)
    lobby = (await h.slash(alice, "games", "projectl table new", players=3)).original
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(bob, lobby, f"pl:lobby:join:{game_id}")
    before = snapshot(db(h))
    for user, button in ((bob, "start"), (bob, "ai"), (bob, "cancel"), (eve, "cancel")):
        assert_refused(await h.click(user, lobby, f"pl:lobby:{button}:{game_id}"), "only the host")
    for user in (bob, eve):
        assert_refused(await h.slash(user, "games", "projectl table cancel"), "only the host")
    assert snapshot(db(h)) == before
    await h.click(mo, lobby, f"pl:lobby:cancel:{game_id}")  # a channel manager may
    assert await game_in(h, "games") is None
    await open_table(h, alice, [bob], players=2)
    assert_refused(await h.slash(bob, "games", "projectl table cancel"), "only the host")
    await cancel_table(h, alice, "games")  # the host may
    assert await game_in(h, "games") is None
    await open_table(h, bob, [alice], players=2)
    await cancel_table(h, mo, "games")
    assert await game_in(h, "games") is None


async def test_buttons_are_personal_and_bound_to_their_game(h: Any) -> None:
    mover, waiting, outsider = await two_players(h)
    preview, confirm = await placement_preview(h, mover)
    _, _, game_id, user_id, revision, action = confirm.split(":", 5)
    other_alice, other_bob = h.add_user("carol"), h.add_user("dave")
    await open_table(h, other_alice, [other_bob], channel="general", players=2)
    elsewhere = await game_in(h, "general")
    before = snapshot(db(h))
    cases = [
        (waiting, confirm, "is for"),  # someone else's button
        (outsider, confirm, "is for"),
        (waiting, f"pl:do:{game_id}:{waiting.id}:{revision}:{action}", "not your turn"),  # re-addressed
        (mover, f"pl:do:{elsewhere.id}:{mover.id}:{revision}:{action}", "no longer open"),  # other game
        (mover, f"pl:do:{game_id}:{mover.id}:{int(revision) - 1}:{action}", "out of date"),  # old
        (mover, f"pl:do:{game_id}:{mover.id}:{int(revision) + 1}:{action}", "out of date"),  # future
        (mover, f"pl:master:ok:{elsewhere.id}:{mover.id}:{revision}", "no longer open"),
        (mover, f"pl:master:clear:{elsewhere.id}:{mover.id}:{revision}", "no longer open"),
        (mover, f"pl:lobby:start:{elsewhere.id}", "no longer open"),
    ]
    for user, custom_id, expected in cases:
        assert_refused(await forge_click(h, user, "games", preview, custom_id), expected)
    assert snapshot(db(h)) == before
    await h.click(mover, preview, confirm)  # the real button, by its owner, still works once
    assert len(snapshot(db(h))["actions"]) == len(before["actions"]) + 1
    assert_refused(await h.click(mover, preview, confirm), "out of date")


async def test_a_button_from_a_cancelled_game_cannot_act_on_the_next(h: Any) -> None:
    mover, waiting, _ = await two_players(h)
    preview, confirm = await placement_preview(h, mover)
    host = h.user((await game_in(h, "games")).host_id)
    await cancel_table(h, host, "games")
    await open_table(h, mover, [waiting], players=2)  # same players, same channel, new game
    before = snapshot(db(h))
    assert_refused(await h.click(mover, preview, confirm), "no longer open")
    assert snapshot(db(h)) == before


@pytest.mark.parametrize("seats,ai,seed", [(1, 0, 1), (2, 1, 2), (3, 0, 5)], ids=["solo", "two+ai", "three"])
async def test_whole_games_leak_no_secret_and_fit_discord(
    tmp_path: Path, seats: int, ai: int, seed: int
) -> None:
    async with running(tmp_path / "leak.sqlite3", seed=5764607523034234879 - seed) as h:
        watch = SecretWatch()
        watch.install(h.bot.manager)
        users = [h.add_user(name) for name in ("alice", "bob", "carol")[:seats]]
        if seats == 1:
            await h.slash(users[0], "games", "projectl table new", variant="solo")
        else:
            await open_table(h, users[0], users[1:], players=seats + ai, ai=ai)
        moves = await watched_game(h, watch, "games", seed, moves=250)
        assert watch.leaks == [] and watch.interactions == moves
        problems = [p for c in h.calls for p in check_call(c.method, c.path, c.json, c.files)]
        assert problems == []
        game = await h.bot.manager.game(1)
        assert await h.bot.manager.verify(game.id)
        print(f"\n{seats}+{ai} seats: {moves} moves, {len(h.calls)} calls searched, status {game.status}")
        hidden = sorted(deck_cards(game.state) - watch.public[game.id] - watch.examples)
        if hidden:  # the watch itself: a hidden card mentioned by the bot is caught
            await h.bot.get_channel(h.channel("games").id).send(f"debug {hidden[0]}")
            watch.check(h.calls, game)
            assert watch.leaks and hidden[0] in watch.leaks[-1]


TABLE_DECISIONS = ("skip", "SKIP", "remove 1", "remove 2", "  Remove   2 ", "remove 3", "pular", "PULAR",
                   "remover 2", "Remover  1")
"""Table decisions in every spelling the parser accepts, Portuguese too (``remove 3``: no such seat
at two)."""


async def test_players_cannot_send_table_decisions(h: Any) -> None:
    """Issue 10: on your own turn, `act text:remove 2` threw an opponent out and `act text:skip`
    ended the turn. Skips and removals come only from a vote, the turn clock or the host's
    replace: typed, on a forged Confirm button (right game, user and revision) or from any other
    entry point, a player gets an ephemeral refusal and nothing is committed or posted."""
    mover, _, _ = await two_players(h)
    game = await game_in(h, "games")
    preview = h.channel_messages("games")[-1]
    before, posts = snapshot(db(h)), len(h.channel_messages("games"))
    for text in TABLE_DECISIONS:
        assert_refused(await h.slash(mover, "games", "projectl play act", text=text), "table decision")
        forged = f"pl:do:{game.id}:{mover.id}:{game.revision}:{text.strip().replace(' ', '.')}"
        assert_refused(await forge_click(h, mover, "games", preview, forged), "table decision")
    for typed in ("sk", "rem", "pul", ""):
        offered = await h.autocomplete(mover, "games", "projectl play act", focused="text",
                                       options={"text": typed})
        assert not [c for c in offered if c.value.split()[0] in ("skip", "remove")]
    assert snapshot(db(h)) == before
    assert len(h.channel_messages("games")) == posts
    assert (await game_in(h, "games")).status == "active"


async def test_an_old_lobby_cancel_on_a_started_game_changes_nothing_and_points_to_the_command(
    h: Any,
) -> None:
    """A lobby's Cancel button (kept on an old message, or its id sent again) must not end a game in
    play at once: `/projectl table cancel` asks first and says when it counts as a loss."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(bob, lobby, f"pl:lobby:join:{game_id}")
    await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
    game = await game_in(h, "games")
    assert game is not None and game.status == "active"
    before = snapshot(db(h))
    old_copy = await forge_click(h, alice, "games", lobby, f"pl:lobby:cancel:{game_id}")
    assert_refused(old_copy, "/projectl table cancel")
    assert snapshot(db(h)) == before
    assert (await game_in(h, "games")).status == "active"


async def test_a_cancel_question_button_forged_onto_a_public_post_changes_nothing_there(h: Any) -> None:
    """`/projectl table cancel`'s buttons only ever sit on the asker's private question. Sent on
    any other message (a tampered client), or as junk, every answer is private and the public turn
    post keeps its words and its buttons; the game goes on."""
    mover, waiting, eve = await two_players(h)
    game = await game_in(h, "games")
    alice = h.user(game.host_id)
    post = h.channel_messages("games")[-1]
    shown = (post.content, [b.custom_id for b in post.buttons])
    before = snapshot(db(h))
    for user, custom_id in (
        (eve, f"plt:cancel:no:{game.id}:{eve.id}:{game.revision}"),
        (alice, f"plt:cancel:no:{game.id}:{alice.id}:{game.revision}"),
        (alice, f"plt:cancel:yes:99999:{alice.id}:{game.revision}"),
        (alice, f"plt:cancel:yes:{game.id}:{alice.id}:{game.revision + 7}"),
        (alice, f"plt:cancel:yes:{game.id}:{alice.id}:{game.revision}"),
        (eve, f"plt:cancel:yes:{game.id}:{eve.id}:{game.revision}"),
    ):
        assert_refused(await forge_click(h, user, "games", post, custom_id), "not valid")
        after = h.message(post.id)
        assert (after.content, [b.custom_id for b in after.buttons]) == shown, custom_id
    for junk in ("plt:cancel:junk", f"plt:cancel:yes:{game.id}:{alice.id}:-1",
                 f"plt:cancel:yes:{game.id}:{alice.id}:{'9' * 30}"):
        assert_refused(await forge_click(h, alice, "games", post, junk), "not valid")
    assert snapshot(db(h)) == before
    assert (await game_in(h, "games")).status == "active"


async def test_a_leave_confirmation_forged_onto_a_public_post_changes_nothing(h: Any) -> None:
    """`/projectl table leave`'s Leave button only ever sits on the leaver's private question.
    Sent on the public turn post (a tampered client, with the sender's own id and the game's
    revision), it is refused privately: the seat is kept and the post keeps its words and buttons."""
    mover, waiting, eve = await two_players(h)
    game = await game_in(h, "games")
    post = h.channel_messages("games")[-1]
    shown = (post.content, [b.custom_id for b in post.buttons])
    before = snapshot(db(h))
    assert_refused(await forge_click(h, waiting, "games", post,
                                     f"pld:leave:{game.id}:{waiting.id}:{game.revision}"), "not valid")
    after = h.message(post.id)
    assert (after.content, [b.custom_id for b in after.buttons]) == shown
    assert snapshot(db(h)) == before


async def test_lobby_buttons_forged_onto_an_older_public_post_leave_it_and_the_lobby_as_they_are(
    h: Any,
) -> None:
    """A lobby's buttons redraw the message they sit on. Sent on another public message of the
    channel (a tampered client hanging a new lobby's ids on the last game's turn post), each is
    refused privately: no edit reaches that post, which keeps its words and buttons, and nobody
    joins, leaves, is seated, starts or cancels anything. On the lobby itself they still work."""
    mover, waiting, eve = await two_players(h)
    old = await game_in(h, "games")
    alice = h.user(old.host_id)
    post = h.channel_messages("games")[-1]
    shown = (post.content, [b.custom_id for b in post.buttons])
    assert shown[1]  # the turn post of the game before, with its buttons
    await h.bot.manager.cancel(h.channel("games").id, alice.id, game_id=old.id, can_manage_channel=True)
    lobby = (await h.slash(alice, "games", "projectl table new", players=3)).original
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    lobby_shown = (lobby.content, [b.custom_id for b in lobby.buttons])
    before = snapshot(db(h))
    for user, op in ((eve, "join"), (waiting, "join"), (alice, "leave"), (alice, "ai"), (alice, "strong"),
                     (alice, "start"), (alice, "cancel")):
        edits = len(h.calls_to("PATCH"))
        answer = await forge_click(h, user, "games", post, f"pl:lobby:{op}:{game_id}")
        assert_refused(answer, "not valid")
        assert len(h.calls_to("PATCH")) == edits, op  # no message was edited
        after = h.message(post.id)
        assert (after.content, [b.custom_id for b in after.buttons]) == shown, op
    assert snapshot(db(h)) == before
    lobby_now = h.message(lobby.id)
    assert (lobby_now.content, [b.custom_id for b in lobby_now.buttons]) == lobby_shown
    joined = await h.click(eve, lobby, f"pl:lobby:join:{game_id}")
    assert joined.responses[0].callback_type == 6  # on its own message: acted on and redrawn
    assert eve.name in h.message(lobby.id).content


async def test_pager_buttons_forged_onto_a_public_post_leave_it_as_it_is(h: Any) -> None:
    """The log's, the leaderboard's and a replay's Prev / Next redraw the page they sit on, which
    is always a private reply. Sent on the public turn post (a tampered client), each answers
    privately and the post keeps its words and its buttons for everyone."""
    mover, waiting, eve = await two_players(h)
    game = await game_in(h, "games")
    post = h.channel_messages("games")[-1]
    shown = (post.content, [b.custom_id for b in post.buttons])
    for custom_id in (f"pld:log:{game.id}:2:next", "plg:lb:server:multi:2:next",
                      f"plg:rp:{game.id}:3:next"):
        answer = await forge_click(h, eve, "games", post, custom_id)
        assert_refused(answer, "")
        after = h.message(post.id)
        assert (after.content, [b.custom_id for b in after.buttons]) == shown, custom_id
