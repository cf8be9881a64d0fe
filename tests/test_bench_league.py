"""The league bench (bench/league.py, issue 29 item 2): every member against every other, on
held-out deals, seats alternating, one row per pairing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import league
from bench.budgets import BUDGETS
from bench.strong import Result, StrongGames


def test_every_pairing_once_in_turn_on_held_out_deals() -> None:
    members = ("greedy", "tuned", "planner")
    assert league.pairings(members) == ("greedy:tuned", "greedy:planner", "tuned:planner")
    jobs = league.league_jobs(2, members)
    assert [pairing for pairing, _, _ in jobs[:3]] == list(league.pairings(members))
    assert all(seed == league.LEAGUE_SEED + index for _, index, seed in jobs)
    assert len(jobs) == 6
    assert league.pairings(members, involving="planner") == ("greedy:planner", "tuned:planner")


def test_standings_weigh_each_pairing_alike() -> None:
    """A member's standing is the mean of its shares, the second member of a pairing scoring the
    complement of the first's."""
    won: Result = (1.0, 5.0, [])
    lost: Result = (0.0, -3.0, [])
    played = StrongGames({"a:b": [won, won, won, lost], "a:c": [lost, lost], "b:c": [won, lost]})
    assert played.rate("a:b") == 0.75
    table = league.standings(played, ("a", "b", "c"))
    assert table == {"a": 0.375, "b": 0.375, "c": 0.75}


def test_a_small_league_plays_real_games_into_its_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The real path: games between real policies (the cheap members: a real Expert game costs
    seconds), figures, the Markdown table and the JSON file."""
    out = tmp_path / "league.json"
    assert league.main(["--games", "1", "--members", "greedy,tuned,planner", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert set(figures["pairings"]) == {"greedy:tuned", "greedy:planner", "tuned:planner"}
    for row in figures["pairings"].values():
        assert row["games"] == 1 and 0.0 <= row["share"] <= 1.0
    assert figures["first_seed"] == league.LEAGUE_SEED
    assert 0.0 <= min(figures["standings"].values()) <= max(figures["standings"].values()) <= 1.0
    text = capsys.readouterr().out
    assert "| greedy – planner | 1 |" in text and "| Member |" in text


def test_unknown_members_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        league.main(["--members", "greedy,grandmaster"])
    assert "grandmaster" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        league.main(["--members", "greedy,tuned", "--involving", "expert"])
    assert "--involving must name a member" in capsys.readouterr().err


def test_the_outsiders_are_members_some_held_out_and_each_held_to_the_target() -> None:
    """Issue 50: the league holds opponents built unlike the searches, some never used for tuning,
    and ``make bench-ai`` holds the Expert to 75 % against every other member."""
    assert {"rush_black", "hoarder", "end_racer", "hand_planner"} <= set(league.MEMBERS)
    assert league.HELD_OUT and set(league.HELD_OUT) <= set(league.MEMBERS)
    assert not set(league.HELD_OUT) & set(league.TUNING) and "expert" not in league.TUNING
    for member in league.MEMBERS:
        if member != "expert":
            budget = BUDGETS[f"league_expert_vs_{member}_2p"]
            assert (budget.limit, budget.value, budget.suites) == (">=", 0.75, ("ai",))
