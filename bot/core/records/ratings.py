"""Ratings: who is rated, on which ladders, and how a finished game moves them (docs/ratings.md).

No SQL and no Discord here. The maths is ``openskill``'s Plackett-Luce model (a multiplayer
result of 2-6 seats is ONE update, ties are ties); this module only decides the result's shape —
which seats are entrants, their ranks, the anchors whose ratings are fixed — and hands the store
(bot/core/storage/ratings.py) a step that runs inside the game-end transaction.

The rules, in one place:

* A finished game of 2-6 seats is rated when at least one human entrant is in it and at least two
  entrants are. Ranks come from the engine's own order (score, then its tie-breaks); seats still
  equal share a rank (a tie). A seat removed by vote (or that left) ranks below every seat that
  finished, tied with the others removed.
* A seat handed to an AI mid-game (``replace``) after its player let a turn clock run out (and
  did not play since) is rated for that human, as if removed (last): leaving a losing game by
  going silent never protects a rating. One handed over while its player was present is left
  out: the host's choice is not the player's, and replacing a present opponent must win the
  host nothing. The AI that played it on is never an entrant.
* AI seats are entrants with their kind's calibrated rating (``bot/core/records/data/ai_ratings.json``,
  written by ``python -m bench ratings``), fixed: playing humans never changes an AI's rating.
* Casual (recorded, not rated): the table was made ``rated: off``; its cards are not the shipped
  catalogue; someone asked for a hint in a multiplayer game (a rated multiplayer table refuses
  hints, so only games from before that rule have any), or in a Solo game the player won (Solo
  keeps its hints: one is no shield, so a lost Solo game with hints is rated as any loss, and
  one cannot lift a rating, so a won one is casual); a server's own (plug-in) AI sat at the table,
  which has no calibrated rating; fewer than two entrants or no human. An undo does not make
  a game casual (it only takes back an action that revealed nothing and that nobody answered).
* Cancelled (``GameManager.cancel``) after its first action, at a table that would be rated, by a
  player holding a seat in it: rated, the canceller last and every other entrant sharing first
  (those already removed, or handed to an AI while absent, stay last beside the canceller; in
  Solo it is a loss at full weight); reason ``cancelled-by:<user id>``. Cancelling a losing game
  never protects a rating; only the canceller's rating moves (and those already gone): a cancel is
  nobody's win, so a second account cannot hand out wins by cancelling. A cancel by someone
  with no seat (a moderator) or by a deleted channel, or in the lobby or before any action,
  rates nothing.
* Farming a weak AI: a game in which every other entrant is an AI cannot lift a human's mu above
  the strongest of those AIs' mu + ``AI_FARM_LIMIT / DISPLAY_PER_MU`` (400 display points); a
  rating already above that bound is never lowered by it, only not raised.
* Solo: one ladder per difficulty. The game is a two-entrant result against the mastermind of that
  difficulty, a fixed anchor at the starting rating; a win needs a higher score than the
  mastermind (the engine's rule: a tie is its win), and the margin weights the update: the
  player takes ``(1 + min(|margin|, 20) / 10) / 3`` of openskill's change (all of it at a margin
  of 20 or more, a third at 0).
* Every game counts on two ladders: the server's and the global one (``all``).

The display scale: ``1500 + 40 * (mu - 25)``, so a new player (mu 25) shows 1,500 and one point
of openskill's mu is 40 display points; ladders are ordered by the conservative ``mu - 3 sigma``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from openskill.models import PlackettLuce

import engine
from bot.core.errors import UnreadableGameError
from bot.core.games import Game
from bot.core.storage.db import Storage
from bot.core.storage.ratings import (
    CANCELLED_BY,
    Casual,
    Entrant,
    GameFacts,
    Prior,
    RatedGame,
    RatingStore,
    rating_work,
)
from bot.core.storage.transactions import InTransaction
from bot.core.wording.locales import unescaped
from engine import GameState, serialisation
from engine.policies import POLICIES
from engine.variants.base import rank_by_tiebreaks, tiebreak

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
INITIAL: Prior = (MODEL.mu, MODEL.sigma)
"""A player's rating before their first rated game: openskill's defaults (25, 25/3)."""
DISPLAY_BASE, DISPLAY_PER_MU = 1500, 40
PROVISIONAL_GAMES = 5
"""Below this many rated games a rating is shown as provisional (with a '?')."""
AI_RATINGS_FILE = Path(__file__).resolve().parent / "data" / "ai_ratings.json"
GLOBAL = "all"
MAX_MARGIN = 20
AI_FARM_LIMIT = 400
"""Display points above the strongest AI at the table that a game against AIs only can lift a
human to (on the display scale, 400 points is 10 mu)."""

CASUAL_OFF, CASUAL_CATALOGUE, CASUAL_HINTS, CASUAL_FEW = "rated-off", "custom-catalogue", "hints", "few"
CASUAL_ERROR = "error"
CASUAL_PLUGIN = "plugin-ai"
CASUAL_REASONS = (CASUAL_OFF, CASUAL_CATALOGUE, CASUAL_HINTS, CASUAL_FEW, CASUAL_ERROR, CASUAL_PLUGIN)


def display(mu: float) -> int:
    """A rating as players read it (the module doc states the mapping)."""
    return round(DISPLAY_BASE + DISPLAY_PER_MU * (mu - INITIAL[0]))


def display_delta(delta_mu: float) -> int:
    return round(DISPLAY_PER_MU * delta_mu)


def server_ladder(guild_id: int | None, base: str = "") -> str:
    """The ladder of one server (``base`` '' for multiplayer, 'solo-<difficulty>' for Solo)."""
    head = f"{base}:" if base else ""
    return f"{head}server:{guild_id}"


def solo_ladder(difficulty: str) -> str:
    return f"solo-{difficulty}"


def ladders_for(game: Game) -> tuple[str, ...]:
    """The ladders a game of ``game``'s kind counts on: its server's and the global one."""
    if game.settings.variant == "solo":
        base = solo_ladder(game.settings.rules.difficulty.value)
        return (base, server_ladder(game.guild_id, base)) if game.guild_id is not None else (base,)
    return (GLOBAL, server_ladder(game.guild_id)) if game.guild_id is not None else (GLOBAL,)


@lru_cache(maxsize=1)
def ai_ratings() -> dict[str, Prior]:
    """Each AI kind's calibrated (mu, sigma), from the file ``python -m bench ratings`` writes."""
    data = json.loads(AI_RATINGS_FILE.read_text(encoding="utf-8"))
    return {kind: (float(v["mu"]), float(v["sigma"])) for kind, v in data.items() if not kind.startswith("_")}


def ai_rating(kind: str | None) -> Prior:
    return ai_ratings().get(kind or "", INITIAL)


@lru_cache(maxsize=1)
def shipped_catalogue_key() -> str:
    return serialisation.catalogue_key(engine.new_game(engine.Options.for_players(2), 0).cards)


def user_key(user_id: int) -> str:
    return f"user:{user_id}"


def table_casual_reason(game: Game, state: GameState) -> str | None:
    """Why ``game``'s table is casual whatever is played at it (None: it is rated) — what its
    settings, cards and seats decide; hints asked and entrants come later."""
    if not game.settings.rated:
        return CASUAL_OFF
    if serialisation.catalogue_key(state.cards) != shipped_catalogue_key():
        return CASUAL_CATALOGUE
    if any(seat.policy is not None and seat.policy not in POLICIES for seat in game.seats):
        return CASUAL_PLUGIN  # a server's own AI has no calibrated rating to be rated against
    return None


def refuses_hints(game: Game) -> bool:
    """Whether asking for a hint is refused: a rated multiplayer table (a hint would make the game
    casual for everyone, so a losing player could void the result). Solo keeps its hints."""
    return game.settings.variant != "solo" and game.state is not None and \
        table_casual_reason(game, game.state) is None


def hint_keeps_losses_rated(game: Game) -> bool:
    """Whether a hint at ``game``'s table leaves it rated when lost and casual when won (a rated
    Solo table: what the first hint of its game tells the player)."""
    return game.settings.variant == "solo" and game.state is not None and \
        table_casual_reason(game, game.state) is None


def judge(game: Game, state: GameState, facts: GameFacts) -> RatedGame | Casual:
    """Rated or casual, and with which entrants and ranks (the module doc's rules)."""
    reason = table_casual_reason(game, state)
    if reason is not None:
        return Casual(reason)
    solo = game.settings.variant == "solo"
    if facts.hinted and not solo:  # games started before a rated multiplayer table refused hints
        return Casual(CASUAL_HINTS)
    entrants = _solo_entrants(game, state) if solo else _entrants(game, state, facts)
    if len(entrants) < 2 or not any(e.fixed is None for e in entrants):
        return Casual(CASUAL_FEW)
    if facts.hinted and entrants[0].rank == 1:  # Solo: a hint may not lift a rating, nor shield a loss
        return Casual(CASUAL_HINTS)
    return RatedGame(ladders_for(game), tuple(entrants))


def judge_cancelled(game: Game, state: GameState, facts: GameFacts, canceller: int) -> RatedGame | None:
    """A game ``canceller`` (holding a seat) cancelled: rated as their loss, every other entrant
    sharing first, when it had its first action and would have been rated; else None (nothing
    recorded, as for any other cancel). Only the canceller's rating moves (and those of seats
    already gone, last beside them, whose departure was their own): the others are entrants at
    weight 0, so a cancel is nobody's win — or a second account could hand out wins in seconds."""
    if game.settings.variant == "solo":  # a cancel is a loss, and a hint never shields a Solo loss
        facts = replace(facts, hinted=False)
    if not facts.acted or isinstance(judged := judge(game, state, facts), Casual):
        return None
    last = max(e.rank for e in judged.entrants) + 1
    gone = {seat.seat for seat in game.seats if state.players[seat.seat].removed} | set(facts.absent)
    entrants = []
    for entrant in judged.entrants:
        if entrant.user_id == canceller and entrant.seat not in facts.absent:
            entrants.append(replace(entrant, rank=last, weight=1.0))
        elif entrant.seat in gone:
            entrants.append(replace(entrant, rank=last))
        else:
            entrants.append(replace(entrant, rank=1, weight=0.0))
    if not any(e.user_id == canceller for e in entrants if e.rank == last):
        return None  # the canceller is no entrant of the game (cannot happen for a seated canceller)
    return RatedGame(judged.ladders, tuple(entrants), reason=f"{CANCELLED_BY}{canceller}")


def _entrants(game: Game, state: GameState, facts: GameFacts) -> list[Entrant]:
    finished = [line for line in engine.score_lines(state) if not state.players[line.seat].removed]
    ranks: dict[int, int] = {}
    for place, group in enumerate(rank_by_tiebreaks(finished, lambda seat: tiebreak(state, seat)), start=1):
        for number in group:
            ranks[number] = place
    last = len(set(ranks.values())) + 1
    entrants = []
    for seat in game.seats:
        gone = state.players[seat.seat].removed
        if seat.user_id is not None:
            entrants.append(Entrant(user_key(seat.user_id), seat.seat, last if gone else ranks[seat.seat],
                                    str(unescaped(seat.name)), seat.user_id))
        elif seat.seat in facts.absent:  # handed to an AI once absent: rated for the human who left it
            user = facts.replaced[seat.seat]
            entrants.append(Entrant(user_key(user), seat.seat, last, "", user))
        elif seat.seat in facts.replaced:
            continue  # handed over while present: the host's choice, not the player's, rates neither
        elif not gone:
            entrants.append(Entrant(f"ai:{seat.policy}", seat.seat, ranks[seat.seat],
                                    fixed=ai_rating(seat.policy)))
    return entrants


def solo_weight(margin: int) -> float:
    """The share of a Solo result's full update: a third at a margin of 0, all of it at 20+."""
    return (1 + min(abs(margin), MAX_MARGIN) / 10) / 3


def _solo_entrants(game: Game, state: GameState) -> list[Entrant]:
    seat = game.seats[0]
    if seat.user_id is None:
        return []  # watched: an AI played it
    mine = engine.score_lines(state)[0].total
    margin = mine - (engine.opponent_score(state) or 0)
    won = engine.winners(state) == (0,)
    return [Entrant(user_key(seat.user_id), 0, 1 if won else 2, str(unescaped(seat.name)), seat.user_id,
                    weight=solo_weight(margin)),
            Entrant(f"mastermind:{game.settings.rules.difficulty.value}", -1, 2 if won else 1, fixed=INITIAL)]


def rate(entrants: Sequence[Entrant], priors: Mapping[str, Prior]) -> dict[str, Prior]:
    """One Plackett-Luce update of the whole result: the new (mu, sigma) of every entrant. An
    entrant's ``weight`` below 1 (Solo's margin) takes that share of openskill's change (openskill's
    own ``weights`` are normalised across the table, so a lone player's weight would not count)."""
    teams, before = [], []
    for entrant in entrants:
        mu, sigma = entrant.fixed or priors.get(entrant.key, INITIAL)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        before.append((mu, sigma))
    rated = MODEL.rate(teams, ranks=[float(e.rank) for e in entrants])
    share = [entrant.weight for entrant in entrants]
    after = {entrant.key: (mu + w * (team[0].mu - mu), sigma + w * (team[0].sigma - sigma))
             for entrant, team, (mu, sigma), w in zip(entrants, rated, before, share, strict=True)}
    for entrant, (mu, _) in zip(entrants, before, strict=True):
        bound = ai_farm_bound(entrant, entrants)
        if bound is not None and after[entrant.key][0] > max(bound, mu):
            after[entrant.key] = (max(bound, mu), after[entrant.key][1])
    return after


def ai_farm_bound(entrant: Entrant, entrants: Sequence[Entrant]) -> float | None:
    """The highest mu a game can lift ``entrant`` (a human) to when every other entrant is an AI:
    the strongest of them + ``AI_FARM_LIMIT`` display points; None when another human (or the
    Solo mastermind, which has ladders of its own) sits at the table."""
    if entrant.fixed is not None:
        return None
    others = [e for e in entrants if e is not entrant]
    if not others or any(e.fixed is None or not e.key.startswith("ai:") for e in others):
        return None
    return max(e.fixed[0] for e in others if e.fixed is not None) + AI_FARM_LIMIT / DISPLAY_PER_MU


def rating_step(game: Game, state: GameState) -> InTransaction:
    """The step that rates ``game`` (finished in ``state``) inside the transaction ending it."""

    def judged(facts: GameFacts) -> RatedGame | Casual:
        try:
            return judge(game, state, facts)
        except Exception:  # a rating bug must never stop a game from ending: it is left unrated
            log.exception("game %s could not be rated", game.id)
            return Casual(CASUAL_ERROR)

    return rating_work(game.id, judged, rate, INITIAL)


def cancel_rating_step(game: Game, state: GameState, canceller: int) -> InTransaction:
    """The step that rates ``game``, cancelled by ``canceller`` who holds a seat in it, inside the
    transaction that cancels it (it records nothing when the cancel is not rated)."""

    def judged(facts: GameFacts) -> RatedGame | None:
        try:
            return judge_cancelled(game, state, facts, canceller)
        except Exception:  # a rating bug must never stop a cancel: it is left unrated
            log.exception("cancelled game %s could not be rated", game.id)
            return None

    return rating_work(game.id, judged, rate, INITIAL)


def trend(changes: Sequence[tuple[float, float]]) -> int:
    """Display points won or lost over ``changes`` ((mu before, mu after), oldest first)."""
    return display_delta(changes[-1][1] - changes[0][0]) if changes else 0


async def cancel_would_be_a_loss(storage: Storage, game: Game, user_id: int) -> bool:
    """Whether ``user_id`` cancelling ``game`` now would be rated as their loss (what the cancel's
    question says before it is confirmed)."""
    if game.state is None or game.seat_of(user_id) is None:
        return False
    facts = await RatingStore(storage).facts(game.id)
    return judge_cancelled(game, game.state, facts, user_id) is not None


async def cancelled_as_loss(storage: Storage, game_id: int) -> bool:
    """Whether ``game_id`` was rated because a seated player cancelled it (what the cancel's
    answer tells the channel)."""
    judged = await RatingStore(storage).judged(game_id)
    return judged is not None and judged[0] and (judged[1] or "").startswith(CANCELLED_BY)


async def recompute(storage: Storage) -> tuple[int, int]:
    """Rebuild every rating from the stored finished games (and those rated because a seated
    player cancelled them), in the order they ended, with the same step the game end runs (so
    the result equals the incremental one). Returns (games judged, games that could not be read
    and were left out)."""
    store = RatingStore(storage)
    works: list[InTransaction] = []
    unreadable = 0
    for game_id, canceller in await store.finished_game_ids():
        try:
            game = Game.from_row(await storage.get_game(game_id))
        except UnreadableGameError:
            unreadable += 1
            continue
        if game.state is None or (canceller is None and not game.state.is_over):
            unreadable += 1
            continue
        works.append(rating_step(game, game.state) if canceller is None else
                     cancel_rating_step(game, game.state, canceller))
    await store.rebuild(works)
    return len(works), unreadable
