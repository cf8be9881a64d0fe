"""A table in a private thread stays read only by its players and from inside the thread
(bot/core/records/access.py) on the web board too: nobody gets a link to watch it by tampering
with what their client sends — a Board button's id sent from another channel, or the Activity's
channel id."""

from __future__ import annotations

import re
from pathlib import Path

from harness import DiscordHarness
from test_bot_private_tables import NOT_READABLE, forged, table_in
from test_bot_support import assert_refused, bot_of, final_reply
from test_web_discord import LINK, board_bot


async def test_a_forged_board_button_gives_no_link_to_a_private_table(tmp_path: Path) -> None:
    """Carol cannot see the private thread where Alice and Bob play: a Board button carrying its
    game's id, clicked from #general, must not hand her a link that watches it."""
    async with board_bot(tmp_path / "b.sqlite3") as h:
        alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
        secret = h.add_thread("games", "secret table", owner=alice, private=True)
        hidden = await table_in(h, secret, "alice", "bob")
        click = await forged(h, carol, h.channel("general"), f"pl:board:{hidden.id}")
        reply = final_reply(click)
        assert not LINK.search(reply.content or ""), "a watcher's link to a private table"
        assert_refused(click, NOT_READABLE)
        # its players, from anywhere, still get their own seat's link
        for user, seat in ((alice, 0), (bob, 1)):
            found = LINK.search(final_reply(await forged(h, user, h.channel("general"),
                                                         f"pl:board:{hidden.id}")).content or "")
            assert found is not None
            front = bot_of(h).board_front
            assert front is not None
            assert front.signer.verify(found[2], now=front.now()).seat == seat
        # anyone inside the thread: Discord showed it to them
        assert LINK.search(final_reply(await forged(h, carol, secret, f"pl:board:{hidden.id}")).content or "")
