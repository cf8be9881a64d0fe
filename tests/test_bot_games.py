"""Whole games played through the real slash commands and buttons by simulated users.

A policy picks each move from the engine's legal actions; the test then makes it the way a player
would — autocomplete, the placement menu with its preview and Confirm button, Master drafts, the
raw ``act`` command — and checks what Discord received after every action.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember, InteractionRecord
from test_bot_support import bot_of, final_reply, is_png, open_table, running_bot

import engine
from bot.core.play.manager import Game
from engine.pieces import mask_to_text
from engine.policies import policy_by_name

MAX_ACTIONS = 1500


class Driver:
    """Plays the channel's game to the end, one real interaction per engine action."""

    def __init__(self, h: DiscordHarness, users: list[FakeMember], *, channel: str = "games",
                 seed: int = 1, randomness: float = 0.0) -> None:
        self.h, self.channel = h, channel
        self.users = {u.id: u for u in users}
        self.greedy = policy_by_name("greedy", seed)
        self.random = policy_by_name("random", seed)
        self.randomness = randomness
        self.rng = random.Random(seed)
        self.ways: dict[str, int] = {}
        self.turn_posts = 0
        self.own_next_turns = 0

    async def game(self) -> Game | None:
        return await bot_of(self.h).manager.game_in_channel(self.h.channel(self.channel).id)

    async def play(self) -> Game:
        game = await self.game()
        assert game is not None and game.status == "active"
        game_id = game.id
        for _ in range(MAX_ACTIONS):
            game = await self.game()
            if game is None:
                break
            assert game.state is not None and game.current is not None
            seat = game.current
            assert seat.user_id is not None, "policy seats never wait for a human"
            user = self.users[seat.user_id]
            policy = self.random if self.rng.random() < self.randomness else self.greedy
            action = policy.choose(game.state)
            posts_before = len(self.h.channel_messages(self.channel))
            ix = await self.perform(user, game, action)
            self.check_confirmation(ix, action, game.id)
            await self.check_turn_post(game, posts_before)
        finished = await bot_of(self.h).manager.game(game_id)
        assert finished is not None and finished.status == "finished", "game did not finish"
        assert await bot_of(self.h).manager.verify(game_id)
        return finished

    def count(self, way: str) -> None:
        self.ways[way] = self.ways.get(way, 0) + 1

    async def perform(self, user: FakeMember, game: Game, action: engine.Action) -> InteractionRecord:
        h, ch = self.h, self.channel
        if isinstance(action, engine.TakePuzzle):
            value = f"{action.colour} {action.slot}" if action.colour else str(action.slot)
            offered = await h.autocomplete(user, ch, "projectl play take", focused="puzzle", puzzle="")
            assert value in [c.value for c in offered]
            self.count("take")
            return await h.slash(user, ch, "projectl play take", puzzle=value)
        if isinstance(action, engine.DrawPuzzle):
            self.count("draw")
            deck = None if action.colour is None else str(action.colour)
            return await h.slash(user, ch, "projectl play draw", deck=deck)
        if isinstance(action, engine.TakeLevelOne):
            self.count("level1")
            return await h.slash(user, ch, "projectl play level1")
        if isinstance(action, engine.Upgrade):
            offered = await h.autocomplete(user, ch, "projectl play upgrade", focused="take",
                                           give=action.give.value, take="")
            assert action.take.value in [c.value for c in offered]
            self.count("upgrade")
            return await h.slash(user, ch, "projectl play upgrade", give=action.give.value,
                                 take=action.take.value)
        if isinstance(action, engine.Place):
            return await self.place(user, game, action)
        if isinstance(action, engine.Master):
            return await self.master(user, action)
        if isinstance(action, engine.Recycle):
            self.count("recycle")
            return await h.slash(user, ch, "projectl play recycle", row=str(action.colour),
                                 order=" ".join(str(s) for s in action.order))
        if isinstance(action, engine.EndFinishing):
            self.count("done")
            return await h.slash(user, ch, "projectl play done")
        if isinstance(action, engine.Pass):
            self.count("pass")
            return await h.slash(user, ch, "projectl play pass")
        raise AssertionError(f"no way to play {action!r}")

    async def place(self, user: FakeMember, game: Game, action: engine.Place) -> InteractionRecord:
        h, ch = self.h, self.channel
        cells = mask_to_text(action.mask)
        piece, card = action.shape.value, action.card
        way = self.rng.choice(["autocomplete", "menu", "act"])
        if way == "autocomplete":
            offered = await h.autocomplete(user, ch, "projectl play place", focused="cells", piece=piece,
                                           puzzle=card, cells=cells)
            assert cells in [c.value for c in offered]
            self.count("place:autocomplete")
            return await h.slash(user, ch, "projectl play place", piece=piece, puzzle=card, cells=cells)
        if way == "menu":
            menu_ix = await h.slash(user, ch, "projectl play place", piece=piece, puzzle=card)
            menu = final_reply(menu_ix)
            assert menu.ephemeral and menu.selects, menu.content
            select = menu.selects[0]
            values = [o.value for o in select.options]
            if cells in values:
                pick = await h.select(user, menu_ix.original, select.custom_id, [cells])
                preview = final_reply(pick)
                assert preview.ephemeral and preview.filenames == ["preview.png"]
                assert is_png(preview.files[0][1])
                button = preview.buttons[0]
                assert button.custom_id == f"pl:do:{game.id}:{user.id}:{game.revision}:" + \
                    str(action).replace(" ", ".")
                self.count("place:menu")
                return await h.click(user, preview.message, button.custom_id)
        self.count("place:act")
        return await h.slash(user, ch, "projectl play act", text=str(action))

    async def master(self, user: FakeMember, action: engine.Master) -> InteractionRecord:
        h, ch = self.h, self.channel
        draft_ix = None
        for place in action.placements:
            draft_ix = await h.slash(user, ch, "projectl play master-add", piece=place.shape.value,
                                     puzzle=place.card, cells=mask_to_text(place.mask))
            reply = final_reply(draft_ix)
            assert reply.ephemeral and place.placement_text() in reply.content, reply.content
            assert reply.filenames == ["preview.png"] and is_png(reply.files[0][1]), "the combined preview"
        assert draft_ix is not None
        if self.rng.random() < 0.5:
            self.count("master:button")
            button = final_reply(draft_ix).buttons[0]
            assert button.custom_id.startswith("pl:master:ok:")
            return await h.click(user, draft_ix.original, button.custom_id)
        self.count("master:command")
        return await h.slash(user, ch, "projectl play master-confirm")

    def check_confirmation(self, ix: InteractionRecord, action: engine.Action, game_id: int) -> None:
        reply = final_reply(ix)
        assert reply.ephemeral, reply.content
        assert reply.content.startswith(f"Done: `{action}`"), reply.content
        if "Your turn is over" in reply.content:  # the mat of what they built comes with it
            assert reply.filenames == ["mat.png"] and is_png(reply.files[0][1])
        else:  # mid-turn: drawn only on request; the turn panel offers the next action
            assert reply.filenames == [] and f"pl:mat:{game_id}" in [b.custom_id for b in reply.buttons]
            assert any(c.custom_id.startswith(f"plp:{game_id}:") for c in reply.components)

    async def check_turn_post(self, before: Game, posts_before: int) -> None:
        after = await bot_of(self.h).manager.game(before.id)
        assert after is not None and after.state is not None and before.state is not None
        moved = (before.state.current, before.state.turn, before.state.phase) != (
            after.state.current, after.state.turn, after.state.phase)
        posts = self.h.channel_messages(self.channel)[posts_before:]
        if not moved and after.status != "finished":
            assert posts == []
            return
        if after.status == "finished":  # the animated recap follows the results (bot/discord/recaps.py)
            posts = [p for p in posts if p.filenames != ["recap.png"]]
        assert len(posts) == 1
        post = posts[0]
        self.turn_posts += 1
        assert not post.ephemeral
        if after.status == "finished":
            assert post.filenames == ["results.png"] and is_png(post.files[0][1])
            assert "Game over" in (post.content or "")
            return
        assert post.filenames == ["table.png"] and is_png(post.files[0][1])
        assert [b.custom_id for b in post.buttons] == [f"plp:play:{after.id}", f"pl:mat:{after.id}"]
        nxt, actor = after.current, before.current
        assert nxt is not None and actor is not None
        if nxt.user_id is not None and nxt.user_id == actor.user_id:
            self.own_next_turns += 1  # Solo: the player who just moved is not pinged for the next turn
            assert f"<@{nxt.user_id}>" not in (post.content or "")
            assert f"**{nxt.name}**" in (post.content or "")
        elif nxt.user_id is not None:
            assert f"<@{nxt.user_id}>" in (post.content or "")
            assert post.payload.get("mentions") is not None


def real_renderer() -> Any:
    from bot.core.rendering.render import ThreadedRenderer

    return ThreadedRenderer()


@pytest.mark.parametrize(("players", "seed", "randomness"), [(2, 11, 0.0), (3, 14, 0.4), (4, 13, 0.2)])
async def test_full_base_game_by_humans(tmp_path: Path, players: int, seed: int, randomness: float) -> None:
    """2-4 users play to the end; some moves come from the random policy so that every kind of
    action (Master, Recycle, blind draws) is played through its command or button."""
    async with running_bot(tmp_path / "g.sqlite3", seed=seed,
                           renderer=real_renderer() if players == 2 else None) as h:
        h.settle_timeout = 120.0  # the real renderer draws the recap after the last move: a shared machine
        users = [h.add_user(name) for name in ("alice", "bob", "carol", "dave")[:players]]
        await open_table(h, users[0], users[1:], players=players, reserve=15 if players == 4 else 10)
        driver = Driver(h, users, seed=seed, randomness=randomness)
        game = await driver.play()
        assert game.state is not None and game.state.is_over
        assert driver.turn_posts >= 2 * players
        assert {"take", "upgrade", "place:act", "place:menu", "place:autocomplete"} <= set(driver.ways)
        if players == 3:
            rare = {"draw", "recycle", "level1", "master:button", "master:command", "done"}
            assert rare <= set(driver.ways)
        # "My mat" under the last table image shows the clicker's own mat, privately.
        table_posts = [m for m in h.channel_messages("games") if m.filenames == ["table.png"]]
        click = await h.click(users[1], table_posts[-1], f"pl:mat:{game.id}")
        reply = final_reply(click)
        assert reply.ephemeral and reply.filenames == ["mat.png"]


async def test_full_solo_game(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "solo.sqlite3", seed=5, renderer=real_renderer()) as h:
        h.settle_timeout = 120.0  # the real renderer draws the recap after the last move: a shared machine
        solo = h.add_user("sol")
        ix = await h.slash(solo, "games", "projectl table new", variant="solo", difficulty="hard")
        assert "started" in final_reply(ix).content
        first = h.channel_messages("games")[-1]
        assert first.filenames == ["table.png"] and f"<@{solo.id}>" in (first.content or "")
        driver = Driver(h, [solo], seed=5)
        game = await driver.play()
        assert game.state is not None and game.state.options.variant == "solo"
        assert driver.own_next_turns >= 5
        results = [p for p in h.channel_messages("games") if p.filenames == ["results.png"]][-1]
        assert "mastermind" in (results.content or "").lower()


async def test_game_with_ai_seats(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "ai.sqlite3", seed=21) as h:
        alice = h.add_user("alice")
        lobby = await open_table(h, alice, [], players=3, ai=2)
        assert "Easy AI 1" in (lobby.content or "") or "started" in (lobby.content or "")
        game = await Driver(h, [alice], seed=21).play()
        assert [s.is_ai for s in game.seats] == [False, True, True]
        log = await bot_of(h).manager.log(game.id)
        assert {row.user_id for row in log} == {alice.id, None}


async def test_turn_post_frames_what_changed_since_the_previous_post(tmp_path: Path) -> None:
    """The table posted after a turn is drawn against the state the previous post showed (the
    start of that turn), although the turn's first actions were separate commands."""
    async with running_bot(tmp_path / "changes.sqlite3", seed=31) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        manager = bot_of(h).manager
        renderer = bot_of(h).renderer
        game = await manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        turn_start = game.state
        greedy = policy_by_name("greedy", 31)
        users = {alice.id: alice, bob.id: bob}
        renderer.previous.clear()
        for _ in range(3):
            game = await manager.game_in_channel(h.channel("games").id)
            assert game is not None and game.state is not None and game.current is not None
            player = users[game.current.user_id]
            await h.slash(player, "games", "projectl play act", text=str(greedy.choose(game.state)))
        assert renderer.previous[-1] == turn_start
