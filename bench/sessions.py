"""Whole games played through Discord, watched for secrets: what the leak and limit tests replay.

:class:`SecretWatch` follows every committed step (a manager hook, so policy seats' and the Solo
mastermind's steps are seen too) and remembers every card that has ever been public — face up,
in someone's area, in the mastermind's pile. A card still in a deck that was never public is
secret, and so are the game's seed and RNG state (either would let anyone replay the shuffle).
After each interaction the calls it caused are searched for any secret. Images cannot be
searched; the renderer only draws face-up cards, decks as counts.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from engine import GameState
from engine.state import RowsTable, SoloTable

from .discord_driver import play
from .players import choose_action


def deck_cards(state: GameState) -> set[str]:
    table = state.table
    if isinstance(table, RowsTable):
        return set(table.white_deck) | set(table.black_deck)
    if isinstance(table, SoloTable):
        return set(table.deck)
    return set()


def public_cards(state: GameState) -> set[str]:
    """Every card not in a deck is public: rows, grid, players' puzzles and piles."""
    return set(state.cards) - deck_cards(state)


def call_text(call: Any) -> str:
    """Everything a call sends that a person could read: JSON body, file names, URL."""
    names = " ".join(name for name, _ in call.files)
    return f"{call.url_path} {json.dumps(call.json, ensure_ascii=False)} {names}"


CARD_ID = re.compile(r"\b[WB]\d{2}\b")


def example_cards() -> set[str]:
    """Card ids the bot's fixed texts use as examples ("place L3 on W07 ...") — in every message
    whatever the deck, so they cannot be told apart from a leak and are not searched for."""
    from bot.core.wording import texts

    values = list(vars(texts).values())
    strings = [v for v in values if isinstance(v, str)]
    strings += [v for d in values if isinstance(d, dict) for v in d.values() if isinstance(v, str)]
    return {m for text in strings for m in CARD_ID.findall(text)} | {"W07", "B02", "B12"}


@dataclass
class SecretWatch:
    """Remembers public cards per game and finds secrets in outgoing calls."""

    public: dict[int, set[str]] = field(default_factory=dict)
    examples: set[str] = field(default_factory=example_cards)
    checked_calls: int = 0
    interactions: int = 0
    leaks: list[str] = field(default_factory=list)

    async def on_step(self, game: Any, step: Any) -> None:
        self.public.setdefault(game.id, set()).update(public_cards(step.state))

    def install(self, manager: Any) -> None:
        manager.on_action_committed.append(self.on_step)

    def secrets(self, game: Any) -> set[str]:
        assert game.state is not None
        public = self.public.setdefault(game.id, set())
        public.update(public_cards(game.state))
        hidden = deck_cards(game.state) - public - self.examples
        return hidden | {str(game.seed), str(game.state.rng_state)}

    def check(self, calls: list[Any], game: Any) -> None:
        """Search the calls made since the last check for this game's secrets."""
        secrets = self.secrets(game)
        pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, sorted(secrets))) + r")(?![0-9])")
        for call in calls[self.checked_calls:]:
            if call.path.endswith("/commands"):
                continue  # the command schema: fixed text, the same for every game
            found = pattern.search(call_text(call))
            if found:
                self.leaks.append(f"{call!r} reveals {found.group(1)!r}")
        self.checked_calls = len(calls)
        self.interactions += 1


async def watched_game(h: Any, watch: SecretWatch, channel: str, seed: int, *, moves: int = 400,
                       looks: bool = True) -> int:
    """Play the open game in ``channel`` to the end (or ``moves``), checking after every move;
    with ``looks``, status, mats and autocomplete are used along the way. Returns moves made."""
    rng = random.Random(seed)
    manager = h.bot.manager
    made = 0
    while made < moves:
        game = await manager.game_in_channel(h.channel(channel).id)
        if game is None or game.current is None:
            break
        await play(h, game, choose_action(game.state, rng), rng)
        made += 1
        if looks and rng.random() < 0.2:
            await _look(h, game, rng)
        after = await manager.game(game.id)
        watch.check(h.calls, after)
    return made


async def _look(h: Any, game: Any, rng: random.Random) -> None:
    """What spectators and players do between moves: status, a mat, the autocomplete lists."""
    user = h.user(game.current.user_id)
    channel = h.world.channels[game.channel_id]
    await h.slash(user, channel, "projectl status")
    await h.slash(user, channel, "projectl mat", seat=rng.randint(1, len(game.seats)))
    await h.autocomplete(user, channel, "projectl play take", focused="puzzle")
    await h.autocomplete(user, channel, "projectl play act", focused="text")
    await h.autocomplete(user, channel, "projectl play place", focused="cells", piece="L3", puzzle="W01")
