"""The private turn panel: buttons and menus for exactly the moves the engine allows now.

How a player meets it: the public turn post has a **Play** button (``plp:play:<game>``); pressing
it answers privately with the panel. After every action the player's private confirmation carries
the panel for the next one, until the turn is over. Typing commands keeps working alongside.

Each component is one :class:`PanelItem` whose custom id holds the whole step
(``plp:<game>:<user>:<revision>:<step>[:<args>]``, see ``bot/core/play/panel.py``). On every tap the item is
rebuilt from that id and the stored game — nothing is kept in memory, so the panel survives a
restart — and refused when the game moved on (the revision), when the tapper is not the panel's
owner (``interaction_check``) or no longer holds the move (``GameManager.check_turn``).

Every tap is acknowledged first (a deferred update for a step inside the panel, a "thinking"
reply for an action) and only then does the work, so the acknowledgement never waits for the
database or a render. Actions go through the same ``perform`` → ``GameManager.act`` path as typed
commands, with the panel's revision as ``expected_revision``.

Steps (menus marked ▤, buttons ▢):

=========  ============================================================================
``take``   ▤ the offer and the decks → take / draw at once
``place``  ▤ a piece that fits somewhere → ``puz:<piece>`` ▤ puzzle → ``at:<piece>:<card>`` ▤
           spot (paged) → preview image with ``pl:do`` Confirm and Back
``give``   ▤ a piece to give → ``upg:<piece>`` ▤ what to take → upgrade at once
``other``  ▤ every action of a kind without its own widget (a pending ``choose``…), paged
``lvl``     ▢ level-1 piece · ``pass`` ▢ · ``done`` ▢ · ``undo`` ▢ (as ``/projectl play undo``)
``rec``    ▢ → ``rs:<row>`` ▤ the legal orders of that row → recycle at once
``ms``     ▢ Master: ``ms:<draft>`` screen → ``mc`` ▤ puzzle → ``mp`` ▤ piece → ``ma`` ▤ spot
           (paged) → back to ``ms`` with the longer draft and every drafted placement drawn
           together (the combined preview); ``mok:<draft>`` ▢ confirms
``as``     ▢ Ambassador action (Ambassador Pack, a ready card to flip): the same screens as Master
           with their own steps (``as`` ``ac`` ``ap`` ``aa``; ``aok:<draft>`` ▢ confirms), so a
           tap says which of the two it builds
``main``   ▢ Back to the first screen
=========  ============================================================================
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

import engine
from bot.core.errors import InvalidActionError, NotYourTurnError, OutOfDateError, StaleError
from bot.core.play import flow
from bot.core.play.manager import ActionResult, Game
from bot.core.play.panel import (
    PANEL_PREFIX,
    Offer,
    PanelId,
    PanelKey,
    decode_draft,
    draft_lines,
    encode_draft,
    offer_for,
    page_of,
    page_request,
    parse_panel_id,
    shape_of,
    undo_offered,
)
from bot.core.play.plans import plannable
from bot.core.play.seat_view import stamp
from bot.core.storage import ActionRow
from bot.core.wording import texts
from bot.core.wording.catchup import catch_up_lines
from bot.core.wording.describe import describe, mat_lines, reward_words
from bot.core.wording.event_texts import finesse_tile, pending_prompt, shape_label
from bot.core.wording.locales import Joined, Notation, localise
from bot.core.wording.refusals import engine_text
from engine import Action, Place, Shape
from engine.actions import AmbassadorAction
from engine.cards import Colour
from engine.expansions.ambassador import ready as ready_ambassadors
from engine.expansions.finesse import view as finesse_view
from engine.legal import MasterOptions
from engine.pieces import SHAPES, mask_to_text
from engine.state import LineClearTable, RowsTable, SoloTable

from . import plans
from .board_button import BoardButton
from .cogs import common
from .views import ConfirmButton, MatButton

LABEL = 100
PLACEHOLDER = 150


def _clip(text: str, limit: int = LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- the one component class ---------------------------------------------------------------------


class PanelItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=rf"{PANEL_PREFIX}:(?P<rest>[\s\S]*)"):
    """Any button or menu of the panel (and the public Play button). The wrapped component is
    whatever the message carried; the id says what it means."""

    def __init__(self, item: discord.ui.Item[Any], custom_id: str) -> None:
        super().__init__(item)
        self.parsed = parse_panel_id(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> PanelItem:
        return cls(item, item.custom_id)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        parsed = self.parsed
        if parsed is None or parsed.step == "play":
            return True  # forged ids are answered in callback; Play is for whoever holds the move
        if interaction.user.id != parsed.key.user_id:
            await common.reply(interaction, texts.NOT_YOUR_BUTTON.format(name=f"<@{parsed.key.user_id}>"))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _tap(interaction, self.parsed)
        except OutOfDateError as error:
            await refuse_out_of_date(interaction, error)
        except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
            await common.report_error(interaction, error)


def _button(custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary, *,
            row: int | None = None, disabled: bool = False) -> PanelItem:
    return PanelItem(discord.ui.Button(label=_clip(label, 80), style=style, custom_id=custom_id, row=row,
                                       disabled=disabled), custom_id)


def _menu(custom_id: str, placeholder: str, options: Sequence[tuple[str, str]], *,
          row: int | None = None) -> PanelItem:
    choices = [discord.SelectOption(label=_clip(label), value=value) for label, value in options]
    return PanelItem(discord.ui.Select(custom_id=custom_id, placeholder=_clip(placeholder, PLACEHOLDER),
                                       options=choices, row=row), custom_id)


def _paged(entries: Sequence[tuple[str, str]], page: int) -> list[tuple[str, str]]:
    """One page of a long menu, with "earlier" / "more" entries that turn the page."""
    values = [value for _, value in entries]
    labels = dict((value, label) for label, value in entries)
    shown, previous, following = page_of(values, page)
    options = [(labels[v], v) for v in shown]
    if previous is not None:
        options.insert(0, (texts.PANEL_EARLIER, f"+{previous}"))
    if following is not None:
        following_shown = page_of(values, following)[0]
        first = values.index(following_shown[0]) + 1
        options.append((texts.PANEL_MORE.format(first=first, last=first + len(following_shown) - 1,
                                                total=len(values)), f"+{following}"))
    return options


def play_button(game_id: int) -> PanelItem:
    """The public "Play" button under a turn post: opens the panel for whoever holds the move."""
    custom_id = f"{PANEL_PREFIX}:play:{game_id}"
    return PanelItem(discord.ui.Button(label=texts.PLAY_BUTTON, style=discord.ButtonStyle.primary,
                                       custom_id=custom_id), custom_id)


def turn_view(game: Game, *, board: bool = False) -> discord.ui.View:
    """Under a turn post: "Play" (the private turn panel for whoever holds the move), "My mat",
    and "Board" (the web board, bot/discord/board_button.py) when the bot serves it."""
    view = discord.ui.View(timeout=None)
    view.add_item(play_button(game.id))
    view.add_item(MatButton(game.id))
    if board:
        view.add_item(BoardButton(game.id))
    return view


# -- screens ------------------------------------------------------------------------------------


@dataclass
class Screen:
    content: str
    view: discord.ui.View
    image: bytes | None = None


def _view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def _header(offer: Offer) -> str:
    if offer.choosing:
        waiting = next((d for d in offer.state.pending if d.seat == offer.seat), None)
        about = pending_prompt(waiting) if waiting is not None else ""
        return texts.PANEL_CHOOSE_ABOUT.format(about=about) if about else texts.PANEL_CHOOSE
    if offer.state.phase is engine.Phase.FINISHING:
        return texts.PANEL_FINISHING
    finesse = finesse_view(offer.state)
    if finesse is None:
        return texts.PANEL_TURN.format(n=offer.state.actions_left)
    active, inactive = finesse.active[offer.seat], finesse.inactive[offer.seat]
    if offer.seat in offer.state.held:
        return texts.PANEL_HELD.format(active=active)
    live = finesse.live
    tile: str = finesse_tile(live) if live is not None else texts.FINESSE_TILE_NONE
    return texts.PANEL_TURN.format(n=offer.state.actions_left) + texts.PANEL_CREDITS.format(
        active=active, inactive=inactive, tile=tile)


def main_items(key: PanelKey, offer: Offer, last_action: Action | None, *,
               mat_button: bool = True, board: bool = False) -> Sequence[discord.ui.Item[Any]]:
    """The first screen: one menu per family of actions, then a row of buttons."""
    items: list[PanelItem] = []
    if offer.choosing or offer.others:
        others = _other_entries(offer)
        placeholder = texts.PANEL_CHOOSE_MENU if offer.choosing else texts.PANEL_OTHER
        items.append(_menu(key.custom_id("other"), placeholder, _paged(others, 1)))
    if offer.choosing:
        return items
    takes = offer.of("take", "draw")
    if takes:
        items.append(_menu(key.custom_id("take"), texts.PANEL_TAKE, [(_take_label(offer, a), str(a))
                                                                     for a in takes]))
    shapes = offer.piece_shapes()
    if shapes:
        supply = offer.state.players[offer.seat].supply
        items.append(_menu(key.custom_id("place"), texts.PANEL_PLACE, [
            (texts.PANEL_PIECE.format(piece=shape_label(s), count=supply[s.index],
                                      cards=", ".join(offer.puzzles_for(s))), s.value) for s in shapes]))
    gives = offer.upgrade_gives()
    if gives:
        supply = offer.state.players[offer.seat].supply
        items.append(_menu(key.custom_id("give"), texts.PANEL_UPGRADE, [
            (texts.PANEL_GIVE.format(piece=shape_label(s), count=supply[s.index]), s.value) for s in gives]))
    buttons: list[PanelItem] = []
    if offer.of("level1"):
        buttons.append(_button(key.custom_id("lvl"), texts.PANEL_LEVEL1, discord.ButtonStyle.primary))
    if offer.master is not None:
        buttons.append(_button(key.custom_id("ms", "-"), texts.PANEL_MASTER, discord.ButtonStyle.primary))
    if offer.ambassador is not None:
        buttons.append(_button(key.custom_id("as", "-"), texts.PANEL_AMBASSADOR.format(
            count=len(ready_ambassadors(offer.state, offer.seat))), discord.ButtonStyle.primary))
    if offer.of("recycle"):
        buttons.append(_button(key.custom_id("rec"), texts.PANEL_RECYCLE))
    if undo_offered(last_action):
        buttons.append(_button(key.custom_id("undo"), texts.PANEL_UNDO))
    if offer.held and offer.of("insert"):
        buttons.append(_button(key.custom_id("ins"), texts.PANEL_INSERT, discord.ButtonStyle.primary))
    if offer.of("end turn"):
        buttons.append(_button(key.custom_id("end"), texts.PANEL_END_TURN, discord.ButtonStyle.success))
    if offer.of("pass"):
        buttons.append(_button(key.custom_id("pass"), texts.PANEL_PASS, discord.ButtonStyle.danger))
    if offer.of("done"):
        buttons.append(_button(key.custom_id("done"), texts.PANEL_DONE, discord.ButtonStyle.success))
    for item in items:
        item.item.row = items.index(item)
    row: list[discord.ui.Item[Any]] = [*buttons]
    if mat_button and len(row) < 5:  # the mat is not attached mid-turn: one tap away instead
        row.append(MatButton(key.game_id))
    if board and len(row) < 5:  # the web board, when the bot serves it and the row has room
        row.append(BoardButton(key.game_id))
    for button in row:
        button.row = len(items)
    return [*items, *row]


def main_screen(key: PanelKey, offer: Offer, last_action: Action | None, *,
                mat_button: bool = True, board: bool = False) -> Screen:
    return Screen(_header(offer), _view(main_items(key, offer, last_action, mat_button=mat_button,
                                                   board=board)))


def _take_label(offer: Offer, action: Action) -> str:
    """A take or a draw as the base game's menu shows it ("White 1 · W13 · 1 pt · reward 2 ·
    3 cells"); in Line Clear the slot is on the acting holder's own side (issue 31, item 4), so the
    card is read from that side's row, never shown as bare notation."""
    state = offer.state
    table = state.table
    if isinstance(action, engine.DrawPuzzle):
        if isinstance(table, (RowsTable, LineClearTable)) and action.colour is not None:
            return texts.PANEL_DRAW.format(deck=texts.COLOURS[action.colour.value],
                                           left=len(table.deck(action.colour)))
        if isinstance(table, SoloTable):
            return texts.PANEL_DRAW_SOLO.format(left=len(table.deck))
        return Notation(str(action))
    assert isinstance(action, engine.TakePuzzle)
    card_id: str | None = None
    if isinstance(table, RowsTable) and action.colour is not None:
        card_id = table.row(action.colour)[action.slot - 1]
        where = texts.PANEL_ROW_SLOT.format(colour=texts.COLOUR_TITLES[action.colour.value], slot=action.slot)
    elif isinstance(table, LineClearTable) and action.colour is not None:
        turn = state.turn_of(offer.seat)
        row = table.row(turn.side, action.colour) if turn is not None else ()
        card_id = row[action.slot - 1] if 0 < action.slot <= len(row) else None
        where = texts.PANEL_ROW_SLOT.format(colour=texts.COLOUR_TITLES[action.colour.value], slot=action.slot)
    elif isinstance(table, SoloTable):
        card_id = table.grid[action.slot - 1]
        where = texts.PANEL_GRID_SLOT.format(slot=action.slot)
    if card_id is None:
        return Notation(str(action))
    card = state.cards[card_id]
    return texts.PANEL_TAKE_SLOT.format(where=where, card=card.id, points=card.points,
                                        reward=reward_words(card), size=card.size)


def _back(key: PanelKey, row: int) -> PanelItem:
    return _button(key.custom_id("main"), texts.PANEL_BACK, row=row)


def puzzle_screen(key: PanelKey, offer: Offer, shape: Shape) -> Screen:
    cards = offer.puzzles_for(shape)
    if not cards:
        raise InvalidActionError(texts.NO_PLACEMENTS.format(piece=shape_label(shape), card=texts.ANY_PUZZLE))
    options = []
    for card_id in cards:
        card = offer.state.cards[card_id]
        puzzle = offer.state.players[offer.seat].puzzle(card_id)
        assert puzzle is not None
        options.append((texts.PANEL_PUZZLE.format(card=card_id, points=card.points,
                                                  filled=puzzle.filled.bit_count(), size=card.size,
                                                  spots=len(offer.placements(shape, card_id))), card_id))
    prompt = texts.PANEL_PICK_PUZZLE.format(piece=shape_label(shape))
    items = [_menu(key.custom_id("puz", shape.value), prompt, options, row=0), _back(key, 1)]
    return Screen(prompt, _view(items))


def spot_screen(key: PanelKey, offer: Offer, shape: Shape, card: str, page: int = 1) -> Screen:
    places = offer.placements(shape, card)
    if not places:
        raise InvalidActionError(texts.NO_PLACEMENTS.format(piece=shape_label(shape), card=card))
    entries = [(mask_to_text(p.mask), mask_to_text(p.mask)) for p in places]
    prompt = texts.PANEL_PICK_SPOT.format(piece=shape_label(shape), card=card)
    items = [_menu(key.custom_id("at", shape.value, card), prompt, _paged(entries, page), row=0),
             _back(key, 1)]
    return Screen(prompt, _view(items))


def upgrade_screen(key: PanelKey, offer: Offer, give: Shape) -> Screen:
    upgrades = offer.upgrades_from(give)
    if not upgrades:
        raise InvalidActionError(texts.PANEL_NOTHING)
    prompt = texts.PANEL_PICK_TAKE.format(piece=shape_label(give))
    options = [(texts.PANEL_TAKE_PIECE.format(piece=shape_label(u.take), level=u.take.level), str(u))
               for u in upgrades]
    return Screen(prompt, _view([_menu(key.custom_id("upg", give.value), prompt, options, row=0),
                                 _back(key, 1)]))


def recycle_screen(key: PanelKey, offer: Offer) -> Screen:
    items: list[PanelItem] = []
    for colour in (Colour.WHITE, Colour.BLACK):
        orders = [a for a in offer.of("recycle") if isinstance(a, engine.Recycle) and a.colour is colour]
        if orders:
            name = texts.COLOUR_TITLES[colour.value]
            options = [(texts.PANEL_RECYCLE_ORDER.format(colour=name, order=" ".join(map(str, a.order))),
                        str(a)) for a in orders]
            items.append(_menu(key.custom_id("rs", colour.value),
                               texts.PANEL_RECYCLE_ROW.format(colour=texts.COLOURS[colour.value]),
                               _paged(options, 1),
                               row=len(items)))
    if not items:
        raise InvalidActionError(texts.PANEL_NOTHING)
    items.append(_back(key, len(items)))
    return Screen(texts.PANEL_PICK_RECYCLE, _view(items))


# -- Master and the Ambassador action --------------------------------------------------------------


@dataclass(frozen=True)
class Multi:
    """A one-piece-per-puzzle action built placement by placement: Master, or the Ambassador Pack's
    Ambassador action (exactly a Master, flipping a ready Ambassador card; not the turn's Master).
    Both share every screen; each has its own steps in the custom id, so a tap says which it is."""

    kind: str
    screen: str
    puzzle: str
    piece: str
    spot: str
    confirm: str

    @property
    def steps(self) -> tuple[str, ...]:
        return (self.screen, self.puzzle, self.piece, self.spot)

    def options(self, offer: Offer) -> MasterOptions | None:
        return offer.master if self.kind == "master" else offer.ambassador

    def action(self, placements: tuple[Place, ...]) -> Action:
        if self.kind == "master":
            return engine.Master(placements)
        return AmbassadorAction(placements)

    def title(self, offer: Offer) -> str:
        if self.kind == "master":
            return texts.PANEL_MASTER_TITLE
        cards = ready_ambassadors(offer.state, offer.seat)
        card = offer.state.cards[cards[0]] if cards else None
        return texts.PANEL_AMBASSADOR_TITLE.format(card=card.id if card else "?",
                                                   points=card.points if card else 0)

    def pick_piece(self, card: str) -> str:
        if self.kind == "master":
            return texts.PANEL_MASTER_PICK_PIECE.format(card=card)
        return texts.PANEL_AMBASSADOR_PICK_PIECE.format(card=card)

    def pick_spot(self, piece: str, card: str) -> str:
        if self.kind == "master":
            return texts.PANEL_MASTER_PICK_SPOT.format(piece=piece, card=card)
        return texts.PANEL_AMBASSADOR_PICK_SPOT.format(piece=piece, card=card)

    @property
    def confirm_label(self) -> str:
        return texts.PANEL_MASTER_CONFIRM if self.kind == "master" else texts.PANEL_AMBASSADOR_CONFIRM

    @property
    def empty(self) -> str:
        return texts.MASTER_EMPTY if self.kind == "master" else texts.AMBASSADOR_EMPTY


MASTER = Multi("master", "ms", "mc", "mp", "ma", "mok")
AMBASSADOR = Multi("ambassador", "as", "ac", "ap", "aa", "aok")
MULTIS = (MASTER, AMBASSADOR)


def _multi_of(step: str) -> Multi | None:
    return next((m for m in MULTIS if step in m.steps or step == m.confirm), None)


def _master_places(offer: Offer, draft: Sequence[Place], card: str, multi: Multi = MASTER) -> list[Place]:
    """Placements on ``card`` that still fit the supply left after the draft's pieces."""
    options = multi.options(offer)
    if options is None:
        return []
    left = list(options.supply)
    for place in draft:
        left[place.shape.index] -= 1
    return [p for p in options.per_card.get(card, ()) if left[p.shape.index] > 0]


def master_screen(key: PanelKey, offer: Offer, draft: tuple[Place, ...], multi: Multi = MASTER) -> Screen:
    code = encode_draft(offer.state, offer.seat, draft)
    lines = [multi.title(offer), texts.PANEL_MASTER_DRAFT.format(
        lines=draft_lines(draft) if draft else texts.PANEL_MASTER_EMPTY)]
    used = {p.card for p in draft}
    options = multi.options(offer)
    assert options is not None
    cards = [c for c in options.per_card if c not in used and _master_places(offer, draft, c, multi)]
    items: list[PanelItem] = []
    if cards:
        items.append(_menu(key.custom_id(multi.puzzle, code), texts.PANEL_MASTER_PUZZLE,
                           [(c, c) for c in cards], row=0))
    buttons = [_button(key.custom_id(multi.confirm, code), multi.confirm_label, discord.ButtonStyle.success,
                       disabled=not draft)]
    if draft:
        buttons.append(_button(key.custom_id(multi.screen, "-"), texts.PANEL_MASTER_CLEAR))
    buttons.append(_button(key.custom_id("main"), texts.PANEL_BACK))
    for button in buttons:
        button.item.row = len(items)
    return Screen(Joined(lines, "\n"), _view([*items, *buttons]))


def master_piece_screen(key: PanelKey, offer: Offer, draft: tuple[Place, ...], card: str,
                        multi: Multi = MASTER) -> Screen:
    places = _master_places(offer, draft, card, multi)
    shapes = [s for s in SHAPES if any(p.shape is s for p in places)]
    if not shapes:
        raise InvalidActionError(texts.NO_PLACEMENTS.format(piece="no piece", card=card))
    code = encode_draft(offer.state, offer.seat, draft)
    index = _puzzle_index(offer, card)
    prompt = multi.pick_piece(card)
    pieces = [(shape_label(s), s.value) for s in shapes]
    items = [_menu(key.custom_id(multi.piece, code, index), prompt, pieces, row=0),
             _button(key.custom_id(multi.screen, code), texts.PANEL_BACK, row=1)]
    return Screen(prompt, _view(items))


def master_spot_screen(key: PanelKey, offer: Offer, draft: tuple[Place, ...], card: str, shape: Shape,
                       page: int = 1, multi: Multi = MASTER) -> Screen:
    places = [p for p in _master_places(offer, draft, card, multi) if p.shape is shape]
    if not places:
        raise InvalidActionError(texts.NO_PLACEMENTS.format(piece=shape_label(shape), card=card))
    code = encode_draft(offer.state, offer.seat, draft)
    prompt = multi.pick_spot(shape_label(shape), card)
    entries = [(mask_to_text(p.mask), mask_to_text(p.mask)) for p in places]
    items = [_menu(key.custom_id(multi.spot, code, _puzzle_index(offer, card), shape.value), prompt,
                   _paged(entries, page), row=0),
             _button(key.custom_id(multi.screen, code), texts.PANEL_BACK, row=1)]
    return Screen(prompt, _view(items))


def _puzzle_index(offer: Offer, card: str) -> str:
    return str([p.card for p in offer.state.players[offer.seat].puzzles].index(card))


def _card_at(offer: Offer, index: str) -> str:
    puzzles = offer.state.players[offer.seat].puzzles
    if not index.isdecimal() or int(index) >= len(puzzles):
        raise StaleError(texts.FORGED_BUTTON)
    return puzzles[int(index)].card


# -- what the bot sends ------------------------------------------------------------------------------


def panel_for(game: Game, user_id: int, last_action: Action | None, *,
              mat_button: bool = True, board: bool = False) -> Screen | None:
    """The first screen of ``user_id``'s panel in ``game``, or None when they have no move."""
    found = _first_screen(game, user_id, last_action, mat_button=mat_button, board=board)
    return None if found is None else found[0]


def _first_screen(game: Game, user_id: int, last_action: Action | None, *,
                  mat_button: bool = True, board: bool = False) -> tuple[Screen, Offer] | None:
    """The first screen and the offer it shows (the seat's legal actions, enumerated once)."""
    seat = game.seat_of(user_id)
    if seat is None or game.state is None or game.status != "active":
        return None
    offer = offer_for(game.state, seat.seat)
    if not offer.actions and offer.master is None and offer.ambassador is None:
        return None
    key = PanelKey(game.id, user_id, stamp(game.state, game.revision, seat.seat))
    return main_screen(key, offer, last_action, mat_button=mat_button, board=board), offer


def panel_after(result: ActionResult) -> Screen | None:
    """The panel to attach to an action's confirmation, while the actor still has a move; its
    ``content`` is the line to end the confirmation with."""
    step = result.first
    if step is None or step.user_id is None:
        return None
    game = result.game
    if game.current is None or game.state is None or step.seat not in game.state.acting_seats:
        return None
    found = _first_screen(game, step.user_id, step.action)
    if found is None:
        return None
    screen, offer = found
    if not offer.choosing:
        screen.content = texts.PANEL_NEXT  # the confirmation above already says what is left
    return screen


async def _last_own_action(interaction: discord.Interaction, game: Game, seat: int) -> Action | None:
    return _own_action(interaction, await common.manager_of(interaction).log(game.id), seat)


def _own_action(interaction: discord.Interaction, rows: Sequence[ActionRow], seat: int) -> Action | None:
    """The log's last action when it is this user's at ``seat`` (what Undo would take back)."""
    if not rows or rows[-1].seat != seat or rows[-1].user_id != interaction.user.id:
        return None
    try:
        return engine.parse_action(rows[-1].action)
    except engine.IllegalActionError:
        return None


# -- taps ----------------------------------------------------------------------------------------------


ACTION_STEPS = frozenset({"take", "upg", "rs", "lvl", "pass", "done", "ins", "end", "mok", "aok", "other"})
"""Steps that act at once (after a "thinking" acknowledgement); the others redraw the panel."""


async def _tap(interaction: discord.Interaction, parsed: PanelId | None) -> None:
    if parsed is None:
        await common.reply(interaction, texts.FORGED_BUTTON)
        return
    if parsed.step == "play":
        await _open(interaction, parsed.key.game_id)
        return
    data: Mapping[str, Any] = interaction.data or {}  # a select's tap carries its "values"
    values = list(data.get("values") or [])
    page = page_request(values[0]) if len(values) == 1 else None
    acting = parsed.step in ACTION_STEPS and page is None
    if parsed.step == "undo":
        await _undo(interaction, parsed)
        return
    # A step redraws the panel in place — only ever a private panel: on any other message (a
    # tampered client hanging our id on a public post) the step answers privately instead.
    in_place = not acting and interaction.message is not None and interaction.message.flags.ephemeral
    if not in_place:
        await common.defer(interaction)
    elif not interaction.response.is_done():
        await interaction.response.defer()
    if acting:  # one load, under the manager's lock: the stamp, the offer and the action checked there
        await _act(interaction, parsed, values)
        return
    ctx = await flow.acting(common.manager_of(interaction), common.channel_id_of(interaction),
                            interaction.user.id, interaction.locale, game_id=parsed.key.game_id,
                            offered=str(parsed.key.stamp))
    game = ctx.game
    assert game.state is not None
    offer = offer_for(game.state, ctx.seat)
    screen = await _screen(interaction, parsed, offer, values, page, game)
    about = describe(game.state, game.names, ctx.seat, mat=ctx.seat)
    image = [] if screen.image is None else [common.png(screen.image, "preview.png", about,
                                                        interaction.locale)]
    if in_place:
        common.localise_view(screen.view, interaction.locale)  # the panel is private: the user's language
        await interaction.edit_original_response(content=localise(screen.content, interaction.locale),
                                                 view=screen.view, attachments=image)
    else:
        await common.reply(interaction, screen.content, view=screen.view, files=image)


async def _not_yours(interaction: discord.Interaction, error: NotYourTurnError, game_id: int) -> None:
    """The Play button pressed out of turn: **Plan my next turn** only where a plan could be laid
    out (not in Finishing Touches, not for a seat that left: its form could only be refused; a
    seat out of the game is refused before this, by ``check_turn``)."""
    game = await common.manager_of(interaction).game(game_id)
    seat = None if game is None else game.seat_of(interaction.user.id)
    if game is None or game.state is None or seat is None:
        await common.reply(interaction, error.message)
    elif plannable(game.state, seat.seat):
        await common.reply(interaction, error.message, view=plans.plan_view(game_id))
    else:
        await common.reply(interaction, error.message)


async def _open(interaction: discord.Interaction, game_id: int | None) -> None:
    """The Play button: the panel, privately, for whoever holds the move (with their mat)."""
    await common.defer(interaction)
    if game_id is None:
        raise StaleError(texts.FORGED_BUTTON)
    manager = common.manager_of(interaction)
    try:
        game, seat = await manager.check_turn(common.channel_id_of(interaction), interaction.user.id,
                                              game_id=game_id)
    except NotYourTurnError as error:  # a seated player out of turn may plan their next one
        await _not_yours(interaction, error, game_id)
        return
    rows = await manager.log(game.id)  # the one read: the undo offer and the catch-up both use it
    screen = panel_for(game, interaction.user.id, _own_action(interaction, rows, seat.seat),
                       mat_button=False,  # the mat comes with it
                       board=common.bot_of(interaction).board_front is not None)
    if screen is None or game.state is None:
        raise InvalidActionError(texts.PANEL_NOTHING)
    away = catch_up_lines(game.state, rows, seat.seat, game.names)  # "While you were away" heads it
    content = Joined([*away, screen.content], "\n") if away else screen.content
    mat = await common.bot_of(interaction).renderer.mat(game.state, seat.seat, game.names,
                                                            locale=interaction.locale)
    about = describe(game.state, game.names, seat.seat, mat=seat.seat)
    state, names, owner = game.state, game.names, seat.seat
    await common.board_reply(interaction, content, [common.png(mat, "mat.png", about)],
                             lambda: mat_lines(state, names, owner), view=screen.view)


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise StaleError(texts.FORGED_BUTTON)
    return values[0]


def _shape(text: str) -> Shape:
    shape = shape_of(text)
    if shape is None:
        raise StaleError(texts.FORGED_BUTTON)
    return shape


def _draft(offer: Offer, text: str) -> tuple[Place, ...]:
    draft = decode_draft(offer.state, offer.seat, text)
    if draft is None:
        raise StaleError(texts.FORGED_BUTTON)
    return draft


def _other_entries(offer: Offer) -> list[tuple[str, str]]:
    """The generic menu: each action's text as label and value — or, for a text longer than a
    menu value may be, a digest of that text (``#`` and 12 hex digits). A digest names the action
    itself, not its place in the list: the seat's stamp does not cover the reserve, which the
    list depends on, so a position could name another action after the other holder's move."""
    return [(Notation(str(a)), str(a) if len(str(a)) <= LABEL else _long_value(a)) for a in offer.others]


def _long_value(action: Action) -> str:
    return "#" + hashlib.blake2b(str(action).encode(), digest_size=6).hexdigest()


def _require_listed(value: str, listed: Sequence[str]) -> None:
    """A puzzle chosen from a menu must be one the menu listed (a forged value is refused as out
    of date, and never quoted back)."""
    if value not in listed:
        raise StaleError(texts.STALE_BUTTON)


def _listed(offer: Offer, text: str, *kinds: str) -> Action:
    """The offered action whose text was chosen: a value must be one the panel could have listed."""
    if "other" in kinds:
        for (_, value), action in zip(_other_entries(offer), offer.others, strict=True):
            if value == text:
                return action
        raise StaleError(texts.STALE_BUTTON)
    for action in offer.of(*kinds):
        if str(action) == text:
            return action
    raise StaleError(texts.STALE_BUTTON)


async def _act(interaction: discord.Interaction, parsed: PanelId, values: list[str]) -> None:
    """Play the tapped action: the manager loads the game once, checks the panel's stamp and asks
    :func:`_tapped` what the tap means on that state for the acting seat."""
    async def tapped(game: Game, seat: int) -> Action:
        assert game.state is not None
        return _tapped(parsed, offer_for(game.state, seat), values)

    await common.bot_of(interaction).handlers.perform(
        interaction, expected_stamp=str(parsed.key.stamp), game_id=parsed.key.game_id, choose=tapped)


def _tapped(parsed: PanelId, offer: Offer, values: list[str]) -> Action:
    """The action a tap on an acting step means: one the seat's offer lists (else out of date)."""
    step, args = parsed.step, parsed.args
    action: Action
    if step == "take":
        action = _listed(offer, _one(values), "take", "draw")
    elif step == "upg":
        action = _listed(offer, _one(values), "upgrade")
    elif step == "rs":
        action = _listed(offer, _one(values), "recycle")
    elif step == "other":
        action = _listed(offer, _one(values), "other")
    elif step in ("lvl", "pass", "done", "ins", "end"):
        kind = {"lvl": "level1", "pass": "pass", "done": "done", "ins": "insert", "end": "end turn"}[step]
        found = offer.of(kind)
        if not found:
            raise StaleError(texts.STALE_BUTTON)
        action = found[0]
    else:  # mok, aok
        multi = AMBASSADOR if step == AMBASSADOR.confirm else MASTER  # the engine refuses a spent one
        draft = _draft(offer, args[0] if args else "")
        if not draft:
            raise InvalidActionError(multi.empty)
        action = multi.action(draft)
    return action


async def _screen(interaction: discord.Interaction, parsed: PanelId, offer: Offer, values: list[str],
                  page: int | None, game: Game) -> Screen:
    key, step, args = parsed.key, parsed.step, parsed.args
    if step == "main":
        return main_screen(key, offer, await _last_own_action(interaction, game, offer.seat))
    if step in ("take", "upg", "rs", "other"):  # a page of an acting menu was turned
        return _turn_page(key, offer, step, page or 1)
    if step == "place":
        shape = _shape(_one(values))
        cards = offer.puzzles_for(shape)
        if len(cards) == 1:  # only one puzzle takes it: no question to ask
            return spot_screen(key, offer, shape, cards[0])
        return puzzle_screen(key, offer, shape)
    if step == "puz" and len(args) == 1:
        shape, card = _shape(args[0]), _one(values)
        _require_listed(card, offer.puzzles_for(shape))
        return spot_screen(key, offer, shape, card)
    if step == "at" and len(args) == 2:
        shape, card = _shape(args[0]), args[1]
        _require_listed(card, offer.puzzles_for(shape))
        if page is not None:
            return spot_screen(key, offer, shape, card, page)
        return await _preview(interaction, key, offer, shape, card, _one(values), game.names)
    if step == "give":
        return upgrade_screen(key, offer, _shape(_one(values)))
    if step == "rec":
        return recycle_screen(key, offer)
    multi = _multi_of(step)
    if multi is None:
        raise StaleError(texts.FORGED_BUTTON)
    return await _multi_screen(interaction, key, offer, multi, step, args, values, page, game.names)


async def _multi_screen(interaction: discord.Interaction, key: PanelKey, offer: Offer, multi: Multi,
                        step: str, args: tuple[str, ...], values: list[str], page: int | None,
                        names: Sequence[str]) -> Screen:
    """A step of the Master (or Ambassador action) screens: the draft so far, a puzzle, a piece, a spot."""
    options = multi.options(offer)
    if options is None:
        raise StaleError(texts.STALE_BUTTON)
    if step == multi.screen and len(args) == 1:
        draft = _draft(offer, args[0])
        return await _with_master_preview(interaction, master_screen(key, offer, draft, multi), offer, draft,
                                          names)
    if step == multi.puzzle and len(args) == 1:
        draft, card = _draft(offer, args[0]), _one(values)
        _require_listed(card, [c for c in options.per_card if all(p.card != c for p in draft)])
        return master_piece_screen(key, offer, draft, card, multi)
    if step == multi.piece and len(args) == 2:
        return master_spot_screen(key, offer, _draft(offer, args[0]), _card_at(offer, args[1]),
                                  _shape(_one(values)), multi=multi)
    if step == multi.spot and len(args) == 3:
        draft, card, shape = _draft(offer, args[0]), _card_at(offer, args[1]), _shape(args[2])
        if page is not None:
            return master_spot_screen(key, offer, draft, card, shape, page, multi)
        longer = _master_add(offer, draft, card, shape, _one(values), multi)
        screen = master_screen(key, offer, longer, multi)
        return await _with_master_preview(interaction, screen, offer, longer, names)
    raise StaleError(texts.FORGED_BUTTON)


def _turn_page(key: PanelKey, offer: Offer, step: str, page: int) -> Screen:
    if step == "other":
        others = _other_entries(offer)
        placeholder = texts.PANEL_CHOOSE_MENU if offer.choosing else texts.PANEL_OTHER
        return Screen(_header(offer), _view([_menu(key.custom_id("other"), placeholder, _paged(others, page),
                                                   row=0), _back(key, 1)]))
    if step == "rs":
        return recycle_screen(key, offer)
    raise StaleError(texts.FORGED_BUTTON)


async def _preview(interaction: discord.Interaction, key: PanelKey, offer: Offer, shape: Shape, card: str,
                   cells: str, names: Sequence[str]) -> Screen:
    """The chosen spot drawn on the player's mat, with Confirm (the ``pl:do`` button) and Back."""
    chosen = next((p for p in offer.placements(shape, card) if mask_to_text(p.mask) == cells), None)
    if chosen is None:
        raise StaleError(texts.STALE_BUTTON)
    image = await common.bot_of(interaction).renderer.preview(offer.state, offer.seat, chosen, names,
                                                                locale=interaction.locale)
    confirm = ConfirmButton(key.game_id, key.user_id, str(key.stamp), str(chosen), label=texts.PANEL_CONFIRM)
    confirm.item.row = 0
    return Screen(texts.PANEL_PREVIEW.format(action=Notation(str(chosen))), _view([confirm, _back(key, 0)]),
                  image)


def _master_add(offer: Offer, draft: tuple[Place, ...], card: str, shape: Shape,
                cells: str, multi: Multi = MASTER) -> tuple[Place, ...]:
    """The draft with the chosen spot added, once the engine has checked the whole of it."""
    chosen = next((p for p in _master_places(offer, draft, card, multi)
                   if p.shape is shape and mask_to_text(p.mask) == cells), None)
    if chosen is None or any(p.card == card for p in draft):
        raise StaleError(texts.STALE_BUTTON)
    longer = (*draft, chosen)
    try:
        engine.apply(offer.state, multi.action(longer))
    except engine.IllegalActionError as error:
        raise InvalidActionError(engine_text(error)) from error
    return longer


async def _with_master_preview(interaction: discord.Interaction, screen: Screen, offer: Offer,
                               draft: tuple[Place, ...], names: Sequence[str]) -> Screen:
    """The Master screen with every drafted placement drawn together — the combined counterpart
    of the single placement's preview — so what Confirm will play is seen before it is tapped."""
    if draft:
        screen.image = await common.bot_of(interaction).renderer.master_preview(
            offer.state, offer.seat, draft, names, locale=interaction.locale)  # a private panel
    return screen


async def _undo(interaction: discord.Interaction, parsed: PanelId) -> None:
    await common.defer(interaction)
    await flow.acting(common.manager_of(interaction), common.channel_id_of(interaction), interaction.user.id,
                      interaction.locale, game_id=parsed.key.game_id, offered=str(parsed.key.stamp))
    await common.bot_of(interaction).handlers.take_back(interaction)


async def refuse_out_of_date(interaction: discord.Interaction, error: OutOfDateError) -> None:
    """An offer whose relied-on view changed: nothing happens; the refusal says what changed and
    carries the fresh panel (built from the game the check loaded: no second read)."""
    game = error.game
    assert isinstance(game, Game)
    screen = panel_for(game, interaction.user.id, None)
    if screen is None:  # no move left to offer: the way back is the turn post's Play button
        await common.reply(interaction, Joined((error.message, texts.PANEL_STALE), "\n"),
                           view=_view([play_button(game.id)]))
        return
    await common.reply(interaction, Joined((error.message, screen.content), "\n"), view=screen.view)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PanelItem,)
