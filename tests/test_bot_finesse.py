"""A whole Finesse game through the real bot: the table option, Insert and End turn from the turn
panel's buttons and from the text notation, credits named in the posts, `/projectl rules
finesse` with the live tile."""

from __future__ import annotations

from pathlib import Path

from harness import FakeMember, InteractionRecord
from test_bot_games import Driver
from test_bot_support import bot_of, final_reply, open_table, running_bot

import engine
from bot.core.play.manager import Game
from bot.core.wording import texts


class FinesseDriver(Driver):
    """Plays Insert and End turn the first time through the panel's buttons, then as text."""

    async def perform(self, user: FakeMember, game: Game, action: engine.Action) -> InteractionRecord:
        if isinstance(action, (engine.actions.Insert, engine.actions.EndTurn)):
            kind = "insert" if isinstance(action, engine.actions.Insert) else "end turn"
            step = "ins" if kind == "insert" else "end"
            if f"{kind}:button" not in self.ways:
                panel = await self.h.click(user, self.table_post(), f"plp:play:{game.id}")
                reply = final_reply(panel)
                wanted = [b for b in reply.buttons if b.custom_id.endswith(f":{step}")]
                assert wanted, [b.custom_id for b in reply.buttons]
                label = texts.PANEL_INSERT if kind == "insert" else texts.PANEL_END_TURN
                assert wanted[0].label == label
                self.count(f"{kind}:button")
                return await self.h.click(user, panel.original, wanted[0].custom_id)
            self.count(f"{kind}:act")
            return await self.h.slash(user, self.channel, "projectl play act", text=str(action))
        return await super().perform(user, game, action)

    def table_post(self):  # type: ignore[no-untyped-def]
        posts = [m for m in self.h.channel_messages(self.channel)
                 if any(b.custom_id.startswith("plp:play:") for b in m.buttons)]
        return posts[-1]


async def test_a_finesse_game_with_inserts_played_to_the_end(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "f.sqlite3", seed=3) as h:
        users = [h.add_user(name) for name in ("alice", "bob")]
        await open_table(h, users[0], users[1:], players=2, expansions="finesse")
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None and game.state.options.finesse
        # rules: the live tile is named once one is face up (rounds 1-2: none)
        ix = await h.slash(users[0], "games", "projectl rules", topic="finesse")
        assert "No live tile now" in final_reply(ix).content
        driver = FinesseDriver(h, users, seed=3)
        finished = await driver.play()
        assert finished.state is not None and finished.state.is_over
        assert {"insert:button", "end turn:button"} <= set(driver.ways), driver.ways
        said = "\n".join(m.content or "" for m in h.channel_messages("games"))
        assert "+1 credit: " in said and "(Finesse: " in said


async def test_rules_finesse_names_the_live_tile(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "r.sqlite3", seed=4) as h:
        users = [h.add_user(name) for name in ("alice", "bob")]
        await open_table(h, users[0], users[1:], players=2, expansions="finesse")
        manager = bot_of(h).manager
        game = await manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        # Play greedy moves through the text command until round 3 (the first live tile).
        greedy = engine.policies.policy_by_name("greedy", 4)
        by_id = {u.id: u for u in users}
        while game.state.round < 3:
            seat = game.current
            assert seat is not None and seat.user_id is not None
            action = greedy.choose(game.state)
            await h.slash(by_id[seat.user_id], "games", "projectl play act", text=str(action))
            game = await manager.game_in_channel(h.channel("games").id)
            assert game is not None and game.state is not None
        live = engine.expansions.finesse.view(game.state).live  # type: ignore[union-attr]
        assert live is not None
        ix = await h.slash(users[1], "games", "projectl rules", topic="finesse")
        reply = final_reply(ix)
        assert reply.ephemeral and f"Live tile now: {live.id}" in reply.content
        assert live.text in reply.content


async def test_a_player_who_leaves_a_finesse_game_gives_their_credits_back_to_the_bank(
    tmp_path: Path,
) -> None:
    """docs/rules.md §10: a removed player's credits go back to the bank. The game's log says how
    many, the bank holds them, and the stored game still replays from its log."""
    async with running_bot(tmp_path / "l.sqlite3", seed=4) as h:
        users = [h.add_user(name) for name in ("alice", "bob", "carol")]
        await open_table(h, users[0], users[1:], players=3, expansions="finesse")
        manager = bot_of(h).manager
        game = await manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        greedy = engine.policies.policy_by_name("greedy", 4)
        by_id = {u.id: u for u in users}
        finesse = engine.expansions.finesse

        def leaver_seat(state: engine.GameState) -> int | None:
            fv = finesse.view(state)
            assert fv is not None
            return next((s for s in range(3) if s != state.current and fv.credits(s)), None)

        while leaver_seat(game.state) is None:
            seat = game.current
            assert seat is not None and seat.user_id is not None and game.state.round < 11
            move = str(greedy.choose(game.state))
            await h.slash(by_id[seat.user_id], "games", "projectl play act", text=move)
            game = await manager.game_in_channel(h.channel("games").id)
            assert game is not None and game.state is not None
        seat_index = leaver_seat(game.state)
        assert seat_index is not None
        before = finesse.view(game.state)
        assert before is not None
        held = before.credits(seat_index)
        leaver = by_id[next(s.user_id for s in game.seats if s.seat == seat_index)]  # type: ignore[index]
        confirm = final_reply(await h.slash(leaver, "games", "projectl table leave"))
        await h.click(leaver, confirm.message, confirm.buttons[0].custom_id)
        game = await manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        after = finesse.view(game.state)
        assert after is not None and after.credits(seat_index) == 0 and after.bank == before.bank + held
        plural = "s" if held != 1 else ""
        said = f"{leaver.name}'s {held} credit{plural} went back to the bank."
        page = final_reply(await h.slash(users[0], "games", "projectl log")).embeds[0]
        assert said in (page.description or ""), page.description
        assert await manager.verify(game.id)
