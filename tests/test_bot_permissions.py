"""Missing channel permissions (issue 10, section 3): the player is told privately which
permission the bot lacks, and nothing is committed that the table could not see."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_support import assert_refused, final_reply

from bench.harnessed import forge_click, open_table, running
from bench.tables import snapshot

LABELS = {"send_messages": "Send Messages", "attach_files": "Attach Files", "embed_links": "Embed Links"}


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running(tmp_path / "perms.sqlite3") as harness:
        yield harness


@pytest.mark.parametrize("permission", sorted(LABELS))
async def test_nothing_is_committed_where_the_table_cannot_see_it(h: Any, permission: str) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    game = await open_table(h, alice, [bob])
    mover = alice if game.current.user_id == alice.id else bob
    await h.slash(mover, "games", "projectl play level1")  # something Undo could take back
    game = await h.bot.manager.game(game.id)
    lobby = (await h.slash(alice, "general", "projectl table new")).original
    gid = lobby.buttons[0].custom_id.split(":")[-1]
    for channel in ("games", "general", "random"):
        h.deny_bot(channel, permission)
    db = Path(h.bot.settings.db_path)
    before = snapshot(db)
    label = LABELS[permission]
    attempts = [
        await h.slash(mover, "games", "projectl play level1"),
        await h.slash(mover, "games", "projectl play act", text="level1"),
        await h.slash(mover, "games", "projectl table cancel"),
        await forge_click(h, mover, "games", h.channel_messages("games")[-1],
                          f"pl:do:{game.id}:{mover.id}:{game.revision}:level1"),
        await h.click(bob, lobby, f"pl:lobby:join:{gid}"),
        await h.click(alice, lobby, f"pl:lobby:start:{gid}"),
        await h.slash(alice, "random", "projectl table new"),
        await h.slash(mover, "games", "projectl play undo"),  # the table is told of an undo
        await forge_click(h, mover, "games", h.channel_messages("games")[-1],
                          f"plp:{game.id}:{mover.id}:{game.revision}:undo"),  # the panel's Undo
        await forge_click(h, mover, "games", h.channel_messages("games")[-1],
                          f"plp:{game.id}:{mover.id}:{game.revision}:lvl"),
    ]
    for ix in attempts:
        assert_refused(ix, label, "nothing was changed")
    assert snapshot(db) == before
    status = final_reply(await h.slash(bob, "games", "projectl status"))  # looking still works
    assert status.ephemeral and status.files


async def test_the_refusal_names_every_missing_permission(h: Any) -> None:
    """In a text channel Send Messages counts (in a thread it would be Send Messages in
    Threads); the refusal names exactly what is missing."""
    alice = h.add_user("alice")
    h.deny_bot("games", "send_messages", "attach_files")
    reply = assert_refused(await h.slash(alice, "games", "projectl table new"))
    assert "**Send Messages** and **Attach Files**" in reply and "Threads" not in reply


async def test_the_refusal_names_the_permissions_in_the_readers_language(h: Any) -> None:
    alice = h.add_user("alice")
    h.deny_bot("games", "send_messages", "attach_files")
    reply = assert_refused(await h.slash(alice, "games", "projectl table new", locale="pt-BR"))
    assert "**Enviar mensagens** e **Anexar arquivos**" in reply and "Send" not in reply
