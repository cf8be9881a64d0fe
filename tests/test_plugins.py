"""Plug-in AIs (issue 50, item 3): a package's policy through the ``projectl.policies`` entry
point sees only its seat's view, is checked by the engine, runs in a worker within a time limit,
and is offered in a server's lobbies only once that server's admins turn plug-ins on.

The example plug-in (examples/projectl-example-policy) and the test plug-ins below are
"installed" as distributions on ``sys.path`` in ``tmp_path`` (a ``*.dist-info`` folder with its
``entry_points.txt``), so the suite needs no install step; a spawned worker inherits ``sys.path``.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import discord
import pytest
from harness import DiscordHarness
from test_bot_support import TOKEN, assert_refused, bot_factory, bot_of

from bench import league
from bench.harnessed import forge_click
from bot.core.clock import ManualClock
from bot.core.errors import BadInputError
from bot.core.play.ai_moves import PLUGIN_STAND_IN, PLUGIN_STRIKES
from bot.core.play.manager import GameManager, TableSettings
from bot.core.play.plugins import PluginError, PluginRunner, PluginTimeoutError, plugin_names
from bot.core.storage import Storage
from engine import GameState, Options, apply, legal_actions, new_game
from engine.expansions.finesse import TILES, FinesseExpansion
from engine.expansions.finesse import view as finesse_view
from engine.policies import policy_by_name
from engine.policies.plugins import FACE_DOWN_TILE, PluginPolicy, seat_view
from engine.visibility import hidden_scores

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_SRC = ROOT / "examples" / "projectl-example-policy" / "src"
CHANNEL = 77

TEST_PLUGINS = '''
import time

class Spy:
    """Records every view it is given, then plays its first legal action but a Pass."""
    views = []

    def __init__(self, seed):
        from engine.policies import GreedyPolicy
        self.easy = GreedyPolicy(seed)

    def choose(self, view):
        Spy.views.append(view)
        return self.easy.choose(view.state)

class Sleepy:
    def __init__(self, seed):
        pass

    def choose(self, view):
        time.sleep(60)
        return view.legal[0]

class Cheat:
    def __init__(self, seed):
        pass

    def choose(self, view):
        return "skip"

class Snoop:
    """Prints, then tells what the worker let it see (its seed, the bot's token) in its error."""
    def __init__(self, seed):
        self.seed = seed

    def choose(self, view):
        import os
        print("snoop was here")
        raise RuntimeError(f"seed={self.seed} token={os.environ.get('DISCORD_TOKEN')}")

class Hog:
    def __init__(self, seed):
        pass

    def choose(self, view):
        hoard = bytearray(8 << 30)  # 8 GiB: past the worker's limit, refused at once
        return view.legal[len(hoard) % 1]
'''

KEEPER_PLUGIN = '''
seen = []  # module state: it outlives each move's object

class Keeper:
    def __init__(self, seed):
        pass

    def choose(self, view):
        seen.append(view.seat)
        raise RuntimeError(f"seen seats {seen}")
'''

ODD_PLUGIN = '''
class Odd(Exception):
    """An exception of the plug-in's own, which cannot even be unpickled (two arguments)."""
    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")

class Oddball:
    def __init__(self, seed):
        pass

    def choose(self, view):
        raise Odd(1, 2)
'''


def install(site: Path, dist: str, points: dict[str, str]) -> None:
    """A distribution's metadata as pip leaves it: enough for ``importlib.metadata``."""
    info = site / f"{dist}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    (info / "entry_points.txt").write_text(f"[projectl.policies]\n{lines}")


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    site = tmp_path / "site"
    install(site, "projectl_example_policy", {"example": "projectl_example_policy:ExamplePolicy"})
    install(site, "projectl_test_plugins", {"spy": "projectl_test_plugins:Spy",
                                            "sleepy": "projectl_test_plugins:Sleepy",
                                            "cheat": "projectl_test_plugins:Cheat",
                                            "snoop": "projectl_test_plugins:Snoop",
                                            "hog": "projectl_test_plugins:Hog"})
    install(site, "projectl_test_odd", {"oddball": "projectl_test_odd:Oddball"})
    install(site, "projectl_test_keeper", {"keeper": "projectl_test_keeper:Keeper"})
    (site / "projectl_test_keeper.py").write_text(KEEPER_PLUGIN)
    install(site, "projectl_test_broken", {"broken": "projectl_test_broken:Broken"})
    (site / "projectl_test_plugins.py").write_text(TEST_PLUGINS)
    (site / "projectl_test_odd.py").write_text(ODD_PLUGIN)
    (site / "projectl_test_broken.py").write_text("raise ImportError('this plug-in cannot be imported')\n")
    install(site, "projectl_test_stuck", {"stuck": "projectl_test_stuck:Stuck"})
    (site / "projectl_test_stuck.py").write_text("import time\ntime.sleep(3600)  # hangs on import\n")
    monkeypatch.syspath_prepend(str(EXAMPLE_SRC))
    monkeypatch.syspath_prepend(str(site))
    yield site


# -- the view ------------------------------------------------------------------------------------


def scrambled(state: GameState) -> GameState:
    """``state`` changed only where its current seat cannot see: every deck in another order, a
    hidden score pile's card swapped with an unseen card of its colour, other face-down Finesse
    tiles, another seed and random state."""
    table = state.table
    decks = {f.name: list(getattr(table, f.name)) for f in fields(table) if f.name.endswith("deck")}
    players = list(state.players)
    for seat in hidden_scores(state, state.current):
        pile = players[seat].completed
        if not pile:
            continue
        colour = state.cards[pile[0].card].colour
        for cards in decks.values():
            at = next((i for i, c in enumerate(cards) if state.cards[c].colour is colour), None)
            if at is not None:
                cards[at], swapped = pile[0].card, cards[at]
                players[seat] = replace(players[seat], completed=(replace(pile[0], card=swapped), *pile[1:]))
                break
    ext = state.ext
    fv = finesse_view(state)
    if fv is not None and fv.face_down:
        others = [t for t in sorted(TILES) if t not in fv.row][:fv.face_down]
        ext = {**ext, FinesseExpansion.name: {**ext[FinesseExpansion.name],
                                              "row": [*others, *fv.row[fv.face_down:]]}}
    new_decks = {name: tuple(reversed(cards)) for name, cards in decks.items()}
    return state.evolve(table=replace(table, **new_decks), players=tuple(players), ext=ext,
                        seed=state.seed + 1, rng_state=state.rng_state + 12345)


def test_a_plugin_sees_no_deck_order_no_hidden_score_and_no_face_down_tile(plugins: Path) -> None:
    """Two spies play whole games with hidden score piles and Finesse: every view they were given
    is the view of a state scrambled wherever the seat cannot see (so it tells nothing of what
    was scrambled), has no seed, and names no face-down tile."""
    spy_class = policy_by_name("spy", 0).chooser.__class__  # type: ignore[attr-defined]
    hidden_piles = face_down = 0
    for seed in (11, 12):
        spy_class.views.clear()
        state = new_game(Options(players=2, known_scores=False, finesse=True), seed)
        spies = [policy_by_name("spy", seed), policy_by_name("spy", seed + 1)]
        while not state.is_over:
            seat = state.acting_seat
            action = spies[seat].choose(state)
            view = spy_class.views[-1]
            assert view.seat == seat and view.state.seed == 0 and view.state.rng_state == 0
            assert view == seat_view(scrambled(state), seat)
            fv = finesse_view(view.state)
            assert fv is not None and list(fv.row[:fv.face_down]) == [FACE_DOWN_TILE] * fv.face_down
            face_down += fv.face_down
            hidden_piles += sum(len(state.players[s].completed) for s in hidden_scores(state, seat))
            state = apply(state, action, player=seat).state
        assert all(isinstance(s, PluginPolicy) and s.fallbacks == 0 for s in spies)
    assert hidden_piles and face_down  # the games had something to hide


def test_an_illegal_answer_falls_back_to_a_legal_move(plugins: Path) -> None:
    """A table's decision (``skip``) is never a player's: the engine refuses it and a legal move
    is played instead, counted."""
    state = new_game(Options(players=2), 5)
    cheat = policy_by_name("cheat", 0)
    assert isinstance(cheat, PluginPolicy)
    assert cheat.choose(state) in legal_actions(state)
    assert cheat.fallbacks == 1 and "skip" in (cheat.last_error or "")


# -- the bot -------------------------------------------------------------------------------------


async def test_a_plugin_out_of_time_is_killed_and_the_next_one_plays(plugins: Path, tmp_path: Path) -> None:
    state = new_game(Options(players=2), 5)
    runner = PluginRunner(budget_s=0.5)
    try:
        with pytest.raises(PluginTimeoutError):
            await runner.move(state, 0, 1, "sleepy")
        runner.budget_s = 60.0  # a generous ceiling for a loaded machine
        action = await runner.move(state, 0, 1, "example")
        assert action in legal_actions(state)
    finally:
        await runner.close()


async def test_what_crosses_back_from_the_worker_is_text_never_the_plugins_own_object(
    plugins: Path,
) -> None:
    """A plug-in's own exception class is not unpickled in the bot's process (that would import
    the plug-in there, on the event loop, beside every game's real state; this one cannot even be
    unpickled): its failure comes back at once as a PluginError naming it."""
    sys.modules.pop("projectl_test_odd", None)
    state = new_game(Options(players=2), 5)
    runner = PluginRunner(budget_s=60.0)
    try:
        with pytest.raises(PluginError, match="Odd: 1/2"):
            await asyncio.wait_for(runner.move(state, state.acting_seat, 1, "oddball"), 30.0)
    finally:
        await runner.close()
    assert "projectl_test_odd" not in sys.modules


async def test_the_worker_keeps_the_token_the_game_seed_and_the_terminal_from_a_plugin(
    plugins: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
) -> None:
    """The seed a plug-in is given is not the game's (nor a few bits from it: the deal could be
    dealt again), the bot's token is not in its environment, what it prints does not reach the
    bot's output, and an allocation past its memory limit fails in the plug-in."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-for-plugins")
    state = new_game(Options(players=2), 5)
    game_seed = 0x2AAA_BBBB_CCCC_DDDD
    runner = PluginRunner(budget_s=60.0)
    try:
        with pytest.raises(PluginError) as said:
            await runner.move(state, state.acting_seat, game_seed ^ 7919, "snoop")
        seed = int(str(said.value).split("seed=")[1].split()[0])
        assert "token=None" in str(said.value)
        assert (seed ^ game_seed) >> 32  # not the game's seed with its low bits changed
        with pytest.raises(PluginError, match="MemoryError"):
            await runner.move(state, state.acting_seat, 1, "hog")
    finally:
        await runner.close()
    assert "snoop was here" not in capfd.readouterr().out


async def test_a_plugin_keeps_what_it_learnt_for_its_own_seat_only(plugins: Path) -> None:
    """Each seat's plug-in thinks in a worker of its own: what it keeps between moves (module
    state) is its own views, never another seat's (whose own score pile is hidden from it)."""
    state = new_game(Options(players=2, known_scores=False), 5)
    runner = PluginRunner(budget_s=60.0)
    try:
        for said_now in ("[0]", "[1]", "[0, 0]", "[1, 1]"):
            seat = int(said_now[1])
            with pytest.raises(PluginError, match=re.escape(f"seen seats {said_now}")):
                await runner.move(state, seat, 1, "keeper", table=7)
        with pytest.raises(PluginError, match=re.escape("seen seats [0]")):
            await runner.move(state, 0, 1, "keeper", table=8)  # another game: another worker
    finally:
        await runner.close()


async def test_a_failing_plugin_is_one_log_line_a_move_and_the_game_goes_on(
    plugins: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    storage = await Storage.open(tmp_path / "m.sqlite3", ManualClock())
    manager = GameManager(storage, seed_source=lambda: 3)
    manager.plugins.budget_s = 60.0
    try:
        await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                                  settings=TableSettings(max_players=2))
        await manager.add_policy_seat(CHANNEL, 1, "broken", plugins=("broken",))
        with caplog.at_level(logging.INFO, logger="bot"):
            game = (await manager.start(CHANNEL, 1)).game
            easy = policy_by_name("greedy", 9)
            for _ in range(6):
                assert game.state is not None and game.status == "active"
                if game.state.acting_seat == 0:
                    game = (await manager.act(CHANNEL, 1, easy.choose(game.state.focused(0)))).game
        said = [r for r in caplog.records if "broken" in r.getMessage()]
        assert said and all(r.exc_info is None and r.levelno == logging.WARNING for r in said)
        assert "ImportError: this plug-in cannot be imported" in said[0].getMessage()
    finally:
        await manager.plugins.close()
        await storage.close()


async def test_a_plugin_that_hangs_on_import_is_given_up_after_three_moves_and_a_builtin_plays_on(
    plugins: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Each move of a plug-in stuck in its import costs the whole budget (and a new worker) for
    a first-legal-action move: after PLUGIN_STRIKES in a row the seat plays the built-in stand-in
    for the rest of the game, said once in the log, and its moves cost no budget any more (no
    further "took over" line: no move waited for the plug-in again)."""
    storage = await Storage.open(tmp_path / "m.sqlite3", ManualClock())
    manager = GameManager(storage, seed_source=lambda: 3)
    manager.plugins.budget_s = 0.5
    try:
        await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                                  settings=TableSettings(max_players=2))
        await manager.add_policy_seat(CHANNEL, 1, "stuck", plugins=("stuck",))
        with caplog.at_level(logging.INFO, logger="bot"):
            game = (await manager.start(CHANNEL, 1)).game
            easy = policy_by_name("greedy", 9)
            plugin_moves = 0
            while plugin_moves < 3 * PLUGIN_STRIKES:
                assert game.state is not None and game.status == "active"
                assert game.state.acting_seat == 0
                before = game.revision
                game = (await manager.act(CHANNEL, 1, easy.choose(game.state.focused(0)))).game
                plugin_moves += game.revision - before - 1
        said = [r.getMessage() for r in caplog.records if "stuck" in r.getMessage()]
        failed = [line for line in said if "a fallback move is played" in line]
        given_up = [line for line in said if "for the rest of the game" in line]
        assert len(failed) == PLUGIN_STRIKES and all("took over 0.5 s" in line for line in failed)
        assert given_up == [f"plug-in AI stuck failed {PLUGIN_STRIKES} moves in a row in game {game.id}"
                            f" (seat 1); the seat plays {PLUGIN_STAND_IN} for the rest of the game"]
        manager.ai.strong_plans[(game.id, 1)] = (game.revision + 1, ())  # a Strong seat's turn, half played
        await manager.cancel(CHANNEL, 1)
        assert not manager.ai.plugin_strikes, "a cancelled game's seats are forgotten, as a finished one's"
        assert not manager.ai.strong_plans
    finally:
        await manager.plugins.close()
        await storage.close()


async def test_only_a_server_that_turned_plugins_on_seats_them(plugins: Path, tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "m.sqlite3", ManualClock())
    try:
        manager = GameManager(storage, seed_source=lambda: 3)
        await manager.create_game(guild_id=1, channel_id=CHANNEL, host_id=1, host_name="ann",
                                  settings=TableSettings(max_players=2))
        servers = manager.plugin_servers
        assert await servers.offered(1) == ()
        with pytest.raises(BadInputError, match="Unknown AI kind"):
            await manager.add_policy_seat(CHANNEL, 1, "example", plugins=await servers.offered(1))
        await servers.choose(1, True, by_user_id=1)
        assert "example" in await servers.offered(1) and not await servers.offered(2)
        assert await GameManager(storage).plugin_servers.offered(1)  # stored, not only cached
        game = await manager.add_policy_seat(CHANNEL, 1, "example", plugins=plugin_names())
        assert [s.policy for s in game.seats] == [None, "example"]
    finally:
        await storage.close()


@pytest.fixture
async def h(plugins: Path, tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    harness = DiscordHarness(bot_factory=bot_factory(tmp_path / "bot.sqlite3"), token=TOKEN,
                             trap_loggers=("discord", "bot"), settle_timeout=120.0)
    async with harness:
        bot_of(harness).manager.plugins.budget_s = 60.0  # the worker's budget: generous on a busy machine
        yield harness
        await bot_of(harness).manager.plugins.close()


def lobby_ops(message: Any) -> list[str]:
    return [button.custom_id.split(":")[2] for button in message.buttons]


async def test_the_lobby_offers_the_plugin_once_enabled_and_it_plays_a_whole_game(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    admin = h.add_user("mod")
    h.give_role(admin, h.add_role("mods", permissions=discord.Permissions(manage_guild=True)))
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    assert lobby is not None and "ai-example" not in lobby_ops(lobby)
    gid = lobby.buttons[0].custom_id.split(":")[-1]
    forged = await forge_click(h, alice, "games", lobby, f"pl:lobby:ai-example:{gid}")  # not offered here
    assert_refused(forged, "Unknown AI kind")
    await h.slash(alice, "games", "projectl table cancel")

    ix = await h.slash(admin, "games", "projectl-server", plugin_ais=True)
    assert_refused(ix, "now offer", "`example`")
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    assert lobby is not None and "ai-example" in lobby_ops(lobby)
    gid = lobby.buttons[0].custom_id.split(":")[-1]
    added = await h.click(alice, lobby, f"pl:lobby:ai-example:{gid}")
    assert not added.responses[-1].ephemeral
    await h.click(alice, lobby, f"pl:lobby:start:{gid}")

    manager = bot_of(h).manager
    game = await manager.game_in_channel(h.channel("games").id)
    assert game is not None and [s.policy for s in game.seats] == [None, "example"]
    easy = policy_by_name("greedy", 9)
    while game.status == "active":  # alice's moves through the manager; the plug-in's in its worker
        assert game.state is not None
        result = await manager.act(game.channel_id, alice.id, easy.choose(game.state.focused(0)))
        game = result.game
    assert game.status == "finished" and await manager.verify(game.id)
    assert manager.plugins._workers  # noqa: SLF001 - it played in a worker

    ix = await h.slash(admin, "games", "projectl-server", plugin_ais=False, language="pt-BR")
    assert_refused(ix, "no longer offer", "Português")  # both choices, both confirmed
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    assert lobby is not None and "ai-example" not in lobby_ops(lobby)


def test_the_league_pits_builtins_and_plugins_with_intervals(
    plugins: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert league.main(["--policies", "greedy,example", "--games", "2"]) == 0
    text = capsys.readouterr().out
    assert "| greedy – example | 2 |" in text and "95 % interval" in text
    with pytest.raises(SystemExit):
        league.main(["--policies", "greedy,nobody"])
    assert "nobody" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        league.main(["--policies", "greedy,broken"])
    err = capsys.readouterr().err
    assert "broken" in err and "ImportError: this plug-in cannot be imported" in err
    assert "Traceback" not in err
    assert league.main(["--policies", "greedy,cheat", "--games", "2"]) == 0  # plays, with a warning
    assert "warning: plug-in 'cheat' failed its trial move" in capsys.readouterr().err
    assert league.interval(0.5, 100) == (0.4038, 0.5962)

