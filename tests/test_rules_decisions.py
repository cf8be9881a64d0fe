"""Rule cases: pending decisions — the player's choice of a substitute piece.

RULINGS "Empty reserve" / seed 004 ("take a piece of your choice from the next available level"):
when the piece a player should receive is gone and more than one substitute exists, the *player*
chooses. The engine keeps the choice as a pending decision: the game waits, the only legal actions
are its answers (``choose <option>``), answering spends no action, and the turn does not end
while the choice is open (docs/rules.md §2.8, docs/engine.md "Pending decisions").
"""

from __future__ import annotations

from positions import (
    assert_refused,
    at_turn_start,
    count,
    game,
    play,
    play_events,
    with_player,
    with_reserve,
    without_shapes,
)

from engine import (
    Choose,
    GameState,
    IllegalActionError,
    NotYourTurnError,
    PendingDecision,
    Shape,
    apply,
    legal_actions,
    master_options,
    parse_action,
    serialisation,
)
from engine.events import DecisionAwaited, PieceGained, TurnSkipped, TurnStarted
from engine.policies import GreedyPolicy, RandomPolicy


def _completing(*gone: str, actions_left: int = 3) -> GameState:
    """Seat 0 can complete TO (2×2, rewards a T4) with 'place 2 on TO at A2 B2'; the reserve has
    no piece of the shapes ``gone``."""
    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                        puzzles=[("TO", [("2", "A1 B1")]), "TD"])
    return without_shapes(state, *gone).evolve(actions_left=actions_left)


COMPLETE = "place 2 on TO at A2 B2"


def test_a_substitute_choice_with_two_options_waits_for_the_player() -> None:
    """Seed 004 "a piece of your choice": the T4 reward is gone and level 4 has I4 and O4 left, so
    the game asks; until the player answers, nothing but the answers is legal."""
    state = _completing("T4", "L4", "S4")
    waiting, events = play_events(state, COMPLETE)
    assert waiting.pending == (PendingDecision(0, "substitute", ("I4", "O4"), "reward T4"),)
    assert count(waiting.players[0].supply, "I4") == count(waiting.players[0].supply, "O4") == 0
    awaited = [e for e in events if isinstance(e, DecisionAwaited)]
    assert [(e.seat, e.kind, e.options) for e in awaited] == [(0, "substitute", ("I4", "O4"))]
    assert "T tetromino" in awaited[0].describe(["Ann", "Bob"])
    assert legal_actions(waiting) == [Choose("I4"), Choose("O4")]
    assert master_options(waiting) is None
    assert_refused(waiting, "level1", IllegalActionError, "First choose", "I4, O4")
    # the answer gives that piece, says what was wanted, and spends no action
    after, events = play_events(waiting, "choose O4")
    assert after.pending == () and after.actions_left == 2
    assert count(after.players[0].supply, "O4") == 1
    assert count(after.reserve, "O4") == count(waiting.reserve, "O4") - 1
    assert PieceGained(0, Shape.O4, "reward", Shape.T4) in events


def test_one_substitute_is_given_without_a_question() -> None:
    """RULINGS "Empty reserve": the engine asks only when more than one substitute exists; with
    one (level 4 reduced to the I4) it is simply given, and the event names the piece wanted."""
    state = _completing("T4", "O4", "L4", "S4")
    after, events = play_events(state, COMPLETE)
    assert after.pending == () and count(after.players[0].supply, "I4") == 1
    gained = [e for e in events if isinstance(e, PieceGained)]
    assert gained == [PieceGained(0, Shape.I4, "reward", Shape.T4)]


def test_the_turn_does_not_end_while_a_choice_made_on_the_third_action_is_open() -> None:
    """A turn never ends while its player has a decision pending, even after the third action;
    the answer ends it."""
    state = _completing("T4", "L4", "S4", actions_left=1)
    waiting = play(state, COMPLETE)
    assert (waiting.current, waiting.actions_left, waiting.turn) == (0, 0, state.turn)
    after, events = play_events(waiting, "choose i4")
    assert (after.current, after.actions_left) == (1, 3)
    assert any(isinstance(e, TurnStarted) for e in events)
    assert count(after.players[0].supply, "I4") == 1


def test_only_the_chooser_may_answer() -> None:
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    try:
        apply(state, Choose("I4"), player=1)
    except NotYourTurnError:
        pass
    else:  # pragma: no cover - the assertion below reports it
        raise AssertionError("another seat answered the choice")
    assert apply(state, Choose("I4"), player=0).state.pending == ()


def test_an_answer_must_be_one_of_the_options() -> None:
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    assert_refused(state, "choose S4", IllegalActionError, "not one of the choices", "I4, O4")
    assert_refused(_completing(), "choose I4", IllegalActionError, "no choice waiting")


def test_choose_round_trips_as_text() -> None:
    assert str(parse_action("CHOOSE   I4")) == "choose I4"
    assert parse_action(str(Choose("O4"))) == Choose("O4")


def test_several_choices_are_asked_one_at_a_time_with_the_reserve_as_it_then_stands() -> None:
    """Engine ruling (docs/rules.md §2.8): one Master completes two puzzles whose rewards are gone;
    the choices are asked in turn, and the second sees what the first took."""
    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 2",
                        puzzles=[("TO", [("2", "A1 B1")]), ("TS", [("2", "B1 C1")])])
    # TO rewards a T4, TS an S4, both gone: level 4 is down to one I4 and one O4
    state = with_reserve(state, {"I4": 1, "O4": 1, "1": 5})
    waiting = play(state, "master 2 on TO at A2 B2; 2 on TS at A2 B2")
    assert [(d.options, d.about) for d in waiting.pending] == [
        (("I4", "O4"), "reward T4"), (("I4", "O4"), "reward S4")]
    after, events = play_events(waiting, "choose I4")
    # the second reward now has only the O4 left: given without a question
    assert after.pending == () and after.actions_left == 2
    assert [e for e in events if isinstance(e, PieceGained)] == [
        PieceGained(0, Shape.I4, "reward", Shape.T4), PieceGained(0, Shape.O4, "reward", Shape.S4)]
    assert count(after.players[0].supply, "I4") == 1 and count(after.players[0].supply, "O4") == 1


def test_a_skipped_player_gets_the_first_option() -> None:
    """Ruling "skip" (docs/rules.md §10): the choice the player still owed is answered with the
    first option listed, so the piece is not lost; then the turn ends."""
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    after, events = play_events(state, "skip")
    assert after.pending == () and count(after.players[0].supply, "I4") == 1
    assert TurnSkipped(0) in events and after.current == 1


def test_a_removed_player_owes_no_choice() -> None:
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    after = play(state, "remove 1")
    assert after.pending == () and after.players[0].removed


def test_a_pending_choice_survives_saving() -> None:
    """State conventions: ``pending`` is written only when there is one, and read back exactly."""
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    assert serialisation.loads(serialisation.dumps(state)) == state
    assert '"pending"' not in serialisation.dumps(_completing())


def test_policies_answer_through_their_normal_choice() -> None:
    """AI seats decide through their policy: both policies return one of the legal answers."""
    state = play(_completing("T4", "L4", "S4"), COMPLETE)
    for policy in (RandomPolicy(3), GreedyPolicy()):
        assert policy.choose(state) in legal_actions(state)
