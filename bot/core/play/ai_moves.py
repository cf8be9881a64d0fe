"""What an AI seat plays next: a built-in policy's choice, a searching policy's planned turn (played
on while the game is at the revision its next move expects), or a plug-in's answer; a legal
fallback when any of them fails. Its own module because choosing is the one part of playing that
keeps memory between moves (a turn's thinking deadline, a Strong seat's planned turn, a plug-in's
strikes), while committing the choice is the manager's (``GameManager._play_policies``)."""

from __future__ import annotations

import logging

import engine
from bot.core.games import Game, PolicyFactory, Seat, engine_policy
from bot.core.play.plugins import PluginRunner, is_plugin, said
from bot.core.play.thinking import HEAVY_POLICIES, Thinker, wall_now
from engine import Action

log = logging.getLogger(__name__)

PLUGIN_STRIKES = 3
"""Fallback moves in a row (an error, an illegal answer, a timeout) after which a plug-in seat
stops asking its plug-in and plays :data:`PLUGIN_STAND_IN` for the rest of the game (or until
the bot restarts): a plug-in that hangs on import would otherwise cost each of its moves the
whole budget, and a worker's start, for a first-legal-action move."""
PLUGIN_STAND_IN = "greedy"
"""The built-in policy that plays a plug-in seat given up on (a millisecond a move)."""


class AiMoves:
    """The AI seats' choices for one manager, and what they remember between moves."""

    def __init__(
        self, *, policies: PolicyFactory, thinker: Thinker, plugins: PluginRunner,
        ai_turn_seconds: float | None,
    ) -> None:
        self.policies = policies
        """Makes the built-in policies (``engine_policy`` unless a test or the demo passes another:
        only with it do searching policies think in the pool and plug-ins run in their worker)."""
        self.thinker = thinker
        """Where the strong policy thinks: a process pool, so no channel waits for another's AI."""
        self.plugins = plugins
        """Where plug-in AIs choose: a worker process of their own, within the AI seats' time limit."""
        self.ai_turn_seconds = ai_turn_seconds
        """See :attr:`GameManager.ai_turn_seconds`."""
        self.turn_deadlines: dict[tuple[int, int], tuple[int, float]] = {}
        """(game id, seat) -> (the turn, its deadline on ``thinking.WALL_CLOCK``): set by the
        turn's first search, shared by the searches after a revealed card."""
        self.plugin_strikes: dict[tuple[int, int], int] = {}
        """(game id, seat) -> the plug-in seat's fallback moves in a row (:data:`PLUGIN_STRIKES`)."""
        self.strong_plans: dict[tuple[int, int], tuple[int, tuple[Action, ...]]] = {}
        """(game id, seat) -> (the revision the next move is expected at, the rest of a Strong seat's
        planned turn): its next moves are played without searching again."""

    def forget_seats(self, game: Game) -> None:
        """Drop what is kept about an ended (finished or cancelled) game's seats — their turn
        deadlines, a plug-in seat's strikes, a Strong seat's half-played turn: nothing reads it
        once the game is over."""
        for seated in game.seats:
            for kept in (self.turn_deadlines, self.plugin_strikes, self.strong_plans):
                kept.pop((game.id, seated.seat), None)

    def forget_plan(self, game_id: int, seat: int) -> None:
        """Drop a Strong seat's planned turn: another process played on from its own commit."""
        self.strong_plans.pop((game_id, seat), None)

    async def choose(self, game: Game, seat: Seat) -> tuple[Action, engine.Outcome | None]:
        """The policy's choice, with its outcome (applied once: checking it is applying it); if it
        fails or is illegal, a legal fallback keeps the game moving (applied at the commit).
        The strong policy (with the default factory) thinks in the process pool; the others take
        about a millisecond and choose inline."""
        assert game.state is not None
        name = seat.policy or "greedy"
        key = (game.id, seat.seat)
        if is_plugin(name) and self.plugin_strikes.get(key, 0) >= PLUGIN_STRIKES:
            name = PLUGIN_STAND_IN
        seed = game.seed ^ (game.revision * 7919 + seat.seat)
        seen = game.state.focused(seat.seat)
        try:
            if is_plugin(name) and self.policies is engine_policy:
                action = await self.plugins.move(seen, seat.seat, seed, name, table=game.id)
            elif name in HEAVY_POLICIES and self.policies is engine_policy:
                kept = self.strong_plans.pop(key, None)
                if kept is not None and kept[0] == game.revision and kept[1]:
                    planned = kept[1]
                else:
                    deadline = self.turn_deadline(game, seat.seat)
                    planned = tuple(engine.parse_action(t)
                                    for t in await self.thinker.move(seen, seed, name, deadline))
                action = planned[0]
                if len(planned) > 1:
                    self.strong_plans[key] = (game.revision + 1, planned[1:])
            else:
                action = self.policies(name, seed).choose(seen)
            outcome = engine.apply(game.state, action, player=seat.seat)
            if is_plugin(name):  # a plug-in's legal answer: its strikes start again
                self.plugin_strikes.pop(key, None)
            return action, outcome
        except Exception as error:
            if is_plugin(name):  # someone else's code: one line a move, no traceback of ours
                log.warning("plug-in AI %s failed in game %s (seat %d): %s; a fallback move is played",
                            name, game.id, seat.seat, said(error))
                self._plugin_struck(game.id, seat.seat, name)
            else:
                log.exception("policy %s failed in game %s; using a fallback move", seat.policy, game.id)
        legal = engine.legal_actions(game.state, seat.seat)
        if legal:
            return legal[0], None
        options = engine.master_options(game.state, seat.seat)
        if options is not None:
            return next(options.iter_actions()), None
        return engine.SkipTurn(), None

    def _plugin_struck(self, game_id: int, seat: int, name: str) -> None:
        """Count a plug-in seat's fallback move; at :data:`PLUGIN_STRIKES` in a row, say once in
        the log that the seat plays :data:`PLUGIN_STAND_IN` from now on in this game."""
        key = (game_id, seat)
        strikes = self.plugin_strikes[key] = self.plugin_strikes.get(key, 0) + 1
        if strikes == PLUGIN_STRIKES:
            log.warning("plug-in AI %s failed %d moves in a row in game %s (seat %d); the seat plays %s"
                        " for the rest of the game", name, strikes, game_id, seat, PLUGIN_STAND_IN)

    def turn_deadline(self, game: Game, seat: int) -> float | None:
        """When this turn of ``seat`` stops thinking: ``ai_turn_seconds`` after its first search
        began, for every search of the turn (a card revealed mid-turn means another search,
        within the same budget); None without a budget."""
        if self.ai_turn_seconds is None or game.state is None:
            return None
        key = (game.id, seat)
        kept = self.turn_deadlines.get(key)
        if kept is None or kept[0] != game.state.turn:
            kept = (game.state.turn, wall_now() + self.ai_turn_seconds)
            self.turn_deadlines[key] = kept
        return kept[1]
