"""Playing engine actions through the bot's real slash commands and buttons (offline harness).

Used by the hardening tests (full games, leak and limit checks) and by the bench (end-to-end
latency). Every engine action maps to the command a player would use; placements sometimes go
through the menu → preview → Confirm button path, Master through master-add then the Confirm
button, and any action sometimes through ``/projectl play act`` — so every input path is exercised.

The harness lives in ``tests/harness`` (not a package); callers put ``tests`` on ``sys.path``.
"""

from __future__ import annotations

import random
from typing import Any

import engine
from engine import Action
from engine.pieces import mask_to_text


def current_user(h: Any, game: Any) -> Any:
    """The harness member whose turn it is in ``game``."""
    return h.user(game.current.user_id)


def channel_of(h: Any, game: Any) -> Any:
    return h.world.channels[game.channel_id]


def last_message(ix: Any) -> Any:
    """The message the interaction's latest response shows (for clicking its components)."""
    for response in reversed(ix.responses):
        if response.message is not None and response.components:
            return response.message
    raise AssertionError(f"no message with components in {ix.responses}")


async def play(h: Any, game: Any, action: Action, rng: random.Random) -> list[Any]:
    """Make ``action`` as the current player of ``game``; returns the interactions used."""
    user, channel = current_user(h, game), channel_of(h, game)
    if rng.random() < 0.15 and not isinstance(action, engine.Master):
        return [await h.slash(user, channel, "projectl play act", text=str(action))]
    if isinstance(action, engine.Place):
        return await _place(h, user, channel, action, rng)
    if isinstance(action, engine.Master):
        return await _master(h, user, channel, action, rng)
    if isinstance(action, engine.TakePuzzle):
        slot = str(action.slot) if action.colour is None else f"{action.colour} {action.slot}"
        return [await h.slash(user, channel, "projectl play take", puzzle=slot)]
    if isinstance(action, engine.DrawPuzzle):
        deck = None if action.colour is None else str(action.colour)
        return [await h.slash(user, channel, "projectl play draw", deck=deck)]
    if isinstance(action, engine.Upgrade):
        give, take = action.give.value, action.take.value
        return [await h.slash(user, channel, "projectl play upgrade", give=give, take=take)]
    if isinstance(action, engine.Recycle):
        order = " ".join(str(s) for s in action.order)
        return [await h.slash(user, channel, "projectl play recycle", row=str(action.colour), order=order)]
    simple = {engine.TakeLevelOne: "level1", engine.EndFinishing: "done", engine.Pass: "pass"}
    command = simple.get(type(action))
    if command is None:  # no command of its own (a decision's answer, Ghost, Insert…): typed
        return [await h.slash(user, channel, "projectl play act", text=str(action))]
    return [await h.slash(user, channel, f"projectl play {command}")]


async def _place(h: Any, user: Any, channel: Any, place: engine.Place, rng: random.Random) -> list[Any]:
    cells = mask_to_text(place.mask)
    if rng.random() < 0.7:
        return [await h.slash(user, channel, "projectl play place", piece=place.shape.value,
                              puzzle=place.card,
                              cells=cells)]
    menu = await h.slash(user, channel, "projectl play place", piece=place.shape.value, puzzle=place.card)
    message = last_message(menu)
    select = message.selects[0]
    if cells not in [o.value for o in select.options]:  # beyond the first 25 spots: type the cells
        return [menu, await h.slash(user, channel, "projectl play place", piece=place.shape.value,
                                    puzzle=place.card, cells=cells)]
    picked = await h.select(user, message, select.custom_id, [cells])
    preview = last_message(picked)
    confirm = next(b for b in preview.buttons if b.custom_id.startswith("pl:do:"))
    return [menu, picked, await h.click(user, preview, confirm.custom_id)]


async def _master(h: Any, user: Any, channel: Any, master: engine.Master, rng: random.Random) -> list[Any]:
    used = []
    for place in master.placements:
        used.append(await h.slash(user, channel, "projectl play master-add", piece=place.shape.value,
                                  puzzle=place.card, cells=mask_to_text(place.mask)))
    if rng.random() < 0.5:
        return [*used, await h.slash(user, channel, "projectl play master-confirm")]
    message = last_message(used[-1])
    confirm = next(b for b in message.buttons if b.custom_id.startswith("pl:master:ok:"))
    return [*used, await h.click(user, message, confirm.custom_id)]
