"""Rule cases for the rest of the published game: the Ambassador Pack, Phoenix and the Finesse
Ambassador Pack (docs/rules.md, "The rest of the published game"), one test per clause."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from positions import assert_refused, at_turn_start, card, game, play, play_events, with_cards, with_player

from engine import GameState, IllegalActionError, Options, iter_legal_actions, new_game, parse_action
from engine.actions import AmbassadorAction
from engine.cards import Ambassador, Colour
from engine.catalogue import check_catalogue, load_catalogue
from engine.endless import renew_white_deck
from engine.errors import ActionNotAvailableError, WrongPhaseError
from engine.events import AmbassadorFlipped, CreditEarned, PieceGained, PuzzleCompleted
from engine.expansions.ambassador import face_up, ready, unflipped
from engine.expansions.finesse import TILES, view
from engine.expansions.finesse_ambassador import PACK_TILES
from engine.policies.hidden import visible_cards
from engine.rules import score_line
from engine.serialisation import dumps, loads, options_from_json, options_to_json
from engine.state import Phase, RowsTable
from engine.visibility import describe_for, face_up_cards, hidden_scores
from engine.work import Work

AMB = card("TA", "A1 B1", points=2, reward="ambassador")  # an Ambassador card a domino fills


def agame(players: int = 2, **options: Any) -> GameState:
    return game(players, ambassador=True, **options)


def with_ambassador(state: GameState, seat: int, ready_cards: list[str], fresh: list[str] = ()) -> GameState:
    data = state.ext["ambassador"]
    r = [list(x) for x in data["ready"]]
    f = [list(x) for x in data["fresh"]]
    r[seat], f[seat] = list(ready_cards), list(fresh)
    return state.evolve(ext={**state.ext, "ambassador": {"ready": r, "fresh": f}})


# -- Ambassador Pack -------------------------------------------------------------------------------


def test_ambassador_cards_join_their_decks_one_white_two_black() -> None:
    cards = load_catalogue().cards
    ambassadors = [c for c in cards if isinstance(c.reward, Ambassador)]
    assert sorted(c.colour.value for c in ambassadors) == ["black", "black", "white"]
    classes = sorted((c.colour.value, c.points) for c in ambassadors)
    assert classes == [("black", 4), ("black", 5), ("white", 2)]
    state = agame(4)
    dealt = {*state.table.white_deck, *state.table.white_row, *state.table.black_deck, *state.table.black_row}
    assert sum(isinstance(state.cards[c].reward, Ambassador) for c in dealt if c) >= 1
    off = game(2)
    pool = {*off.table.white_deck, *off.table.white_row, *off.table.black_deck, *off.table.black_row}
    assert not any(isinstance(off.cards[c].reward, Ambassador) for c in pool if c)


def test_ambassador_card_gives_no_reward_piece() -> None:
    state = with_cards(agame(), [AMB])
    state = with_player(state, state.current, supply="2", puzzles=["TA"])
    state, events = play_events(state, "place 2 on TA at A1 B1")
    assert not [e for e in events if isinstance(e, PieceGained) and e.reason == "reward"]
    assert unflipped(state, state.current) == ("TA",)


def _completed_ambassador() -> GameState:
    state = with_cards(agame(), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="2 1 1", puzzles=["TA", "TM", "TD"])
    return play(state, "place 2 on TA at A1 B1")


def test_an_ambassador_card_completed_this_turn_cannot_be_flipped_this_turn() -> None:
    state = _completed_ambassador()
    seat = state.current
    assert unflipped(state, seat) == ("TA",) and ready(state, seat) == ()
    assert not any(isinstance(a, AmbassadorAction) for a in iter_legal_actions(state))
    assert_refused(state, "ambassador 1 on TM at A1", IllegalActionError, "next turn")


def test_the_card_can_be_flipped_on_a_later_turn_for_a_master() -> None:
    state = _completed_ambassador()
    seat = state.current
    state = play(state, "level1", "level1")  # the turn ends: the card is ready from now on
    state = at_turn_start(state, seat)
    assert ready(state, seat) == ("TA",)
    state, events = play_events(state, "ambassador 1 on TM at A1; 1 on TD at A1")
    assert [e for e in events if isinstance(e, AmbassadorFlipped)] == [AmbassadorFlipped(seat, "TA")]
    assert unflipped(state, seat) == ()
    assert state.actions_left == 2 and not state.master_used  # one action, and not the Master


def test_two_ambassador_actions_in_one_turn_and_a_master_too() -> None:
    state = with_cards(agame(), [AMB, card("TB", "A1", points=4, reward="ambassador", colour=Colour.BLACK)])
    seat = state.current
    state = with_player(state, seat, supply="1 1 1", puzzles=["TD", "TO"], completed=["TA", "TB"])
    state = with_ambassador(state, seat, ["TA", "TB"])
    state = play(state, "ambassador 1 on TD at A1", "ambassador 1 on TD at B1")
    assert ready(state, seat) == ()
    assert_refused(state, "ambassador 1 on TO at A1", IllegalActionError, "Ambassador")
    assert state.actions_left == 1


def test_an_ambassador_action_must_place_a_piece_one_per_puzzle_from_the_starting_supply() -> None:
    state = with_cards(agame(), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="1", puzzles=["TD", "TO"], completed=["TA"])
    state = with_ambassador(state, seat, ["TA"])
    with pytest.raises(IllegalActionError):
        parse_action("ambassador")
    assert_refused(state, "ambassador 1 on TD at A1; 1 on TO at A1", IllegalActionError, "supply")
    two = AmbassadorAction((parse_action("place 1 on TD at A1"), parse_action("place 1 on TD at B1")))
    assert_refused(state, two, IllegalActionError, "one piece")


def test_ambassador_in_finishing_touches_is_refused() -> None:
    state = with_cards(agame(), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="1", puzzles=["TD"], completed=["TA"])
    state = with_ambassador(state, seat, ["TA"]).evolve(phase=Phase.FINISHING, actions_left=0)
    assert_refused(state, "ambassador 1 on TD at A1", WrongPhaseError, "Finishing Touches")


def test_an_ambassador_card_completed_in_finishing_touches_gives_no_action() -> None:
    """docs/rules.md "Ambassador Pack", our ruling: a card completed during Finishing Touches
    gives no action (a Finishing Touch gives no reward, RULINGS "End of the game", and there is
    no later turn) — but it scores, and counts as a completed puzzle."""
    state = with_cards(agame(), [AMB])
    state = with_player(state, 0, supply="2 1", puzzles=["TA", "TD"])
    state = state.evolve(phase=Phase.FINISHING, actions_left=0, current=0)
    after, events = play_events(state, "place 2 on TA at A1 B1")
    assert any(isinstance(e, PuzzleCompleted) and e.finishing for e in events)
    assert unflipped(after, 0) == () and face_up(after, 0) == ()
    line = score_line(after, 0)
    assert (line.completed_points, line.finishing_penalty, line.completed_count) == (2, 1, 1)


def test_ambassador_action_refused_without_the_pack() -> None:
    state = game(2)
    assert_refused(state, "ambassador 1 on TD at A1", ActionNotAvailableError, "Ambassador Pack")


def test_an_inserted_action_may_be_an_ambassador_action() -> None:
    state = with_cards(agame(finesse=True), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="1 1", puzzles=["TD"], completed=["TA"])
    state = with_ambassador(state, seat, ["TA"])
    data = dict(state.ext["finesse"], active=[2, 2])
    state = state.evolve(ext={**state.ext, "finesse": data}, actions_left=1)
    state = play(state, "level1")
    assert seat in state.held
    state = play(state, "insert", "ambassador 1 on TD at A1")
    assert ready(state, seat) == ()


def test_points_are_kept_whether_flipped_or_not_and_count_for_the_tie_break() -> None:
    state = with_cards(agame(), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="1", puzzles=["TD"], completed=["TA"])
    before = score_line(state, seat)
    state = with_ambassador(state, seat, ["TA"])
    after = play(state, "ambassador 1 on TD at A1")
    assert score_line(after, seat).completed_points == before.completed_points == 2
    assert score_line(after, seat).completed_count == 1


def test_a_banked_white_ambassador_keeps_its_action_in_endless_white() -> None:
    state = with_cards(agame(endless_white=True), [AMB])
    seat = state.current
    state = with_player(state, seat, completed=["TA"])
    state = with_ambassador(state, seat, ["TA"])
    state = state.evolve(table=state.table.__class__(
        white_deck=(), black_deck=state.table.black_deck, white_row=state.table.white_row,
        black_row=state.table.black_row))
    w = Work(state)
    assert renew_white_deck(w)
    banked = w.freeze()
    assert banked.players[seat].completed == () and banked.players[seat].banked_cards == 1
    assert ready(banked, seat) == ("TA",)  # its unused action is kept


def test_whoever_completes_a_reshuffled_ambassador_again_gets_a_fresh_action() -> None:
    state = with_cards(agame(), [AMB])
    seat = state.current
    other = 1 - seat
    state = with_ambassador(state, other, ["TA"])
    state = with_player(state, seat, supply="2", puzzles=["TA"])
    state = play(state, "place 2 on TA at A1 B1")
    assert ready(state, other) == ("TA",) and unflipped(state, seat) == ("TA",)


def banked(known_scores: bool = True) -> tuple[GameState, int]:
    """Endless White + Ambassador, 2 players: the current seat's completed white Ambassador card
    TA, ready to flip, is banked by that seat's ``take white 1``, whose refill empties the white
    deck (the new deck is TA alone, the only completed white card). Returns the state and seat."""
    state = with_cards(agame(endless_white=True, known_scores=known_scores), [AMB])
    seat = state.current
    state = with_ambassador(with_player(state, seat, completed=["TA"]), seat, ["TA"])
    table = state.table
    assert isinstance(table, RowsTable)
    state = play(state.evolve(table=replace(table, white_deck=table.white_deck[:1])), "take white 1")
    assert state.table.white_deck == ("TA",)  # type: ignore[union-attr]
    return state, seat


def tokens(state: GameState) -> list[str]:
    data = state.ext["ambassador"]
    return [t for part in ("ready", "fresh") for seat_tokens in data[part] for t in seat_tokens]


def test_a_banked_ambassadors_action_has_an_identity_no_deck_card_has() -> None:
    """Issue 46, item 14: the banked card's unused action stays, but under a token that names no
    card on the table — TA itself is back in the white deck, and lies face up nowhere."""
    state, seat = banked()
    assert ready(state, seat) == ("TA",) and unflipped(state, seat) == ("TA",)
    assert tokens(state) == ["banked:TA"]
    assert not set(tokens(state)) & set(state.table.white_deck)  # type: ignore[union-attr]
    assert face_up_cards(state) == frozenset() and face_up(state, seat) == ()


def test_a_later_copy_of_a_banked_ambassador_is_not_named_with_hidden_scores() -> None:
    """The banked TA is in the deck again: when the other seat later completes it in Finishing
    Touches (its pile hidden), the completion does not name it — the banked action's card does not
    count as lying face up — and a re-deal for that other seat may put TA in the imagined deck."""
    state, seat = banked(known_scores=False)
    other = 1 - seat
    later = PuzzleCompleted(other, "TA", 2, finishing=True)
    text = describe_for(later, ["A", "B"], hidden_scores(state, seat), face_up_cards(state))
    assert "TA" not in text and "hidden" in text
    assert "TA" not in visible_cards(state, other)


def test_a_banked_action_is_flipped_first_and_a_fresh_copy_lies_face_up() -> None:
    """The seat completes TA again from the new deck: a fresh, face-up action beside the banked
    one. The banked one, older, is flipped first; TA stays face up until its own flip."""
    state, seat = banked()
    table = state.table
    assert isinstance(table, RowsTable)
    state = at_turn_start(state.evolve(table=replace(table, white_deck=())), seat)
    state = with_player(state, seat, supply="2 1 1", puzzles=["TA", "TD", "TM"])
    state = play(state, "place 2 on TA at A1 B1")
    assert state.ext["ambassador"]["ready"][seat] == ["banked:TA"]
    assert state.ext["ambassador"]["fresh"][seat] == ["TA"]
    assert face_up_cards(state) == {"TA"} and unflipped(state, seat) == ("TA", "TA")
    state = at_turn_start(play(state, "level1", "level1"), seat)
    assert ready(state, seat) == ("TA", "TA")
    state, events = play_events(state, "ambassador 1 on TD at A1")
    assert [e.card for e in events if isinstance(e, AmbassadorFlipped)] == ["TA"]
    assert tokens(state) == ["TA"] and face_up_cards(state) == {"TA"}
    state = play(state, "ambassador 1 on TM at A1")
    assert tokens(state) == [] and face_up_cards(state) == frozenset()


def test_a_schema_3_state_with_a_banked_ambassador_loads_with_its_token() -> None:
    """Stored games of schema 3 named a banked card's action by its bare id: read back, a token
    whose card is not in its owner's pile is the banked one (the oldest, when the card is there
    again), and every other state reads as before."""
    state, seat = banked()
    table = state.table
    assert isinstance(table, RowsTable)
    state = at_turn_start(state.evolve(table=replace(table, white_deck=())), seat)
    again = play(with_player(state, seat, supply="2", puzzles=["TA"]), "place 2 on TA at A1 B1",
                 "level1", "level1")
    for current in (state, again):
        data = json.loads(dumps(current))
        assert data["schema"] == 4
        amb = data["ext"]["ambassador"]
        data["schema"] = 3
        data["ext"]["ambassador"] = {part: [[t.removeprefix("banked:") for t in seat_tokens]
                                            for seat_tokens in amb[part]] for part in ("ready", "fresh")}
        assert loads(json.dumps(data)) == current
    plain = with_ambassador(agame(phoenix=True), 0, ["W45"])
    plain = with_player(plain, 0, completed=["W45"])
    data = json.loads(dumps(plain))
    data["schema"] = 3
    assert loads(json.dumps(data)) == plain  # face up in its owner's pile: unchanged


def test_an_unflipped_ambassador_is_public_with_hidden_scores_and_face_down_once_flipped() -> None:
    state = with_cards(agame(known_scores=False), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="2 1", puzzles=["TA", "TD"])
    state, events = play_events(state, "place 2 on TA at A1 B1")
    other = 1 - seat
    assert seat in hidden_scores(state, other)
    assert "TA" in face_up_cards(state)
    completed = next(e for e in events if type(e).__name__ == "PuzzleCompleted")
    assert "TA" in describe_for(completed, ["A", "B"], hidden_scores(state, other), face_up_cards(state))
    state = play(state, "level1", "level1")
    state = at_turn_start(state, seat)
    state = play(state, "ambassador 1 on TD at A1")
    assert "TA" not in face_up_cards(state)


def test_solo_mastermind_scores_an_ambassador_card_like_any_card() -> None:
    state = game(1, ambassador=True)
    assert state.ext["ambassador"] == {"ready": [[]], "fresh": [[]]}


def test_finesse_master_tile_counts_ambassador_actions() -> None:
    state = with_cards(agame(finesse=True), [AMB])
    seat = state.current
    state = with_player(state, seat, supply="1", puzzles=["TD"], completed=["TA"])
    state = with_ambassador(state, seat, ["TA"])
    row = ["C2", *[t for t in view(state).row if t != "C2"]][:8]
    state = state.evolve(ext={**state.ext, "finesse": dict(state.ext["finesse"], row=row)})
    _, events = play_events(state, "ambassador 1 on TD at A1")
    assert [e.reason for e in events if isinstance(e, CreditEarned)] == ["placed a monomino with Master"]


def test_notation_both_languages_round_trips() -> None:
    action = parse_action("embaixador 1 em TD nas A1")
    assert action == parse_action("ambassador 1 on TD at A1")
    assert parse_action(str(action)) == action and str(action) == "ambassador 1 on TD at A1"


def test_state_with_ambassadors_serialises_exactly() -> None:
    state = with_ambassador(agame(phoenix=True), 0, ["W45"])
    assert loads(dumps(state)) == state
    assert options_from_json(options_to_json(state.options)) == state.options


# -- Phoenix ---------------------------------------------------------------------------------------


def test_phoenix_cards_are_seven_black_six_pointers_harder_than_every_five() -> None:
    cat = load_catalogue()
    report = {r.id: r for r in check_catalogue(cat).cards}
    phoenix = [c for c in cat.cards if c.expansion == "phoenix"]
    assert len(phoenix) == 7 and all(c.colour is Colour.BLACK and c.points == 6 for c in phoenix)
    fives = [report[c.id].min_pieces for c in cat.cards if c.points == 5]
    assert all(report[c.id].min_pieces == 5 > max(fives) for c in phoenix)
    assert all(c.reward.level in (3, 4) for c in phoenix)


def test_a_six_player_table_with_phoenix_and_without_ghost_deals_24_black_cards() -> None:
    state = new_game(Options.for_players(6, ghost=False, phoenix=True), seed=5)
    table = state.table
    black = [*table.black_deck, *table.left_black, *table.right_black]
    assert len(black) == 24
    with pytest.raises(IllegalActionError, match="Phoenix"):
        new_game(Options.for_players(6, ghost=False), seed=5)


# -- Finesse Ambassador Pack ----------------------------------------------------------------------


def test_finesse_ambassador_needs_finesse() -> None:
    with pytest.raises(IllegalActionError, match="finesse option"):
        new_game(Options(players=2, finesse_ambassador=True), seed=1)


def test_six_c_tiles_drawn_from_sixteen_fifteen_in_solo() -> None:
    seen: set[str] = set()
    solo_seen: set[str] = set()
    for seed in range(60):
        state = new_game(Options(players=2, finesse=True, finesse_ambassador=True), seed=seed)
        row = view(state).row
        assert sum(t.startswith("C") for t in row) == 6
        seen.update(row)
        solo = new_game(Options(players=1, variant="solo", finesse=True, finesse_ambassador=True), seed=seed)
        solo_seen.update(view(solo).row)
    assert {t.id for t in PACK_TILES} <= seen
    assert "C12" not in solo_seen and {"C11", "C13"} <= solo_seen
    plain = new_game(Options(players=2, finesse=True), seed=3)
    assert not set(view(plain).row) & {t.id for t in PACK_TILES}


def _live(state: GameState, tile: str, active: list[int] | None = None) -> GameState:
    row = [tile, *[t for t in ("A1", "B1", "C1", "C3", "C4", "C5", "C6", "C7") if t != tile]]
    data = dict(state.ext["finesse"], row=row[:8])
    if active is not None:
        data["active"] = active
    return state.evolve(ext={**state.ext, "finesse": data})


def fagame(**options: Any) -> GameState:
    return game(2, finesse=True, finesse_ambassador=True, **options)


def _end_of_turn_credits(state: GameState, tile: str) -> int:
    state = _live(state, tile)
    seat = state.current
    state = state.evolve(actions_left=1)
    _, events = play_events(state, "level1")
    return sum(1 for e in events if isinstance(e, CreditEarned) and e.seat == seat)


def test_no_unfinished_puzzle_tile_pays_4_and_holding_none_pays() -> None:
    state = fagame()
    seat = state.current
    assert _end_of_turn_credits(with_player(state, seat, supply="1", puzzles=[]), "C11") == 4
    assert _end_of_turn_credits(with_player(state, seat, supply="1", puzzles=["TD"]), "C11") == 0


def test_no_unfinished_puzzle_after_completing_the_last_one_pays() -> None:
    state = _live(fagame(), "C11")
    seat = state.current
    state = with_player(state, seat, supply="2", puzzles=["TD"]).evolve(actions_left=1)
    _, events = play_events(state, "place 2 on TD at A1 B1")
    assert sum(isinstance(e, CreditEarned) and e.seat == seat for e in events) == 4


def test_recycle_tile_pays_2() -> None:
    state = _live(fagame(), "C12")
    _, events = play_events(state, "recycle white 1 2 3 4")
    assert sum(isinstance(e, CreditEarned) for e in events) == 2


def test_every_level_tile_pays_4_and_a_ghost_does_not_count() -> None:
    state = fagame(ghost=True)
    seat = state.current
    assert _end_of_turn_credits(with_player(state, seat, supply="1 2 I3 T4"), "C13") == 4
    # level1 adds a monomino; without a level-3 piece the ghost does not stand in for it
    assert _end_of_turn_credits(with_player(state, seat, supply="2 T4 P5"), "C13") == 0
    on_puzzle = with_player(state, seat, supply="1 2 T4", puzzles=[("TO", [("I3", "A1 A2 A3")])])
    assert _end_of_turn_credits(on_puzzle, "C13") == 4


def test_insert_tile_pays_1_after_the_insert() -> None:
    state = _live(fagame(), "C14", active=[2, 2])
    seat = state.current
    state = state.evolve(actions_left=1)
    state = play(state, "level1")
    assert seat in state.held
    after, events = play_events(state, "insert")
    assert [e.seat for e in events if isinstance(e, CreditEarned)] == [seat]
    assert view(after).active[seat] == 0 and view(after).inactive[seat] == 1


def test_all_different_tile_pays_4_only_with_no_two_pieces_alike() -> None:
    state = fagame()
    seat = state.current
    assert _end_of_turn_credits(with_player(state, seat, supply="2 I3"), "C15") == 4  # + the monomino
    assert _end_of_turn_credits(with_player(state, seat, supply="1 I3"), "C15") == 0  # two monominoes


def test_no_small_pieces_tile_pays_3_only_without_level_1_or_2() -> None:
    state = fagame()
    seat = state.current
    state = with_player(state, seat, supply="1 I3 T4").evolve(actions_left=1)
    state = _live(state, "C16")
    _, events = play_events(state, "upgrade 1 to 2")
    assert not [e for e in events if isinstance(e, CreditEarned)]
    _, events = play_events(_live(with_player(fagame(), seat, supply="2 I3").evolve(actions_left=1), "C16"),
                            "upgrade 2 to L3")
    assert sum(isinstance(e, CreditEarned) for e in events) == 3


def test_pack_tiles_are_registered_with_readable_rules() -> None:
    for tile in PACK_TILES:
        assert TILES[tile.id] is tile and tile.text.endswith(".")
