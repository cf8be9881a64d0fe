"""Setting up a table: ``/projectl table new``, the lobby buttons, ``/projectl table cancel``."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.days.turn_limits import clock_line, limit_hours, limit_text
from bot.core.errors import BadInputError, ChannelBusyError, NotHostError, StaleError
from bot.core.games import POLICY_LABELS
from bot.core.play.expansions import lobby_line as expansions_in_lobby
from bot.core.play.expansions import parse as parse_expansions
from bot.core.play.expansions import suggestions as expansion_suggestions
from bot.core.play.manager import ActionResult, Game, TableSettings, validate_new_table
from bot.core.records.ratings import cancel_would_be_a_loss, cancelled_as_loss
from bot.core.wording import texts
from bot.core.wording.locales import Joined, PlayerName, locale_code, localise
from engine.catalogue import mode_name

from ..permissions import require_table_permissions, require_thread_permissions
from ..readers import channel_private, parent_channel_id
from ..turns import post_turn, post_turn_or_explain, report_interruption
from ..views import LOBBY_AI, LOBBY_OPS, lobby_view, plugin_of
from . import common
from .days import turn_limit_of

log = logging.getLogger(__name__)


def lobby_content(game: Game, turn_limit: timedelta | None = None) -> Joined:
    """The lobby message: built from sentences of bot/core/wording/texts.py, shown in the reader's language
    where it is sent (the server's for the public lobby, the user's in a private status)."""
    settings = game.settings
    rules = settings.rules
    players = Joined((Joined([texts.LOBBY_SEAT.format(number=s.seat + 1, name=s.name),
                              texts.LOBBY_SEAT_HOST if s.user_id == game.host_id else "",
                              texts.LOBBY_SEAT_AI if s.is_ai else ""]) for s in game.seats), "\n")
    options = [
        texts.LOBBY_DIFFICULTY.format(difficulty=texts.DIFFICULTY.get(rules.difficulty.value,
                                                                      rules.difficulty.value))
        if settings.variant == "solo" else "",
        texts.LOBBY_GHOST.format(ghost=settings.ghost_label),
        expansions_in_lobby(rules),
        texts.LOBBY_SCORES_PUBLIC if rules.known_scores else texts.LOBBY_SCORES_HIDDEN,
        texts.LOBBY_ENDLESS_WHITE if rules.endless_white else "",
        "" if settings.hints else texts.LOBBY_HINTS_OFF,
        (texts.LOBBY_RATED if settings.variant == "solo" else texts.LOBBY_RATED_NO_HINTS) if settings.rated
        else texts.LOBBY_CASUAL,
    ]
    host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
    if settings.variant == "solo":
        variant = texts.LOBBY_VARIANT_SOLO
    elif settings.max_players >= 5:
        variant = texts.LOBBY_VARIANT_LINE_CLEAR
    else:
        variant = texts.LOBBY_VARIANT_BASE
    title = texts.LOBBY_TITLE.format(variant=variant)
    body = texts.LOBBY_BODY.format(
        host=host, seated=len(game.seats), limit=settings.max_players, players=players,
        reserve=rules.reserve, penalty=texts.LOBBY_ON if rules.unfinished_penalty else texts.LOBBY_OFF,
        difficulty=Joined(options), clock=clock_line(turn_limit),
    )
    return Joined(["**", title, "**\n", body])


def started_content(game: Game, turn_limit: timedelta | None = None) -> str:
    clock = "" if turn_limit is None else texts.LOBBY_STARTED_CLOCK.format(clock=clock_line(turn_limit))
    return texts.LOBBY_STARTED.format(players=Joined(game.names, ", "), clock=clock)


def require_supported_mode(modes: tuple[str, ...], settings: TableSettings) -> None:
    """Refuse a table whose mode (solo, 2p … 6p) the loaded catalogue has too few cards for: the
    bot opens exactly the modes ``catalogue --check`` reports, nothing else."""
    mode = mode_name(settings.variant == "solo", settings.max_players)
    if mode not in modes:
        raise BadInputError(texts.MODE_UNSUPPORTED.format(
            mode=_mode_text(mode), modes=Joined((_mode_text(m) for m in modes), ", ") if modes
            else texts.MODE_NONE))


def _mode_text(mode: str) -> str:
    return texts.MODE_SOLO if mode == "solo" else texts.MODE_PLAYERS.format(n=mode[:-1])


async def expansion_choices(interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
    """``expansions:`` suggestions: every combination holding what the host typed so far, named in
    their language (bot.core.play.expansions). Choices would not fit: eleven combinations' names in
    every language are more than /projectl's 4,000 characters have room for."""
    return [app_commands.Choice(name=name[:100], value=value)
            for name, value in expansion_suggestions(current, interaction.locale)[:25]]


class TableCommands(commands.Cog):
    """``/projectl table …``: mixed into the /projectl group cog (see bot/discord/cogs/__init__.py)."""

    table = app_commands.Group(name="table", description="Open, cancel or leave a table; votes and seats")

    @table.command(name="new", description="Open a Project L table in this channel")
    @app_commands.describe(
        variant="base (2-6 players; 5-6 play Line Clear) or solo (vs the mastermind)",
        players="Most players who may join (base game; 5-6 play the Line Clear variant)",
        ghost="Ghost Piece expansion (default: on for 5-6 players, required for 6)",
        expansions="Ambassador Pack, Phoenix, Finesse, Finesse Ambassador Pack: pick from the list",
        reserve="Pieces of each shape in the reserve",
        unfinished_penalty="Unfinished puzzles count against you at the end",
        difficulty="Solo only: how strong the mastermind starts",
        turn_limit_days="Days per turn before the others may vote to skip or remove",
        thread="Open the table in a new thread with this name",
        known_scores="Score piles face up (default); off = each player's points stay private until the end",
        endless_white="Endless White Deck: banked white cards become a new white deck (2+ players)",
        hints="Allow hints",
        watch="Solo: an AI plays your seat while you watch",
    )
    @app_commands.choices(  # the int choices apart: one choices() takes one type of value
        reserve=[app_commands.Choice(name="10 per shape", value=10),
                 app_commands.Choice(name="15 per shape", value=15)])
    @app_commands.choices(
        variant=[app_commands.Choice(name="base", value="base"),
                 app_commands.Choice(name="solo", value="solo")],
        difficulty=[app_commands.Choice(name=d, value=d) for d in ("normal", "hard", "unbeatable")],
        watch=[app_commands.Choice(name=POLICY_LABELS[p], value=p) for p in LOBBY_AI.values()],
    )
    @app_commands.autocomplete(expansions=expansion_choices)
    async def new(
        self, interaction: discord.Interaction, variant: str = "base",
        players: app_commands.Range[int, 2, 6] = 4, reserve: int = 10, unfinished_penalty: bool = True,
        difficulty: str = "normal", turn_limit_days: app_commands.Range[int, 1, 7] | None = None,
        ghost: bool | None = None,
        thread: app_commands.Range[str, 1, 100] | None = None,
        expansions: str | None = None,
        known_scores: bool = True, endless_white: bool = False,
        hints: bool = True, watch: str | None = None,
    ) -> None:
        channel_id = common.channel_id_of(interaction)
        if variant == "solo" and turn_limit_days is not None:
            raise BadInputError(texts.TURN_LIMIT_SOLO)
        chosen: dict[str, Any] = parse_expansions(expansions, interaction.locale)  # refused if unknown
        settings = TableSettings(
            variant=variant, max_players=1 if variant == "solo" else players, reserve=reserve,
            unfinished_penalty=unfinished_penalty, difficulty=difficulty, ghost=ghost,
            **chosen,
            known_scores=known_scores, endless_white=endless_white, hints=hints,
        )
        validate_new_table(settings, watch)  # every option is checked before anything is shown or written
        hours = limit_hours(turn_limit_days)
        bot = common.bot_of(interaction)
        require_supported_mode(bot.manager.supported_modes, settings)
        if thread is not None:
            await _new_in_thread(interaction, thread, settings, hours, watch)
            return
        if await bot.manager.game_in_channel(channel_id) is not None:  # refused privately, not after
            raise ChannelBusyError(texts.CHANNEL_BUSY)                  # the public "thinking…"
        await common.defer(interaction, ephemeral=False)  # the lobby is public; ack first
        result = await common.saved(interaction, bot.manager.create_game(
            guild_id=interaction.guild_id, channel_id=channel_id, host_id=interaction.user.id,
            host_name=interaction.user.display_name, settings=settings, turn_limit_hours=hours, watch=watch,
            host_locale=locale_code(interaction.locale), channel_private=channel_private(interaction.channel),
            parent_id=parent_channel_id(interaction.channel),
        ))
        game = result.game
        limit = None if hours is None else timedelta(hours=hours)
        if result.started is None:
            locale = common.server_locale(interaction)
            message = await interaction.followup.send(
                localise(lobby_content(game, limit), locale),
                view=common.localise_view(await offered_lobby_view(bot, game), locale), wait=True)
            await bot.manager.remember_messages(game.id, lobby_message_id=message.id)
            if limit is not None:  # the host sees what the table agreed to
                await common.reply(interaction, texts.TURN_LIMIT_SET.format(limit=limit_text(limit)))
            return
        await interaction.followup.send(common.public(started_content(game, limit), interaction))
        await post_turn_or_explain(interaction, result)
        report_interruption(result)

    @table.command(name="cancel", description="Cancel this channel's game (host or channel managers)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        channel_id = common.channel_id_of(interaction)
        bot = common.bot_of(interaction)
        may_manage = bool(interaction.permissions.manage_channels)
        game = await common.require_game(interaction)
        if interaction.user.id != game.host_id and not may_manage:  # refused privately, not after
            raise NotHostError(texts.HOST_ONLY_CANCEL)                  # the public "thinking…"
        if game.state is not None:  # a game in play: asked first, privately (one typo must not end it)
            loss = await cancel_would_be_a_loss(bot.storage, game, interaction.user.id)
            question = (texts.CANCEL_CONFIRM_LOSS if loss else texts.CANCEL_CONFIRM).format(game_id=game.id)
            view = discord.ui.View(timeout=None)
            for op in ("yes", "no"):
                view.add_item(CancelButton(op, game.id, interaction.user.id, game.revision))
            await common.reply(interaction, question, view=view)
            return
        await common.defer(interaction, ephemeral=False)  # the notice is public; ack first
        game = await common.saved(interaction, bot.manager.cancel(
            channel_id, interaction.user.id, can_manage_channel=may_manage, game_id=game.id))
        await _announce_cancel(interaction, game)


async def _announce_cancel(interaction: discord.Interaction, game: Game) -> None:
    """The public notice of a cancel (saying when it counted as the canceller's loss), and the
    lobby's buttons taken off."""
    bot = common.bot_of(interaction)
    name = PlayerName(interaction.user.display_name)
    cancelled: Any = texts.CANCELLED.format(name=name)
    if await cancelled_as_loss(bot.storage, game.id):
        cancelled = Joined((cancelled, texts.CANCELLED_AS_LOSS.format(name=name)), " ")
    await interaction.followup.send(common.public(cancelled, interaction))
    await _close_lobby_message(interaction, game)


class CancelButton(common.PrivateQuestionButton, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"plt:cancel:(?P<rest>.*)"):
    """Cancel the game / Keep playing under ``/projectl table cancel``'s question: personal (only
    the asker), bound to the game and the revision it was asked at, so a second click or one after
    the game moved on changes nothing and says why."""

    def __init__(self, op: str, game_id: int, user_id: int, revision: int) -> None:
        yes = op == "yes"
        super().__init__(discord.ui.Button(
            label=texts.CANCEL_YES if yes else texts.CANCEL_NO,
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"plt:cancel:{op}:{game_id}:{user_id}:{revision}"))
        self.op, self.game_id, self.user_id, self.revision = op, game_id, user_id, revision

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> CancelButton:
        fields = re.fullmatch(r"(?P<op>yes|no):(?P<game>\d{1,18}):(?P<user>\d{1,19}):(?P<rev>\d{1,18})",
                              match["rest"])
        if fields is None or int(fields["user"]) >= 2**63:  # forged: nobody's button (user 0, refused)
            return cls("no", 0, 0, 0)
        return cls(fields["op"], int(fields["game"]), int(fields["user"]), int(fields["rev"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        bot = common.bot_of(interaction)
        game = await bot.manager.game(self.game_id)
        if game is None or game.status not in ("lobby", "active") or \
                game.channel_id != common.channel_id_of(interaction):
            await self._replace_question(interaction, texts.CANCEL_OVER.format(game_id=self.game_id))
            return
        if self.op == "no":
            await self._replace_question(interaction, texts.CANCEL_KEPT.format(game_id=self.game_id))
            return
        if game.revision != self.revision:
            await self._replace_question(interaction, texts.CANCEL_MOVED_ON.format(game_id=self.game_id))
            return
        await interaction.response.defer()  # ack first (an invisible "update"), then the work
        game = await common.saved(interaction, bot.manager.cancel(
            game.channel_id, interaction.user.id, game_id=self.game_id, expected_revision=self.revision,
            can_manage_channel=bool(interaction.permissions.manage_channels)))
        await interaction.edit_original_response(
            content=localise(texts.CANCEL_DONE.format(game_id=game.id), interaction.locale), view=None)
        await _announce_cancel(interaction, game)

    async def _replace_question(self, interaction: discord.Interaction, text: Any) -> None:
        """Replace the question with ``text`` (its buttons gone: nothing more to press)."""
        await interaction.response.edit_message(content=localise(text, interaction.locale), view=None)


async def _new_in_thread(interaction: discord.Interaction, name: str, settings: TableSettings,
                         hours: int | None, watch: str | None = None) -> None:
    """``/projectl table new thread:`` — a public thread of this channel becomes the game's home
    (one game per thread is how servers run days-long games); the lobby is posted there.

    Every option was checked before the thread is opened; a game that still cannot be made in it
    (a storage fault, another process's table there first) takes the thread away with it
    (:func:`_drop_thread`), so "nothing was changed" stays true."""
    parent = interaction.channel
    if not isinstance(parent, discord.TextChannel):
        raise BadInputError(texts.THREAD_NOT_HERE)
    require_thread_permissions(interaction)
    await common.defer(interaction)
    bot = common.bot_of(interaction)
    title = name.strip()[:100] or texts.THREAD_DEFAULT_NAME
    home = await parent.create_thread(name=title, type=discord.ChannelType.public_thread,
                                      auto_archive_duration=10080)
    try:
        result = await common.saved(interaction, bot.manager.create_game(
            guild_id=interaction.guild_id, channel_id=home.id, host_id=interaction.user.id,
            host_name=interaction.user.display_name, settings=settings, turn_limit_hours=hours, watch=watch,
            host_locale=locale_code(interaction.locale), channel_private=channel_private(home),
            parent_id=parent_channel_id(home),
        ))
    except Exception as error:  # noqa: BLE001 - told below, as the tree would tell it
        await _drop_thread(interaction, home, error)
        return
    game = result.game
    limit = None if hours is None else timedelta(hours=hours)
    locale = common.server_locale(interaction)  # the new thread is in the same server
    if result.started is None:
        message = await home.send(localise(lobby_content(game, limit), locale),
                                  view=common.localise_view(await offered_lobby_view(bot, game), locale))
        await bot.manager.remember_messages(game.id, lobby_message_id=message.id)
    else:
        await home.send(localise(started_content(game, limit), locale))
        await post_turn(bot, home, result)
    await common.reply(interaction, texts.TABLE_IN_THREAD.format(thread=home.mention))


async def _drop_thread(interaction: discord.Interaction, home: discord.Thread, error: Exception) -> None:
    """The game could not be made in the thread just opened for it: delete the thread, then tell
    the user why (``error``, as any refusal or fault is told). A game that was saved there after
    all (a Solo table whose start failed) keeps its thread, and the user hears that it stands;
    a thread the bot may not delete (Manage Threads) is named, for them to delete."""
    try:
        made = await common.manager_of(interaction).game_in_channel(home.id) is not None
    except Exception:  # noqa: BLE001 - storage still failing: delete (a game saved there after all
        made = False    # ends with its thread, bot/core/play/gone.py)
    if made:
        common.committed(interaction)
        await common.report_error(interaction, error)
        await common.reply(interaction, texts.TABLE_IN_THREAD.format(thread=home.mention))
        return
    try:
        await home.delete()
    except discord.HTTPException:
        log.warning("could not delete thread %s after its table could not be made", home.id)
        await common.report_error(interaction, error)
        await common.reply(interaction, texts.THREAD_LEFT_BEHIND.format(thread=home.mention))
        return
    await common.report_error(interaction, error)


def _lobby_message(interaction: discord.Interaction, game: Game) -> discord.PartialMessage | None:
    """The table's lobby post in the interaction's channel, if it has one (a group DM, where no
    table is ever opened, has no messages to address by id)."""
    channel = common.posting_channel(interaction)
    if game.lobby_message_id is None or channel is None or isinstance(channel, discord.GroupChannel):
        return None
    return channel.get_partial_message(game.lobby_message_id)


async def _close_lobby_message(interaction: discord.Interaction, game: Game) -> None:
    """Take the buttons off a cancelled lobby so nobody clicks a dead button (best effort)."""
    partial = _lobby_message(interaction, game)
    if partial is None:
        return
    try:
        await partial.edit(content=common.public(texts.LOBBY_CANCELLED, interaction), view=None)
    except (discord.HTTPException, AttributeError):
        log.info("could not close lobby message %s", game.lobby_message_id)


async def refresh_lobby_message(interaction: discord.Interaction, game: Game) -> None:
    """Show the lobby's seats as they are now on its public message, after a change made by a
    command rather than one of its buttons (best effort, like closing it)."""
    partial = _lobby_message(interaction, game)
    if partial is None:
        return
    limit = await turn_limit_of(common.bot_of(interaction), game.id)
    locale = common.server_locale(interaction)  # the lobby is public: the server's language
    view = await offered_lobby_view(common.bot_of(interaction), game)
    try:
        await partial.edit(content=localise(lobby_content(game, limit), locale),
                           view=common.localise_view(view, locale))
    except (discord.HTTPException, AttributeError):
        log.info("could not update lobby message %s", game.lobby_message_id)


async def offered_lobby_view(bot: common.FrontServices, game: Game) -> discord.ui.View:
    """The lobby's buttons, with an Add button for each plug-in AI the table's server offers."""
    return lobby_view(game, await bot.manager.plugin_servers.offered(game.guild_id))


async def require_on_lobby_message(interaction: discord.Interaction, game_id: int) -> None:
    """A lobby button acts on, and redraws, the message it sits on, which must be the table's own
    lobby post (``games.lobby_message_id``): its id carried onto any other message (a tampered
    client hanging it on an older public post of the channel, such as the last game's turn post)
    is refused privately before anything is changed or edited. Only while the table is in its
    lobby: once it is not (started, ended, no such game) every lobby button is refused by the
    manager, with why, and nothing is edited. A lobby whose post is not yet remembered (the click
    came before ``remember_messages``) has nothing to compare with."""
    game = await common.bot_of(interaction).manager.game(game_id)
    if game is None or game.status != "lobby" or game.lobby_message_id is None:
        return
    if interaction.message is None or interaction.message.id != game.lobby_message_id:
        raise StaleError(texts.FORGED_BUTTON)


async def lobby_button(interaction: discord.Interaction, op: str, game_id: int) -> None:
    """A click on Join / Leave / Add AI / Start / Cancel (see :class:`bot.discord.views.LobbyButton`)."""
    channel_id = common.channel_id_of(interaction)
    bot = common.bot_of(interaction)
    manager = bot.manager
    user = interaction.user
    if op not in LOBBY_OPS and plugin_of(op) is None:
        raise StaleError(texts.FORGED_BUTTON)
    await require_on_lobby_message(interaction, game_id)
    require_table_permissions(interaction)
    await interaction.response.defer()  # ack first (an invisible "update"), then the work
    # each is saved for good (seated or not): what follows is only the showing
    if op == "join":
        game = await common.saved(interaction, manager.join(
            channel_id, user.id, user.display_name, game_id=game_id, locale=locale_code(interaction.locale)))
    elif op == "leave":
        game = await common.saved(interaction, manager.leave(channel_id, user.id, game_id=game_id))
    elif op in LOBBY_AI:
        game = await common.saved(interaction, manager.add_policy_seat(channel_id, user.id, LOBBY_AI[op],
                                                                       game_id=game_id))
    elif (plugin := plugin_of(op)) is not None:
        offered = await manager.plugin_servers.offered(interaction.guild_id)
        game = await common.saved(interaction, manager.add_policy_seat(channel_id, user.id, plugin,
                                                                       game_id=game_id, plugins=offered))
    elif op == "cancel":
        may_manage = bool(interaction.permissions.manage_channels)
        await common.saved(interaction, manager.cancel(channel_id, user.id, game_id=game_id,
                                                       can_manage_channel=may_manage, lobby_only=True))
        await interaction.edit_original_response(content=common.public(texts.LOBBY_CANCELLED, interaction),
                                                 view=None)
        return
    else:
        await _start(interaction, game_id)
        return
    limit = await turn_limit_of(bot, game.id)
    locale = common.server_locale(interaction)
    view = await offered_lobby_view(bot, game)
    await interaction.edit_original_response(content=localise(lobby_content(game, limit), locale),
                                             view=common.localise_view(view, locale))


async def _start(interaction: discord.Interaction, game_id: int) -> None:
    """Deal, show the lobby as started, and only then let AI seats play their first turns (the
    click was acknowledged before any of this), so one table post shows the AI moves too."""
    bot = common.bot_of(interaction)
    channel_id = common.channel_id_of(interaction)
    result = await common.saved(interaction, bot.manager.start(channel_id, interaction.user.id,
                                                               game_id=game_id, play_policies=False))
    limit = await turn_limit_of(bot, game_id)
    await interaction.edit_original_response(content=common.public(started_content(result.game, limit),
                                                                   interaction), view=None)
    played = await bot.manager.play_policies(channel_id)
    if played is not None:
        result = ActionResult(result.before, played.game, played.steps, started=result.started,
                              interrupted=played.interrupted)
    await post_turn_or_explain(interaction, result)
    report_interruption(result)
