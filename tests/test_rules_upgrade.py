"""Rule cases: Upgrade / exchange, and the empty-reserve substitution rule.

Sources: seed 000 "Aprimorar uma Peça", seed 001 "Upgrade a piece", seed 003, RULINGS.md "A turn"
(Upgrade / exchange, Empty reserve) and "Stage 2" (level 5 never reached by Upgrade).
"""

from __future__ import annotations

import pytest
from positions import assert_refused, at_turn_start, count, game, play, play_events, with_player, with_reserve

from engine import Shape, Upgrade, legal_actions
from engine.errors import PieceNotInSupplyError, ReserveEmptyError, UpgradeNotAllowedError
from engine.events import PieceGained, PieceReturned
from engine.rules import substitutes


def _holding(supply: str):
    return with_player(at_turn_start(game(2, seed=1), 0), 0, supply=supply)


@pytest.mark.parametrize(("give", "take"), [("1", "2"), ("2", "I3"), ("2", "L3"), ("I3", "T4"),
                                            ("L3", "S4"), ("L3", "I4")])
def test_upgrade_one_level(give: str, take: str) -> None:
    """Seed 000: return a piece from your supply to the reserve and take one exactly one level
    higher (any shape of that level)."""
    state = _holding(give)
    after, events = play_events(state, f"upgrade {give} to {take}")
    assert count(after.players[0].supply, give) == 0
    assert count(after.players[0].supply, take) == 1
    assert count(after.reserve, give) == count(state.reserve, give) + 1
    assert count(after.reserve, take) == count(state.reserve, take) - 1
    assert isinstance(events[0], PieceReturned) and isinstance(events[1], PieceGained)
    assert after.actions_left == 2


@pytest.mark.parametrize(("give", "take"), [("I3", "L3"), ("L3", "I3"), ("I4", "O4"), ("T4", "S4")])
def test_exchange_for_another_shape_of_the_same_level(give: str, take: str) -> None:
    """Seed 000 "trocar uma peça por outra do mesmo nível (mas com um formato diferente)"."""
    after = play(_holding(give), f"upgrade {give} to {take}")
    assert count(after.players[0].supply, take) == 1 and count(after.players[0].supply, give) == 0


def test_exchange_for_the_same_shape_is_refused() -> None:
    """Seed 000: an exchange is for a *different* shape of the same level."""
    assert_refused(_holding("L3"), "upgrade L3 to L3", UpgradeNotAllowedError, "different shape")


@pytest.mark.parametrize(("give", "take"), [("2", "1"), ("I3", "1"), ("L3", "2"), ("I4", "1"),
                                            ("O4", "2"), ("S4", "L3")])
def test_exchange_for_a_lower_level(give: str, take: str) -> None:
    """Seed 000 "ou até mesmo por uma de um nível abaixo" / RULINGS: or any lower level."""
    after = play(_holding(give), f"upgrade {give} to {take}")
    assert count(after.players[0].supply, take) == 1


@pytest.mark.parametrize(("give", "take"), [("1", "I3"), ("1", "O4"), ("2", "T4")])
def test_skipping_a_level_is_refused_while_the_next_level_has_pieces(give: str, take: str) -> None:
    """Seed 000/RULINGS: an upgrade goes exactly one level up while that level has any piece."""
    assert_refused(_holding(give), f"upgrade {give} to {take}", UpgradeNotAllowedError,
                   "one level up")


def test_skip_a_level_when_the_next_level_is_empty() -> None:
    """Seed 000 "Se não houver peças 1 nível acima na reserva (independente do formato), você pode
    pular para o próximo nível disponível": with no level-3 piece of any shape left, a level-2 piece
    upgrades to level 4 (and no longer to level 3)."""
    state = with_reserve(_holding("2"), {"1": 5, "2": 5, "I4": 1, "T4": 2})
    after = play(state, "upgrade 2 to T4")
    assert count(after.players[0].supply, "T4") == 1
    assert_refused(state, "upgrade 2 to I3", ReserveEmptyError, "no I3")


def test_skip_two_levels_when_both_are_empty() -> None:
    """Same rule, repeated: from level 1 with levels 2 and 3 exhausted, the next available is 4."""
    state = with_reserve(_holding("1"), {"1": 5, "O4": 3})
    assert play(state, "upgrade 1 to O4").players[0].supply[Shape.O4.index] == 1


def test_skip_is_allowed_only_when_the_whole_level_is_empty() -> None:
    """Seed 000 "(independente do formato)": one shape of the next level running out is not enough
    to skip it while another shape of that level remains."""
    state = with_reserve(_holding("2"), {"L3": 1, "I4": 5})
    assert_refused(state, "upgrade 2 to I4", UpgradeNotAllowedError, "level 3 only")
    assert play(state, "upgrade 2 to L3").players[0].supply[Shape.L3.index] == 1


@pytest.mark.parametrize("take", ["P5", "U5", "L5"])
def test_no_level5_piece_by_upgrade(take: str) -> None:
    """RULINGS "A turn"/"Stage 2": level 5 (ghost pieces) is never reached by Upgrade — even if the
    reserve had one."""
    state = with_reserve(_holding("I4"), {"1": 3, "P5": 2, "U5": 2, "L5": 2})
    assert_refused(state, f"upgrade I4 to {take}", UpgradeNotAllowedError, "level-5")


def test_upgrade_needs_the_piece_in_your_supply() -> None:
    """Seed 000: you return a piece *from your supply*."""
    assert_refused(_holding("1"), "upgrade 2 to I3", PieceNotInSupplyError, "no domino")


def test_upgrade_needs_the_wanted_shape_in_the_reserve() -> None:
    """An upgrade takes a piece from the reserve: a shape that has run out cannot be chosen (another
    shape of the same level can)."""
    state = with_reserve(_holding("2"), {"L3": 3})
    assert_refused(state, "upgrade 2 to I3", ReserveEmptyError, "no I3")


def test_upgrade_with_an_empty_higher_reserve_allows_only_exchanges() -> None:
    """With no level-4 piece left, a level-4 piece can still be exchanged down; a level-3 piece can
    only be exchanged (same or lower level)."""
    state = with_reserve(_holding("I3"), {"1": 2, "2": 2, "L3": 2})
    takes = {a.take.value for a in legal_actions(state) if isinstance(a, Upgrade)}
    assert takes == {"1", "2", "L3"}


def test_legal_upgrades_follow_the_rules() -> None:
    """legal_actions lists exactly the upgrades/exchanges the rules allow for each held piece."""
    state = _holding("1 L3")
    upgrades = {(a.give.value, a.take.value) for a in legal_actions(state) if isinstance(a, Upgrade)}
    assert upgrades == {("1", "2"),
                        ("L3", "1"), ("L3", "2"), ("L3", "I3"),
                        ("L3", "I4"), ("L3", "O4"), ("L3", "T4"), ("L3", "L4"), ("L3", "S4")}


# -- empty-reserve substitution: what the player may choose from ---------------------------------


def _reserve(spec: dict[str, int]) -> tuple[int, ...]:
    return with_reserve(game(2, seed=1), spec).reserve


@pytest.mark.parametrize(("reserve", "wanted", "options"), [
    ({"I3": 2, "L3": 1}, "I3", "I3"),                 # in stock: that piece, no choice
    ({"L3": 1, "I3": 0}, "I3", "L3"),                 # same level, the one other shape
    ({"I4": 1, "O4": 3, "T4": 2}, "L4", "I4 O4 T4"),  # same level: every other shape in stock
    ({"2": 4, "I4": 9}, "1", "2"),                    # level empty: one level higher
    ({"I4": 9, "O4": 1, "1": 3}, "2", "I4 O4"),       # levels 2 and 3 empty: next available level
    ({"2": 3, "1": 5}, "S4", "1 2"),                  # nothing at or above: any lower level
    ({"1": 5}, "I3", "1"),
    ({}, "L3", ""),                                   # nothing at all: nothing
])
def test_empty_reserve_substitution(reserve: dict[str, int], wanted: str, options: str) -> None:
    """RULINGS "Empty reserve" (seed 004 "take a piece of your choice from the next available
    level"): if the piece is gone, another shape of the same level; if that level is empty, the
    next higher level that has pieces, else any lower level. The player chooses among these."""
    result = substitutes(_reserve(reserve), Shape(wanted))
    assert " ".join(s.value for s in result) == options
