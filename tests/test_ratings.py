"""Ratings (docs/ratings.md): one Plackett-Luce update per finished game of 2-6 seats, ties as
ties, AI seats as fixed anchors, casual tables, seats handed to an AI or removed, Solo by margin,
the update inside the game-end transaction (never twice), and recompute == incremental."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from days_support import START

import engine
from bot.core.clock import ManualClock
from bot.core.games import RETIRED_LEVELS
from bot.core.play.manager import POLICY_NAMES, Game, GameManager, TableSettings
from bot.core.records import ratings
from bot.core.storage import DaysStore, Storage
from bot.core.storage.days import TurnKey
from bot.core.storage.hints import HintStore
from bot.core.storage.ratings import Entrant, GameFacts, Prior, RatedGame, RatingStore, apply_rating
from engine.policies import policy_by_name

GUILD = 5
WON_SEED = 1


@pytest.fixture
async def manager(tmp_path: Path) -> AsyncIterator[GameManager]:
    clock = ManualClock(START)
    storage = await Storage.open(tmp_path / "r.sqlite3", clock)
    seeds = iter(range(100, 10_000))
    yield GameManager(storage, clock=clock, seed_source=lambda: next(seeds))
    await storage.close()


async def table(manager: GameManager, channel: int, humans: list[int], ais: tuple[str, ...] = (),
                settings: TableSettings | None = None) -> Game:
    settings = settings or TableSettings(max_players=len(humans) + len(ais))
    created = await manager.create_game(guild_id=GUILD, channel_id=channel, host_id=humans[0],
                                        host_name=f"p{humans[0]}", settings=settings)
    if settings.variant == "solo":
        return created.game  # Solo starts at once
    for user in humans[1:]:
        await manager.join(channel, user, f"p{user}")
    for kind in ais:
        await manager.add_policy_seat(channel, humans[0], kind)
    return (await manager.start(channel, humans[0])).game


async def play_to_end(manager: GameManager, game: Game, seed: int = 1) -> Game:
    policy = policy_by_name("greedy", seed)  # humans play like the Easy AI: games end quickly
    while True:
        found = await manager.game(game.id)
        assert found is not None
        if found.status == "finished":
            return found
        assert found.state is not None and found.current is not None and found.current.user_id is not None
        await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))


def entrants(*ranks: int, fixed: tuple[float, float] | None = None) -> list[Entrant]:
    return [Entrant(f"user:{i}", i, rank, f"p{i}", i) for i, rank in enumerate(ranks)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_one_update_rates_every_table_size(players: int) -> None:
    after = ratings.rate(entrants(*range(1, players + 1)), {})
    mus = [after[f"user:{i}"][0] for i in range(players)]
    assert mus == sorted(mus, reverse=True) and mus[0] > ratings.INITIAL[0] > mus[-1]
    assert all(after[f"user:{i}"][1] < ratings.INITIAL[1] for i in range(players))


def test_ties_are_ties_and_fixed_anchors_shape_the_update() -> None:
    after = ratings.rate(entrants(1, 1, 2), {})
    assert after["user:0"] == after["user:1"] and after["user:2"][0] < after["user:0"][0]
    strong = Entrant("ai:strong", 1, 2, fixed=(35.0, 1.0))
    weak = Entrant("ai:random", 1, 2, fixed=(20.0, 1.0))  # within 400 points: not capped
    beat_strong = ratings.rate([Entrant("user:0", 0, 1, "a", 0), strong], {})["user:0"][0]
    beat_weak = ratings.rate([Entrant("user:0", 0, 1, "a", 0), weak], {})["user:0"][0]
    assert beat_strong > beat_weak > ratings.INITIAL[0]


def test_the_solo_margin_weights_the_update() -> None:
    small = ratings.rate([Entrant("user:0", 0, 1, "a", 0, weight=ratings.solo_weight(1)),
                          Entrant("mastermind:normal", -1, 2, fixed=ratings.INITIAL)], {})["user:0"][0]
    big = ratings.rate([Entrant("user:0", 0, 1, "a", 0, weight=ratings.solo_weight(30)),
                        Entrant("mastermind:normal", -1, 2, fixed=ratings.INITIAL)], {})["user:0"][0]
    assert big > small > ratings.INITIAL[0]
    assert ratings.solo_weight(30) == ratings.solo_weight(20) == 1.0


def test_display_scale() -> None:
    assert ratings.display(25.0) == 1500 and ratings.display(28.5) == 1640
    # Every level a table can seat is rated, and so is every retired one stored seats still play.
    assert set(ratings.ai_ratings()) == set(POLICY_NAMES) | set(RETIRED_LEVELS)


async def test_finished_games_are_rated_in_their_commit(manager: GameManager) -> None:
    store = RatingStore(manager.storage)
    game = await play_to_end(manager, await table(manager, 10, [1, 2]))
    assert await store.judged(game.id) == (True, None)
    for ladder in (ratings.GLOBAL, ratings.server_ladder(GUILD)):
        total, rows = await store.ladder(ladder)
        assert total == 2 and {r.user_id for r in rows} == {1, 2} and all(r.games == 1 for r in rows)
    # a three-seat table with an AI: the AI is an anchor, not on the ladder
    game = await play_to_end(manager, await table(manager, 11, [1, 3], ("greedy",)), seed=2)
    total, rows = await store.ladder(ratings.GLOBAL)
    assert total == 3 and {r.user_id: r.games for r in rows} == {1: 2, 2: 1, 3: 1}
    row, changes = await store.player(ratings.GLOBAL, 1)
    assert row is not None and [c.game_id for c in changes] == [1, 2]
    assert changes[1].mu_before == changes[0].mu_after


async def test_casual_tables_are_recorded_not_rated(manager: GameManager) -> None:
    store = RatingStore(manager.storage)
    off = await play_to_end(manager, await table(manager, 10, [1, 2],
                                                 settings=TableSettings(max_players=2, rated=False)))
    assert await store.judged(off.id) == (False, ratings.CASUAL_OFF)
    hinted = await table(manager, 11, [1, 2])
    await HintStore(manager.storage).count_hint(hinted.id, 0)
    hinted = await play_to_end(manager, hinted)
    assert await store.judged(hinted.id) == (False, ratings.CASUAL_HINTS)
    assert (await store.ladder(ratings.GLOBAL))[0] == 0


async def time_out(store: DaysStore, game: Game, seat: int, user_id: int) -> None:
    """A turn of ``seat`` whose clock ran out while ``user_id`` held it (what the turn clock records)."""
    key = TurnKey(game.id, 1, "play", seat)
    await store.open_turn(key, user_id=user_id, channel_id=game.channel_id, started_at=START,
                          deadline_at=START, due_at=None)
    assert await store.claim_timeout(key, START)


async def test_a_seat_handed_to_an_ai_is_rated_last_for_its_human(manager: GameManager) -> None:
    """An absent player (their turn clock ran out) whose seat the host handed to an AI: leaving by
    going silent never protects a rating."""
    game = await table(manager, 10, [1, 2, 3])
    seat = next(s for s in game.seats if s.user_id == 3)
    days = DaysStore(manager.storage)
    await time_out(days, game, seat.seat, 3)
    await days.seat_to_policy(game.id, game.revision, seat.seat, policy="greedy", display_name="Greedy bot 1")
    await manager.play_policies(10)
    await play_to_end(manager, game)
    store = RatingStore(manager.storage)
    rows = {r.user_id: r for r in (await store.ladder(ratings.GLOBAL))[1]}
    assert set(rows) == {1, 2, 3} and rows[3].display_name == "p3"
    assert rows[3].mu < min(rows[1].mu, rows[2].mu)


@pytest.mark.parametrize(("humans", "came_back"), [([1, 2], False), ([1, 2, 3], False), ([1, 2], True)])
async def test_replacing_a_present_player_wins_the_host_nothing(manager: GameManager, humans: list[int],
                                                              came_back: bool) -> None:
    """A host losing a rated game cannot turn it into a win, nor sink a present opponent, by
    handing the opponent's seat to an AI: a player replaced while no turn clock of theirs had run
    out — or who played again after one ran out — is left out of the game's rating (the AI
    playing on is no entrant either), so a two-seat game is casual and a three-seat one rates the
    two players left."""
    game = await table(manager, 10, humans)
    seat = next(s for s in game.seats if s.user_id == 2)
    days = DaysStore(manager.storage)
    if came_back:
        await time_out(days, game, seat.seat, 2)
        await days.record_activity(TurnKey(game.id, 1, "play", seat.seat), START + timedelta(minutes=1), None)
    await days.seat_to_policy(game.id, game.revision, seat.seat, policy="random",
                              display_name="Random AI (for p2)")
    await manager.play_policies(10)
    await play_to_end(manager, game)
    store = RatingStore(manager.storage)
    total, rows = await store.ladder(ratings.GLOBAL)
    if len(humans) == 2:
        assert await store.judged(game.id) == (False, ratings.CASUAL_FEW) and total == 0
    else:
        assert await store.judged(game.id) == (True, None) and {r.user_id for r in rows} == {1, 3}


async def test_solo_has_a_ladder_per_difficulty(manager: GameManager) -> None:
    await play_to_end(manager, await table(manager, 10, [1],
                                           settings=TableSettings(variant="solo", max_players=1,
                                                                  difficulty="hard")))
    store = RatingStore(manager.storage)
    assert (await store.ladder(ratings.solo_ladder("hard")))[0] == 1
    assert (await store.ladder(ratings.solo_ladder("normal")))[0] == 0
    assert (await store.ladder(ratings.GLOBAL))[0] == 0


async def test_a_game_is_never_rated_twice_and_recompute_equals_incremental(manager: GameManager) -> None:
    store = RatingStore(manager.storage)
    for channel, (humans, ais) in enumerate([([1, 2], ()), ([2, 3, 4], ("greedy",)), ([1, 3], ("random",)),
                                             ([4, 1], ()), ([1], ())]):
        settings = TableSettings(variant="solo", max_players=1) if len(humans) == 1 else None
        await play_to_end(manager, await table(manager, 20 + channel, humans, ais, settings), seed=channel)
        manager.clock.advance(minutes=1)  # type: ignore[attr-defined]
    incremental = await store.snapshot()
    game = await manager.game(1)
    assert game is not None and game.state is not None
    step = ratings.rating_step(game, game.state)
    await manager.storage.write(lambda conn: step.run(conn, "later"))  # applied again: nothing changes
    assert await store.snapshot() == incremental
    assert await ratings.recompute(manager.storage) == (5, 0)
    assert await store.snapshot() == incremental


async def test_apply_rating_on_a_game_already_judged_is_a_no_op(manager: GameManager) -> None:
    game = await play_to_end(manager, await table(manager, 10, [1, 2]))
    assert game.state is not None
    state = game.state
    result = await manager.storage.write(lambda conn: apply_rating(
        conn, "now", game.id, lambda facts: ratings.judge(game, state, facts), ratings.rate, ratings.INITIAL))
    assert result is None


async def test_both_backends_rate_in_the_game_end_commit_and_recompute(storage_target: str) -> None:
    clock = ManualClock(START)
    storage = await Storage.open(storage_target, clock)
    try:
        seeds = iter(range(300, 400))
        manager = GameManager(storage, clock=clock, seed_source=lambda: next(seeds))
        await play_to_end(manager, await table(manager, 10, [1, 2, 3]))
        clock.advance(minutes=1)
        await play_to_end(manager, await table(manager, 11, [3, 1], ("greedy",)), seed=4)
        clock.advance(minutes=1)
        cancelled = await table(manager, 12, [2, 4])
        await first_action(manager, cancelled)
        await manager.cancel(12, 4, can_manage_channel=True)  # seated, not the host: a channel manager
        store = RatingStore(storage)
        assert await store.judged(cancelled.id) == (True, "cancelled-by:4")
        before = await store.snapshot()
        total, rows = await store.ladder(ratings.GLOBAL, limit=2)
        assert total == 4 and len(rows) == 2 and rows[0].games + rows[1].games >= 3
        assert await ratings.recompute(storage) == (3, 0)
        assert await store.snapshot() == before
    finally:
        await storage.close()


async def test_a_table_with_a_servers_own_ai_is_casual(manager: GameManager) -> None:
    """A plug-in AI (docs/plugins.md) has no calibrated rating: farming it would move ratings."""
    game = await play_to_end(manager, await table(manager, 30, [1, 2]))
    assert game.state is not None
    facts = GameFacts({}, False)
    assert not isinstance(ratings.judge(game, game.state, facts), ratings.Casual)
    seats = (game.seats[0], replace(game.seats[1], user_id=None, policy="my-server-ai"))
    judged = ratings.judge(replace(game, seats=seats), game.state, facts)
    assert isinstance(judged, ratings.Casual) and judged.reason == ratings.CASUAL_PLUGIN
    seats = (game.seats[0], replace(game.seats[1], user_id=None, policy="greedy"))
    assert not isinstance(ratings.judge(replace(game, seats=seats), game.state, facts), ratings.Casual)


def test_the_recompute_command_says_in_one_sentence_why_it_cannot_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m bot.ratings recompute`` is the operator's: a mistyped path is not made into a
    new empty database (answered "recomputed from 0 games"), and a database it cannot open — a
    newer bot's, not a database — is one sentence and exit 2, never a traceback."""
    from bot.ratings import main

    missing = tmp_path / "typo.sqlite3"
    assert main(["recompute", "--db", str(missing)]) == 2
    assert "no database file" in capsys.readouterr().err and not missing.exists()
    text = tmp_path / "notes.sqlite3"
    text.write_text("not a database")
    assert main(["recompute", "--db", str(text)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m bot.ratings: ") and "is not a SQLite database" in err
    assert err.count("\n") == 1 and text.read_text() == "not a database"
    good = tmp_path / "projectl.sqlite3"
    assert main(["recompute", "--db", str(good)]) == 2  # not made either
    asyncio.run(_made(good))
    assert main(["recompute", "--db", str(good)]) == 0
    assert "recomputed from 0 finished game(s)" in capsys.readouterr().out


async def _made(path: Path) -> None:
    await (await Storage.open(path)).close()


async def first_action(manager: GameManager, game: Game) -> None:
    """The player to move plays once (the game has its first action)."""
    found = await manager.game(game.id)
    assert found is not None and found.state is not None and found.current is not None
    assert found.current.user_id is not None
    action = policy_by_name("greedy", 1).choose(found.state)
    await manager.act(found.channel_id, found.current.user_id, action)


async def test_a_seated_player_cancelling_a_rated_game_takes_the_loss(manager: GameManager) -> None:
    """Cancelling a rated game one is losing never protects a rating: the canceller is rated last
    against every other entrant (the AI too), the reason names them, and a recompute agrees. The
    others' ratings do not move: a cancel is nobody's win (or a second account could hand one out)."""
    store = RatingStore(manager.storage)
    game = await table(manager, 10, [1, 2, 3], ("greedy",))
    await first_action(manager, game)
    await manager.cancel(10, 1)
    assert await store.judged(game.id) == (True, "cancelled-by:1")
    assert await ratings.cancelled_as_loss(manager.storage, game.id)
    rows = {r.user_id: r for r in (await store.ladder(ratings.GLOBAL))[1]}
    assert set(rows) == {1} and rows[1].mu < ratings.INITIAL[0]
    assert ratings.display(rows[1].mu) < 1500
    incremental = await store.snapshot()
    assert await ratings.recompute(manager.storage) == (1, 0)
    assert await store.snapshot() == incremental


async def test_a_solo_player_cancelling_takes_a_full_loss(manager: GameManager) -> None:
    store = RatingStore(manager.storage)
    game = await table(manager, 10, [1], settings=TableSettings(variant="solo", max_players=1))
    await first_action(manager, game)
    await manager.cancel(10, 1)
    assert await store.judged(game.id) == (True, "cancelled-by:1")
    (row,) = (await store.ladder(ratings.solo_ladder("normal")))[1]
    full = ratings.rate([Entrant("user:1", 0, 2, "p1", 1),
                         Entrant("mastermind:normal", -1, 1, fixed=ratings.INITIAL)], {})["user:1"][0]
    assert row.mu == pytest.approx(full)


async def test_cancels_that_rate_nothing(manager: GameManager) -> None:
    """A moderator with no seat, a deleted channel, a lobby, a game with no action yet and a
    casual table: cancelled as before, nothing rated or recorded."""
    store = RatingStore(manager.storage)
    moderated = await table(manager, 10, [1, 2])
    await first_action(manager, moderated)
    await manager.cancel(10, 99, can_manage_channel=True)
    gone = await table(manager, 11, [1, 2])
    await first_action(manager, gone)
    await manager.cancel_gone(11)
    lobby = (await manager.create_game(guild_id=GUILD, channel_id=12, host_id=1, host_name="p1",
                                       settings=TableSettings(max_players=2))).game
    await manager.join(12, 2, "p2")
    await manager.cancel(12, 1)
    unplayed = await table(manager, 13, [1, 2])
    await manager.cancel(13, 1)
    casual = await table(manager, 14, [1, 2], settings=TableSettings(max_players=2, rated=False))
    await first_action(manager, casual)
    await manager.cancel(14, 1)
    for game in (moderated, gone, lobby, unplayed, casual):
        assert (await manager.game(game.id)).status == "cancelled"  # type: ignore[union-attr]
        assert await store.judged(game.id) is None
        assert not await ratings.cancelled_as_loss(manager.storage, game.id)
    assert (await store.ladder(ratings.GLOBAL))[0] == 0


async def test_a_player_who_left_stays_last_when_the_game_is_cancelled(manager: GameManager) -> None:
    """A seat handed to an AI after its player went silent is rated last; a cancel by another
    player does not lift it to a shared first place."""
    game = await table(manager, 10, [1, 2, 3])
    seat = next(s for s in game.seats if s.user_id == 3)
    days = DaysStore(manager.storage)
    await time_out(days, game, seat.seat, 3)
    await days.seat_to_policy(game.id, game.revision, seat.seat, policy="greedy", display_name="Greedy bot 1")
    await manager.play_policies(10)
    await first_action(manager, game)
    await manager.cancel(10, 1)
    rows = {r.user_id: r for r in (await RatingStore(manager.storage).ladder(ratings.GLOBAL))[1]}
    assert rows[1].mu == pytest.approx(rows[3].mu) and rows[1].mu < ratings.INITIAL[0] and 2 not in rows


async def test_second_accounts_cancelling_hand_out_no_rating(manager: GameManager) -> None:
    """A fresh account that hosts a rated game against a main account and cancels it after one
    action, again and again, takes the losses itself: the main account's rating never moves."""
    store = RatingStore(manager.storage)
    for alt in range(100, 110):
        game = await table(manager, alt, [alt, 1])
        await first_action(manager, game)
        await manager.cancel(alt, alt)
        assert await store.judged(game.id) == (True, f"cancelled-by:{alt}")
    rows = {r.user_id: r for r in (await store.ladder(ratings.GLOBAL))[1]}
    assert 1 not in rows and all(rows[alt].mu < ratings.INITIAL[0] for alt in range(100, 110))


def test_wins_against_a_weak_ai_stop_400_points_above_it() -> None:
    """Beating the Easy AI (1,500) over and over lifts a new player to 1,900 and no further."""
    easy = Entrant("ai:greedy", 1, 2, fixed=ratings.ai_rating("greedy"))
    prior = ratings.INITIAL
    shown = []
    for _ in range(300):
        prior = ratings.rate([Entrant("user:0", 0, 1, "a", 0), easy], {"user:0": prior})["user:0"]
        shown.append(ratings.display(prior[0]))
    assert max(shown) == shown[-1] == ratings.display(ratings.ai_rating("greedy")[0]) + 400 == 1900
    # a rating already above the bound is never lowered by a win, and a loss still counts
    high = (ratings.ai_rating("greedy")[0] + 15, 2.0)
    assert ratings.rate([Entrant("user:0", 0, 1, "a", 0), easy], {"user:0": high})["user:0"][0] == high[0]
    lost = ratings.rate([Entrant("user:0", 0, 2, "a", 0), replace(easy, rank=1)], {"user:0": high})
    assert lost["user:0"][0] < high[0]


def test_a_win_against_expert_or_with_another_human_is_not_capped() -> None:
    expert = Entrant("ai:expert", 1, 2, fixed=ratings.ai_rating("expert"))
    prior = (ratings.ai_rating("greedy")[0] + 10, 3.0)  # at the Easy AI's bound (1,900)
    beat_expert = ratings.rate([Entrant("user:0", 0, 1, "a", 0), expert], {"user:0": prior})["user:0"][0]
    assert ratings.display(beat_expert) > 1900
    easy = Entrant("ai:greedy", 2, 3, fixed=ratings.ai_rating("greedy"))
    mixed = ratings.rate([Entrant("user:0", 0, 1, "a", 0), Entrant("user:1", 1, 2, "b", 1), easy],
                         {"user:0": prior})["user:0"][0]
    assert ratings.display(mixed) > 1900


async def test_the_ladder_shows_the_capped_rating(manager: GameManager) -> None:
    """Through the game end: a player already at the Easy AI's bound who beats it again stays at
    1,900 on the leaderboard (the game still counts as played)."""
    bound = ratings.ai_rating("greedy")[0] + ratings.AI_FARM_LIMIT / ratings.DISPLAY_PER_MU
    await manager.storage.write(lambda conn: conn.execute(
        "INSERT INTO ratings (ladder, player, user_id, display_name, mu, sigma, ordinal, games, updated_at)"
        " VALUES ('all', 'user:1', 1, 'p1', ?, 2.0, ?, 40, 'then')", (bound, bound - 6)))
    game = await play_to_end(manager, await table(manager, 10, [1], ("greedy",)), seed=WON_SEED)
    assert game.state is not None and engine.winners(game.state) == (0,)  # the human won
    (row,) = [r for r in (await RatingStore(manager.storage).ladder(ratings.GLOBAL))[1] if r.user_id == 1]
    assert ratings.display(row.mu) == 1900 and row.mu == pytest.approx(bound) and row.games == 41


async def test_a_hint_in_solo_neither_lifts_a_rating_nor_shields_a_loss(manager: GameManager) -> None:
    """Solo keeps its hints (its tables are rated and cannot be made casual): a game in which the
    player asked for one is rated when lost, as any Solo loss, and casual when won ("hints"); a
    Solo game cancelled after a hint is still the canceller's loss; a recompute agrees."""
    store = RatingStore(manager.storage)
    hints = HintStore(manager.storage)
    outcomes = []
    for number in range(4):
        game = await table(manager, 10 + number, [1], settings=TableSettings(variant="solo", max_players=1))
        await hints.count_hint(game.id, 0)
        game = await play_to_end(manager, game, seed=number)
        assert game.state is not None
        won = engine.winners(game.state) == (0,)
        outcomes.append(won)
        assert await store.judged(game.id) == ((False, ratings.CASUAL_HINTS) if won else (True, None))
        manager.clock.advance(minutes=1)  # type: ignore[attr-defined]
    assert True in outcomes and False in outcomes  # both a won and a lost game were played
    total, (row,) = await store.ladder(ratings.solo_ladder("normal"))
    assert total == 1 and row.games == outcomes.count(False) and ratings.display(row.mu) < 1500
    cancelled = await table(manager, 20, [1], settings=TableSettings(variant="solo", max_players=1))
    await hints.count_hint(cancelled.id, 0)
    await first_action(manager, cancelled)
    await manager.cancel(20, 1)
    assert await store.judged(cancelled.id) == (True, "cancelled-by:1")
    incremental = await store.snapshot()
    assert await ratings.recompute(manager.storage) == (5, 0)
    assert await store.snapshot() == incremental


async def test_two_games_ending_at_once_in_two_processes_both_count(storage_target: str) -> None:
    """Two processes (shards) each end a game of player 1 at the same moment: each reads 1's rating
    and writes it back. Both games must count: the second to commit starts from the first's
    result (on PostgreSQL the player's rows are locked for the read-modify-write; SQLite has one
    writer). The raters meet at a barrier after reading, so without a lock both read the same
    rating and the later write would erase the earlier change."""
    clock = ManualClock(START)
    first, second = await Storage.open(storage_target, clock), await Storage.open(storage_target, clock)
    try:
        manager = GameManager(first, clock=clock, seed_source=lambda: 1)
        games = [(await manager.create_game(guild_id=GUILD, channel_id=channel, host_id=1, host_name="p1",
                                            settings=TableSettings(max_players=2))).game.id
                 for channel in (10, 11)]
        both_read = threading.Barrier(2, timeout=3)

        def rate_after_both_read(entrants: Sequence[Entrant],
                                 priors: Mapping[str, Prior]) -> dict[str, Prior]:
            try:
                both_read.wait()  # with a lock, the other waits for this commit: the barrier times out
            except threading.BrokenBarrierError:
                pass
            return ratings.rate(entrants, priors)

        def step(game_id: int, opponent: int) -> Callable[[object], object]:
            beaten = Entrant(f"user:{opponent}", 1, 2, f"p{opponent}", opponent)
            result = RatedGame((ratings.GLOBAL,), (Entrant("user:1", 0, 1, "p1", 1), beaten))
            return lambda conn: apply_rating(conn, "now", game_id,  # type: ignore[arg-type]
                                             lambda facts: result, rate_after_both_read, ratings.INITIAL)

        await asyncio.gather(first.write(step(games[0], 2)), second.write(step(games[1], 3)))
        store = RatingStore(first)
        rows = {r.user_id: r for r in (await store.ladder(ratings.GLOBAL))[1]}
        once = ratings.rate([Entrant("user:1", 0, 1, "p1", 1), Entrant("user:2", 1, 2, "p2", 2)],
                            {})["user:1"]
        twice = ratings.rate([Entrant("user:1", 0, 1, "p1", 1), Entrant("user:3", 1, 2, "p3", 3)],
                             {"user:1": once})["user:1"]
        assert rows[1].games == 2 and rows[1].mu == pytest.approx(twice[0]) and rows[1].mu > once[0]
        changes = (await store.player(ratings.GLOBAL, 1, trend=5))[1]
        assert sorted(c.mu_before for c in changes) == pytest.approx([ratings.INITIAL[0], once[0]])
    finally:
        await first.close()
        await second.close()


async def test_recompute_follows_the_commit_order_not_the_clock(storage_target: str) -> None:
    """Two games of player 1 end one after the other, but the second's process stamped an earlier
    ``ended_at`` (its clock is behind, or its stamp was taken before a slow commit): a recompute
    rates them in the order they were committed, so it gives exactly the incremental ratings."""
    clock = ManualClock(START)
    storage = await Storage.open(storage_target, clock)
    try:
        seeds = iter(range(500, 600))
        manager = GameManager(storage, clock=clock, seed_source=lambda: next(seeds))
        await play_to_end(manager, await table(manager, 10, [1, 2]))
        clock.advance(minutes=5)
        later = await play_to_end(manager, await table(manager, 11, [1, 3]), seed=3)
        await storage.write(lambda conn: conn.execute(  # stamped before the earlier game's end
            "UPDATE games SET ended_at = ? WHERE id = ?", ("2000-01-01T00:00:00+00:00", later.id)))
        store = RatingStore(storage)
        incremental = await store.snapshot()
        assert await ratings.recompute(storage) == (2, 0)
        assert await store.snapshot() == incremental
    finally:
        await storage.close()
