"""Bad input through Discord: every command, button and autocomplete with hostile values.

A seeded generator (bench/fuzz.py) builds cases from the synced schema, so every command is
covered, including ones added later. Three tables are in play (a base game, a lobby, a Solo game)
and one channel has none; users are the current player, other players, an outsider and a
channel manager; legal moves are interleaved so the fuzz meets every phase.

For every case: the bot answers (the harness fails on an unanswered interaction or any logged
error), an answer that changed nothing is ephemeral and says something, and a case built from a
hostile value (or a forged id that cannot be right) changes nothing — the database snapshot
(state JSON, revision, seats, log, players) is compared before and after. At the end every game
replays to its stored state, ``PRAGMA integrity_check`` is ok and every captured payload is within
Discord's limits. Counts are printed (``pytest -s``) and recorded in docs/hardening.md; raise them
with ``PROJECTL_FUZZ_SCALE=10``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, SchemaError
from test_bot_support import bot_of, open_table, running_bot

import engine
from bench.checks import integrity
from bench.discord_driver import play
from bench.fuzz import FREE_TEXT_OPTIONS, STRING, TABLE_DECISIONS, forged_ids, leaves, option_values
from bench.harnessed import forge_click
from bench.limits import check_call
from bench.players import choose_action
from bench.tables import snapshot
from bot.core.wording import texts

SCALE = float(os.environ.get("PROJECTL_FUZZ_SCALE", "1"))
COMMAND_CASES, CLICK_CASES, AUTOCOMPLETE_CASES = (int(n * SCALE) for n in (400, 250, 150))
TABLES = {"games": 2, "general": 3, "solo": 1}  # channel -> seats ("general" stays a lobby)


class Fuzz:
    """The running bot, its tables and the bookkeeping shared by the three fuzz loops."""

    def __init__(self, h: DiscordHarness, seed: int) -> None:
        self.h = h
        self.rng = random.Random(seed)
        self.db = Path(bot_of(h).settings.db_path)
        self.counts: Counter[str] = Counter()
        self.players = {name: h.add_user(name) for name in ("alice", "bob", "carol", "dave")}
        self.outsider = h.add_user("eve")
        self.manager_user = h.add_user("mo", manage_channel=True)
        h.add_channel("solo")

    @property
    def users(self) -> list[Any]:
        return [*self.players.values(), self.outsider, self.manager_user]

    async def game(self, channel: str) -> Any:
        return await bot_of(self.h).manager.game_in_channel(self.h.channel(channel).id)

    async def ensure_tables(self) -> None:
        alice, bob, carol, dave = self.players.values()
        if await self.game("games") is None:
            await open_table(self.h, alice, [bob], channel="games", players=2)
        if await self.game("general") is None:
            await self.h.slash(carol, "general", "projectl table new", players=3)
        if await self.game("solo") is None:
            await self.h.slash(dave, "solo", "projectl table new", variant="solo")

    async def advance(self) -> None:
        """A few legal moves, so the fuzz meets later phases of the game too."""
        for channel in ("games", "solo"):
            for _ in range(self.rng.randint(1, 3)):
                game = await self.game(channel)
                if game is None or game.current is None or game.current.user_id is None:
                    break
                await play(self.h, game, choose_action(game.state, self.rng), self.rng)

    def check_answer(self, ix: Any, before: dict[str, Any], must_refuse: bool, what: str) -> None:
        after = snapshot(self.db)
        replies = [r for r in ix.responses if not r.deferred]
        assert replies, f"{what}: no answer"
        if must_refuse:
            assert after == before, f"{what}: hostile input changed the database"
            self.counts["refused unchanged"] += 1
        if after == before:
            reply = replies[-1]
            assert reply.ephemeral and (reply.content or reply.files), f"{what}: {reply!r} is not ephemeral"
            assert reply.content != texts.UNEXPECTED, f"{what}: the bot hit a bug"

    def message_in(self, channel: str) -> Any:
        """A bot message in ``channel`` to hang a forged component on (any will do)."""
        found = [m for m in self.h.channel_messages(channel) if m.payload["author"].get("bot")]
        return found[-1] if found else None


@pytest.fixture
async def fuzz(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "fuzz.sqlite3", seed=4242) as h:
        fuzz = Fuzz(h, seed=20240601)
        await fuzz.ensure_tables()
        yield fuzz
        for game_id in range(1, 1 + len(snapshot(fuzz.db)["games"])):
            assert await bot_of(h).manager.verify(game_id), f"game {game_id} no longer replays"
        problems = [p for call in h.calls for p in check_call(call.method, call.path, call.json, call.files)]
        assert problems == []
        print(f"\nfuzz counts: {dict(sorted(fuzz.counts.items()))}")
    assert integrity(tmp_path / "fuzz.sqlite3") == "ok"


async def test_commands_with_hostile_options(fuzz: Fuzz) -> None:
    commands = leaves(fuzz.h.commands)
    assert len(commands) >= 15
    channels = [*TABLES, "random"]
    for case in range(COMMAND_CASES):
        if case % 20 == 0:
            await fuzz.ensure_tables()
            await fuzz.advance()
        leaf = fuzz.rng.choice(commands)
        user, channel = fuzz.rng.choice(fuzz.users), fuzz.rng.choice(channels)
        values = option_values(leaf, fuzz.rng, fuzz.users)
        before = snapshot(fuzz.db)
        try:
            ix = await fuzz.h.slash(user, channel, leaf.path, options=values.values)
        except SchemaError:
            fuzz.counts["blocked by Discord's client"] += 1
            continue
        fuzz.counts["commands"] += 1
        fuzz.counts[f"/{leaf.path}"] += 1
        fuzz.check_answer(ix, before, values.hostile, f"/{leaf.path} {values.values!r} by {user.name}")
    assert fuzz.counts["refused unchanged"] >= COMMAND_CASES // 10  # the generator reaches hostile cases


async def test_forged_buttons_and_menus(fuzz: Fuzz) -> None:
    for case in range(CLICK_CASES):
        if case % 25 == 0:
            await fuzz.ensure_tables()
            await fuzz.advance()
        channel = fuzz.rng.choice(list(TABLES))
        game, other = await fuzz.game(channel), await fuzz.game(fuzz.rng.choice(list(TABLES)))
        message = fuzz.message_in(channel)
        if game is None or other is None or message is None:
            continue
        clicker, someone = fuzz.rng.sample(fuzz.users, 2)
        custom_id, invalid = next(forged_ids(fuzz.rng, game=game.id, other=other.id, clicker=clicker.id,
                                             someone=someone.id, revision=game.revision))
        values = [fuzz.rng.choice(["A1 A2 B2", "Z9", "", "A1"])] if custom_id.startswith("pl:pick:") else None
        if custom_id.startswith("plp:") and fuzz.rng.random() < 0.6:  # a menu choice, hostile or not
            menu = [*TABLE_DECISIONS, "take white 1", "level1", "+2", "+999", "+²", "L3", "", "A1"]
            values = [fuzz.rng.choice(menu)]
        before = snapshot(fuzz.db)
        ix = await forge_click(fuzz.h, clicker, channel, message, custom_id, values)
        fuzz.counts["forged clicks"] += 1
        fuzz.check_answer(ix, before, invalid, f"click {custom_id!r} by {clicker.name}")


async def test_autocomplete_with_hostile_text(fuzz: Fuzz) -> None:
    targets = [(leaf, name) for leaf in leaves(fuzz.h.commands) for name in leaf.autocompleted]
    assert targets
    for case in range(AUTOCOMPLETE_CASES):
        if case % 30 == 0:
            await fuzz.advance()
        leaf, focused = fuzz.rng.choice(targets)
        values = option_values(leaf, fuzz.rng, fuzz.users, hostile_rate=0.5)
        values.values[focused] = option_values(leaf, fuzz.rng, fuzz.users).values.get(focused, "")
        user, channel = fuzz.rng.choice(fuzz.users), fuzz.rng.choice([*TABLES, "random"])
        before = snapshot(fuzz.db)
        choices = await fuzz.h.autocomplete(user, channel, leaf.path, focused=focused, options=values.values)
        assert len(choices) <= 25 and all(1 <= len(c.name) <= 100 for c in choices)
        assert snapshot(fuzz.db) == before
        fuzz.counts["autocompletes"] += 1


async def test_table_decisions_from_every_entry_point(fuzz: Fuzz) -> None:
    """The current player puts table-decision notation (skip, remove N) into every text option of
    every command, and onto a forged Confirm button that is otherwise right: each is refused
    ephemerally and nothing changes (issue 10's hole: `act text:remove 2` removed an opponent)."""
    typed = [(leaf, option["name"]) for leaf in leaves(fuzz.h.commands) for option in leaf.options
             if int(option["type"]) == STRING and not option.get("choices")
             and option["name"] not in FREE_TEXT_OPTIONS]
    assert any(leaf.path.endswith(" act") for leaf, _ in typed)
    for channel in ("games", "solo"):
        game = await fuzz.game(channel)
        mover = fuzz.h.user(game.current.user_id)
        for decision in TABLE_DECISIONS:
            for leaf, name in typed:
                values = {o["name"]: "1" for o in leaf.options if o.get("required")} | {name: decision}
                values = {k: v for k, v in values.items()
                          if int(next(o for o in leaf.options if o["name"] == k)["type"]) == STRING}
                before = snapshot(fuzz.db)
                try:
                    ix = await fuzz.h.slash(mover, channel, leaf.path, options=values)
                except SchemaError:
                    continue
                fuzz.check_answer(ix, before, True, f"/{leaf.path} {values!r} by the current player")
                fuzz.counts["table decisions refused"] += 1
            forged = f"pl:do:{game.id}:{mover.id}:{game.revision}:{decision.replace(' ', '.')}"
            before = snapshot(fuzz.db)
            ix = await forge_click(fuzz.h, mover, channel, fuzz.message_in(channel), forged)
            fuzz.check_answer(ix, before, True, f"click {forged!r}")
            expected = "table decision" if _parses(decision) else "not valid"  # remove 0 / 99 do not parse
            assert expected in ix.responses[-1].content


def _parses(text: str) -> bool:
    try:
        engine.parse_action(text)
    except engine.IllegalActionError:
        return False
    return True
