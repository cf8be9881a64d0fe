"""Names players chose never ping anyone and never turn into markdown (issue 24, item 1).

A display name is text a player types: ``<@someone>``, ``@everyone``, ``<@&role>``, ``**bold**``.
The bot quotes names in the lobby, the start notice, every turn post and many replies. Every
payload it sends must say exactly whom it may ping (``allowed_mentions`` with ``parse`` empty and
only the users it means), and every quoted name is escaped, so it neither pings nor renders.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_support import FakeRenderer, bot_of, open_table, running_bot, tiny_png

from bot.core.rendering.render import _shown
from bot.core.wording.locales import PlayerName, escape_name, localise, unescaped
from bot.discord.mentions import NOBODY, pinging
from engine.policies import policy_by_name

ZWSP = "\u200b"


def sent_messages(h: DiscordHarness) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every message body the bot sent (posts, edits, interaction answers, followups, DMs)."""
    for call in h.calls:
        body = call.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if "type" in body and isinstance(body.get("data"), dict) else body
        if isinstance(data, dict) and ("content" in data or "embeds" in data):
            yield call, data


def shown_texts(data: dict[str, Any]) -> list[str]:
    """The content and every embed text of a message body."""
    found = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        found += [embed.get("title") or "", embed.get("description") or ""]
        found += [f.get(key) or "" for f in embed.get("fields") or [] for key in ("name", "value")]
        found.append((embed.get("footer") or {}).get("text") or "")
    return found


def test_a_name_is_quoted_escaped_and_drawn_as_written() -> None:
    name = PlayerName("<@123456789012345678> **bold** `tick` @everyone")
    assert "<@123456789012345678>" not in name and "@everyone" not in name and "**" not in name
    assert name == "<@" + ZWSP + r"123456789012345678> \*\*bold\*\* \`tick\` @" + ZWSP + "everyone"
    assert name.raw == "<@123456789012345678> **bold** `tick` @everyone"
    assert PlayerName(name) == name  # never escaped twice
    assert f"[{name}]" == f"[{escape_name(name.raw)}]" and ", ".join([name]) == name
    assert unescaped(name) == name.raw and unescaped("Ann") == "Ann"
    assert escape_name("> quote") == r"\> quote" and escape_name("- list") == r"\- list"
    assert escape_name("Jean-Luc") == "Jean-Luc"  # only a line's start makes a list


def test_the_mentions_helper_names_exactly_its_users() -> None:
    assert NOBODY.to_dict() == {"parse": [], "users": []}
    assert pinging([5, 7, 5]).to_dict() == {"parse": [], "users": [5, 7]}


async def play_turns(h: DiscordHarness, turns: int) -> None:
    """The current players make greedy moves through ``/projectl play act`` for ``turns`` turns."""
    policy = policy_by_name("greedy", 3)
    manager = bot_of(h).manager
    channel = h.channel("games")
    for _ in range(turns * 3):
        game = await manager.game_in_channel(channel.id)
        assert game is not None and game.state is not None and game.current is not None
        user = h.user(game.current.user_id)
        await h.slash(user, "games", "projectl play act", text=str(policy.choose(game.state)))


@pytest.mark.asyncio
async def test_a_display_name_that_is_a_mention_pings_nobody(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "db.sqlite") as h:
        victim = h.add_user("victim")  # never plays: a name that pinged them would be the bug
        role = h.add_role("everyone-who-cares")
        hostile = [f"<@{victim.id}>", "@everyone @here", "**bold** `tick`", f"<@&{role.id}>"]
        host, *others = [h.add_user(name) for name in hostile]
        players = {host.id, *(u.id for u in others)}
        lobby = await open_table(h, host, others)
        await play_turns(h, 4)
        await h.slash(others[0], "games", "projectl status")
        await h.slash(host, "games", "projectl table cancel")
        assert len(h.message(lobby.id).history) >= 4  # the lobby post was edited at each join and the start

        checked = pinged = 0
        for call, data in sent_messages(h):
            allowed = data.get("allowed_mentions")
            assert allowed is not None, f"{call} says nothing of whom it pings"
            assert allowed.get("parse") == [], f"{call} lets Discord parse mentions: {allowed}"
            users = {int(u) for u in allowed.get("users", [])}
            assert users <= players and victim.id not in users, f"{call} may ping {users}"
            pinged += bool(users)
            shown = "\n".join(shown_texts(data))
            for raw in (*hostile, "@everyone", "@here", "**bold**", "`tick`"):
                assert raw not in shown, f"{call} quotes {raw!r} as it is: {shown!r}"
            assert all(f"<@{user_id}>" in shown for user_id in users)  # a ping it means, it shows
            checked += 1
        assert checked > 20 and pinged > 0  # the turn posts ping the next player, exactly them
        names_shown = "\n".join(m.content for m in h.channel_messages("games"))
        assert "\\*\\*bold\\*\\*" in names_shown and "@" + ZWSP + "everyone" in names_shown


@pytest.mark.asyncio
async def test_images_draw_the_name_as_the_player_wrote_it(tmp_path: Path) -> None:
    drawn: list[list[str]] = []

    class Recording(FakeRenderer):
        """Keeps the names each table render was handed, as the renderer draws them."""

        async def table(self, state: Any, names: Any, previous: Any = None, *, locale: Any = None) -> bytes:
            drawn.append(_shown(names, locale))
            return tiny_png()

    async with running_bot(tmp_path / "db.sqlite", renderer=Recording()) as h:
        host, other = h.add_user("**Ann**"), h.add_user("<@&1>")
        await open_table(h, host, [other])
    assert drawn and drawn[0] == ["**Ann**", "<@&1>"]
    assert localise(PlayerName("**Ann**"), "pt-BR") == r"\*\*Ann\*\*"
