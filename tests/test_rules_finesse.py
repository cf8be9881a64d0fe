"""Rule cases for the Finesse expansion. Sources: seed 004 and RULINGS "Finesse expansion"
(the 30 tiles, face-down tiles, credits, Insert, the end, Finesse Solo and Line Clear)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from positions import (
    assert_refused,
    game,
    play,
    play_events,
    stuck,
    with_cards,
    with_player,
    with_rows,
    with_solo_table,
)

from engine import GameState, Options, apply, new_game, parse_action, serialisation
from engine.actions import EndTurn, Insert, Pass, TakeLevelOne
from engine.cards import Colour, PuzzleCard, parse_reward
from engine.errors import IllegalActionError, WrongPhaseError
from engine.events import (
    ActionInserted,
    CreditEarned,
    CreditPaidFinishing,
    CreditReturned,
    CreditsActivated,
    EndTriggered,
    FinesseTileRemoved,
    FinishingStarted,
    LevelledUp,
    MastermindTook,
)
from engine.expansions.finesse import BANK, TETROMINOES, TILES, pink_reasons, view
from engine.game import final_round, winners
from engine.legal import legal_actions, master_options
from engine.pieces import PLACEMENTS, Shape
from engine.pieces import mask_to_text as mask_text
from engine.state import Phase
from engine.variants.solo import column_of

FILLER = ["C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def shape_card(shape: Shape, card_id: str | None = None, points: int = 2) -> PuzzleCard:
    """A white card whose recess is exactly one ``shape`` (placing it completes the card)."""
    return PuzzleCard(card_id or f"X{shape.value}", Colour.WHITE, points, parse_reward("1"),
                      PLACEMENTS[shape][0])


def place_text(shape: Shape, card_id: str | None = None) -> str:
    from engine.pieces import mask_to_text

    return f"place {shape.value} on {card_id or 'X' + shape.value} at {mask_to_text(PLACEMENTS[shape][0])}"


def finesse(state: GameState, tile: str | None = None, *, row: list[str] | None = None,
            bank: int = BANK, active: list[int] | None = None,
            inactive: list[int] | None = None) -> GameState:
    """The same state with this Finesse data: ``tile`` live (two tiles already removed)."""
    n = len(state.players)
    if row is None:
        row = [tile or "C1", *[t for t in FILLER if t != tile]][:8]
    data: dict[str, Any] = {
        "bank": bank, "row": row, "active": active or [0] * n, "inactive": inactive or [0] * n,
    }
    return state.evolve(ext={**state.ext, "finesse": data})


def fgame(players: int = 2, seed: int = 1, **options: object) -> GameState:
    return game(players, seed, finesse=True, **options)


def earned(events: list[Any]) -> list[CreditEarned]:
    return [e for e in events if isinstance(e, CreditEarned)]


def with_shape_puzzles(state: GameState, seat: int, shapes: list[Shape], supply: str) -> GameState:
    cards = [shape_card(s) for s in shapes]
    state = with_cards(state, cards)
    return with_player(state, seat, supply=supply, puzzles=[c.id for c in cards])


# -- components ------------------------------------------------------------------------------------


def test_thirty_tiles_ten_per_set_as_the_rulings_list_them() -> None:
    """RULINGS: Set A the 10 triples (published {I,L,O} and {I,L,S}), Set B the 10 pairs, Set C
    ten rule tiles; pink A, blue B (the Finesse Ambassador Pack's six come on top, by option)."""
    base = [t for t, tile in TILES.items() if tile.pack is None]
    assert len(base) == 30
    sets = Counter(t[0] for t in base)
    assert sets == {"A": 10, "B": 10, "C": 10}
    triples = {frozenset(TILES[f"A{i}"].shapes) for i in range(1, 11)}
    pairs = {frozenset(TILES[f"B{i}"].shapes) for i in range(1, 11)}
    assert len(triples) == 10 and all(len(t) == 3 for t in triples)
    assert len(pairs) == 10 and all(len(p) == 2 for p in pairs)
    assert TILES["A1"].label == "I, L, O" and TILES["A2"].label == "I, L, S"
    assert {TILES[f"A{i}"].colour for i in range(1, 11)} == {"pink"}
    assert {TILES[f"B{i}"].colour for i in range(1, 11)} == {"blue"}
    assert [TILES[f"C{i}"].colour for i in range(1, 11)] == [
        "blue", "pink", "pink", "pink", "blue", "blue", "pink", "pink", "pink", "pink"]
    assert all(t.text.endswith(".") for t in TILES.values())


def test_setup_bank_of_35_and_a_seeded_row_of_2a_2b_6c() -> None:
    state = fgame(3, seed=5)
    fv = view(state)
    assert fv is not None
    assert fv.bank == 35 and fv.active == (0, 0, 0) and fv.inactive == (0, 0, 0)
    assert len(fv.row) == 10 and len(set(fv.row)) == 10
    assert Counter(t[0] for t in fv.row) == {"A": 2, "B": 2, "C": 6}
    assert fv.face_down == 2 and fv.live is None
    assert view(fgame(3, seed=5)) == fv
    assert any(view(fgame(3, seed=s)).row != fv.row for s in range(6, 12))  # type: ignore[union-attr]
    assert view(game(3)) is None
    # Finesse draws after the base deal: the same seed deals the same puzzles.
    assert fgame(3, seed=5).table == game(3, seed=5).table


def test_options_json_writes_finesse_only_when_on() -> None:
    assert "finesse" not in serialisation.options_to_json(Options(players=2))
    on = Options(players=2, finesse=True)
    assert serialisation.options_from_json(serialisation.options_to_json(on)) == on


# -- the row ----------------------------------------------------------------------------------------


def test_face_down_tiles_pay_nothing_in_rounds_one_and_two() -> None:
    """RULINGS: face-down tiles are never revealed; no Finesse in rounds 1–2."""
    state = fgame(2)
    state = finesse(state, row=["C4", "C4", *FILLER[:8]][:10])
    _, events = play_events(state, "take white 1")
    assert earned(events) == []
    state = finesse(state, row=["C2", "C4", *FILLER][:9])  # one removed: tile 2 still face down
    _, events = play_events(state, "take white 1")
    assert earned(events) == []


def test_the_leftmost_tile_leaves_at_the_end_of_each_round_and_tile_k_is_live_in_round_k() -> None:
    state = fgame(2, seed=3)
    row = view(state).row  # type: ignore[union-attr]
    for rnd in range(1, 4):
        assert state.round == rnd
        fv = view(state)
        assert fv is not None and fv.row == row[rnd - 1:]
        assert (fv.live.id if fv.live else None) == (row[rnd - 1] if rnd >= 3 else None)
        for _ in range(2):
            state = spend_turn(state)
    fv = view(state)
    assert fv is not None and fv.live is not None and fv.live.id == row[3]


def test_a_face_down_tile_is_never_named_even_when_it_leaves_play() -> None:
    """RULINGS: face-down tiles are never revealed. The two that leave at the end of rounds 1–2
    leave unnamed (``tile`` None, "A face-down Finesse tile left play."); the third, face up, is
    named. No event of those rounds carries a face-down tile's id in any field."""
    state = fgame(2, seed=3)
    row = view(state).row  # type: ignore[union-attr]
    hidden = set(row[:2])
    events = []
    while state.round <= 3 and state.phase is Phase.PLAY:
        seat, turn = state.current, state.turn
        while state.turn == turn and state.phase is Phase.PLAY and state.current == seat:
            legal = legal_actions(state)
            action = EndTurn() if EndTurn() in legal else (
                TakeLevelOne() if TakeLevelOne() in legal else legal[0])
            outcome = apply(state, action)
            state = outcome.state
            events.extend(outcome.events)
    removed = [e for e in events if isinstance(e, FinesseTileRemoved)]
    assert [e.tile for e in removed] == [None, None, row[2]]
    assert removed[0].describe(["A", "B"]) == "A face-down Finesse tile left play."
    assert removed[1].describe(["A", "B"]) == (
        f"A face-down Finesse tile left play. Live now: {row[2]} ({TILES[row[2]].label})."
    )
    for event in events:
        for field in dataclasses.fields(event):
            value = getattr(event, field.name)
            if isinstance(value, str):
                assert value.split(" (")[0] not in hidden, event


def spend_turn(state: GameState) -> GameState:
    """Take level-1 pieces (or the first legal action) until the turn passes; end a held turn."""
    seat, turn = state.current, state.turn
    while state.turn == turn and state.phase is Phase.PLAY and state.current == seat:
        legal = legal_actions(state)
        action = EndTurn() if EndTurn() in legal else (
            TakeLevelOne() if TakeLevelOne() in legal else legal[0])
        state = apply(state, action).state
    return state


def test_the_game_ends_after_round_ten_straight_to_finishing_touches() -> None:
    """RULINGS: when the last tile is removed (end of round 10) play ends at once."""
    state = fgame(2, seed=2)
    state = finesse(state, row=["C1"]).evolve(round=10)
    state = spend_turn(state)
    assert state.phase is Phase.PLAY and view(state).row == ("C1",)  # type: ignore[union-attr]
    state = play(state, "level1", "level1")
    last = apply(state, TakeLevelOne())
    kinds = [type(e) for e in last.events]
    assert FinesseTileRemoved in kinds and FinishingStarted in kinds
    assert last.state.phase is not Phase.PLAY
    assert view(last.state).row == ()  # type: ignore[union-attr]


# -- Set A and Set B by their depicted pieces -------------------------------------------------------


@pytest.mark.parametrize("tile", [f"A{i}" for i in range(1, 11)])
def test_set_a_pays_at_once_per_depicted_piece_placed(tile: str) -> None:
    depicted = TILES[tile].shapes
    for shape in TETROMINOES:
        state = finesse(fgame(2), tile)
        state = with_shape_puzzles(state, state.current, [shape], shape.value)
        after, events = play_events(state, place_text(shape))
        got = earned(events)
        assert len(got) == (1 if shape in depicted else 0), (tile, shape)
        if got:
            assert got[0].reason == f"placed {shape.with_article}"
            assert got[0].tile == TILES[tile].label
            fv = view(after)
            assert fv is not None and fv.inactive[state.current] == 1 and fv.active[state.current] == 0
            assert fv.bank == BANK - 1


@pytest.mark.parametrize("tile", [f"B{i}" for i in range(1, 11)])
def test_set_b_pays_at_the_end_of_the_turn_per_depicted_piece_owned(tile: str) -> None:
    """Supply or unfinished puzzles count; the pieces a blue tile pays for turn active at once
    with the rest (the blue tile pays first)."""
    state = finesse(fgame(2), tile)
    seat = state.current
    state = with_player(state, seat, supply="I4 I4 L4 O4 S4")
    owned = {Shape.I4: 2, Shape.L4: 1, Shape.O4: 1, Shape.S4: 1, Shape.T4: 0}
    expected = sum(owned[s] for s in TILES[tile].shapes)
    after, events = play_events(state, "level1", "level1", "level1")
    assert len(earned(events)) == expected, tile
    fv = view(after)
    assert fv is not None and fv.active[seat] == expected and fv.inactive[seat] == 0


def test_set_b_counts_pieces_on_unfinished_puzzles() -> None:
    state = finesse(fgame(2), "B1")  # I and L
    seat = state.current
    state = with_player(state, seat, supply="L4", puzzles=[("TB", [("I4", "A1 B1 C1 D1")])])
    _, events = play_events(state, "level1", "level1", "level1")
    assert sorted(e.reason for e in earned(events)) == [
        f"owns {Shape.I4.with_article}", f"owns {Shape.L4.with_article}"]


# -- Set C --------------------------------------------------------------------------------------------


def test_c1_blue_one_per_unfinished_puzzle() -> None:
    state = finesse(fgame(2), "C1")
    seat = state.current
    state = with_player(state, seat, supply="", puzzles=["TD", "TO"])
    _, events = play_events(state, "level1", "level1", "level1")
    assert len(earned(events)) == 2


def test_c2_pink_one_per_piece_placed_with_master_only() -> None:
    state = finesse(fgame(2), "C2")
    seat = state.current
    state = with_player(state, seat, supply="2 2 2", puzzles=["TD", "TO", "TI"])
    _, events = play_events(state, "master 2 on TD at A1 B1; 2 on TO at A1 B1")
    assert [e.reason for e in earned(events)] == [
        f"placed {Shape.DOMINO.with_article} with Master"] * 2
    _, events = play_events(state, "place 2 on TD at A1 B1")
    assert earned(events) == []


def test_c3_pink_one_per_completed_puzzle() -> None:
    state = finesse(fgame(2), "C3")
    state = with_player(state, state.current, supply="2 2", puzzles=["TD", ("TO", [("2", "A1 B1")])])
    _, events = play_events(state, "master 2 on TD at A1 B1; 2 on TO at A2 B2")
    assert sorted(e.reason for e in earned(events)) == ["completed TD", "completed TO"]


def test_c4_pink_one_per_puzzle_taken_from_the_row_or_the_deck() -> None:
    state = finesse(fgame(2), "C4")
    _, events = play_events(state, "take white 1", "draw black")
    assert len(earned(events)) == 2 and all(e.reason.startswith("took ") for e in earned(events))


def test_c5_blue_one_per_small_type_owned() -> None:
    state = finesse(fgame(2), "C5")
    seat = state.current
    state = with_player(state, seat, supply="2 2 L3", puzzles=[("TB", [("I4", "A1 B1 C1 D1")])])
    _, events = play_events(state, "upgrade L3 to I4", "level1", "level1")
    # End of turn: monomino (taken), domino; the L3 was upgraded away; no I3.
    assert len(earned(events)) == 2


def test_c6_blue_one_per_tetromino_type_owned() -> None:
    state = finesse(fgame(2), "C6")
    seat = state.current
    state = with_player(state, seat, supply="I4 I4 O4", puzzles=[("TB", [("L4", "A1 A2 B2 C2")])])
    _, events = play_events(state, "level1", "level1", "level1")
    assert sorted(e.reason for e in earned(events)) == sorted(
        f"owns {s.with_article}" for s in (Shape.I4, Shape.O4, Shape.L4))


def test_c7_and_c8_pink_per_placed_small_piece_or_tetromino() -> None:
    for tile, paid in (("C7", {Shape.DOMINO, Shape.I3}), ("C8", {Shape.O4})):
        for shape in (Shape.DOMINO, Shape.I3, Shape.O4):
            state = finesse(fgame(2), tile)
            state = with_shape_puzzles(state, state.current, [shape], shape.value)
            _, events = play_events(state, place_text(shape))
            assert len(earned(events)) == (shape in paid), (tile, shape)


@pytest.mark.parametrize("tile", ["C9", "C10"])
def test_c9_c10_pink_per_upgrade_action_level_one_counts(tile: str) -> None:
    state = finesse(fgame(2), tile)
    state = with_player(state, state.current, supply="2")
    _, events = play_events(state, "upgrade 2 to I3", "level1")
    assert [e.reason for e in earned(events)] == [
        f"upgraded to {Shape.I3.with_article}", "took a level-1 piece (an Upgrade)"]
    # With the Ghost Piece expansion, each level-up arrow actually used pays one more.
    reasons = pink_reasons(TILES[tile], 0, parse_action("choose 2 to I3"),
                           [LevelledUp(0, Shape.DOMINO, Shape.I3), LevelledUp(1, Shape.MONO, Shape.DOMINO)])
    assert reasons == [f"levelled up to {Shape.I3.with_article}"]


def test_upgrade_tile_pays_one_per_arrow_used_two_for_a_double_arrow_in_play() -> None:
    """Seed 004 "Using Upgrade": with Ghost Piece, "1 Credit for a single arrow (↑) and 2 Credits
    for a double arrow (⇈)"; RULINGS: "+1 per arrow actually used (⇈ = up to 2)". Played through
    the engine: the arrows are answers to the completion, each paying as it is used."""
    up2 = PuzzleCard("TUP2", Colour.BLACK, 3, parse_reward("up2"), PLACEMENTS[Shape.I3][0])
    state = finesse(game(2, ghost=True, finesse=True), "C9")
    seat = state.current
    state = with_player(with_cards(state, [up2]), seat, supply="1 I3", puzzles=["TUP2"])
    placed = play(state, f"place I3 on TUP2 at {mask_text(PLACEMENTS[Shape.I3][0])}")
    both, events = play_events(placed, "choose 1 to 2", "choose 2 to I3")
    assert [e.reason for e in earned(events)] == [
        f"levelled up to {Shape.DOMINO.with_article}", f"levelled up to {Shape.I3.with_article}"]
    assert view(both).inactive[seat] == 2  # type: ignore[union-attr]
    _, events = play_events(placed, "choose 1 to 2", "choose decline")
    assert len(earned(events)) == 1  # a declined arrow pays nothing


def test_finishing_touches_never_earn_credits() -> None:
    state = finesse(fgame(2), "C8").evolve(phase=Phase.FINISHING)
    state = with_shape_puzzles(state, state.current, [Shape.O4], "O4")
    _, events = play_events(state, place_text(Shape.O4))
    assert earned(events) == []


# -- credits ------------------------------------------------------------------------------------------


def test_pink_credits_are_inactive_until_the_end_of_the_turn() -> None:
    state = finesse(fgame(2), "C4")
    seat = state.current
    state, events = play_events(state, "take white 1")
    assert view(state).inactive[seat] == 1 and view(state).active[seat] == 0  # type: ignore[union-attr]
    assert Insert() not in legal_actions(state)
    state, events = play_events(state, "level1", "level1")
    assert any(isinstance(e, CreditsActivated) and e.count == 1 for e in events)
    assert view(state).active[seat] == 1 and view(state).inactive[seat] == 0  # type: ignore[union-attr]


def test_empty_bank_the_players_tied_for_most_return_one_inactive_first() -> None:
    state = fgame(3)
    seat = state.current
    others = [s for s in range(3) if s != seat]
    active, inactive = [0, 0, 0], [0, 0, 0]
    active[others[0]], inactive[others[0]] = 2, 1
    active[others[1]] = 3
    active[seat] = 1
    state = finesse(state, "C4", bank=0, active=active, inactive=inactive)
    after, events = play_events(state, "take white 1")
    returned = [e for e in events if isinstance(e, CreditReturned)]
    assert [(e.seat, e.inactive) for e in returned] == [
        (s, s == others[0]) for s in sorted(others)]
    fv = view(after)
    assert fv is not None and fv.bank == 1
    assert fv.credits(others[0]) == 2 and fv.inactive[others[0]] == 0
    assert fv.credits(others[1]) == 2 and fv.inactive[seat] == 1


# -- Insert -----------------------------------------------------------------------------------------


def test_insert_pays_two_active_credits_for_an_extra_action_even_before_the_first() -> None:
    state = finesse(fgame(2), "C1", active=[2, 2])
    seat = state.current
    assert Insert() in legal_actions(state)
    after, events = play_events(state, "insert")
    assert after.actions_left == 4 and after.current == seat
    assert any(isinstance(e, ActionInserted) for e in events)
    fv = view(after)
    assert fv is not None and fv.active[seat] == 0 and fv.bank == BANK + 2
    assert parse_action("insert") == Insert() and str(Insert()) == "insert"
    assert parse_action("End Turn") == EndTurn() and str(EndTurn()) == "end turn"


def test_a_turn_waits_after_its_third_action_while_an_insert_is_affordable() -> None:
    state = finesse(fgame(2), "C1", active=[4, 4])
    seat = state.current
    state = play(state, "level1", "level1", "level1")
    assert state.current == seat and state.actions_left == 0 and seat in state.held
    assert legal_actions(state) == [Insert(), EndTurn()]
    assert master_options(state) is None
    assert_refused(state, "level1", IllegalActionError, "insert", "end your turn")
    state = play(state, "insert", "level1")  # after the third action too, and again
    assert seat in state.held and state.actions_left == 0
    state = play(state, "end turn")
    assert state.current != seat and not state.held
    assert view(state).active[seat] == 2  # type: ignore[union-attr]


def test_end_turn_is_refused_while_actions_remain() -> None:
    state = finesse(fgame(2), "C1", active=[2, 2])
    assert_refused(state, "end turn", IllegalActionError, "3 actions")


def test_a_player_who_can_do_nothing_may_pass_even_with_credits_for_an_insert() -> None:
    """Pass is for when no action is possible (engine ruling, docs/rules.md); Insert spends none of
    the turn's actions, so it does not count against passing: a stuck player is not made to burn
    credits on Inserts they cannot use before they may pass."""
    state = finesse(stuck(fgame(2)), "C1", active=[4, 4])
    assert Pass() in legal_actions(state) and Insert() in legal_actions(state)
    after = play(state, "pass", "pass", "pass")
    assert view(after).active[0] == 4  # type: ignore[union-attr]


def test_end_turn_at_a_table_without_finesse_says_no_turn_is_held_there() -> None:
    """Only an expansion with free actions (Finesse's Insert) holds a turn open: elsewhere 'end
    turn' is refused as having no use at that table, not as 'an Insert could still follow'."""
    for state in (new_game(Options(players=2), seed=1), new_game(Options(players=2, ghost=True), seed=1)):
        message = assert_refused(state, "end turn", IllegalActionError, "ends by itself", "Finesse")
        assert "still have" not in message


def test_without_two_active_credits_no_insert_and_the_turn_ends_by_itself() -> None:
    state = finesse(fgame(2), "C1", active=[1, 1], inactive=[3, 3])
    seat = state.current
    assert_refused(state, "insert", IllegalActionError, "2 active credits", "1 active")
    state = play(state, "level1", "level1", "level1")
    assert state.current != seat and not state.held


def test_master_stays_once_per_turn_with_insert() -> None:
    state = finesse(fgame(2), "C1", active=[2, 2])
    state = with_player(state, state.current, supply="2 2", puzzles=["TD", "TO"])
    state = play(state, "master 2 on TD at A1 B1", "insert")
    assert state.master_used and master_options(state) is None
    assert_refused(state, "master 2 on TO at A1 B1", IllegalActionError, "already used Master")


def test_no_insert_in_finishing_touches() -> None:
    state = finesse(fgame(2), "C1", active=[2, 2]).evolve(phase=Phase.FINISHING)
    state = with_player(state, state.current, supply="2", puzzles=["TD"])
    assert Insert() not in legal_actions(state)
    assert_refused(state, "insert", WrongPhaseError)


# -- the end ----------------------------------------------------------------------------------------


def test_finishing_touches_are_paid_with_credits_instead_of_points() -> None:
    state = finesse(fgame(2), "C1", active=[1, 0], inactive=[0, 0], bank=30)
    state = state.evolve(phase=Phase.FINISHING, current=0)
    state = with_player(state, 0, supply="2 2", puzzles=["TD", "TD2"])
    state, events = play_events(state, "place 2 on TD at A1 B1")
    assert any(isinstance(e, CreditPaidFinishing) for e in events)
    assert state.players[0].finishing_pieces == 0
    assert view(state).credits(0) == 0 and view(state).bank == 31  # type: ignore[union-attr]
    state, events = play_events(state, "place 2 on TD2 at C3 C4")
    assert not any(isinstance(e, CreditPaidFinishing) for e in events)
    assert state.players[0].finishing_pieces == 1


def test_ties_go_to_most_credits_first() -> None:
    state = finesse(fgame(2), "C1", active=[1, 3]).evolve(phase=Phase.OVER)
    assert winners(state) == (1,)
    state = finesse(fgame(2), "C1", active=[2, 2]).evolve(phase=Phase.OVER)
    assert winners(state) == (0, 1)


# -- Finesse Solo ---------------------------------------------------------------------------------


def test_finesse_solo_deals_20_white_and_15_black() -> None:
    state = game(1, finesse=True)
    table = state.table
    ids = [*table.grid, *table.deck]  # type: ignore[union-attr]
    colours = Counter(state.card(c).colour for c in ids if c is not None)
    assert colours == {Colour.WHITE: 20, Colour.BLACK: 15}


def test_finesse_solo_mastermind_takes_two_from_one_column_and_earns_nothing() -> None:
    state = game(1, finesse=True)
    grid = list(state.table.grid)  # type: ignore[union-attr]
    points = {c: state.card(c).points for c in grid if c is not None}
    state = with_solo_table(state, locks=(0, 2, 2), mastermind_supply=0)
    state = finesse(state, "C1")
    after, events = play_events(state, "level1", "level1", "level1")
    took = [e for e in events if isinstance(e, MastermindTook)]
    assert len(took) == 2
    first, second = took
    column = [p for p in range(1, 10) if column_of(p) == 1]  # the only unlocked column
    assert column_of(first.position) == column_of(second.position) == 1
    assert first.points == max(points[grid[p - 1]] for p in column)
    rest = [(points[grid[p - 1]], p) for p in column if p != first.position]
    assert (second.points, second.position) == min(rest)
    assert not any(isinstance(e, CreditEarned) and e.seat != 0 for e in events)


def test_finesse_solo_all_columns_locked_only_unlocks() -> None:
    state = with_solo_table(game(1, finesse=True), locks=(1, 1, 2), mastermind_supply=0)
    after, events = play_events(finesse(state, "C1"), "level1", "level1", "level1")
    assert not any(isinstance(e, MastermindTook) for e in events)
    assert after.table.locks == (0, 0, 1)  # type: ignore[union-attr]


def test_finesse_solo_a_tie_goes_to_the_mastermind_whatever_your_credits() -> None:
    """RULINGS "Finesse Solo": "a tie goes to the mastermind (standard Solo scoring)" — the
    multiplayer Finesse tie-break (most credits first) does not apply against the mastermind."""
    state = game(1, finesse=True)
    black = [c for c in state.cards.values() if c.colour is Colour.BLACK and c.points == 4][:2]
    state = with_player(state, 0, completed=[black[0].id], puzzles=[])
    state = with_solo_table(state, mastermind_pile=[black[1].id])
    state = finesse(state, "C1", active=[5]).evolve(phase=Phase.OVER)
    assert winners(state) == (-1,)


# -- Finesse with Line Clear -----------------------------------------------------------------------


def test_line_clear_a_round_and_a_tile_pass_each_time_the_first_player_gets_the_white_marker() -> None:
    state = new_game(Options.for_players(5, finesse=True), seed=4)
    start_row = view(state).row  # type: ignore[union-attr]
    while state.round == 1:
        seat = state.acting_seats[0]
        legal = legal_actions(state, seat)
        action = EndTurn() if EndTurn() in legal else (
            TakeLevelOne() if TakeLevelOne() in legal else legal[0])
        state = apply(state, action, player=seat).state
    assert view(state).row == start_row[1:]  # type: ignore[union-attr]
    assert state.table.markers[0] == state.first_player  # type: ignore[union-attr]


def test_line_clear_the_tenth_tile_ends_play_when_the_first_player_gets_the_white_marker() -> None:
    """Seed 004 "Finesse expansion additions" (Line Clear): a new round starts when the first
    player gets the White marker again; RULINGS "End": the last tile leaves at the end of round
    10 and play ends at once, straight to Finishing Touches — with no extra round."""
    state = new_game(Options.for_players(5, finesse=True), seed=4)
    state = finesse(state, row=["C1"]).evolve(round=10)
    while state.phase is Phase.PLAY:
        seat = state.acting_seats[0]
        legal = legal_actions(state, seat)
        action = EndTurn() if EndTurn() in legal else (
            TakeLevelOne() if TakeLevelOne() in legal else legal[0])
        outcome = apply(state, action, player=seat)
        state = outcome.state
    assert any(isinstance(e, FinesseTileRemoved) for e in outcome.events)
    assert FinishingStarted() in outcome.events and state.round == 10
    assert state.table.markers[0] == state.first_player  # type: ignore[union-attr]
    assert view(state).row == ()  # type: ignore[union-attr]


def test_line_clear_a_held_turn_keeps_its_seat_acting() -> None:
    state = new_game(Options.for_players(5, finesse=True), seed=4)
    white, black = state.acting_seats
    active = [0] * 5
    active[white] = 2
    state = finesse(state, "C1", active=active)
    for _ in range(3):
        state = apply(state, TakeLevelOne(), player=white).state
    assert white in state.acting_seats and white in state.held
    assert legal_actions(state, white) == [Insert(), EndTurn()]
    state = apply(state, EndTurn(), player=white).state
    assert white not in state.acting_seats and black in state.acting_seats


def test_state_with_finesse_round_trips_through_json() -> None:
    state = finesse(fgame(2), "C1", active=[4, 4])
    state = play(state, "level1", "level1", "level1")
    assert state.held
    assert serialisation.loads(serialisation.dumps(state)) == state


# -- general cases: the end, the bank, the second take ----------------------------------------------


def test_the_tenth_tile_ends_play_even_when_the_base_end_would_play_a_round_more() -> None:
    """Seed: the game ends whichever way comes first. The black deck ran out in round 10, so the
    base end would play round 11 too; the last tile leaving at the end of round 10 ends it."""
    state = finesse(fgame(2, seed=2), row=["C1"]).evolve(round=10, last_round=11)
    state = spend_turn(spend_turn(state))
    assert state.phase is not Phase.PLAY and state.round == 10


def test_the_end_triggered_in_round_ten_announces_round_ten_as_the_last() -> None:
    """Seed: the game may end "in one of two ways (whichever happens first)": the black deck
    running out ("finish the current round and then play one additional round") or "when the
    last Finesse tile is removed (at the end of the 10th round)". A trigger in round 10 therefore
    leaves round 10 as the last: the players are told so, not that round 11 follows."""
    state = finesse(fgame(2, seed=2), row=["C1"]).evolve(round=10)
    table = state.table
    state = with_rows(state, black_deck=list(table.black_deck[:1]))  # type: ignore[union-attr]
    after, events = play_events(state, "draw black")
    triggered = [e for e in events if isinstance(e, EndTriggered)]
    assert [e.last_round for e in triggered] == [10]
    assert triggered[0].describe(["Ann", "Bob"]) == "The end of the game is triggered: round 10 is the last."
    assert final_round(after) == 10
    after = spend_turn(spend_turn(after))
    assert after.phase is not Phase.PLAY and after.round == 10


def test_empty_bank_the_gainer_alone_with_most_returns_one_then_takes_it() -> None:
    """Seed: the player (or players) with the most credits return 1, then you take yours — even
    when that player is you: an inactive one goes back first, and the bank stays empty."""
    state = fgame(2)
    seat = state.current
    active, inactive = [0, 0], [0, 0]
    active[seat], inactive[seat] = 3, 1
    active[1 - seat] = 2
    state = finesse(state, "C4", bank=0, active=active, inactive=inactive)
    after, events = play_events(state, "take white 1")
    assert [(e.seat, e.inactive) for e in events if isinstance(e, CreditReturned)] == [(seat, True)]
    fv = view(after)
    assert fv is not None and fv.bank == 0
    assert (fv.active[seat], fv.inactive[seat]) == (3, 1) and fv.credits(1 - seat) == 2


def _solo_grid(state: GameState, points: list[int | None]) -> GameState:
    """A Finesse Solo state whose grid holds cards of these points (None: an empty slot)."""
    table = state.table
    cards = [c for c in (*table.grid, *table.deck) if c is not None]  # type: ignore[union-attr]
    grid = []
    for value in points:
        if value is None:
            grid.append(None)
            continue
        card = next(c for c in cards if state.card(c).points == value)
        cards.remove(card)
        grid.append(card)
    return with_solo_table(state, grid=tuple(grid), deck=tuple(cards), locks=(0, 1, 1),
                           mastermind_supply=0)


def test_finesse_solo_second_take_least_valuable_tie_to_the_upper_then_refill_upper_first() -> None:
    """Seed: the second puzzle is the least valuable left in the first one's column; on a tie the
    one closest to the top; replace after both, the topmost first."""
    state = _solo_grid(finesse(game(1, finesse=True), "C1"), [1, None, None, 4, None, None, 1, None, None])
    deck = state.table.deck  # type: ignore[union-attr]
    _, events = play_events(state, "level1", "level1", "level1")
    took = [(e.position, e.points) for e in events if isinstance(e, MastermindTook)]
    assert took == [(4, 4), (1, 1)]  # the 4, then the upper of the two 1s
    revealed = [(e.slot, e.card) for e in events if type(e).__name__ == "CardRevealed"]
    assert revealed == [(1, deck[0]), (4, deck[1])]


def test_finesse_solo_no_second_take_when_the_column_is_empty_after_the_first() -> None:
    state = _solo_grid(finesse(game(1, finesse=True), "C1"), [3, 1, 1, None, 2, 2, None, None, None])
    _, events = play_events(state, "level1", "level1", "level1")
    assert [(e.position, e.points) for e in events if isinstance(e, MastermindTook)] == [(1, 3)]
