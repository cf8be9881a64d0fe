"""``/projectl-plan``: lay out your next turn while others play (bot/core/play/plans.py), see it,
cancel it; and the private word on what a planned turn did when it came (a DM under the player's
DM settings, and in ``show`` until they lay out another plan).

Every answer is private. A plan is laid out through the flow layer like any other act: one
acting context for the seated user (``flow.onlooker``), the engine's checks on the table as it
stands, and a refusal in the player's words when a step would not be allowed.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.core.errors import BotError, NoGameError, NotInGameError, StaleError, WrongStageError
from bot.core.games import PlanOutcome
from bot.core.play import flow, plan_keeping, plans
from bot.core.wording import texts
from bot.core.wording.locales import Joined, locale_code, localise, notation_in

from .cogs.common import bot_of, channel_id_of, on_private_message, reply, report_error, saved
from .cogs.days import days_of
from .services import FrontServices

ROOT = "projectl-plan"

log = logging.getLogger(__name__)


async def _seated(interaction: discord.Interaction) -> flow.ActingContext:
    bot = bot_of(interaction)
    context = await flow.onlooker(bot.manager, channel_id_of(interaction), interaction.user.id,
                                  interaction.locale)
    if context is None:
        game = await bot.manager.game_in_channel(channel_id_of(interaction))
        if game is None:
            raise NoGameError(texts.NO_GAME)
        if game.state is None:  # a table in its lobby: there is a game, not yet a turn to plan
            raise WrongStageError(texts.NOT_STARTED)
        raise NotInGameError(texts.NOT_IN_GAME)
    return context


async def save_plan(interaction: discord.Interaction, actions: str, game_id: int | None = None) -> None:
    """Lay out ``actions`` as the user's next turn, keep it, and say so privately: the one path of
    the command and of the panel's Plan form."""
    context = await _seated(interaction)
    if game_id is not None and context.game.id != game_id:
        raise StaleError(texts.STALE_BUTTON)
    bot = bot_of(interaction)
    storage = bot.storage
    # kept in place of the plan the seat had; the word on its last planned turn goes with it (in
    # Line Clear on the side of the seat's next turn: plans.side_for)
    laid_out = await saved(interaction,
                           plan_keeping.save_plan(bot.manager, context, plans.parse_plan(actions)))
    # what the plan's DM will be worded in: the language of the player's latest table command
    await storage.upsert_player(interaction.user.id, interaction.user.display_name,
                                locale_code(interaction.locale))
    await reply(interaction, texts.PLAN_SAVED.format(steps=plans.step_lines(laid_out.steps)))


MAX_CHOICES = 25
"""Suggestions Discord shows at most; each choice's name and value hold at most 100 characters."""
CHOICE_LENGTH = 100


async def plan_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """``actions``' suggestions: the plan typed so far (up to its last ``;``) followed by each step
    the engine would let the player plan next, on the table as they see it (``plans.next_steps``),
    those containing the step being typed; none when they may not plan now or what is typed so far
    is not a plan they could lay out. Never an error: a suggestion that fails offers nothing."""
    try:
        context = await flow.onlooker(bot_of(interaction).manager, interaction.channel_id,
                                      interaction.user.id, interaction.locale)
        if context is None or context.game.state is None or not plans.plannable(context.game.state,
                                                                                   context.seat):
            return []
        head, _, typing = current.rpartition(";")
        laid = plans.parse_plan(head) if head.strip(" ;\n\r\t") else []
        following = plans.next_steps(context.game.state, context.seat, laid)
    except BotError:
        return []
    except Exception:  # noqa: BLE001 - a suggestion never fails loudly: the user sees none
        log.exception("plan suggestions failed")
        return []
    before = f"{head.strip()}; " if laid else ""
    needle = typing.strip().lower()
    choices: list[app_commands.Choice[str]] = []
    for step in following:
        shown = notation_in(step, interaction.locale)
        if needle and needle not in step.lower() and needle not in shown.lower():
            continue
        value, name = f"{before}{step}".rstrip(), f"{before}{shown}".rstrip()
        if len(value) > CHOICE_LENGTH or len(name) > CHOICE_LENGTH:
            continue  # too long to be offered whole: typed on by hand
        choices.append(app_commands.Choice(name=name, value=value))
        if len(choices) == MAX_CHOICES:
            break
    return choices


@app_commands.command(name="set", description="Lay out your next turn now; it plays when your turn starts")
@app_commands.describe(actions="Your actions in order, separated by ; (e.g. take white 2; level1)")
@app_commands.autocomplete(actions=plan_choices)
async def set_command(interaction: discord.Interaction, actions: app_commands.Range[str, 1, 400]) -> None:
    await save_plan(interaction, actions)


FORM = re.compile(r"pln:form:(?P<game>\d{1,19})")
"""The Plan form's custom id: the game it plans for."""


FORM_LENGTH = 400
"""What the form's box holds (as ``/projectl-plan set actions:``): Discord refuses a longer text."""


def form_text(actions: list[str], locale: Any) -> str:
    """A kept plan as the form's box shows it: in the reader's notation, as every action they read
    (the engine parses it back); in the engine's words if that is too long for the box (a plan
    laid out on the web board, which has none), else nothing (``/projectl-plan show`` shows it)."""
    for text in ("; ".join(notation_in(action, locale) for action in actions), "; ".join(actions)):
        if len(text) <= FORM_LENGTH:
            return text
    return ""


class PlanForm(discord.ui.Modal):
    """The Play panel's way in: the plan typed in a form, laid out as ``/projectl-plan set`` does.

    Only its look lives here: discord.py keeps one open form per custom id, in memory, so a second
    player opening the form of the same game, or a restart, would leave the first form's submit
    unanswered ("This interaction failed"). The submit is answered from its id and its text instead,
    by :func:`answer_form`, as every button is."""

    def __init__(self, game_id: int, locale: Any, current: str = "") -> None:
        super().__init__(title=str(localise(texts.PLAN_FORM_TITLE, locale))[:45],
                         custom_id=f"pln:form:{game_id}")
        self.game_id = game_id
        self.actions: discord.ui.TextInput[PlanForm] = discord.ui.TextInput(
            label=str(localise(texts.PLAN_FORM_LABEL, locale))[:45], custom_id="actions",
            style=discord.TextStyle.paragraph, max_length=FORM_LENGTH, default=current or None,
            placeholder=str(localise(texts.PLAN_FORM_HINT, locale))[:100])
        self.add_item(self.actions)


def typed_text(components: Any, custom_id: str) -> str | None:
    """What a submitted form holds in its field ``custom_id`` (inside action rows or labels)."""
    for component in components if isinstance(components, list) else ():
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"] or "")
        inner = component.get("components") or [component.get("component")]
        found = typed_text(inner, custom_id)
        if found is not None:
            return found
    return None


async def answer_form(interaction: discord.Interaction) -> None:
    """Keep the plan a Plan form was sent with (any other interaction is not this one's; a form
    with another ``pln:`` id, forged or garbled, is refused privately rather than left unanswered)."""
    data: Any = interaction.data or {}
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    custom_id = str(data.get("custom_id", ""))
    form = FORM.fullmatch(custom_id)
    if form is None:
        if custom_id.startswith("pln:"):
            await report_error(interaction, StaleError(texts.FORGED_BUTTON))
        return
    try:
        await save_plan(interaction, typed_text(data.get("components"), "actions") or "", int(form["game"]))
    except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
        await report_error(interaction, error)


OPEN = re.compile(r"open:(?P<game>\d{1,19})")
"""The rest of **Plan my next turn**'s custom id after ``pln:``: the game it plans for."""


class PlanButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pln:(?P<rest>[\s\S]*)"):
    """**Plan my next turn**, offered when a seated player opens the panel out of turn: the form,
    with the plan they have (if any) filled in. Every other ``pln:`` id sent as a button (forged,
    garbled, the form's own id: ``game_id`` None), or the button hung on any message but a
    private reply, is refused privately, not left unanswered."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(discord.ui.Button(label=texts.PLAN_BUTTON, style=discord.ButtonStyle.primary,
                                           custom_id=f"pln:open:{game_id or 0}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> PlanButton:
        opened = OPEN.fullmatch(match["rest"])
        return cls(None if opened is None else int(opened["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.game_id is None or not on_private_message(interaction):  # garbled, or hung elsewhere
                raise StaleError(texts.FORGED_BUTTON)
            context = await _seated(interaction)
            # Refused here, not after the form is typed: a button of a game gone (the channel's
            # game is another now), or a turn that is now the player's own.
            if context.game.id != self.game_id:
                raise StaleError(texts.STALE_BUTTON)
            assert context.game.state is not None
            plans.refuse_unless_plannable(context.game.state, context.seat)
            plan = await plan_keeping.plan_of(bot_of(interaction).storage, context)
            current = "" if plan is None else form_text([s.action for s in plan.left], interaction.locale)
            form = PlanForm(context.game.id, interaction.locale, current)
            await interaction.response.send_modal(form)
            form.stop()  # out of discord.py's memory: answer_form answers the submit
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await report_error(interaction, error)


def plan_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PlanButton(game_id))
    return view


@app_commands.command(name="show", description="Your plan for your next turn")
async def show_command(interaction: discord.Interaction) -> None:
    context = await _seated(interaction)
    bot = bot_of(interaction)
    plan = await plan_keeping.plan_of(bot.storage, context)
    shown = texts.PLAN_NONE if plan is None else texts.PLAN_SHOWN.format(steps=plans.step_lines(plan.left))
    # what the last planned turn did: the one place it stays when its DM was held or not deliverable
    last = await days_of(bot).plan_outcomes.last(context.game.id, context.seat, context.user_id)
    await reply(interaction, shown if last is None else Joined([shown, plans.outcome_words(last)], "\n\n"))


@app_commands.command(name="cancel", description="Drop your plan: your next turn waits for you")
async def cancel_command(interaction: discord.Interaction) -> None:
    context = await _seated(interaction)
    dropped = await saved(interaction, plan_keeping.cancel_plan(bot_of(interaction).manager, context))
    await reply(interaction, texts.PLAN_CANCELLED if dropped else texts.PLAN_NONE)


def make_group() -> app_commands.Group:
    group = app_commands.Group(name=ROOT, description="Plan your next turn ahead (only you see it)",
                               guild_only=True)
    commands: tuple[app_commands.Command[Any, ..., Any], ...] = (set_command, show_command, cancel_command)
    for command in commands:
        group.add_command(command)
    return group


def outcome_text(outcome: PlanOutcome, link: str) -> Any:
    """What a planned turn did, for its player (and the link back when actions are left)."""
    text = plans.outcome_words(outcome)
    if outcome.actions_left:
        return Joined([text, texts.PLAN_ACTIONS_LEFT.format(n=outcome.actions_left, link=link)], "\n")
    return text


async def tell(bot: FrontServices, outcome: PlanOutcome) -> None:
    """Tell the player what their planned turn did: kept for ``/projectl-plan show``, and DMed
    under the rules of the turn DMs (``send_or_hold``: reminders off or DMs known closed, none;
    quiet hours or vacation, held in storage until they end, without the "still your turn" line
    that may no longer hold then: the turn DM, held to the same moment, says it). The turn's own
    DM follows only if actions are left."""
    game = await bot.manager.game(outcome.game_id)
    days = days_of(bot)
    await days.plan_outcomes.keep(outcome)
    # worded before the table this turn brought is posted: the channel opens on that post
    link = "" if game is None else days.reminders.channel_link(game)
    await days.reminders.send_or_hold(f"plan:{outcome.game_id}:{outcome.seat}", outcome.user_id,
                                      outcome_text(outcome, link), game=game,
                                      held_content=plans.outcome_words(outcome))


def install(bot: Any) -> None:
    """Add ``/projectl-plan`` and its Plan button, and tell players what their planned turns did."""
    bot.tree.add_command(make_group())
    bot.add_dynamic_items(PlanButton)
    bot.add_listener(answer_form, "on_interaction")

    async def on_plan_played(outcome: PlanOutcome) -> None:
        await tell(bot, outcome)

    bot.manager.on_plan_played.append(on_plan_played)
