"""An independent client's season at the bot: what players and admins get from a finished game
with hidden scores (the replay's and the results' alt text), a competitive table without hints
in Portuguese, and names built to break a line (bidi controls) — asserting on what Discord
receives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from harness import DiscordHarness
from test_bot_support import final_reply, open_table, running_bot

from bot.core.wording.locales import PlayerName, escape_name
from engine import score_lines
from engine.policies import policy_by_name

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def descriptions(message: Any) -> list[str | None]:
    """The alt text of each attachment, as the bot sent it to Discord."""
    return [a.get("description") for a in message.payload.get("attachments") or []]


async def finished_hidden_game(h: DiscordHarness) -> Any:
    """alice and bob play a ``known_scores: False`` table to its end (greedy moves, through the
    manager: only what the commands then show matters)."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], players=2, known_scores=False)
    manager = h.bot.manager  # type: ignore[attr-defined]
    game = await manager.game_in_channel(h.channel("games").id)
    policy = policy_by_name("greedy", 1)
    while (found := await manager.game(game.id)) is not None and found.status != "finished":
        await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))
    await h.settle()
    return await manager.game(game.id)


async def test_a_finished_hidden_scores_game_says_every_score_in_its_alt_texts(tmp_path: Path) -> None:
    """Once the game is over nothing is hidden: a replay's image is drawn with the score piles face
    up, and its alt text says the same points (it said "points hidden until the end" at every
    step before the last); the results image's alt text gives each player's final score, the one
    the results show, not the points of the pile before the penalties."""
    async with running_bot(tmp_path / "season.sqlite3", seed=3) as h:
        game = await finished_hidden_game(h)
        bob = h.user("bob")
        finals = {game.names[line.seat]: line.total for line in score_lines(game.state)}
        assert any(line.total != line.completed_points for line in score_lines(game.state))  # penalties

        log = final_reply(await h.slash(bob, "games", "projectl log", game=game.id))
        [results] = descriptions(log)
        assert results is not None
        for name, total in finals.items():
            assert f"{name}: {total} points" in results, results

        reply = final_reply(await h.slash(bob, "games", "projectl-games replay", game=game.id))
        jump = next(s for s in reply.selects if s.custom_id.endswith(":jump"))
        step = [o["value"] if isinstance(o, dict) else o.value for o in jump.options][-2]  # before the end
        shown = final_reply(await h.select(bob, reply.message, jump.custom_id, [step]))
        [about] = descriptions(shown)
        assert about is not None and "hidden" not in about, about
        assert all(re.search(rf"\b{name}: \d+ points?,", about) for name in finals), about


async def test_a_portuguese_player_at_a_table_without_hints_reads_no_english(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "hints.sqlite3") as h:
        bia = h.add_user("bia")
        await h.slash(bia, "games", "projectl table new", variant="solo", hints=False)
        reply = final_reply(await h.slash(bia, "games", "projectl play hint", locale="pt-BR"))
        assert reply.ephemeral and not reply.files
        assert reply.content.startswith("As dicas estão desligadas nesta mesa")
        assert "hints" not in reply.content and "False" not in reply.content, reply.content


def test_a_name_cannot_turn_the_rest_of_a_line_around() -> None:
    """An explicit bidi control in a display name (U+202E, right-to-left override, and its kin)
    reversed everything after the name on its line in Discord: "It's Ann<U+202E>'s turn (3 actions)"
    read backwards. Quoted names carry none of them; the name as written stays for images."""
    raw = "Ann\u202e \u2067Bob\u202d**x**\u2069"
    name = PlayerName(raw)
    assert not set(BIDI_CONTROLS) & set(name), repr(name)
    assert name == r"Ann Bob\*\*x\*\*" and name.raw == raw
    assert escape_name("عبد الله") == "عبد الله" and escape_name("שרה\u200f") == "שרה\u200f"  # marks stay


async def test_a_name_with_a_bidi_override_leaves_the_lobby_and_turn_posts_unturned(tmp_path: Path) -> None:
    async with running_bot(tmp_path / "bidi.sqlite3") as h:
        host, guest = h.add_user("host\u202e"), h.add_user("\u2067guest")
        lobby = await open_table(h, host, [guest], players=2)
        posts = [m.content or "" for m in h.channel_messages("games")]
        posts += [v.get("content") or "" for v in h.message(lobby.id).history]
        assert posts and all(not set(BIDI_CONTROLS) & set(p) for p in posts), posts
        assert any("host" in p and "guest" in p for p in posts)
