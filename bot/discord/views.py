"""Buttons and menus that keep working after a restart.

Every component is a :class:`discord.ui.DynamicItem`: its ``custom_id`` carries what it is about
(``pl:<kind>:<game id>[:<user id>:<stamp>...]``), so after a restart discord.py rebuilds the
item from the id alone — no view has to be re-registered and nothing lives only in memory.

* The user id makes a button personal: :meth:`interaction_check` refuses anyone else, politely.
* The stamp makes it single-use: the manager refuses an action offered on a view of the seat that
  has changed since (``bot/core/play/seat_view.py``: on a single-turn table the revision; while two
  turns run at once, the seat's own turn, puzzles, pieces and rows, so the other holder's actions
  leave it standing), so a double click or a button from yesterday changes nothing
  (``OutOfDateError``, answered with the fresh panel).
* ``from_custom_id`` never raises (discord.py would only log it and the click would fail
  silently); a malformed id is reported to the user in ``callback`` instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.core.errors import BotError, OutOfDateError, StaleError
from bot.core.play.manager import Game, MasterDraft
from bot.core.play.panel import MAX_CUSTOM_ID, encode_draft
from bot.core.play.seat_view import is_stamp
from bot.core.wording import texts
from engine import GameState, parse_action, parse_placement

from .board_button import BoardButton
from .cogs import common
from .readers import require_readable

PREFIX = "pl"
_INT = re.compile(r"^\d{1,20}$")


def _stamp(text: str | None) -> str | None:
    """The seat stamp an offer was made at (``bot/core/play/seat_view.py``), or None if forged."""
    return text if is_stamp(text) else None


def _int(text: str | None) -> int | None:
    """A non-negative id from a custom id, or None; SQLite integers stop at 2**63 (a forged
    20-digit id would otherwise raise OverflowError in the database driver)."""
    if text is None or not _INT.match(text):
        return None
    value = int(text)
    return value if value < 2**63 else None


class _Personal:
    """Mixin for items bound to one user: only they may use it."""

    user_id: int | None
    owner_name: str = "another player"

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # noqa: D102
        if self.user_id is None:
            return True
        if interaction.user.id != self.user_id:
            await common.reply(interaction, texts.NOT_YOUR_BUTTON.format(name=f"<@{self.user_id}>"))
            return False
        return True


async def _guard(interaction: discord.Interaction, work: Any) -> None:
    """Run a callback body; any exception becomes an ephemeral message (and a log entry)."""
    try:
        await work
    except OutOfDateError as error:  # with the fresh panel (drawn by panel_views, above these)
        await common.bot_of(interaction).handlers.refuse_out_of_date(interaction, error)
    except Exception as error:  # noqa: BLE001 - every failure must reach the user politely
        await common.report_error(interaction, error)


# -- lobby ----------------------------------------------------------------------------------------


LOBBY_OPS = {"join": texts.LOBBY_JOIN, "leave": texts.LOBBY_LEAVE, "ai": texts.LOBBY_ADD_EASY,
             "medium": texts.LOBBY_ADD_MEDIUM, "strong": texts.LOBBY_ADD_STRONG,
             "expert": texts.LOBBY_ADD_EXPERT, "start": texts.LOBBY_START, "cancel": texts.LOBBY_CANCEL}
"""The lobby's buttons by the operation in their custom id, and their labels (sentences of
bot/core/wording/texts.py: the lobby is shown with :func:`bot.discord.cogs.common.localise_view`)."""
LOBBY_AI = {"ai": "greedy", "medium": "medium", "strong": "ladder_strong", "expert": "expert"}
"""Lobby buttons that seat an AI, and its policy ("ai" stays Easy so old lobby messages work; the
Strong button seats the lobby's Strong level, ``ladder_strong``, not the frozen baseline)."""
_LOBBY_STYLES = {
    "join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
    "ai": discord.ButtonStyle.secondary, "medium": discord.ButtonStyle.secondary,
    "strong": discord.ButtonStyle.secondary,
    "expert": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"pl:lobby:(?P<op>[a-z]{1,10}|ai-[a-z0-9_-]{1,32}):(?P<game>[^:]{0,20})"):
    """Join / Leave / Add AI / Start / Cancel on a lobby message. Anyone may click; the manager
    decides who may do what (only the host starts, adds AI or cancels)."""

    def __init__(self, op: str, game_id: int | None) -> None:
        plugin = plugin_of(op)
        label = texts.LOBBY_ADD_PLUGIN.format(name=plugin) if plugin else LOBBY_OPS.get(op, op)
        super().__init__(discord.ui.Button(
            label=label, style=_LOBBY_STYLES.get(op, discord.ButtonStyle.secondary),
            custom_id=f"{PREFIX}:lobby:{op}:{game_id}",
        ))
        self.op = op
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> LobbyButton:
        return cls(match["op"], _int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        if self.game_id is None or (self.op not in LOBBY_OPS and plugin_of(self.op) is None):
            raise StaleError(texts.FORGED_BUTTON)
        await common.bot_of(interaction).handlers.lobby_button(interaction, self.op, self.game_id)


PLUGIN_OP = "ai-"
"""A lobby button whose op is ``ai-`` and a plug-in's name seats that plug-in AI
(bot/core/play/plugins.py; only where the server offers plug-ins)."""


def plugin_of(op: str) -> str | None:
    """The plug-in a lobby button's op seats, if it is a plug-in's button."""
    return op.removeprefix(PLUGIN_OP) if op.startswith(PLUGIN_OP) else None


def lobby_view(game: Game, plugins: Sequence[str] = ()) -> discord.ui.View:
    """The lobby's buttons; ``plugins``: the plug-in AIs the table's server offers, one Add button
    each, after the built-in levels (Discord shows at most 25 buttons: the first few fit)."""
    view = discord.ui.View(timeout=None)
    solo = game.settings.variant == "solo"
    for op in LOBBY_OPS:
        if op in LOBBY_AI and solo:
            continue
        view.add_item(LobbyButton(op, game.id))
    for name in () if solo else plugins[:MAX_PLUGIN_BUTTONS]:
        view.add_item(LobbyButton(PLUGIN_OP + name, game.id))
    return view


MAX_PLUGIN_BUTTONS = 10
"""Plug-in buttons a lobby shows at most (beside its 8 own, within Discord's 25)."""


# -- the turn post ------------------------------------------------------------------------------


class MatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pl:mat:(?P<game>[^:]{0,20})"):
    """"My mat" under a table image: shows the clicker their own mat, privately."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(discord.ui.Button(label=texts.MY_MAT_BUTTON, style=discord.ButtonStyle.secondary,
                                           custom_id=f"{PREFIX}:mat:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> MatButton:
        return cls(_int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        if self.game_id is None:
            raise StaleError(texts.FORGED_BUTTON)
        game = require_readable(interaction, await common.manager_of(interaction).game(self.game_id),
                                self.game_id)
        if game.state is None:
            raise StaleError(texts.STALE_GAME)
        await common.bot_of(interaction).handlers.send_mat(interaction, game, None)


# -- placing with a menu and a preview ------------------------------------------------------------


class PlacementSelect(_Personal, discord.ui.DynamicItem[discord.ui.Select[Any]],
                      template=r"pl:pick:(?P<game>[^:]{0,20}):(?P<user>[^:]{0,20}):(?P<rev>[^:]{0,20})"
                               r":(?P<piece>[^:]{0,4}):(?P<card>[^:]{0,16})"):
    """A menu of legal cells for one piece on one puzzle; choosing shows a preview to confirm."""

    def __init__(self, game_id: int | None, user_id: int | None, stamp: str | None, piece: str,
                 card: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"{PREFIX}:pick:{game_id}:{user_id}:{stamp}:{piece}:{card}",
            placeholder=texts.PLACE_WHERE.format(piece=piece, card=card),
            options=options or [discord.SelectOption(label="-", value="-")],
        ))
        self.game_id, self.user_id, self.stamp = game_id, user_id, stamp
        self.piece, self.card = piece, card

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> PlacementSelect:
        return cls(_int(match["game"]), _int(match["user"]), _stamp(match["rev"]), match["piece"],
                   match["card"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        if self.game_id is None or self.user_id is None or self.stamp is None:
            raise StaleError(texts.FORGED_BUTTON)
        values = list(self.item.values)
        if len(values) != 1:
            raise StaleError(texts.FORGED_BUTTON)
        try:
            place = parse_placement(f"{self.piece} on {self.card} at {values[0]}")
        except Exception as error:
            raise StaleError(texts.FORGED_BUTTON) from error
        await common.bot_of(interaction).handlers.show_preview(
            interaction, self.game_id, self.stamp, place)


class ConfirmButton(_Personal, discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"pl:do:(?P<game>[^:]{0,20}):(?P<user>[^:]{0,20}):(?P<rev>[^:]{0,20})"
                             r":(?P<action>.{0,80})"):
    """Confirm one action (written in the id as engine notation, spaces as '.')."""

    def __init__(self, game_id: int | None, user_id: int | None, stamp: str | None, action: str,
                 label: str = texts.PANEL_CONFIRM) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.success,
            custom_id=f"{PREFIX}:do:{game_id}:{user_id}:{stamp}:{action.replace(' ', '.')}",
        ))
        self.game_id, self.user_id, self.stamp = game_id, user_id, stamp
        self.action = action.replace(".", " ")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> ConfirmButton:
        return cls(_int(match["game"]), _int(match["user"]), _stamp(match["rev"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        if None in (self.game_id, self.user_id, self.stamp):
            raise StaleError(texts.FORGED_BUTTON)
        try:
            action = parse_action(self.action)
        except BotError:
            raise
        except Exception as error:
            raise StaleError(texts.FORGED_BUTTON) from error
        await common.bot_of(interaction).handlers.perform(
            interaction, action, expected_stamp=self.stamp, game_id=self.game_id)


class MasterButton(_Personal, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"pl:master:(?P<op>[a-z]{0,8}):(?P<game>[^:]{0,20}):(?P<user>[^:]{0,20})"
                            r":(?P<rev>[^:]{0,20})(?::(?P<draft>[0-9a-z.]{1,60}))?"):
    """Confirm or clear a Master draft built with ``/projectl play master-add``.

    Confirm carries the draft itself (encoded as the turn panel's Master drafts are), so it plays
    what its message showed; an id without one (older messages, or a draft too long for the id)
    confirms the draft the manager keeps (in storage, so after a restart too)."""

    def __init__(self, op: str, game_id: int | None, user_id: int | None, stamp: str | None,
                 draft: str | None = None) -> None:
        custom_id = f"{PREFIX}:master:{op}:{game_id}:{user_id}:{stamp}"
        if draft is not None and len(custom_id) + 1 + len(draft) <= MAX_CUSTOM_ID:
            custom_id += f":{draft}"
        else:
            draft = None
        super().__init__(discord.ui.Button(
            label=texts.PANEL_MASTER_CONFIRM if op == "ok" else texts.MASTER_CLEAR_BUTTON,
            style=discord.ButtonStyle.success if op == "ok" else discord.ButtonStyle.secondary,
            custom_id=custom_id,
        ))
        self.op, self.game_id, self.user_id, self.stamp = op, game_id, user_id, stamp
        self.draft = draft

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> MasterButton:
        return cls(match["op"], _int(match["game"]), _int(match["user"]), _stamp(match["rev"]),
                   match["draft"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        if None in (self.game_id, self.user_id, self.stamp) or self.op not in ("ok", "clear"):
            raise StaleError(texts.FORGED_BUTTON)
        if self.op == "ok":
            await common.bot_of(interaction).handlers.master_confirm(
                interaction, expected_stamp=self.stamp, game_id=self.game_id, draft=self.draft)
        else:
            await common.bot_of(interaction).handlers.master_clear(interaction, self.game_id)


def master_view(draft: MasterDraft, user_id: int, state: GameState) -> discord.ui.View:
    """Confirm (carrying the draft, see :class:`MasterButton`) and Clear under a draft's answer;
    ``state`` is the game the draft was built on."""
    view = discord.ui.View(timeout=None)
    code = encode_draft(state, draft.seat, draft.placements)
    view.add_item(MasterButton("ok", draft.game_id, user_id, draft.stamp, code))
    view.add_item(MasterButton("clear", draft.game_id, user_id, draft.stamp))
    return view


# -- anything else that claims to be ours ----------------------------------------------------------


_KNOWN = "|".join(re.sub(r"\(\?P<\w+>", "(?:", item.__discord_ui_compiled_template__.pattern) for item in (
    LobbyButton, MatButton, PlacementSelect, ConfirmButton, MasterButton, BoardButton))


class UnknownButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"(?!(?:{_KNOWN})\Z)pl:[\s\S]*"):
    """A ``pl:`` id no other item recognises (forged, or from a future version): say so.

    The template is the exact complement of the other items' templates: a prefix test would miss
    ids like ``pl:lobby:JOIN:1`` that no item matches, and Discord would show "interaction failed".
    """

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="?", custom_id=f"{PREFIX}:unknown"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any,
                             match: re.Match[str]) -> UnknownButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await common.reply(interaction, texts.FORGED_BUTTON)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton, MatButton, PlacementSelect, ConfirmButton, MasterButton, BoardButton, UnknownButton,
)
