"""/projectl-plan through the offline Discord harness: a plan laid out while the other player
moves plays the moment the turn passes, the planner is told privately what was played, the log
marks the planned actions; a plan the opponent's take breaks stops there and says so; what it
did, and its DM held to the end of quiet hours, outlive a restart."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from days_support import (
    CHANNEL,
    START,
    THREE,
    act,
    current_user,
    days,
    days_bot,
    game_of,
    others,
    start_game,
    tick,
    world_ids,
)
from harness import DiscordHarness, FakeMember
from test_bot_support import assert_refused, bot_of, cancel_table, final_reply

import engine
from bot.core.clock import ManualClock
from bot.core.errors import NotInGameError
from bot.core.play import flow, plan_keeping, plans
from bot.core.storage.plans import PlanStep, PlanStore
from bot.core.wording import texts
from bot.core.wording.locales import t
from engine.policies.hidden import visible_cards


async def mover_and_planner(h: DiscordHarness) -> tuple[FakeMember, FakeMember]:
    """The two-player game's player to move, and the other one (who may plan meanwhile)."""
    mover = await current_user(h)
    return mover, next(u for u in (h.user("alice"), h.user("bob")) if u.id != mover.id)


async def test_a_plan_plays_when_the_turn_passes_and_the_player_is_told(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        assert_refused(await h.slash(mover, "games", "projectl-plan set", actions="level1"), "your turn now")
        reply = final_reply(await h.slash(planner, "games", "projectl-plan set",
                                          actions="level1; level1; level1"))
        assert reply.ephemeral and reply.content.startswith("Planned for your next turn")
        assert "1. `level1`" in reply.content and "3. `level1`" in reply.content
        shown = final_reply(await h.slash(planner, "games", "projectl-plan show")).content
        assert shown.startswith("Your plan for your next turn") and "2. `level1`" in shown
        posts_before = len(h.channel_messages("games"))
        for _ in range(3):
            await act(h, mover, "level1")
        await h.settle()
        [dm] = [m for m in h.dms_to(planner) if "planned" in m.content]
        assert dm.content.startswith(f"Your planned turn in game {game.id} was played: `level1`")
        now = await game_of(h)
        assert now.current is not None and now.current.user_id == mover.id  # the planned turn is over
        assert len(h.channel_messages("games")) > posts_before
        [page] = final_reply(await h.slash(planner, "games", "projectl log")).embeds
        assert page.description.count("(planned)") == 3
        shown = final_reply(await h.slash(planner, "games", "projectl-plan show")).content
        assert shown.startswith("You have no plan in this game.")
        assert f"Your planned turn in game {game.id} was played: `level1`" in shown  # the last one's word


async def _planned_turn_plays(h: DiscordHarness, actions: str) -> tuple[FakeMember, int]:
    """The player out of turn plans ``actions``; the mover plays their turn out, so the plan
    plays. The planner and how many DMs they had before it played."""
    mover, planner = await mover_and_planner(h)
    final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions=actions))
    before = len(h.dms_to(planner))
    for _ in range(3):
        await act(h, mover, "level1")
    await h.settle()
    return planner, before


async def _quiet_nights_in_paris(h: DiscordHarness) -> None:
    """Both players ask for no DMs from 22:00 to 07:00, Paris time."""
    for name in ("alice", "bob"):
        await h.slash(h.user(name), CHANNEL, "projectl settings", quiet_hours="22:00-07:00",
                      timezone="Europe/Paris")


async def test_a_plan_outcome_respects_reminders_off_and_stays_on_request(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        for name in ("alice", "bob"):
            await h.slash(h.user(name), CHANNEL, "projectl settings", reminders=False)
        planner, before = await _planned_turn_plays(h, "level1; level1; level1")
        assert len(h.dms_to(planner)) == before  # no DM: they asked for none
        shown = final_reply(await h.slash(planner, CHANNEL, "projectl-plan show")).content
        assert f"Your planned turn in game {game.id} was played" in shown


async def test_a_plan_outcome_in_quiet_hours_waits_for_their_end_before_the_turn_dm(tmp_path: Path) -> None:
    clock = ManualClock(START.replace(hour=21, minute=30))  # 22:30 in Paris
    async with days_bot(tmp_path / "db.sqlite3", clock) as h:
        game = await start_game(h)
        await _quiet_nights_in_paris(h)
        planner, before = await _planned_turn_plays(h, "level1")  # two actions left: the turn goes on
        clock.advance(minutes=2)
        await tick(h)
        assert len(h.dms_to(planner)) == before  # quiet hours: nothing now
        clock.set(START.replace(day=2, hour=6))  # 07:00 Paris
        await tick(h)
        outcome, turn = h.dms_to(planner)[before:]
        assert outcome.content.startswith(f"Your planned turn in game {game.id} was played: `level1`")
        assert "still your turn" not in outcome.content.lower()  # the turn DM, right after, says it
        assert turn.content.startswith("Your turn")
        await tick(h)
        assert len(h.dms_to(planner)) == before + 2  # once


async def test_a_plan_outcome_to_closed_dms_marks_them_closed_and_stays_on_request(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        h.close_dms(planner)  # Discord answers 403 / 50007
        await _planned_turn_plays(h, "level1; level1; level1")
        assert (await days(h).store.get_prefs(planner.id)).dms_closed
        shown = final_reply(await h.slash(planner, CHANNEL, "projectl-plan show", locale="pt-BR")).content
        assert f"O seu turno planejado na partida {game.id} foi jogado" in shown
        # DMs known closed: the next outcome is not even tried (as for the turn-start DM)
        attempts = len(h.calls_to("POST", "/channels/{channel_id}/messages"))
        assert await days(h).reminders.send_or_hold("k", planner.id, "x", game=None) == "closed"
        assert len(h.calls_to("POST", "/channels/{channel_id}/messages")) == attempts


async def test_a_plan_broken_by_the_opponents_take_stops_there(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        assert game.state is not None
        card = game.state.table.white_row[2]  # type: ignore[union-attr]
        reply = final_reply(await h.slash(planner, "games", "projectl-plan set",
                                          actions="level1; take white 3; level1", locale="pt-BR"))
        assert reply.content.startswith("Planejado para o seu próximo turno") and f"({card}" in reply.content
        await act(h, mover, "take white 3")
        await act(h, mover, "level1")
        await act(h, mover, "level1")
        await h.settle()
        [dm] = [m for m in h.dms_to(planner) if "plano" in m.content]
        assert dm.content.startswith(f"O seu plano na partida {game.id} jogou")
        assert f"{card} branco não está mais onde o plano o pegaria." in dm.content
        assert "Ainda é a sua vez, com ações restantes: 2." in dm.content
        now = await game_of(h)
        assert now.current is not None and now.current.user_id == planner.id
        assert final_reply(await h.slash(planner, "games", "projectl-plan cancel")).content == (
            "You have no plan in this game.")


async def test_the_play_button_out_of_turn_offers_the_plan_form(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        post = h.channel_messages("games")[-1]
        ix = await h.click(planner, post, f"plp:play:{game.id}")
        reply = final_reply(ix)
        assert reply.ephemeral and reply.content.startswith("It is not your turn")
        [button] = [b for b in reply.buttons if b.custom_id == f"pln:open:{game.id}"]
        assert button.label == "Plan my next turn"
        await h.click(planner, reply.message, button.custom_id)
        form_id = f"pln:form:{game.id}"
        saved = final_reply(await h.submit_modal(planner, form_id, {"actions": "level1; level1"}))
        assert saved.content.startswith("Planned for your next turn") and "2. `level1`" in saved.content
        await h.click(planner, reply.message, button.custom_id)  # the form again, the plan filled in
        [(_, form, _)] = [m for m in h.world.open_modals if m[0] == planner.id]
        assert [c.value for c in form.components if getattr(c, "custom_id", "") == "actions"] == [
            "level1; level1"]
        refused = final_reply(await h.submit_modal(planner, form_id, {"actions": "fly away"}))
        assert refused.ephemeral and "fly" in refused.content


async def test_the_plan_form_says_one_step_per_line_or_a_semicolon(tmp_path: Path) -> None:
    """The form's box has several lines and a line break ends a step as ``;`` does: its label and
    example say so (whole, within Discord's 45 and 100 characters), in English and Portuguese."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        post = h.channel_messages("games")[-1]
        for locale, words in (("en-US", ("one per line", "(or ;)")), ("pt-BR", ("uma por linha", "(ou ;)"))):
            offer = final_reply(await h.click(planner, post, f"plp:play:{game.id}", locale=locale))
            await h.click(planner, offer.message, f"pln:open:{game.id}", locale=locale)
            [field] = [m for m in h.world.open_modals if m[0] == planner.id][-1][1].fields
            assert field.label == t("PLAN_FORM_LABEL", locale) and len(field.label) <= 45
            assert all(w in field.label for w in words) and "separa" not in field.label, field.label
            assert field.placeholder == t("PLAN_FORM_HINT", locale) and len(field.placeholder) <= 100
            assert len(field.placeholder.splitlines()) == 3 and ";" not in field.placeholder  # a step a line
        typed = {"actions": "level1\nlevel1"}
        saved = final_reply(await h.submit_modal(planner, f"pln:form:{game.id}", typed))
        assert saved.content.startswith("Planned for your next turn") and "2. `level1`" in saved.content


async def test_a_player_who_left_has_no_next_turn_to_plan(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        leaver = (await others(h, await current_user(h)))[0]
        final_reply(await h.slash(leaver, CHANNEL, "projectl-plan set", actions="level1"))
        confirm = final_reply(await h.slash(leaver, CHANNEL, "projectl table leave"))
        await h.click(leaver, confirm.message, confirm.buttons[0].custom_id)
        # A plan for a seat that is out would be "planned" and never play.
        assert_refused(await h.slash(leaver, CHANNEL, "projectl-plan set", actions="take white 2"),
                       "out of this game", "no next turn")
        assert_refused(await h.slash(leaver, CHANNEL, "projectl-plan set", actions="take white 2",
                                     locale="pt-BR"), "fora desta partida")
        for command in ("projectl-plan show", "projectl-plan cancel"):  # the plan made before leaving
            assert final_reply(await h.slash(leaver, CHANNEL, command)).content == (
                "You have no plan in this game.")
        post = next(m for m in reversed(h.channel_messages(CHANNEL))
                    if any(getattr(c, "custom_id", "") == f"plp:play:{game.id}" for c in m.components))
        refused = final_reply(await h.click(leaver, post, f"plp:play:{game.id}"))
        assert refused.ephemeral and "no longer in this game" in refused.content
        assert not [b for b in refused.buttons if b.custom_id.startswith("pln:")]  # no form to be refused
        seated = next(u for u in await others(h, await current_user(h)) if u.id != leaver.id)
        offered = final_reply(await h.click(seated, post, f"plp:play:{game.id}"))
        assert [b.custom_id for b in offered.buttons] == [f"pln:open:{game.id}"]


async def test_the_plan_button_of_a_game_gone_is_refused_at_the_click(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        post = h.channel_messages("games")[-1]
        reply = final_reply(await h.click(planner, post, f"plp:play:{game.id}"))
        await cancel_table(h, h.user("alice"), "games")
        later = await start_game(h)
        assert later.id != game.id
        assert_refused(await h.click(planner, reply.message, f"pln:open:{game.id}"), "out of date")
        assert not h.world.open_modals  # no form to type a plan into only to see it refused
        mover, planner = await mover_and_planner(h)
        post = h.channel_messages("games")[-1]
        reply = final_reply(await h.click(planner, post, f"plp:play:{later.id}"))
        for _ in range(3):
            await act(h, mover, "level1")  # the turn passes: the planner's own now
        assert_refused(await h.click(planner, reply.message, f"pln:open:{later.id}"), "your turn now")
        assert not h.world.open_modals


async def test_a_player_who_left_is_told_so_when_they_try_to_move(tmp_path: Path) -> None:
    """Not "it is not your turn: X is playing" (which suggests waiting): the same words from the
    typed command, its pt-BR form, and the acting context every front (the web board too) builds."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        await start_game(h, others=("bob", "carol"))
        leaver = (await others(h, await current_user(h)))[0]
        confirm = final_reply(await h.slash(leaver, CHANNEL, "projectl table leave"))
        await h.click(leaver, confirm.message, confirm.buttons[0].custom_id)
        text = assert_refused(await act(h, leaver, "level1"), "no longer in this game")
        assert "not your turn" not in text.lower()
        assert_refused(await h.slash(leaver, CHANNEL, "projectl play act", text="level1", locale="pt-BR"),
                       "não está mais nesta partida")
        with pytest.raises(NotInGameError) as refused:
            await flow.acting(bot_of(h).manager, h.channel(CHANNEL).id, leaver.id)
        assert refused.value.message == texts.NO_LONGER_IN_GAME


async def test_a_storage_fault_keeping_what_a_planned_turn_did_fails_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The moves are committed and answered, the planner is still DMed, the fault is logged."""
    async def disk_full(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions="level1; level1; level1"))
        monkeypatch.setattr(PlanStore, "keep_outcome", disk_full)
        with h.expect_errors() as errors:
            for _ in range(3):
                assert final_reply(await act(h, mover, "level1")).content.startswith("Done")
            await h.settle()
        assert any("keeping what the planned turn" in error.message for error in errors)
        assert [m for m in h.dms_to(planner) if m.content.startswith(f"Your planned turn in game {game.id}")]
        monkeypatch.undo()
        assert final_reply(await h.slash(planner, CHANNEL, "projectl-plan show")).content == texts.PLAN_NONE


async def _broken_plan(h: DiscordHarness) -> tuple[FakeMember, str]:
    """The player out of turn plans ``level1; take white 3; level1`` (in pt-BR: the language of
    their DMs), and the mover takes white 3 first: the plan plays ``level1`` and stops at the take.
    The planner and the card the plan relied on."""
    game = await game_of(h)
    assert game.state is not None
    card = game.state.table.white_row[2]  # type: ignore[union-attr]
    mover, planner = await mover_and_planner(h)
    final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions="level1; take white 3; level1",
                              locale="pt-BR"))
    for action in ("take white 3", "level1", "level1"):
        await act(h, mover, action)
    await h.settle()
    return planner, card


async def test_what_the_last_planned_turn_did_outlives_a_restart(tmp_path: Path) -> None:
    """``show`` reads it from storage (``plan_outcomes``, migration 0017): a new bot on the same
    database still tells it, in the reader's language, until a new plan replaces it."""
    clock = ManualClock(START)
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        planner, card = await _broken_plan(h)
        ids = world_ids(h)
    async with days_bot(path, clock, ids=ids) as h2:
        planner = h2.user(planner.name)
        shown = final_reply(await h2.slash(planner, CHANNEL, "projectl-plan show", locale="pt-BR")).content
        assert f"O seu plano na partida {game.id} jogou" in shown
        assert f"{card} branco não está mais onde o plano o pegaria." in shown
        for _ in range(2):  # the planner plays the rest of their turn
            await act(h2, planner, "level1")
        final_reply(await h2.slash(planner, CHANNEL, "projectl-plan set", actions="level1"))
        ids = world_ids(h2)
    async with days_bot(path, clock, ids=ids) as h3:
        shown = final_reply(await h3.slash(h3.user(planner.name), CHANNEL, "projectl-plan show")).content
        assert shown.startswith("Your plan for your next turn") and "plan in game" not in shown  # replaced


async def test_a_plan_dm_held_to_the_end_of_quiet_hours_outlives_a_restart(tmp_path: Path) -> None:
    """The held DM is kept in storage (``held_dms``) as its words, not as text: after a restart it
    goes at the end of quiet hours, in the player's language, before the turn DM, and once."""
    clock = ManualClock(START.replace(hour=21, minute=30))  # 22:30 in Paris
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        await _quiet_nights_in_paris(h)
        planner, card = await _broken_plan(h)
        clock.advance(minutes=2)
        await tick(h)
        assert not [m for m in h.dms_to(planner) if "plano" in m.content]  # quiet hours: held
        ids = world_ids(h)
    clock.set(START.replace(day=2, hour=6))  # 07:00 Paris, the bot was down meanwhile
    async with days_bot(path, clock, ids=ids) as h2:
        await tick(h2)
        outcome, turn = h2.dms_to(planner.name)
        assert outcome.content.startswith(f"O seu plano na partida {game.id} jogou")
        assert f"{card} branco não está mais onde o plano o pegaria." in outcome.content
        assert "Ainda é a sua vez" not in outcome.content  # the held words: the turn DM says it
        assert "Sua vez em" in turn.content and "plano" not in turn.content  # the turn DM, in pt-BR too
        await tick(h2)
        assert len(h2.dms_to(planner.name)) == 2  # once


async def test_a_held_plan_dm_of_a_game_cancelled_since_still_goes_after_a_restart(tmp_path: Path) -> None:
    """As before it was kept: what the planned turn did stays true once the game is cancelled."""
    clock = ManualClock(START.replace(hour=21, minute=30))
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        await _quiet_nights_in_paris(h)
        planner, _ = await _broken_plan(h)
        await cancel_table(h, h.user("alice"), CHANNEL)
        assert (await bot_of(h).manager.game(game.id)).status == "cancelled"  # type: ignore[union-attr]
        ids = world_ids(h)
    clock.set(START.replace(day=2, hour=6))
    async with days_bot(path, clock, ids=ids) as h2:
        await tick(h2)
        [outcome] = h2.dms_to(planner.name)
        assert outcome.content.startswith(f"O seu plano na partida {game.id} jogou")


async def test_a_plan_dm_held_for_a_vacation_goes_once_its_player_is_back_early(tmp_path: Path) -> None:
    """Back early (``vacation_until:off``), after a restart: the held DM goes at the next tick,
    in the player's language of the moment."""
    clock = ManualClock(START)
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        for name in ("alice", "bob"):
            await h.slash(h.user(name), CHANNEL, "projectl settings", vacation_until="2024-01-04")
        planner, _ = await _broken_plan(h)
        await tick(h)
        assert h.dms_to(planner) == []
        ids = world_ids(h)
    async with days_bot(path, clock, ids=ids) as h2:
        assert await tick(h2) == 0
        await h2.slash(h2.user(planner.name), CHANNEL, "projectl settings", vacation_until="off")
        await tick(h2)
        # worded when it goes, in the language of the player's latest command: English by now
        assert h2.dms_to(planner.name)[0].content.startswith(f"Your plan in game {game.id} played `level1`")


async def _open_plan_form(h: DiscordHarness, planner: FakeMember, game_id: int) -> str:
    """``planner`` presses Play out of turn, then Plan my next turn: the form's custom id."""
    post = next(m for m in reversed(h.channel_messages(CHANNEL))
                if any(getattr(c, "custom_id", "") == f"plp:play:{game_id}" for c in m.components))
    offer = final_reply(await h.click(planner, post, f"plp:play:{game_id}"))
    await h.click(planner, offer.message, f"pln:open:{game_id}")
    [(_, form, _)] = [m for m in h.world.open_modals if m[0] == planner.id]
    return form.custom_id


async def test_two_players_typing_their_plans_at_once_both_keep_them(tmp_path: Path) -> None:
    """Both out-of-turn players of a three-player table open the Plan form, then submit it: each
    plan is kept and said so (the second form was once dropped, "This interaction failed")."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        first, second = await others(h, await current_user(h))
        first_form = await _open_plan_form(h, first, game.id)
        second_form = await _open_plan_form(h, second, game.id)
        for planner, form in ((first, first_form), (second, second_form)):
            saved = final_reply(await h.submit_modal(planner, form, {"actions": "level1"}))
            assert saved.ephemeral and saved.content.startswith("Planned for your next turn")
        for planner in (first, second):
            shown = final_reply(await h.slash(planner, CHANNEL, "projectl-plan show")).content
            assert shown.startswith("Your plan for your next turn") and "1. `level1`" in shown


async def test_a_plan_form_open_across_a_restart_is_still_kept(tmp_path: Path) -> None:
    """The form is answered from its id and its text, as every button is: a form opened before a
    restart and sent after it keeps the plan (it was once discarded unanswered)."""
    clock = ManualClock(START)
    path = tmp_path / "db.sqlite3"
    async with days_bot(path, clock) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        form = await _open_plan_form(h, planner, game.id)
        opened = h.world.open_modals[:]
        ids = world_ids(h)
    async with days_bot(path, clock, ids=ids) as h2:
        h2.world.open_modals.extend(opened)  # the player's Discord still shows the form
        saved = final_reply(await h2.submit_modal(planner.name, form, {"actions": "level1; level1"}))
        assert saved.ephemeral and saved.content.startswith("Planned for your next turn")
        assert "2. `level1`" in saved.content


async def test_a_plan_cannot_hold_a_table_decision(tmp_path: Path) -> None:
    """``remove 3`` or ``skip`` in a plan was accepted and played when the planner's turn came:
    one player removed another with no vote. A plan holds moves only; one stored before is
    stopped at that step, and the table is untouched."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        assert game.current is not None
        mover = h.user(game.current.user_id)
        planner = h.user(game.seats[(game.current.seat + 1) % 3].user_id)
        victim = game.seats[(game.current.seat + 2) % 3]
        for actions in (f"remove {victim.seat + 1}", "skip", f"level1; remove {victim.seat + 1}"):
            assert_refused(await h.slash(planner, CHANNEL, "projectl-plan set", actions=actions),
                           "table decision", "nothing was changed")
        # a plan kept before such steps were refused: it stops there
        seat = game.seats[(game.current.seat + 1) % 3].seat
        await PlanStore(bot_of(h).storage).save(game.id, seat, planner.id, [
            PlanStep("level1", None), PlanStep(f"remove {victim.seat + 1}", None)])
        for _ in range(3):
            await act(h, mover, "level1")
        await h.settle()
        now = await game_of(h)
        assert now.state is not None and not any(p.removed for p in now.state.players)
        assert not [m for m in h.channel_messages(CHANNEL) if "removed from the game" in m.content]


async def test_a_plan_typed_a_step_per_line_in_the_form_is_understood(tmp_path: Path) -> None:
    """The form's box is several lines tall: a step per line was refused as "'level1' is not an
    action", of an action that is one."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        form = await _open_plan_form(h, planner, game.id)
        saved = final_reply(await h.submit_modal(planner, form, {"actions": "level1\nlevel1;\r\nlevel1"}))
        assert saved.content.startswith("Planned for your next turn"), saved.content
        assert "3. `level1`" in saved.content


async def test_changing_a_line_clear_plan_in_the_form_keeps_the_side_it_was_laid_out_for(
        tmp_path: Path) -> None:
    """A plan laid out on the board for Line Clear's right side, sent again from the Plan form
    (which has no side to choose), was laid out on the left, the first side that allowed it: its
    take then relied on the left row's card. It stays on the right, and the reply names that card."""
    five = ("alice", "bob", "carol", "dave", "erin")
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), five) as h:
        game = await start_game(h, others=five[1:], players=5)
        assert game.state is not None and game.state.turns
        seat = next(s.seat for s in game.seats if s.seat not in game.state.acting_seats)
        planner = h.user(game.seats[seat].user_id)
        take = [engine.parse_action("take white 1")]
        right, left = (plans.lay_out(game.state, seat, take, side=side).steps[0].card
                       for side in ("right", "left"))
        assert right and left and right != left
        ctx = flow.ActingContext(game, seat, planner.id, None)
        await plan_keeping.save_plan(bot_of(h).manager, ctx, take, side="right")  # as the board does

        form = await _open_plan_form(h, planner, game.id)
        saved = final_reply(await h.submit_modal(planner, form, {"actions": "take white 1"}))
        assert saved.content.startswith("Planned for your next turn"), saved.content
        assert right in saved.content and left not in saved.content
        kept = await PlanStore(bot_of(h).storage).get(game.id, seat)
        assert kept is not None and kept.side == "right" and kept.steps[0].card == right


async def test_a_line_clear_holders_planned_turn_that_ends_leaves_no_move_in_any_inbox(
        tmp_path: Path) -> None:
    """Line Clear: a seat whose planned turn plays out in full while the other holder plays on no
    longer has the move. Its turn row was opened after the planned steps had closed it (the hooks
    run after the commits), so its inbox still read "your move" and the table's inboxes named it
    among those the game waits on."""
    five = ("alice", "bob", "carol", "dave", "erin")
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), five) as h:
        game = await start_game(h, others=five[1:], players=5, ghost=False)
        assert game.state is not None
        waiting = [s for s in game.seats if s.seat not in game.state.acting_seats]
        for seat in waiting:
            final_reply(await h.slash(h.user(seat.user_id), CHANNEL, "projectl-plan set",
                                      actions="level1; level1; level1"))
        for turn in game.state.turns:
            for _ in range(3):
                await act(h, h.user(game.seats[turn.seat].user_id), "level1")
        await h.settle()
        now = await game_of(h)
        assert now.state is not None
        played = f"Your planned turn in game {game.id} was played"
        done = [s for s in waiting if s.seat not in now.state.acting_seats
                and any(m.content.startswith(played) for m in h.dms_to(s.user_id))]
        assert done, "no planned Line Clear turn played out in full"
        for seat in done:
            mine = final_reply(await h.slash(h.user(seat.user_id), CHANNEL, "projectl-games mine")).content
            assert "No game on this server is waiting for you." in mine, mine
            assert f"<@{seat.user_id}>" not in mine, mine
        holders = [h.user(now.seats[s].user_id) for s in now.state.acting_seats]
        for holder in holders:
            mine = final_reply(await h.slash(holder, CHANNEL, "projectl-games mine")).content
            assert all(f"<@{seat.user_id}>" not in mine for seat in done), mine


async def test_plan_commands_in_a_lobby_say_the_game_has_not_started(tmp_path: Path) -> None:
    """While the table is in its lobby, /projectl-plan answered "There is no Project L game in this
    channel. Start one with /projectl table new" — to the host of the table right there."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        final_reply(await h.slash(h.user("alice"), CHANNEL, "projectl table new"))
        for user in (h.user("alice"), h.user("bob")):  # the host, seated, and someone not seated
            for command, options in (("projectl-plan set", {"actions": "level1"}), ("projectl-plan show", {}),
                                     ("projectl-plan cancel", {})):
                text = assert_refused(await h.slash(user, CHANNEL, command, **options), "has not started")
                assert "no Project L game" not in text


async def test_plan_suggestions_offer_only_what_the_player_may_plan_next(tmp_path: Path) -> None:
    """``/projectl-plan set actions:`` had no suggestions: a plan was typed in the engine's notation
    with no help. Now the field offers the plan typed so far followed by each step the engine
    would let the player plan next (in their notation; the value stays the engine's), nothing once
    the turn is full or to someone who may not plan, and never a card the planner cannot see."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), THREE) as h:
        game = await start_game(h, others=("bob", "carol"))
        assert game.state is not None
        mover = await current_user(h)
        planner = (await others(h, mover))[0]
        seat = game.seat_of(planner.id)
        assert seat is not None

        def suggest(user: FakeMember, typed: str, locale: str = "en-US") -> Any:
            return h.autocomplete(user, CHANNEL, "projectl-plan set", focused="actions", actions=typed,
                                  locale=locale)

        first = await suggest(planner, "")
        values = [c.value for c in first]
        assert "level1" in values and "take white 1" in values and "draw black" in values
        assert len(first) <= 25 and all(len(c.value) <= 100 and len(c.name) <= 100 for c in first)
        assert [c.value for c in await suggest(planner, "lev")] == ["level1"]
        assert [c.value for c in await suggest(planner, "level1; level1; lev")] == ["level1; level1; level1"]
        assert await suggest(planner, "level1; level1; level1; ") == []  # the turn is full
        assert await suggest(planner, "fly away; lev") == []             # not a plan
        assert await suggest(mover, "lev") == []                         # their turn: they play it
        assert await suggest(h.add_user("dora", id=1099), "lev") == []   # not at the table
        pt = await suggest(planner, "nív", locale="pt-BR")
        assert [(c.name, c.value) for c in pt] == [("nível1", "level1")]
        # a plan's blind draw or refill shows a stand-in for a card nobody may know yet: never named
        visible = visible_cards(game.state, seat.seat)
        for typed in ("draw white; ", "take white 1; ", "take black 2; place ", "draw black; draw white; "):
            for choice in await suggest(planner, typed):
                named = set(re.findall(r"\b[WB]\d{2}\b", choice.value))
                assert named <= visible, (typed, choice.value)
        after_take = [c.value for c in await suggest(planner, "take white 1; pla")]
        card = game.state.table.white_row[0]  # type: ignore[union-attr]
        assert any(f"on {card} at" in value for value in after_take), after_take  # the card taken is known
        chosen = next(v for v in values if v.startswith("take white"))
        saved = final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions=chosen))
        assert saved.content.startswith("Planned for your next turn")  # a suggestion is a plan


async def test_the_dm_of_a_planned_turn_with_actions_left_links_the_table_as_it_is_now(
        tmp_path: Path) -> None:
    """The DM is worded the moment the plan stops, before the bot posts the table the other
    player's last action and the plan made: it linked the table post before them (an old board).
    It links the channel now, which opens on its latest post."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        mover, planner = await mover_and_planner(h)
        final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions="level1"))
        stale = (await game_of(h)).table_message_id
        for _ in range(3):
            await act(h, mover, "level1")
        await h.settle()
        [dm] = [m for m in h.dms_to(planner) if m.content.startswith(f"Your planned turn in game {game.id}")]
        assert "It is still your turn, with actions left: 2." in dm.content
        link = re.search(r"https://discord\.com/channels/(\d+)/(\d+)(?:/(\d+))?", dm.content)
        assert link is not None, dm.content
        now = await game_of(h)
        assert (int(link[1]), int(link[2])) == (h.world.guild_id, h.channel(CHANNEL).id)
        assert link[3] is None or int(link[3]) == now.table_message_id, (link[0], stale, now.table_message_id)


@pytest.mark.parametrize("custom_id", [
    "pln:form:abc", "pln:form:12345678901234567890", "pln:form:1:x", "pln:open:1"])
async def test_a_plan_form_sent_with_a_garbled_id_is_refused_privately(
        tmp_path: Path, custom_id: str) -> None:
    """A submitted form whose ``pln:`` id is not a Plan form's (a tampered client, a future
    version) was answered by nobody ("This interaction failed"): refused privately, no plan kept."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        data = {"custom_id": custom_id, "components": [{"type": 1, "components": [
            {"type": 4, "custom_id": "actions", "value": "level1"}]}]}
        record = h._new_interaction(5, planner, h.channel(CHANNEL), data)  # noqa: SLF001
        assert_refused(await h._send(record, True), "not valid")  # noqa: SLF001
        seat = game.seat_of(planner.id)
        assert seat is not None and await PlanStore(bot_of(h).storage).get(game.id, seat.seat) is None


async def test_a_line_clear_plan_is_laid_out_on_the_side_of_the_seats_next_turn(tmp_path: Path) -> None:
    """The command and the form choose no side: a plan was laid out on the left (White marker)
    side first, whichever marker would reach the seat. For a seat the Black marker reaches next,
    its take relied on the left row's card and stopped when its turn came on the right ("W13 is no
    longer where the plan took it from", while W13 lay on the left), and a blind draw, which only
    the White holder may make, was accepted and failed then. The markers pass clockwise, so the
    side is known: the plan is laid out there."""
    six = ("alice", "bob", "carol", "dave", "erin", "fred")
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), six) as h:
        game = await start_game(h, others=six[1:], players=6)
        assert game.state is not None and game.state.table is not None
        white, black = game.state.table.markers  # type: ignore[union-attr]
        after_black = game.seats[(black + 1) % 6]  # the Black marker reaches this seat next
        planner = h.user(after_black.user_id)
        right_card = game.state.table.right_white[0]  # type: ignore[union-attr]
        left_card = game.state.table.left_white[0]  # type: ignore[union-attr]
        assert right_card != left_card
        assert_refused(await h.slash(planner, CHANNEL, "projectl-plan set", actions="draw white"),
                       "step 1")  # only the White-marker holder draws blind
        saved = final_reply(await h.slash(planner, CHANNEL, "projectl-plan set",
                                          actions="take white 1; level1; level1"))
        assert f"({right_card}" in saved.content and left_card not in saved.content, saved.content
        for turn in game.state.turns:
            for _ in range(3):
                await act(h, h.user(game.seats[turn.seat].user_id), "level1")
        await h.settle()
        [dm] = [m for m in h.dms_to(planner) if f"game {game.id}" in m.content]
        played = f"Your planned turn in game {game.id} was played: `take white 1`"
        assert dm.content.startswith(played), dm.content


async def test_the_plan_form_fills_in_the_plan_in_the_readers_notation(tmp_path: Path) -> None:
    """Everywhere else a pt-BR player reads actions in their notation (``pegar branco 1``); the
    Plan form filled their plan in the engine's English words. It reads theirs now, and sent back
    unchanged it keeps the same plan."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        final_reply(await h.slash(planner, CHANNEL, "projectl-plan set", actions="take white 1; level1"))
        post = h.channel_messages(CHANNEL)[-1]
        offer = final_reply(await h.click(planner, post, f"plp:play:{game.id}", locale="pt-BR"))
        await h.click(planner, offer.message, f"pln:open:{game.id}", locale="pt-BR")
        [(_, form, _)] = [m for m in h.world.open_modals if m[0] == planner.id]
        [typed] = [c.value for c in form.components if getattr(c, "custom_id", "") == "actions"]
        assert typed == "pegar branco 1; nível1", typed
        saved = final_reply(await h.submit_modal(planner, form.custom_id, {"actions": typed}))
        assert "1. `take white 1`" in saved.content and "2. `level1`" in saved.content, saved.content


async def test_a_plan_longer_than_the_form_holds_opens_the_form_all_the_same(tmp_path: Path) -> None:
    """A plan kept from the web board (no 400-character box there) may read longer than the
    form's box holds, the more so in Portuguese words: Discord refuses a form whose text is
    longer than its box. The form then opens in the engine's shorter words, else empty."""
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        game = await start_game(h)
        _, planner = await mover_and_planner(h)
        seat = game.seat_of(planner.id)
        assert seat is not None
        placement = "place L4 on B12 at A1 A2 A3 B3"  # 30 characters; in Portuguese 33
        for count, expected in ((11, "colocar"), (12, "place"), (14, "")):
            await PlanStore(bot_of(h).storage).save(game.id, seat.seat, planner.id,
                                                    [PlanStep(placement, None)] * count)
            h.world.open_modals.clear()
            post = h.channel_messages(CHANNEL)[-1]
            offer = final_reply(await h.click(planner, post, f"plp:play:{game.id}", locale="pt-BR"))
            await h.click(planner, offer.message, f"pln:open:{game.id}", locale="pt-BR")
            [(_, form, _)] = [m for m in h.world.open_modals if m[0] == planner.id]
            [typed] = [c.value or "" for c in form.components if getattr(c, "custom_id", "") == "actions"]
            assert len(typed) <= 400 and typed.startswith(expected), (count, len(typed), typed[:20])
