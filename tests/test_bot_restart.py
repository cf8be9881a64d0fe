"""Restarts: games and their buttons carry on with a new bot process on the same database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import DiscordHarness
from test_bot_support import TOKEN, assert_refused, bot_factory, bot_of, final_reply

from bench.harnessed import open_table

GUILD = 4242


def harness(db: Path, **kwargs: Any) -> DiscordHarness:
    return DiscordHarness(bot_factory=bot_factory(db, **kwargs), token=TOKEN, guild_id=GUILD,
                          trap_loggers=("discord", "bot"))


def same_channel(h: DiscordHarness, name: str, channel_id: int) -> None:
    """Give the new world's channel the id it had before (Discord ids do not change)."""
    channel = h.channel(name)
    del h.world.channels[channel.id]
    channel.id = channel_id
    h.world.channels[channel_id] = channel


def carry_message(h: DiscordHarness, channel_id: int, payload: dict[str, Any]) -> Any:
    """The message still exists on Discord after the bot restarts: recreate it in the new world,
    under its own id (a lobby's buttons act only on the lobby post the game remembers)."""
    body = {"content": payload.get("content"), "components": payload.get("components")}
    message = h.api.messages.create(h.world.channels[channel_id], body, [])
    del h.world.messages[message.id]
    message.id = int(payload["id"])
    message.payload["id"] = payload["id"]
    h.world.messages[message.id] = message
    return message


async def test_lobby_buttons_and_game_survive_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        alice, bob = first.add_user("alice"), first.add_user("bob")
        ix = await first.slash(alice, "games", "projectl table new", players=3)
        lobby = ix.original
        assert lobby is not None
        await first.click(bob, lobby, lobby.buttons[0].custom_id)
        channel_id, payload = lobby.channel_id, dict(lobby.payload)
        ids = {"alice": alice.id, "bob": bob.id}

    second = harness(db)
    same_channel(second, "games", channel_id)
    alice = second.add_user("alice", ids["alice"])
    second.add_user("bob", ids["bob"])
    carol = second.add_user("carol")
    async with second as h:
        old_lobby = carry_message(h, channel_id, payload)
        game_id = old_lobby.buttons[0].custom_id.rsplit(":", 1)[1]
        join = await h.click(carol, old_lobby, f"pl:lobby:join:{game_id}")
        assert join.responses[0].callback_type == 6  # acknowledged at once, then
        assert final_reply(join).kind == "edit"  # the old message was edited in place
        assert "carol" in (old_lobby.content or "") and "3/3" in (old_lobby.content or "")
        await h.click(alice, old_lobby, f"pl:lobby:start:{game_id}")
        game = await bot_of(h).manager.game_in_channel(channel_id)
        assert game is not None and game.status == "active" and len(game.seats) == 3
        table_post = h.channel_messages("games")[-1]
        assert table_post.filenames == ["table.png"]
        turn_ids = {"post": dict(table_post.payload), "game": game.id}

    third = harness(db)
    same_channel(third, "games", channel_id)
    users = {name: third.add_user(name, uid) for name, uid in {**ids, "carol": carol.id}.items()}
    async with third as h:
        game = await bot_of(h).manager.game_in_channel(channel_id)
        assert game is not None and game.current is not None
        current = next(u for u in users.values() if u.id == game.current.user_id)
        ix = await h.slash(current, "games", "projectl play level1")
        assert final_reply(ix).content.startswith("Done: `level1`")
        post = carry_message(h, channel_id, turn_ids["post"])
        mat = await h.click(users["bob"], post, f"pl:mat:{turn_ids['game']}")
        assert final_reply(mat).filenames == ["mat.png"] and final_reply(mat).ephemeral
        old_start = carry_message(h, channel_id, payload)
        again = await h.click(users["alice"], old_start, f"pl:lobby:start:{turn_ids['game']}")
        assert_refused(again, "already started")
        assert await bot_of(h).manager.verify(game.id)


async def test_restart_finishes_ai_turns_a_crash_interrupted(tmp_path: Path) -> None:
    """The bot died after committing a human's last action, before the AI seat moved: on restart
    the AI plays, and the channel gets the turn post it never saw."""
    import engine
    from bot.core.play.manager import Game

    db = tmp_path / "crash.sqlite3"
    async with harness(db) as first:
        alice = first.add_user("alice")
        ix = await first.slash(alice, "games", "projectl table new", players=2)
        assert ix.original is not None
        game_id = ix.original.buttons[0].custom_id.rsplit(":", 1)[1]
        await first.click(alice, ix.original, f"pl:lobby:ai:{game_id}")
        await first.click(alice, ix.original, f"pl:lobby:start:{game_id}")
        channel_id, alice_id = h_channel_id(first), alice.id
        storage = bot_of(first).storage
        game = await bot_of(first).manager.game_in_channel(channel_id)
        assert game is not None and game.state is not None and game.current is not None
        assert game.current.user_id == alice_id
        state = game.state
        for text in ("level1", "level1", "level1"):  # committed, then "the process died"
            outcome = engine.apply(state, engine.parse_action(text))
            row = await storage.commit_action(game.id, game.revision, seat=state.current, user_id=alice_id,
                                              action=text, state=engine.serialisation.dumps(outcome.state),
                                              state_schema=1,
                                              finished=False)
            game, state = Game.from_row(row), outcome.state
        assert game.current is not None and game.current.is_ai

    second = harness(db)
    same_channel(second, "games", channel_id)
    second.add_user("alice", alice_id)
    async with second as h:
        await h.settle()
        game = await bot_of(h).manager.game_in_channel(channel_id)
        assert game is not None and game.current is not None and game.current.user_id == alice_id
        post = h.channel_messages("games")[-1]
        assert post.filenames == ["table.png"] and f"<@{alice_id}>" in (post.content or "")
        assert "**Easy AI 1**" in (post.content or "")
        assert await bot_of(h).manager.verify(game.id)


def h_channel_id(h: DiscordHarness) -> int:
    return h.channel("games").id


async def test_the_cancel_question_is_answered_after_a_restart(tmp_path: Path) -> None:
    """`/projectl table cancel`'s private question outlives the process that asked it: its
    "Cancel the game" button (a DynamicItem), pressed after a restart, cancels the game as asked
    and says so publicly; the question itself is answered in place."""
    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        alice, bob = first.add_user("alice"), first.add_user("bob")
        await open_table(first, alice, [bob], players=2)
        ask = final_reply(await first.slash(alice, "games", "projectl table cancel"))
        assert ask.ephemeral and [b.label for b in ask.buttons] == ["Cancel the game", "Keep playing"]
        channel_id, ids = first.channel("games").id, {"alice": alice.id, "bob": bob.id}
        payload = dict(first.message(ask.message.id).payload)
    second = harness(db)
    same_channel(second, "games", channel_id)
    alice = second.add_user("alice", ids["alice"])
    second.add_user("bob", ids["bob"])
    async with second as h:
        body = {"content": payload.get("content"), "components": payload.get("components"),
                "flags": payload.get("flags")}  # still the private question Discord shows her
        question = h.api.messages.create(h.world.channels[channel_id], body, [])
        question.visible_to = alice.id
        yes = next(b for b in question.buttons if b.custom_id.startswith("plt:cancel:yes:"))
        ix = await h.click(alice, question, yes.custom_id)
        notice = final_reply(ix)
        assert not notice.ephemeral and "cancelled by alice" in notice.content
        assert await bot_of(h).manager.game_in_channel(channel_id) is None
