"""Line Clear's two marker holders acting at once: how many of their commits are refused as out of date?

One 5-player Line Clear game with Ghost (the default at five), played to the end through the
offline Discord harness (raw gateway payloads in, HTTP captured out) by five human seats. At every
moment the two marker holders both act "as fast as they are answered": the next one to act is
drawn at random, so their actions interleave as two people tapping at once would. Each action is
made the way a player makes it — mostly by the turn panel they hold (the one the confirmation of
their previous action carried, or the one the Play button opened), sometimes typed
(``/projectl play act``).

A holder's panel may predate the other holder's latest action. The figure,
``line_clear_stale_commits_pct``, is the share of committing interactions (one per action: the tap
or command that would commit it, after any step taps) refused as out of date — an attempt counts
once, however many of its taps were refused. A refused holder takes the fresh panel the refusal
carries (or presses Play on the latest turn post when it carries none) and makes the same action
again: it is still legal for them, since it was chosen from the game as it stands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from bot.core.play.panel import parse_panel_id
from engine.pieces import mask_to_text
from engine.policies import policy_by_name

from .harnessed import open_table, running

MAX_ACTIONS = 2500
TYPED_SHARE = 0.3
"""How often a holder types the action instead of tapping it."""
STALE_WORDS = "out of date"
"""What every out-of-date refusal says (texts.STALE_BUTTON, texts.PANEL_STALE, texts.STALE_FOR_YOU)."""


class Refused(Exception):
    """A tap of the attempt was refused as out of date (``fresh``: a panel the refusal carried)."""

    def __init__(self, fresh: Any) -> None:
        super().__init__("out of date")
        self.fresh = fresh


@dataclass
class Tally:
    """Committing interactions and the out-of-date refusals among them."""

    commits: int = 0
    refused: int = 0
    panel_commits: int = 0
    panel_refused: int = 0
    typed: int = 0
    refusals: list[str] = field(default_factory=list)

    @property
    def stale_pct(self) -> float:
        return 100.0 * self.refused / self.commits if self.commits else 0.0


def _panel_of(ix: Any, tapped: Any = None) -> Any:
    """The message of ``ix``'s latest response that carries panel components, if any (other than
    the ``tapped`` message itself)."""
    for response in reversed(ix.responses):
        message = response.message
        if message is None or (tapped is not None and message.id == tapped.id):
            continue
        ids = [getattr(c, "custom_id", "") or "" for c in message.components]
        if any(parse_panel_id(i) is not None and not i.startswith("plp:play:") for i in ids):
            return message
    return None


def _text(ix: Any) -> str:
    return "\n".join(r.content or "" for r in ix.responses)


class Holders:
    """Plays one channel's Line Clear game; each holder keeps the panel they were last given."""

    def __init__(self, h: Any, channel: Any, seed: int) -> None:
        self.h, self.channel = h, channel
        self.rng = random.Random(seed)
        self.policies = [policy_by_name("greedy", seed + i) for i in range(5)]
        self.panels: dict[int, Any] = {}
        self.tally = Tally()

    async def game(self) -> Any:
        return await self.h.bot.manager.game_in_channel(self.channel.id)

    async def play(self) -> Tally:
        for _ in range(MAX_ACTIONS):
            game = await self.game()
            if game is None or game.state is None:
                break
            acting = game.state.acting_seats
            seat = acting[self.rng.randrange(len(acting))]
            user = self.h.user(game.seats[seat].user_id)
            action = self.policies[seat].choose(game.state.focused(seat))
            await self.make(user, action, game.state.concurrent)
        return self.tally

    async def make(self, user: Any, action: engine.Action, concurrent: bool) -> None:
        typed = isinstance(action, engine.Master) is False and self.rng.random() < TYPED_SHARE
        if typed:
            ix = await self.h.slash(user, self.channel, "projectl play act", text=str(action))
            self._count(ix, panel=False, refused=STALE_WORDS in _text(ix).lower())
            self._keep(user, ix)
            return
        for attempt in range(3):
            panel = self.panels.get(user.id) or await self._open(user)
            try:
                ix = await self._by_panel(user, panel, action)
            except Refused as refused:
                if attempt == 0:
                    self._count(None, panel=True, refused=True)
                self.panels.pop(user.id, None)
                if refused.fresh is not None:
                    self.panels[user.id] = refused.fresh
                continue
            if attempt == 0:
                self._count(ix, panel=True, refused=False)
            self._keep(user, ix)
            return
        raise AssertionError(f"{action} refused three times")

    def _count(self, ix: Any, *, panel: bool, refused: bool) -> None:
        self.tally.commits += 1
        self.tally.panel_commits += panel
        self.tally.typed += not panel
        if refused:
            self.tally.refused += 1
            self.tally.panel_refused += panel
        if ix is not None and not refused:
            text = _text(ix)
            assert "Done:" in text, text

    def _keep(self, user: Any, ix: Any) -> None:
        panel = _panel_of(ix)
        if panel is None:
            self.panels.pop(user.id, None)
        else:
            self.panels[user.id] = panel

    async def _open(self, user: Any) -> Any:
        post = next(m for m in reversed(self.h.channel_messages(self.channel))
                    if any(b.custom_id.startswith("plp:play:") for b in m.buttons))
        play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
        ix = await self.h.click(user, post, play.custom_id)
        panel = _panel_of(ix)
        assert panel is not None, _text(ix)
        return panel

    # -- taps --------------------------------------------------------------------------------------

    def _component(self, panel: Any, step: str, arg: str | None = None) -> Any:
        for comp in self.h.message(panel.id).components:
            custom_id = getattr(comp, "custom_id", None) or ""
            parsed = parse_panel_id(custom_id)
            if parsed is not None and parsed.step == step and (arg is None or parsed.args[:1] == (arg,)):
                return comp
            if step == "confirm" and custom_id.startswith("pl:do:"):
                return comp
        return None

    async def _tap(self, user: Any, panel: Any, step: str, value: str | None = None,
                   arg: str | None = None) -> Any:
        comp = self._component(panel, step, arg)
        if comp is None:
            raise Refused(None)  # the panel no longer offers it: it was redrawn for another state
        message = self.h.message(panel.id)
        if value is None:
            ix = await self.h.click(user, message, comp.custom_id)
        else:
            ix = await self.h.select(user, message, comp.custom_id, [value])
        if STALE_WORDS in _text(ix).lower():
            self.tally.refusals.append(_text(ix))
            raise Refused(_panel_of(ix, panel))
        return ix

    async def _paged(self, user: Any, panel: Any, step: str, value: str) -> None:
        for _ in range(20):
            comp = self._component(panel, step)
            if comp is None:
                raise Refused(None)
            values = [o.value for o in comp.options]
            if value in values:
                return
            await self._tap(user, panel, step, values[-1])
        raise AssertionError(f"{value} never listed")

    async def _other(self, user: Any, panel: Any, action: engine.Action) -> Any:
        comp = self._component(panel, "other")
        if comp is None:
            raise Refused(None)
        text = str(action)
        for _ in range(20):
            comp = self._component(panel, "other")
            values = [o.value for o in comp.options]
            if text in values:
                return await self._tap(user, panel, "other", text)
            if not values[-1].startswith("+"):
                raise AssertionError(f"{text} not on the panel: {values}")
            await self._tap(user, panel, "other", values[-1])
        raise AssertionError(f"{text} never listed")

    async def _by_panel(self, user: Any, panel: Any, action: engine.Action) -> Any:
        """Make ``action`` with the panel's taps; the last interaction (the committing one)."""
        if isinstance(action, (engine.TakePuzzle, engine.DrawPuzzle)):
            return await self._tap(user, panel, "take", str(action))
        if isinstance(action, engine.TakeLevelOne):
            return await self._tap(user, panel, "lvl")
        if isinstance(action, (engine.Pass, engine.EndFinishing)):
            return await self._tap(user, panel, action.kind)
        if isinstance(action, engine.Upgrade):
            await self._tap(user, panel, "give", action.give.value)
            return await self._tap(user, panel, "upg", str(action))
        if isinstance(action, engine.Recycle):
            await self._tap(user, panel, "rec")
            return await self._tap(user, panel, "rs", str(action), arg=str(action.colour))
        if isinstance(action, engine.Place):
            await self._tap(user, panel, "place", action.shape.value)
            if self._component(panel, "puz") is not None:
                await self._tap(user, panel, "puz", action.card)
            cells = mask_to_text(action.mask)
            await self._paged(user, panel, "at", cells)
            await self._tap(user, panel, "at", cells)
            return await self._tap(user, panel, "confirm")
        if isinstance(action, engine.Master):
            await self._tap(user, panel, "ms")
            for place in action.placements:
                await self._tap(user, panel, "mc", place.card)
                await self._tap(user, panel, "mp", place.shape.value)
                cells = mask_to_text(place.mask)
                await self._paged(user, panel, "ma", cells)
                await self._tap(user, panel, "ma", cells)
            return await self._tap(user, panel, "mok")
        return await self._other(user, panel, action)  # Ghost splits, a pending choice


async def stale_commits(workdir: Path, seed: int = 7) -> Tally:
    """Play one Line Clear game with Ghost through the harness; the tally of its commits."""
    async with running(workdir / "lineclear-stale.sqlite3", seed=seed) as h:
        players = [h.add_user(f"holder{n}") for n in range(5)]
        await h.settle()
        game = await open_table(h, players[0], players[1:], players=5)
        channel = h.channel("games")
        assert game is not None and game.state is not None and game.state.concurrent
        assert game.state.options.ghost
        tally = await Holders(h, channel, seed).play()
        finished = await h.bot.manager.game(game.id)
        assert finished is not None and finished.status == "finished", "the game did not finish"
        assert await h.bot.manager.verify(game.id)
        await h.settle()
    return tally


def figures(tally: Tally) -> dict[str, float]:
    return {"line_clear_stale_commits_pct": round(tally.stale_pct, 1)}


if __name__ == "__main__":
    import asyncio
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        found = asyncio.run(stale_commits(Path(tmp), seed=int(sys.argv[1]) if len(sys.argv) > 1 else 7))
    print(f"{found.refused} of {found.commits} committing interactions refused as out of date "
          f"({found.stale_pct:.1f} %); panel: {found.panel_refused} of {found.panel_commits}; "
          f"typed: {found.typed}")
    print(figures(found))
