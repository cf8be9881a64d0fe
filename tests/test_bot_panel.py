"""The private turn panel: a whole turn by taps, counted; exactly the legal actions; stale, foreign,
forged and restarted panels; Discord's component limits.

A "tap" is one interaction the player sends (a button press or a menu choice); the goals from the
issue are counted by :class:`Player`: take <= 2 taps, level 1 = 1 tap, place <= 4 taps with the
preview's Confirm, a typical turn <= 10 taps with no typing at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember, InteractionRecord, MessageRecord
from test_bot_games import Driver
from test_bot_support import assert_refused, bot_of, final_reply, is_png, open_table, running_bot

import engine
from bench.limits import check_call
from bot.core.play.manager import Game
from bot.core.play.panel import (
    MAX_CUSTOM_ID,
    PanelKey,
    decode_draft,
    encode_draft,
    offer_for,
    page_of,
    parse_panel_id,
)
from bot.discord.panel_views import main_items
from engine import serialisation
from engine.pieces import SHAPES, mask_to_text


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "panel.sqlite3") as harness:
        yield harness


async def game_of(h: DiscordHarness, channel: str = "games") -> Game:
    game = await bot_of(h).manager.game_in_channel(h.channel(channel).id)
    assert game is not None and game.state is not None
    return game


def step_of(custom_id: str) -> str | None:
    parsed = parse_panel_id(custom_id)
    return None if parsed is None else parsed.step


class Player:
    """One player tapping their panel; counts every interaction they send."""

    def __init__(self, h: DiscordHarness, user: FakeMember) -> None:
        self.h, self.user = h, user
        self.taps = 0
        self.panel: MessageRecord | None = None

    def component(self, step: str) -> Any:
        assert self.panel is not None
        message = self.h.message(self.panel.id)
        for comp in message.components:
            if getattr(comp, "custom_id", None) and step_of(comp.custom_id) == step:
                return comp
        raise AssertionError(f"no {step!r} on the panel: {[c.custom_id for c in message.components]}")

    def has(self, step: str) -> bool:
        try:
            self.component(step)
        except AssertionError:
            return False
        return True

    def _follow(self, ix: InteractionRecord) -> InteractionRecord:
        """A tap that acted answers with a new message carrying the next panel."""
        reply = final_reply(ix)
        if reply.kind != "edit" and reply.message is not None and reply.components:
            self.panel = reply.message
        return ix

    async def play(self, post: MessageRecord) -> InteractionRecord:
        self.taps += 1
        play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
        ix = await self.h.click(self.user, post, play.custom_id)
        reply = final_reply(ix)
        assert reply.ephemeral and reply.message is not None
        self.panel = reply.message
        return ix

    async def tap(self, step: str) -> InteractionRecord:
        self.taps += 1
        assert self.panel is not None
        return self._follow(await self.h.click(self.user, self.h.message(self.panel.id),
                                               self.component(step).custom_id))

    async def choose(self, step: str, value: str) -> InteractionRecord:
        self.taps += 1
        assert self.panel is not None
        select = self.component(step)
        assert value in [o.value for o in select.options], (value, [o.value for o in select.options])
        return self._follow(await self.h.select(self.user, self.h.message(self.panel.id),
                                                select.custom_id, [value]))

    async def choose_paged(self, step: str, value: str) -> InteractionRecord:
        """Choose ``value``, turning the menu's pages ("more") until it is listed."""
        for _ in range(20):
            select = self.component(step)
            values = [o.value for o in select.options]
            if value in values:
                return await self.choose(step, value)
            await self.choose(step, values[-1])
        raise AssertionError(f"{value} never listed")

    async def confirm(self) -> InteractionRecord:
        """The preview's Confirm button (the same ``pl:do`` button as the typed placement menu)."""
        self.taps += 1
        assert self.panel is not None
        message = self.h.message(self.panel.id)
        button = next(b for b in message.buttons if b.custom_id.startswith("pl:do:"))
        return self._follow(await self.h.click(self.user, message, button.custom_id))


def turn_post(h: DiscordHarness, channel: str = "games") -> MessageRecord:
    posts = [m for m in h.channel_messages(channel) if any(b.custom_id.startswith("plp:play:")
                                                           for b in m.buttons)]
    assert posts, "no turn post with a Play button"
    return posts[-1]


async def two_players(h: DiscordHarness) -> tuple[FakeMember, FakeMember, Player]:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2)
    game = await game_of(h)
    current = h.user(game.current.user_id)  # type: ignore[union-attr]
    return alice, bob, Player(h, current)


# -- the goals, counted ---------------------------------------------------------------------------


async def test_a_typical_turn_by_taps_alone(h: DiscordHarness) -> None:
    """Play → take → place (piece, spot + preview, Confirm) → level 1: 6 taps, no typing."""
    _, _, me = await two_players(h)
    slash_before = sum(1 for ix in h.world.interactions.values() if ix.type == 2)
    game = await game_of(h)
    await me.play(turn_post(h))
    assert me.taps == 1
    opened = h.message(me.panel.id)  # type: ignore[union-attr]
    assert opened.filenames == ["mat.png"]
    assert not any(b.custom_id.startswith("pl:mat:") for b in opened.buttons), "the mat is already there"

    take = engine.TakePuzzle(engine.Colour.WHITE, 1)
    card = game.state.table.white_row[0]  # type: ignore[union-attr]
    await me.choose("take", str(take))
    assert me.taps == 2, "take <= 2 taps"
    game = await game_of(h)
    assert game.state.players[game.current.seat].puzzle(card) is not None  # type: ignore[union-attr]

    before = me.taps
    await me.choose("place", "1")
    assert not me.has("puz"), "one puzzle: the panel does not ask which"
    first_spot = me.component("at").options[0].value
    preview = await me.choose("at", first_spot)
    shown = final_reply(preview)
    assert shown.filenames == ["preview.png"] and is_png(shown.files[0][1])
    await me.confirm()
    assert me.taps - before == 3, "place <= 4 taps including Confirm (3 with one puzzle)"
    game = await game_of(h)
    assert game.state.actions_left == 1
    puzzle = game.state.players[game.current.seat].puzzle(card)  # type: ignore[union-attr]
    assert puzzle is not None and mask_to_text(puzzle.filled) == first_spot

    before = me.taps
    await me.tap("lvl")
    assert me.taps - before == 1, "level 1 = 1 tap"
    game = await game_of(h)
    assert game.current.user_id != me.user.id  # type: ignore[union-attr]
    assert me.taps == 6 <= 10
    slash_after = sum(1 for ix in h.world.interactions.values() if ix.type == 2)
    assert slash_after == slash_before, "no typing"
    assert await bot_of(h).manager.verify(game.id)


async def test_upgrade_and_recycle_in_two_taps_each(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    await me.tap("lvl")
    me.taps = 0
    await me.choose("give", "1")
    offered = [o.value for o in me.component("upg").options]
    game = await game_of(h)
    legal = [str(a) for a in engine.legal_actions(game.state) if isinstance(a, engine.Upgrade)
             and a.give is engine.Shape.MONO]
    assert offered == legal
    await me.choose("upg", "upgrade 1 to 2")
    assert me.taps == 2
    game = await game_of(h)
    supply = game.state.players[game.current.seat].supply  # type: ignore[union-attr]
    assert supply[engine.Shape.DOMINO.index] == 2
    me.taps = 0
    await me.tap("rec")
    orders = [o.value for o in me.component("rs").options]
    assert len(orders) == 24 and all(v.startswith("recycle white ") for v in orders)
    row_before = game.state.table.white_row  # type: ignore[union-attr]
    await me.choose("rs", "recycle white 4 3 2 1")
    assert me.taps == 2
    game = await game_of(h)
    assert game.state.table.white_row != row_before  # type: ignore[union-attr]
    assert game.current.user_id != me.user.id  # type: ignore[union-attr]


async def test_master_one_spot_per_puzzle_then_confirm(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    game = await game_of(h)
    cards = list(game.state.table.white_row[:2])  # type: ignore[union-attr]
    await me.play(turn_post(h))
    await me.choose("take", "take white 1")
    await me.choose("take", "take white 2")
    assert me.has("ms")
    await me.tap("ms")
    assert me.component("mok").disabled
    spots = []
    for card in cards:
        game = await game_of(h)
        index = str([p.card for p in game.state.players[game.current.seat].puzzles].index(card))
        await me.choose("mc", card)
        await me.choose("mp", me.component("mp").options[0].value)
        spot = me.component("ma").options[0].value
        spots.append(spot)
        await me.choose("ma", spot)
        assert index  # the puzzle is named by its position in the id, the card in the menu
    panel = h.message(me.panel.id)  # type: ignore[union-attr]
    assert all(c in panel.content for c in cards)
    assert not me.has("mc"), "both puzzles are in the draft; two pieces of supply: none left"
    # The message with Confirm shows every drafted placement drawn together (the combined preview).
    assert panel.filenames == ["preview.png"] and is_png(panel.files[0][1])
    drawn = [c for c in bot_of(h).renderer.calls if c.startswith("master:")]
    assert len(drawn) == 2 and drawn[0].count(" on ") == 1, "a preview after each placement added"
    await me.tap("mok")
    game = await game_of(h)
    log = await bot_of(h).manager.log(game.id)
    assert log[-1].action.startswith("master ")
    shown = drawn[-1][len("master:"):].split("; ")
    assert sorted(shown) == sorted(log[-1].action[len("master "):].split("; ")), "what Confirm played"
    assert [p.split(" on ")[1].split()[0] for p in shown] == cards, "in the order they were chosen"
    assert game.current.user_id != me.user.id  # type: ignore[union-attr]


async def test_typed_master_draft_shows_every_placement_before_confirm(h: DiscordHarness) -> None:
    """`/projectl play master-add`: each answer (the one with Confirm Master) carries the combined
    preview of the whole draft so far; Confirm plays exactly what the last preview showed."""
    _, _, me = await two_players(h)
    game = await game_of(h)
    cards = list(game.state.table.white_row[:2])  # type: ignore[union-attr]
    for slot in ("white 1", "white 2"):
        await h.slash(me.user, "games", "projectl play take", puzzle=slot)
    game = await game_of(h)
    player = game.state.players[game.current.seat]  # type: ignore[union-attr]
    draft = [engine.placements_for(game.state.cards, player, card=card, shape=shape)[0]
             for card, shape in zip(cards, (engine.Shape.MONO, engine.Shape.DOMINO), strict=True)]
    answer = None
    for n, place in enumerate(draft, start=1):
        ix = await h.slash(me.user, "games", "projectl play master-add", piece=place.shape.value,
                           puzzle=place.card, cells=mask_to_text(place.mask))
        answer = final_reply(ix)
        assert answer.ephemeral and answer.filenames == ["preview.png"] and is_png(answer.files[0][1])
        assert bot_of(h).renderer.calls[-1] == "master:" + "; ".join(p.placement_text() for p in draft[:n])
    assert answer is not None
    confirm = next(b for b in answer.buttons if b.custom_id.startswith("pl:master:ok:"))
    await h.click(me.user, answer.message, confirm.custom_id)
    log = await bot_of(h).manager.log(game.id)
    assert log[-1].action == str(engine.Master(tuple(draft)))


def test_finishing_touches_offer_places_and_done() -> None:
    from engine.policies import policy_by_name

    state = engine.new_game(engine.Options(players=2), 7)
    policy = policy_by_name("greedy", 1)
    while state.phase is engine.Phase.PLAY:
        state = engine.apply(state, policy.choose(state)).state
    assert state.phase is engine.Phase.FINISHING
    offer = offer_for(state, state.current)
    steps = [step_of(i.item.custom_id) for i in main_items(PanelKey(1, 2, 3), offer, None)]
    assert "done" in steps
    assert not {"take", "lvl", "ms", "give", "rec", "pass"} & set(steps)
    assert ("place" in steps) == any(a.kind == "place" for a in engine.legal_actions(state))
    assert offer_for(state, 1 - state.current).actions == (), "only the seat holding the move"


# -- exactly the legal actions -----------------------------------------------------------------------


async def test_panel_lists_exactly_the_engines_actions(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    game = await game_of(h)
    legal = engine.legal_actions(game.state)
    takes = {str(a) for a in legal if a.kind in ("take", "draw")}
    assert {o.value for o in me.component("take").options} == takes
    assert not me.has("place") and not me.has("ms"), "no puzzle yet: nothing to place"
    gives = {a.give.value for a in legal if isinstance(a, engine.Upgrade)}
    assert {o.value for o in me.component("give").options} == gives
    assert me.has("lvl") and me.has("rec") and not me.has("pass") and not me.has("undo")
    await me.choose("take", "take white 1")
    game = await game_of(h)
    shapes = {a.shape.value for a in engine.legal_actions(game.state) if isinstance(a, engine.Place)}
    assert {o.value for o in me.component("place").options} == shapes
    assert me.has("ms") and not me.has("undo"), "taking refilled the row: no undo"
    await me.tap("lvl")
    assert me.has("undo")


async def test_undo_button_takes_back_and_shows_the_panel(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    await me.tap("lvl")
    game = await game_of(h)
    assert game.state.actions_left == 2
    ix = await me.tap("undo")
    reply = final_reply(ix)
    assert "Took back `level1`" in (reply.content or "")
    game = await game_of(h)
    assert game.state.actions_left == 3
    assert me.has("lvl") and not me.has("undo")
    await me.tap("lvl")
    assert (await game_of(h)).state.actions_left == 2


# -- refusals ----------------------------------------------------------------------------------------


async def test_only_the_player_to_move_can_use_play_and_panel(h: DiscordHarness) -> None:
    alice, bob, me = await two_players(h)
    other = bob if me.user.id == alice.id else alice
    ix = await h.click(other, turn_post(h), turn_post(h).buttons[0].custom_id)
    assert_refused(ix, "not your turn")
    await me.play(turn_post(h))
    # the panel is ephemeral: forge the other player's tap on a copy of it
    from bench.harnessed import forge_click

    take = me.component("take")
    forged = await forge_click(h, other, "games", me.panel, take.custom_id, [take.options[0].value])
    assert_refused(forged, "That button is for")
    game = await game_of(h)
    assert game.state.actions_left == 3


async def test_a_used_panel_is_stale_and_changes_nothing(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    old = me.panel
    assert old is not None
    l1 = me.component("lvl").custom_id
    await me.tap("lvl")
    revision = (await game_of(h)).revision
    ix = await h.click(me.user, h.message(old.id), l1)
    assert_refused(ix, "out of date", "the game changed")  # a single-turn table: any commit
    fresh = final_reply(ix)  # the refusal carries the fresh panel, at the game's new revision
    assert any(step_of(c.custom_id) == "lvl" and parse_panel_id(c.custom_id).key.stamp == str(revision)  # type: ignore[union-attr]
               for c in fresh.components)
    assert (await game_of(h)).revision == revision
    select = h.message(old.id).component(next(c.custom_id for c in h.message(old.id).selects
                                              if step_of(c.custom_id) == "take"))
    ix = await h.select(me.user, h.message(old.id), select.custom_id, [select.options[0].value])
    assert_refused(ix, "out of date")
    assert (await game_of(h)).revision == revision


@pytest.mark.parametrize("custom_id", [
    "plp:", "plp:play:x", "plp:1:2:3", "plp:1:2:3:nosuch", "plp:1:2:3:ma:zz:9:Q", "plp:1:2:3:ms:9zz",
    "plp:99999999999999999999999:1:1:l1", "plp:1:2:3:at:L3",
])
async def test_forged_panel_ids_are_answered(h: DiscordHarness, custom_id: str) -> None:
    from bench.harnessed import forge_click

    alice, bob, me = await two_players(h)
    parsed = parse_panel_id(custom_id)
    if parsed is not None and parsed.key.user_id not in (0, me.user.id):
        custom_id = custom_id.replace(f":{parsed.key.user_id}:", f":{me.user.id}:", 1)
    ix = await forge_click(h, me.user, "games", turn_post(h), custom_id)
    reply = final_reply(ix)
    assert reply.ephemeral and ("not valid" in reply.content or "out of date" in reply.content
                                or "no longer open" in reply.content), reply.content


# -- restarts -----------------------------------------------------------------------------------------


def same_players(h: DiscordHarness, user_ids: dict[str, int]) -> None:
    """After a restart: the players keep their Discord ids in the new world."""
    for name, user_id in user_ids.items():
        member = h.add_user(name)
        del h.world.users[member.id]
        member.id = user_id
        h.world.users[user_id] = member


async def restart_table(h: DiscordHarness) -> tuple[FakeMember, int, dict[str, int]]:
    """A started two-player table in #games, for a restart test: the player to act, the channel's
    id and the players' ids (to carry over with :func:`reopen`)."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2)
    me = h.user((await game_of(h)).current.user_id)  # type: ignore[union-attr]
    return me, h.channel("games").id, {alice.name: alice.id, bob.name: bob.id}


async def reopen(h: DiscordHarness, channel_id: int, user_ids: dict[str, int]) -> None:
    """The restarted bot's world: the same #games channel and players, and the bot settled."""
    from test_bot_restart import same_channel

    same_channel(h, "games", channel_id)
    same_players(h, user_ids)
    await h.settle()


async def test_panel_works_after_a_restart(tmp_path: Path) -> None:
    from test_bot_restart import carry_message, harness

    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        who, channel_id, user_ids = await restart_table(first)
        me = Player(first, who)
        await me.play(turn_post(first))
        await me.choose("take", "take white 1")
        await me.choose("take", "take white 2")
        await me.choose("place", "1")
        payload = dict(first.message(me.panel.id).payload)  # type: ignore[union-attr]
    async with harness(db) as second:
        await reopen(second, channel_id, user_ids)
        carried = carry_message(second, channel_id, payload)
        carried.visible_to = None
        me2 = Player(second, second.user(who.name))
        me2.panel = carried
        puzzle = me2.component("puz").options[0].value
        await me2.choose("puz", puzzle)
        spot = me2.component("at").options[0].value
        await me2.choose("at", spot)
        await me2.confirm()
        game = await game_of(second)
        assert game.state.actions_left == 0 or game.current.user_id != me2.user.id  # type: ignore[union-attr]
        log = await bot_of(second).manager.log(game.id)
        assert log[-1].action == f"place 1 on {puzzle} at {spot}"
        assert await bot_of(second).manager.verify(game.id)


async def draft_master(h: DiscordHarness, me: FakeMember) -> tuple[list[engine.Place], InteractionRecord]:
    """``me`` (the current player) takes white 1 and white 2, then drafts a Master with
    ``master-add``: the mono on the first, the domino on the second. Returns the placements and
    the last ``master-add`` interaction."""
    game = await game_of(h)
    cards = list(game.state.table.white_row[:2])  # type: ignore[union-attr]
    for slot in ("white 1", "white 2"):
        await h.slash(me, "games", "projectl play take", puzzle=slot)
    game = await game_of(h)
    player = game.state.players[game.current.seat]  # type: ignore[union-attr]
    draft = [engine.placements_for(game.state.cards, player, card=card, shape=shape)[0]
             for card, shape in zip(cards, (engine.Shape.MONO, engine.Shape.DOMINO), strict=True)]
    ix = None
    for place in draft:
        ix = await h.slash(me, "games", "projectl play master-add", piece=place.shape.value,
                           puzzle=place.card, cells=mask_to_text(place.mask))
        assert final_reply(ix).ephemeral and place.placement_text() in final_reply(ix).content
    assert ix is not None
    return draft, ix


async def test_a_typed_master_draft_is_confirmed_after_a_restart(tmp_path: Path) -> None:
    """The answer's Confirm Master button carries its draft: after a restart it still plays
    exactly what the preview showed."""
    from test_bot_restart import carry_message, harness

    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        me, channel_id, user_ids = await restart_table(first)
        draft, ix = await draft_master(first, me)
        answer = final_reply(ix)
        confirm = next(b.custom_id for b in answer.buttons if b.custom_id.startswith("pl:master:ok:"))
        assert len(confirm) <= MAX_CUSTOM_ID
        payload, who = dict(answer.message.payload), me.name
    async with harness(db) as second:
        await reopen(second, channel_id, user_ids)
        carried = carry_message(second, channel_id, payload)
        carried.visible_to = None
        await second.click(second.user(who), carried, confirm)
        game = await game_of(second)
        log = await bot_of(second).manager.log(game.id)
        assert log[-1].action == str(engine.Master(tuple(draft)))
        assert await bot_of(second).manager.verify(game.id)
        assert_refused(await second.click(second.user(who), second.message(carried.id), confirm))
        assert len(await bot_of(second).manager.log(game.id)) == len(log), "played once"


async def test_the_typed_master_confirm_plays_the_draft_after_a_restart(tmp_path: Path) -> None:
    """`/projectl play master-confirm` (no button) after a restart: the new bot, on the same
    database, plays the placements drafted before it, once; the draft is gone afterwards."""
    from test_bot_restart import harness

    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        me, channel_id, user_ids = await restart_table(first)
        draft, _ = await draft_master(first, me)
        before = await game_of(first)
    async with harness(db) as second:
        await reopen(second, channel_id, user_ids)
        me = second.user(me.name)
        ix = await second.slash(me, "games", "projectl play master-confirm")
        reply = final_reply(ix).content
        assert reply.startswith(f"Done: `{engine.Master(tuple(draft))}`"), reply
        game = await game_of(second)
        log = await bot_of(second).manager.log(game.id)
        assert [row.action for row in log[-1:]] == [str(engine.Master(tuple(draft)))]
        assert log[-1].revision == before.revision + 1
        assert await bot_of(second).manager.verify(game.id)
        assert await bot_of(second).storage.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0


async def test_a_stale_typed_master_draft_is_never_played(tmp_path: Path) -> None:
    """A draft belongs to the position it was built on. The player takes a puzzle, takes a
    level-1 piece, drafts a mono on the puzzle, then undoes the level-1 action (an undo changes the
    game without a new action): master-confirm, before and after a restart, finds no placements
    and plays nothing, though the draft would still be legal."""
    from test_bot_restart import harness

    db = tmp_path / "restart.sqlite3"
    async with harness(db) as first:
        me, channel_id, user_ids = await restart_table(first)
        card = (await game_of(first)).state.table.white_row[0]
        await first.slash(me, "games", "projectl play take", puzzle="white 1")
        await first.slash(me, "games", "projectl play level1")
        game = await game_of(first)
        place = engine.placements_for(game.state.cards, game.state.players[game.current.seat],  # type: ignore[union-attr]
                                      card=card, shape=engine.Shape.MONO)[0]
        ix = await first.slash(me, "games", "projectl play master-add", piece="1", puzzle=card,
                               cells=mask_to_text(place.mask))
        assert place.placement_text() in final_reply(ix).content
        ix = await first.slash(me, "games", "projectl play undo")  # takes back level1: a newer revision
        assert final_reply(ix).content.startswith("Took back `level1`"), final_reply(ix).content
        engine.apply((await game_of(first)).state, engine.Master((place,)))  # still legal, yet stale
        assert_refused(await first.slash(me, "games", "projectl play master-confirm"), "no placements yet")
        before = await game_of(first)
        log = await bot_of(first).manager.log(before.id)
    async with harness(db) as second:
        await reopen(second, channel_id, user_ids)
        me = second.user(me.name)
        assert_refused(await second.slash(me, "games", "projectl play master-confirm"), "no placements yet")
        game = await game_of(second)
        assert game.revision == before.revision and await bot_of(second).manager.log(game.id) == log
        assert [row.action for row in log] == ["take white 1"]


# -- Discord's limits ------------------------------------------------------------------------------


def test_paging_keeps_every_menu_within_25_options() -> None:
    for total in (1, 24, 25, 26, 48, 49, 50, 100, 237):
        values = [str(i) for i in range(total)]
        seen: list[str] = []
        page, pages = 1, 0
        while page is not None:
            shown, previous, following = page_of(values, page)
            extra = (previous is not None) + (following is not None)
            assert len(shown) + extra <= 25
            seen += shown
            page, pages = following, pages + 1
        assert seen == values, total


def test_master_drafts_fit_in_a_custom_id() -> None:
    """The worst case: four placements of big masks, a 20-digit user id, big game and revision."""
    state = engine.new_game(engine.Options(players=2), 5)
    cards = [c for c in state.cards][:4]
    from dataclasses import replace

    from engine.state import OpenPuzzle

    player = state.players[state.current]
    player = replace(player, puzzles=tuple(OpenPuzzle(c, 0) for c in cards))
    state = replace(state, players=(player, *state.players[1:]))
    big = [engine.Place(c, SHAPES[-1], (1 << 25) - 1) for c in cards]
    code = encode_draft(state, 0, big)
    assert decode_draft(state, 0, code) == tuple(big)
    key = PanelKey(10**9, 2**63 - 1, 10**6)
    assert len(key.custom_id("ma", code, "3", "L5")) <= MAX_CUSTOM_ID
    assert decode_draft(state, 0, "9zz") is None and decode_draft(state, 0, "0z1") is None


async def test_every_panel_call_is_within_discord_limits(h: DiscordHarness) -> None:
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    await me.choose("take", "take white 1")
    await me.choose("take", "take black 1")
    await me.choose("place", me.component("place").options[-1].value)
    if me.has("puz"):
        await me.choose("puz", me.component("puz").options[0].value)
    await me.tap("main")
    await me.tap("ms")
    await me.tap("main")
    await me.tap("rec")
    await me.tap("main")
    await me.choose("give", me.component("give").options[0].value)
    problems = [p for c in h.calls for p in check_call(c.method, c.path, c.json, c.files)]
    assert problems == []
    rows = [c for c in h.calls if c.json and isinstance(c.json, dict)]
    assert rows


async def test_solo_next_turn_comes_with_the_panel(h: DiscordHarness) -> None:
    """A turn that ends but is the same player's again (Solo): mat and the new turn's panel."""
    alice = h.add_user("alice")
    await h.slash(alice, "games", "projectl table new", variant="solo")
    me = Player(h, alice)
    await me.play(turn_post(h))
    for _ in range(3):
        ix = await me.choose("take", me.component("take").options[0].value)
    reply = final_reply(ix)
    assert "Your turn is over" in (reply.content or "") and reply.filenames == ["mat.png"]
    game = await game_of(h)
    assert game.state.actions_left == 3 and game.revision > 3
    assert me.panel is not None and me.panel.id == reply.message.id
    assert all(parse_panel_id(c.custom_id).key.stamp == str(game.revision)  # type: ignore[union-attr]
               for c in me.panel.components if c.custom_id.startswith("plp:"))


async def test_bench_driver_plays_by_panel_alone(tmp_path: Path) -> None:
    """The bench's panel players (bench/panel.py) finish actions of every common kind by taps."""
    from bench.harnessed import TinyRenderer
    from bench.panel import panel_ack_latencies

    timings, kinds = await panel_ack_latencies(tmp_path, channels=2, taps=80, renderer=TinyRenderer())
    assert len(timings) >= 80 and all(t >= 0 for t in timings)
    assert max(kinds["take"]) == 1 and max(kinds.get("level1", [1])) == 1
    assert min(kinds["place"]) >= 3, "piece, spot, Confirm at least"


@pytest.mark.parametrize("step,value", [
    ("other", "remove 1"), ("other", "skip"), ("take", "remove 1"), ("take", "skip"), ("upg", "skip"),
    ("rs", "remove 0"), ("take", "take white 9"), ("other", "pular"), ("take", "remover 2"),
    ("take", "+²"), ("other", "+²"),  # "²" is a digit to str.isdigit() that int() refuses: once a crash
    ("puz", "W01" + "q" * 90), ("mc", "Q" * 90),  # a puzzle no menu listed: refused, not quoted back
])
async def test_a_forged_menu_value_must_be_one_the_panel_listed(h: DiscordHarness, step: str,
                                                                 value: str) -> None:
    """Table decisions (and anything not offered) sent as a menu value change nothing."""
    from bench.harnessed import forge_click

    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    game = await game_of(h)
    args = {"rs": ["white"], "puz": ["1"], "mc": ["-"]}.get(step, [])
    custom_id = PanelKey(game.id, me.user.id, game.revision).custom_id(step, *args)
    ix = await forge_click(h, me.user, "games", me.panel, custom_id, [value])
    assert "qqqqq" not in assert_refused(ix, "out of date").lower()
    after = await game_of(h)
    assert after.revision == game.revision and after.state == game.state


def test_a_pending_decision_is_the_only_thing_the_panel_shows() -> None:
    """rules: while a choice waits (a substitute piece), the engine lists only its answers — and
    so does the panel: one menu of ``choose`` answers, no other menu or button."""
    from positions import at_turn_start, game, play, with_player, without_shapes

    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                        puzzles=[("TO", [("2", "A1 B1")]), "TD"])
    waiting = play(without_shapes(state, "T4", "L4", "S4"), "place 2 on TO at A2 B2")
    assert waiting.pending
    offer = offer_for(waiting, 0)
    assert offer.choosing and offer.master is None
    items = main_items(PanelKey(1, 2, 3), offer, engine.parse_action("level1"))
    panel_items = [i for i in items if i.item.custom_id.startswith("plp:")]
    assert [step_of(i.item.custom_id) for i in panel_items] == ["other"]
    options = [o.value for o in panel_items[0].item.options]
    assert options == [str(a) for a in engine.legal_actions(waiting)] == ["choose I4", "choose O4"]
    from bot.discord.panel_views import main_screen

    header = main_screen(PanelKey(1, 2, 3), offer, None).content  # what the choice is for, in words
    assert "the reserve has no T4 (T tetromino) left for your reward" in header
    from bot.core.wording.locales import localise

    assert "a reserva não tem mais T4 (tetraminó T) para a sua recompensa" in localise(header, "pt-BR")


async def test_a_pending_decision_is_answered_from_the_panel(tmp_path: Path) -> None:
    """Through Discord: completing TO when its T4 reward is gone asks the player (I4 or O4); the
    confirmation's panel is that one menu, and choosing from it answers the decision."""
    import sqlite3

    from positions import at_turn_start, game, with_player, without_shapes

    db = tmp_path / "pending.sqlite3"
    async with running_bot(db) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        table = await game_of(h)
        state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                            puzzles=[("TO", [("2", "A1 B1")]), "TD"])
        state = without_shapes(state, "T4", "L4", "S4")
        with sqlite3.connect(db) as raw:  # a position the rules tests use, put on this table
            raw.execute("UPDATE games SET state = ?, revision = revision + 1 WHERE id = ?",
                        (serialisation.dumps(state), table.id))
        me = Player(h, h.user(table.seats[0].user_id))  # type: ignore[arg-type]
        await me.play(turn_post(h))
        await me.choose("place", "2")
        if me.has("puz"):
            await me.choose("puz", "TO")
        await me.choose("at", "A2 B2")
        await me.confirm()
        panel = h.message(me.panel.id)  # type: ignore[union-attr]
        assert [step_of(c.custom_id) for c in panel.components] == ["other"]
        assert [o.value for o in panel.selects[0].options] == ["choose I4", "choose O4"]
        assert "the reserve has no T4 (T tetromino) left for your reward" in (panel.content or "")
        await me.choose("other", "choose O4")
        after = await game_of(h)
        assert after.state.pending == () and after.state.actions_left == 2
        assert after.state.players[0].supply[engine.Shape.O4.index] == 1
        assert me.has("lvl"), "the decision made, the panel offers the turn again"


async def test_place_asks_the_puzzle_only_when_the_piece_fits_several(h: DiscordHarness) -> None:
    """Two puzzles that both take the mono: piece, puzzle, spot (preview), Confirm = 4 taps."""
    _, _, me = await two_players(h)
    await me.play(turn_post(h))
    await me.choose("take", "take white 1")
    await me.choose("take", "take white 2")
    game = await game_of(h)
    cards = [p.card for p in game.state.players[game.current.seat].puzzles]  # type: ignore[union-attr]
    me.taps = 0
    await me.choose("place", "1")
    assert [o.value for o in me.component("puz").options] == cards
    await me.choose("puz", cards[1])
    spot = me.component("at").options[-1].value
    await me.choose("at", spot)
    await me.confirm()
    assert me.taps == 4
    log = await bot_of(h).manager.log(game.id)
    assert log[-1].action == f"place 1 on {cards[1]} at {spot}"


async def test_a_long_spot_menu_is_paged_inside_the_menu(tmp_path: Path) -> None:
    """L3 on the empty B19 fits 35 ways: page 1 shows 24 spots and "more", page 2 the rest after
    "earlier"; a spot from page 2 is placed like any other (4 taps with the page turn: one puzzle)."""
    import sqlite3

    from positions import at_turn_start, game, with_player

    db = tmp_path / "paged.sqlite3"
    async with running_bot(db) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2)
        table = await game_of(h)
        state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="L3", puzzles=["B19"])
        spots = [mask_to_text(p.mask) for p in engine.legal_actions(state) if isinstance(p, engine.Place)]
        assert len(spots) == 35
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE games SET state = ?, revision = revision + 1 WHERE id = ?",
                        (serialisation.dumps(state), table.id))
        me = Player(h, h.user(table.seats[0].user_id))  # type: ignore[arg-type]
        await me.play(turn_post(h))
        me.taps = 0
        await me.choose("place", "L3")
        first = [o.value for o in me.component("at").options]
        assert first == [*spots[:24], "+2"] and "more (25–35 of 35)" in me.component("at").options[-1].label
        await me.choose("at", "+2")
        second = [o.value for o in me.component("at").options]
        assert second == ["+1", *spots[24:]]
        await me.choose("at", spots[-1])
        await me.confirm()
        assert me.taps == 4
        log = await bot_of(h).manager.log(table.id)
        assert log[-1].action == f"place L3 on B19 at {spots[-1]}"


def test_a_long_action_text_is_offered_by_a_digest_of_it() -> None:
    """A menu value holds 100 characters: a longer action text is offered by a digest of the text
    (the label is clipped), which maps back to that action only — never to whatever takes its
    place in a list that changed."""
    from dataclasses import replace as dc_replace

    from bot.discord.panel_views import _listed, _other_entries

    state = engine.new_game(engine.Options(players=2), 3)
    long = engine.Master(tuple(engine.Place(c, engine.Shape.L4, 0b111 | 1 << (i + 5)) for i, c in enumerate(
        sorted(state.cards)[:5])))
    assert len(str(long)) > 100
    offer = dc_replace(offer_for(state, state.current), actions=(long,), by_kind={"odd": (long,)})
    [(label, value)] = _other_entries(offer)
    assert label == str(long) and value.startswith("#") and len(value) == 13
    assert _listed(offer, value, "other") is long
    shorter = engine.Master(long.placements[:4])
    moved = dc_replace(offer, actions=(shorter, long), by_kind={"odd": (shorter, long)})
    assert _listed(moved, value, "other") is long  # the same action, whatever its position
    with pytest.raises(Exception, match="out of date"):
        _listed(dc_replace(offer, actions=(shorter,), by_kind={"odd": (shorter,)}), value, "other")
    with pytest.raises(Exception, match="out of date"):
        _listed(offer, str(long)[:100], "other")


@pytest.mark.parametrize("players", [1, 4, 6])
def test_every_first_screen_of_random_games_fits_discord(players: int) -> None:
    """Solo, base and Line Clear (with the Ghost action): the first screen of every acting seat's
    panel along a random game stays within Discord's limits (rows, options, lengths)."""
    import discord

    from bench.limits import check_message
    from bot.discord.panel_views import recycle_screen
    from engine.policies import policy_by_name

    state = engine.new_game(engine.Options.for_players(players), 11)
    policy = policy_by_name("random", 11)
    key = PanelKey(10**9, 2**63 - 1, 10**6)
    screens = 0
    for _ in range(150):
        if state.phase is engine.Phase.OVER:
            break
        for seat in state.acting_seats:
            offer = offer_for(state, seat)
            views = [discord.ui.View(timeout=None)]
            for item in main_items(key, offer, engine.TakeLevelOne()):
                views[0].add_item(item)
            if offer.of("recycle"):
                views.append(recycle_screen(key, offer).view)
            for view in views:
                assert check_message({"content": "x", "components": view.to_components()}) == []
                screens += 1
        state = engine.apply(state, policy.choose(state)).state
    assert screens >= 25


async def test_a_spectators_my_mat_after_the_end_suggests_what_still_works(h: DiscordHarness) -> None:
    """"My mat" under a finished game's post, clicked by someone who did not play: the refusal
    suggested `/projectl status`, which then says there is no game; it names the replay instead,
    in the clicker's language, and a player of the game still gets their mat."""
    alice, carol = h.add_user("alice"), h.add_user("carol")
    await h.slash(alice, "games", "projectl table new", variant="solo")
    await Driver(h, [alice], seed=3, randomness=0.3).play()
    post = next(m for m in reversed(h.channel_messages("games"))
                if any(b.custom_id.startswith("pl:mat:") for b in m.buttons))
    button = next(b.custom_id for b in post.buttons if b.custom_id.startswith("pl:mat:"))
    assert "no Project L game" in assert_refused(await h.slash(carol, "games", "projectl status"))
    text = assert_refused(await h.click(carol, post, button), "over", "/projectl-games replay")
    assert "/projectl status" not in text and "/projectl mat" not in text
    pt = assert_refused(await h.click(carol, post, button, locale="pt-BR"), "/projectl-partidas reprise")
    assert "status" not in pt and "over" not in pt
    mine = final_reply(await h.click(alice, post, button))
    assert mine.ephemeral and mine.filenames == ["mat.png"] and is_png(mine.files[0][1])
