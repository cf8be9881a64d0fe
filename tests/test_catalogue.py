"""The puzzle catalogue: the shipped set matches the published distribution and economy,
custom files are validated with messages that name the card, and reports say what a set supports.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Colour, PuzzleCard
from engine.catalogue import (
    Catalogue,
    CatalogueError,
    catalogue_to_json,
    check_catalogue,
    dumps_catalogue,
    format_report,
    load_catalogue,
    main_check,
    parse_catalogue,
)
from engine.pieces import PLACEMENTS, Shape, canonical_form, is_connected
from engine.policies import GreedyPolicy
from engine.simulate import play_game
from engine.solver import fillable_without_monominoes, min_pieces, solve
from engine.state import Options

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def shipped() -> Catalogue:
    return load_catalogue(None)


def _points(cards: tuple[PuzzleCard, ...]) -> Counter[int]:
    return Counter(c.points for c in cards)


def _rewards(cards: tuple[PuzzleCard, ...]) -> Counter[str]:
    return Counter(c.reward.value for c in cards)


def _base(cards: tuple[PuzzleCard, ...]) -> tuple[PuzzleCard, ...]:
    """The base-game cards (the published distribution); the rest are Ghost Piece cards."""
    return tuple(c for c in cards if c.expansion is None)


def _ghost(cards: tuple[PuzzleCard, ...]) -> tuple[PuzzleCard, ...]:
    return tuple(c for c in cards if c.expansion == "ghost")


# --------------------------------------------------------------- the shipped catalogue


def test_shipped_catalogue_has_32_white_and_20_black_base_cards(shipped: Catalogue) -> None:
    assert len(_base(shipped.white)) == 32
    assert len(_base(shipped.black)) == 20
    assert len(shipped) == 52 + 24 + 10  # base, Ghost Piece, Ambassador Pack (3) and Phoenix (7)


def test_shipped_ids_are_w01_to_w32_and_b01_to_b20_then_the_ghost_cards(shipped: Catalogue) -> None:
    assert [c.id for c in _base(shipped.white)] == [f"W{i:02d}" for i in range(1, 33)]
    assert [c.id for c in _base(shipped.black)] == [f"B{i:02d}" for i in range(1, 21)]
    assert [c.id for c in _ghost(shipped.white)] == [f"W{i:02d}" for i in range(33, 45)]
    assert [c.id for c in _ghost(shipped.black)] == [f"B{i:02d}" for i in range(21, 33)]


def test_white_points_are_0x11_1x13_2x8(shipped: Catalogue) -> None:
    assert _points(_base(shipped.white)) == {0: 11, 1: 13, 2: 8}


def test_black_points_are_3x8_4x7_5x5(shipped: Catalogue) -> None:
    assert _points(_base(shipped.black)) == {3: 8, 4: 7, 5: 5}


def test_white_rewards_match_the_published_counts(shipped: Catalogue) -> None:
    expected = {"2": 6, "I3": 5, "L3": 5, "I4": 3, "O4": 3, "T4": 3, "L4": 3, "S4": 3, "1": 1}
    assert _rewards(_base(shipped.white)) == expected


def test_black_rewards_match_the_published_counts(shipped: Catalogue) -> None:
    expected = {"1": 6, "2": 3, "I3": 3, "L3": 3, "I4": 1, "O4": 1, "T4": 1, "L4": 1, "S4": 1}
    assert _rewards(_base(shipped.black)) == expected


def test_ghost_cards_are_12_white_ghost_rewards_and_12_black_arrows_or_ghosts(
    shipped: Catalogue,
) -> None:
    """RULINGS "Ghost Piece expansion": 12 white cards each rewarding a ghost (4 P, 4 U, 4 L);
    12 black: 4 with ↑, 4 with ⇈, 4 rewarding a ghost."""
    assert _rewards(_ghost(shipped.white)) == {"P5": 4, "U5": 4, "L5": 4}
    black = _rewards(_ghost(shipped.black))
    assert black["up"] == 4 and black["up2"] == 4
    assert black["P5"] + black["U5"] + black["L5"] == 4


def test_ghost_cards_follow_the_base_net_cell_economy(shipped: Catalogue) -> None:
    """A ghost reward is worth its 5 cells, an arrow one cell per level: net cells by points
    are the base game's."""
    for card in _ghost(shipped.cards):
        low, high = NET_BY_POINTS[(card.colour, card.points)]
        assert low <= card.size - card.reward.size <= high, card.describe()


def test_five_point_cards_are_16_cells_rewarding_a_monomino(shipped: Catalogue) -> None:
    fives = [c for c in _base(shipped.cards) if c.points == 5]  # (B34, an Ambassador card, is the sixth)
    assert len(fives) == 5
    assert all(c.size == 16 and c.reward is Shape.MONO for c in fives)


SIZE_BY_POINTS = {
    (Colour.WHITE, 0): (2, 4),
    (Colour.WHITE, 1): (2, 6),
    (Colour.WHITE, 2): (5, 9),
    (Colour.BLACK, 3): (8, 11),
    (Colour.BLACK, 4): (12, 14),
    (Colour.BLACK, 5): (16, 16),
}
NET_BY_POINTS = {
    (Colour.WHITE, 0): (0, 0),
    (Colour.WHITE, 1): (1, 2),
    (Colour.WHITE, 2): (3, 5),
    (Colour.BLACK, 3): (6, 7),
    (Colour.BLACK, 4): (10, 11),
    (Colour.BLACK, 5): (15, 15),
}


def test_recess_size_follows_points(shipped: Catalogue) -> None:
    for card in _base(shipped.cards):
        low, high = SIZE_BY_POINTS[(card.colour, card.points)]
        assert low <= card.size <= high, card.describe()


def test_net_cells_follow_points(shipped: Catalogue) -> None:
    for card in shipped.cards:
        if card.expansion == "phoenix":  # held to its own figures (test_rules_packs)
            continue
        low, high = NET_BY_POINTS[(card.colour, card.points)]
        assert low <= card.size - card.reward.size <= high, card.describe()


def test_min_pieces_are_1_to_3_for_white_and_2_to_4_for_black(shipped: Catalogue) -> None:
    for card in shipped.white:
        assert 1 <= min_pieces(card.recess) <= 3, card.describe()
    for card in shipped.black:
        if card.expansion != "phoenix":  # Phoenix needs 5: harder than every 5-point card
            assert 2 <= min_pieces(card.recess) <= 4, card.describe()


# The printed set's minimum pieces per card class (the rulebook's cards, measured with the solver):
# (lowest, highest, most common or None when the figures do not say).
PRINTED_MIN_PIECES = {
    (Colour.WHITE, 0): (1, 1, 1),
    (Colour.WHITE, 1): (1, 2, None),
    (Colour.WHITE, 2): (2, 3, 2),
    (Colour.BLACK, 3): (2, 3, 3),
    (Colour.BLACK, 4): (3, 4, None),
    (Colour.BLACK, 5): (4, 4, 4),
}


def test_min_pieces_per_class_match_the_printed_set(shipped: Catalogue) -> None:
    base = [c for c in shipped.cards if c.expansion is None]
    for (colour, points), (low, high, mostly) in PRINTED_MIN_PIECES.items():
        counts = Counter(min_pieces(c.recess) for c in base if (c.colour, c.points) == (colour, points))
        assert counts, (colour, points)
        assert low <= min(counts) and max(counts) <= high, (colour, points, counts)
        if mostly is not None:
            assert counts.most_common(1)[0][0] == mostly, (colour, points, counts)
            assert counts[mostly] * 2 > sum(counts.values()), (colour, points, counts)


def test_zero_point_tetromino_cards_have_their_rewards_own_shape(shipped: Catalogue) -> None:
    cards = [c for c in shipped.white if c.points == 0 and c.reward.size == 4]
    assert len(cards) == 5
    for card in cards:
        assert canonical_form(card.recess) == canonical_form(PLACEMENTS[card.reward][0]), card.describe()


def test_check_prints_the_min_pieces_per_class(shipped: Catalogue) -> None:
    text = format_report(check_catalogue(shipped))
    assert "Minimum pieces per class" in text
    assert "white 2 pt  2: 6, 3: 2  (2–3, mostly 2)" in text
    assert "black 3 pt  2: 1, 3: 7  (2–3, mostly 3)" in text
    assert "black 5 pt  4: 5  (4)" in text


def test_every_recess_is_one_connected_area(shipped: Catalogue) -> None:
    assert all(is_connected(c.recess) for c in shipped.cards)


def test_every_card_is_tileable_with_the_nine_shapes(shipped: Catalogue) -> None:
    for card in shipped.cards:
        tiling = solve(card.recess)
        assert tiling is not None, card.describe()
        covered = 0
        for placement in tiling:
            assert placement & covered == 0
            covered |= placement
        assert covered == card.recess


def test_every_card_can_be_filled_without_monominoes(shipped: Catalogue) -> None:
    # Our design choice: no card has a nook that forces a monomino.
    assert all(fillable_without_monominoes(c.recess) for c in shipped.cards)


def test_only_the_two_zero_point_domino_cards_are_the_same_card(shipped: Catalogue) -> None:
    # Like the printed set's pair: 11 zero-point cards whose recess is their reward's shape (a
    # tetromino only its own) cannot all differ; the repeat is the domino card, as printed.
    keys = Counter((canonical_form(c.recess), c.reward) for c in shipped.cards)
    repeated = {key: n for key, n in keys.items() if n > 1}
    assert list(repeated.values()) == [2]
    (recess, reward), = repeated
    assert reward is Shape.DOMINO and recess == canonical_form(PLACEMENTS[Shape.DOMINO][0])


def test_recesses_of_five_cells_or_more_have_unique_silhouettes(shipped: Catalogue) -> None:
    # Only the 2-4 cell recesses may repeat (there are just 8 such shapes for 11+ cards), and a
    # 0-point ghost card's recess, which is its reward's pentomino (like the base 0-point cards).
    big = [canonical_form(c.recess) for c in shipped.cards
           if c.size >= 5 and not (c.expansion and c.points == 0)]
    assert len(set(big)) == len(big)


def test_checking_the_whole_catalogue_is_fast(shipped: Catalogue) -> None:
    from engine import solver

    solver._min_pieces.cache_clear()
    start = time.process_time()  # CPU time: a busy machine makes the wall clock lie
    report = check_catalogue(shipped)
    assert time.process_time() - start < 1.0
    assert report.ok


def test_shipped_catalogue_has_no_problems_or_notes(shipped: Catalogue) -> None:
    report = check_catalogue(shipped)
    assert report.problems == ()
    assert report.notes == (
        "W01 and W02 are identical (congruent recess, same reward): legal, the printed set has a pair",
    )
    # 6p needs 24 black: the Ghost Piece cards bring them.
    assert report.modes == ("solo", "2p", "3p", "4p", "5p", "6p")


def test_generator_reproduces_the_committed_file(monkeypatch: pytest.MonkeyPatch) -> None:
    script = ROOT / "tools" / "make_catalogue.py"
    spec = importlib.util.spec_from_file_location("make_catalogue", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "make_catalogue", module)  # dataclasses look it up
    spec.loader.exec_module(module)
    committed = (ROOT / "engine/data/puzzles.json").read_text(encoding="utf-8")
    assert dumps_catalogue(module.generate()) == committed


# --------------------------------------------------------------- round trip and loading


def test_round_trip_parse_to_json_parse_is_equal(shipped: Catalogue) -> None:
    data = catalogue_to_json(shipped)
    again = parse_catalogue(data)
    assert again == shipped
    assert catalogue_to_json(again) == data


def test_written_text_reads_back_as_the_same_catalogue(shipped: Catalogue) -> None:
    assert parse_catalogue(json.loads(dumps_catalogue(shipped))) == shipped


def test_load_catalogue_reads_a_file_and_names_it_after_the_file(tmp_path: Path) -> None:
    data = _small()
    del data["name"]
    path = tmp_path / "my_puzzles.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    cat = load_catalogue(str(path))
    assert cat.name == "my_puzzles"
    assert [c.id for c in cat.cards] == ["W01", "W02", "B01"]


def test_parse_name_argument_overrides_the_data() -> None:
    assert parse_catalogue(_small(), name="house set").name == "house set"


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogueError, match="broken.json.*not valid JSON"):
        load_catalogue(bad)
    with pytest.raises(CatalogueError, match="missing.json"):
        load_catalogue(tmp_path / "missing.json")


def test_cards_are_found_by_id_ignoring_case(shipped: Catalogue) -> None:
    assert shipped.by_id("W07") is shipped.by_id("w07")
    assert shipped.mapping["B20"].points == 5
    with pytest.raises(KeyError):
        shipped.by_id("W99")


# --------------------------------------------------------------- malformed catalogues

CARD_W01 = {"id": "W01", "colour": "white", "points": 0, "reward": "2",
            "recess": [".....", ".##..", ".....", ".....", "....."]}
CARD_W02 = {"id": "W02", "colour": "white", "points": 1, "reward": "L3",
            "recess": [".....", ".###.", ".#...", ".....", "....."]}
CARD_B01 = {"id": "B01", "colour": "black", "points": 3, "reward": "I4",
            "recess": [".###.", ".####", ".##..", ".##..", "....."]}


def _small() -> dict[str, Any]:
    return {"format": 1, "name": "tiny", "description": "test set",
            "cards": copy.deepcopy([CARD_W01, CARD_W02, CARD_B01])}


def _with(index: int, **changes: Any) -> dict[str, Any]:
    data = _small()
    data["cards"][index].update(changes)
    return data


MALFORMED = {
    "disconnected recess": (
        _with(1, recess=["#....", ".....", "..##.", ".....", "....."]),
        "Card W02: the recess is not one connected area",
    ),
    "reward is not a piece": (_with(2, reward="X9"), "Card B01: reward 'X9' is not a piece"),
    "duplicate id": (_with(2, id="W01"), "Card W01: the id is used twice"),
    "too few rows": (
        _with(0, recess=[".....", ".##..", "....."]),
        "Card W01: the recess has 3 rows",
    ),
    "row too wide": (
        _with(1, recess=[".....", ".###..", ".#...", ".....", "....."]),
        "Card W02: recess row 2 has 6 characters",
    ),
    "bad character": (
        _with(1, recess=[".....", ".#x#.", ".#...", ".....", "....."]),
        "Card W02: recess row 2 has 'x' in column C",
    ),
    "empty recess": (_with(0, recess=["....."] * 5), "Card W01: the recess is empty"),
    "unknown colour": (_with(2, colour="grey"), "Card B01: colour 'grey' is unknown"),
    "negative points": (_with(1, points=-1), "Card W02: points cannot be negative"),
    "points not a number": (_with(1, points="2"), "Card W02: points must be a whole number"),
    "misspelt field": (_with(0, color="white"), "Card W01: unknown field 'color'.*'colour'"),
    "reward of the wrong type": (_with(2, reward=None), "Card B01: reward must be a piece code"),
}


@pytest.mark.parametrize("case", list(MALFORMED), ids=list(MALFORMED))
def test_malformed_cards_are_rejected_with_the_card_named(case: str) -> None:
    data, message = MALFORMED[case]
    with pytest.raises(CatalogueError, match=message):
        parse_catalogue(data)


def test_a_card_without_a_field_is_rejected() -> None:
    data = _small()
    del data["cards"][1]["recess"]
    with pytest.raises(CatalogueError, match="Card W02: missing field"):
        parse_catalogue(data)


def test_a_card_without_an_id_is_named_by_position() -> None:
    data = _small()
    del data["cards"][1]["id"]
    with pytest.raises(CatalogueError, match="Card #2"):
        parse_catalogue(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"name": "x", "cards": [CARD_W01]}, "format"),
        ({"format": 2, "name": "x", "cards": [CARD_W01]}, "format 2"),
        ({"format": 1, "name": "x", "cards": []}, "non-empty list of 'cards'"),
        ({"format": 1, "cards": [CARD_W01]}, "needs a non-empty 'name'"),
        ({"format": 1, "name": "x", "cards": [CARD_W01], "extra": 1}, "unknown field"),
    ],
)
def test_malformed_catalogues_are_rejected(data: Any, message: str) -> None:
    with pytest.raises(CatalogueError, match=message):
        parse_catalogue(data)


def test_duplicate_ids_are_rejected_when_building_a_catalogue_directly() -> None:
    card = PuzzleCard("W01", Colour.WHITE, 0, Shape.DOMINO, 0b11)
    with pytest.raises(CatalogueError, match="Card W01"):
        Catalogue(name="x", cards=(card, card))


# --------------------------------------------------------------- reports and the CLI


def test_a_small_catalogue_is_accepted_but_supports_no_mode() -> None:
    report = check_catalogue(parse_catalogue(_small()))
    assert report.modes == ()
    assert not report.ok
    assert any("any game mode" in p for p in report.problems)


def test_modes_follow_the_card_counts() -> None:
    shipped_data = catalogue_to_json(load_catalogue())
    # Keep 15 white and 10 black: enough for solo only.
    white = [c for c in shipped_data["cards"] if c["colour"] == "white"][:15]
    black = [c for c in shipped_data["cards"] if c["colour"] == "black"][:10]
    data = {**shipped_data, "cards": white + black}
    report = check_catalogue(parse_catalogue(data))
    assert report.modes == ("solo",)
    assert report.ok


def test_report_notes_cards_off_the_published_economy() -> None:
    data = _with(1, points=2)  # a 4-cell recess is too small for 2 points
    report = check_catalogue(parse_catalogue(data))
    assert any(note.startswith("W02:") and "net 1" in note for note in report.notes)


def test_report_measures_each_card(shipped: Catalogue) -> None:
    report = check_catalogue(shipped)
    first = report.cards[0]
    assert (first.id, first.size, first.net_cells, first.min_pieces, first.no_mono) == (
        "W01", 2, 0, 1, True
    )


def test_format_report_has_a_line_per_card_and_the_modes(shipped: Catalogue) -> None:
    text = format_report(check_catalogue(shipped))
    card_lines = [line for line in text.splitlines() if "no-mono: " in line]
    assert len(card_lines) == 86
    assert all("min pieces" in line for line in card_lines)
    assert "Modes supported: solo, 2p, 3p, 4p, 5p, 6p" in text
    assert "Ghost Piece expansion: 12 white + 12 black cards" in text
    assert any("reward up2" in line for line in card_lines)


def test_main_check_returns_zero_for_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main_check(None) == 0
    assert "no-mono: yes" in capsys.readouterr().out


def test_main_check_is_non_zero_on_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = tmp_path / "small.json"
    small.write_text(json.dumps(_small()), encoding="utf-8")
    assert main_check(str(small)) == 1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(_with(2, reward="X9")), encoding="utf-8")
    assert main_check(str(broken)) == 2
    assert "Card B01: reward 'X9' is not a piece" in capsys.readouterr().err


def test_a_catalogue_with_two_identical_cards_loads_and_plays_every_supported_mode() -> None:
    """RULINGS "Components": the printed set holds two cards with the same recess and the same
    reward; a catalogue may too. It loads, `--check` notes the pair (no problem), and a game of
    every mode it supports is dealt from it and played to the end."""
    data = catalogue_to_json(load_catalogue())
    first = data["cards"][0]
    data["cards"][1] = {**first, "id": data["cards"][1]["id"]}  # W02 becomes a copy of W01
    catalogue = parse_catalogue(data)
    report = check_catalogue(catalogue)
    assert report.ok
    assert [n for n in report.notes if "identical" in n] == [
        "W01 and W02 are identical (congruent recess, same reward): legal, the printed set has a pair"
    ]
    assert report.modes == ("solo", "2p", "3p", "4p", "5p", "6p")
    for mode in report.modes:
        players = 1 if mode == "solo" else int(mode[0])
        options = Options.for_players(players)
        record = play_game(options, 3, [GreedyPolicy(seat) for seat in range(players)],
                           keep_log=False, cards=catalogue.cards)
        assert record.final_state.is_over, mode
