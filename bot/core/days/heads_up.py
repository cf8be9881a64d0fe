"""The "you're next" heads-up: who moves after a turn that has just started, and whether a DM
may reach them now (an opt-in setting, ``/projectl settings heads_up:``). Pure: no Discord, no SQL.

Only the base game's order is foreseen: there the next seat is the next one round the table that
is still playing, unless the game ends when this round does. Solo has one player, and in Line
Clear who moves next depends on the line the holders clear, so neither gets a heads-up.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.core.days import reminder_policy
from bot.core.days.reminder_policy import Preferences
from engine import GameState, final_round
from engine.state import Phase


def seat_after(state: GameState, seat: int) -> int | None:
    """The seat whose turn follows ``seat``'s in the base game, or None when the game ends
    first, the order cannot be foreseen, or nobody else is playing."""
    if state.options.variant != "base" or state.phase is not Phase.PLAY or state.turns:
        return None
    count = len(state.players)
    for step in range(1, count):
        following = (seat + step) % count
        last = final_round(state)
        last_round = last is not None and state.round >= last
        if following == state.first_player and last_round:
            return None  # the round this turn belongs to is the last: the game ends after it
        if not state.players[following].removed:
            return following
    return None


def heads_up_now(now: datetime, prefs: Preferences) -> bool:
    """Whether a heads-up may be sent at ``now``: outside quiet hours and vacation. It is not a
    reminder, so it does not wait for a later moment: a heads-up after the turn has come is moot."""
    allowed = reminder_policy.deliverable_at(now, replace(prefs, enabled=True))
    return allowed is not None and allowed <= now
