"""Rule cases: the Master action.

Sources: seed 000 "Ação de Mestre (Uma vez por Turno)", seed 001 "Master action", seed 003,
RULINGS.md "A turn" (Master).
"""

from __future__ import annotations

from positions import assert_refused, at_turn_start, count, game, play, play_events, with_player

from engine import Master, Phase, iter_legal_actions, legal_actions, master_options, parse_action
from engine.errors import MasterError, PieceNotInSupplyError, PlacementError, WrongPhaseError
from engine.events import PieceGained, PuzzleCompleted
from engine.pieces import parse_cells


def _with(supply: str, *puzzles):
    return with_player(at_turn_start(game(2, seed=1), 0), 0, supply=supply, puzzles=list(puzzles))


def test_master_places_one_piece_on_each_of_several_puzzles_as_one_action() -> None:
    """Seed 000: once per turn, place at most one piece on each of your puzzles — all in one action."""
    state = _with("1 2 L3", "TO", "TI", "TS")
    after = play(state, "master 1 on TO at A1; 2 on TI at A1 B1; L3 on TS at B1 C1 B2")
    player = after.players[0]
    assert player.supply_size == 0
    assert [p.filled for p in player.puzzles] == [parse_cells("A1"), parse_cells("A1 B1"),
                                                  parse_cells("B1 C1 B2")]
    assert after.actions_left == 2 and after.master_used


def test_master_may_use_any_subset_of_puzzles() -> None:
    """RULINGS: Master places at most one piece on each puzzle (any subset) — one puzzle is enough."""
    after = play(_with("1", "TO", "TI"), "master 1 on TI at C1")
    assert after.master_used and after.players[0].puzzle("TO").pieces == ()  # type: ignore[union-attr]


def test_master_at_most_one_piece_per_puzzle() -> None:
    """Seed 000 "uma peça, no máximo, em cada quebra-cabeça"."""
    assert_refused(_with("1 1", "TO"), "master 1 on TO at A1; 1 on TO at B2", MasterError,
                   "at most one piece on each puzzle")


def test_master_once_per_turn() -> None:
    """Seed 000 "(Uma vez por Turno)" / seed 001: Master can be used only once per turn — and again in
    the player's next turn."""
    state = play(_with("1 1 1", "TO", "TI"), "master 1 on TO at A1")
    assert_refused(state, "master 1 on TI at A1", MasterError, "already used Master this turn")
    assert master_options(state) is None
    assert play(state, "place 1 on TI at A1").players[0].puzzle("TI").filled  # type: ignore[union-attr]
    state = play(state, *["level1"] * 5)  # the rest of this turn, then the opponent's turn
    assert state.current == 0 and not state.master_used
    assert play(state, "master 1 on TI at B1").master_used


def test_master_pieces_must_be_in_supply_at_the_start() -> None:
    """Seed 000 "todas as peças que você pretende colocar devem estar no seu suprimento no início da
    Ação de Mestre": two monominoes need two in supply."""
    assert_refused(_with("1", "TO", "TI"), "master 1 on TO at A1; 1 on TI at A1", PieceNotInSupplyError,
                   "needs 2", "supply has 1")
    assert_refused(_with("1", "TO", "TI"), "master 1 on TO at A1; 2 on TI at A1 B1",
                   PieceNotInSupplyError, "domino")


def test_piece_freed_by_a_completion_during_master_cannot_be_used_in_it() -> None:
    """RULINGS: "pieces freed by a puzzle completed during the Master action come back only after it".
    Completing TD (which holds a monomino) in the same Master does not make that monomino available
    for TI; after the Master it is back in the supply."""
    state = _with("1", ("TD", [("1", "A1")]), "TI", "TO")
    assert_refused(state, "master 1 on TD at B1; 1 on TI at A1", PieceNotInSupplyError, "needs 2")
    after = play(state, "master 1 on TD at B1")
    assert count(after.players[0].supply, "1") == 2  # both pieces back, plus the I3 reward
    assert count(after.players[0].supply, "I3") == 1


def test_master_completes_two_puzzles_at_once() -> None:
    """Seed 000 tips: "completar múltiplos quebra-cabeças em um único turno"; RULINGS "Completing a
    puzzle": several may complete with one action — each returns its pieces and gives its reward."""
    state = _with("1 2", ("TD", [("1", "A1")]), ("TL", [("1", "A1")]))
    after, events = play_events(state, "master 1 on TD at B1; 2 on TL at A2 B2")
    assert after.players[0].puzzles == ()
    assert [d.card for d in after.players[0].completed] == ["TD", "TL"]
    assert [e.card for e in events if isinstance(e, PuzzleCompleted)] == ["TD", "TL"]
    rewards = [e.shape.value for e in events if isinstance(e, PieceGained) and e.reason == "reward"]
    assert rewards == ["I3", "I4"]
    supply = after.players[0].supply
    assert (count(supply, "1"), count(supply, "2"), count(supply, "I3"), count(supply, "I4")) == (3, 1, 1, 1)


def test_master_is_all_or_nothing() -> None:
    """A Master with one illegal placement is refused as a whole; nothing is placed."""
    assert_refused(_with("1 2", "TO", "TI"), "master 1 on TO at A1; 2 on TI at A1 A2", PlacementError,
                   "outside the recess of TI")


def test_master_is_not_available_during_finishing_touches() -> None:
    """Seed 000 "Ajustes Finais": in Finishing Touches pieces are placed one by one; Master is a turn
    action and is refused then."""
    state = _with("1 1", "TO", "TI").evolve(phase=Phase.FINISHING, actions_left=0)
    assert_refused(state, "master 1 on TO at A1", WrongPhaseError, "Finishing Touches")
    assert master_options(state) is None


def test_master_needs_a_placement() -> None:
    """A Master with no placement at all is refused (and cannot even be written)."""
    assert_refused(_with("1", "TO"), Master(()), MasterError, "at least one placement")


def test_master_options_enumerate_every_legal_master() -> None:
    """legal.py: legal_actions leaves Master out; master_options factors it per puzzle and
    iter_legal_actions yields every legal combination, each accepted by apply."""
    state = _with("1 2", "TD", "TM")
    assert not [a for a in legal_actions(state) if isinstance(a, Master)]
    options = master_options(state)
    assert options is not None
    masters = [a for a in iter_legal_actions(state) if isinstance(a, Master)]
    # TD: mono A1/B1 or domino A1 B1 (3 ways, or nothing); TM: mono A1 (1 way, or nothing);
    # minus the empty choice and the two that need two monominoes.
    assert len(masters) == options.count() == 4 * 2 - 1 - 2
    for master in masters:
        play(state, master)
    assert parse_action(str(masters[0])) == masters[0]
