"""/projectl-games export: a finished game's record replays exactly (``python -m engine replay``)
and its log reads in the asker's language; only finished games, privately."""

from __future__ import annotations

import json
from pathlib import Path

from days_support import CHANNEL, START, days, days_bot, game_of, start_game
from test_bot_support import assert_refused, final_reply

from bot.core.clock import ManualClock
from engine import serialisation
from engine.policies import policy_by_name
from engine.record import replay_record


async def test_export_sends_a_record_that_replays_and_a_readable_log(tmp_path: Path) -> None:
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START)) as h:
        alice = h.user("alice")
        await start_game(h)
        game = await game_of(h)
        assert_refused(await h.slash(alice, CHANNEL, "projectl-games export", game=game.id),
                       "not a finished game")
        manager = h.bot.manager  # type: ignore[attr-defined]
        policy = policy_by_name("greedy", 1)
        while (found := await manager.game(game.id)) is not None and found.status != "finished":
            assert found.state is not None and found.current is not None and found.current.user_id
            await manager.act(found.channel_id, found.current.user_id, policy.choose(found.state))
        await h.settle()
        finished = await manager.game(game.id)

        reply = final_reply(await h.slash(alice, CHANNEL, "projectl-games export"))
        assert reply.ephemeral
        assert reply.filenames == [f"projectl-game-{game.id}.json", f"projectl-game-{game.id}.txt"]
        record, log = (data.decode("utf-8") for _, data in reply.files)
        replayed = replay_record(record)
        assert serialisation.dumps(replayed.state) == serialisation.dumps(finished.state)
        assert set(replayed.names) == {"alice", "bob"}
        assert json.loads(record)["version"] == 1
        assert log.startswith(f"Project L — game {game.id}: the log")
        assert "alice" in log and "bob" in log

        reply = final_reply(await h.slash(alice, CHANNEL, "projectl-games export", game=game.id,
                                          locale="pt-BR"))
        assert reply.content.startswith("Só você vê isto.")
        _, log_pt = reply.files[1]
        assert log_pt.decode("utf-8").startswith(f"Project L — partida {game.id}: o histórico")
        assert_refused(await h.slash(alice, CHANNEL, "projectl-games export", game=game.id + 50),
                       "you can read from here")


async def test_the_exported_log_is_plain_text_with_every_name_as_written(tmp_path: Path) -> None:
    """The .txt file is read in a text editor, not by Discord: no bold or code markdown, and each
    name exactly as its player typed it (not escaped for Discord: ``al\\_ice`` would be a
    different name), a seat handed to an AI included, in the log, the summary and the record."""
    host, other = "al_ice*x", "b`o|b"
    async with days_bot(tmp_path / "db.sqlite3", ManualClock(START), users=(host, other)) as h:
        alice = h.user(host)
        await start_game(h, host=host, others=(other,))
        game = await game_of(h)
        await days(h).turnclock.replace(game.channel_id, alice.id, h.user(other).id, "greedy")
        manager = h.bot.manager  # type: ignore[attr-defined]
        policy = policy_by_name("greedy", 1)
        while (found := await manager.game(game.id)) is not None and found.status != "finished":
            assert found.state is not None and found.current is not None
            await manager.act(found.channel_id, alice.id, policy.choose(found.state))
        await h.settle()

        reply = final_reply(await h.slash(alice, CHANNEL, "projectl-games export"))
        record, log = (data.decode("utf-8") for _, data in reply.files)
        handed = f"Easy AI (for {other})"
        assert set(replay_record(record).names) == {host, handed}
        assert f"{host}: " in log and f"{handed}: " in log  # the log's lines and the summary's
        for markdown in ("\\_", "\\*", "\\|", "**", "`#"):
            assert markdown not in log, markdown

        reply = final_reply(await h.slash(alice, CHANNEL, "projectl-games export", locale="pt-BR"))
        log_pt = reply.files[1][1].decode("utf-8")
        assert f"{host}: " in log_pt and f"IA Fácil (no lugar de {other}): " in log_pt
        assert "\\_" not in log_pt and "**" not in log_pt
