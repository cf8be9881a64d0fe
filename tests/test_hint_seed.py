"""A stable hint (issue 29, item 4): ``/projectl play hint`` seeds its search from the position
as the asker sees it (bot.core.play.thinking.position_seed), not from the game's seed and revision, so
the same position gives the same hint in any game and after an undo, and nothing hidden moves it."""

from __future__ import annotations

from test_policy_strong import _swap_hidden_piles, _with_hidden_piles

from bot.core.play.thinking import Hint, advice_hint, expert_hint, position_seed, public_position
from engine import GameState, Options, apply, new_game, parse_action, serialisation
from engine.policies import GreedyPolicy
from engine.policies.hidden import redeal
from engine.rng import Rng


def test_the_seed_is_the_visible_positions_and_stable() -> None:
    state = new_game(Options(players=2), 5)
    seed = position_seed(state, 0)
    assert seed == position_seed(serialisation.loads(serialisation.dumps(state)), 0)  # a reload
    assert seed == position_seed(state.evolve(rng_state=state.rng_state + 1), 0)  # the game's rng
    assert seed == position_seed(redeal(state, Rng(99), viewer=0), 0)  # another deck order
    later = apply(state, GreedyPolicy(1).choose(state)).state
    assert position_seed(later, 0) != seed  # another position, another seed
    assert 0 <= seed < 2**63


def test_a_face_down_score_pile_moves_neither_the_seed_nor_the_hint() -> None:
    state = _with_hidden_piles(Options(players=2, known_scores=False))[6]
    other = _swap_hidden_piles(state)
    assert other.players != state.players
    seat = state.current
    assert position_seed(state, seat) == position_seed(other, seat)
    assert (expert_hint(serialisation.dumps(state), position_seed(state, seat))
            == expert_hint(serialisation.dumps(other), position_seed(other, seat)))


def test_the_same_visible_position_in_another_game_gives_the_same_hint() -> None:
    """The hint plans from the public position (bot.core.play.thinking.public_position): another game's
    random state or deck order, which the asker cannot see, changes neither the hint nor its why."""
    state = new_game(Options(players=2), 5)
    for _ in range(4):
        state = apply(state, GreedyPolicy(2).choose(state)).state
    seat = state.current
    other = redeal(state, Rng(99), viewer=seat).evolve(rng_state=state.rng_state + 12345)
    assert other != state and public_position(other, seat) == public_position(state, seat)

    def hint(position: GameState) -> Hint:
        public = serialisation.dumps(public_position(position, seat))
        return expert_hint(public, position_seed(position, seat))

    assert hint(state) == hint(other)


def test_the_hint_comes_from_the_strongest_search_at_every_table() -> None:
    """The Expert's reading at a multiplayer table and in Solo (where it now beats the mastermind
    far more often than Strong: docs/ai.md), the same as its own search gives."""
    two = new_game(Options(players=2), 5)
    solo = new_game(Options(players=1, variant="solo"), 5)
    for state in (two, solo):
        hint = advice_hint(serialisation.dumps(state), 3)
        assert hint.wins is None  # the Expert: no rollouts to win
        assert hint == expert_hint(serialisation.dumps(state), 3)


def test_face_down_finesse_tiles_move_neither_the_seed_nor_the_hint() -> None:
    """Finesse's first two tiles lie face down and leave play unnamed: which tiles they are is
    hidden, so two games that differ only there give the same public position, seed and hint."""
    from engine.expansions import finesse

    state = new_game(Options(players=2, finesse=True), 5)
    for _ in range(2):
        state = apply(state, GreedyPolicy(2).choose(state)).state
    fv = finesse.view(state)
    assert fv is not None and fv.face_down == 2
    unused = [t for t in finesse.TILES if t not in fv.row]
    ext = dict(state.ext)
    ext["finesse"] = {**ext["finesse"], "row": [*unused[-2:], *fv.row[2:]]}
    other = state.evolve(ext=ext)
    assert finesse.view(other) != fv
    seat = state.current
    assert public_position(other, seat) == public_position(state, seat)
    assert position_seed(other, seat) == position_seed(state, seat)
    shown = finesse.view(public_position(state, seat))
    assert shown is not None and shown.row[2:] == fv.row[2:] and len(shown.row) == len(fv.row)

    def hint(position: GameState) -> Hint:
        public = serialisation.dumps(public_position(position, seat))
        return advice_hint(public, position_seed(position, seat))

    assert hint(state) == hint(other)
    assert apply(public_position(state, seat), parse_action(hint(state).action))  # plays on the stand-ins
