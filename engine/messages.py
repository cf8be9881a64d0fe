"""The English of every refusal the engine gives a player, by a stable key.

An :class:`~engine.errors.IllegalActionError` (and the parse errors of pieces and cells) is raised
with a key of :data:`MESSAGES` and the fields that fill it in; ``str(error)`` is the English
sentence, as always. The key and fields stay on the error, so a front end can show the same
refusal in its reader's language from its own catalogue (the bot's ``engine`` section of
``bot/core/wording/locales/<code>.json``) without parsing English — and the engine stays free of languages.

A template is a ``str`` with ``{field}`` placeholders, or a ``{"one": …, "other": …}`` pair chosen
by the field ``n``. Fields are numbers, ids, cells, the player's own (quoted) words, a
:class:`~engine.pieces.Shape` (shown by its ``label``), a list of either (joined by ", ") or a
plain English word a catalogue may translate (a row's colour, a Line Clear side). ``article`` is
English only ("a"/"an" before a piece). A refusal may carry fields its English does not show,
for a front end that words it from its parts: ``choose.first`` names the waiting decision's
``kind`` and ``about`` (as :class:`~engine.events.DecisionAwaited` does) beside its English
``prompt``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Protocol, runtime_checkable

MESSAGES: dict[str, Any] = {
    # -- reading an action's text ----------------------------------------------------------------
    "parse.empty": "Empty action.",
    "parse.too_long": "That action text is far too long.",
    "parse.not_an_action": "{text} is not an action. Actions: take, draw, level1, upgrade, place, master, "
                           "recycle, ghost, insert, end turn, choose, done.",
    "parse.not_a_row": "{text} is not a row: say white or black.",
    "parse.not_a_position": "{text} is not a position: use a number from 1 to {highest}.",
    "parse.not_a_piece": "{text} is not a piece. Pieces are: {pieces}.",
    "parse.not_a_reward": "{text} is not a reward: use a piece code (1, 2, I3 … S4, P5, U5, L5) or "
                          "up / up2 for a level-up.",
    "parse.not_a_puzzle_id": "{text} is not a puzzle id (like W07 or B12).",
    "parse.not_a_cell": "{text} is not a cell on the card: use a column A–E and a row 1–5, like B3.",
    "parse.no_cells": "No cells given: name the cells the piece covers, like A1 A2 B2.",
    "parse.cell_twice": "Cell {cell} is named twice.",
    "parse.placement_form": "Write a placement as '<piece> on <puzzle> at <cells>', e.g. "
                            "'L3 on W07 at A1 A2 B2'.",
    "parse.take_which": "Say which {row} card: 'take {row} 1' to 'take {row} 4'.",
    "parse.take_form": "Write 'take white 3' (or 'take 5' in Solo).",
    "parse.draw_form": "Write 'draw white' or 'draw black' (or just 'draw' in Solo).",
    "parse.upgrade_form": "Write 'upgrade <piece> to <piece>', e.g. 'upgrade 2 to L3'.",
    "parse.recycle_order": "Say the order the cards go under the deck: 'recycle white 1 2 3 4'.",
    "parse.recycle_form": "Write 'recycle white 1 2 3 4'.",
    "parse.choose_form": "Write 'choose <option>', e.g. 'choose I4'.",
    "parse.ghost_form": "Write 'ghost <ghost piece> to <pieces>', e.g. 'ghost P5 to O4 1', and optionally "
                        "placements after ';' ('ghost P5 to O4 1; 1 on W07 at C3').",
    "cells.not_the_piece": "The cells {cells} do not form {article} {piece} piece.",
    # -- whose turn, which phase -----------------------------------------------------------------
    "game.over": "The game is over.",
    "game.not_your_turn": "It is not your turn.",
    "game.no_marker": "You hold no marker: it is not your turn.",
    "game.finishing_now": "It is time for Finishing Touches: place pieces from your supply (1 point each) "
                          "or say 'done'.",
    "game.done_not_finishing": "'done' ends Finishing Touches, which come after the last round.",
    "game.pass_not_allowed": "You can only pass when no other action is possible.",
    "game.unknown_action": "Unknown action {action}.",
    "game.actions_spent": "Your three actions are spent: insert another (2 active credits) or end your turn.",
    "game.end_turn_never": "At this table a turn ends by itself after its last action: 'end turn' is only "
                           "for a turn kept open for an Insert (the Finesse expansion).",
    "game.end_turn_early": {
        "one": "You still have {n} action this turn: 'end turn' is for after your last one, while an "
               "Insert could still follow.",
        "other": "You still have {n} actions this turn: 'end turn' is for after your last one, while an "
                 "Insert could still follow.",
    },
    # -- pending choices -------------------------------------------------------------------------
    "choose.nothing_waiting": "There is no choice waiting for an answer.",
    "choose.not_an_option": "{text} is not one of the choices: {options}.",
    "choose.first": "First choose: {prompt}. Write 'choose <option>' with one of {options}.",
    "choose.answer_first": "First answer the choice waiting for you.",
    "choose.unknown_kind": "This game waits for a '{kind}' decision that this version of the engine does "
                           "not know.",
    # -- taking and drawing puzzles --------------------------------------------------------------
    "take.which_row": "Say which row: 'take white 2' or 'take black 1'.",
    "take.limit": "You already have {limit} unfinished puzzles: complete one before taking more.",
    "take.one_black": "The end has been triggered: you may take only one black puzzle per turn.",
    "take.empty_slot": "There is no puzzle at position {slot} of the {colour} row.",
    "take.empty_slot_side": "There is no puzzle at position {slot} of the {colour} row on your side, the "
                            "{side}.",
    "take.white_holder_draws": "Only the White-marker holder may draw from a deck (on the left rows); you "
                               "hold the Black marker and take from the right rows.",
    "take.solo_by_position": "In Solo, take a puzzle by its grid position: 'take 5'.",
    "take.solo_empty_position": "There is no puzzle at grid position {slot}.",
    "draw.empty_deck": "The {colour} deck is empty.",
    "draw.solo_form": "Solo has a single deck: write 'draw'.",
    "draw.solo_empty_deck": "The puzzle deck is empty.",
    # -- pieces: level 1, upgrade ----------------------------------------------------------------
    "reserve.empty": "The reserve is empty: there is no piece to take.",
    "reserve.none_of": "The reserve has no {piece} left.",
    "supply.none_to_return": "Your supply has no {piece} to return.",
    "supply.no_piece": "Your supply has no {piece} piece.",
    "upgrade.to_ghost": "Level-5 ghost pieces are never reached by Upgrade: only a card's reward or a "
                        "level-up gives one.",
    "upgrade.same_shape": "An exchange must take a different shape.",
    "upgrade.level": "From a level-{level} piece you can upgrade to level {allowed} only (one level up, or "
                     "further only when that level has run out).",
    # -- placing, Master -------------------------------------------------------------------------
    "place.no_such_puzzle": "You have no unfinished puzzle {card}. Your puzzles: {puzzles}.",
    "place.outside": "That piece would cover {cells}, outside the recess of {card}.",
    "place.occupied": "{cells} on {card} already has a piece.",
    "master.finishing": "Master is not available during Finishing Touches.",
    "master.used": "You have already used Master this turn.",
    "master.empty": "A Master action needs at least one placement.",
    "master.one_per_puzzle": "Master places at most one piece on each puzzle.",
    "master.supply": "Master needs {needed} × {piece} but your supply has {have}.",
    # -- Recycle ---------------------------------------------------------------------------------
    "recycle.not_available": "Recycle is not available in this game.",
    "recycle.not_in_solo": "Recycle is not used in Solo.",
    "recycle.white_holder_only": "Only the White-marker holder may Recycle (on the left rows); you hold the "
                                 "Black marker and take from the right rows.",
    "recycle.empty_row": "The {colour} row is empty.",
    "recycle.empty_left_row": "The left {colour} row is empty.",
    "recycle.empty_deck": "The {colour} deck is empty, so recycling would bring back the same puzzles.",
    "recycle.order": "Name every card of the {colour} row once, in the order they go under the deck "
                     "(positions {positions}).",
    "recycle.order_left": "Name every card of the left {colour} row once, in the order they go under the "
                          "deck (positions {positions}).",
    # -- Ghost Piece, Finesse --------------------------------------------------------------------
    "ghost.finishing": "The Ghost action is not available during Finishing Touches.",
    "ghost.not_in_game": "The Ghost action needs the Ghost Piece expansion, which this game does not use.",
    "ghost.not_a_ghost": "{piece} is not a ghost piece: split a P5, U5 or L5.",
    "ghost.no_tiling": "The pieces {pieces} do not tile a {piece} exactly (two or more level 1–4 pieces "
                       "covering its 5 cells). Possible sets: {sets}.",
    "ghost.reserve_short": "The reserve has {left} {piece} left, {needed} needed: the Ghost action takes "
                           "exactly the pieces that tile the ghost (no substitutes).",
    "ghost.one_per_puzzle": "The Ghost action places at most one new piece on each puzzle.",
    "ghost.only_new": "Only the new pieces can be placed at once, and this split gives {count} {piece}.",
    "ambassador.empty": "An Ambassador action places at least one piece: write 'ambassador <piece> on "
                        "<puzzle> at <cells>' (several joined by ';').",
    "ambassador.one_per_puzzle": "An Ambassador action places at most one piece on each puzzle.",
    "ambassador.supply": "This Ambassador action needs {needed} × {piece} but your supply has {have}.",
    "ambassador.none_ready": "You have no face-up Ambassador card to flip (one completed this turn can be "
                             "flipped from your next turn on).",
    "ambassador.finishing": "The Ambassador action is not available during Finishing Touches.",
    "ambassador.not_in_game": "This game is played without the Ambassador Pack.",
    "finesse.not_in_game": "This game is played without the Finesse expansion.",
    "finesse.insert_finishing": "Insert is not available during Finishing Touches.",
    "finesse.insert_cost": "Insert costs {cost} active credits; you have {active} active.",
    "finesse.insert_cost_inactive": "Insert costs {cost} active credits; you have {active} active "
                                    "({inactive} more turn active when your turn ends).",
    # -- removing a player (a table decision) ----------------------------------------------------
    "remove.solo": "A solo game has nobody else to play on: cancel it instead.",
    "remove.no_seat": "There is no player in seat {seat} to remove.",
    "remove.last": "The last player in the game cannot be removed: let them finish, or cancel the game.",
    # -- setting a game up -----------------------------------------------------------------------
    "setup.unknown_variant": "Unknown variant '{name}'. Variants: {variants}.",
    "setup.players": "{variant} is played by {low}–{high} players.",
    "setup.line_clear_players": "Line Clear is played by 5 or 6 players.",
    "setup.six_need_ghost": "Six players need the Ghost Piece expansion or Phoenix (their black puzzles make "
                            "the 24-card black deck): turn the ghost or the phoenix option on.",
    "setup.finesse_ambassador_needs_finesse": "The Finesse Ambassador Pack adds Finesse tiles: turn the "
                                              "finesse option on too.",
    "setup.reserve": "The reserve holds 10 or 15 pieces of each shape.",
    "setup.endless_solo": "The Endless White Deck is a variant for 2 or more players; Solo cannot use it.",
    "setup.catalogue": "This catalogue has {white} white and {black} black puzzles; a {players}-player game "
                       "needs at least {need_white} white and {need_black} black.",
    "setup.table_catalogue": "This table deals from {white} white and {black} black puzzles; a "
                             "{players}-player game needs at least {need_white} white and {need_black} "
                             "black.",
    "setup.solo_catalogue": "Solo needs {need_white} white and {need_black} black puzzles; this catalogue "
                            "has {white} and {black}.",
}
"""Every refusal's English, by key."""


@runtime_checkable
class Labelled(Protocol):
    """A field value that names itself in a sentence: a piece (:class:`~engine.pieces.Shape`)
    shows its label, "L3 (bent tromino)". A protocol, because the pieces module raises errors
    and so imports this one, never the other way round."""

    @property
    def refusal_label(self) -> str: ...


def english_field(value: Any) -> str:
    """A field as the English sentence shows it: a piece by its label, a list joined by ', '."""
    if isinstance(value, Labelled):
        return value.refusal_label
    if isinstance(value, (list, tuple)):
        return ", ".join(english_field(item) for item in value)
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def fill(template: Any, fields: Mapping[str, Any], shown: Mapping[str, str]) -> str:
    """``template`` (a string, or a count pair chosen by ``fields['n']``) filled in with ``shown``
    (the fields as text)."""
    if isinstance(template, Mapping):
        template = template["one" if fields["n"] == 1 else "other"]
    return str(template).format(**shown)


def english(key: str, fields: Mapping[str, Any]) -> str:
    """The English sentence ``key`` with ``fields``; KeyError for a key :data:`MESSAGES` lacks."""
    return fill(MESSAGES[key], fields, {name: english_field(value) for name, value in fields.items()})
