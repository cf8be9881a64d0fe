"""Discord limits: the synced command schema and every outgoing payload, checked before Discord.

The checker (bench/limits.py) is written from Discord's API reference, independently of the
harness's own validation. It runs here on the bot's real command sync, and — in the fuzz, race,
auth and full-game tests — on every captured call. It is tested itself on payloads Discord
rejects, so a green run means the limits were actually looked at.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bench.fuzz import leaves
from bench.harnessed import running
from bench.limits import check_call, check_commands, check_message
from bot.discord.commandtree import (
    MAX_TEXT,
    PLAY,
    in_locale,
    payload_locales,
    subgroup,
    text_size,
    translated_payload,
    tree_problems,
)


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "limits.sqlite3") as harness:
        yield harness


def synced(h: Any) -> list[dict[str, Any]]:
    puts = [c for c in h.calls if c.method == "PUT" and c.path.endswith("/commands")]
    assert puts, "the bot never synced its commands"
    return list(puts[-1].json)


async def test_synced_schema_is_within_discord_limits(h: Any) -> None:
    payload = synced(h)
    assert check_commands(payload) == []
    assert check_commands(h.commands) == []
    assert tree_problems(payload) == []
    groups = {c["name"]: len(c.get("options") or []) for c in payload}
    sizes = {c["name"]: {locale or "en": text_size(in_locale(c, locale))
                         for locale in [None, *sorted(payload_locales(c))]} for c in payload}
    assert all(size <= MAX_TEXT for per_locale in sizes.values() for size in per_locale.values())
    print(f"\nslash commands: {len(payload)} top-level; entries per command: {groups}; "
          f"{len(leaves(payload))} runnable commands; characters per language (of {MAX_TEXT}): {sizes}")
    assert all(n <= 25 for n in groups.values())


LAYOUT = {
    "projectl": {"status", "mat", "rules", "help", "settings", "log", "stats", "review", "play", "table"},
    "projectl play": {"take", "draw", "level1", "upgrade", "place", "recycle", "master-add",
                      "master-confirm", "master-clear", "done", "pass", "act", "undo", "ghost", "hint"},
    "projectl table": {"new", "cancel", "leave", "vote", "replace"},
}


async def test_command_tree_layout(h: Any) -> None:
    """Where every command sits (docs/bot.md): turn actions under play, the table's own business
    under table, looking and personal settings directly under /projectl — nothing lost."""
    commands = {command["name"]: command for command in synced(h)}
    # the admins' own command (cogs/server.py); describe/catchup (cogs/reading.py); ratings, replays
    # and recaps (cogs/ladder.py); plan-ahead turns (bot/discord/plans.py)
    assert set(commands) == {"projectl", "projectl-server", "projectl-describe", "projectl-catchup",
                             "projectl-games", "projectl-plan"}
    assert int(commands["projectl-server"]["default_member_permissions"]) == 1 << 5  # Manage Server
    root = commands["projectl"]
    found: dict[str, set[str]] = {}

    def walk(path: str, node: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        if subs:
            found[path] = {o["name"] for o in subs}
        for sub in subs:
            walk(f"{path} {sub['name']}", sub)

    walk(root["name"], root)
    assert found == LAYOUT


def _command(name: str) -> Any:
    """A harmless command of about 210 characters."""

    @app_commands.command(name=name, description="d" * 100)
    @app_commands.describe(text="t" * 100)
    async def command(interaction: Any, text: str) -> None:
        raise AssertionError("never run")

    return command


async def test_a_tree_over_discords_limits_is_never_synced(h: Any) -> None:
    """The check before every sync: one command too many characters and the bot refuses to sync
    (Discord would reject the whole sync, leaving yesterday's commands), naming the problem."""
    bot = h.bot
    play = subgroup(bot.tree, PLAY)
    puts = len([c for c in h.calls if c.method == "PUT"])
    headroom = MAX_TEXT - text_size(next(c for c in synced(h) if c["name"] == "projectl"))
    extra = [_command(f"extra{i}") for i in range(headroom // 200 + 1)]
    for command in extra:
        play.add_command(command)
    with pytest.raises(RuntimeError, match="4000"):
        await bot._sync()  # noqa: SLF001
    assert len([c for c in h.calls if c.method == "PUT"]) == puts
    for command in extra:
        play.remove_command(command.name)
    await bot._sync()  # noqa: SLF001
    assert len([c for c in h.calls if c.method == "PUT"]) == puts + 1


async def test_a_sync_translates_the_tree_once_and_sends_what_it_checked(h: Any) -> None:
    """A sync asks the translator what building the payload once asks (the check's payload is
    the one uploaded, not rebuilt by ``tree.sync()``, which doubled a start's CPU), and the
    upload carries the translations."""
    bot = h.bot
    translator = bot.tree.translator
    asked = [0]
    translate = translator.translate

    async def counting(string: Any, locale: Any, context: Any) -> Any:
        asked[0] += 1
        return await translate(string, locale, context)

    translator.translate = counting
    puts = len([c for c in h.calls if c.method == "PUT"])
    try:
        await translated_payload(bot.tree)
        once, asked[0] = asked[0], 0
        await bot._sync()  # noqa: SLF001
    finally:
        del translator.translate
    assert once > 0 and asked[0] == once
    assert len([c for c in h.calls if c.method == "PUT"]) == puts + 1
    assert synced(h)[0]["name_localizations"]["pt-BR"]


def _level(n: int) -> list[dict[str, Any]]:
    return [{"name": f"s{i}", "description": "d", "type": 1} for i in range(n)]


TREE_BREAKS = {
    "26 at the top": [{"name": "projectl", "description": "d", "type": 1, "options": _level(26)}],
    "26 in a group": [{"name": "projectl", "description": "d", "type": 1, "options": [
        {"name": "play", "description": "d", "type": 2, "options": _level(26)}]}],
    "group in a group": [{"name": "projectl", "description": "d", "type": 1, "options": [
        {"name": "play", "description": "d", "type": 2, "options": [
            {"name": "more", "description": "d", "type": 2, "options": _level(1)}]}]}],
    "26 choices": [{"name": "projectl", "description": "d", "type": 1, "options": [
        {"name": "o", "description": "d", "type": 3,
         "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}]}],
    "4001 characters": [{"name": "projectl", "description": "d", "type": 1, "options": [
        {"name": "play", "description": "d", "type": 2, "options": [
            {"name": f"s{i}", "description": "d" * 100, "type": 1} for i in range(25)]},
        {"name": "table", "description": "d", "type": 2, "options": [
            {"name": f"t{i}", "description": "d" * 100, "type": 1} for i in range(15)]}]}],
}


@pytest.mark.parametrize("name", sorted(TREE_BREAKS))
def test_pre_sync_check_finds_each_break(name: str) -> None:
    assert tree_problems([GOOD]) == []
    assert tree_problems(TREE_BREAKS[name]), name
    assert check_commands(TREE_BREAKS[name]), name  # the independent checker agrees


async def test_every_call_of_a_session_is_within_limits(h: Any) -> None:
    """Help, rules, a lobby, a Solo start, the turn panel: every call the bot made, checked."""
    alice = h.add_user("alice")
    await h.slash(alice, "games", "projectl help")
    for topic in ("overview", "place", "master", "solo"):
        await h.slash(alice, "games", "projectl rules", topic=topic)
    await h.slash(alice, "games", "projectl table new", players=4)
    await h.slash(alice, "general", "projectl table new", variant="solo")
    await h.slash(alice, "general", "projectl status")
    await walk_the_turn_panel(h, alice, "general")
    problems = [p for c in h.calls for p in check_call(c.method, c.path, c.json, c.files)]
    assert problems == []


async def walk_the_turn_panel(h: Any, user: Any, channel: str) -> None:
    """Every screen of the turn panel once: Play, take, place (puzzle, spots, preview), upgrade,
    Master (puzzle, piece, spots) and back."""
    from test_bot_panel import Player, turn_post

    me = Player(h, user)
    await me.play(turn_post(h, channel))
    await me.choose("take", me.component("take").options[0].value)
    await me.choose("place", me.component("place").options[0].value)
    await me.choose("at", me.component("at").options[0].value)  # one puzzle: no puzzle menu
    await me.tap("main")
    await me.choose("take", me.component("take").options[0].value)
    await me.choose("place", me.component("place").options[0].value)
    await me.choose("puz", me.component("puz").options[0].value)
    await me.tap("main")
    await me.choose("give", me.component("give").options[0].value)
    await me.tap("main")
    await me.tap("ms")
    await me.choose("mc", me.component("mc").options[0].value)
    await me.choose("mp", me.component("mp").options[0].value)
    await me.tap("ms")
    assert me.taps == 15


GOOD = {"name": "projectl", "description": "d", "type": 1, "options": [
    {"name": "take", "description": "d", "type": 1, "options": [
        {"name": "puzzle", "description": "d", "type": 3, "required": True},
        {"name": "deck", "description": "d", "type": 3, "required": False,
         "choices": [{"name": "white", "value": "white"}]}]}]}


def broken(change: Any) -> list[dict[str, Any]]:
    command = copy.deepcopy(GOOD)
    change(command)
    return [command]


def _sub(c: dict[str, Any]) -> dict[str, Any]:
    return c["options"][0]


BAD_SCHEMAS = {
    "26 subcommands": lambda c: c["options"].extend(
        {"name": f"s{i}", "description": "d", "type": 1} for i in range(25)),
    "upper-case name": lambda c: c.update(name="ProjectL"),
    "33-character name": lambda c: _sub(c).update(name="x" * 33),
    "space in a name": lambda c: _sub(c).update(name="take it"),
    "empty description": lambda c: _sub(c).update(description=""),
    "101-character description": lambda c: _sub(c).update(description="d" * 101),
    "required after optional": lambda c: _sub(c)["options"].reverse(),
    "26 choices": lambda c: _sub(c)["options"][1].update(
        choices=[{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]),
    "101-character choice name": lambda c: _sub(c)["options"][1]["choices"][0].update(name="n" * 101),
    "autocomplete with choices": lambda c: _sub(c)["options"][1].update(autocomplete=True),
    "subcommand in a subcommand": lambda c: _sub(c)["options"].append(
        {"name": "deeper", "description": "d", "type": 1}),
    "over 4000 characters": lambda c: c["options"].extend(
        {"name": f"s{i}", "description": "d" * 100, "type": 1,
         "options": [{"name": "o", "description": "d" * 100, "type": 3,
                      "choices": [{"name": "n" * 100, "value": "v" * 100} for _ in range(5)]}]}
        for i in range(4)),
}


@pytest.mark.parametrize("name", sorted(BAD_SCHEMAS))
def test_checker_rejects_what_discord_rejects(name: str) -> None:
    assert check_commands([GOOD]) == []
    assert check_commands(broken(BAD_SCHEMAS[name])), name


def test_checker_rejects_oversized_messages() -> None:
    button = {"type": 2, "style": 1, "label": "ok", "custom_id": "pl:x"}
    assert check_message({"content": "x" * 2000, "components": [{"type": 1, "components": [button]}]}) == []
    assert check_message({"content": "x" * 2001})
    assert check_message({"embeds": [{"title": "t"}] * 11})
    assert check_message({"embeds": [{"description": "d" * 4097}]})
    assert check_message({"components": [{"type": 1, "components": [button]}] * 6})
    assert check_message({"components": [{"type": 1, "components": [button] * 6}]})
    assert check_message({"components": [{"type": 1, "components": [dict(button, custom_id="c" * 101)]}]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert check_message({"components": [{"type": 1, "components": [select]}]})
    assert check_message({"choices": [{"name": str(i), "value": str(i)} for i in range(26)]})
    huge = [("a.png", b"0" * (11 << 20))]
    assert check_call("POST", "/channels/{channel_id}/messages", {"content": "x"}, huge)


def _walk(node: dict[str, Any]) -> Any:
    """Every command, group and option of a synced payload, then its choices."""
    yield node
    for option in node.get("options") or []:
        yield from _walk(option)


async def test_synced_commands_carry_every_language(h: Any) -> None:
    """Every name, description and choice goes out with its translation in each catalogue
    (bot/core/wording/locales/*.json, pt-BR among them) — nothing left in English, nothing in a catalogue
    unused;
    a language's own name is the one choice shown as is everywhere."""
    from bot.core.wording.locales import command_strings, language_names, locales

    payload = synced(h)
    assert "pt-BR" in locales()
    for locale in locales():
        names = command_strings(locale, "names")
        descriptions = command_strings(locale, "descriptions")
        choices = command_strings(locale, "choices")
        used: dict[str, set[str]] = {"names": set(), "descriptions": set(), "choices": set()}
        for command in payload:
            for node in _walk(command):
                assert node["name_localizations"][locale] == names[node["name"]], node["name"]
                assert node["description_localizations"][locale] == descriptions[node["description"]]
                used["names"].add(node["name"])
                used["descriptions"].add(node["description"])
                for choice in node.get("choices") or []:
                    if choice["name"] in language_names():  # a language's own name, as is
                        assert locale not in (choice.get("name_localizations") or {})
                        continue
                    assert choice["name_localizations"][locale] == choices[choice["name"]]
                    used["choices"].add(choice["name"])
        for section, strings in used.items():
            assert set(command_strings(locale, section)) == strings, f"unused {locale} {section}"
    root = next(c for c in payload if c["name"] == "projectl")
    play = next(o for o in root["options"] if o["name"] == "play")
    assert {o["name_localizations"]["pt-BR"] for o in play["options"]} >= {
        "pegar", "nivel1", "aprimorar", "colocar", "reciclar"}


LOCALE_BREAKS = {
    "upper case": lambda c: _sub(c).update(name_localizations={"pt-BR": "Pegar"}),
    "a space": lambda c: _sub(c).update(name_localizations={"pt-BR": "pegar um"}),
    "33 characters": lambda c: _sub(c).update(name_localizations={"pt-BR": "p" * 33}),
    "101-character description": lambda c: _sub(c).update(
        description_localizations={"pt-BR": "d" * 101}),
    "101-character choice": lambda c: _sub(c)["options"][1]["choices"][0].update(
        name_localizations={"pt-BR": "n" * 101}),
    "4001 characters in one language": lambda c: c["options"].extend(
        {"name": f"s{i}", "description": "d", "type": 1,
         "description_localizations": {"pt-BR": "d" * 100}} for i in range(23)) or c.update(
        options=c["options"] + [{"name": "t", "description": "d", "type": 2, "options": [
            {"name": f"u{i}", "description": "d", "type": 1,
             "description_localizations": {"pt-BR": "d" * 100}} for i in range(18)]}]),
}


@pytest.mark.parametrize("name", sorted(LOCALE_BREAKS))
def test_every_locale_is_held_to_discords_limits(name: str) -> None:
    """A translation Discord would refuse stops the sync like an English one: both checks see it."""
    command = broken(LOCALE_BREAKS[name])
    assert tree_problems([GOOD]) == [] and check_commands([GOOD]) == []
    found = tree_problems(command)
    assert found and all("[pt-BR]" in p for p in found), (name, found)
    assert check_commands(command), name
