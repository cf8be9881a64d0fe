"""The Ambassador Pack in Discord: the turn panel's Ambassador action (the Master screens, preview,
Confirm) through the one flow layer, for either Line Clear holder; the typed notation in both
languages and its autocomplete; the engine's own refusals.

Positions are put on a table the way the other panel tests do (a state written into the game's
row), so each test starts where the rule it checks applies."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from positions import at_turn_start, card, with_cards, with_player
from test_bot_panel import Player, step_of, turn_post
from test_bot_support import assert_refused, bot_of, final_reply, open_table, running_bot

import engine
from bot.core.play.manager import Game
from bot.core.wording import texts
from engine import GameState, Options, serialisation
from engine.expansions.ambassador import ready, unflipped

AMB = card("TA", "A1 B1", points=2, reward="ambassador")
AMB2 = card("TA2", "A1 B1 C1", points=3, reward="ambassador")


def with_ambassadors(state: GameState, seat: int, cards: list[str]) -> GameState:
    """``seat`` holds these completed, ready Ambassador cards (completed on an earlier turn)."""
    data = state.ext["ambassador"]
    ready_cards = [list(x) for x in data["ready"]]
    ready_cards[seat] = list(cards)
    fresh = [list(x) for x in data["fresh"]]
    return state.evolve(ext={**state.ext, "ambassador": {"ready": ready_cards, "fresh": fresh}})


def position(players: int, seat: int, *, supply: str, puzzles: list[str], cards: list[str],
             seed: int = 1) -> GameState:
    state = engine.new_game(Options.for_players(players, ambassador=True), seed)
    state = with_cards(state, [AMB, AMB2])
    if not state.concurrent:
        state = at_turn_start(state, seat)
    state = with_player(state, seat, supply=supply, puzzles=puzzles, completed=cards)
    return with_ambassadors(state, seat, cards)


def put(db: Path, game: Game, state: GameState) -> None:
    with sqlite3.connect(db) as raw:  # a position built for the test, put on this table
        raw.execute("UPDATE games SET state = ?, revision = revision + 1 WHERE id = ?",
                    (serialisation.dumps(state), game.id))


async def game_of(h: DiscordHarness) -> Game:
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None
    return game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "ambassador.sqlite3"


async def two_player_table(h: DiscordHarness, db: Path, **position_args: Any) -> tuple[Player, Game]:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2)
    game = await game_of(h)
    put(db, game, position(2, 0, **position_args))
    return Player(h, h.user(game.seats[0].user_id)), game  # type: ignore[arg-type]


async def test_the_panel_offers_the_ambassador_action_with_preview_and_confirm(db: Path) -> None:
    """Ambassador ×2 → puzzle → piece → spot: the draft's preview, then **Confirm Ambassador**
    plays `ambassador …`: the oldest ready card is flipped, one stays, and the turn's Master is
    still there (an Ambassador action is not the Master)."""
    async with running_bot(db) as h:
        me, game = await two_player_table(h, db, supply="1 2", puzzles=["TM", "TD"], cards=["TA", "TA2"])
        await me.play(turn_post(h))
        button = me.component("as")
        assert button.label == texts.PANEL_AMBASSADOR.format(count=2) == "Ambassador ×2"
        await me.tap("as")
        panel = h.message(me.panel.id)  # type: ignore[union-attr]
        assert "Ambassador action" in (panel.content or "") and "TA (2 pt" in (panel.content or "")
        assert me.component("aok").disabled
        await me.choose("ac", "TM")
        await me.choose("ap", "1")
        await me.choose("aa", "A1")
        panel = h.message(me.panel.id)  # type: ignore[union-attr]
        assert panel.filenames == ["preview.png"], "every drafted placement drawn before Confirm"
        assert bot_of(h).renderer.calls[-1] == "master:1 on TM at A1"
        assert not me.component("aok").disabled
        ix = await me.tap("aok")
        assert (final_reply(ix).content or "").startswith("Done: `ambassador 1 on TM at A1`")
        after = await game_of(h)
        assert after.state is not None
        log = await bot_of(h).manager.log(after.id)
        assert (log[-1].seat, log[-1].action) == (0, "ambassador 1 on TM at A1")
        assert ready(after.state, 0) == ("TA2",) and unflipped(after.state, 0) == ("TA2",)
        assert not after.state.master_used and after.state.actions_left == 2
        said = "\n".join(m.content or "" for m in h.channel_messages("games"))
        assert me.has("as") and me.component("as").label == "Ambassador ×1"
        assert me.has("ms"), "the turn's Master is still to be used"
        assert "flipped Ambassador card" not in said, "the turn post comes at the end of the turn"


async def test_a_stale_ambassador_confirm_plays_nothing(db: Path) -> None:
    """The Confirm of a draft whose card was flipped since (the same panel tapped twice) is
    refused as out of date; nothing more is played."""
    async with running_bot(db) as h:
        me, game = await two_player_table(h, db, supply="1 2", puzzles=["TM", "TD"], cards=["TA"])
        await me.play(turn_post(h))
        await me.tap("as")
        await me.choose("ac", "TD")
        await me.choose("ap", "2")
        await me.choose("aa", "A1 B1")
        old = h.message(me.panel.id)  # type: ignore[union-attr]
        confirm = next(c for c in old.components if step_of(c.custom_id or "") == "aok")
        await me.tap("aok")
        log = await bot_of(h).manager.log(game.id)
        again = await h.click(me.user, old, confirm.custom_id)
        assert_refused(again)
        assert len(await bot_of(h).manager.log(game.id)) == len(log)


async def test_typed_in_both_languages_and_offered_by_autocomplete(db: Path) -> None:
    """`act text:ambassador …` and `embaixador … em … nas …` are the same action; autocomplete
    offers the verb (in the asker's language) only while a card is ready; a second flip with no
    ready card left gets the engine's own refusal, in the reader's language."""
    async with running_bot(db) as h:
        me, game = await two_player_table(h, db, supply="1 1 2", puzzles=["TM", "TD"], cards=["TA", "TA2"])
        offered = await h.autocomplete(me.user, "games", "projectl play act", focused="text", text="amb")
        assert [c.value for c in offered] == ["ambassador "]
        shown = await h.autocomplete(me.user, "games", "projectl play act", focused="text", text="emb",
                                     locale="pt-BR")
        assert [(c.name, c.value) for c in shown] == [("embaixador ", "ambassador ")]
        reply = final_reply(await h.slash(me.user, "games", "projectl play act",
                                          text="ambassador 1 on TM at A1"))
        assert (reply.content or "").startswith("Done: `ambassador 1 on TM at A1`"), reply.content
        reply = final_reply(await h.slash(me.user, "games", "projectl play act", locale="pt-BR",
                                          text="embaixador 2 em TD nas A1 B1"))
        assert (reply.content or "").startswith("Feito: `embaixador 2 em TD nas A1 B1`"), reply.content
        log = await bot_of(h).manager.log(game.id)
        assert [r.action for r in log[-2:]] == ["ambassador 1 on TM at A1", "ambassador 2 on TD at A1 B1"]
        after = await game_of(h)
        assert after.state is not None and ready(after.state, 0) == ()
        assert await h.autocomplete(me.user, "games", "projectl play act", focused="text",
                                    text="amb") == []
        refused = await h.slash(me.user, "games", "projectl play act", locale="pt-BR",
                                text="embaixador 1 em TM nas A1")
        assert_refused(refused, "Você não tem carta de Embaixador virada para cima")
        refused = await h.slash(me.user, "games", "projectl play act", text="ambassador 1 on TM at A1")
        assert_refused(refused, engine.messages.MESSAGES["ambassador.none_ready"])


async def test_the_second_line_clear_holder_flips_their_own_card(db: Path) -> None:
    """Two holders at once: the one who is not the state's current seat gets the Ambassador
    button for their own ready card and puzzles, and Confirm plays it for their seat."""
    async with running_bot(db) as h:
        users = [h.add_user(f"p{n}") for n in range(5)]
        await open_table(h, users[0], users[1:], players=5)
        game = await game_of(h)
        assert game.state is not None
        fresh = engine.new_game(Options.for_players(5, ambassador=True), 3)
        second = next(s for s in fresh.acting_seats if s != fresh.current)
        state = with_ambassadors(with_player(with_cards(fresh, [AMB]), second, supply="1 2",
                                             puzzles=["TM", "TD"], completed=["TA"]), second, ["TA"])
        put(db, game, state)
        me = Player(h, h.user(game.seats[second].user_id))  # type: ignore[arg-type]
        other = Player(h, h.user(game.seats[state.current].user_id))  # type: ignore[arg-type]
        await other.play(turn_post(h))
        assert not other.has("as"), "the other holder has no Ambassador card"
        await me.play(turn_post(h))
        await me.tap("as")
        await me.choose("ac", "TD")
        await me.choose("ap", "2")
        await me.choose("aa", "A1 B1")
        await other.tap("lvl")  # the other holder acts meanwhile: the draft stands
        await me.tap("aok")
        log = await bot_of(h).manager.log(game.id)
        assert (log[-1].seat, log[-1].action) == (second, "ambassador 2 on TD at A1 B1")
        after = await game_of(h)
        assert after.state is not None and ready(after.state, second) == ()


async def test_the_other_holders_flip_leaves_a_line_clear_draft_standing(db: Path) -> None:
    """Issue 46, item 4: both holders have a ready Ambassador card; while one drafts an Ambassador
    action on their panel, the other flips theirs (typed). Nothing the first may do changed, so
    their Confirm plays the draft instead of being refused "out of date"."""
    async with running_bot(db) as h:
        users = [h.add_user(f"p{n}") for n in range(5)]
        await open_table(h, users[0], users[1:], players=5)
        game = await game_of(h)
        fresh = with_cards(engine.new_game(Options.for_players(5, ambassador=True), 3), [AMB, AMB2])
        first, second = fresh.current, next(s for s in fresh.acting_seats if s != fresh.current)
        state = with_player(fresh, first, supply="1 2", puzzles=["TM"], completed=["TA"])
        state = with_ambassadors(state, first, ["TA"])
        state = with_player(state, second, supply="1 2", puzzles=["TD"], completed=["TA2"])
        state = with_ambassadors(state, second, ["TA2"])
        put(db, game, state)
        me = Player(h, h.user(game.seats[second].user_id))  # type: ignore[arg-type]
        await me.play(turn_post(h))
        await me.tap("as")
        await me.choose("ac", "TD")
        await me.choose("ap", "2")
        await me.choose("aa", "A1 B1")
        other = h.user(game.seats[first].user_id)
        reply = final_reply(await h.slash(other, "games", "projectl play act",  # type: ignore[arg-type]
                                          text="ambassador 1 on TM at A1"))
        assert (reply.content or "").startswith("Done:"), reply.content
        ix = await me.tap("aok")
        assert (final_reply(ix).content or "").startswith("Done: `ambassador 2 on TD at A1 B1`"), \
            final_reply(ix).content
        after = await game_of(h)
        assert after.state is not None
        assert ready(after.state, first) == () and ready(after.state, second) == ()
