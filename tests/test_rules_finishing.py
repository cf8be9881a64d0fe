"""Rule cases: Finishing Touches, after the last round.

Sources: seed 000 "Ajustes Finais", seed 001 "final touches", seed 003 "finishing phase", seed 004
scoring, RULINGS.md "End of the game" (Finishing Touches).
"""

from __future__ import annotations

from positions import assert_refused, at_turn_start, count, game, play, play_events, with_player

from engine import EndFinishing, Phase, Place, legal_actions, score_lines, winners
from engine.errors import WrongPhaseError
from engine.events import FinishingDone, FinishingStarted, GameEnded, PieceGained, PuzzleCompleted


def _last_turn(players: int = 2, first: int = 0):
    """Round 1 is the last round and seat ``first`` (the first player) is about to play it."""
    state = at_turn_start(game(players, seed=1), first).evolve(first_player=first, last_round=1)
    return state


def _to_finishing(state):
    """Play out the last round without changing any supply: every turn is skipped (a table
    decision that simply ends the turn)."""
    events = []
    while state.phase is Phase.PLAY:
        state, new = play_events(state, "skip")
        events += new
    return state, events


def test_finishing_touches_follow_the_last_round_starting_with_the_first_player() -> None:
    """Seed 000: "Após a rodada final, todos os jogadores têm uma última chance…". Engine ruling: the
    players make their Finishing Touches one after another, starting with the first player."""
    state = _last_turn(players=3, first=1)
    for seat in range(3):
        state = with_player(state, seat, supply="1", puzzles=["TD"])
    state, events = _to_finishing(state)
    assert state.phase is Phase.FINISHING and FinishingStarted() in events
    assert state.current == 1 and state.actions_left == 0
    order = []
    while state.phase is Phase.FINISHING:
        order.append(state.current)
        state = play(state, "done")
    assert order == [1, 2, 0]
    assert state.phase is Phase.OVER


def _finishing(supply: str, *puzzles, other_supply: str = ""):
    state = with_player(_last_turn(), 0, supply=supply, puzzles=list(puzzles))
    state = with_player(state, 1, supply=other_supply, puzzles=["TM"])
    state, _ = _to_finishing(state)
    assert state.phase is Phase.FINISHING and state.current == 0
    return state


def test_each_finishing_piece_costs_one_point() -> None:
    """Seed 000: "para cada peça que você colocar nesse momento, você desconta 1 ponto". The piece
    comes from the player's supply (RULINGS) and nothing else changes."""
    state = _finishing("1 1 1 1", "TB")
    after = play(state, "place 1 on TB at A1", "place 1 on TB at B1")
    assert after.players[0].finishing_pieces == 2
    assert count(after.players[0].supply, "1") == count(state.players[0].supply, "1") - 2
    assert after.reserve == state.reserve
    assert score_lines(after)[0].finishing_penalty == 2


def test_finishing_completion_scores_but_gives_no_reward_and_no_pieces_back() -> None:
    """Seed 000: "você não coleta nenhuma recompensa extra por esses quebra-cabeças"; RULINGS: "cards
    completed this way score but give no reward and no pieces back"."""
    state = _finishing("1 2", ("TL", [("1", "A1")]))
    after, events = play_events(state, "place 2 on TL at A2 B2")
    player = after.players[0]
    assert [d.card for d in player.completed] == ["TL"] and player.completed[0].finishing
    assert {p.shape.value for p in player.completed[0].pieces} == {"1", "2"}
    assert count(player.supply, "2") == 0 and count(player.supply, "I4") == 0
    assert count(player.supply, "1") == 1
    assert not [e for e in events if isinstance(e, PieceGained)]
    assert PuzzleCompleted(0, "TL", 2, True) in events
    line = score_lines(after)[0]
    assert (line.completed_points, line.finishing_penalty, line.unfinished_penalty) == (2, 1, 0)


def test_a_player_may_stop_before_completing() -> None:
    """Seed 001: "it may be beneficial to not complete a puzzle in this step": 'done' ends the
    player's touches whatever is left; the unfinished puzzle keeps its penalty."""
    state = _finishing("1 1", "TO")
    after = play(state, "place 1 on TO at A1", "done")
    assert after.players[0].finished_touches and after.players[0].puzzles
    line = score_lines(after)[0]
    assert (line.finishing_penalty, line.unfinished_penalty) == (1, 2)


def test_player_with_nothing_to_place_is_skipped_automatically() -> None:
    """Engine ruling: a player who cannot place any piece (no pieces that fit, or no unfinished
    puzzle) is done automatically, without having to say 'done'."""
    state = with_player(_last_turn(), 0, supply="I4", puzzles=["TD"])   # an I4 fits nowhere in TD
    state = with_player(state, 1, supply="1", puzzles=["TD"])
    state, events = _to_finishing(state)
    assert FinishingDone(0) in events
    assert state.current == 1 and state.players[0].finished_touches


def test_when_nobody_can_place_the_game_ends_at_once() -> None:
    """Finishing Touches with nothing to place for anyone: the game is over right after the last
    round, with its result."""
    state = with_player(_last_turn(), 0, supply="", puzzles=["TD"])
    state = with_player(state, 1, supply="", puzzles=[])
    state, events = _to_finishing(state)
    assert state.phase is Phase.OVER
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert ended and ended[0].winners == winners(state)


def test_running_out_of_placements_ends_a_players_touches() -> None:
    """Engine ruling: once a player has no possible placement left (e.g. the last piece was used)
    their touches end and the next player's begin."""
    state = _finishing("1", "TD", other_supply="1")
    after, events = play_events(state, "place 1 on TD at A1")
    assert FinishingDone(0) in events and after.current == 1


def test_only_placing_and_done_during_finishing_touches() -> None:
    """Seed 000: Finishing Touches only place pieces; other actions are refused with WrongPhaseError
    and legal_actions offers placements and 'done' only."""
    state = _finishing("1", "TD")
    for text in ("level1", "take white 1", "upgrade 1 to 2", "pass", "master 1 on TD at A1"):
        assert_refused(state, text, WrongPhaseError, "Finishing Touches")
    actions = legal_actions(state)
    assert actions[-1] == EndFinishing()
    assert all(isinstance(a, Place) for a in actions[:-1]) and len(actions) == 3


def test_game_ends_after_everyone_is_done_with_scores_and_winners() -> None:
    """Seed 000 "Pontuação Final": after the Finishing Touches the game is over and scored."""
    state = _finishing("1", ("TD", [("1", "A1")]), other_supply="1")
    state = play(state, "place 1 on TD at B1")
    assert state.current == 1
    state, events = play_events(state, "place 1 on TM at A1")
    assert state.phase is Phase.OVER
    ended = [e for e in events if isinstance(e, GameEnded)][0]
    assert ended.scores == tuple(line.total for line in score_lines(state))
    assert ended.scores == (1 - 1, 0 - 1)
    assert ended.winners == (0,) == winners(state)
