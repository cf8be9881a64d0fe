"""The strong AI in the bot, through the offline harness: Strong seats, watching an AI play Solo,
``/projectl play hint`` (private, current player only, counted, can be turned off, refused at a
rated multiplayer table) and the post-game review (command and results button)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from test_bot_games import Driver
from test_bot_support import (
    TOKEN,
    assert_refused,
    bot_factory,
    bot_of,
    final_reply,
    is_png,
    last_channel_post,
)

from bot.core.storage.hints import HintStore
from bot.core.wording import texts


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    """The real bot with its real process pool: a worker starts on first use (seconds on a busy
    machine), so the harness waits longer than its default for the bot to settle."""
    async with DiscordHarness(bot_factory=bot_factory(tmp_path / "advice.sqlite3"), token=TOKEN,
                              trap_loggers=("discord", "bot"), settle_timeout=180.0) as harness:
        yield harness


async def _game(h: DiscordHarness) -> Any:
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None
    return game


async def test_hint_is_private_for_the_current_player_and_counted(h: DiscordHarness) -> None:
    alice, eve = h.add_user("alice"), h.add_user("eve")
    await h.slash(alice, "games", "projectl table new", variant="solo")
    game = await _game(h)
    posts = len(h.channel_messages("games"))
    reply = final_reply(await h.slash(alice, "games", "projectl play hint"))
    assert reply.ephemeral and reply.filenames == ["hint.png"] and is_png(reply.files[0][1])
    assert "hints used this game: 1" in reply.content and "re-dealt decks, after every rival" in reply.content
    # the first hint of a Solo game says once what it does to the rating (docs/ratings.md)
    assert reply.content.endswith("\nThis Solo game stays rated: with a hint, a loss still counts and a win "
                                  "is casual (not rated).")
    # Solo too: the Expert's reading
    assert "\nWhy: it " in reply.content  # the plan in game terms, on its own line
    suggested = reply.content.split("**`", 1)[1].split("`**", 1)[0]
    import engine

    engine.apply(game.state, engine.parse_action(suggested))  # a legal action for this position
    assert len(h.channel_messages("games")) == posts  # nothing public, nothing played
    assert (await _game(h)).revision == game.revision
    assert_refused(await h.slash(eve, "games", "projectl play hint"), "not")
    again = final_reply(await h.slash(alice, "games", "projectl play hint"))
    assert "hints used this game: 2" in again.content and "Solo game stays rated" not in again.content
    h.add_channel("solo-pt")
    await h.slash(eve, "solo-pt", "projectl table new", variant="solo")
    em_portugues = final_reply(await h.slash(eve, "solo-pt", "projectl play hint", locale="pt-BR"))
    assert em_portugues.content.endswith("\nEsta partida Solo continua ranqueada: com uma dica, uma derrota "
                                         "ainda conta e uma vitória fica casual (sem ranking).")


async def test_a_table_can_turn_hints_off(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    await h.slash(alice, "games", "projectl table new", variant="solo", hints=False)
    assert_refused(await h.slash(alice, "games", "projectl play hint"), "Hints are off")


async def test_a_casual_multiplayer_table_gives_hints(h: DiscordHarness) -> None:
    """Hints are refused only at a rated table (tests/test_bot_ratings.py): once the host made the
    lobby casual, the player to move gets one."""
    alice, bob = h.add_user("alice"), h.add_user("bob")
    lobby = (await h.slash(alice, "games", "projectl table new", players=2)).original
    assert lobby is not None
    await h.slash(alice, "games", "projectl-games rated", value=False)
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(bob, lobby, f"pl:lobby:join:{game_id}")
    await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
    game = await _game(h)
    mover = alice if game.current.user_id == alice.id else bob
    reply = final_reply(await h.slash(mover, "games", "projectl play hint"))
    assert reply.ephemeral and "hints used this game: 1" in reply.content


@pytest.mark.parametrize(("button", "level", "label"),
                         [("medium", "medium", "Medium"), ("strong", "ladder_strong", "Strong"),
                          ("expert", "expert", "Expert")])
async def test_a_searching_ai_seat_plays_its_turns(
    h: DiscordHarness, button: str, level: str, label: str,
) -> None:
    """The Medium, Strong and Expert seats think in the process pool and play their whole planned
    turn; the lobby's Strong button seats the lobby's Strong level (``ladder_strong``), not the
    frozen ``strong`` baseline."""
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new", players=2)
    lobby = ix.original
    assert lobby is not None
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    assert f"Add {label} AI" in [b.label for b in lobby.buttons]
    await h.click(alice, lobby, f"pl:lobby:{button}:{game_id}")
    await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
    game = await _game(h)
    assert [s.policy for s in game.seats] == [None, level] and game.seats[1].name == f"{label} AI 1"
    assert game.current is not None and game.current.user_id == alice.id  # the AI already moved, if first
    for _ in range(3):
        await h.slash(alice, "games", "projectl play level1")
    after = await _game(h)
    assert after.current is not None and after.current.user_id == alice.id
    assert after.state.turn > game.state.turn  # the Strong seat's whole turn was played
    assert await bot_of(h).manager.verify(after.id)


async def test_watching_an_ai_play_solo(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    assert_refused(await h.slash(alice, "games", "projectl table new", watch="greedy"), "Solo")
    await h.slash(alice, "games", "projectl table new", variant="solo", watch="greedy")
    game = await bot_of(h).manager.game((await bot_of(h).storage.actions(1))[0].game_id)
    assert game is not None and game.status == "finished" and game.seats[0].policy == "greedy"
    post = last_channel_post(h)
    assert post.filenames == ["results.png"] and "Game over" in (post.content or "")


async def test_review_after_the_game_from_the_button_and_the_command(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    await h.slash(alice, "games", "projectl table new", variant="solo")
    assert_refused(await h.slash(alice, "games", "projectl review"), "when the game is over")
    await h.slash(alice, "games", "projectl play hint")
    finished = await Driver(h, [alice], seed=3, randomness=0.3).play()
    post = last_channel_post(h)
    assert "Hints used: alice 1." in (post.content or "")
    button = f"pld:review:{finished.id}"
    assert button in [b.custom_id for b in post.buttons]
    review = final_reply(await h.click(alice, post, button))
    assert review.ephemeral and review.content.startswith(f"**Review of game {finished.id}**")
    assert "**alice**" in review.content
    if "AI prefers" in review.content:
        assert review.filenames == ["review-seat1.png"] and is_png(review.files[0][1])
    again = final_reply(await h.slash(alice, "games", "projectl review"))
    assert again.content == review.content  # the same game, from the cache
    assert texts.REVIEW_LINE.split("{")[0] in review.content or texts.REVIEW_CLEAN in review.content


async def test_a_seat_stored_with_the_retired_strong_level_still_plays(h: DiscordHarness) -> None:
    """Games seated before the lobby's Strong level became ``ladder_strong`` keep their ``strong``
    seats: they load, are named as before and play the frozen Strong search."""
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "projectl table new", players=2)
    lobby = ix.original
    assert lobby is not None
    game_id = lobby.buttons[0].custom_id.split(":")[-1]
    await h.click(alice, lobby, f"pl:lobby:strong:{game_id}")
    storage = bot_of(h).storage
    await storage.write(  # a seat as a table stored it before the change
        lambda conn: conn.execute("UPDATE seats SET policy = 'strong' WHERE policy = 'ladder_strong'"))
    await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
    game = await _game(h)
    assert [s.policy for s in game.seats] == [None, "strong"] and game.seats[1].name == "Strong AI 1"
    for _ in range(3):
        await h.slash(alice, "games", "projectl play level1")
    after = await _game(h)
    assert after.current is not None and after.current.user_id == alice.id
    assert after.state.turn > game.state.turn  # the stored Strong seat played its whole turn
    assert await bot_of(h).manager.verify(after.id)


async def test_a_hint_is_counted_before_the_expert_thinks_and_not_once_the_game_is_over(
    h: DiscordHarness, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Expert thinks for seconds; a game that ends meanwhile (its last move made on the web
    board) is judged for ratings with the hint already counted (a Solo win with a hint is casual).
    Asked once the game is over, the hint is refused and not counted."""
    alice = h.add_user("alice")
    await h.slash(alice, "games", "projectl table new", variant="solo")
    game = await _game(h)
    manager = bot_of(h).manager
    store = HintStore(bot_of(h).storage)
    counted_when_thinking: list[dict[int, int]] = []
    run = manager.thinker.run

    async def thinking(function: Any, *args: Any) -> Any:
        counted_when_thinking.append(await store.hints_used(game.id))
        return await run(function, *args)

    monkeypatch.setattr(manager.thinker, "run", thinking)
    reply = final_reply(await h.slash(alice, "games", "projectl play hint"))
    assert "hints used this game: 1" in reply.content
    assert counted_when_thinking == [{0: 1}]
    assert await store.count_hint(game.id, 0) == 2
    await bot_of(h).storage.set_status(game.id, (await _game(h)).revision, "finished")
    assert await store.count_hint(game.id, 0) is None  # over: not counted
    assert await store.hints_used(game.id) == {0: 2}
