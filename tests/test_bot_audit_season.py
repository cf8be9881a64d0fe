"""An independent client's season at the bot: what players and admins get from a finished game
with hidden scores (the replay's and the results' alt text), a competitive table without hints
in Portuguese, and names built to break a line (bidi controls) — asserting on what Discord
receives."""

from __future__ import annotations

from pathlib import Path

from test_bot_support import final_reply, open_table, running_bot

from bot.core.wording.locales import PlayerName, escape_name

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


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
