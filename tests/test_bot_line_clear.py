"""Line Clear in the bot: both marker holders act at once in one channel.

Manager level, on a file database like production's: the per-channel lock serialises commits,
never a player's thinking time; every action names its seat, so 50 simultaneous actions from both
holders apply exactly the legal ones, in arrival order, and the log replays to the stored state.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

import engine
from bench.checks import integrity
from bench.tables import open_manager, start_table, user_id
from bot.core.errors import BotError, InvalidActionError, NotYourTurnError
from bot.core.games import TableSettings
from bot.core.play.manager import GameManager
from bot.core.wording import texts
from bot.core.wording.describe import table_lines
from bot.core.wording.locales import localise
from engine.events import EndTriggered
from engine.policies import policy_by_name
from renders.panels import banner_text

N = 50


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    manager = await open_manager(tmp_path / "lineclear.sqlite3")
    yield manager
    await manager.storage.close()
    assert integrity(tmp_path / "lineclear.sqlite3") == "ok"


def _holders(game) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    table = game.state.table
    assert isinstance(table, engine.state.LineClearTable)
    return table.markers


async def test_a_five_seat_table_plays_line_clear_with_ghost_by_default(manager: GameManager) -> None:
    game = await start_table(manager, 20, 5)
    assert game.state is not None
    assert game.state.options.variant == "lineclear" and game.state.options.ghost
    assert len(game.state.acting_seats) == 2


async def test_six_seats_without_ghost_are_refused_at_new() -> None:
    with pytest.raises(BotError, match="Six players need the Ghost Piece expansion"):
        TableSettings("base", 6, ghost=False).validate()


def test_the_lobby_shows_the_ghost_setting_that_applies_to_this_table() -> None:
    assert TableSettings("base", 3).ghost_label == texts.LOBBY_OFF
    assert TableSettings("base", 4).ghost_label == texts.LOBBY_OFF
    assert TableSettings("base", 6).ghost_label == texts.LOBBY_GHOST_DEFAULT
    assert TableSettings("base", 3, ghost=True).ghost_label == texts.LOBBY_ON


async def test_both_holders_act_and_others_are_told_whose_turn_it_is(manager: GameManager) -> None:
    game = await start_table(manager, 21, 5)
    white, black = _holders(game)
    await manager.act(21, user_id(21, black), "level1")
    await manager.act(21, user_id(21, white), "level1")
    idle = next(s for s in range(5) if s not in (white, black))
    with pytest.raises(NotYourTurnError) as refused:
        await manager.act(21, user_id(21, idle), "level1")
    assert game.seats[white].name in refused.value.message and game.seats[black].name in refused.value.message
    rows = await manager.log(game.id)
    assert [r.seat for r in rows] == [black, white]
    assert await manager.verify(game.id)


async def test_not_your_turn_joins_both_holders_in_the_readers_language_with_a_plural_verb(
    manager: GameManager,
) -> None:
    game = await start_table(manager, 24, 5)
    white, black = _holders(game)
    idle = next(s for s in range(5) if s not in (white, black))
    with pytest.raises(NotYourTurnError) as refused:
        await manager.act(24, user_id(24, idle), "level1")
    first, second = (game.seats[s].name for s in game.state.acting_seats)
    assert localise(refused.value.message, None).startswith(
        f"It is not your turn: {first} and {second} are playing.")
    assert localise(refused.value.message, "pt-BR").startswith(
        f"Não é a sua vez: {first} e {second} estão jogando.")


async def test_the_other_holder_answering_a_pending_choice_is_told_whose_choice_it_is(
    manager: GameManager,
) -> None:
    game = await start_table(manager, 25, 5)
    policies = [policy_by_name("greedy", 25 + i) for i in range(5)]
    for _ in range(2000):
        state = game.state
        assert state is not None and state.phase is not engine.Phase.OVER, "no pending choice arose"
        if state.pending and len(state.acting_seats) == 2:
            break
        seat = state.acting_seats[0]
        result = await manager.act(25, user_id(25, seat), policies[seat].choose(state.focused(seat)))
        game = result.game
    state = game.state
    owner = state.pending[0].seat
    other = next(s for s in state.acting_seats if s != owner)
    with pytest.raises(InvalidActionError) as refused:
        await manager.act(25, user_id(25, other), f"choose {state.pending[0].options[0]}")
    name = game.seats[owner].name
    assert localise(refused.value.message, None).startswith(f"That choice is {name}'s to make")
    assert localise(refused.value.message, "pt-BR").startswith(f"Essa escolha cabe a {name}")


async def test_fifty_simultaneous_actions_from_both_holders_apply_exactly_the_legal_ones(
    manager: GameManager,
) -> None:
    """25 level-1 requests from each holder, all at once: each holder's three actions apply (their
    turn then ends; after both, the markers move on and the rest are refused) — nothing lost,
    nothing applied twice, the log replays to the stored state."""
    game = await start_table(manager, 22, 5)
    white, black = _holders(game)
    calls = []
    for i in range(N):
        seat = white if i % 2 == 0 else black
        calls.append(manager.act(22, user_id(22, seat), "level1"))
    results = await asyncio.gather(*calls, return_exceptions=True)
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(e, BotError) and e.message for e in refused)
    assert len(applied) == 6 and len(refused) == N - 6
    rows = await manager.log(game.id)
    assert sorted(r.seat for r in rows) == sorted([white] * 3 + [black] * 3)
    assert await manager.verify(game.id)
    final = (await manager.game_in_channel(22))
    assert final is not None and final.state is not None
    assert _holders(final) == ((white + 1) % 5, (black + 1) % 5)
    for seat in (white, black):  # each got three pieces (5 monominoes left: one is a substitute)
        assert final.state.players[seat].supply_size == 2 + 3


async def test_an_ai_holder_plays_while_the_human_holder_thinks(manager: GameManager) -> None:
    """A policy seat holding a marker moves at once; the human holder's turn stays open until
    they act, and then the AI seats play on until a human holds a marker again."""
    game = await start_table(manager, 23, 1, ai=4)
    assert game.state is not None
    human = next(s for s in range(5) if not game.seats[s].is_ai)
    for _ in range(12):
        latest = await manager.game_in_channel(23)
        assert latest is not None and latest.state is not None
        acting = latest.state.acting_seats
        assert acting == (human,), acting  # every AI holder has played its whole turn at once
        await manager.act(23, user_id(23, 0), "level1" if latest.state.players[human].supply_size < 4
                          else str(engine.legal_actions(latest.state, human)[-1]))
    assert await manager.verify(game.id)


async def test_undo_is_your_own_last_action_while_neither_holder_acted_since(manager: GameManager) -> None:
    """Undo per holder: your own last action, only while it is the log's last row."""
    from bot.core.errors import InvalidActionError
    from bot.core.play.undo import undo_last
    from bot.core.storage.days import DaysStore

    store = DaysStore(manager.storage)
    game = await start_table(manager, 24, 5)
    white, black = _holders(game)
    await manager.act(24, user_id(24, white), "level1")
    done = await undo_last(manager, store, 24, user_id(24, white))
    assert done.seat == white and done.game.state is not None
    assert done.game.state.focused(white).actions_left == 3
    await manager.act(24, user_id(24, white), "level1")
    await manager.act(24, user_id(24, black), "level1")
    with pytest.raises(InvalidActionError):  # the other holder acted since
        await undo_last(manager, store, 24, user_id(24, white))
    done = await undo_last(manager, store, 24, user_id(24, black))
    assert done.game.state is not None and done.game.state.focused(black).actions_left == 3
    assert await manager.verify(game.id)


def test_the_last_round_shown_is_the_round_the_game_ends_in() -> None:
    """Seed 004 "Game end": Line Clear ends when the first player "gets the second marker". Here
    the end is triggered before the Black marker reaches the first player in this round: the Black
    marker is the first receipt, the White one (which would start the next round) the second, so
    this round is the last. The banner, the table's description and its status say this round,
    not the next one (which is never played)."""
    state = engine.new_game(engine.Options.for_players(5), seed=13)
    table = state.table
    assert isinstance(table, engine.state.LineClearTable)
    state = state.evolve(table=replace(table, black_deck=table.black_deck[:1]))
    outcome = engine.apply(state, engine.parse_action("take black 1"), player=table.markers[1])
    state = outcome.state
    assert EndTriggered(1, 1) in outcome.events
    names = [f"P{seat + 1}" for seat in range(5)]
    banner = banner_text(state, names)
    assert banner is not None and banner[0] == "Last round! Round 1 is the final round"
    described = [localise(line, "en") for line in table_lines(state, names)]
    assert localise(texts.ALT_END_TRIGGERED.format(round=1), "en") in described
    assert localise(texts.ALT_END_TRIGGERED.format(round=2), "en") not in described
