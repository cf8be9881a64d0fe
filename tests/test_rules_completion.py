"""Rule cases: completing a puzzle during play.

Sources: seed 000 "Completando os Quebra-Cabeças", seed 001, seed 004 "At the end of an action in
which the recessed area of a puzzle is completely filled…", RULINGS.md "Completing a puzzle" and
"Empty reserve".
"""

from __future__ import annotations

from positions import (
    at_turn_start,
    count,
    game,
    play,
    play_events,
    with_player,
    with_reserve,
    without_shapes,
)

from engine import Shape, score_lines, serialisation
from engine.events import PieceGained, PiecePlaced, PuzzleCompleted
from engine.state import DonePuzzle


def _with(supply: str, *puzzles, **kwargs):
    return with_player(at_turn_start(game(2, seed=1), 0), 0, supply=supply, puzzles=list(puzzles), **kwargs)


def test_completion_returns_the_pieces_and_gives_the_reward() -> None:
    """Seed 004 steps 1–3: return all pieces on the puzzle to your supply, take the reward piece
    from the reserve, put the card in your score pile."""
    state = _with("2", ("TO", [("2", "A1 B1")]))
    reserve_t4 = count(state.reserve, "T4")
    after, events = play_events(state, "place 2 on TO at A2 B2")
    player = after.players[0]
    assert player.puzzles == ()
    assert player.completed == (DonePuzzle("TO"),)
    assert count(player.supply, "2") == 2            # both dominoes back
    assert count(player.supply, "T4") == 1           # the reward
    assert count(after.reserve, "T4") == reserve_t4 - 1
    kinds = [type(e) for e in events]
    assert kinds == [PiecePlaced, PuzzleCompleted, PieceGained]
    assert events[2] == PieceGained(0, Shape.T4, "reward")


def test_completion_happens_at_the_end_of_the_filling_action() -> None:
    """Seed 004: "At the end of an action in which the recessed area … is completely filled": the
    puzzle is not complete while a cell is still empty, and is complete right after the last one."""
    state = _with("1 1", "TD")
    half = play(state, "place 1 on TD at A1")
    assert half.players[0].puzzles and not half.players[0].completed
    full = play(half, "place 1 on TD at B1")
    assert not full.players[0].puzzles and full.players[0].completed[0].card == "TD"


def test_remaining_actions_continue_after_a_completion() -> None:
    """Seed 004: "If you still have actions remaining after completing a puzzle, you continue with
    your turn as normal" — and may use the returned pieces and the reward at once."""
    state = _with("2", ("TO", [("2", "A1 B1")]), "TI")
    after = play(state, "place 2 on TO at A2 B2")
    assert (after.current, after.actions_left) == (0, 2)
    after = play(after, "place 2 on TI at A1 B1")     # a returned domino, same turn
    assert after.actions_left == 1
    after = play(after, "upgrade T4 to 1")            # the reward, same turn
    assert after.current == 1


def test_several_puzzles_can_complete_with_one_action() -> None:
    """Seed 004: "Multiple puzzles may be completed with a single action" (a Master); each is
    resolved in full: pieces back, reward, score pile."""
    state = _with("1 1 L3", ("TD", [("1", "A1")]), ("TL", []), ("TM", []))
    after, events = play_events(state, "master 1 on TD at B1; L3 on TL at A1 A2 B2; 1 on TM at A1")
    assert {d.card for d in after.players[0].completed} == {"TD", "TL", "TM"}
    assert sum(isinstance(e, PuzzleCompleted) for e in events) == 3
    rewards = sorted(e.shape.value for e in events if isinstance(e, PieceGained))
    assert rewards == sorted(["I3", "I4", "2"])


def test_completed_cards_score_and_are_public() -> None:
    """Seed 000 / RULINGS "Completed cards are kept face up": the card's points count for the player
    and the score pile is part of the (public) state."""
    state = _with("1", ("TD", [("1", "A1")]))
    after = play(state, "place 1 on TD at B1")
    line = score_lines(after)[0]
    assert (line.completed_points, line.completed_count) == (1, 1)
    assert '"completed":[{"card":"TD"' in serialisation.dumps(after)


def test_reward_substitution_when_the_reward_shape_is_gone() -> None:
    """RULINGS "Empty reserve" / seed 004 step 2: if the depicted piece is gone, take another of the
    same level (here L3, the only other one, so no choice is asked); the event says what was
    wanted."""
    state = without_shapes(_with("1", ("TD", [("1", "A1")])), "I3")  # TD rewards an I3
    after, events = play_events(state, "place 1 on TD at B1")
    assert count(after.players[0].supply, "L3") == 1
    gained = [e for e in events if isinstance(e, PieceGained)][0]
    assert (gained.shape, gained.wanted) == (Shape.L3, Shape.I3)


def test_reward_substitution_goes_up_a_level_then_down() -> None:
    """RULINGS "Empty reserve": with the whole level gone, a higher level; with nothing higher, any
    lower level (the player chooses which)."""
    state = _with("1", ("TD", [("1", "A1")]))
    up = play(with_reserve(state, {"I4": 1, "2": 4}), "place 1 on TD at B1")
    assert count(up.players[0].supply, "I4") == 1
    down = play(with_reserve(state, {"2": 4, "1": 4}), "place 1 on TD at B1", "choose 2")
    assert count(down.players[0].supply, "2") == 1


def test_no_reward_when_the_reserve_is_empty() -> None:
    """Empty reserve, nothing at all left: the puzzle still completes and scores; there is simply no
    reward piece."""
    state = with_reserve(_with("1", ("TD", [("1", "A1")])), {})
    after = play(state, "place 1 on TD at B1")
    assert after.players[0].completed and count(after.players[0].supply, "1") == 2
    assert after.players[0].supply_size == 2


def test_completing_frees_room_under_the_four_puzzle_limit() -> None:
    """Seed 000: the limit counts unfinished puzzles, so completing one lets the player take another
    in the same turn."""
    state = _with("1", ("TD", [("1", "A1")]), "TL", "TI", "TO")
    after = play(state, "place 1 on TD at B1", "take white 1")
    assert len(after.players[0].puzzles) == 4 and len(after.players[0].completed) == 1
