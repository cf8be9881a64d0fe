"""What every command and button shares: replying safely, reporting errors, posting turns.

Responding is the fiddly part of Discord: an interaction must be acknowledged within 3 seconds,
exactly once, and later messages go through its followup webhook. :func:`reply` hides that (it
answers or follows up, whichever is due), and :func:`report_error` turns any exception into an
ephemeral sentence — a refusal's own message, or an apology for a bug, which is logged.

Once a change is committed (:func:`committed`), nothing may say that nothing changed: an error
after it is reported as what it is, and an image that cannot be drawn (:func:`drawn`) leaves its
message without the image instead of leaving the message unsent.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import engine
from bot.core import texts
from bot.core.errors import BotError, NoGameError
from bot.core.event_texts import and_list, event_text, pending_prompt
from bot.core.history import decision_text
from bot.core.locales import Joined, Notation, Text, localise, public_locale
from bot.core.manager import ActionResult, Game, GameManager, Step
from bot.mentions import pinging
from engine import events as ev
from engine.events import MASTERMIND
from engine.state import ACTIONS_PER_TURN
from engine.visibility import hidden_scores

if TYPE_CHECKING:
    from ..app import ProjectLBot

log = logging.getLogger("bot")

MAX_CONTENT = 1900
STALE_COMMAND_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
"""What discord.py raises for a command or option the bot no longer has (the client's command
list is older than the last sync)."""
NOTABLE_EVENTS = (
    ev.PuzzleCompleted, ev.EndTriggered, ev.FinishingStarted, ev.MastermindTook, ev.LocksReleased,
    ev.GameEnded, ev.PlayerRemoved, ev.TurnSkipped, ev.DeckEmptied, ev.WhiteDeckRenewed,
    # Finesse: which credits were earned and why, Inserts, the tile row moving on
    ev.CreditEarned, ev.CreditReturned, ev.ActionInserted, ev.CreditPaidFinishing,
    ev.FinesseTileRemoved,
)


def bot_of(interaction: discord.Interaction) -> ProjectLBot:
    return interaction.client  # type: ignore[return-value]


def manager_of(interaction: discord.Interaction) -> GameManager:
    return bot_of(interaction).manager


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise BotError(texts.NOT_A_GUILD)
    return interaction.channel_id


def png(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


def pngs(data: bytes | None, name: str) -> list[discord.File]:
    """``data`` as the one file of a message, or no file when the image could not be drawn."""
    return [] if data is None else [png(data, name)]


async def drawn(image: Awaitable[bytes], what: str) -> bytes | None:
    """The image ``image`` draws, or None (logged) when it cannot be drawn — the renderer has
    already replaced a dead worker and tried again (bot/core/render.py). A message after a commit goes
    out without its image rather than not at all."""
    try:
        return await image
    except Exception:  # any failure of the drawing: the words still go out
        log.error("could not draw %s", what, exc_info=True)
        return None


COMMITTED = "projectl.committed"
"""The ``interaction.extras`` key :func:`committed` sets."""


def committed(interaction: discord.Interaction) -> None:
    """Note that ``interaction``'s change is saved: from here on an unexpected error is reported
    as happening after it (``texts.FAILED_AFTER_COMMIT``), never as "nothing was changed"."""
    interaction.extras[COMMITTED] = True


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Acknowledge now (rendering may take longer than Discord's 3 seconds)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def reply(
    interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
    files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Send the interaction's answer, or a followup if it was already answered or deferred.

    A sentence of bot/core/texts.py is shown in the reader's language: the user's own Discord locale
    for a private (ephemeral) reply, the server's preferred locale for one everybody sees."""
    locale = interaction.locale if ephemeral else server_locale(interaction)
    content = localise(content, locale)
    localise_view(view, locale)
    kwargs: dict[str, Any] = {"content": content, "ephemeral": ephemeral, "files": list(files)}
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong, ephemerally; log anything that is not a refusal."""
    original = error
    while isinstance(original, (app_commands.CommandInvokeError, app_commands.TransformerError)):
        if original.__cause__ is None:
            break
        original = original.__cause__ if isinstance(original, app_commands.TransformerError) \
            else original.original
    if isinstance(original, BotError):
        message = original.message
        log.debug("refused %s: %s", interaction.user.id, message)
    elif isinstance(original, STALE_COMMAND_ERRORS):
        message = texts.COMMAND_LIST_CHANGED  # a client with an older command list: not a bug here
        log.warning("stale command from %s: %s", interaction.user.id, original)
    elif isinstance(original, app_commands.CheckFailure):
        message = texts.NOT_A_GUILD if isinstance(original, app_commands.NoPrivateMessage) \
            else str(original)
    else:
        log.error("unexpected error handling an interaction", exc_info=original)
        message = texts.FAILED_AFTER_COMMIT if interaction.extras.get(COMMITTED) else texts.UNEXPECTED
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():  # no suggestions, rather than "loading failed"
            try:
                await interaction.response.autocomplete([])
            except discord.HTTPException:
                log.debug("autocomplete for %s expired", interaction.user.id)
        return
    message = localise(message, interaction.locale)  # a refusal is private: the user's language
    if len(message) > MAX_CONTENT:  # refusals quote what was typed, and an option holds 6000 chars
        message = message[: MAX_CONTENT - 1] + "…"
    try:
        await reply(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to %s", interaction.user.id)


async def require_game(interaction: discord.Interaction) -> Game:
    game = await manager_of(interaction).game_in_channel(channel_id_of(interaction))
    if game is None:
        raise NoGameError(texts.NO_GAME)
    return game


def seat_label(game: Game, seat: int) -> str:
    if seat == MASTERMIND:
        return texts.MASTERMIND_NAME
    return game.seats[seat].name


def action_line(name: str, action: str) -> Text:
    """``**Ann**: `take white 3``` — the action in the reader's notation words."""
    return texts.ACTION_LINE.format(name=name, action=Notation(action))


def event_line(sentence: str, indent: str = "  ") -> Joined:
    """One consequence under an action line: ``  · Ann completed W07 for 3 pt.``"""
    return Joined((indent + "· ", sentence), "")


def code(text: str) -> Joined:
    """An action or option in the reader's notation words, between backticks."""
    return Joined(("`", Notation(text), "`"), "")


def step_lines(game: Game, steps: Sequence[Step]) -> list[str]:
    """Readable lines for a run of steps: who did what, plus the notable consequences."""
    names = game.names
    hidden = hidden_scores(game.state, None) if game.state is not None else frozenset()  # a public post
    lines: list[str] = []
    for step in steps:
        if isinstance(step.action, (engine.SkipTurn, engine.RemovePlayer)):  # a table decision
            lines.append(decision_text(game, step.action, step.events, seat=step.seat, user_id=step.user_id))
            continue
        lines.append(action_line(seat_label(game, step.seat), step.text))
        for event in step.events:
            if isinstance(event, NOTABLE_EVENTS):
                lines.append(event_line(event_text(event, names, hidden)))
    return lines


def localise_view(view: discord.ui.View | None, locale: Any) -> discord.ui.View | None:
    """``view``'s button labels, menu placeholders and options that are sentences of bot/core/texts.py,
    shown in ``locale`` (in place; the custom ids, which the bot reads back, never change)."""
    for child in view.children if view is not None else ():
        item = getattr(child, "item", child)  # a DynamicItem wraps the button it shows
        for name in ("label", "placeholder"):
            value = getattr(item, name, None)
            if isinstance(value, (Text, Notation, Joined)):
                setattr(item, name, _fit(localise(value, locale), COMPONENT_LIMITS[name]))
        for option in getattr(item, "options", None) or []:
            option.label = _fit(localise(option.label, locale), COMPONENT_LIMITS["option"])
            if option.description:
                option.description = _fit(localise(option.description, locale), COMPONENT_LIMITS["option"])
    return view


def server_locale(interaction: discord.Interaction) -> Any:
    """The language of a public answer to ``interaction``: :func:`~bot.core.locales.public_locale` of
    its channel (the server's chosen language, else its preferred locale), with what the
    interaction says of its server when the bot has not cached it."""
    return public_locale(interaction.channel, bot_of(interaction).server_locales,
                         guild_id=interaction.guild_id, preferred=interaction.guild_locale)


def channel_locale(bot: ProjectLBot, channel: Any) -> Any:
    """The language of a post everybody in ``channel`` sees (:func:`~bot.core.locales.public_locale`)."""
    return public_locale(channel, bot.server_locales)


def public(content: Any, interaction: discord.Interaction) -> Any:
    """``content`` (a sentence of bot/core/texts.py, a :class:`~bot.core.locales.Joined` of them, or plain
    text) as everybody in the interaction's channel reads it, for the sends that do not go
    through :func:`reply` (a followup or edit of a public message)."""
    return localise(content, server_locale(interaction))


COMPONENT_LIMITS = {"label": 80, "placeholder": 150, "option": 100}
"""Discord's length limits for a button label, a menu placeholder and a menu option's label or
description: a translation may be longer than the English it replaces."""


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(lines: Sequence[str], limit: int = MAX_CONTENT, locale: Any = None) -> str:
    """``lines`` as one message of at most ``limit`` characters (the latest kept), each sentence of
    bot/core/texts.py in ``locale`` (trailing spaces dropped: a sentence whose last field is empty)."""
    lines = [str(localise(line, locale)).rstrip() for line in lines]
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 40:
            break
        kept.append(line)
        size += len(line) + 1
    return localise(texts.CLIP_EARLIER, locale) + "\n" + "\n".join(reversed(kept))


async def turn_prompt(
    bot: ProjectLBot, game: Game, just_played: int | None = None, fresh: set[int] | None = None,
    locale: Any = None,
) -> tuple[str, list[int]]:
    """Who is to move now, and the users it pings (what the post's allowed mentions name): a
    mention when it is a human who wants one — but not the player
    who has just moved (``just_played``, a user id): in Solo the next turn is theirs again and
    they are already here. In Line Clear both marker holders, each with their own actions left;
    only those whose turn has just started (``fresh`` seats) are pinged, not a holder still
    playing the turn they were pinged for."""
    if game.current is None or game.state is None:
        return "", []
    lines = []
    pinged: list[int] = []
    for number in game.state.acting_seats:
        seat = game.seats[number]
        mine = seat.user_id == just_played or (fresh is not None and number not in fresh)
        if seat.user_id is not None and not mine and await bot.manager.wants_mention(seat.user_id):
            who = f"<@{seat.user_id}>"
            pinged.append(seat.user_id)
        else:
            who = Joined(("**", seat.name, "**"), "")
        waiting = next((d for d in game.state.pending if d.seat == number), None)
        if waiting is not None:
            options = Joined((code(o) for o in waiting.options), ", ")
            lines.append(texts.YOUR_CHOICE.format(mention=who, prompt=pending_prompt(waiting),
                                                  options=options))
        elif game.state.phase.value == "finishing":
            lines.append(texts.YOUR_FINISHING.format(mention=who))
        else:
            left = game.state.focused(number).actions_left
            lines.append(texts.YOUR_TURN.format(mention=who, actions=left))
    return "\n".join(localise(line, locale) for line in lines), pinged


def render_board(bot: ProjectLBot, result: ActionResult, locale: Any) -> asyncio.Task[bytes] | None:
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


async def post_turn(bot: ProjectLBot, channel: discord.abc.Messageable, result: ActionResult,
                    board: asyncio.Task[bytes] | None = None) -> None:
    """The channel post after a full turn (or the start / end): moves, table image, next player.
    ``board`` is the image already being rendered (:func:`render_board`), if any."""
    from ..views import turn_view

    game = result.game
    if game.state is None:
        return
    board = board or render_board(bot, result, channel_locale(bot, channel))
    assert board is not None
    lines = await earlier_in_turn(bot, game, result) + step_lines(game, result.steps)
    if result.finished:
        from .advice import hints_line, results_view

        lines.append(final_summary(game))
        hints = await hints_line(bot, game)
        if hints:
            lines.append(hints)
        image = await drawn(board, f"the results of game {game.id}")
        locale = channel_locale(bot, channel)
        lines += [] if image is not None else [texts.IMAGE_MISSING]
        message = await channel.send(clip(lines, locale=locale), files=pngs(image, "results.png"),
                                     view=localise_view(results_view(game), locale))
    else:
        actor = result.first.user_id if result.first is not None else None
        fresh = None
        if game.state.turns:  # Line Clear: ping the holders whose turn has just started
            fresh = {e.seat for e in result.events if isinstance(e, ev.TurnStarted)}
            if result.started is not None or result.before.state is None:
                fresh |= set(game.state.acting_seats)
        locale = channel_locale(bot, channel)
        prompt, pinged = await turn_prompt(bot, game, just_played=actor, fresh=fresh, locale=locale)
        lines.append(prompt)
        image = await drawn(board, f"the table of game {game.id}")
        lines += [] if image is not None else [texts.IMAGE_MISSING]
        message = await channel.send(clip(lines, locale=locale), files=pngs(image, "table.png"),
                                     view=localise_view(turn_view(game), locale),
                                     allowed_mentions=pinging(pinged))
    remember_posted(bot, game)
    await bot.manager.remember_messages(game.id, table_message_id=message.id)


def remember_posted(bot: ProjectLBot, game: Game) -> None:
    """Keep the state this turn post showed, so the next post's table can frame what changed
    since (in memory only: after a restart the first post simply marks nothing)."""
    if game.state is None or game.status == "finished" or game.state.turns:
        bot.posted_states.pop(game.id, None)  # over, or turns running at once: nothing to compare
    else:
        bot.posted_states[game.id] = game.state


async def earlier_in_turn(bot: ProjectLBot, game: Game, result: ActionResult) -> list[str]:
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


def final_summary(game: Game) -> Joined:
    from engine import opponent_score, score_lines, winners

    assert game.state is not None
    won = winners(game.state)
    names = and_list([seat_label(game, s) for s in won])
    lines: list[str] = [texts.GAME_FINISHED.format(winners=texts.WINNER.format(names=names) if won else "")]
    for line in score_lines(game.state):
        if game.state.players[line.seat].removed:
            continue
        lines.append(texts.FINAL_SCORE.format(
            name=seat_label(game, line.seat), total=line.total, points=line.completed_points,
            count=line.completed_count, finishing=line.finishing_penalty, unfinished=line.unfinished_penalty))
    rival = opponent_score(game.state)
    if rival is not None:
        lines.append(texts.FINAL_MASTERMIND.format(points=rival))
    return Joined(lines, "\n")


async def respond_to_result(interaction: discord.Interaction, result: ActionResult) -> None:
    """Ephemeral confirmation; channel post if the turn changed.

    The actor's mat is attached when their turn is over (what they built); mid-turn the
    confirmation carries the turn panel for the next action (with a "My mat" button) instead.
    Drawing and encoding a mat is most of an action's cost, and a player in the middle of a turn
    usually knows their mat already — so the image is made only when it is asked for.
    """
    from ..panel_views import panel_after

    committed(interaction)
    bot = bot_of(interaction)
    game = result.game
    step = result.first
    if step is None or game.state is None:
        return
    state = game.state
    still_mine = game.current is not None and step.seat in state.acting_seats and (
        not result.turn_changed or bool(state.turns)
    )
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
    posting = (result.turn_changed or result.finished) and interaction.channel is not None
    board = render_board(bot, result, server_locale(interaction)) if posting else None
    panel = panel_after(result)
    if panel is not None:
        lines.append(panel.content)
    try:
        if still_mine:
            from ..views import turn_view

            view = panel.view if panel is not None else turn_view(game)
            await reply(interaction, clip(lines, locale=interaction.locale), ephemeral=True, view=view)
        else:
            mat = await drawn(bot.renderer.mat(state, step.seat, game.names, locale=interaction.locale),
                              f"seat {step.seat}'s mat in game {game.id}")
            lines += [] if mat is not None else [texts.IMAGE_MISSING]
            await reply(interaction, clip(lines, locale=interaction.locale), ephemeral=True,
                        files=pngs(mat, "mat.png"),
                        view=panel.view if panel is not None else None)  # a new turn that is theirs
    except BaseException:
        if board is not None:
            board.cancel()
        raise
    if posting:
        await post_turn_or_explain(interaction, result, board)


async def post_turn_or_explain(interaction: discord.Interaction, result: ActionResult,
                               board: asyncio.Task[bytes] | None = None) -> None:
    """Post the turn in the channel; if Discord refuses (missing permissions), say so privately —
    the action itself is committed either way."""
    committed(interaction)
    try:
        await post_turn(bot_of(interaction), interaction.channel, result, board)  # type: ignore[arg-type]
    except discord.Forbidden:
        log.warning("no permission to post in channel %s", interaction.channel_id)
        await reply(interaction, texts.CANNOT_POST)
