"""Forged options (bot/discord/options.py): a slash-command payload whose option is not of the
kind its command declares — ``players: "four"``, text for a boolean, a number for text, a member
the payload does not resolve — is refused with one sentence, privately,
changing nothing and logging no error; a value of the right kind outside the range is the
command's to refuse, in its own words. Raw payloads, built from the synced
schema for EVERY option of EVERY command (Discord's client could never send them)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from harness import DiscordHarness, FakeMember, InteractionRecord
from test_bot_support import assert_refused, running_bot

from bench.tables import snapshot
from bot.core.wording import texts

REFUSED = texts.OPTION_NOT_ACCEPTED.split("`")[0]
WRONG = {3: [4, True, None], 4: ["four", 2.5, True, "4", 2 ** 60], 5: ["yes", 1, None],
         6: ["alice", "123"], 7: ["general", "123"], 8: ["everyone", "123"], 9: ["x", "123"],
         10: ["1.5x", True, float("inf"), "2"], 11: ["file.png", "123"]}
"""Values of the wrong kind for each option type (snowflake kinds: not a snowflake, or one the
payload does not resolve)."""


Node = Mapping[str, Any]


def leaves(commands: list[Node]) -> Iterator[tuple[Node, list[Node], list[Node]]]:
    """(top-level command, subcommand chain, its options) for every slash command."""
    def walk(root: Node, chain: list[Node], node: Node) -> Iterator[Any]:
        options = node.get("options") or []
        subs = [o for o in options if o.get("type") in (1, 2)]
        if not subs:
            yield root, chain, options
        for sub in subs:
            yield from walk(root, [*chain, sub], sub)

    for command in commands:
        if command.get("type", 1) == 1:
            yield from walk(command, [], command)


def raw_data(root: Node, chain: list[Node], options: list[dict[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = options
    for sub in reversed(chain):
        entry: dict[str, Any] = {"type": sub["type"], "name": sub["name"]}
        if out:
            entry["options"] = out
        out = [entry]
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": 1}
    if out:
        data["options"] = out
    return data


async def send(h: DiscordHarness, user: FakeMember, data: dict[str, Any],
               itype: int = 2) -> InteractionRecord:
    record = h._new_interaction(itype, user, h.channel("games"), data)  # noqa: SLF001
    return await h._send(record, True)  # type: ignore[no-any-return]  # noqa: SLF001


async def test_every_option_of_every_command_refuses_a_value_of_the_wrong_kind(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as h:
        alice = h.add_user("alice")
        await h.slash(alice, "games", "projectl table new", players=2)  # a lobby: there is something to break
        db = Path(h.bot.settings.db_path)  # type: ignore[attr-defined]
        before = snapshot(db)
        cases = 0
        for root, chain, options in leaves(h.commands):
            for option in options:
                for value in WRONG[option["type"]]:
                    forged = {"type": option["type"], "name": option["name"], "value": value}
                    text = assert_refused(await send(h, alice, raw_data(root, chain, [forged])), REFUSED)
                    assert f"`{option['name']}`" in text, (root["name"], chain, forged)
                    cases += 1
        assert cases > 150
        assert snapshot(db) == before


async def test_players_four_is_refused_with_a_sentence(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as h:
        alice = h.add_user("alice")
        valid = h.schema.build("projectl table new", {"players": 3, "reserve": 15}, user=alice,
                               channel=h.channel("games")).data
        for name, value in (("players", "four"), ("reserve", "10"), ("players", "4"), ("players", 4.5)):
            data = raw_data({"id": valid["id"], "name": valid["name"]}, [{"type": 2, "name": "table"},
                            {"type": 1, "name": "new"}], [{"type": 4, "name": name, "value": value}])
            text = assert_refused(await send(h, alice, data), REFUSED)
            assert f"`{name}`" in text
        data = raw_data({"id": valid["id"], "name": valid["name"]}, [{"type": 2, "name": "table"},
                        {"type": 1, "name": "new"}], [{"type": 4, "name": "players", "value": 9}])
        assert REFUSED not in assert_refused(await send(h, alice, data))  # the right kind: the rules refuse
        # a string sent as the declared type of another option, and an option the command lacks
        data = raw_data({"id": valid["id"], "name": valid["name"]}, [{"type": 2, "name": "table"},
                        {"type": 1, "name": "new"}], [{"type": 3, "name": "players", "value": "4"}])
        assert_refused(await send(h, alice, data), REFUSED)
        data = raw_data({"id": valid["id"], "name": valid["name"]}, [{"type": 2, "name": "table"},
                        {"type": 1, "name": "new"}], [{"type": 4, "name": "seats", "value": 4}])
        assert_refused(await send(h, alice, data), "command list has just changed")
        assert await h.bot.manager.game_in_channel(h.channel("games").id) is None  # type: ignore[attr-defined]
        ok = await h.slash(alice, "games", "projectl table new", players=3)  # the real client still works
        assert ok.original is not None and ok.original.buttons


async def test_autocomplete_with_a_forged_option_suggests_nothing(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite3") as h:
        alice = h.add_user("alice")
        valid = h.schema.build("projectl-games replay", {}, user=alice, channel=h.channel("games"),
                               focused="game").data
        for value in (7, None, ["1"]):  # the typed text is always text
            [replay] = valid["options"]
            data = raw_data(valid, [replay], [{"type": 4, "name": "game", "value": value, "focused": True}])
            ix = await send(h, alice, data, itype=4)
            assert ix.response is not None and ix.response.callback_type == 8 and ix.response.choices == []
