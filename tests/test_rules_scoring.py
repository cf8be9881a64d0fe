"""Rule cases: final scoring and tie-breaks.

Sources: seed 000 "Pontuação Final", seed 001, seed 003, seed 004 scoring, RULINGS.md "End of the
game" (Scoring, Ties) and option `unfinished_penalty`.
"""

from __future__ import annotations

import pytest
from positions import game, play_out, with_player

from engine import Phase, apply, replay, score_lines, winners
from engine.events import GameEnded


def _scored(players: int = 2, penalty: bool = True, **seats: dict) -> object:
    """An over game; ``seats`` maps 's0', 's1' … to with_player keyword arguments."""
    state = game(players, seed=1, unfinished_penalty=penalty)
    for key, spec in seats.items():
        state = with_player(state, int(key[1:]), **spec)
    return state.evolve(phase=Phase.OVER)


def test_score_is_completed_points_minus_finishing_pieces_minus_unfinished_cards() -> None:
    """Seed 004 scoring: the points of the cards in the score pile, minus the value of each
    unfinished puzzle, minus 1 per piece placed during Finishing Touches."""
    state = _scored(s0={"completed": ["TB", "TL", "TM"], "puzzles": ["TD", "TI"], "finishing_pieces": 3})
    line = score_lines(state)[0]
    assert (line.completed_points, line.unfinished_penalty, line.finishing_penalty) == (5, 3, 3)
    assert line.total == 5 - 3 - 3 == -1
    assert line.completed_count == 3


def test_unfinished_penalty_option_off() -> None:
    """RULINGS: option `unfinished_penalty` (default on, as seed 004 and the current rulebook); off is
    the older edition (seeds 000/001/003), where unfinished puzzles simply do not score."""
    on = _scored(s0={"completed": ["TB"], "puzzles": ["TD", "TB2"]})
    off = _scored(penalty=False, s0={"completed": ["TB"], "puzzles": ["TD", "TB2"]})
    assert score_lines(on)[0].total == 3 - 1 - 4
    assert score_lines(off)[0].total == 3
    assert score_lines(off)[0].unfinished_penalty == 0


def test_highest_score_wins() -> None:
    """Seed 000: "O jogador com a maior pontuação vence o jogo!"."""
    state = _scored(3, s0={"completed": ["TL"]}, s1={"completed": ["TB"]}, s2={"completed": ["TD"]})
    assert winners(state) == (1,)


def test_tie_broken_by_most_completed_puzzles() -> None:
    """Seed 000 "Vence o jogador que tenha completado mais quebra-cabeças": equal scores (3), three
    cards beat one."""
    state = _scored(s0={"completed": ["TB"], "supply": "1 1 1"},
                    s1={"completed": ["TL", "TD", "TM"], "supply": ""})
    assert [line.total for line in score_lines(state)] == [3, 3]
    assert winners(state) == (1,)


def test_then_by_most_pieces_left_in_supply() -> None:
    """Seed 000 "Se ainda houver empate, vence o jogador com mais peças no seu suprimento": pieces are
    counted (not their levels) — three monominoes beat one tetromino."""
    state = _scored(s0={"completed": ["TL"], "supply": "I4"}, s1={"completed": ["TI"], "supply": "1 1 1"})
    assert winners(state) == (1,)


def test_still_tied_players_share_the_victory() -> None:
    """Seed 000 "Se o empate persistir, todos os jogadores empatados compartilham a vitória"."""
    state = _scored(3, s0={"completed": ["TL"], "supply": "1 2"}, s1={"completed": ["TI"], "supply": "O4 T4"},
                    s2={"completed": ["TL"], "supply": "1"})
    assert winners(state) == (0, 1)


def test_penalties_count_before_tie_breaks() -> None:
    """The tie-breaks compare final scores, after the penalties: an unfinished card can lose a game
    that the score pile alone would have tied."""
    state = _scored(s0={"completed": ["TB"], "puzzles": ["TM"]}, s1={"completed": ["TB"], "puzzles": ["TD"]})
    assert [line.total for line in score_lines(state)] == [3, 2]
    assert winners(state) == (0,)


def test_unfinished_puzzles_do_not_count_as_completed_for_the_tie_break() -> None:
    """Tie-break 1 counts completed puzzles only (the score pile), not unfinished ones."""
    state = _scored(penalty=False, s0={"completed": ["TD"], "puzzles": ["TM", "TL"], "supply": ""},
                    s1={"completed": ["TD"], "supply": "1"})
    assert winners(state) == (1,)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 0), (4, 3)])
def test_game_end_event_reports_the_final_scores_and_winners(players: int, seed: int) -> None:
    """GameEnded carries the final score of every seat (as score_lines computes it) and the winners
    (as winners() decides) — checked on whole games played to the end."""
    state, log = play_out(game(players, seed=seed), seed)
    assert state.is_over, "this seed is known to finish"
    before = replay(game(players, seed=seed), log[:-1])
    ended = [e for e in apply(before, log[-1]).events if isinstance(e, GameEnded)][0]
    assert ended.scores == tuple(line.total for line in score_lines(state))
    assert ended.winners == winners(state)
