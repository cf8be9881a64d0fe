"""Every engine action as a slash command, with autocomplete that offers only legal choices.

Parsing turns Discord options into engine actions (in the documented text notation, so what a
player sees in the log is what they could have typed); the manager decides whether it is legal.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import engine
from bot.core.errors import BadInputError, BotError, InvalidActionError, StaleError
from bot.core.play import flow
from bot.core.play.manager import Chooser, Game
from bot.core.play.panel import decode_draft
from bot.core.wording import texts
from bot.core.wording.describe import describe, reward_words
from bot.core.wording.event_texts import shape_label
from bot.core.wording.locales import Joined, Notation, localise
from bot.core.wording.refusals import engine_text
from engine import Action, Colour, GameState, Place, PlayerState, parse_shape
from engine.actions import GhostSplit
from engine.errors import QUOTE_LIMIT, quoted
from engine.expansions.ambassador import ambassador_options
from engine.legal import upgrade_actions
from engine.pieces import UnknownShapeError, mask_to_text
from engine.state import LineClearTable, RowsTable, SoloTable

from ..permissions import require_table_permissions
from ..turns import TurnImages, respond_to_result, start_images
from ..views import ConfirmButton, PlacementSelect, master_view
from . import common

log = logging.getLogger(__name__)
Choices = list[app_commands.Choice[str]]
MAX_CHOICES = 25


# -- shared flows (also used by buttons in bot/discord/views.py) ------------------------------------------


async def perform(
    interaction: discord.Interaction, action: Action | str | None = None, *,
    expected_stamp: str | None = None, game_id: int | None = None, choose: Chooser | None = None,
) -> None:
    """Defer, apply through the manager (lock, load, check, apply, commit: one load), then confirm
    and post the turn. Every button, menu and panel that acts comes through here (and typed
    commands too): ``expected_stamp`` is the acting seat's stamp the offer was made at, ``choose``
    works out a tap's action from the game as the manager loaded it."""
    channel_id = common.channel_id_of(interaction)
    require_table_permissions(interaction)  # before anything is committed that the table can't see
    await common.defer(interaction)
    images: list[TurnImages] = []  # drawn from the moment the action is committed (start_images)
    try:
        result = await common.saved(interaction, common.manager_of(interaction).act(
            channel_id, interaction.user.id, action, expected_stamp=expected_stamp, game_id=game_id,
            choose=choose, on_committed=lambda done: images.append(start_images(interaction, done)),
        ))
    except BaseException:
        for started in (task for pair in images for task in pair if task is not None):
            started.cancel()
        raise
    await respond_to_result(interaction, result, images[0] if images else None)


async def show_preview(interaction: discord.Interaction, game_id: int, offered: str, place: Place) -> None:
    """Show where a piece would go, with a Confirm button bound to this user and seat stamp."""
    ctx = await flow.acting(common.manager_of(interaction), common.channel_id_of(interaction),
                            interaction.user.id, interaction.locale, game_id=game_id, offered=offered)
    ctx.check(place)
    await common.defer(interaction)
    game = ctx.game
    image = await common.bot_of(interaction).renderer.preview(ctx.state, ctx.seat, place, game.names,
                                                                   locale=interaction.locale)
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game.id, interaction.user.id, ctx.stamp, str(place)))
    about = describe(ctx.state, game.names, ctx.seat, mat=ctx.seat)
    await common.reply(interaction, texts.PREVIEW.format(action=Notation(str(place))),
                       files=[common.png(image, "preview.png", about)],
                       view=view)


async def show_ghost_preview(interaction: discord.Interaction, split: GhostSplit) -> None:
    """The Ghost action's preview — the ghost and the pieces that tile it, and any placements —
    with a Confirm button bound to this user and seat stamp. Checked by the engine first."""
    ctx = await flow.acting(common.manager_of(interaction), common.channel_id_of(interaction),
                            interaction.user.id, interaction.locale)
    ctx.check(split)
    await common.defer(interaction)
    image = await common.bot_of(interaction).renderer.ghost_split(split, locale=interaction.locale)
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(ctx.game.id, interaction.user.id, ctx.stamp, str(split)))
    await common.reply(interaction, texts.PREVIEW.format(action=Notation(str(split))),
                       files=[common.png(image, "ghost.png", describe(ctx.state, ctx.game.names, ctx.seat,
                                                                    mat=ctx.seat))], view=view)


async def master_confirm(
    interaction: discord.Interaction, *, expected_stamp: str | None = None, game_id: int | None = None,
    draft: str | None = None,
) -> None:
    """Play the user's Master draft: the one a Confirm button carries (``draft``, encoded for the
    seat's view it was built on), else the one the manager keeps for them (``master-add``)."""

    channel_id = common.channel_id_of(interaction)
    require_table_permissions(interaction)
    await common.defer(interaction)
    manager = common.manager_of(interaction)
    if draft is not None:
        async def carried(game: Game, seat: int) -> Action:
            assert game.state is not None
            placements = decode_draft(game.state, seat, draft)
            if not placements:
                raise StaleError(texts.FORGED_BUTTON)
            return engine.Master(placements)

        result = await common.saved(interaction, manager.act(channel_id, interaction.user.id, choose=carried,
                                                             expected_stamp=expected_stamp, game_id=game_id))
    else:
        result = await common.saved(interaction, manager.master_confirm(
            channel_id, interaction.user.id, expected_stamp=expected_stamp, game_id=game_id,
        ))
    await respond_to_result(interaction, result)


async def master_clear(interaction: discord.Interaction, game_id: int | None = None) -> None:
    await common.saved(interaction, common.manager_of(interaction).master_clear(
        common.channel_id_of(interaction), interaction.user.id, game_id=game_id))
    await common.reply(interaction, texts.MASTER_CLEARED)


# -- parsing helpers --------------------------------------------------------------------------------


def parse_piece(text: str) -> engine.Shape:
    try:
        return parse_shape(text)
    except UnknownShapeError as error:
        raise BadInputError(engine_text(error)) from error


def parse_place(piece: str, puzzle: str, cells: str) -> Place:
    try:
        return engine.parse_placement(f"{parse_piece(piece).value} on {puzzle.strip()} at {cells}")
    except engine.IllegalActionError as error:
        raise BadInputError(engine_text(error)) from error


_SLOT = re.compile(r"^\s*(?:(?P<colour>white|black|branc[oa]|pret[oa]|w|b)\s*)?(?P<slot>\d)\s*$",
                   re.IGNORECASE)


def parse_action_text(text: str) -> Action:
    try:
        return engine.parse_action(text)
    except engine.IllegalActionError as error:
        raise BadInputError(engine_text(error)) from error


def parse_take(game: Game, text: str, seat: int | None = None) -> Action:
    """'white 3' (or 'branco 3'), 'w3', '5' (Solo grid), or a card id on offer such as 'W07'
    (in Line Clear, on ``seat``'s side)."""
    assert game.state is not None
    table = game.state.table
    match = _SLOT.match(text)
    if match:
        colour = match["colour"]
        if colour:
            name = "white" if colour.lower().startswith(("w", "branc")) else "black"
            return engine.parse_action(f"take {name} {match['slot']}")
        if isinstance(table, SoloTable):
            return engine.parse_action(f"take {match['slot']}")
    card = text.strip().upper()
    for value, _label, card_id in _offers(game, seat):
        if card_id == card:
            return engine.parse_action(f"take {value}")
    raise BadInputError(texts.NOT_A_PUZZLE_SLOT.format(text=quoted(text)))


def _offers(game: Game, seat: int | None = None) -> list[tuple[str, str, str]]:
    """(value, label, card id) for every face-up puzzle a player could take (in Line Clear, the
    rows on the side of ``seat``'s marker; default the current seat)."""
    assert game.state is not None
    state = game.state
    table = state.table
    offers: list[tuple[str, str, str]] = []
    if isinstance(table, LineClearTable):
        turn = state.turn_of(state.current if seat is None else seat)
        if turn is not None:
            for colour in (Colour.WHITE, Colour.BLACK):
                for slot, card in enumerate(table.row(turn.side, colour), start=1):
                    if card is not None:
                        colour_name = texts.COLOUR_TITLES[colour.value]
                        where = texts.PANEL_ROW_SLOT.format(colour=colour_name, slot=slot)
                        label = texts.CHOICE_SIDE.format(where=where, side=texts.SIDES[turn.side])
                        offers.append((f"{colour} {slot}", label, card))
    elif isinstance(table, RowsTable):
        for colour in (Colour.WHITE, Colour.BLACK):
            for slot, card in enumerate(table.row(colour), start=1):
                if card is not None:
                    offers.append((f"{colour} {slot}", texts.PANEL_ROW_SLOT.format(
                        colour=texts.COLOUR_TITLES[colour.value], slot=slot), card))
    elif isinstance(table, SoloTable):
        for slot, card in enumerate(table.grid, start=1):
            if card is not None:
                offers.append((str(slot), texts.PANEL_GRID_SLOT.format(slot=slot), card))
    return offers


def _card_line(game: Game, card_id: str, where: str) -> str:
    assert game.state is not None
    card = game.state.cards[card_id]
    return texts.CHOICE_TAKE.format(where=where, card=card.id, points=card.points, reward=reward_words(card),
                                    size=card.size)


# -- autocomplete -----------------------------------------------------------------------------------


Suggest = Callable[[discord.Interaction, str], Coroutine[Any, Any, Choices]]


def _safe(function: Suggest) -> Suggest:
    """Autocomplete must never fail loudly (the user just sees no suggestions): log and offer none."""

    @functools.wraps(function)
    async def wrapper(interaction: discord.Interaction, current: str) -> Choices:
        try:
            return await function(interaction, current)
        except BotError:
            return []
        except Exception:
            log.exception("autocomplete %s failed", function.__name__)
            return []

    return wrapper


async def _my_player(interaction: discord.Interaction) -> tuple[Game, int, PlayerState] | None:
    ctx = await flow.onlooker(common.manager_of(interaction), interaction.channel_id, interaction.user.id,
                              interaction.locale)
    if ctx is None:
        return None
    return ctx.game, ctx.seat, ctx.player


async def _my_turn_state(interaction: discord.Interaction) -> GameState | None:
    """The game seen from the asking player's own turn (either marker holder in Line Clear), when
    they hold the move; autocomplete offers nothing otherwise."""
    ctx = await flow.onlooker(common.manager_of(interaction), interaction.channel_id, interaction.user.id,
                              interaction.locale)
    return ctx.state if ctx is not None and ctx.acting else None


def _matches(current: str, *texts_: str) -> bool:
    needle = current.strip().lower()
    return not needle or any(needle in t.lower() for t in texts_)


def _choices(pairs: list[tuple[str, str]], current: str, locale: Any = None) -> Choices:
    """Suggestions whose label (in the asker's language, ``locale``) or value contains what was
    typed; the value, which the command reads back, is never translated."""
    shown = [(str(localise(name, locale)), value) for name, value in pairs]
    return [app_commands.Choice(name=name[:100], value=value[:100])
            for name, value in shown if _matches(current, name, value)][:MAX_CHOICES]


@_safe
async def piece_choices(interaction: discord.Interaction, current: str) -> Choices:
    mine = await _my_player(interaction)
    if mine is None:
        return _choices([(shape_label(s), s.value) for s in engine.SHAPES[:9]], current, interaction.locale)
    _, _, player = mine
    return _choices([(texts.CHOICE_PIECE.format(piece=shape_label(s), count=player.supply[s.index]), s.value)
                     for s in engine.SHAPES if player.supply[s.index] > 0], current, interaction.locale)


@_safe
async def puzzle_choices(interaction: discord.Interaction, current: str) -> Choices:
    mine = await _my_player(interaction)
    if mine is None:
        return []
    game, _, player = mine
    assert game.state is not None
    pairs = []
    for puzzle in player.puzzles:
        card = game.state.cards[puzzle.card]
        filled = puzzle.filled.bit_count()
        pairs.append((texts.CHOICE_PUZZLE.format(card=card.id, points=card.points, filled=filled,
                                                 size=card.size), card.id))
    return _choices(pairs, current, interaction.locale)


@_safe
async def cells_choices(interaction: discord.Interaction, current: str) -> Choices:
    """Legal placements of the chosen piece on the chosen puzzle, filtered by the typed cells."""
    mine = await _my_player(interaction)
    namespace = interaction.namespace
    if mine is None or not namespace.piece or not namespace.puzzle:
        return []
    game, _, player = mine
    assert game.state is not None
    try:
        shape = parse_shape(str(namespace.piece))
    except UnknownShapeError:
        return []
    card = str(namespace.puzzle).strip().upper()
    typed = {t.upper() for t in current.replace(",", " ").split()}
    result: Choices = []
    for place in engine.placements_for(game.state.cards, player, card=card, shape=shape):
        cells = mask_to_text(place.mask)
        if typed <= set(cells.split()) or _matches(current, cells):
            result.append(app_commands.Choice(name=cells, value=cells))
        if len(result) >= MAX_CHOICES:
            break
    return result


@_safe
async def take_choices(interaction: discord.Interaction, current: str) -> Choices:
    if interaction.channel_id is None:
        return []
    game = await common.manager_of(interaction).game_in_channel(interaction.channel_id)
    if game is None or game.state is None:
        return []
    seat = game.seat_of(interaction.user.id)
    offers = _offers(game, None if seat is None else seat.seat)
    return _choices([(_card_line(game, card, label), value) for value, label, card in offers], current,
                    interaction.locale)


@_safe
async def give_choices(interaction: discord.Interaction, current: str) -> Choices:
    return await piece_choices(interaction, current)


@_safe
async def upgrade_take_choices(interaction: discord.Interaction, current: str) -> Choices:
    state = await _my_turn_state(interaction)
    if state is None:
        return []
    give_text = str(interaction.namespace.give or "")
    pairs: dict[str, str] = {}
    for upgrade in upgrade_actions(state):
        if give_text and upgrade.give.value.upper() != give_text.strip().upper():
            continue
        pairs[upgrade.take.value] = texts.PANEL_TAKE_PIECE.format(piece=shape_label(upgrade.take),
                                                                  level=upgrade.take.level)
    return _choices([(label, value) for value, label in pairs.items()], current, interaction.locale)


@_safe
async def ghost_choices(interaction: discord.Interaction, current: str) -> Choices:
    """For /projectl play ghost: every legal split of the ghosts in the asker's supply."""
    state = await _my_turn_state(interaction)
    if state is None:
        return []
    pairs = []
    for action in engine.legal_actions(state):
        if isinstance(action, GhostSplit):
            text = str(action)[len("ghost "):]
            label = f"{action.ghost.value} → " + " + ".join(p.value for p in action.pieces)
            pairs.append((label, text))
    return _choices(pairs, current)


@_safe
async def action_choices(interaction: discord.Interaction, current: str) -> Choices:
    """For /projectl play act: legal actions containing the typed text (Master and the Ambassador
    action are typed by hand: their verb is offered as a start)."""
    state = await _my_turn_state(interaction)
    if state is None:
        return []
    texts_ = [str(a) for a in engine.legal_actions(state)]
    if engine.master_options(state) is not None:
        texts_.append("master ")
    if ambassador_options(state) is not None:
        texts_.append("ambassador ")
    return _choices([(Notation(t), t) for t in texts_], current, interaction.locale)


# -- the commands ------------------------------------------------------------------------------------


class PlayCommands(commands.Cog):
    """``/projectl play …``: mixed into the /projectl group cog (see bot/discord/cogs/__init__.py)."""

    play = app_commands.Group(name="play", description="Your turn: take, draw, place, upgrade, Master…")

    @play.command(name="take", description="Take a face-up puzzle")
    @app_commands.describe(puzzle="e.g. white 3 (Solo: grid 1-9)")
    @app_commands.autocomplete(puzzle=take_choices)
    async def take(self, interaction: discord.Interaction, puzzle: str) -> None:
        game = await common.require_game(interaction)
        if game.state is None:
            raise BadInputError(texts.NOT_STARTED)
        seat = game.seat_of(interaction.user.id)
        try:
            action = parse_take(game, puzzle, None if seat is None else seat.seat)
        except engine.IllegalActionError as error:
            raise BadInputError(engine_text(error)) from error
        await perform(interaction, action, game_id=game.id)

    @play.command(name="draw", description="Take a deck's top card, unseen")
    @app_commands.describe(deck="white or black (Solo: empty)")
    @app_commands.choices(deck=[app_commands.Choice(name="white", value="white"),
                                app_commands.Choice(name="black", value="black")])
    async def draw(self, interaction: discord.Interaction, deck: str | None = None) -> None:
        await perform(interaction, f"draw {deck}" if deck else "draw")

    @play.command(name="level1", description="Take a level-1 piece from the reserve")
    async def level1(self, interaction: discord.Interaction) -> None:
        await perform(interaction, engine.TakeLevelOne())

    @play.command(name="upgrade", description="Return a piece for a bigger (or same-level) one")
    @app_commands.describe(give="A piece from your supply", take="The piece you want instead")
    @app_commands.autocomplete(give=give_choices, take=upgrade_take_choices)
    async def upgrade(self, interaction: discord.Interaction, give: str, take: str) -> None:
        await perform(interaction, engine.Upgrade(parse_piece(give), parse_piece(take)))

    @play.command(name="place", description="Put a piece on one of your puzzles")
    @app_commands.describe(
        piece="A piece from your supply", puzzle="One of your unfinished puzzles",
        cells="Like A1 A2 B2 (the list shows legal spots; empty: menu + preview)",
    )
    @app_commands.autocomplete(piece=piece_choices, puzzle=puzzle_choices, cells=cells_choices)
    async def place(
        self, interaction: discord.Interaction, piece: str, puzzle: str, cells: str | None = None
    ) -> None:
        if cells:
            await perform(interaction, parse_place(piece, puzzle, cells))
            return
        await _placement_menu(interaction, parse_piece(piece), puzzle.strip().upper())

    @play.command(name="recycle", description="Put a row under its deck; four new cards")
    @app_commands.describe(row="Which row", order="Order under the deck, e.g. 3 1 4 2")
    @app_commands.choices(row=[app_commands.Choice(name="white", value="white"),
                               app_commands.Choice(name="black", value="black")])
    async def recycle(self, interaction: discord.Interaction, row: str, order: str = "1 2 3 4") -> None:
        await perform(interaction, f"recycle {row} {order}")

    @play.command(name="master-add", description="Add a placement to your Master action")
    @app_commands.describe(piece="A piece from your supply", puzzle="One of your puzzles (one piece each)",
                           cells="Cells it covers, like A1 A2 B2")
    @app_commands.autocomplete(piece=piece_choices, puzzle=puzzle_choices, cells=cells_choices)
    async def master_add(self, interaction: discord.Interaction, piece: str, puzzle: str, cells: str) -> None:
        place = parse_place(piece, puzzle, cells)
        await common.defer(interaction)  # the preview is drawn before the answer
        manager = common.manager_of(interaction)
        draft = await common.saved(interaction, manager.master_add(common.channel_id_of(interaction),
                                                                   interaction.user.id, place))
        game = draft.game  # as the draft was checked on: no second load
        assert game is not None and game.state is not None
        # Every placement of the draft drawn together on the player's puzzles (what Confirm plays).
        image = await common.bot_of(interaction).renderer.master_preview(
            game.state, draft.seat, draft.placements, game.names, locale=interaction.locale)  # private
        lines = Joined((Joined(("· ", common.code(p.placement_text())), "") for p in draft.placements), "\n")
        await common.reply(interaction, texts.MASTER_DRAFT.format(lines=lines),
                           files=[common.png(image, "preview.png",
                                              describe(game.state, game.names, draft.seat, mat=draft.seat))],
                           view=master_view(draft, interaction.user.id, game.state))

    @play.command(name="master-confirm", description="Play your Master action as built")
    async def master_confirm_cmd(self, interaction: discord.Interaction) -> None:
        await master_confirm(interaction)

    @play.command(name="master-clear", description="Forget your Master draft")
    async def master_clear_cmd(self, interaction: discord.Interaction) -> None:
        await master_clear(interaction)

    @play.command(name="done", description="End your Finishing Touches")
    async def done(self, interaction: discord.Interaction) -> None:
        await perform(interaction, engine.EndFinishing())

    @play.command(name="pass", description="Pass an action (only when nothing else is possible)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await perform(interaction, engine.Pass())

    @play.command(name="ghost", description="Ghost Piece: split a ghost into pieces that tile it (preview)")
    @app_commands.describe(
        split="e.g. P5 to 1 O4 (the list shows the legal splits)",
        place="Optional, place new pieces at once (one per puzzle): 1 on W07 at C3; O4 on B02 at …",
    )
    @app_commands.autocomplete(split=ghost_choices)
    async def ghost(self, interaction: discord.Interaction, split: str, place: str | None = None) -> None:
        text = f"ghost {split}" + (f"; {place}" if place else "")
        action = parse_action_text(text)
        if not isinstance(action, GhostSplit):
            raise BadInputError(texts.GHOST_HOW)
        await show_ghost_preview(interaction, action)

    @play.command(name="act", description="Any action in text notation: place L3 on W07 at A1 A2 B2")
    @app_commands.describe(text="take white 3 · draw black · level1 · upgrade 2 to L3 · place … · master …")
    @app_commands.autocomplete(text=action_choices)
    async def act(self, interaction: discord.Interaction, text: str) -> None:
        await perform(interaction, text)


async def _placement_menu(interaction: discord.Interaction, shape: engine.Shape, card: str) -> None:
    """No cells given: offer a menu of the legal spots; choosing one shows a preview."""
    ctx = await flow.acting(common.manager_of(interaction), common.channel_id_of(interaction),
                            interaction.user.id, interaction.locale)
    game, player = ctx.game, ctx.player
    if player.puzzle(card) is None:
        yours: str = ", ".join(p.card for p in player.puzzles) or texts.NONE
        named = card if len(card) <= QUOTE_LIMIT else quoted(card)  # what was typed: a short prefix
        raise InvalidActionError(texts.NOT_YOUR_PUZZLE.format(card=named, yours=yours))
    if player.supply[shape.index] <= 0:
        raise InvalidActionError(texts.NO_SUCH_PIECE.format(piece=shape_label(shape)))
    places = ctx.placements(card=card, shape=shape)
    if not places:
        raise InvalidActionError(texts.NO_PLACEMENTS.format(piece=shape_label(shape), card=card))
    options = [discord.SelectOption(label=mask_to_text(p.mask), value=mask_to_text(p.mask))
               for p in places[:MAX_CHOICES]]
    view = discord.ui.View(timeout=None)
    view.add_item(PlacementSelect(game.id, interaction.user.id, ctx.stamp, shape.value, card, options))
    content: str = texts.PICK_PLACEMENT.format(piece=shape_label(shape), card=card)
    if len(places) > MAX_CHOICES:
        content = Joined((content, texts.TOO_MANY_PLACEMENTS.format(count=len(places))), "\n")
    await common.reply(interaction, content, view=view)
