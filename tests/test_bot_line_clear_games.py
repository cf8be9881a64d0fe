"""A 5-player Line Clear game played through the real slash commands and buttons.

Both marker holders act in the same channel, in an interleaved order; each move is made the way a
player would (take from their own side's list, the Ghost action's preview and Confirm button,
``choose`` for a level-up), and the log replays to the stored state at the end.
"""

from __future__ import annotations

import random
from pathlib import Path

from harness import DiscordHarness, FakeMember, InteractionRecord
from test_bot_support import bot_of, final_reply, is_png, open_table, running_bot

import engine
from bot.core.play.manager import Game
from engine.actions import GhostSplit
from engine.policies import policy_by_name

MAX_ACTIONS = 2500


class LineClearDriver:
    """Plays the channel's Line Clear game to the end, choosing at random which holder acts next."""

    def __init__(self, h: DiscordHarness, users: list[FakeMember], seed: int) -> None:
        self.h = h
        self.users = {u.id: u for u in users}
        self.rng = random.Random(seed)
        self.policies = [policy_by_name("random" if i % 2 else "greedy", seed + i) for i in range(5)]
        self.ways: dict[str, int] = {}
        self.interleaved = 0
        self.passes = 0

    async def game(self) -> Game | None:
        return await bot_of(self.h).manager.game_in_channel(self.h.channel("games").id)

    async def play(self) -> Game:
        game = await self.game()
        assert game is not None and game.status == "active"
        game_id = game.id
        last_seat = None
        for _ in range(MAX_ACTIONS):
            game = await self.game()
            if game is None:
                break
            assert game.state is not None
            acting = game.state.acting_seats
            seat = acting[self.rng.randrange(len(acting))]
            if len(acting) == 2 and seat != last_seat and last_seat in acting:
                self.interleaved += 1
            last_seat = seat
            user = self.users[game.seats[seat].user_id]  # type: ignore[index]
            action = self.policies[seat].choose(game.state.focused(seat))
            posts_before = len(self.h.channel_messages("games"))
            ix = await self.perform(user, game, action)
            reply = final_reply(ix)
            assert reply.ephemeral and reply.content.startswith(f"Done: `{action}`"), reply.content
            await self.check_pings(game, posts_before)
        finished = await bot_of(self.h).manager.game(game_id)
        assert finished is not None and finished.status == "finished", "game did not finish"
        assert await bot_of(self.h).manager.verify(game_id)
        return finished

    async def check_pings(self, before: Game, posts_before: int) -> None:
        """A turn post pings only holders whose turn has just started: both new holders when the
        markers pass, nobody when one holder finishes while the other plays on."""
        after = await self.game()
        posts = [p for p in self.h.channel_messages("games")[posts_before:] if p.filenames == ["table.png"]]
        if after is None or after.state is None or not after.state.turns or not posts:
            return
        assert before.state is not None
        new_holders = set(after.state.table.markers) != set(before.state.table.markers)  # type: ignore[union-attr]
        expected = {after.seats[s].user_id for s in after.state.acting_seats} if new_holders else set()
        mentioned = {u for u in self.users if f"<@{u}>" in (posts[-1].content or "")}
        assert mentioned == expected, (mentioned, expected, posts[-1].content)
        self.passes += new_holders

    def count(self, way: str) -> None:
        self.ways[way] = self.ways.get(way, 0) + 1

    async def perform(self, user: FakeMember, game: Game, action: engine.Action) -> InteractionRecord:
        h = self.h
        if isinstance(action, engine.TakePuzzle):
            value = f"{action.colour} {action.slot}"
            offered = await h.autocomplete(user, "games", "projectl play take", focused="puzzle", puzzle="")
            assert value in [c.value for c in offered]
            self.count("take")
            return await h.slash(user, "games", "projectl play take", puzzle=value)
        if isinstance(action, GhostSplit):
            split = str(action)[len("ghost "):].split(";")[0].strip()
            offered = await h.autocomplete(user, "games", "projectl play ghost", focused="split", split="")
            assert split in [c.value for c in offered]
            place = "; ".join(p.placement_text() for p in action.placements) or None
            preview_ix = await h.slash(user, "games", "projectl play ghost", split=split, place=place)
            preview = final_reply(preview_ix)
            assert preview.ephemeral and preview.filenames == ["ghost.png"], preview.content
            assert is_png(preview.files[0][1])
            self.count("ghost")
            return await h.click(user, preview.message, preview.buttons[0].custom_id)
        if isinstance(action, engine.Choose):
            self.count("choose")
        else:
            self.count(action.kind)
        return await h.slash(user, "games", "projectl play act", text=str(action))


async def test_five_player_line_clear_game_with_ghost_actions_and_level_ups(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "lc.sqlite3", seed=31) as h:
        users = [h.add_user(name) for name in ("ann", "bob", "cat", "dan", "eve")]
        await open_table(h, users[0], users[1:], players=5)
        first_post = next(m for m in h.channel_messages("games") if m.filenames == ["table.png"])
        game = await LineClearDriver(h, users, seed=31).game()
        assert game is not None and game.state is not None
        holders = [game.seats[s] for s in game.state.acting_seats]
        assert len(holders) == 2
        # Both holders are pinged when the game starts.
        for seat in holders:
            assert f"<@{seat.user_id}>" in (first_post.content or ""), first_post.content
        driver = LineClearDriver(h, users, seed=31)
        finished = await driver.play()
        assert finished.state is not None and finished.state.options.variant == "lineclear"
        assert driver.interleaved > 10
        assert driver.passes > 10  # both new holders pinged at every marker pass
        assert driver.ways.get("ghost", 0) >= 1, driver.ways
        assert driver.ways.get("choose", 0) >= 1, driver.ways


async def test_fifty_simultaneous_commands_from_both_holders_through_discord(tmp_path: Path) -> None:
    """25 ``/projectl play level1`` from each marker holder, all delivered while the channel's
    lock is held (none handled before the last arrives): every one is answered, exactly each
    holder's three are applied, the rest refused privately, and the log replays."""
    from bench.harnessed import open_table as open_harnessed
    from bench.harnessed import running

    async with running(tmp_path / "lc-races.sqlite3") as h:
        users = [h.add_user(f"p{i}") for i in range(5)]
        game = await open_harnessed(h, users[0], users[1:], players=5)
        white, black = game.state.table.markers
        holders = [h.user(game.seats[white].user_id), h.user(game.seats[black].user_id)]
        async with h.bot.manager.lock(game.channel_id):
            sent = [await h.slash(holders[i % 2], "games", "projectl play level1", settle=False)
                    for i in range(50)]
        await h.settle()
        replies = [[r for r in ix.responses if not r.deferred][-1] for ix in sent]
        applied = [r for r in replies if (r.content or "").startswith("Done: `level1`")]
        assert len(applied) == 6
        assert all(r.ephemeral and r.content for r in replies)
        rows = await h.bot.manager.log(game.id)
        assert sorted(r.seat for r in rows) == sorted([white] * 3 + [black] * 3)
        assert await h.bot.manager.verify(game.id)
