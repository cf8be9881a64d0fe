"""Turn clocks and absent players: time limits, votes to skip or remove, leaving, AI replacement.

Rulings (docs/play-over-days.md):

* A table may set a turn limit (1–7 days, or none). It counts from the moment the turn started;
  when it runs out the table is told, and from then on the *other active human players* may vote
  to skip the turn or remove the player, until that player acts again (then they are back). A
  strict majority of them decides (2 of 2, 2 of 3, 3 of 4…); a voter may change their vote.
  Without a limit there is nothing to vote on.
* Skips and removals go through :meth:`GameManager.decide` with the revision the vote saw, so
  they are logged actions and two votes landing together cannot skip two turns.
* Anyone may leave an active game: that is a removal (engine ``RemovePlayer``: pieces back to
  the reserve, unfinished puzzles out of play, completed puzzles kept, no win).
* The host may hand any other human seat that is still in the game to an AI policy, so a game
  with a missing player can finish; the seat keeps everything it had.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from bot.core.clock import Clock
from bot.core.days.turn_limits import majority, voters_for
from bot.core.errors import (
    BadInputError,
    InvalidActionError,
    NoGameError,
    NotHostError,
    NotInGameError,
    StaleError,
    WrongStageError,
)
from bot.core.games import ai_kinds, offered_level, replaced_name
from bot.core.play.manager import POLICY_NAMES, ActionResult, Game, GameManager, Seat
from bot.core.storage import StaleRevisionError
from bot.core.storage.days import DaysStore, TurnKey
from bot.core.wording import texts
from bot.core.wording.locales import unescaped

LIMIT_DAYS = (1, 2, 3, 4, 5, 6, 7)
CHOICES = ("skip", "remove")


def turn_key(game: Game, seat: int | None = None) -> TurnKey | None:
    """The key of the turn ``seat`` (default: the current seat) is now playing; None when the
    game is not in play or that seat is not to move. While two turns run at once (Line Clear's
    marker holders) each holder's turn has its own key, so clocks, reminders and votes are per
    holder."""
    if game.state is None or game.current is None:
        return None
    seat = game.state.current if seat is None else seat
    if seat not in game.state.acting_seats:
        return None
    return TurnKey(game.id, game.state.turn, game.state.phase.value, seat)


def turn_keys(game: Game) -> list[TurnKey]:
    """The keys of every turn now open, one per seat that holds one (both marker holders' in
    Line Clear): the scheduler's checks, the votes and ``/projectl status`` go through this."""
    if game.state is None or game.current is None:
        return []
    return [key for seat in game.state.acting_seats if (key := turn_key(game, seat)) is not None]


@dataclass(frozen=True, slots=True)
class VoteResult:
    game: Game
    target: Seat
    choice: str
    votes: dict[int, str]
    needed: int
    voters: int
    decision: ActionResult | None = None

    def count(self, choice: str) -> int:
        return sum(1 for c in self.votes.values() if c == choice)


class TurnClock:
    """Votes and seat changes for absent players. Plain ids in, values out (no Discord)."""

    def __init__(self, manager: GameManager, store: DaysStore, clock: Clock) -> None:
        self.manager = manager
        self.store = store
        self.clock = clock

    async def set_limit(self, game_id: int, days: int | None) -> None:
        if days is not None and days not in LIMIT_DAYS:
            raise BadInputError(texts.TURN_LIMIT_BAD)
        await self.store.set_turn_limit(game_id, None if days is None else days * 24)

    async def _active(self, channel_id: int) -> Game:
        game = await self.manager.game_in_channel(channel_id)
        if game is None:
            raise NoGameError(texts.NO_GAME)
        if game.status != "active" or game.state is None:
            raise WrongStageError(texts.NOT_STARTED)
        return game

    async def vote(
        self, channel_id: int, user_id: int, choice: str, *, key: TurnKey | None = None,
    ) -> VoteResult:
        """Record ``user_id``'s vote on the turn ``key`` (a button's; by default the turn now being
        played), which must still be open and timed out; apply it on a majority."""
        if choice not in CHOICES:
            raise BadInputError(texts.FORGED_BUTTON)
        game = await self._active(channel_id)
        current_key = key if key is not None else await self._timed_out_key(game, user_id)
        if current_key is None or current_key not in turn_keys(game):
            raise StaleError(texts.VOTE_STALE)
        target = game.seats[current_key.seat]
        voter = game.seat_of(user_id)
        if voter is None:
            raise NotInGameError(texts.NOT_IN_GAME)
        assert game.state is not None
        if game.state.players[voter.seat].removed:
            raise NotInGameError(texts.VOTE_REMOVED)
        if voter.seat == target.seat:
            raise WrongStageError(texts.VOTE_OWN_TURN)
        if await self.store.turn_limit(game.id) is None:
            raise WrongStageError(texts.VOTE_NO_LIMIT)
        row = await self.store.get_turn(current_key)
        deadline = None if row is None else row.deadline_at
        if deadline is None or self.clock.now() < deadline:
            stamp = 0 if deadline is None else int(deadline.timestamp())
            raise WrongStageError(texts.VOTE_NOT_YET.format(name=target.name, deadline=stamp))
        assert row is not None
        if row.last_acted_at is not None and row.last_acted_at >= deadline:
            raise WrongStageError(texts.VOTE_BACK.format(name=target.name))
        eligible = {s.user_id for s in voters_for(game, target.seat)}
        votes = {v: c for v, c in (await self.store.cast_vote(current_key, user_id, choice)).items()
                 if v in eligible}
        result = VoteResult(game, target, choice, votes, majority(len(eligible)), len(eligible))
        if result.count(choice) < result.needed:
            return result
        decision: engine.SkipTurn | engine.RemovePlayer = (
            engine.SkipTurn() if choice == "skip" else engine.RemovePlayer(target.seat)
        )
        try:
            applied = await self.manager.decide(channel_id, decision, by_user_id=user_id, game_id=game.id,
                                                expected_revision=game.revision, seat=target.seat)
        except StaleError as error:  # someone acted (or another vote decided) first
            raise StaleError(texts.VOTE_STALE) from error
        return VoteResult(game, target, choice, votes, result.needed, result.voters, applied)

    async def standing_vote(self, channel_id: int) -> VoteResult | None:
        """After the table's voters changed (one left, or their seat went to an AI): the votes
        on record that now make a majority of the voters left decide, as they would have had
        they been cast now. None when none does (or someone moved first)."""
        game = await self.manager.game_in_channel(channel_id)
        if game is None or game.status != "active" or game.state is None:
            return None
        now = self.clock.now()
        for key in turn_keys(game):
            row = await self.store.get_turn(key)
            if row is None or row.deadline_at is None or now < row.deadline_at:
                continue
            if row.last_acted_at is not None and row.last_acted_at >= row.deadline_at:
                continue  # they are back: no vote
            eligible = {s.user_id for s in voters_for(game, key.seat)}
            votes = {v: c for v, c in (await self.store.votes(key)).items() if v in eligible}
            needed = majority(len(eligible))
            for choice in CHOICES:
                backers = sorted(v for v, c in votes.items() if c == choice)
                if not eligible or len(backers) < needed:
                    continue
                decision: engine.SkipTurn | engine.RemovePlayer = (
                    engine.SkipTurn() if choice == "skip" else engine.RemovePlayer(key.seat))
                try:
                    applied = await self.manager.decide(channel_id, decision, by_user_id=backers[0],
                                                        game_id=game.id, expected_revision=game.revision,
                                                        seat=key.seat)
                except StaleError:  # someone acted (or another vote decided) first
                    return None
                return VoteResult(game, game.seats[key.seat], choice, votes, needed, len(eligible), applied)
        return None

    async def _timed_out_key(self, game: Game, user_id: int) -> TurnKey | None:
        """The turn a typed vote (no button) is about: with two holders at once (Line Clear), the
        other holder's turn whose clock ran out and who has not played since; otherwise — and for
        a single holder — the turn being played, so the refusal names the right reason."""
        now = self.clock.now()
        for key in turn_keys(game):
            if game.seats[key.seat].user_id == user_id:
                continue
            row = await self.store.get_turn(key)
            if row is None or row.deadline_at is None:
                continue
            deadline = row.deadline_at
            if now >= deadline and (row.last_acted_at is None or row.last_acted_at < deadline):
                return key
        return turn_key(game)

    async def leave(
        self, channel_id: int, user_id: int, *, expected_revision: int | None = None,
    ) -> ActionResult:
        """Leave an active game for good: the engine removes the seat."""
        game = await self._active(channel_id)
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotInGameError(texts.NOT_IN_GAME)
        assert game.state is not None
        if game.state.players[seat.seat].removed:
            raise NotInGameError(texts.LEAVE_REMOVED)
        return await self.manager.decide(
            channel_id, engine.RemovePlayer(seat.seat), by_user_id=user_id, game_id=game.id,
            expected_revision=expected_revision,
        )

    async def replace(
        self, channel_id: int, by_user_id: int, target_user_id: int, policy: str = "greedy",
    ) -> tuple[Game, Seat, ActionResult | None]:
        """Host only: hand ``target_user_id``'s seat to an AI, which plays at once if it is to move.
        Returns the game after the change, the new seat, and whatever the AI played."""
        policy = offered_level(policy)
        if policy not in POLICY_NAMES:
            raise BadInputError(texts.BAD_POLICY.format(names=ai_kinds()))
        async with self.manager.lock(channel_id):
            game = await self._active(channel_id)
            if by_user_id != game.host_id:
                raise NotHostError(texts.REPLACE_HOST_ONLY)
            target = game.seat_of(target_user_id)
            if target is None:
                raise NotInGameError(texts.NO_SUCH_PLAYER.format(name=f"<@{target_user_id}>"))
            if target_user_id == by_user_id:
                raise BadInputError(texts.REPLACE_SELF)
            assert game.state is not None
            if game.state.players[target.seat].removed:
                raise InvalidActionError(texts.REPLACE_REMOVED.format(name=target.name))
            name = replaced_name(policy, unescaped(target.name))  # stored as given
            try:
                row = await self.store.seat_to_policy(game.id, game.revision, target.seat, policy=policy,
                                                      display_name=name)
            except StaleRevisionError as error:
                raise StaleError(texts.STALE_GAME) from error
            changed = Game.from_row(row)
            await self.store.close_turns_of_seat(game.id, target.seat)
        played = await self.manager.play_policies(channel_id)
        return changed, changed.seats[target.seat], played
