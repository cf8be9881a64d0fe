"""The lobby under load (issue 10, section 3): every lobby command and button is acknowledged
before any work, AI seats play only after the Start click is answered, and a table is created
with its options in one transaction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused

from bench.harnessed import forge_click, running, stale_slash
from bench.tables import snapshot
from bot.core.clock import ManualClock
from bot.core.errors import BadInputError
from bot.core.play.manager import GameManager, TableSettings
from bot.core.storage import Storage


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "lobby.sqlite3") as harness:
        yield harness


def game_id_of(lobby: Any) -> str:
    return lobby.buttons[0].custom_id.split(":")[-1]


class CommitLog:
    """Where each storage write fell among the HTTP calls the bot made: ``(what, game id,
    len(h.calls) then)``."""

    def __init__(self, h: Any) -> None:
        self.at: list[tuple[str, int, int]] = []
        storage = h.bot.storage
        for name in ("start_game", "commit_action", "replace_seats", "set_status"):
            original = getattr(storage, name)

            async def wrapped(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
                self.at.append((_name, int(args[0]), len(h.calls)))
                return await _original(*args, **kwargs)

            setattr(storage, name, wrapped)


def first_call_of(h: Any, ix: Any) -> int:
    """Index in ``h.calls`` of the interaction's first response (its acknowledgement)."""
    return h.calls.index(ix.responses[0].call)


async def test_every_lobby_button_is_acknowledged_before_its_work(h: Any) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    new = await h.slash(alice, "games", "projectl table new", players=3)
    assert new.responses[0].callback_type == 5  # "thinking…", public: the lobby fills it
    lobby = new.original
    assert lobby is not None and not lobby.ephemeral and lobby.buttons
    gid = game_id_of(lobby)
    commits = CommitLog(h)
    for user, op in ((bob, "join"), (bob, "leave"), (bob, "join"), (alice, "ai"), (bob, "start"),
                     (alice, "start")):
        done = len(commits.at)
        ix = await h.click(user, lobby, f"pl:lobby:{op}:{gid}")
        assert ix.responses[0].callback_type == 6, op  # deferred update: nothing shown yet
        assert all(at > first_call_of(h, ix) for _, _, at in commits.at[done:]), op
    late = await forge_click(h, bob, "games", lobby, f"pl:lobby:join:{gid}")  # an old copy of the lobby
    assert late.responses[0].callback_type == 6
    assert_refused(late, "already started")


async def test_lobby_commands_are_acknowledged_before_their_work(h: Any) -> None:
    """`/projectl table leave` in a lobby and `/projectl table cancel` answer first ("thinking…"),
    then write; a leave by command also updates the lobby's public list of seats."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    lobby = (await h.slash(alice, "games", "projectl table new", players=3)).original
    gid = game_id_of(lobby)
    await h.click(bob, lobby, f"pl:lobby:join:{gid}")
    assert "bob" in h.world.messages[lobby.id].content
    commits = CommitLog(h)
    leave = await h.slash(bob, "games", "projectl table leave")
    assert leave.responses[0].callback_type == 5 and leave.responses[-1].ephemeral
    assert [name for name, _, _ in commits.at] == ["replace_seats"]
    assert commits.at[0][2] > first_call_of(h, leave)
    assert "bob" not in h.world.messages[lobby.id].content, "the lobby shows who is seated now"
    assert_refused(await h.slash(bob, "games", "projectl table cancel"), "only the host")  # privately
    cancel = await h.slash(alice, "games", "projectl table cancel")
    assert cancel.responses[0].callback_type == 5
    assert [name for name, _, _ in commits.at] == ["replace_seats", "set_status"]
    assert commits.at[1][2] > first_call_of(h, cancel)
    assert not cancel.responses[-1].ephemeral and "cancelled by alice" in cancel.responses[-1].content
    assert "loss" not in cancel.responses[-1].content  # a lobby cancel rates nothing
    assert h.world.messages[lobby.id].content == "This table was cancelled."


async def test_ai_seats_play_after_the_start_click_is_answered(h: Any) -> None:
    """The click is acknowledged and the lobby shows "started" before any AI move is computed;
    the one table post then carries the AI's moves."""
    alice = h.add_user("alice")
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    gid = game_id_of(lobby)
    await h.click(alice, lobby, f"pl:lobby:ai:{gid}")
    commits = CommitLog(h)
    ix = await h.click(alice, lobby, f"pl:lobby:start:{gid}")
    edit = next(i for i, c in enumerate(h.calls) if c.method == "PATCH" and i > first_call_of(h, ix))
    ai_moves = [at for name, _, at in commits.at if name == "commit_action"]
    game = await h.bot.manager.game_in_channel(h.channel("games").id)
    if game.state.current != 0 or ai_moves:  # the AI seat moved first in this deal
        assert ai_moves and min(ai_moves) > edit
    assert "started" in h.world.messages[lobby.id].content.lower()


async def test_a_hundred_channels_press_start_at_once(h: Any) -> None:
    """Every click's acknowledgement is its first call, before any of its work, even when 100
    tables start together with AI seats to play (bench: ``python -m bench bot`` times them)."""
    alice = h.add_user("alice")
    lobbies = []
    for n in range(100):
        channel = h.add_channel(f"table-{n}")
        lobby = (await h.slash(alice, channel, "projectl table new", players=2)).original
        await h.click(alice, lobby, f"pl:lobby:ai:{game_id_of(lobby)}")
        lobbies.append(lobby)
    commits = CommitLog(h)
    games = [int(game_id_of(lobby)) for lobby in lobbies]
    clicks = [await h.click(alice, lobby, f"pl:lobby:start:{game}", settle=False)
              for lobby, game in zip(lobbies, games, strict=True)]
    # 100 starts and their AI turns are a lot of work for two cores: wait for it without a clock
    # (the acknowledgement order is what this test checks; `python -m bench bot` times it).
    await h.settle(timeout=120)
    assert all(ix.responses and ix.responses[0].callback_type == 6 for ix in clicks)
    for game, ix in zip(games, clicks, strict=True):
        writes = [at for _, written, at in commits.at if written == game]
        assert writes and min(writes) > first_call_of(h, ix)
    started = [await h.bot.manager.game_in_channel(h.channel(f"table-{n}").id) for n in range(100)]
    assert all(g is not None and g.status == "active" for g in started)
    posts = [m for n in range(100) for m in h.channel_messages(f"table-{n}") if m.files]
    assert len(posts) == 100  # every table got its table post


async def test_an_invalid_option_leaves_no_lobby(h: Any) -> None:
    """Options outside what Discord lets a current client send are refused before anything is
    written (a turn clock of 9 days, 7 players, an unknown variant)."""
    alice = h.add_user("alice")
    db = Path(h.bot.settings.db_path)
    before = snapshot(db)
    for options in ({"turn_limit_days": 9}, {"turn_limit_days": 0}, {"players": 7}, {"variant": "chess"},
                    {"reserve": 12}, {"difficulty": "godlike", "variant": "solo"}):
        assert_refused(await stale_slash(h, alice, "games", "projectl table new", options))
    assert snapshot(db) == before


async def test_watch_offers_the_lobbys_ais_by_their_lobby_names(h: Any) -> None:
    """`watch` is a choice of the lobby's AIs, named as the lobby's buttons name them."""
    [new] = [c for c in h.commands if c["name"] == "projectl"]
    table = next(o for o in new["options"] if o["name"] == "table")
    command = next(o for o in table["options"] if o["name"] == "new")
    watch = next(o for o in command["options"] if o["name"] == "watch")
    assert [(c["name"], c["value"]) for c in watch["choices"]] == [
        ("Easy", "greedy"), ("Medium", "medium"), ("Strong", "ladder_strong"), ("Expert", "expert")]
    assert watch["choices"][0]["name_localizations"]["pt-BR"] == "Fácil"


async def test_a_bad_watch_value_is_refused_privately(h: Any) -> None:
    """An old client can still send a kind of AI that is not on the list: it is refused before the
    public "thinking…" the lobby would fill, so only the host sees the refusal."""
    alice = h.add_user("alice")
    ix = await stale_slash(h, alice, "games", "projectl table new", {"variant": "solo", "watch": "easy"})
    assert_refused(ix, "Unknown AI kind")
    assert ix.responses[0].ephemeral and ix.responses[0].callback_type == 4
    assert await h.bot.manager.game_in_channel(h.channel("games").id) is None


async def test_table_and_options_are_one_transaction(tmp_path: Path) -> None:
    """If writing the options fails, the lobby is not created either (no half-created table that
    blocks the channel)."""
    storage = await Storage.open(tmp_path / "tx.sqlite3", ManualClock())
    try:
        manager = GameManager(storage, clock=ManualClock(), seed_source=lambda: 5)
        fault = ("CREATE TRIGGER fail_options BEFORE INSERT ON table_options "
                 "BEGIN SELECT RAISE(ABORT, 'disk'); END")
        await storage.job(lambda conn: conn.execute(fault))  # a fault, injected
        with pytest.raises(Exception, match="disk"):
            await manager.create_game(guild_id=1, channel_id=9, host_id=1, host_name="ann",
                                      settings=TableSettings(max_players=2), turn_limit_hours=48)
        assert await manager.game_in_channel(9) is None
        created = await manager.create_game(guild_id=1, channel_id=9, host_id=1, host_name="ann",
                                            settings=TableSettings(max_players=2))
        assert created.game.status == "lobby"
        with pytest.raises(BadInputError):
            await manager.create_game(guild_id=1, channel_id=10, host_id=1, host_name="ann",
                                      settings=TableSettings(max_players=9))
    finally:
        await storage.close()


async def test_the_shipped_catalogue_opens_every_mode(h: Any) -> None:
    assert h.bot.manager.supported_modes == ("solo", "2p", "3p", "4p", "5p", "6p")


async def test_a_mode_the_catalogue_cannot_deal_is_refused_before_anything_is_written(h: Any) -> None:
    """A server's small catalogue (20 white + 14 black base cards: solo, 2 and 3 players, as
    ``catalogue --check`` reports) opens only those modes; the others get an ephemeral sentence."""
    from engine.catalogue import load_catalogue, supported_modes

    base = [c for c in load_catalogue(None).cards if c.expansion is None]
    white = [c for c in base if c.colour.value == "white"]
    black = [c for c in base if c.colour.value == "black"]
    small = white[:20] + black[:14]
    h.bot.manager.supported_modes = supported_modes(small)
    assert h.bot.manager.supported_modes == ("solo", "2p", "3p")
    alice = h.add_user("alice")
    db = Path(h.bot.settings.db_path)
    before = snapshot(db)
    for players in (4, 5, 6):
        assert_refused(await h.slash(alice, "games", "projectl table new", players=players),
                       f"too few cards for {players} players", "it supports Solo, 2 players, 3 players")
    assert snapshot(db) == before
    h.bot.manager.supported_modes = supported_modes(white[:12] + black[:12])  # 12 + 12: 2p only
    assert_refused(await h.slash(alice, "games", "projectl table new", variant="solo"),
                   "too few cards for Solo", "it supports 2 players")
    assert snapshot(db) == before
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    assert lobby is not None and lobby.buttons
