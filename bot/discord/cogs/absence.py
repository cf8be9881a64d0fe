"""Absent players: ``/projectl table vote``, ``/projectl table leave``, ``/projectl table replace``,
the "time is up" post with vote buttons, and the leave confirmation. The rules live in
:mod:`bot.core.days.turnclock`."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.core.days.turn_limits import limit_text, majority, voters_for
from bot.core.days.turnclock import VoteResult
from bot.core.errors import NotInGameError, StaleError
from bot.core.games import POLICY_LABELS
from bot.core.play.manager import POLICY_NAMES, ActionResult, Game
from bot.core.storage.days import TurnKey, TurnRow
from bot.core.wording import texts
from bot.core.wording.locales import PlayerName, localise
from bot.discord.mentions import pinging

from ..permissions import require_table_permissions
from ..reminders import ReminderScheduler
from ..services import FrontServices
from ..turns import post_turn
from . import common
from .days import PREFIX, days_of, id_fields
from .table import refresh_lobby_message

log = logging.getLogger(__name__)
_INT = re.compile(r"^\d{1,18}$")


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and _INT.match(text) else None


async def _post(interaction: discord.Interaction, text: str, result: ActionResult | None,
                mention: Sequence[int] = ()) -> None:
    """A public line in the game channel (pinging exactly ``mention``), then the usual turn post if
    the decision moved the game. The decision is saved by now: where Discord refuses the post, the
    user hears that, not that nothing changed."""
    common.committed(interaction)
    channel = common.posting_channel(interaction)
    if channel is None:
        return
    try:
        await channel.send(common.public(text, interaction), allowed_mentions=pinging(list(mention)))
        if result is not None and (result.turn_changed or result.finished):
            await post_turn(common.bot_of(interaction), channel, result)
    except discord.Forbidden:
        log.warning("no permission to post in channel %s", interaction.channel_id)
        await common.reply(interaction, texts.CANNOT_POST_DECISION)


# -- voting ----------------------------------------------------------------------------------------


async def cast_vote(interaction: discord.Interaction, choice: str, key: TurnKey | None = None) -> None:
    channel_id = common.channel_id_of(interaction)
    require_table_permissions(interaction)
    await common.defer(interaction)  # ack first: a deciding vote commits, and AI seats may then play
    outcome: VoteResult = await common.saved(interaction, days_of(common.bot_of(interaction)).turnclock.vote(
        channel_id, interaction.user.id, choice, key=key))  # the vote counts, whatever follows
    await common.reply(interaction, texts.VOTE_RECORDED.format(
        choice=texts.VOTE_CHOICE_SKIP if choice == "skip" else texts.VOTE_CHOICE_REMOVE,
        skip=outcome.count("skip"), remove=outcome.count("remove"), needed=outcome.needed))
    if outcome.decision is not None:
        await announce_decision(interaction, outcome)


async def announce_decision(interaction: discord.Interaction, outcome: VoteResult) -> None:
    """The vote passed: say so in the channel, pinging the player it concerns, and DM them."""
    assert outcome.decision is not None
    target = outcome.target
    skip = outcome.choice == "skip"
    if target.user_id is None:  # cannot happen for a vote on a human's clock, but never ping "None"
        text = (texts.VOTE_PASSED_SKIP_AI if skip else texts.VOTE_PASSED_REMOVE_AI).format(name=target.name)
        await _post(interaction, text, outcome.decision)
        return
    text = (texts.VOTE_PASSED_SKIP if skip else texts.VOTE_PASSED_REMOVE).format(user_id=target.user_id)
    await _post(interaction, text, outcome.decision, mention=[target.user_id])
    bot = common.bot_of(interaction)
    game = outcome.decision.game
    dm = (texts.SKIPPED_DM if skip else texts.REMOVED_DM).format(
        channel_id=game.channel_id, link=ReminderScheduler.jump_link(game))
    reminders = days_of(bot).reminders
    if await reminders.direct_message(target.user_id, dm, game=game) == "closed":
        await days_of(bot).store.set_dms_closed(target.user_id, True)  # the channel post pinged them


async def settle_votes(interaction: discord.Interaction, channel_id: int) -> None:
    """A voter went (left, or their seat went to an AI): a vote on record that is now a majority
    of the voters left decides, and is announced as a deciding vote is."""
    outcome = await days_of(common.bot_of(interaction)).turnclock.standing_vote(channel_id)
    if outcome is not None and outcome.decision is not None:
        await announce_decision(interaction, outcome)


@app_commands.command(name="vote",
                      description="After a turn clock ran out: skip the turn or remove the player")
@app_commands.describe(choice="Skip the turn or remove the player")
@app_commands.choices(choice=[app_commands.Choice(name="skip the turn", value="skip"),
                              app_commands.Choice(name="remove the player", value="remove")])
async def vote_command(interaction: discord.Interaction, choice: str) -> None:
    await cast_vote(interaction, choice)


_VOTE_ID = (r"(?P<game>\d{1,19}):(?P<turn>\d{1,9}):(?P<phase>play|finishing):(?P<seat>\d)"
            r":(?P<choice>skip|remove)")


class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pld:vote:(?P<rest>.*)"):
    """A vote on one specific turn: a click after that turn ended is refused as stale."""

    def __init__(self, key: TurnKey | None, choice: str) -> None:
        label = texts.VOTE_SKIP if choice == "skip" else texts.VOTE_REMOVE
        style = discord.ButtonStyle.secondary if choice == "skip" else discord.ButtonStyle.danger
        ident = "-" if key is None else f"{key.game_id}:{key.turn}:{key.phase}:{key.seat}:{choice}"
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:vote:{ident}"))
        self.key = key
        self.choice = choice

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> VoteButton:
        fields = id_fields(_VOTE_ID, match["rest"])
        if fields is None:
            return cls(None, "skip")
        key = TurnKey(int(fields["game"]), int(fields["turn"]), fields["phase"], int(fields["seat"]))
        return cls(key, fields["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.key is None:
                raise StaleError(texts.FORGED_BUTTON)
            await cast_vote(interaction, self.choice, self.key)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


def announcer(bot: FrontServices) -> Callable[[Game, TurnRow], Awaitable[None]]:
    """The scheduler's "time is up" post: who ran out, how to vote, and the vote buttons."""

    async def announce(game: Game, row: TurnRow) -> None:
        channel = bot.get_channel(game.channel_id)
        limit = await days_of(bot).store.turn_limit(game.id)
        if not isinstance(channel, discord.abc.Messageable) or limit is None:
            return
        voters = [s.user_id for s in voters_for(game, row.key.seat) if s.user_id is not None]
        if not voters:  # no other human is waiting (Solo, or only AI seats besides them)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(row.key, "skip"))
        view.add_item(VoteButton(row.key, "remove"))
        locale = common.channel_locale(bot, channel)  # a post everybody sees: the server's language
        await channel.send(
            localise(texts.TURN_TIMED_OUT.format(
                name=game.seats[row.key.seat].name, limit=limit_text(limit),
                voters=" ".join(f"<@{v}>" for v in voters), needed=majority(len(voters)),
                count=len(voters)), locale),
            view=common.localise_view(view, locale), allowed_mentions=pinging(voters),
        )

    return announce


# -- leaving and replacing -------------------------------------------------------------------------


_LEAVE_ID = r"(?P<game>\d{1,19}):(?P<user>\d{1,19}):(?P<rev>\d{1,19})"


class LeaveButton(common.PrivateQuestionButton, discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"pld:leave:(?P<rest>.*)"):
    """Confirms ``/projectl table leave`` (personal; tied to the revision it was shown for)."""

    def __init__(self, game_id: int, user_id: int, revision: int) -> None:
        super().__init__(discord.ui.Button(label=texts.LEAVE_BUTTON, style=discord.ButtonStyle.danger,
                                           custom_id=f"{PREFIX}:leave:{game_id}:{user_id}:{revision}"))
        self.game_id, self.user_id, self.revision = game_id, user_id, revision

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> LeaveButton:
        fields = id_fields(_LEAVE_ID, match["rest"])
        if fields is None:  # forged: nobody's button (user 0), refused by the mixin's check
            return cls(0, 0, 0)
        return cls(int(fields["game"]), int(fields["user"]), int(fields["rev"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        channel_id = common.channel_id_of(interaction)
        require_table_permissions(interaction)
        game = await common.manager_of(interaction).game_in_channel(channel_id)
        if game is None or game.id != self.game_id:
            raise StaleError(texts.STALE_GAME)
        name = next((s.name for s in game.seats if s.user_id == self.user_id),
                    PlayerName(interaction.user.display_name))
        await interaction.response.defer()  # ack first: AI seats may play a whole turn after the removal
        result = await common.saved(interaction, days_of(common.bot_of(interaction)).turnclock.leave(
            channel_id, self.user_id, expected_revision=self.revision))  # out for good, whatever follows
        await interaction.edit_original_response(  # the private confirmation: the user's language
            content=localise(texts.LEFT_GAME.format(name=name), interaction.locale), view=None)
        await _post(interaction, texts.LEFT_GAME.format(name=name), result)
        await settle_votes(interaction, channel_id)


@app_commands.command(name="leave",
                      description="Leave this channel's game (in play: for good, your seat is removed)")
async def leave_command(interaction: discord.Interaction) -> None:
    bot = common.bot_of(interaction)
    channel_id = common.channel_id_of(interaction)
    game = await common.require_game(interaction)
    if game.status == "lobby":
        await common.defer(interaction)  # ack first, then the work
        left = await common.saved(interaction, bot.manager.leave(channel_id, interaction.user.id,
                                                                 game_id=game.id))
        await common.reply(interaction, texts.LEFT)
        await refresh_lobby_message(interaction, left)  # the seats everyone sees
        return
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise NotInGameError(texts.NOT_IN_GAME)
    if game.state is not None and game.state.players[seat.seat].removed:
        raise NotInGameError(texts.LEAVE_REMOVED)
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(game.id, interaction.user.id, game.revision))
    await common.reply(interaction, texts.LEAVE_CONFIRM, view=view)


@app_commands.command(name="replace",
                      description="Host: give an absent player's seat to an AI")
@app_commands.describe(player="The player whose seat the AI takes over", ai="Which AI plays the seat")
@app_commands.choices(ai=[app_commands.Choice(name=POLICY_LABELS[p], value=p) for p in POLICY_NAMES])
async def replace_command(
    interaction: discord.Interaction, player: discord.Member, ai: str = "greedy",
) -> None:
    channel_id = common.channel_id_of(interaction)
    await common.defer(interaction)
    old = await common.require_game(interaction)
    old_seat = old.seat_of(player.id)
    turnclock = days_of(common.bot_of(interaction)).turnclock
    game, seat, played = await common.saved(interaction, turnclock.replace(
        channel_id, interaction.user.id, player.id, ai))  # the AI has the seat, whatever follows
    before = old_seat.name if old_seat is not None else PlayerName(player.display_name)
    text = texts.REPLACED.format(name=before, ai=seat.name)
    await common.reply(interaction, text)
    await _post(interaction, text, played)
    await settle_votes(interaction, channel_id)


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (vote_command, leave_command, replace_command)
DYNAMIC_ITEMS = (VoteButton, LeaveButton)
