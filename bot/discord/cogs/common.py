"""What every command and button shares: replying safely, reporting errors, wording moves.

Responding is the fiddly part of Discord: an interaction must be acknowledged within 3 seconds,
exactly once, and later messages go through its followup webhook. :func:`reply` hides that (it
answers or follows up, whichever is due), and :func:`report_error` turns any exception into an
ephemeral sentence — a refusal's own message, or an apology for a bug, which is logged.

Once a change is committed (:func:`committed`; a save made through :func:`saved` is marked so),
nothing may say that nothing changed: an error after it is reported as what it is (Discord
refusing a post as that, not as a bug), and an image that cannot be drawn (:func:`drawn`) leaves
its message without the image instead of leaving the message unsent.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar, overload

import discord
from discord import app_commands

import engine
from bot.core.errors import BotError, NoGameError, NotInGameError, NotYourTurnError, StaleError
from bot.core.play.manager import Game, GameManager, Step
from bot.core.records.history import decision_text
from bot.core.records.summary import seat_label
from bot.core.storage.faults import storage_fault
from bot.core.wording import texts
from bot.core.wording.describe import alt_text
from bot.core.wording.event_texts import event_text, pending_prompt
from bot.core.wording.locales import Joined, Notation, Text, localise, public_locale
from engine import events as ev
from engine.visibility import hidden_scores

from ..services import FrontServices, services_of

log = logging.getLogger("bot")
T = TypeVar("T")

MAX_CONTENT = 1900
STALE_COMMAND_ERRORS = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
"""What discord.py raises for a command or option the bot no longer has (the client's command
list is older than the last sync)."""
NOTABLE_EVENTS = (
    ev.PuzzleCompleted, ev.EndTriggered, ev.FinishingStarted, ev.MastermindTook, ev.LocksReleased,
    ev.GameEnded, ev.PlayerRemoved, ev.TurnSkipped, ev.DeckEmptied, ev.WhiteDeckRenewed,
    # Finesse: which credits were earned and why, Inserts, the tile row moving on
    ev.CreditEarned, ev.CreditReturned, ev.CreditsReturnedToBank, ev.ActionInserted, ev.CreditPaidFinishing,
    ev.FinesseTileRemoved,
)


def bot_of(interaction: discord.Interaction) -> FrontServices:
    return services_of(interaction)


def manager_of(interaction: discord.Interaction) -> GameManager:
    return bot_of(interaction).manager


PostableChannel = (discord.TextChannel | discord.VoiceChannel | discord.StageChannel | discord.Thread
                   | discord.DMChannel | discord.GroupChannel)
"""What an interaction's channel is when the bot can post in it: ``Interaction.channel`` less a
forum and a category, which hold no messages of their own."""


def posting_channel(interaction: discord.Interaction) -> PostableChannel | None:
    """The channel ``interaction`` came from, to post in; None when it has none (or it is a forum
    or a category: no command or button comes from one)."""
    channel = interaction.channel
    if isinstance(channel, (discord.ForumChannel, discord.CategoryChannel)):
        return None
    return channel


def channel_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise BotError(texts.NOT_A_GUILD)
    return interaction.channel_id


def png(data: bytes, name: str, about: Joined | None = None, locale: Any = None) -> discord.File:
    """The image ``data`` as a file whose alt text (Discord's ``description``) is ``about``
    (:func:`bot.core.wording.describe.describe`): shown in ``locale`` now when given, else in the reply's
    language by :func:`reply`."""
    description = None if about is None else about if locale is None else alt_text(about, locale)
    return discord.File(io.BytesIO(data), filename=name, description=description)


def pngs(data: bytes | None, name: str, about: Joined | None = None,
         locale: Any = None) -> list[discord.File]:
    """``data`` as the one file of a message, or no file when the image could not be drawn."""
    return [] if data is None else [png(data, name, about, locale)]


MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content: a longer text goes out in several messages."""


def chunks(lines: Sequence[Any], locale: Any, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``lines`` in ``locale``, whole lines, as few messages of at most ``limit`` characters."""
    out: list[str] = []
    current = ""
    for line in lines:
        shown = str(localise(line, locale)).rstrip()[:limit]
        if current and len(current) + 1 + len(shown) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{shown}" if current else shown
    if current:
        out.append(current)
    return out


async def send_lines(interaction: discord.Interaction, lines: Sequence[Any]) -> None:
    """The lines privately, in the reader's language, split at line ends when too long."""
    parts = chunks(lines, interaction.locale) or [""]
    await reply(interaction, parts[0])
    for part in parts[1:]:
        await interaction.followup.send(part, ephemeral=True)


async def wants_text(interaction: discord.Interaction) -> bool:
    """Whether the user chose ``text_only`` in ``/projectl settings`` (boards as text first): one
    read of their settings, for a private board they asked for."""
    days = bot_of(interaction).days
    return days is not None and (await days.store.get_prefs(interaction.user.id)).text_only


async def board_reply(interaction: discord.Interaction, content: Any, files: Sequence[discord.File],
                      lines: Callable[[], Sequence[Any]], *,
                      view: discord.ui.View | None = None) -> None:
    """A private board: ``content`` with its image ``files`` (and ``view``, e.g. the turn panel);
    for a ``text_only`` reader, the board's ``lines()`` (one per item) come first and the image
    follows."""
    if await wants_text(interaction):
        await send_lines(interaction, lines())
    await reply(interaction, content, files=files, view=view)


def localise_files(files: Sequence[discord.File], locale: Any) -> list[discord.File]:
    """``files`` with every description still in English pieces (:func:`png` without a locale)
    shown in ``locale``."""
    for file in files:
        if isinstance(file.description, Joined):
            file.description = alt_text(file.description, locale)
    return list(files)


async def drawn(image: Awaitable[bytes], what: str) -> bytes | None:
    """The image ``image`` draws, or None (logged) when it cannot be drawn — the renderer has
    already replaced a dead worker and tried again (bot/core/rendering/render.py). A message after
    a commit goes out without its image rather than not at all."""
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


async def saved(interaction: discord.Interaction, change: Awaitable[T]) -> T:
    """``change`` awaited — the write that makes ``interaction``'s change — then marked
    :func:`committed`. Every command and button saves through here, so whatever it does after the
    save (a public post, the lobby shown again, its own answer) can never be reported as "nothing
    was changed"; a refusal raised by ``change`` itself still is, truly."""
    done = await change
    committed(interaction)
    return done


REFUSED_POST_CODES = frozenset({50001, 50013})
"""Discord's "Missing Access" and "Missing Permissions": the bot may not post (or edit) there."""


def refused_post(error: BaseException) -> bool:
    """Whether ``error`` is Discord refusing the bot a post in a channel (a permission taken away
    after the interaction's ``app_permissions`` were sent, a thread locked meanwhile)."""
    return isinstance(error, discord.Forbidden) and error.code in REFUSED_POST_CODES


PUBLIC_THINKING = "projectl.public_thinking"
"""The ``interaction.extras`` key :func:`defer` sets when everybody sees the "thinking…"."""


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Acknowledge now (rendering may take longer than Discord's 3 seconds)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        interaction.extras[PUBLIC_THINKING] = not ephemeral


async def withdraw_public_thinking(interaction: discord.Interaction) -> None:
    """Remove a public "thinking…" that nothing has filled yet: Discord fills it with the first
    followup, for everybody to see, whatever that followup asks — so a refusal that comes after
    it (another process opened a table in this channel first, a cancel that lost a race) would be
    public. Without it, the followup is a new message, and private."""
    if not interaction.extras.get(PUBLIC_THINKING):
        return
    interaction.extras[PUBLIC_THINKING] = False
    try:
        original = await interaction.original_response()
        if original.flags.loading:
            await interaction.delete_original_response()
    except discord.HTTPException:
        log.debug("could not withdraw the public answer to %s", interaction.id)


async def reply(
    interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
    files: Sequence[discord.File] = (), view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
) -> None:
    """Send the interaction's answer, or a followup if it was already answered or deferred.

    A sentence of bot/core/wording/texts.py is shown in the reader's language: the user's own Discord locale
    for a private (ephemeral) reply, the server's preferred locale for one everybody sees."""
    locale = interaction.locale if ephemeral else server_locale(interaction)
    content = localise(content, locale)
    localise_view(view, locale)
    kwargs: dict[str, Any] = {"content": content, "ephemeral": ephemeral,
                              "files": localise_files(files, locale)}
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


def on_private_message(interaction: discord.Interaction) -> bool:
    """Whether the component ``interaction`` comes from sits on a private (ephemeral) reply. A
    button that redraws the message it sits on is only ever put on one: carried onto any other
    (a tampered client hanging its id on the public turn post), it must not rewrite that post."""
    return interaction.message is not None and interaction.message.flags.ephemeral


def require_private_page(interaction: discord.Interaction) -> None:
    """A pager's Prev / Next (the log, a leaderboard, a replay) redraws its private page: refused
    anywhere else (:func:`on_private_message`)."""
    if not on_private_message(interaction):
        raise StaleError(texts.FORGED_BUTTON)


class PrivateQuestionButton:
    """Mixin (before ``discord.ui.DynamicItem``) for the buttons of one user's private question —
    an ephemeral reply such as Leave's confirmation or Cancel the game / Keep playing — which
    answer by editing the message they sit on. Only that user may press them, and only there: a
    custom id sent on any other message (a tampered client replaying it on the public turn post)
    or as junk (``user_id`` 0) is refused privately, so no public post is rewritten or stripped of
    its buttons. A subclass answers in :meth:`answer`; whatever it raises reaches the user as a
    private message (:func:`report_error`)."""

    user_id: int

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.user_id == 0 or not on_private_message(interaction):
            await reply(interaction, texts.FORGED_BUTTON)
            return False
        if interaction.user.id != self.user_id:
            await reply(interaction, texts.NOT_YOUR_BUTTON.format(name=f"<@{self.user_id}>"))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.answer(interaction)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await report_error(interaction, error)

    async def answer(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


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
    elif (fault := storage_fault(original)) is not None:  # the disk, a lock, the server: say so
        bot_of(interaction).fault_log.note(fault, original)  # once in a while, not per request
        after = interaction.extras.get(COMMITTED)
        message = (texts.STORAGE_FAULT_AFTER_COMMIT if after else texts.STORAGE_FAULT)[fault.value]
    elif interaction.extras.get(COMMITTED) and refused_post(original):  # saved; the table not told
        message = texts.CANNOT_POST_DECISION
        log.warning("no permission to post in channel %s after a commit: %s", interaction.channel_id,
                    original)
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
        await withdraw_public_thinking(interaction)
        await reply(interaction, message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message to %s", interaction.user.id)
    if isinstance(original, (NotYourTurnError, NotInGameError)) and interaction.guild_id is not None:
        await play_stalled_ai(interaction)


async def play_stalled_ai(interaction: discord.Interaction) -> None:
    """Someone was refused while an AI seat holds the move ("Easy AI 1 is playing"; a watcher of
    a Solo AI): if nothing is playing it — a fault stopped its turn after the action before it
    was saved — it plays now and its turn is posted, instead of waiting for the bot's restart."""
    bot = bot_of(interaction)
    channel_id = interaction.channel_id
    if channel_id is None:
        return
    try:
        result = await bot.manager.play_stalled(channel_id)
        if result is not None:
            await bot.present_result(result)
    except Exception as error:  # the refusal is answered; the AI plays at the next chance
        log.warning("the stopped AI turn in channel %s could not be played: %r", channel_id, error)
        return
    if result is not None and result.interrupted is not None:
        log.warning("the stopped AI turn in channel %s stopped again: %r", channel_id, result.interrupted)


async def require_game(interaction: discord.Interaction) -> Game:
    game = await manager_of(interaction).game_in_channel(channel_id_of(interaction))
    if game is None:
        raise NoGameError(texts.NO_GAME)
    return game


def action_line(name: str, action: str) -> str:
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


@overload
def localise_view(view: discord.ui.View, locale: Any) -> discord.ui.View: ...
@overload
def localise_view(view: None, locale: Any) -> None: ...
def localise_view(view: discord.ui.View | None, locale: Any) -> discord.ui.View | None:
    """``view``'s button labels, menu placeholders and options that are sentences of
    bot/core/wording/texts.py,
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
    """The language of a public answer to ``interaction``: :func:`~bot.core.wording.locales.public_locale` of
    its channel (the server's chosen language, else its preferred locale), with what the
    interaction says of its server when the bot has not cached it."""
    return public_locale(interaction.channel, bot_of(interaction).server_locales,
                         guild_id=interaction.guild_id, preferred=interaction.guild_locale)


def channel_locale(bot: FrontServices, channel: Any) -> Any:
    """The language of a post everybody in ``channel`` sees
    (:func:`~bot.core.wording.locales.public_locale`)."""
    return public_locale(channel, bot.server_locales)


def public(content: Any, interaction: discord.Interaction) -> Any:
    """``content`` (a sentence of bot/core/wording/texts.py, a :class:`~bot.core.wording.locales.Joined` of
    them, or plain
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
    bot/core/wording/texts.py in ``locale`` (trailing spaces dropped: a sentence whose last field is
    empty)."""
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
    return str(localise(texts.CLIP_EARLIER, locale)) + "\n" + "\n".join(reversed(kept))


async def turn_prompt(
    bot: FrontServices, game: Game, just_played: int | None = None, fresh: set[int] | None = None,
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
