"""Every image arrives with alt text (the attachment's ``description``) that says what it shows:
whose turn, the scores (a face-down pile's count only), the puzzles being built, the rows on offer."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from harness import DiscordHarness
from positions import play_out
from test_bot_support import bot_of, final_reply, last_channel_post, open_table, running_bot

import engine
from bot.core.wording.describe import MAX_DESCRIPTION, alt_text, describe, describe_recap
from engine.cards import Ambassador
from engine.state import DonePuzzle, OpenPuzzle, Options, RowsTable


@pytest.fixture
async def h(tmp_path: Path) -> Any:
    async with running_bot(tmp_path / "alt.sqlite3") as harness:
        yield harness


def descriptions(message: Any) -> list[str | None]:
    """The alt text of each attachment, as the bot sent it to Discord."""
    return [a.get("description") for a in message.payload.get("attachments") or []]


async def test_the_table_and_a_mat_say_whose_turn_it_is_and_the_state(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.state is not None and game.current is not None
    mover = game.current.name
    post = last_channel_post(h)
    [posted] = descriptions(post)
    assert posted is not None and posted.startswith(f"{mover} to move.")
    assert posted == alt_text(describe(game.state, game.names), None)
    for name in ("alice", "bob"):
        assert f"{name}: 0 points from 0 completed puzzles" in posted
    for card in (c for c in game.state.table.white_row if c is not None):  # type: ignore[union-attr]
        assert f"{card} ({game.state.cards[card].points} pt, reward" in posted

    status = final_reply(await h.slash(bob, "games", "projectl status"))
    assert status.filenames == ["table.png"] and descriptions(status) == [posted]
    mat = final_reply(await h.slash(bob, "games", "projectl mat"))
    [about] = descriptions(mat)
    assert about is not None and about.startswith(f"{mover} to move. This is bob's mat.")
    assert "alice:" not in about  # bob's mat tells bob's position


async def test_hidden_score_piles_show_no_points(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    await open_table(h, alice, [bob], known_scores=False)
    [posted] = descriptions(last_channel_post(h))
    assert posted is not None and "points from" not in posted
    assert "alice: 0 completed puzzles (points hidden until the end)" in posted
    [own] = descriptions(final_reply(await h.slash(bob, "games", "projectl mat")))
    assert own is not None and "bob: 0 points from 0 completed puzzles" in own  # your own pile
    [theirs] = descriptions(final_reply(await h.slash(bob, "games", "projectl mat", player=alice)))
    assert theirs is not None and "points from" not in theirs and "points hidden" in theirs


def test_a_face_down_pile_names_neither_its_cards_nor_its_points() -> None:
    state = engine.new_game(Options.for_players(2, known_scores=False), 5)
    done = state.table.white_deck[0]  # type: ignore[union-attr]
    players = list(state.players)
    players[1] = dataclasses.replace(players[1], completed=(DonePuzzle(card=done),))
    state = state.evolve(players=tuple(players))
    shown = alt_text(describe(state, ["Ana", "Bruno"], viewer=0), None)
    assert "Bruno: 1 completed puzzles (points hidden until the end)" in shown and done not in shown
    points = state.cards[done].points
    own = alt_text(describe(state, ["Ana", "Bruno"], viewer=1), None)
    assert f"Bruno: {points} points from 1 completed puzzles" in own


async def test_a_portuguese_reader_gets_portuguese(h: DiscordHarness) -> None:
    ana, bia = h.add_user("ana"), h.add_user("bia")
    await open_table(h, ana, [bia])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None
    status = final_reply(await h.slash(bia, "games", "projectl status", locale="pt-BR"))
    [about] = descriptions(status)
    assert about is not None and about.startswith(f"Vez de {game.current.name}.")
    assert "ana: 0 pontos de 0 quebra-cabeças completos" in about and "Fileira branca:" in about


def test_six_players_of_line_clear_fit_discords_limit_cut_at_a_sentence() -> None:
    state = engine.new_game(Options.for_players(6), 3)
    deck = list(state.table.white_deck + state.table.black_deck)  # type: ignore[union-attr]
    players = tuple(dataclasses.replace(p, puzzles=tuple(OpenPuzzle(card=deck.pop()) for _ in range(4)))
                    for p in state.players)
    state = state.evolve(players=players)
    names = [f"Player with a long name number {i}" for i in range(6)]
    whole = describe(state, names)
    for locale in (None, "pt-BR"):
        shown = alt_text(whole, locale)
        assert len(shown) <= MAX_DESCRIPTION and shown.endswith(".")
        full = " ".join(alt_text(type(whole)((part,)), locale) for part in whole.parts)
        assert len(full) > MAX_DESCRIPTION and full.startswith(shown)  # whole sentences, in order
        first = names[state.acting_seats[0]]
        assert shown.startswith(("", "Vez de ")[locale is not None] + first)


def test_an_ambassador_card_on_offer_names_its_reward() -> None:
    """An Ambassador Pack card rewards no piece: its alt text says "an Ambassador action" (it
    used to look the reward up among the shapes' names and fail)."""
    state = engine.new_game(Options(players=2, ambassador=True), 1)
    table = state.table
    assert isinstance(table, RowsTable)
    ambassador = next(card for card in state.cards.values() if isinstance(card.reward, Ambassador))
    state = state.evolve(table=dataclasses.replace(table, white_row=(ambassador.id, *table.white_row[1:])))
    shown = alt_text(describe(state, ["Ana", "Bruno"]), None)
    assert f"{ambassador.id} ({ambassador.points} pt, reward an Ambassador action)" in shown
    assert "recompensa uma Ação de Embaixador" in alt_text(describe(state, ["Ana", "Bruno"]), "pt-BR")


def test_the_recap_says_what_it_shows_who_won_and_each_score_by_round() -> None:
    """The animated recap's alt text: what the frames show, the winners, the swing, and each
    line's score at the deal and after each round (it used to have none)."""
    state, _ = play_out(engine.new_game(Options(players=2), 1), 1)
    assert state.is_over
    scores = ((0, 0), (3, 1), (7, 9))
    about = describe_recap(state, ["Ana", "Bruno"], 12, scores, "No single move swung this game.")
    shown = alt_text(about, None)
    assert shown.startswith("Animated recap of game 12: the table at the deal, then after each of its "
                            "2 rounds. The game is over. Won by ")
    assert "Ana's score round by round: 0, 3, 7. Bruno's score round by round: 0, 1, 9." in shown
    assert alt_text(about, "pt-BR").startswith("Resumo animado da partida 12")
