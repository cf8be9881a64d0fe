"""Score visibility (table option ``known_scores``), rulebook default "completed cards face down".

RULINGS "Completed cards": with ``known_scores`` off each player's score pile — its cards and its
points — is shown only to its owner until the game ends; others see how many cards it holds.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from harness import DiscordHarness
from images import shown as pixels
from test_bot_support import bot_of, open_table, running_bot

from engine import Options, apply, new_game
from engine.events import PuzzleCompleted
from engine.policies import policy_by_name
from engine.state import DonePuzzle, GameState, Phase
from engine.visibility import NOBODY, describe_for, hidden_scores
from renders import cache, fonts, render_mat, render_table

NAMES = ["alice", "bob"]


def _with_piles(known_scores: bool) -> GameState:
    """Two players; seat 0 has two completed cards, seat 1 one."""
    state = new_game(Options(players=2, known_scores=known_scores), seed=4)
    ids = list(state.cards)
    players = list(state.players)
    players[0] = replace(players[0], completed=(DonePuzzle(ids[0]), DonePuzzle(ids[20])))
    players[1] = replace(players[1], completed=(DonePuzzle(ids[1]),))
    return state.evolve(players=tuple(players))


def test_hidden_scores_names_every_seat_but_the_viewers_own_until_the_end() -> None:
    hidden = _with_piles(known_scores=False)
    assert hidden_scores(hidden, None) == frozenset({0, 1})
    assert hidden_scores(hidden, NOBODY) == frozenset({0, 1})
    assert hidden_scores(hidden, 0) == frozenset({1})
    assert hidden_scores(hidden.evolve(phase=Phase.OVER), None) == frozenset()
    assert hidden_scores(_with_piles(known_scores=True), None) == frozenset()


def test_completion_text_names_no_points_for_a_hidden_pile() -> None:
    event = PuzzleCompleted(1, "W07", 2)
    assert "2 pt" not in describe_for(event, NAMES, frozenset({1}))
    assert "W07" not in describe_for(event, NAMES, frozenset({1}))
    assert describe_for(event, NAMES, frozenset({0})) == event.describe(NAMES)


def test_another_players_mat_hides_the_score_pile_and_the_owners_shows_it() -> None:
    state = _with_piles(known_scores=False)
    own = render_mat(state, 0, NAMES, 0)
    others = render_mat(state, 0, NAMES, 1)
    assert pixels(own) != pixels(others)
    assert pixels(render_mat(state, 0, NAMES, NOBODY)) == pixels(others)
    shown = _with_piles(known_scores=True)
    assert pixels(render_mat(shown, 0, NAMES, 1)) == pixels(render_mat(shown, 0, NAMES, 0))
    # Once the game is over every pile is face up.
    over = state.evolve(phase=Phase.OVER)
    assert pixels(render_mat(over, 0, NAMES, 1)) == pixels(render_mat(over, 0, NAMES, 0))


def test_table_image_hides_score_piles_when_known_scores_is_off() -> None:
    hidden, shown = _with_piles(known_scores=False), _with_piles(known_scores=True)
    assert pixels(render_table(hidden, NAMES)) != pixels(render_table(shown, NAMES))
    # Scores on: the option's default writes nothing and draws the same as before.
    default = shown.evolve(options=Options(players=2))
    assert pixels(render_table(shown, NAMES)) == pixels(render_table(default, NAMES))


async def _play_until_a_completion(h: DiscordHarness, users: dict[int, object], channel: str) -> None:
    """Greedy moves through ``/projectl play act`` until a completed puzzle's turn has been posted."""
    greedy = policy_by_name("greedy", 3)
    completed_by: int | None = None
    for _ in range(400):
        game = await bot_of(h).manager.game_in_channel(h.channel(channel).id)
        assert game is not None and game.state is not None and game.current is not None
        if completed_by is not None and game.state.current != completed_by:
            return
        seat = game.current
        action = greedy.choose(game.state)
        outcome = apply(game.state, action)
        if any(isinstance(e, PuzzleCompleted) for e in outcome.events):
            completed_by = seat.seat
        await h.slash(users[seat.user_id], channel, "projectl play act", text=str(action))  # type: ignore[index]
    raise AssertionError("no puzzle was completed")


async def test_public_posts_of_a_hidden_scores_game_carry_no_points(tmp_path: Path) -> None:
    """A known_scores-off game: every public channel post after a completion names no card's
    points (the text says a puzzle was completed), while the table option reached the engine."""
    async with running_bot(tmp_path / "hidden.sqlite3", seed=3) as h:
        alice, bob = h.add_user("alice"), h.add_user("bob")
        await open_table(h, alice, [bob], players=2, known_scores=False)
        game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
        assert game is not None and game.state is not None
        assert game.state.options.known_scores is False
        await _play_until_a_completion(h, {alice.id: alice, bob.id: bob}, "games")
        public = [m.content or "" for m in h.channel_messages("games")]
        said = "\n".join(public)
        assert "completed a puzzle" in said
        assert not re.search(r"\bfor \d+ pt", said), said
        assert not re.search(r"\d+ pts?\b", said), said


def test_the_player_to_move_keeps_their_puzzles_done_on_the_table_with_hidden_scores() -> None:
    """Issue 31, item 12: the status line of the player to move tells their actions, so with the
    pile face down its size stands in the header instead of the hidden points; a player waiting
    keeps "N puzzles done" in the status line."""
    state = _with_piles(known_scores=False)
    cache.clear_all()
    with fonts.recording() as drawn:
        render_table(state.evolve(current=0), NAMES)
    said = [d.text for d in drawn]
    assert "2 done" in said and "1 puzzle done" in said
