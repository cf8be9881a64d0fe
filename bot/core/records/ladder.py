"""The wording of ratings: ladder pages, AI levels and each player's rating line (pure: no SQL,
no Discord). The maths and the rules are in :mod:`bot.core.records.ratings`; the commands in
``bot/discord/cogs/ladder.py``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.records.ratings import (
    GLOBAL,
    PROVISIONAL_GAMES,
    ai_ratings,
    display,
    display_delta,
    server_ladder,
    solo_ladder,
)
from bot.core.storage.ratings import RatingChange, RatingRow
from bot.core.wording import texts
from bot.core.wording.locales import Joined, PlayerName

PAGE_SIZE = 10
SCOPES = ("server", "all")
LADDERS = ("multi", "solo-normal", "solo-hard", "solo-unbeatable")
AI_ORDER = ("random", "greedy", "medium", "ladder_strong", "expert")
"""The levels a table can seat, weakest first, as the leaderboard lists their ratings."""


def ladder_key(scope: str, ladder: str, guild_id: int | None) -> str:
    """The stored ladder a (scope, ladder) choice names."""
    base = "" if ladder == "multi" else solo_ladder(ladder.removeprefix("solo-"))
    if scope == "all":
        return base or GLOBAL
    return server_ladder(guild_id, base)


def rating_text(mu: float) -> str:
    """A rating on the display scale, with the reader's thousands separator (1,640 / 1.640)."""
    value = display(mu)
    if abs(value) < 1000:
        return str(value)
    return texts.RATING_VALUE.format(thousands=int(value / 1000), rest=f"{abs(value) % 1000:03d}")


def ladder_name(ladder: str) -> str:
    if ladder == "multi":
        return texts.LADDER_MULTI
    difficulty = ladder.removeprefix("solo-")
    return texts.LADDER_SOLO.format(difficulty=texts.DIFFICULTY_NAMES.get(difficulty, difficulty))


def title(scope: str, ladder: str, page: int, pages: int) -> str:
    where = texts.SCOPE_ALL if scope == "all" else texts.SCOPE_SERVER
    return texts.LEADERBOARD_TITLE.format(scope=where, ladder=ladder_name(ladder), page=page, pages=pages)


def pages_of(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


def provisional(games: int) -> str:
    return "?" if games < PROVISIONAL_GAMES else ""


def leaderboard_lines(rows: Sequence[RatingRow], offset: int) -> list[str]:
    return [texts.LEADERBOARD_LINE.format(place=offset + i + 1, name=PlayerName(row.display_name),
                                          rating=rating_text(row.mu), provisional=provisional(row.games),
                                          games=row.games)
            for i, row in enumerate(rows)]


def ai_levels() -> str:
    """"Random AI ≈ 1,100 · Greedy AI ≈ 1,500 · Strong AI ≈ 1,640" in the reader's language."""
    found = ai_ratings()
    levels = [texts.AI_LEVEL.format(name=texts.POLICY_NAMES.get(kind, kind),
                                    rating=rating_text(found[kind][0])) for kind in AI_ORDER if kind in found]
    return texts.LEADERBOARD_AI.format(levels=Joined(levels, " · "))


def trend_text(changes: Sequence[RatingChange]) -> str:
    if not changes:
        return "±0"
    delta = display_delta(changes[-1].mu_after - changes[0].mu_before)
    return f"▲ +{delta}" if delta > 0 else (f"▼ {delta}" if delta < 0 else "±0")


def rating_line(row: RatingRow, changes: Sequence[RatingChange]) -> str:
    return texts.RATING_LINE.format(name=PlayerName(row.display_name), rating=rating_text(row.mu),
                                    provisional=provisional(row.games), games=row.games, n=len(changes),
                                    trend=trend_text(changes))
