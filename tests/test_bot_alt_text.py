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
from bot.core.games import seat_name
from bot.core.rendering.render import _shown
from bot.core.wording.describe import (
    MAX_DESCRIPTION,
    alt_text,
    describe,
    describe_recap,
    empty_cells,
    table_lines,
)
from bot.core.wording.locales import PlayerName, image_words
from engine.cards import Ambassador
from engine.pieces import Shape, mask_to_text
from engine.state import DonePuzzle, OpenPuzzle, Options, Placed, RowsTable
from renders import fonts, render_table


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
        assert f"{name}: 0 points, 0 puzzles done" in posted
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
    assert posted is not None and " points," not in posted
    assert "alice: 0 puzzles done (points hidden until the end)" in posted
    [own] = descriptions(final_reply(await h.slash(bob, "games", "projectl mat")))
    assert own is not None and "bob: 0 points, 0 puzzles done" in own  # your own pile
    [theirs] = descriptions(final_reply(await h.slash(bob, "games", "projectl mat", player=alice)))
    assert theirs is not None and " points," not in theirs and "points hidden" in theirs


def test_a_face_down_pile_names_neither_its_cards_nor_its_points() -> None:
    state = engine.new_game(Options.for_players(2, known_scores=False), 5)
    done = state.table.white_deck[0]  # type: ignore[union-attr]
    players = list(state.players)
    players[1] = dataclasses.replace(players[1], completed=(DonePuzzle(card=done),))
    state = state.evolve(players=tuple(players))
    shown = alt_text(describe(state, ["Ana", "Bruno"], viewer=0), None)
    assert "Bruno: 1 puzzle done (points hidden until the end)" in shown and done not in shown
    points = state.cards[done].points
    own = alt_text(describe(state, ["Ana", "Bruno"], viewer=1), None)
    assert f"Bruno: {points} points, 1 puzzle done" in own


async def test_a_portuguese_reader_gets_portuguese(h: DiscordHarness) -> None:
    ana, bia = h.add_user("ana"), h.add_user("bia")
    await open_table(h, ana, [bia])
    game = await bot_of(h).manager.game_in_channel(h.channel("games").id)
    assert game is not None and game.current is not None
    status = final_reply(await h.slash(bia, "games", "projectl status", locale="pt-BR"))
    [about] = descriptions(status)
    assert about is not None and about.startswith(f"Vez de {game.current.name}.")
    assert "ana: 0 pontos, 0 completos" in about and "Fileira branca:" in about


def test_six_players_of_line_clear_fit_discords_limit_cut_at_a_sentence() -> None:
    state = engine.new_game(Options.for_players(6), 3)
    deck = list(state.table.white_deck + state.table.black_deck)  # type: ignore[union-attr]
    players = tuple(dataclasses.replace(p, puzzles=tuple(OpenPuzzle(card=deck.pop()) for _ in range(4)))
                    for p in state.players)
    state = state.evolve(players=players)
    names = [f"Greedy bot {i}" for i in range(1, 7)]
    whole = describe(state, names)
    for locale, more in ((None, " More: `/projectl-describe`."), ("pt-BR", " Mais: `/projectl-descrever`.")):
        shown = alt_text(whole, locale)
        assert len(shown) <= MAX_DESCRIPTION and shown.endswith(more)  # the rest is one command away
        full = " ".join(alt_text(type(whole)((part,)), locale) for part in whole.parts)
        assert len(full) > MAX_DESCRIPTION and full.startswith(shown.removesuffix(more))  # whole sentences
        first = names[state.acting_seats[0]]
        assert shown.startswith(("", "Vez de ")[locale is not None] + first)
        # most important first: every score, both markers, every row on offer, the movers' puzzles
        assert all(f"{name}: 0 " in shown for name in names), shown
        assert all(card in shown for card in state.table.left_white + state.table.right_black  # type: ignore[union-attr]
                   if card is not None)
        if locale is None:  # (Portuguese names each card's colour too: its puzzles are next, cut)
            first_mover = state.players[state.acting_seats[0]]
            assert all(f"{puzzle.card} (" in shown for puzzle in first_mover.puzzles), shown


def test_a_puzzle_says_which_cells_are_empty_row_by_row_and_counts_agree() -> None:
    """A reader plans from the alt text: each puzzle's empty cells, a run of a row as its ends,
    and "1 cell left", "1 piece" in the singular in both languages (they said "1 cells left")."""
    state = engine.new_game(Options.for_players(2), 1)
    card = next(c for c in state.cards.values() if c.size == 5 and not isinstance(c.reward, Ambassador))
    filled = card.recess & ~(card.recess & -card.recess)  # every cell but the first one
    players = list(state.players)
    supply = tuple(1 if i == 0 else 0 for i in range(len(players[0].supply)))
    placed = tuple(Placed(Shape.MONO, 1 << cell) for cell in range(25) if filled >> cell & 1)
    players[0] = dataclasses.replace(players[0], puzzles=(OpenPuzzle(card.id, placed),), supply=supply)
    state = state.evolve(players=tuple(players))
    first = mask_to_text(card.recess).split()[0]
    mat = describe(state, ["Ana", "Bo"], 0, mat=0)
    shown = alt_text(mat, None)
    assert f"Ana is building {card.id} (1 cell left: {first})." in shown
    assert "Ana: 0 points, 0 puzzles done, 1 piece." in shown
    assert shown.index("is building") < shown.index("Ana: 0 points")  # a mat: its puzzles come first
    portuguese = alt_text(mat, "pt-BR")
    assert f"(falta 1 casa: {first})" in portuguese and "0 completos, 1 peça." in portuguese
    open_card = dataclasses.replace(players[0], puzzles=(OpenPuzzle(card.id),))
    state = state.evolve(players=(open_card, *players[1:]))
    assert f"({card.size} cells left: " in alt_text(describe(state, ["Ana", "Bo"], 0, mat=0), None)
    assert empty_cells(0b11100_00111, 0) == "A1–C1, C2–E2"


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
    assert "dá uma Ação de Embaixador" in alt_text(describe(state, ["Ana", "Bruno"]), "pt-BR")


def test_the_recap_says_what_it_shows_who_won_and_each_score_by_round() -> None:
    """The animated recap's alt text: what the frames show, the winners, the swing, and each
    line's score at the deal and after each round (it used to have none)."""
    state, _ = play_out(engine.new_game(Options(players=2), 1), 1)
    assert state.is_over
    scores = ((0, 0), (3, 1), (7, 9))
    about = describe_recap(state, ["Ana", "Bruno"], 12, scores, "No single move swung this game.")
    shown = alt_text(about, None)
    assert shown.startswith("Animated recap of game 12: the table at the deal, then after each round (2). "
                            "The game is over. Won by ")
    assert "Ana's score round by round: 0, 3, 7. Bruno's score round by round: 0, 1, 9." in shown
    assert alt_text(about, "pt-BR").startswith("Resumo animado da partida 12")


def test_an_ai_seats_name_reads_in_the_readers_language_as_the_image_draws_it() -> None:
    """A seat the host handed to an AI ("Easy AI (for Maximiliano Rodrigues)") is drawn in the
    server's language ("IA Fácil (no lugar de …)"); its alt text cut the English sentence at 12
    letters into plain text, so a Portuguese reader heard "Vez de Easy AI (fo…."."""
    names = [seat_name("Easy AI (for Maximiliano Rodrigues)", "greedy", None),
             seat_name("Easy AI 2", "greedy", None)]
    state = engine.new_game(Options.for_players(2), 3)
    state = state.evolve(current=0)
    drawn_names = _shown(names, "pt-BR")
    assert drawn_names == ["IA Fácil (no lugar de Maximiliano Rodrigues)", "IA Fácil 2"]
    with fonts.recording() as drawn:
        render_table(state, drawn_names, words=image_words("pt-BR"))
    assert any(d.text.startswith("IA Fácil (no lugar de") for d in drawn)
    shown = alt_text(describe(state, names), "pt-BR")
    assert shown.startswith("Vez de IA Fácil (no lugar de Maximiliano…).")
    assert "IA Fácil 2: 0 pontos" in shown and "Easy" not in shown and "AI" not in shown
    assert alt_text(describe(state, names), None).startswith("Easy AI (for Maximiliano…) to move.")


def test_a_markdown_like_name_reads_in_the_alt_text_as_the_image_draws_it() -> None:
    """Alt text is plain text (Discord reads no markdown in it): a player named "**Bo**" is drawn
    "**Bo**" and must be read so, not "\\*\\*Bo\\*\\*" with the backslashes a message needs;
    ``/projectl-describe``'s lines, which are a message, stay escaped."""
    names = [PlayerName("**Bo**"), PlayerName("_Ana_ @here")]
    state = engine.new_game(Options.for_players(2), 3).evolve(current=0)
    with fonts.recording() as drawn:
        render_table(state, _shown(names, None))
    assert {"**Bo**", "_Ana_ @here"} <= {d.text for d in drawn}
    for locale, turn in ((None, "**Bo** to move."), ("pt-BR", "Vez de **Bo**.")):
        shown = alt_text(describe(state, names), locale)
        assert shown.startswith(turn) and "\\" not in shown, shown
        assert "_Ana_ @here: 0 " in shown.replace("\u200b", "")
    lines = "\n".join(str(line) for line in table_lines(state, names))
    assert "\\*\\*Bo\\*\\*" in lines  # a message quotes the name escaped
