"""Rule cases for the Ghost Piece expansion. Each test names its rule and its source: seed 004
("Level Up rewards") and RULINGS "Ghost Piece expansion" / "Empty reserve"."""

from __future__ import annotations

import pytest
from positions import (
    assert_refused,
    card,
    count,
    game,
    play,
    play_events,
    with_cards,
    with_player,
    with_reserve,
)

from engine import GameState, Options, apply, new_game, parse_action
from engine.actions import GhostSplit
from engine.cards import Colour
from engine.errors import (
    ActionNotAvailableError,
    GhostError,
    PieceNotInSupplyError,
    ReserveEmptyError,
    UpgradeNotAllowedError,
)
from engine.events import GhostSplit as GhostSplitEvent
from engine.events import LevelledUp, LevelUpDeclined, LevelUpLost, PieceGained, PuzzleCompleted
from engine.expansions.ghost import DECOMPOSITIONS, ghost_tiling
from engine.legal import iter_legal_actions, legal_actions
from engine.pieces import Shape


def ghost_game(players: int = 2, seed: int = 1) -> GameState:
    return game(players, seed, ghost=True)


def test_thirty_ghost_pieces_ten_of_each_whatever_the_reserve_option() -> None:
    """RULINGS "Ghost Piece expansion": 30 ghost pieces, P, U and L, 10 of each whatever the
    ``reserve`` option."""
    for reserve in (10, 15):
        state = game(3, reserve=reserve, ghost=True)
        assert [count(state.reserve, code) for code in ("P5", "U5", "L5")] == [10, 10, 10]
    assert [count(game(3).reserve, code) for code in ("P5", "U5", "L5")] == [0, 0, 0]


def test_the_24_cards_join_the_decks_only_with_ghost() -> None:
    """RULINGS "Ghost Piece expansion": the extra white cards join the white deck; the extra
    black cards join the black pool before the player-count number is drawn."""
    base = game(2, seed=4)
    assert all(base.card(c).expansion is None for c in base.table.white_deck)
    ghost = ghost_game(2, seed=4)
    table = ghost.table
    white = [*table.white_row, *table.white_deck]
    assert len(white) == 44
    assert sum(ghost.card(c).expansion == "ghost" for c in white) == 12
    assert len([*table.black_row, *table.black_deck]) == 12  # 2 players: 12 of the 32-card pool


def test_solo_with_ghost_deals_from_the_combined_pool() -> None:
    state = new_game(Options(players=1, variant="solo", ghost=True), seed=3)
    assert count(state.reserve, "P5") == 10
    assert len(state.table.deck) + 9 == 25


def test_ghost_never_by_upgrade() -> None:
    """RULINGS "Ghost Piece expansion": a ghost piece is never gained by Upgrade."""
    state = with_player(ghost_game(), 0, supply="I4 O4")
    state = with_reserve(state, {"P5": 10, "U5": 10, "L5": 10, "1": 5})
    assert_refused(state, "upgrade I4 to P5", UpgradeNotAllowedError, "never reached by upgrade")
    assert not any(
        a.kind == "upgrade" and a.take.level == 5 for a in legal_actions(state)  # type: ignore[union-attr]
    )


def test_ghost_exchanged_down_by_upgrade_for_any_lower_level() -> None:
    """RULINGS "Ghost Piece expansion": a ghost can be exchanged down by Upgrade for a piece of
    any lower level — but not for another ghost."""
    state = with_player(ghost_game(), 0, supply="P5")
    after = play(state, "upgrade P5 to 1")
    assert count(after.players[0].supply, "1") == 1 and count(after.players[0].supply, "P5") == 0
    assert count(after.reserve, "P5") == count(state.reserve, "P5") + 1
    assert play(state, "upgrade P5 to T4").players[0].supply[Shape.T4.index] == 1
    assert_refused(state, "upgrade P5 to U5", UpgradeNotAllowedError, "level-5")


def test_ghost_is_placed_like_any_piece() -> None:
    """RULINGS "Ghost Piece expansion": otherwise an ordinary piece: it can be placed."""
    big = card("TG", "A1 B1 A2 B2 A3", points=2, reward="2")
    state = with_cards(ghost_game(), [big])
    state = with_player(state, 0, supply="P5", puzzles=["TG"])
    state, events = play_events(state, "place P5 on TG at A1 B1 A2 B2 A3")
    assert any(isinstance(e, PuzzleCompleted) for e in events)
    assert count(state.players[0].supply, "P5") == 1  # back from the completed card


# -- the Ghost action ------------------------------------------------------------------------------


def test_decompositions_tile_each_ghost_exactly() -> None:
    """RULINGS "Ghost action": two or more level 1–4 pieces that together tile its shape."""
    for ghost, sets in DECOMPOSITIONS.items():
        assert sets
        for pieces in sets:
            assert len(pieces) >= 2 and all(s.level <= 4 for s in pieces)
            tiling = ghost_tiling(ghost, pieces)
            assert tiling is not None
            assert sorted(s.index for s, _ in tiling) == sorted(s.index for s in pieces)
    assert (Shape.MONO, Shape.O4) in DECOMPOSITIONS[Shape.P5]
    assert (Shape.MONO, Shape.O4) not in DECOMPOSITIONS[Shape.U5]


def test_ghost_action_returns_the_ghost_and_takes_the_pieces() -> None:
    state = with_player(ghost_game(), 0, supply="P5")
    after, events = play_events(state, "ghost P5 to 1 O4")
    supply = after.players[0].supply
    assert count(supply, "P5") == 0 and count(supply, "1") == 1 and count(supply, "O4") == 1
    assert count(after.reserve, "P5") == count(state.reserve, "P5") + 1
    assert count(after.reserve, "O4") == count(state.reserve, "O4") - 1
    assert any(isinstance(e, GhostSplitEvent) for e in events)
    assert after.actions_left == 2


def test_a_decomposition_that_doesnt_tile_is_refused() -> None:
    """RULINGS "Ghost action": the pieces must tile the ghost's shape exactly."""
    state = with_player(ghost_game(), 0, supply="U5")
    assert_refused(state, "ghost U5 to 1 O4", GhostError, "do not tile")
    assert_refused(state, "ghost U5 to 2 2", GhostError, "do not tile")  # 4 cells, not 5


def test_ghost_action_takes_exactly_the_pieces_in_stock() -> None:
    """RULINGS "Ghost action": all must be in stock; no substitution."""
    state = with_player(ghost_game(), 0, supply="L5")
    empty = with_reserve(state, {"I4": 0, "1": 5, "2": 5, "I3": 5})
    assert_refused(empty, "ghost L5 to 1 I4", ReserveEmptyError, "no substitutes")
    assert GhostSplit(Shape.L5, (Shape.MONO, Shape.I4)) not in legal_actions(empty)


def test_ghost_action_needs_a_ghost_in_supply() -> None:
    state = with_player(ghost_game(), 0, supply="1 2")
    assert_refused(state, "ghost P5 to 1 O4", PieceNotInSupplyError, "no P5")
    assert_refused(state, "ghost O4 to 2 2", GhostError, "not a ghost")


def test_ghost_action_needs_the_expansion() -> None:
    state = with_player(game(2), 0, supply="P5", rebalance=False)
    assert_refused(state, "ghost P5 to 1 O4", ActionNotAvailableError, "Ghost Piece expansion")


def test_new_pieces_may_be_placed_at_once_one_per_puzzle_completions_at_the_end() -> None:
    """RULINGS "Ghost action": the new pieces may be placed at once, at most one per puzzle;
    completions are checked at the end of the action; the rest go to the supply."""
    state = with_player(ghost_game(), 0, supply="P5", puzzles=["TM", "TO"])
    action = parse_action("ghost P5 to 1 O4; 1 on TM at A1; O4 on TO at A1 B1 A2 B2")
    assert action in set(iter_legal_actions(state))
    after, events = play_events(state, action)
    completed = [e.card for e in events if isinstance(e, PuzzleCompleted)]
    assert completed == ["TM", "TO"]
    rewards = [e.shape for e in events if isinstance(e, PieceGained) and e.reason == "reward"]
    assert rewards == [Shape.DOMINO, Shape.T4]
    supply = after.players[0].supply
    assert count(supply, "1") == 1 and count(supply, "O4") == 1 and count(supply, "P5") == 0


def test_ghost_action_places_at_most_one_piece_per_puzzle() -> None:
    state = with_player(ghost_game(), 0, supply="P5", puzzles=["TB"])
    assert_refused(
        state, "ghost P5 to 2 I3; 2 on TB at A1 B1; I3 on TB at C1 C2 D2"
        .replace("C1 C2 D2", "A2 B2 C2"), GhostError, "at most one",
    )


def test_ghost_action_places_only_the_new_pieces() -> None:
    state = with_player(ghost_game(), 0, supply="P5 T4", puzzles=["TS"])
    assert_refused(state, "ghost P5 to 1 O4; T4 on TS at B1 C1 A2 B2".replace("T4", "S4"),
                   GhostError, "only the new pieces")


def test_ghost_action_not_in_finishing_touches() -> None:
    """RULINGS "Ghost action": not in Finishing Touches."""
    from engine import Phase
    from engine.errors import WrongPhaseError

    state = with_player(ghost_game(), 0, supply="P5", puzzles=["TM"])
    state = state.evolve(phase=Phase.FINISHING, actions_left=0)
    assert_refused(state, "ghost P5 to 1 O4", WrongPhaseError, "Finishing Touches")


# -- rewards and substitution ---------------------------------------------------------------------


def test_ghost_reward_is_a_ghost_piece() -> None:
    reward = card("TGR", "A1", points=0, reward="U5")
    state = with_player(with_cards(ghost_game(), [reward]), 0, supply="1", puzzles=["TGR"])
    after = play(state, "place 1 on TGR at A1")
    assert count(after.players[0].supply, "U5") == 1


def test_base_reward_substitution_never_creates_a_ghost() -> None:
    """RULINGS "Ghost Piece expansion": a base reward whose level is empty falls back within
    levels 1–4, never to a ghost."""
    from engine.rules import substitutes

    reserve = [0] * 12
    reserve[Shape.P5.index] = 10
    reserve[Shape.DOMINO.index] = 1
    assert substitutes(reserve, Shape.I4) == (Shape.DOMINO,)


def test_ghost_reward_falls_back_to_another_ghost_then_level_4() -> None:
    """RULINGS "Ghost Piece expansion": a ghost reward with that shape gone gives another ghost
    shape; with no ghost left, a level-4 piece (then lower)."""
    from engine.rules import substitutes

    reserve = [0] * 12
    reserve[Shape.U5.index] = 2
    reserve[Shape.I4.index] = 3
    assert substitutes(reserve, Shape.P5) == (Shape.U5,)
    reserve[Shape.MONO.index] = 4
    reserve[Shape.U5.index] = 0
    assert substitutes(reserve, Shape.P5) == (Shape.I4,)
    reserve[Shape.I4.index] = 0
    reserve[Shape.L3.index] = 1
    assert substitutes(reserve, Shape.P5) == (Shape.MONO, Shape.L3)


@pytest.mark.parametrize("code", ["1", "2", "I3", "L3", "I4", "O4", "T4", "L4", "S4"])
def test_level_up_rewards_parse(code: str) -> None:
    from engine.cards import LevelUp, parse_reward

    assert parse_reward("up") is LevelUp.UP and parse_reward("⇈") is LevelUp.DOUBLE
    assert parse_reward(code).value == code


# -- level-up rewards --------------------------------------------------------------------------------

UP = card("TUP", "A1 B1", points=3, reward="up", colour=Colour.BLACK)
UP2 = card("TUP2", "A1 B1 C1", points=3, reward="up2", colour=Colour.BLACK)


def _with_arrow_cards(state: GameState) -> GameState:
    return with_cards(state, [UP, UP2])


def _completing(supply: str, puzzles: list, reserve: dict[str, int] | None = None) -> GameState:
    state = _with_arrow_cards(ghost_game())
    state = with_player(state, 0, supply=supply, puzzles=puzzles)
    return state if reserve is None else with_reserve(state, reserve)


def test_the_freed_pieces_may_be_levelled_up() -> None:
    """Seed 004 "Level Up rewards": upgrade any pieces in your supply, including those you just
    took back from the completed puzzle. The arrow is a choice for the player (pending)."""
    state = _completing("2", ["TUP"])
    after, events = play_events(state, "place 2 on TUP at A1 B1")
    decision = after.decision_for(0)
    assert decision is not None and decision.kind == "level_up"
    assert "2 to I3" in decision.options and "2 to L3" in decision.options
    assert decision.options[-1] == "decline"
    assert legal_actions(after) == [parse_action(f"choose {o}") for o in decision.options]
    raised, events = play_events(after, "choose 2 to L3")
    assert count(raised.players[0].supply, "L3") == 1 and count(raised.players[0].supply, "2") == 0
    assert any(isinstance(e, LevelledUp) for e in events)
    assert raised.decision_for(0) is None


def test_double_arrow_on_one_piece_twice() -> None:
    """Seed 004: with the double arrow you may upgrade the same piece twice."""
    state = _completing("1 I3", ["TUP2"])
    after = play(state, "place I3 on TUP2 at A1 B1 C1")
    first = after.decision_for(0)
    assert first is not None and "1 to 2" in first.options
    after = play(after, "choose 1 to 2")
    second = after.decision_for(0)
    assert second is not None and "2 to I3" in second.options  # the piece just raised, again
    after = play(after, "choose 2 to I3")
    supply = after.players[0].supply
    assert count(supply, "1") == 0 and count(supply, "2") == 0 and count(supply, "I3") == 2
    assert after.decision_for(0) is None


def test_double_arrow_on_two_pieces_once_each() -> None:
    state = _completing("1 I3", ["TUP2"])
    after = play(state, "place I3 on TUP2 at A1 B1 C1", "choose 1 to 2", "choose I3 to O4")
    supply = after.players[0].supply
    assert count(supply, "2") == 1 and count(supply, "O4") == 1


def test_an_arrow_may_be_declined() -> None:
    state = _completing("2", ["TUP"])
    after, events = play_events(state, "place 2 on TUP at A1 B1", "choose decline")
    assert count(after.players[0].supply, "2") == 1
    assert any(isinstance(e, LevelUpDeclined) for e in events)


def test_a_skipped_turn_declines_a_waiting_arrow() -> None:
    """docs/rules.md (level-up rewards, engine ruling): a level-up is optional, so when the table
    skips the turn of a player who owes an answer to an arrow, the arrow is declined — nobody
    raises a piece for them."""
    state = _completing("2", ["TUP"])
    after = play(state, "place 2 on TUP at A1 B1")
    assert after.decision_for(0) is not None
    skipped, events = play_events(after, "skip")
    assert count(skipped.players[0].supply, "2") == 1
    assert count(skipped.players[0].supply, "I3") == 0 and count(skipped.players[0].supply, "L3") == 0
    assert any(isinstance(e, LevelUpDeclined) for e in events)
    assert skipped.decision_for(0) is None


def test_level_4_may_become_a_ghost() -> None:
    """RULINGS "Ghost Piece expansion": level 4 → a ghost is allowed by a level-up."""
    big = card("TUP4", "A1 B1 C1 D1", points=3, reward="up", colour=Colour.BLACK)
    state = with_player(with_cards(ghost_game(), [big]), 0, supply="I4", puzzles=["TUP4"])
    after = play(state, "place I4 on TUP4 at A1 B1 C1 D1")
    decision = after.decision_for(0)
    assert decision is not None and {"I4 to P5", "I4 to U5", "I4 to L5"} <= set(decision.options)
    after = play(after, "choose I4 to U5")
    assert count(after.players[0].supply, "U5") == 1


def test_an_arrow_with_no_possible_raise_is_lost() -> None:
    """RULINGS: an arrow goes exactly one level up; if no shape of that level is in stock for any
    piece you could raise, the arrow is lost (no question asked)."""
    state = _completing("2", ["TUP"], reserve={"1": 3, "2": 3})  # no level 3 at all
    after, events = play_events(state, "place 2 on TUP at A1 B1")
    assert after.decision_for(0) is None
    assert any(isinstance(e, LevelUpLost) for e in events)


def test_piece_rewards_first_then_the_arrows() -> None:
    """RULINGS: when one action completes several cards, all their pieces come back and all piece
    rewards are taken first; then the arrows, on any piece in the supply (the reward included)."""
    state = _completing("2 1", ["TUP", "TM"], reserve={"1": 3, "2": 3, "I3": 2, "L3": 2, "I4": 1})
    after, events = play_events(state, "master 2 on TUP at A1 B1; 1 on TM at A1")
    gained = [i for i, e in enumerate(events) if isinstance(e, PieceGained) and e.reason == "reward"]
    asked = [i for i, e in enumerate(events) if type(e).__name__ == "DecisionAwaited"]
    assert gained and asked and max(gained) < min(asked)
    decision = after.decision_for(0)
    assert decision is not None
    # TM rewarded a domino: both dominoes (freed and rewarded) may be raised.
    assert count(after.players[0].supply, "2") == 2 and "2 to I3" in decision.options


def test_a_turn_waits_for_its_arrow() -> None:
    """Engine rule (pending decisions): a turn never ends while its player has one pending."""
    state = _completing("2", ["TUP"]).evolve(actions_left=1)
    after = play(state, "place 2 on TUP at A1 B1")
    assert after.current == 0 and after.actions_left == 0 and after.decision_for(0) is not None
    after = play(after, "choose decline")
    assert after.current == 1


def test_a_holder_with_an_arrow_does_not_hold_up_the_other_holder() -> None:
    """Line Clear: pending decisions are per seat — the other marker holder plays on."""
    state = new_game(Options.for_players(5), seed=3)
    white, black = state.table.markers  # type: ignore[union-attr]
    state = with_player(_with_arrow_cards(state), white, supply="2", puzzles=["TUP"])
    state = apply(state, parse_action("place 2 on TUP at A1 B1"), player=white).state
    assert state.decision_for(white) is not None
    assert legal_actions(state, black) and not any(a.kind == "choose" for a in legal_actions(state, black))
    state = apply(state, parse_action("level1"), player=black).state
    state = apply(state, parse_action("choose decline"), player=white).state
    assert state.decision_for(white) is None


def test_a_ghost_is_placed_with_master_and_in_finishing_touches_too() -> None:
    """RULINGS "Ghost Piece expansion": "It is an ordinary piece otherwise: it can be placed (Place,
    Master, Finishing Touches)". In Finishing Touches it costs a point like any piece, and the card
    it completes scores with no reward and no pieces back."""
    from engine import Phase, score_lines

    big = card("TG", "A1 B1 A2 B2 A3", points=2, reward="2")
    state = with_player(with_cards(ghost_game(), [big]), 0, supply="P5 1", puzzles=["TG", "TM"])
    after = play(state, "master P5 on TG at A1 B1 A2 B2 A3; 1 on TM at A1")
    assert [d.card for d in after.players[0].completed] == ["TG", "TM"]
    assert count(after.players[0].supply, "P5") == 1

    finishing = with_player(with_cards(ghost_game(), [big]), 0, supply="P5", puzzles=["TG"])
    finishing = finishing.evolve(phase=Phase.FINISHING, actions_left=0, current=0)
    done, events = play_events(finishing, "place P5 on TG at A1 B1 A2 B2 A3")
    assert any(isinstance(e, PuzzleCompleted) and e.finishing for e in events)
    assert not any(isinstance(e, PieceGained) for e in events)
    assert count(done.players[0].supply, "P5") == 0 and count(done.players[0].supply, "2") == 0
    line = score_lines(done)[0]
    assert (line.completed_points, line.finishing_penalty) == (2, 1)


def test_an_arrow_never_skips_an_empty_level_as_upgrade_does() -> None:
    """RULINGS "Level-up rewards": "An arrow goes exactly one level up: if no shape of that level
    is in stock for any piece you could raise, the arrow is lost" — unlike Upgrade, which may skip
    an empty level ("If no piece one level higher is left, you may skip to the next level")."""
    state = _completing("2", ["TUP"], reserve={"1": 3, "2": 3, "I4": 2})  # level 3 empty, level 4 not
    after, events = play_events(state, "place 2 on TUP at A1 B1")
    assert after.decision_for(0) is None
    assert any(isinstance(e, LevelUpLost) for e in events)
    assert count(after.players[0].supply, "I4") == 0
    # The same domino may still be upgraded past the empty level by the Upgrade action.
    assert count(play(after, "upgrade 2 to I4").players[0].supply, "I4") == 1


def test_a_level_up_card_completed_in_finishing_touches_gives_no_arrow() -> None:
    """RULINGS "End of the game": cards completed in Finishing Touches "score but give no reward"
    — a level-up arrow is the card's reward (seed 004 "Level Up rewards"), so none is asked."""
    from engine import Phase, score_lines

    state = _completing("1 I3", ["TUP2", "TD"]).evolve(phase=Phase.FINISHING, actions_left=0, current=0)
    done, events = play_events(state, "place I3 on TUP2 at A1 B1 C1")
    assert any(isinstance(e, PuzzleCompleted) and e.finishing for e in events)
    assert done.pending == () and done.decision_for(0) is None
    assert not any(isinstance(e, LevelledUp | LevelUpLost) for e in events)
    assert count(done.players[0].supply, "1") == 1 and count(done.players[0].supply, "I3") == 0
    assert score_lines(done)[0].completed_points == 3


def test_a_ghost_action_is_not_the_turns_master() -> None:
    """RULINGS "Ghost action": "one of your actions, any number per turn" — its immediate
    placements (at most one per puzzle) are not the once-per-turn Master: a turn whose Master is
    used may still split ghosts and place the new pieces at once, twice over."""
    state = with_player(ghost_game(), 0, supply="P5 P5 1", puzzles=["TM", "TO", "TD"])
    state = play(state, "master 1 on TM at A1")
    assert state.master_used
    after = play(state, "ghost P5 to 1 O4; O4 on TO at A1 B1 A2 B2", "ghost P5 to 1 1 I3; 1 on TD at A1")
    assert [d.card for d in after.players[0].completed] == ["TM", "TO"]
    assert after.players[0].puzzle("TD") is not None and count(after.players[0].supply, "P5") == 0
