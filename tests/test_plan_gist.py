"""The hint's one-line "why" (engine.policies.gist, issue 29 item 4): what a planned turn does on
the board — points now, the puzzle it builds towards and the pieces it keeps for it, the pieces
it gains — read by playing the plan, never naming a card the asker cannot see."""

from __future__ import annotations

from engine import Options, apply, new_game
from engine.actions import Action, DrawPuzzle, TakePuzzle
from engine.cards import Colour
from engine.events import PieceGained, PiecePlaced, PuzzleCompleted
from engine.policies import GreedyPolicy, plan_gist
from engine.solver import min_pieces, solve
from engine.state import GameState

Turn = tuple[GameState, list[Action], list[object]]


def _turns(options: Options, seed: int, limit: int = 400) -> list[Turn]:
    """Each play turn of a greedy game: its starting state, its actions and their events."""
    state = new_game(options, seed=seed)
    policies = [GreedyPolicy(seed + i) for i in range(options.players)]
    turns: list[Turn] = []
    key = None
    for _ in range(limit):
        if state.is_over or state.pending or state.phase.value != "play":
            break
        if (state.round, state.turn, state.current) != key:
            key = (state.round, state.turn, state.current)
            turns.append((state, [], []))
        action = policies[state.current].choose(state)
        outcome = apply(state, action)
        turns[-1][1].append(action)
        turns[-1][2].extend(outcome.events)
        if outcome.reveals_hidden:  # the gist stops there, as the hint's plan does
            key = None
        state = outcome.state
    return turns


def test_the_gist_counts_what_the_turn_scores_and_gains() -> None:
    """Rule checked: completing a puzzle scores its points and gives its reward (rulebook,
    "Completing puzzles"); the gist adds up exactly the turn's own completions and gains."""
    checked = completions = 0
    for seed in range(4):  # each segment ends at a blind draw or reveal, as a hint's plan does
        for start, actions, events in _turns(Options(players=2), seed):
            seat = start.current
            gist = plan_gist(start, actions)
            mine = [e for e in events if getattr(e, "seat", None) == seat]
            assert gist.points == sum(e.points for e in mine if isinstance(e, PuzzleCompleted))
            assert gist.completed == tuple(e.card for e in mine if isinstance(e, PuzzleCompleted))
            assert gist.gained == tuple(e.shape for e in mine if isinstance(e, PieceGained))
            placed = {e.card for e in mine if isinstance(e, PiecePlaced)} - set(gist.completed)
            if placed:
                assert gist.towards in placed and 0 < gist.towards_left
                card = start.card(gist.towards)
                assert gist.towards_points == card.points and gist.towards_left < card.size
            completions += bool(gist.completed)
            checked += 1
    assert checked > 80 and completions > 10


def test_a_blind_draw_names_no_card_and_ends_the_gist() -> None:
    state = new_game(Options(players=2), seed=5)
    gist = plan_gist(state, (DrawPuzzle(Colour.WHITE), TakePuzzle(Colour.WHITE, 1)))
    assert gist.towards is None and not gist.says_anything  # the take after the draw is not read


def test_a_face_up_take_is_what_the_turn_builds_towards() -> None:
    state = new_game(Options(players=2), seed=5)
    card_id = state.table.white_row[0]
    gist = plan_gist(state, (TakePuzzle(Colour.WHITE, 1),))
    assert gist.towards == card_id and gist.towards_left == state.card(card_id).size


def test_an_action_the_position_refuses_ends_the_gist_quietly() -> None:
    state = new_game(Options(players=2), seed=5)
    assert plan_gist(state, (TakePuzzle(Colour.WHITE, 9),)) == plan_gist(state, ())


def test_the_pieces_it_keeps_finish_the_puzzle_it_builds_towards() -> None:
    """Rule checked: a puzzle is completed when every square of its recess is covered, with each
    piece from the player's own supply (rulebook, "Placing pieces"); the gist's ``saves`` are a
    fewest-pieces filling of what ``towards`` has left, taken from what the plan leaves in supply,
    and empty exactly when that supply cannot finish it."""
    said = unsaid = 0
    for seed in range(4):
        for start, actions, _ in _turns(Options(players=2), seed):
            gist = plan_gist(start, actions)
            if gist.towards is None:
                assert gist.saves == ()
                continue
            after = start
            for action in actions:
                after = apply(after, action).state
            seat = start.current
            puzzle = next(p for p in after.players[seat].puzzles if p.card == gist.towards)
            free = after.card(gist.towards).recess & ~puzzle.filled
            supply = after.players[seat].supply
            if gist.saves:
                said += 1
                assert sum(s.size for s in gist.saves) == free.bit_count()
                assert all(gist.saves.count(s) <= supply[s.index] for s in set(gist.saves))
                assert list(gist.saves) == sorted(gist.saves, key=lambda s: -s.level)
                assert len(gist.saves) >= (min_pieces(free) or 0)  # no filling has fewer pieces
            else:
                unsaid += 1
                assert solve(free, supply=supply) is None
    assert said > 5 and unsaid > 5

