"""The inbox (bot/core/days/inbox.py, bot/discord/inbox.py): /projectl-games mine lists the games
where it is your move, oldest wait first, with a link to each table post, then the games waiting
on others with whom; the reply that ends your turn offers "Next game waiting for you"."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from days_support import START, THREE, days_bot, forge_click, game_of, start_game
from test_bot_support import assert_refused, final_reply, open_table

from bot.core.clock import ManualClock
from bot.core.days.inbox import inbox_of, next_waiting
from bot.core.storage.days import TurnKey, TurnRow


def _turn(game: int, seat: int, user: int, minutes: int, channel: int = 7) -> tuple[TurnRow, int | None]:
    row = TurnRow(TurnKey(game, 1, "play", seat), user, channel, START + timedelta(minutes=minutes),
                  None, None, 0, None, None, False, None, None)
    return row, 900 + game


def test_the_inbox_puts_your_games_first_oldest_wait_first() -> None:
    rows = [_turn(3, 0, 1, 5), _turn(1, 1, 2, 10), _turn(2, 0, 1, 20), _turn(4, 0, 1, 30), _turn(4, 1, 2, 1)]
    inbox = inbox_of(sorted(rows, key=lambda r: r[0].started_at), 55, user_id=1)
    assert [w.game_id for w in inbox.mine] == [3, 2, 4]  # game 4: a Line Clear holder, since its own turn
    assert inbox.mine[2].since == START + timedelta(minutes=30)
    assert [(w.game_id, w.users) for w in inbox.others] == [(1, (2,))]
    assert inbox.mine[0].link == "https://discord.com/channels/55/7/903"
    assert next_waiting(inbox, after_game=3) is inbox.mine[1]
    assert next_waiting(inbox_of([], 55, 1)) is None


async def test_mine_lists_your_games_and_next_game_links_the_oldest(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, users=("alice", "bob")) as h:
        alice, bob = h.user("alice"), h.user("bob")
        h.add_channel("second")
        await open_table(h, alice, [bob], channel="games")
        first = await game_of(h, "games")
        clock.advance(hours=3)
        await open_table(h, bob, [alice], channel="second")
        second = await game_of(h, "second")
        # The deal (seed 1234) gives the first move to the host's opponent in each game: bob in
        # the first, alice in the second.
        assert (first.current.user_id, second.current.user_id) == (bob.id, alice.id)  # type: ignore[union-attr]
        clock.advance(hours=2)

        reply = final_reply(await h.slash(alice, "games", "projectl-games mine"))
        assert reply.ephemeral
        mine, _, others = reply.content.partition("Waiting on others")
        second_channel = h.channel("second").id
        assert (f"[Game {second.id}](https://discord.com/channels/{h.world.guild_id}/{second_channel}/"
                in mine)
        assert "your move for 2 h 0 min" in mine and f"Game {first.id}]" not in mine
        assert f"[Game {first.id}]" in others and f"<@{bob.id}>'s move for 5 h 0 min" in others

        text = final_reply(await h.slash(bob, "games", "projectl-games mine")).content
        assert (text.index(f"Game {first.id}]") < text.index("Waiting on others")
                < text.index(f"Game {second.id}]"))

        pt = final_reply(await h.slash(alice, "games", "projectl-games mine", locale="pt-BR")).content
        assert pt.startswith("**Esperando por você**")
        nobody = h.add_user("carol", id=1099)
        assert "No game on this server is waiting for you." in final_reply(
            await h.slash(nobody, "games", "projectl-games mine")).content


async def test_the_reply_that_ends_a_turn_offers_the_next_game(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, users=("alice", "bob")) as h:
        alice, bob = h.user("alice"), h.user("bob")
        h.add_channel("second")
        await open_table(h, alice, [bob], channel="games")
        await open_table(h, alice, [bob], channel="second")
        games = [await game_of(h, "games"), await game_of(h, "second")]
        manager = h.bot.manager  # type: ignore[attr-defined]
        # Alice's move in both games: in the first, make it hers by playing bob's turn if needed.
        for game in games:
            channel = "games" if game is games[0] else "second"
            found = await game_of(h, channel)
            if found.current.user_id != alice.id:  # type: ignore[union-attr]
                for _ in range(3):
                    await h.slash(bob, channel, "projectl play level1")
            assert (await game_of(h, channel)).current.user_id == alice.id  # type: ignore[union-attr]
        clock.advance(hours=1)
        last = None
        for _ in range(3):
            last = await h.slash(alice, "games", "projectl play level1")
        reply = final_reply(last)
        [button] = [b for b in reply.buttons if b.custom_id.startswith("plg:next:")]
        assert button.label == "Next game waiting for you"
        shown = final_reply(await h.click(alice, reply.message, button.custom_id)).content
        assert f"[Game {games[1].id}]" in shown and "has waited for you for 1 h 0 min" in shown
        assert manager is not None


async def test_a_game_you_left_is_no_longer_in_your_inbox(tmp_path: Path) -> None:
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        assert game.current is not None
        leaver = next(h.user(n) for n in THREE if h.user(n).id != game.current.user_id)
        before = final_reply(await h.slash(leaver, "games", "projectl-games mine")).content
        assert f"[Game {game.id}]" in before
        confirm = final_reply(await h.slash(leaver, "games", "projectl table leave"))
        await h.click(leaver, confirm.message, confirm.buttons[0].custom_id)
        text = final_reply(await h.slash(leaver, "games", "projectl-games mine")).content
        assert f"[Game {game.id}]" not in text and "Waiting on others" not in text
        stayed = next(h.user(n) for n in THREE if h.user(n).id not in (leaver.id, game.current.user_id))
        kept = final_reply(await h.slash(stayed, "games", "projectl-games mine")).content
        assert f"[Game {game.id}]" in kept


async def test_a_long_inbox_keeps_your_games_first_and_counts_what_does_not_fit(tmp_path: Path) -> None:
    """Sixteen games (eight on you, eight on bob) make more lines than one message holds: the inbox
    was cut from the top, losing its "Waiting for you" part (the games on you, oldest first) under a
    line pointing to `/projectl status`. Now every game is either listed or counted, yours first."""
    clock = ManualClock(START)
    async with days_bot(tmp_path / "db.sqlite3", clock, users=("alice", "bob")) as h:
        alice, bob = h.user("alice"), h.user("bob")
        ids: dict[str, list[int]] = {"mine": [], "others": []}
        for index in range(16):
            channel = f"table-{index}"
            h.add_channel(channel)
            host, guest = (bob, alice) if index % 2 == 0 else (alice, bob)  # seed 1234: the guest moves first
            await open_table(h, host, [guest], channel=channel)
            game = await game_of(h, channel)
            assert game.current is not None and game.current.user_id == guest.id
            ids["mine" if guest is alice else "others"].append(game.id)
            clock.advance(minutes=5)
        for locale in ("en-US", "pt-BR"):
            reply = final_reply(await h.slash(alice, "games", "projectl-games mine", locale=locale))
            text = reply.content
            assert reply.ephemeral and len(text) <= 2000
            assert text.startswith(("**Waiting for you**", "**Esperando por você**")), text[:80]
            mine, _, others = text.partition("\n\n")
            listed_mine = [g for g in ids["mine"] if f"[Game {g}]" in mine or f"[Partida {g}]" in mine]
            assert listed_mine == ids["mine"][:len(listed_mine)], mine  # oldest first
            assert len(listed_mine) == 8, mine  # yours all listed: the others' give way first
            listed_others = [g for g in ids["others"] if f"ame {g}]" in others or f"tida {g}]" in others]
            last = others.splitlines()[-1]
            counted = int(re.findall(r"\d+", last)[0]) if last.startswith("…") else 0
            assert len(listed_others) + counted == 8, others
            assert "/projectl status" not in text


@pytest.mark.parametrize("custom_id", [
    "plg:next:abc", "plg:next:12345678901234567890", "plg:next:1:x",      # Next game waiting for you
    "pln:open:abc", "pln:open:1:extra", "pln:zzz", "pln:form:1",          # Plan my next turn; the form's id
])
async def test_a_malformed_inbox_or_plan_button_is_refused_privately(tmp_path: Path, custom_id: str) -> None:
    """A forged or garbled ``plg:next:`` or ``pln:`` id (a tampered client, a future version) was
    answered by nobody: Discord showed "This interaction failed". Now it is refused privately,
    the post it was hung on unchanged."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        await start_game(h)
        post = h.channel_messages("games")[-1]
        before = (post.content, [b.custom_id for b in post.buttons])
        text = assert_refused(await forge_click(h, h.user("bob"), post, custom_id), "not valid")
        assert "Nothing was changed" in text
        assert (post.content, [b.custom_id for b in post.buttons]) == before


async def test_the_private_replys_buttons_hung_on_the_public_post_are_refused(tmp_path: Path) -> None:
    """**Next game waiting for you** and **Plan my next turn** sit on a player's private reply. Hung
    on the public turn post (a tampered client), they answered as if pressed there: refused
    privately now, the post unchanged, as every private reply's button is."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        assert game.current is not None
        planner = next(h.user(s.user_id) for s in game.seats if s.user_id != game.current.user_id)
        post = h.channel_messages("games")[-1]
        before = (post.content, [b.custom_id for b in post.buttons])
        for custom_id in (f"plg:next:{game.id}", f"pln:open:{game.id}"):
            assert_refused(await forge_click(h, planner, post, custom_id), "not valid")
        assert not h.world.open_modals  # no Plan form opened
        assert (post.content, [b.custom_id for b in post.buttons]) == before
