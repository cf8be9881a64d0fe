"""Looking at a game (status, any player's mat, rules, help) and what autocomplete offers."""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_support import assert_refused, bot_of, final_reply, is_png, open_table, replies, running_bot

from bot.core.wording import texts
from bot.core.wording.locales import localise, notation_in
from engine.actions import PORTUGUESE, TABLE_ACTIONS, Action
from engine.expansions.base import registered
from engine.state import Options
from engine.variants import VARIANTS


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "info.sqlite3") as harness:
        yield harness


async def help_text(h: DiscordHarness, locale: str = "en-US") -> str:
    """``/projectl help`` as the asker reads it: every private message of the answer, in order."""
    asker = h.add_user(f"helped{len(h.users)}")
    answers = replies(await h.slash(asker, "games", "projectl help", locale=locale))
    assert answers and all(answer.ephemeral and len(answer.content or "") <= 2000 for answer in answers)
    return "\n".join(answer.content or "" for answer in answers)


async def test_help_and_rules_are_ephemeral(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    shown = await help_text(h)
    assert "/projectl table new" in shown and "A1 top left" in shown
    for topic in texts.RULES:
        reply = final_reply(await h.slash(alice, "games", "projectl rules", topic=topic))
        assert reply.ephemeral and reply.content == texts.RULES[topic]
    assert all(len(t) < 2000 for t in texts.RULES.values())


def tree_paths(h: DiscordHarness, locale: str | None) -> set[str]:
    """Every command a player can type, ``/projectl play take``, as Discord shows it in ``locale``
    (None: English), read from the synced command list."""
    puts = [c for c in h.calls if c.method == "PUT" and c.path.endswith("/commands")]
    found: set[str] = set()

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        name = (node.get("name_localizations") or {}).get(locale, node["name"]) if locale else node["name"]
        inner = [o for o in node.get("options") or [] if o.get("type") in (1, 2)]
        for option in inner:
            walk(option, (*path, name))
        if not inner:
            found.add("/" + " ".join((*path, name)))

    for command in puts[-1].json:
        if command.get("type", 1) == 1:
            walk(command, ())
    return found


@pytest.mark.parametrize("locale", ["en-US", "pt-BR"])
async def test_the_help_lists_exactly_the_command_tree(h: DiscordHarness, locale: str) -> None:
    """Issue 46, item 12: the help is generated from the command tree, so every command is in it
    (``/projectl-describe``, ``/projectl-catchup``, ``/projectl-games``, ``master-clear`` were
    missing) and nothing that is only text for ``act`` (``choose``, ``ambassador``, ``insert``,
    ``end turn``) is listed as a command; in the reader's language, names included."""
    shown = await help_text(h, locale)
    commands = tree_paths(h, None if locale == "en-US" else locale)
    listed: set[str] = set()
    group = ""
    for line in shown.splitlines():
        heading = re.fullmatch(r"\*\*`(/[^`]+)`\*\* — .*", line)
        item = re.fullmatch(r"• `([^`]+)` — .*", line)
        if heading:
            group = heading[1]
        elif item:
            listed.add(item[1] if item[1].startswith("/") else f"{group} {item[1]}")
    assert listed == commands
    act_words = {"choose", "ambassador", "insert", "end turn"}
    act_words = act_words if locale == "en-US" else {notation_in(word, locale) for word in act_words}
    assert not {path.rsplit(" ", 1)[-1] for path in listed} & act_words
    act_line = next(line for line in shown.splitlines() if all(f"`{w}" in line for w in act_words))
    assert str(localise(texts.HELP_ACT, locale)) == act_line


async def test_status_and_mats(h: DiscordHarness) -> None:
    alice, bob, eve = h.add_user("alice"), h.add_user("bob"), h.add_user("eve")
    ix = await h.slash(alice, "games", "projectl table new", players=3)
    status = final_reply(await h.slash(eve, "games", "projectl status"))
    assert status.ephemeral and "Seats: 1/3" in status.content  # the lobby, while it is one
    assert ix.original is not None
    game_id = ix.original.buttons[0].custom_id.rsplit(":", 1)[1]
    await h.click(bob, ix.original, f"pl:lobby:join:{game_id}")
    await h.click(alice, ix.original, f"pl:lobby:ai:{game_id}")
    await h.click(alice, ix.original, f"pl:lobby:start:{game_id}")
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None

    status = final_reply(await h.slash(eve, "games", "projectl status"))
    assert status.ephemeral and status.filenames == ["table.png"] and is_png(status.files[0][1])
    assert f"{game.current.name} to play" in status.content

    mine = final_reply(await h.slash(bob, "games", "projectl mat"))
    assert mine.ephemeral and mine.content == "bob's mat" and is_png(mine.files[0][1])
    theirs = final_reply(await h.slash(eve, "games", "projectl mat", player=alice))
    assert theirs.ephemeral and theirs.content == "alice's mat"
    ai = final_reply(await h.slash(eve, "games", "projectl mat", seat=3))
    assert ai.content == "Easy AI 1's mat"
    assert_refused(await h.slash(eve, "games", "projectl mat"), "not playing")
    assert_refused(await h.slash(alice, "games", "projectl mat", player=eve), "eve is not playing")
    assert_refused(await h.slash(alice, "games", "projectl mat", seat=4), "no seat 4")


async def test_mat_seat_accepts_seats_five_and_six_and_ai_seats(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    await open_table(h, alice, [], ai=5, players=6)
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and len(game.seats) == 6
    mat = next(c for c in bot_of(h).tree.get_command("projectl").commands if c.name == "mat")  # type: ignore[union-attr]
    assert mat._params["seat"].max_value == 6  # the synced schema lets a client pick seats 5-6
    for seat in (5, 6):
        shown = final_reply(await h.slash(alice, "games", "projectl mat", seat=seat))
        assert shown.ephemeral and is_png(shown.files[0][1])
        assert shown.content == f"{game.seats[seat - 1].name}'s mat" and game.seats[seat - 1].user_id is None


async def test_autocomplete_offers_what_is_legal(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2)
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None and game.current is not None
    current = alice if game.current.user_id == alice.id else bob

    offers = await h.autocomplete(current, "games", "projectl play take", focused="puzzle", puzzle="")
    assert [c.value for c in offers] == [f"{colour} {slot}" for colour in ("white", "black")
                                         for slot in range(1, 5)]
    card = game.state.table.white_row[2]  # type: ignore[union-attr]
    assert offers[2].name.startswith(f"White 3: {card} · ")
    assert [c.value for c in await h.autocomplete(current, "games", "projectl play take", focused="puzzle",
                                                  puzzle=card)] == ["white 3"]

    pieces = await h.autocomplete(current, "games", "projectl play place", focused="piece", piece="")
    assert [c.value for c in pieces] == ["1", "2"]  # the starting supply
    assert await h.autocomplete(current, "games", "projectl play place", focused="puzzle", piece="1",
                                puzzle="") == []  # no puzzles yet
    await h.slash(current, "games", "projectl play take", puzzle="white 3")
    puzzles = await h.autocomplete(current, "games", "projectl play place", focused="puzzle", piece="2",
                                   puzzle="")
    assert [c.value for c in puzzles] == [card] and "0/" in puzzles[0].name
    cells = await h.autocomplete(current, "games", "projectl play place", focused="cells", piece="2",
                                 puzzle=card, cells="")
    recess = game.state.cards[card].recess
    assert cells and all(len(c.value.split()) == 2 for c in cells)
    from engine.pieces import parse_cells

    assert all(parse_cells(c.value) & ~recess == 0 for c in cells)
    upgrades = await h.autocomplete(current, "games", "projectl play upgrade", focused="take", give="1",
                                    take="")
    assert [c.value for c in upgrades] == ["2"]  # one level up only
    actions = await h.autocomplete(current, "games", "projectl play act", focused="text", text="level")
    assert [c.value for c in actions] == ["level1"]
    other = bob if current is alice else alice
    assert await h.autocomplete(other, "games", "projectl play act", focused="text", text="") == []


# -- issue 31, item 3: every mode and action the engine plays has its help line and rules topic -----


def engine_modes() -> set[str]:
    """Every mode the engine accepts, from the engine itself: its variants (the base game's topic
    is the overview) and each on/off table option of ``engine.Options`` — which the registered
    expansions' options are all among."""
    flags = {f.name for f in dataclasses.fields(Options) if isinstance(f.default, bool)}
    assert {e.option for e in registered()} <= flags
    return (set(VARIANTS) - {"base"}) | flags


def engine_action_kinds() -> set[str]:
    """Every kind of player action in ``engine.actions.Action`` (the table's own decisions aside)."""
    table = {kind.kind for kind in TABLE_ACTIONS}
    return {kind.kind for kind in typing.get_args(Action)} - table


def _words(kind: str, locale: str) -> set[str]:
    """How the action is typed in ``locale``: its notation words (and the command names the
    Portuguese accept for it, ``nivel1`` beside ``nível1``)."""
    if locale == "en-US":
        return {kind}
    return {notation_in(kind, locale)} | {pt for pt, en in PORTUGUESE.items() if en == kind}


def _in_code(word: str, text: str) -> bool:
    spans = re.findall(r"`([^`]*)`", text)
    return any(re.search(rf"(?<![\w-]){re.escape(word)}(?![\w])", span) for span in spans)


def uncovered(locale: str, help_text: str, rules: dict[str, str]) -> set[str]:
    """The modes and actions that ``help_text`` does not name, or that have no rules topic, in
    ``locale``."""
    missing = set()
    for mode in engine_modes():
        name = str(localise(texts.RULES_TOPICS.get(mode, ""), locale))
        if mode not in rules or not name or name.lower() not in help_text.lower():
            missing.add(mode)
    for kind in engine_action_kinds():
        words = _words(kind, locale)
        if not any(_in_code(w, help_text) for w in words):
            missing.add(kind)
        if not any(_in_code(w, text) for w in words for text in rules.values()):
            missing.add(f"rules:{kind}")
    return missing


@pytest.mark.parametrize("locale", ["en-US", "pt-BR"])
async def test_the_help_and_the_rules_cover_every_mode_and_action_the_engine_plays(
        h: DiscordHarness, locale: str) -> None:
    """Issue 31, item 3: the help names every mode (Solo, Line Clear, Ghost Piece, Finesse, Endless
    White, hidden scores, the packs …) and every action (Ghost, Insert, Ambassador …), and each has
    a rules topic, in both languages — the list comes from the engine, so a new variant, option or
    action without its words fails here."""
    shown = await help_text(h, locale)
    rules = {key: str(localise(text, locale)) for key, text in texts.RULES.items()}
    if locale != "en-US":
        assert all(rules[key] != texts.RULES[key] for key in rules), "a topic left in English"
        assert "**`/projectl jogar`**" in shown and "• `dica` — " in shown and "• `revisao` — " in shown
    assert all(len(text) <= 2000 for text in rules.values())
    assert uncovered(locale, shown, rules) == set()
    # and the check does catch a gap: a mode's name gone from the help, an action's topic gone
    ghost = str(localise(texts.RULES_TOPICS["ghost"], locale))
    assert "ghost" in uncovered(locale, re.sub(re.escape(ghost), "", shown, flags=re.I), rules)
    def without(topic: str) -> dict[str, str]:
        return {k: v for k, v in rules.items() if k != topic}

    assert "endless_white" in uncovered(locale, shown, without("endless_white"))
    assert "rules:insert" in uncovered(locale, shown, without("finesse"))


async def test_rules_topics_are_offered_in_the_readers_language_and_each_answers(
        h: DiscordHarness) -> None:
    """`/projectl rules topic:` is an autocomplete (eighteen topics' names would not fit the
    command tree's budget): the names in the asker's language, the key as the value; every topic
    answers in that language; an unknown topic is refused privately, naming the topics."""
    bia = h.add_user("bia")
    for locale in ("en-US", "pt-BR"):
        offered = await h.autocomplete(bia, "games", "projectl rules", focused="topic", topic="",
                                       locale=locale)
        assert {c.value for c in offered} == set(texts.RULES)
        assert {c.name for c in offered} == {str(localise(n, locale)) for n in texts.RULES_TOPICS.values()}
        for topic in ("lineclear", "ghost", "known_scores", "endless_white", "finesse_ambassador"):
            reply = final_reply(await h.slash(bia, "games", "projectl rules", topic=topic, locale=locale))
            assert reply.ephemeral and reply.content == localise(texts.RULES[topic], locale)
    found = await h.autocomplete(bia, "games", "projectl rules", focused="topic", topic="fantas",
                                 locale="pt-BR")
    assert [c.value for c in found] == ["ghost"]
    refused = await h.slash(bia, "games", "projectl rules", topic="nonsense")
    assert_refused(refused, "no rules topic", "`ghost`")
