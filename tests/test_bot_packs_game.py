"""A whole game with the rest of the published game (issue 28): a 2-player table with the Ambassador
Pack, Phoenix, Finesse and the Finesse Ambassador Pack, opened with ``/projectl table new
expansions:``, played to its end through the bot's real commands and buttons — one Ambassador
action from the turn panel (Ambassador → puzzle → piece → spot → Confirm), one typed with
``/projectl play act`` — checking what Discord receives: the lobby, both confirmations (each naming
the card flipped), the turn posts' lines for both actions, and the results post.

The moves are the Easy AI's (``greedy``) except that a player with a ready Ambassador card takes
an Ambassador action with their first legal placement. The same chooser is run on the engine alone
first to pick a deal (a seed) in which two Ambassador actions come up, so the game through Discord
is known to reach both; everything after the deal is played through the bot, none of it put in
place by hand (the game's log replays: ``manager.verify``)."""

from __future__ import annotations

import random
from pathlib import Path

from harness import DiscordHarness
from test_bot_panel import Player, turn_post
from test_bot_support import bot_of, final_reply, open_table, running_bot

import engine
from bench.discord_driver import play
from bot.core.play.manager import Game
from bot.core.wording import texts
from engine import GameState, Options, Place
from engine.actions import Action, AmbassadorAction
from engine.cards import Ambassador
from engine.expansions.ambassador import ready
from engine.pieces import mask_to_text
from engine.policies import Policy, policy_by_name

RULES = {"ambassador": True, "phoenix": True, "finesse": True, "finesse_ambassador": True}
TYPED = "ambassador, phoenix, finesse, finesse ambassador pack"
SEEDS = (87, *range(1, 400))
"""87 is the first tried (found with the chooser below); any deal with two Ambassador actions will do."""
MAX_ACTIONS = 400


def ambassador_action(state: GameState) -> AmbassadorAction | None:
    """The current player's Ambassador action with their first legal placement, when a card is ready."""
    if state.phase is not engine.Phase.PLAY or not ready(state, state.current):
        return None
    places = [a for a in engine.legal_actions(state) if isinstance(a, Place)]
    if not places:
        return None
    action = AmbassadorAction((places[0],))
    try:
        engine.apply(state, action)
    except engine.IllegalActionError:
        return None
    return action


def choose(state: GameState, policy: Policy) -> Action:
    return ambassador_action(state) or policy.choose(state)


def flips_in(seed: int) -> int:
    """How many Ambassador actions the chooser takes in the game dealt from ``seed`` (engine only)."""
    state, policy = engine.new_game(Options.for_players(2, **RULES), seed), policy_by_name("greedy", seed)
    flips = 0
    for _ in range(MAX_ACTIONS):
        if state.phase is engine.Phase.OVER:
            return flips
        action = choose(state, policy)
        flips += isinstance(action, AmbassadorAction)
        state = engine.apply(state, action).state
    raise AssertionError(f"seed {seed}: no end in {MAX_ACTIONS} actions")


async def channel_game(h: DiscordHarness) -> Game | None:
    return await bot_of(h).manager.game_in_channel(h.channel("games").id)


async def test_a_game_with_every_pack_played_to_the_end(tmp_path: Path) -> None:
    seed = next(s for s in SEEDS if flips_in(s) >= 2)
    async with running_bot(tmp_path / "packs.sqlite3", seed=seed) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        opened = await h.slash(alice, "games", "projectl table new", players=2, expansions=TYPED)
        lobby = opened.original
        assert lobby is not None
        shown = lobby.content or ""
        assert "Ambassador Pack on" in shown and "Phoenix on" in shown, shown
        assert "Finesse expansion on" in shown and "Finesse Ambassador Pack on" in shown, shown
        game_id = lobby.buttons[0].custom_id.split(":")[-1]
        await h.click(bob, lobby, f"pl:lobby:join:{game_id}")
        await h.click(alice, lobby, f"pl:lobby:start:{game_id}")
        game = await channel_game(h)
        assert game is not None and game.state is not None
        assert {flag: getattr(game.state.options, flag) for flag in RULES} == RULES
        assert game.state == engine.new_game(Options.for_players(2, **RULES), seed)
        cards = game.state.cards.values()
        assert sum(c.reward is Ambassador.ACTION for c in cards) == 3  # the Ambassador Pack
        assert sum(c.points == 6 for c in cards) == 7  # Phoenix
        game_id = game.id
        policy, rng = policy_by_name("greedy", seed), random.Random(seed)
        users = {u.id: u for u in (alice, bob)}
        confirmations: list[str] = []
        for _ in range(MAX_ACTIONS):
            game = await channel_game(h)
            if game is None:
                break
            assert game.state is not None and game.current is not None
            state, user = game.state, users[game.current.user_id]  # type: ignore[index]
            action = choose(state, policy)
            if isinstance(action, AmbassadorAction) and not confirmations:
                confirmations.append(await from_the_panel(h, Player(h, user), action))
            elif isinstance(action, AmbassadorAction):
                typed = await h.slash(user, "games", "projectl play act", text=str(action))
                confirmations.append(final_reply(typed).content or "")
            else:
                await play(h, game, action, rng)
        else:
            raise AssertionError(f"the game did not end in {MAX_ACTIONS} actions")
        assert len(confirmations) == 2, confirmations
        for confirmation in confirmations:
            assert confirmation.startswith("Done: `ambassador "), confirmation
            assert "flipped Ambassador card" in confirmation, confirmation  # the flip, told privately
        said = "\n".join(m.content or "" for m in h.channel_messages("games"))
        played = [line for line in said.splitlines() if line.startswith(("**alice**: `ambassador ",
                                                                          "**bob**: `ambassador "))]
        assert len(played) == 2, "each Ambassador action is a line of its turn's post"
        finished = await bot_of(h).manager.game(game_id)
        assert finished is not None and finished.status == "finished" and finished.state is not None
        assert await bot_of(h).manager.verify(game_id), "the log replays to the state played"
        log = [row.action for row in await bot_of(h).manager.log(game_id)]
        assert sum(action.startswith("ambassador ") for action in log) == 2
        results = [m for m in h.channel_messages("games") if m.filenames == ["results.png"]]
        assert len(results) == 1
        content = results[0].content or ""
        assert "**Game over!** Winner:" in content, content
        assert all(f"{name}: " in content and " pt (" in content for name in ("alice", "bob")), content
        assert content.count("from 1 puzzle") + content.count(" puzzles)") == 2, content


async def from_the_panel(h: DiscordHarness, me: Player, action: AmbassadorAction) -> str:
    """The Ambassador action through the turn panel: Ambassador ×n → puzzle → piece → spot → Confirm."""
    (place,) = action.placements
    game = await channel_game(h)
    assert game is not None and game.state is not None
    seat = game.seat_of(me.user.id)
    assert seat is not None
    await me.play(turn_post(h))
    count = len(ready(game.state, seat.seat))
    assert me.component("as").label == texts.PANEL_AMBASSADOR.format(count=count)
    await me.tap("as")
    await me.choose("ac", place.card)
    await me.choose("ap", place.shape.value)
    await me.choose_paged("aa", mask_to_text(place.mask))
    assert not me.component("aok").disabled
    return final_reply(await me.tap("aok")).content or ""


async def test_undo_takes_back_an_ambassador_action_as_it_takes_back_a_master(tmp_path: Path) -> None:
    """docs/rules.md §12: `/projectl play undo` takes back an Ambassador action like any action
    that revealed nothing — the card is face up and ready again, the pieces back in the supply —
    exactly as it takes back a Master with the same placements. The game is played to the first
    Ambassador action through the manager (the log stays the replayable one undo rebuilds from)."""
    seed = next(s for s in SEEDS if flips_in(s) >= 1)
    async with running_bot(tmp_path / "undo.sqlite3", seed=seed) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2, expansions=TYPED)
        manager, policy = bot_of(h).manager, policy_by_name("greedy", seed)
        for _ in range(MAX_ACTIONS):
            before = await channel_game(h)
            assert before is not None and before.state is not None and before.current is not None
            action = choose(before.state, policy)
            if isinstance(action, AmbassadorAction):
                break
            await manager.act(before.channel_id, before.current.user_id, action)  # type: ignore[arg-type]
        else:
            raise AssertionError("no Ambassador action came up")
        await h.settle()
        user, seat = h.user(before.current.user_id), before.current.seat  # type: ignore[arg-type]
        cards = ready(before.state, seat)
        master = "master" + str(action).removeprefix("ambassador")
        taken_back: list[str] = []
        assert not before.state.master_used, "the turn's Master is still there to compare with"
        for typed in (str(action), master):
            done = final_reply(await h.slash(user, "games", "projectl play act", text=typed))
            assert (done.content or "").startswith(f"Done: `{typed}`"), done.content
            played = await channel_game(h)
            assert played is not None and played.state is not None
            assert ready(played.state, seat) == (cards[1:] if typed == str(action) else cards)
            reply = final_reply(await h.slash(user, "games", "projectl play undo"))
            assert reply.ephemeral, reply.content
            taken_back.append(reply.content or "")
            after = await channel_game(h)
            assert after is not None and after.state == before.state, "the state before it, exactly"
            assert ready(after.state, seat) == cards, "the Ambassador card is ready again"
            assert await manager.verify(after.id)
            assert [r.action for r in await manager.log(after.id)] == \
                [r.action for r in await manager.log(before.id)]
        assert taken_back[0].startswith(f"Took back `{action}`."), taken_back
        assert all(t.startswith("Took back `") for t in taken_back)
        assert len(taken_back) == 2, "the same placements as a Master are taken back the same way"
