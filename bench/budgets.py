"""Every budget a bench figure is held to, in one table: the place to add one.

A budget is a promise to the players (a time they wait, a size Discord accepts, memory a small
host has, how often the AI wins), not the figure of the day plus a margin; never loosen one to
make a run pass. Each entry names the figure's JSON key, the limit, what kind of promise it is
and which suites must measure it (``python -m bench <suite>``). :class:`bench.report.BenchReport`
looks the key up when a bench records the figure, so a bench only measures and calls
``report.add(key, value, label=..., unit=...)``; a budget its suite never recorded is reported as
missed ("not measured"), so a budget cannot silently stop being checked.

``kind`` decides which bench checks it: ``speed``, ``size``, ``memory`` and ``refusals`` (how
often a player is refused for no reason of theirs) budgets belong to the quick bench
(``make bench``: the ``engine``, ``renders``, ``bot`` and ``waits`` suites, about four minutes),
``strength`` budgets to the AI bench (``make bench-ai``: the ``ai`` suite, long games), and the
shard figure to ``make bench-scale`` (the ``scale`` suite: it starts a PostgreSQL server).

A budget is a bound on one side (:func:`at_most`, :func:`at_least`) or a range (:func:`within`):
the AI ladder's levels must each beat the one below often enough to feel stronger, yet not so
often that the lower level is no game for a player who has just outgrown it, so a win rate above
the range misses its promise as surely as one below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["speed", "size", "memory", "refusals", "strength"]
Limit = Literal["<=", ">=", "within"]

QUICK_SUITES: tuple[str, ...] = ("engine", "renders", "bot", "waits", "web")
"""``make bench`` / ``python -m bench``: everything about speed, size and memory."""
AI_SUITES: tuple[str, ...] = ("ai",)
"""``make bench-ai``: the AI's strength games."""
SCALE_SUITES: tuple[str, ...] = ("scale",)
"""``make bench-scale``: several processes on one PostgreSQL server it starts (minutes, and a
server the quick bench cannot count on)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The limit one figure is held to, in the figure's unit: ``at_most`` or ``at_least``
    ``value``, or ``within`` ``value`` and ``upper`` (both included)."""

    limit: Limit
    value: float
    kind: Kind
    suites: tuple[str, ...]
    why: str
    upper: float | None = None


def at_most(value: float, kind: Kind, *suites: str, why: str) -> Budget:
    return Budget("<=", value, kind, suites, why)


def at_least(value: float, kind: Kind, *suites: str, why: str) -> Budget:
    return Budget(">=", value, kind, suites, why)


def within(low: float, high: float, kind: Kind, *suites: str, why: str) -> Budget:
    """``low`` <= the figure <= ``high``."""
    if low > high:
        raise ValueError(f"an empty range: {low} > {high}")
    return Budget("within", low, kind, suites, why, upper=high)


BUDGETS: dict[str, Budget] = {
    # -- engine (bench/engine.py): CPU time of one process ----------------------------------------
    "placements_ms": at_most(1.0, "speed", "engine",
                             why="one enumeration of every legal placement, cold caches"),
    "random_actions_per_s": at_least(10_000, "speed", "engine",
                                     why="random 4-player play on one core, enumeration included"),
    "strong_decision_p95_s": at_most(0.5, "speed", "engine", "ai",
                                     why="a Strong decision (a search), 95th percentile, one core"),
    "expert_decision_p95_s": at_most(
        0.5, "speed", "engine", why="issue 29: an Expert decision (a search), 95th percentile, one core"),
    # -- AI strength (bench/ai.py) ----------------------------------------------------------------
    "strong_vs_greedy_2p": at_least(0.85, "strength", "ai", why="Strong beats Easy (greedy), 2 players"),
    "strong_vs_tuned_greedy_2p": at_least(0.75, "strength", "ai",
                                          why="Strong beats a differently tuned greedy, 2 players"),
    "expert_share_3p": at_least(0.66, "strength", "ai", why="Expert's win share, 3 players beside 2 greedy"),
    "expert_share_4p": at_least(0.50, "strength", "ai", why="Expert's win share, 4 players beside 3 greedy"),
    "expert_solo_win_rate_normal": at_least(0.75, "strength", "ai",
                                            why="Expert against the Normal mastermind"),
    "expert_solo_win_rate_unbeatable": at_least(0.15, "strength", "ai",
                                                why="Expert against the Unbeatable mastermind"),
    "hint_regret_over_2": at_most(3, "strength", "ai",
                                  why="of 100 fixed positions, hints losing > 2 points to a 4x Expert"),
    # The ladder (bench/ladder.py; issue 50's ruling, docs/ai.md): each level beats the one below,
    # but not out of sight.
    "ladder_medium_vs_greedy_2p": within(0.65, 0.85, "strength", "ai",
                                         why="the ladder: Medium beats Easy (greedy), 2 players"),
    "ladder_strong_vs_medium_2p": within(0.65, 0.85, "strength", "ai",
                                         why="the ladder: Strong beats Medium, 2 players"),
    "ladder_expert_vs_strong_2p": within(0.65, 0.85, "strength", "ai",
                                         why="the ladder: Expert beats Strong, 2 players"),
    # The Expert against every other league member (bench/league.py; issue 50: strong against
    # opponents it never met, the held-out ones included).
    **{f"league_expert_vs_{member}_2p": at_least(
        0.75, "strength", "ai",
        why=f"issue 50: the Expert beats the league's {member}, 2 players, held-out deals")
       for member in ("greedy", "tuned", "medium", "strong", "planner", "rush_black", "hoarder", "end_racer",
                      "hand_planner", "turn_planner")},
    # -- images (bench/renders.py) ----------------------------------------------------------------
    "table_render_ms": at_most(4.0, "speed", "renders",
                               why="issue 30: table image, 4-player mid-game, median (a turn's CPU halved)"),
    "table_png_kb": at_most(250.0, "size", "renders", why="Discord's practical size for an inline image"),
    "mat_render_ms": at_most(2.0, "speed", "renders", why="issue 30: a player's mat, median"),
    "describe_ms": at_most(1.0, "speed", "renders",
                           why="issue 26: an image's alt text built from its state, median per image"),
    # -- the bot (bench/bot.py): wall-clock time a player sees ----------------------------------
    "action_p50_ms": at_most(12.0, "speed", "bot", why="one action end to end through the bot, p50"),
    "action_p99_ms": at_most(10.0, "speed", "bot", why="issue 30: one action end to end, p99"),
    "planned_to_tapped_p50_ratio": at_most(
        1.25, "speed", "bot",
        why="issue 49: a planned action costs no more than a tapped one (at the manager; the plan's reads)"),
    "games_200_actions_per_s": at_least(450.0, "speed", "bot",
                                        why="issue 30: 200 busy channels, one process, SQLite, saturated"),
    "rss_mb_1000_games_above_imports": at_most(
        50.0, "memory", "bot", why="issue 15: 1,000 stored games, 100 playing, above the imports"),
    "panel_ack_p99_ms": at_most(100.0, "speed", "bot", why="a panel tap acknowledged, 20 busy channels"),
    "images_100_p99_ms": at_most(700.0, "speed", "bot",
                                 why="issues 10 and 30: 100 channels end a turn at once, images ready"),
    "tables_beside_recap_p99_ms": at_most(
        50.0, "speed", "bot", why="issue 30: no turn post waits behind another game's recap (1.2 s did)"),
    # -- waits (bench/waits.py): just started, or both cores busy ---------------------------------
    "first_table_after_start_ms": at_most(
        2000.0, "speed", "waits", why="issue 46: the first table image after a start (15-16 s before)"),
    "ai_turn_busy_p95_s": at_most(
        3.0, "speed", "waits", why="issues 46 and 50: an AI seat's whole turn with both cores busy, p95"),
    # -- the web board (bench/web.py): what a browser on localhost waits for ------------------------
    "web_action_p99_ms": at_most(15.0, "speed", "web", why="issue 48: an action through the web API, p99"),
    "web_page_load_ms": at_most(300.0, "speed", "web",
                                why="issue 48: the board's HTML, scripts and first state, localhost"),
    "web_pages_200_extra_mb": at_most(30.0, "memory", "web",
                                      why="issue 48: 200 open pages with live updates, one process"),
    "web_update_200_p99_ms": at_most(1000.0, "speed", "web",
                                     why="issue 48: a move reaching all 200 pages, p99"),
    # -- scale (bench/scale.py, make bench-scale): shard processes on one PostgreSQL ---------------
    "postgresql_2_speedup": at_least(
        1.6, "speed", "scale", why="issue 30: 2 shard processes on PostgreSQL over 1, 200 busy channels"),
    "stats_5000_games_ms": at_most(100.0, "speed", "bot", why="/projectl stats at 5,000 finished games"),
    "log_tail_3000_rows_ms": at_most(5.0, "speed", "bot", why="a turn post's log lines at 3,000 rows"),
    "turn_3000_rows_ms": at_most(12.0, "speed", "bot", why="an action at a 3,000-row log, as at 30"),
    "resume_peak_mb": at_most(10.0, "memory", "bot", why="resume() among 5,000 finished games"),
    "start_100_ack_max_ms": at_most(3000.0, "speed", "bot", why="Discord's deadline for an acknowledgement"),
    "strong_turn_p95_s": at_most(3.0, "speed", "bot", why="a Strong seat's whole turn, 20 busy channels"),
    "expert_turn_p95_s": at_most(3.0, "speed", "bot",
                                 why="an Expert seat's whole turn, 20 busy channels (issue 29)"),
    "rating_update_ms": at_most(5.0, "speed", "bot",
                                why="issue 27: a finished game's rating update, inside its game-end commit"),
    "replay_step_p95_ms": at_most(150.0, "speed", "bot",
                                  why="issue 27: one replay step shown (log replayed, the table drawn), p95"),
    "recap_cpu_s": at_most(5.0, "speed", "bot", why="issue 27: a 4-player game's animated recap, CPU"),
    "recap_mb": at_most(10.0, "size", "bot", why="issue 27: the recap within Discord's 10 MB attachment"),
    "line_clear_stale_commits_pct": at_most(
        2.0, "refusals", "bot",
        why="issue 23: Line Clear's two holders at once, commits refused as out of date (26 % before)"),
}


def budgets_of(suite: str, budgets: dict[str, Budget] | None = None) -> dict[str, Budget]:
    """The budgets ``suite`` must measure (in registry order)."""
    table = BUDGETS if budgets is None else budgets
    return {key: budget for key, budget in table.items() if suite in budget.suites}
