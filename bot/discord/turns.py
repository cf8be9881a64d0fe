"""Telling a table what happened: the player's private confirmation after an action (with the
turn panel for their next one) and the channel's turn post (moves, table image, who is next).

It sits above the views it shows (the turn panel, the turn post's buttons, the results' Review
button) and below the cogs whose flows end here (``perform``, votes, undo, the resumed games).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.core.play.manager import ActionResult, Game
from bot.core.records.summary import final_summary, seat_label
from bot.core.wording import texts
from bot.core.wording.catchup import post_changes
from bot.core.wording.describe import describe
from bot.core.wording.event_texts import event_text
from bot.core.wording.locales import Joined, Notation
from bot.discord.mentions import pinging
from engine import events as ev
from engine.actions import TABLE_ACTIONS
from engine.state import ACTIONS_PER_TURN

from .cogs.advice import hints_line, results_view
from .cogs.common import (
    action_line,
    bot_of,
    channel_locale,
    clip,
    committed,
    drawn,
    event_line,
    localise_view,
    pngs,
    posting_channel,
    reply,
    server_locale,
    step_lines,
    turn_prompt,
)
from .inbox import next_game_view
from .panel_views import panel_after, turn_view
from .recaps import post_recap
from .services import FrontServices

log = logging.getLogger("bot")


def render_board(bot: FrontServices, result: ActionResult, locale: Any) -> asyncio.Task[bytes] | None:
    """Start rendering the image :func:`post_turn` will post (results at the end, else the table)
    in the channel's ``locale`` (:func:`channel_locale`), so it can be drawn while the player's mat
    is: the two renders overlap instead of queueing."""
    game = result.game
    if game.state is None:
        return None
    if result.finished:
        return asyncio.ensure_future(bot.renderer.results(game.state, game.names, locale=locale))
    previous = bot.posted_states.get(game.id)
    return asyncio.ensure_future(bot.renderer.table(game.state, game.names, previous, locale=locale))


async def post_turn(bot: FrontServices, channel: discord.abc.Messageable, result: ActionResult,
                    board: asyncio.Task[bytes] | None = None) -> None:
    """The channel post after a full turn (or the start / end): moves, table image, next player.
    ``board`` is the image already being rendered (:func:`render_board`), if any."""
    game = result.game
    if game.state is None:
        return
    board = board or render_board(bot, result, channel_locale(bot, channel))
    assert board is not None
    # The post's two reads (the turn's earlier actions; the hints used, or who wants a ping) go
    # to the database together: its thread runs them in one wake-up, not one after the other.
    locale = channel_locale(bot, channel)
    if result.finished:
        earlier, hints = await asyncio.gather(earlier_in_turn(bot, game, result), hints_line(bot, game))
    else:
        # A table decision (a vote to skip or remove) is not its voter's move: the voter may well
        # be the next to play, and is then pinged like anyone whose turn starts (issue 31, item 15).
        first = result.first
        actor = first.user_id if first is not None and not isinstance(first.action, TABLE_ACTIONS) else None
        fresh = None
        if game.state.turns:  # Line Clear: ping the holders whose turn has just started
            fresh = {e.seat for e in result.events if isinstance(e, ev.TurnStarted)}
            if result.started is not None or result.before.state is None:
                fresh |= set(game.state.acting_seats)
        earlier, (prompt, pinged) = await asyncio.gather(
            earlier_in_turn(bot, game, result),
            turn_prompt(bot, game, just_played=actor, fresh=fresh, locale=locale))
    lines = earlier + step_lines(game, result.steps)
    # the alt text of the table or results image: whose turn, then what this post's moves changed
    about = describe(game.state, game.names, changed=post_changes(result.events, game.names, game.state))
    if result.finished:
        lines.append(final_summary(game))
        if hints:
            lines.append(hints)
        image = await drawn(board, f"the results of game {game.id}")
        lines += [] if image is not None else [texts.IMAGE_MISSING]
        message = await channel.send(clip(lines, locale=locale),
                                     files=pngs(image, "results.png", about, locale),
                                     view=localise_view(results_view(game), locale))
        post_recap(bot, channel, game)  # the animated recap follows the results (bot/discord/recaps.py)
    else:
        lines.append(prompt)
        image = await drawn(board, f"the table of game {game.id}")
        lines += [] if image is not None else [texts.IMAGE_MISSING]
        message = await channel.send(clip(lines, locale=locale),
                                     files=pngs(image, "table.png", about, locale),
                                     view=localise_view(turn_view(game, board=bot.board_front is not None),
                                                        locale),
                                     allowed_mentions=pinging(pinged))
    remember_posted(bot, game)
    try:
        await bot.manager.remember_messages(game.id, table_message_id=message.id)
    except Exception:  # the post is out; where it is matters only to later links: try once more
        log.info("saving where game %s's turn post is failed; trying again", game.id, exc_info=True)
        await bot.manager.remember_messages(game.id, table_message_id=message.id)


def report_interruption(result: ActionResult) -> None:
    """Raise what stopped the policy seats after ``result``'s committed steps, once those are
    answered and posted, so the player hears it as happening after their action (the caller
    marked the interaction committed)."""
    if result.interrupted is not None:
        raise result.interrupted


def remember_posted(bot: FrontServices, game: Game) -> None:
    """Keep the state this turn post showed, so the next post's table can frame what changed
    since (in memory only: after a restart the first post simply marks nothing)."""
    if game.state is None or game.status == "finished" or game.state.turns:
        bot.posted_states.pop(game.id, None)  # over, or turns running at once: nothing to compare
    else:
        bot.posted_states[game.id] = game.state


async def earlier_in_turn(bot: FrontServices, game: Game, result: ActionResult) -> list[str]:
    """The player's earlier actions of the turn that just ended (they were confirmed privately)."""
    first = result.first
    if first is None or first.user_id is None or result.before.state is None:
        return []
    if result.before.state.phase.value != "play":
        return []
    done = ACTIONS_PER_TURN - result.before.state.focused(first.seat).actions_left
    if done <= 0:
        return []
    # Line Clear interleaves the two holders' actions (at most three of the other's, and their
    # choices): read a little further back, keep this player's own, latest last.
    window = done if not result.before.state.turns else done + 3 + 6
    rows = await bot.manager.log_tail(game.id, window, before_revision=first.revision)  # not the whole log
    earlier = [row for row in rows if row.seat == first.seat][-done:]
    return [action_line(seat_label(game, first.seat), row.action) for row in earlier]


TurnImages = tuple[asyncio.Task[bytes] | None, asyncio.Future[bytes] | None]
"""A result's images being drawn (:func:`start_images`): the table or results image for the
turn post (None: no post), and the actor's mat (None: their turn goes on)."""


def _still_mine(result: ActionResult) -> bool:
    """Whether the actor still has the move after ``result`` (no mat, no turn post for them)."""
    game, step = result.game, result.first
    state = game.state
    return (step is not None and state is not None and game.current is not None
            and step.seat in state.acting_seats and (not result.turn_changed or bool(state.turns)))


def _posting(interaction: discord.Interaction, result: ActionResult) -> bool:
    return (result.turn_changed or result.finished) and posting_channel(interaction) is not None


def start_images(interaction: discord.Interaction, result: ActionResult) -> TurnImages:
    """Hand ``result``'s images to the renderer: the table (the longer drawing, which the turn
    post waits for) first, the actor's mat right after it. Called as soon as the result is
    committed (``GameManager.act``'s ``on_committed``), so they are drawn while the after-commit
    hooks write the new turn's row, and by :func:`respond_to_result` otherwise."""
    game, step = result.game, result.first
    if step is None or game.state is None:
        return None, None
    bot = bot_of(interaction)
    board = render_board(bot, result, server_locale(interaction)) if _posting(interaction, result) else None
    drawing = None if _still_mine(result) else asyncio.ensure_future(
        bot.renderer.mat(game.state, step.seat, game.names, locale=interaction.locale))
    return board, drawing


async def respond_to_result(interaction: discord.Interaction, result: ActionResult,
                            images: TurnImages | None = None) -> None:
    """Ephemeral confirmation; channel post if the turn changed. ``images``: the result's images
    already being drawn (:func:`start_images`), if they are.

    The actor's mat is attached when their turn is over (what they built); mid-turn the
    confirmation carries the turn panel for the next action (with a "My mat" button) instead.
    Drawing and encoding a mat is most of an action's cost, and a player in the middle of a turn
    usually knows their mat already — so the image is made only when it is asked for.
    """
    committed(interaction)
    bot = bot_of(interaction)
    game = result.game
    step = result.first
    if step is None or game.state is None:
        return
    state = game.state
    still_mine = _still_mine(result)
    if still_mine and state.phase.value == "play" and step.seat in state.held:
        tail = texts.ACTIONS_HELD
    elif still_mine and state.phase.value == "play":
        tail = texts.ACTIONS_LEFT.format(n=state.focused(step.seat).actions_left)
    elif still_mine:
        tail = ""
    else:
        tail = texts.TURN_OVER
    lines: list[str] = [Joined([texts.DONE_ACTION.format(action=Notation(step.text)), tail], " ")]  # whole
    lines += [event_line(event_text(e, game.names), indent="") for e in step.events
              if not isinstance(e, (ev.TurnStarted,))]
    posting = _posting(interaction, result)
    board, drawing = images if images is not None else start_images(interaction, result)
    panel = panel_after(result)
    if panel is not None:
        lines.append(panel.content)
    try:
        if drawing is None:
            view = panel.view if panel is not None else turn_view(game, board=bot.board_front is not None)
            await reply(interaction, clip(lines, locale=interaction.locale), ephemeral=True, view=view)
        else:
            mat = await drawn(drawing, f"seat {step.seat}'s mat in game {game.id}")
            lines += [] if mat is not None else [texts.IMAGE_MISSING]
            await reply(interaction, clip(lines, locale=interaction.locale), ephemeral=True,
                        files=pngs(mat, "mat.png", describe(state, game.names, step.seat, mat=step.seat)),
                        view=panel.view if panel is not None else next_game_view(game.id))
    except BaseException:
        for task in (board, drawing):
            if task is not None:
                task.cancel()
        raise
    if posting:
        await post_turn_or_explain(interaction, result, board)
    report_interruption(result)


async def post_turn_or_explain(interaction: discord.Interaction, result: ActionResult,
                               board: asyncio.Task[bytes] | None = None) -> None:
    """Post the turn in the channel; if Discord refuses (missing permissions), say so privately —
    the action itself is committed either way."""
    committed(interaction)
    channel = posting_channel(interaction)
    if channel is None:  # nowhere to post (an interaction in a server always has its channel)
        if board is not None:
            board.cancel()
        return
    try:
        await post_turn(bot_of(interaction), channel, result, board)
    except discord.Forbidden:
        log.warning("no permission to post in channel %s", interaction.channel_id)
        await reply(interaction, texts.CANNOT_POST)
