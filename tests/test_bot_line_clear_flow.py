"""Line Clear's two marker holders through the real commands and buttons: everything is worked out
for the seat that acts (bot/core/play/flow.py), and an offer is out of date only when what it relies on
changed for that seat (bot/core/play/seat_view.py) — the other holder's actions leave it standing.

The "second holder" is the one who is not the state's ``current`` seat: the engine's unfocused
view of the game is the other holder's turn, so anything computed from it would be wrong for them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness, FakeMember, MessageRecord
from test_bot_support import assert_refused, bot_of, final_reply, open_table, running_bot

import engine
from bot.core.play.manager import Game
from bot.core.play.panel import parse_panel_id
from bot.core.play.seat_view import changed_parts, stamp
from bot.core.play.thinking import Hint
from bot.core.wording.describe import reward_words
from bot.core.wording.locales import localise
from engine import GameState, serialisation
from engine.pieces import mask_to_text
from engine.policies import plan_gist
from engine.state import LineClearTable


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "lineclear-flow.sqlite3") as harness:
        yield harness


async def game_of(h: DiscordHarness) -> Game:
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None
    return game


async def holders(h: DiscordHarness, *, casual: bool = False) -> tuple[FakeMember, int, FakeMember, int]:
    """A 5-player table (Line Clear with Ghost): (first holder, seat, second holder, seat), the
    first being the state's ``current`` seat; ``casual``: made casual in the lobby (for hints)."""
    users = [h.add_user(f"p{n}") for n in range(5)]
    await open_table(h, users[0], users[1:], players=5, casual=casual)
    game = await game_of(h)
    assert game.state is not None and game.state.concurrent and game.state.options.ghost
    first = game.state.current
    second = next(s for s in game.state.acting_seats if s != first)
    return (h.user(game.seats[first].user_id), first,  # type: ignore[arg-type]
            h.user(game.seats[second].user_id), second)  # type: ignore[arg-type]


async def act(h: DiscordHarness, user: FakeMember, text: str) -> None:
    reply = final_reply(await h.slash(user, "games", "projectl play act", text=text))
    assert (reply.content or "").startswith("Done:"), reply.content


def panel_of(ix: Any) -> MessageRecord:
    reply = final_reply(ix)
    assert reply.message is not None and any(parse_panel_id(c.custom_id or "") for c in reply.components)
    return reply.message


def component(h: DiscordHarness, panel: MessageRecord, step: str) -> Any:
    for comp in h.message(panel.id).components:
        parsed = parse_panel_id(getattr(comp, "custom_id", "") or "")
        if parsed is not None and parsed.step == step:
            return comp
    raise AssertionError(f"no {step} on the panel")


async def open_panel(h: DiscordHarness, user: FakeMember) -> MessageRecord:
    post = next(m for m in reversed(h.channel_messages("games"))
                if any(b.custom_id.startswith("plp:play:") for b in m.buttons))
    play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
    return panel_of(await h.click(user, post, play.custom_id))


async def a_puzzle_and_a_spot(h: DiscordHarness, user: FakeMember, seat: int) -> engine.Place:
    """The seat takes the first puzzle on its side; a spot for its monomino there."""
    await act(h, user, "take white 1")
    game = await game_of(h)
    assert game.state is not None
    player = game.state.players[seat]
    card = player.puzzles[-1].card
    return engine.placements_for(game.state.cards, player, card=card, shape=engine.Shape.MONO)[0]


# -- one flow, scoped to the acting seat --------------------------------------------------------


async def test_the_second_holder_types_a_master_on_their_own_puzzles(h: DiscordHarness) -> None:
    """`master-add` checks the draft for the seat that builds it: the second holder's own puzzle,
    not "You have no unfinished puzzle …" with the other holder's puzzles listed."""
    first_user, first, second_user, second = await holders(h)
    place = await a_puzzle_and_a_spot(h, second_user, second)
    await act(h, first_user, "level1")  # the last to act is the state's current seat: the other one
    assert (await game_of(h)).state.current == first  # type: ignore[union-attr]
    ix = await h.slash(second_user, "games", "projectl play master-add", piece=place.shape.value,
                       puzzle=place.card, cells=mask_to_text(place.mask))
    answer = final_reply(ix)
    assert answer.ephemeral and answer.filenames == ["preview.png"], answer.content
    assert bot_of(h).renderer.calls[-1] == f"master:{place.placement_text()}"
    reply = final_reply(await h.slash(second_user, "games", "projectl play master-confirm"))
    assert (reply.content or "").startswith("Done: `master"), reply.content
    log = await bot_of(h).manager.log((await game_of(h)).id)
    assert (log[-1].seat, log[-1].action) == (second, str(engine.Master((place,))))


async def test_a_master_draft_survives_the_other_holders_action(h: DiscordHarness) -> None:
    """The draft relies on the builder's own view: the other holder's commit neither deletes it
    nor makes it unreadable, and Confirm (typed, or the button under the draft) plays it."""
    first_user, _, second_user, second = await holders(h)
    place = await a_puzzle_and_a_spot(h, second_user, second)
    ix = await h.slash(second_user, "games", "projectl play master-add", piece=place.shape.value,
                       puzzle=place.card, cells=mask_to_text(place.mask))
    answer = final_reply(ix)
    await act(h, first_user, "level1")  # the other holder moves the game on
    assert await bot_of(h).storage.read_scalar("SELECT COUNT(*) FROM master_drafts") == 1
    confirm = next(b for b in answer.buttons if b.custom_id.startswith("pl:master:ok:"))
    reply = final_reply(await h.click(second_user, answer.message, confirm.custom_id))
    assert (reply.content or "").startswith("Done: `master"), reply.content
    assert await bot_of(h).storage.read_scalar("SELECT COUNT(*) FROM master_drafts") == 0  # its own commit


async def test_the_second_holders_hint_plans_their_own_turn(h: DiscordHarness,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint is planned from the asker's turn (their 3 actions), not the other holder's (1)."""
    first_user, _, second_user, second = await holders(h, casual=True)  # a rated table refuses hints
    await act(h, first_user, "level1")
    await act(h, first_user, "level1")
    planned: list[GameState] = []

    async def inline(function: Any, *args: Any) -> Any:
        """The planning, replaced by its first legal move for the position it is given (the
        strong search takes seconds): the position is what this test is about."""
        position = serialisation.loads(args[0])
        planned.append(position)
        first = str(engine.legal_actions(position)[0])
        return Hint(first, (first,), 0.0, 0.5, 1, None, None, plan_gist(position, ()))

    monkeypatch.setattr(bot_of(h).manager.thinker, "run", inline)
    reply = final_reply(await h.slash(second_user, "games", "projectl play hint"))
    assert reply.ephemeral and reply.filenames == ["hint.png"], reply.content
    assert [(s.current, s.actions_left) for s in planned] == [(second, 3)]
    suggested = reply.content.split("**`", 1)[1].split("`**", 1)[0]
    game = await game_of(h)
    engine.apply(game.state, engine.parse_action(suggested), player=second)  # legal for them


async def test_autocomplete_suggests_the_second_holders_own_actions(h: DiscordHarness) -> None:
    """`/projectl play act`'s list is the asker's legal actions: the first holder, with a puzzle and
    pieces, may place; the second, with no puzzle yet, may not."""
    first_user, first, second_user, _ = await holders(h)
    await a_puzzle_and_a_spot(h, first_user, first)
    mine = [c.value for c in await h.autocomplete(first_user, "games", "projectl play act",
                                                    focused="text", text="place")]
    theirs = [c.value for c in await h.autocomplete(second_user, "games", "projectl play act",
                                                      focused="text", text="")]
    assert any(v.startswith("place ") for v in mine)
    assert theirs and not any(v.startswith("place ") for v in theirs)
    game = await game_of(h)
    second = game.seat_of(second_user.id).seat  # type: ignore[union-attr]
    legal = {str(a) for a in engine.legal_actions(game.state, second)}  # type: ignore[arg-type]
    assert set(theirs) - {"master "} <= legal


# -- out of date means out of date for you ----------------------------------------------------------


async def test_the_other_holders_actions_leave_a_panel_standing(h: DiscordHarness) -> None:
    first_user, first, second_user, second = await holders(h)
    panel = await open_panel(h, second_user)
    await act(h, first_user, "level1")
    await act(h, first_user, "take white 1")  # the other side's row: not the second holder's
    reply = final_reply(await h.click(second_user, h.message(panel.id), component(h, panel, "lvl").custom_id))
    assert (reply.content or "").startswith("Done: `level1`"), reply.content
    log = await bot_of(h).manager.log((await game_of(h)).id)
    assert [r.seat for r in log] == [first, first, second]


async def test_a_stale_panel_is_refused_with_what_changed_and_the_fresh_panel(h: DiscordHarness) -> None:
    """The holder's own row changed since the panel was shown (they took from it by typing): the
    old "take white 1" would now take another card, so it is refused — not applied differently —
    and the refusal says what changed and carries the fresh panel, which then works."""
    _, _, second_user, second = await holders(h)
    panel = await open_panel(h, second_user)
    await act(h, second_user, "take white 1")
    before = await game_of(h)
    take = component(h, panel, "take")
    ix = await h.select(second_user, h.message(panel.id), take.custom_id, ["take white 1"])
    text = assert_refused(ix, "out of date", "your turn", "the puzzles on your side")
    after = await game_of(h)
    assert after.revision == before.revision and after.state == before.state
    fresh = final_reply(ix)
    stamps = {parse_panel_id(c.custom_id).key.stamp for c in fresh.components  # type: ignore[union-attr]
              if parse_panel_id(c.custom_id or "")}
    assert stamps == {stamp(after.state, after.revision, second)}, text
    level1 = next(c for c in fresh.components if (parse_panel_id(c.custom_id or "") or None)
                  and parse_panel_id(c.custom_id).step == "lvl")  # type: ignore[union-attr]
    reply = final_reply(await h.click(second_user, fresh.message, level1.custom_id))
    assert (reply.content or "").startswith("Done: `level1`"), reply.content


async def test_a_seats_stamp_follows_its_own_view_only(h: DiscordHarness) -> None:
    """The pure model: the other holder's action changes neither holder's... own parts but theirs."""
    first_user, first, _, second = await holders(h)
    game = await game_of(h)
    mine, theirs = stamp(game.state, game.revision, first), stamp(game.state, game.revision, second)
    await act(h, first_user, "take white 1")
    moved = await game_of(h)
    assert stamp(moved.state, moved.revision, second) == theirs
    assert changed_parts(moved.state, moved.revision, second, theirs) == ()
    assert changed_parts(moved.state, moved.revision, first, mine) == ("turn", "mat", "rows")
    assert changed_parts(moved.state, moved.revision, first, str(game.revision)) == ("game",)


# -- the Take menu reads as the base game's ---------------------------------------------------------


async def test_the_take_menu_details_each_card_on_the_holders_own_side(h: DiscordHarness) -> None:
    """Issue 31, item 4: each holder's Take menu lists their own side's cards with the base game's
    details ("White 1 · W13 · 1 pt · reward 2 · 3 cells"), translated, never bare notation."""
    first_user, first, second_user, second = await holders(h)
    game = await game_of(h)
    state = game.state
    assert state is not None
    table = state.table
    assert isinstance(table, LineClearTable)
    words = {"en-US": ("White", "Black", "pt", "reward", "cells", "Draw blind"),
             "pt-BR": ("Branca", "Preta", "pt", "recompensa", "casas", "Comprar sem ver")}
    for user, seat, locale in ((first_user, first, "pt-BR"), (second_user, second, "en-US")):
        post = next(m for m in reversed(h.channel_messages("games"))
                    if any(b.custom_id.startswith("plp:play:") for b in m.buttons))
        play = next(b for b in post.buttons if b.custom_id.startswith("plp:play:"))
        panel = panel_of(await h.click(user, post, play.custom_id, locale=locale))
        menu = component(h, panel, "take")
        turn = state.turn_of(seat)
        assert turn is not None
        white, black, points, reward, cells, draw = words[locale]
        labels = {o.value: o.label for o in menu.options}
        assert labels, menu
        for value, label in labels.items():
            action = engine.parse_action(value)
            assert label != value and not label.startswith(("take ", "draw ")), label
            if isinstance(action, engine.DrawPuzzle):
                assert label.startswith(draw), label
                continue
            assert isinstance(action, engine.TakePuzzle) and action.colour is not None
            card = state.cards[table.row(turn.side, action.colour)[action.slot - 1]]  # type: ignore[index]
            colour = white if action.colour is engine.Colour.WHITE else black
            pt_colour = "branco" if card.id[0] == "W" else "preto"
            named = card.id if locale == "en-US" else f"{card.id} {pt_colour}"
            given = localise(reward_words(card), locale)
            assert label == (f"{colour} {action.slot} · {named} · {card.points} {points} · "
                             f"{reward} {given} · {card.size} {cells}"), label


async def test_the_table_is_posted_when_a_holders_turn_ends_not_when_the_holders_take_turns_acting(
        h: DiscordHarness) -> None:
    """The channel gets a table post when a holder's turn ends (and when the markers pass), as a
    table of one turn at a time does — not after every action that follows the other holder's
    (the engine's ``current`` is merely the last seat that acted), and never missing the end of a
    turn whose holder acted twice in a row before it."""
    first, _, second, _ = await holders(h)

    def table_posts() -> int:
        return sum(1 for m in h.channel_messages("games") if m.filenames == ["table.png"])

    at_start = table_posts()
    await act(h, first, "level1")
    await act(h, second, "level1")  # the holders alternate, mid-turn: nothing to post
    await act(h, first, "level1")
    assert table_posts() == at_start
    await act(h, first, "level1")  # the first holder's turn ends after their own action
    assert table_posts() == at_start + 1
    post = h.channel_messages("games")[-1]
    assert post.content.count(f"<@{first.id}>") == 0 and "**p" in post.content
    assert post.content.count("`level1`") == 3  # the three actions of the turn that ended
    await act(h, second, "level1")
    assert table_posts() == at_start + 1
