"""Advice from the Expert AI: ``/projectl play hint`` during your turn, ``/projectl review`` (and a
Review button under the results) after the game.

The thinking runs in the manager's process pool (:mod:`bot.core.play.thinking`), never on the event loop.
A hint is private, only for the player whose move it is, and counted (the count is shown with the
final results); a table opened with ``hints: False`` refuses hints, and so does a rated
multiplayer table (:meth:`~bot.core.play.flow.ActingContext.require_hint_allowed`). A review scores every turn
each human played (the turn as played against the expert policy's own plans, on the same
re-dealt decks) and shows each player's three costliest turns.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

import engine
from bot.core.errors import BadInputError, NoGameError, StaleError
from bot.core.play import flow
from bot.core.play.manager import Game
from bot.core.play.thinking import Mistake, advice_hint, review_game
from bot.core.records.ratings import hint_keeps_losses_rated
from bot.core.storage.hints import HintStore
from bot.core.wording import texts
from bot.core.wording.describe import describe
from bot.core.wording.event_texts import and_list, with_article
from bot.core.wording.locales import Joined, Notation, locale_code
from engine import Master, Place
from engine.policies import PlanGist

from ..commandtree import PLAY, subgroup
from ..readers import require_readable
from ..services import FrontServices
from . import common
from .days import PREFIX, days_of

REVIEW_PER_PLAYER = 3
_reviews: dict[tuple[int, int, str | None], tuple[str, list[tuple[str, bytes, Joined]]]] = {}
"""Finished reviews by (game id, revision, locale): a finished game never changes, and a review
costs seconds of CPU, so a second request (or a second click) is answered from here."""
_mistakes: dict[tuple[int, int], list[Mistake]] = {}
"""The Expert AI's scoring of a finished game by (game id, revision), whatever language it is shown in."""
_REVIEW_CACHE = 32


def _first_placement(action: engine.Action) -> Place | None:
    if isinstance(action, Place):
        return action
    if isinstance(action, Master) and action.placements:
        return action.placements[0]
    return None


def hint_why(gist: PlanGist) -> Joined | None:
    """One line in game terms: the points the plan scores now, the puzzle it builds towards and
    the pieces it keeps back to finish it, the pieces it gains (None when the plan does none of
    these, e.g. a lone blind draw)."""
    reasons: list[Any] = []
    if gist.completed:
        reasons.append(texts.HINT_WHY_SCORES.format(points=gist.points, cards=", ".join(gist.completed)))
    if gist.towards is not None:
        reasons.append(texts.HINT_WHY_TOWARDS.format(card=gist.towards, points=gist.towards_points,
                                                     left=gist.towards_left))
        if gist.saves:
            kept = and_list([with_article(s) for s in gist.saves])
            reasons.append(texts.HINT_WHY_SAVES.format(pieces=kept))
    if gist.gained:
        reasons.append(texts.HINT_WHY_GAINS.format(pieces=and_list([with_article(s) for s in gist.gained])))
    if not reasons:
        return None
    return Joined((texts.HINT_WHY.format(reasons=Joined(reasons, texts.HINT_WHY_SEP)),), "")


def hint_reason(hint: Any) -> Joined:
    """The why in game terms (:func:`hint_why`), then the plan, how it played out, and the next
    best first move if there is one."""
    why = hint_why(hint.gist)
    if why is not None:
        return Joined((why, hint_numbers(hint)), "\n")
    return hint_numbers(hint)


def hint_numbers(hint: Any) -> Joined:
    """One line: the plan, how it played out, and the next best first move if there is one."""
    plan = Joined((common.code(a) for a in hint.plan), texts.THEN)
    if hint.wins is None:
        line = texts.HINT_REASON_READ.format(plan=plan, worlds=hint.rollouts, margin=hint.margin)
    else:
        line = texts.HINT_REASON.format(plan=plan, rollouts=hint.rollouts, margin=hint.margin, wins=hint.wins)
    if hint.alternative is not None and hint.alternative_margin is not None:
        return Joined((line, texts.HINT_ALTERNATIVE.format(action=Notation(hint.alternative),
                                                           margin=hint.alternative_margin)), "")
    return Joined((line,), "")


@app_commands.command(name="hint", description="The Expert AI's advice")
async def hint_command(interaction: discord.Interaction) -> None:
    bot = common.bot_of(interaction)
    ctx = await flow.acting(bot.manager, common.channel_id_of(interaction), interaction.user.id,
                            interaction.locale)
    game = ctx.game
    ctx.require_hint_allowed()
    await common.defer(interaction)
    # counted before the Expert thinks (seconds): a game ending meanwhile is rated with it
    used = await common.saved(interaction, _count_hint(HintStore(bot.storage), game.id, ctx.seat))
    # Planned from the asker's own turn: on a concurrent table the state's current seat may be the
    # other marker holder.
    hint = await bot.manager.thinker.run(advice_hint, ctx.hint_position(), ctx.hint_seed())
    action = engine.parse_action(hint.action)
    place = _first_placement(action)
    if place is not None:
        image = await bot.renderer.preview(ctx.state, ctx.seat, place, game.names, locale=interaction.locale)
    else:
        image = await bot.renderer.mat(ctx.state, ctx.seat, game.names, locale=interaction.locale)
    text: Any = texts.HINT.format(action=Notation(hint.action), reason=hint_reason(hint), used=used)
    if used == 1 and hint_keeps_losses_rated(game):  # said once, with the game's first hint
        text = Joined((text, texts.HINT_SOLO_RATED), "\n")
    about = describe(ctx.state, game.names, ctx.seat, mat=ctx.seat)
    await common.reply(interaction, text, files=[common.png(image, "hint.png", about)])


async def _count_hint(store: HintStore, game_id: int, seat: int) -> int:
    """One more hint for ``seat``; refused, nothing counted, when the game has ended since it was
    asked for."""
    used = await store.count_hint(game_id, seat)
    if used is None:
        raise StaleError(texts.HINT_GAME_OVER.format(game_id=game_id))
    return used


async def _finished_game(interaction: discord.Interaction, game_id: int | None) -> Game:
    bot = common.bot_of(interaction)
    if game_id is None:
        row = await days_of(bot).store.latest_game_in_channel(common.channel_id_of(interaction))
        game = None if row is None else Game.from_row(row)
    else:
        game = require_readable(interaction, await bot.manager.game(game_id), game_id)
    if game is None:
        raise NoGameError(texts.REVIEW_NO_GAME)
    require_readable(interaction, game, game.id)
    if game.status != "finished" or game.state is None:
        raise BadInputError(texts.REVIEW_NOT_OVER)
    return game


def review_lines(game: Game, mistakes: list[Mistake]) -> list[str]:
    """Per human seat, its costliest turns (at most three), worst first."""
    lines = [texts.REVIEW_TITLE.format(game_id=game.id)]
    for seat in game.seats:
        if seat.is_ai:
            continue
        mine = sorted((m for m in mistakes if m.seat == seat.seat), key=lambda m: (-m.cost, m.turn))
        costly = [m for m in mine[:REVIEW_PER_PLAYER] if m.cost > 0]
        lines.append(Joined(("**", seat.name, "**", "" if costly else texts.REVIEW_CLEAN), ""))
        for m in costly:
            lines.append(texts.REVIEW_LINE.format(
                round=m.round, played=Joined((common.code(a) for a in m.played), ", "),
                better=Joined((common.code(a) for a in m.better), ", "), cost=m.cost))
    return lines


async def build_review(
    bot: FrontServices, game: Game, locale: Any = None,
) -> tuple[str, list[tuple[str, bytes, Joined]]]:
    """(text, [(file name, PNG, alt text)]) for a finished game, in ``locale`` (the reader's): its
    lines and one image per player, their mat before the costliest turn."""
    key = (game.id, game.revision, locale_code(locale))
    if key in _reviews:
        return _reviews[key]
    assert game.state is not None
    rows = await bot.storage.actions(game.id)
    humans = [s.seat for s in game.seats if not s.is_ai]
    initial = engine.initial_state(game.state)
    log_rows = [(r.seat, r.action) for r in rows]
    mistakes = _mistakes.get(key[:2])  # the same game read in another language: no second search
    if mistakes is None:
        mistakes = await bot.manager.thinker.run(
            review_game, engine.serialisation.dumps(initial), log_rows, game.seed, humans
        )
        if len(_mistakes) >= _REVIEW_CACHE:
            _mistakes.pop(next(iter(_mistakes)))
        _mistakes[key[:2]] = mistakes
    images: list[tuple[str, bytes, Joined]] = []
    for seat in humans:
        costly = [m for m in mistakes if m.seat == seat and m.cost > 0]
        worst = max(costly, key=lambda m: m.cost, default=None)
        if worst is not None:
            state = engine.serialisation.loads(worst.state_text)
            image = await bot.renderer.mat(state, seat, game.names, locale=locale)
            images.append((f"review-seat{seat + 1}.png", image, describe(state, game.names, seat, mat=seat)))
    result = (common.clip(review_lines(game, mistakes), locale=locale), images)
    if len(_reviews) >= _REVIEW_CACHE:
        _reviews.pop(next(iter(_reviews)))
    _reviews[key] = result
    return result


async def send_review(interaction: discord.Interaction, game_id: int | None) -> None:
    game = await _finished_game(interaction, game_id)
    await common.defer(interaction)
    text, images = await build_review(common.bot_of(interaction), game, interaction.locale)
    await common.reply(interaction, text,
                       files=[common.png(data, name, about) for name, data, about in images])


@app_commands.command(name="review", description="Your costliest turns")
async def review_command(interaction: discord.Interaction) -> None:
    await send_review(interaction, None)


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pld:review:(?P<game>\d{1,19})"):
    """"Review" under the final results: the review, privately, to whoever clicks."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=texts.REVIEW_BUTTON, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{PREFIX}:review:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> ReviewButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await send_review(interaction, self.game_id)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


def results_view(game: Game) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewButton(game.id))
    return view


async def hints_line(bot: FrontServices, game: Game) -> str:
    """"Hints used: Ann 2, Bob 1" for the final results ("" when nobody asked for one)."""
    used = await HintStore(bot.storage).hints_used(game.id)
    named = [Joined((game.seats[seat].name, str(n)), " ") for seat, n in sorted(used.items())
             if seat < len(game.seats)]
    return texts.HINTS_USED.format(list=Joined(named, ", ")) if named else ""


def install(bot: FrontServices) -> None:
    """Add the commands to their groups and the Review button to the bot (from ``setup_hook``)."""
    subgroup(bot.tree, PLAY).add_command(hint_command)
    subgroup(bot.tree, None).add_command(review_command)
    bot.add_dynamic_items(ReviewButton)
