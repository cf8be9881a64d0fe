"""What happened in a game, in the reader's language: the engine's events, pieces, decisions and
actions as sentences of bot/core/wording/texts.py (bot/core/wording/event_texts.py), and actions in
Portuguese notation.

The English must be exactly the engine's own words (``describe``), so it is checked against them
over whole games of every variant and expansion; the Portuguese must be Portuguese (no sentence
left in English) and every action shown in Portuguese notation must parse back to itself."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest

import engine
from bot.core.games import ai_name, seat_name
from bot.core.wording import texts
from bot.core.wording.event_texts import _SENTENCES, event_text, pending_prompt, shape_label, with_article
from bot.core.wording.locales import Joined, Notation, Text, catalogues, localise, notation_in
from engine import decisions
from engine import events as ev
from engine.expansions.finesse import CreditReason
from engine.legal import legal_actions
from engine.pieces import SHAPES
from engine.policies import policy_by_name
from engine.state import Options
from engine.visibility import describe_for, hidden_scores

NAMES = ["Ana", "Bruno", "Caio", "Duda", "Eva", "Fábio"]
TABLES = [
    Options.for_players(2),
    Options.for_players(1),
    Options.for_players(5),
    Options.for_players(3, ghost=True, finesse=True, known_scores=False),
    Options.for_players(2, endless_white=True, reserve=10),
    Options.for_players(4, ghost=True),
    Options.for_players(2, ambassador=True, phoenix=True, finesse=True, finesse_ambassador=True),
    Options.for_players(6, ghost=False, phoenix=True, ambassador=True),
]


Played = tuple[engine.GameState, engine.Action, list[ev.Event]]


def played(options: Options, seed: int = 7, limit: int = 2500) -> Iterator[Played]:
    """(state before, action, events) of a greedy game at this table."""
    state = engine.new_game(options, seed)
    policies = [policy_by_name("greedy", seat) for seat in range(options.players)]
    for _ in range(limit):
        if state.is_over:
            return
        action = policies[state.current].choose(state)
        outcome = engine.apply(state, action)
        yield state, action, list(outcome.events)
        state = outcome.state


def sample_events() -> list[ev.Event]:
    """One of each event the greedy games seldom or never produce."""
    white, black = engine.Colour.WHITE, engine.Colour.BLACK
    l3, o4, i4 = engine.Shape.L3, engine.Shape.O4, engine.Shape.I4
    return [
        ev.PuzzleTaken(0, "W07", "deck", black, None), ev.PuzzleTaken(0, "S01", "deck", None, None),
        ev.PuzzleTaken(0, "S02", "grid", None, 5), ev.PuzzleTaken(1, "W03", "row", white, 2),
        ev.CardRevealed("S04", None, 3), ev.DeckEmptied(None), ev.DeckEmptied(white),
        ev.WhiteDeckRenewed(9, ((0, 6), (1, 3))), ev.EndTriggered(7, 8), ev.EndTriggered(7, 7),
        ev.PieceGained(0, o4, "reward", i4), ev.PieceGained(0, engine.Shape.MONO, "level1"),
        ev.PieceGained(0, engine.Shape.DOMINO, "upgrade", engine.Shape.DOMINO),
        ev.DecisionAwaited(0, "substitute", ("I4", "O4"), "the reserve has no T4 (T tetromino) left for "
                           "your reward: pick another piece", "reward T4"),
        ev.DecisionAwaited(1, "level_up", ("L3 to O4", "decline"), "Level-up reward: raise one piece of "
                           "your supply exactly one level (a level-4 piece may become a ghost), or decline",
                           "arrow 1 of 2"),
        ev.PieceReturned(0, l3), ev.PiecePlaced(0, "W07", l3, 0b100011, finishing=True),
        ev.PuzzleCompleted(0, "W07", 3, finishing=True), ev.RowRecycled(white, ("W01", "W02", "W03", "W04")),
        ev.TurnSkipped(1), ev.PlayerRemoved(1, ()), ev.PlayerRemoved(2, ("W01", "B02")),
        ev.GameEnded((10, 10), (0, 1)), ev.GameEnded((10, 3), (0,)), ev.GameEnded((3,), (ev.MASTERMIND,)),
        ev.GhostSplit(0, engine.Shape.P5, (engine.Shape.MONO, o4)), ev.LevelledUp(0, l3, o4),
        ev.LevelUpDeclined(0), ev.LevelUpLost(1), ev.MarkersPassed(0, 2, 4), ev.AmbassadorFlipped(1, "B33"),
        ev.CreditEarned(0, "I, L, O", CreditReason("placed", engine.Shape.L4)), ev.CreditReturned(1, True),
        ev.CreditReturned(1, False), ev.CreditsReturnedToBank(1, 4), ev.CreditsReturnedToBank(2, 1),
        ev.CreditsActivated(0, 1), ev.CreditsActivated(0, 3), ev.ActionInserted(0), ev.CreditPaidFinishing(0),
        ev.FinesseTileRemoved("F1", ""), ev.FinesseTileRemoved("F1", "F2"), ev.FinesseTileRemoved(None, ""),
        ev.FinesseTileRemoved(None, "C3 (complete a puzzle)"), ev.MastermindTook("S05", 4, 2),
        ev.LocksReleased(), ev.LocksMoved(2, (1, 3, 0)), ev.LockTaken(3), ev.FinishingStarted(),
        ev.FinishingDone(0), ev.TurnStarted(1, 4), ev.PuzzleCompleted(7, "W01", 2),
    ]


def test_every_engine_event_has_a_sentence() -> None:
    """A new event in engine/events.py needs its sentence here, or it would show in English."""
    events = {cls for _, cls in inspect.getmembers(ev, inspect.isclass)
              if issubclass(cls, ev.Event) and cls is not ev.Event and cls.__module__ == ev.__name__}
    assert events - set(_SENTENCES) == set()
    assert {type(e) for e in sample_events()} == events


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o.variant}-{o.players}")
def test_english_sentences_are_the_engines_own_words(options: Options) -> None:
    seen = 0
    for state, _action, events in played(options):
        hidden = hidden_scores(state, None)
        for event in events:
            assert event_text(event, NAMES, hidden) == describe_for(event, NAMES, hidden)
            seen += 1
    assert seen > 100
    for event in sample_events():
        assert event_text(event, NAMES) == event.describe(NAMES)
        assert event_text(event, NAMES, frozenset({0, 1})) == describe_for(event, NAMES, frozenset({0, 1}))


def test_every_event_reads_in_portuguese() -> None:
    """No sentence stays English: each differs from the English and holds none of its words of
    more than four letters (names, card ids and shapes aside)."""
    for event in sample_events():
        english = event_text(event, NAMES)
        portuguese = localise(english, "pt-BR")
        assert isinstance(english, Text)
        assert portuguese != english, english
        for word in ("puzzle", "took", "reserve", "round", "completed", "credit", "deck", "the "):
            assert word not in portuguese, (word, portuguese)
    assert localise(event_text(ev.PieceGained(0, engine.Shape.L3, "reward", engine.Shape.O4), NAMES),
                    "pt-BR") == ("Ana pegou um L3 (triminó em L) (recompensa) em vez de um O4 (tetraminó "
                                 "quadrado), que acabou na reserva.")
    assert localise(event_text(ev.GameEnded((3, 3), (0, 1)), NAMES), "pt-BR") == (
        "Fim de jogo: Ana e Bruno compartilham a vitória.")
    mastermind = localise(event_text(ev.MastermindTook("S05", 4, 2), NAMES), "pt-BR")
    assert mastermind.startswith("O Mentor pegou S05")
    # a removed player's credits (Finesse): one credit reads as the new-credit sentence does, no article
    assert localise(event_text(ev.CreditsReturnedToBank(1, 1), NAMES), "pt-BR") == \
        "1 crédito de Bruno voltou ao banco."
    assert localise(event_text(ev.CreditsReturnedToBank(1, 4), NAMES), "pt-BR") == \
        "Os 4 créditos de Bruno voltaram ao banco."


def test_pieces_and_prompts_match_the_engine() -> None:
    for shape in SHAPES:
        assert shape_label(shape) == shape.label
        assert with_article(shape) == shape.with_article
        assert localise(shape_label(shape), "pt-BR") != shape.label
    from positions import at_turn_start, game, play, with_player, without_shapes

    state = with_player(at_turn_start(game(2, seed=1), 0), 0, supply="2 1",
                        puzzles=[("TO", [("2", "A1 B1")]), "TD"])
    state = play(without_shapes(state, "T4", "L4", "S4"), "place 2 on TO at A2 B2")
    decision = state.pending[0]
    assert pending_prompt(decision) == decisions.prompt(decision)
    assert localise(pending_prompt(decision), "pt-BR") == (
        "a reserva não tem mais T4 (tetraminó T) para a sua recompensa: escolha outra peça")


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o.variant}-{o.players}")
def test_portuguese_notation_parses_back_to_the_same_action(options: Options) -> None:
    """Every action a player could take (and every one played), shown in Portuguese, is read by
    the engine as that very action — so a player can copy it from the log or a hint."""
    checked = 0
    for state, action, _events in played(options, limit=400):
        for candidate in [action, *legal_actions(state)[:60]]:
            shown = notation_in(str(candidate), "pt-BR")
            assert engine.parse_action(shown) == candidate, shown
            checked += 1
    for text in ("skip", "remove 2", "choose L3 to O4", "choose decline", "end turn", "insert",
                 "master 1 on B02 at C3; L3 on W07 at A1 A2 B2", "ghost P5 to 1 O4; 1 on W07 at C3",
                 "ambassador 1 on B02 at C3; L3 on W07 at A1 A2 B2"):
        shown = notation_in(text, "pt-BR")
        assert str(engine.parse_action(shown)) == text, shown
    assert notation_in("choose L3 to O4", "pt-BR") == "escolher L3 para O4"
    assert notation_in("place L3 on W07 at A1 A2 B2", "pt-BR") == "colocar L3 em W07 nas A1 A2 B2"
    assert notation_in("ambassador 1 on B02 at C3", "pt-BR") == "embaixador 1 em B02 nas C3"
    assert notation_in("take white 3", "en-US") == "take white 3"
    assert checked > 200


def test_the_notation_catalogue_names_only_notation_words() -> None:
    """Each locale's ``notation`` section translates English notation words (the engine's), and
    each translation is a word the engine reads back as that English word."""
    from engine.actions import PORTUGUESE, PORTUGUESE_OPTIONS, _in_english

    english_words = set(PORTUGUESE.values()) | set(PORTUGUESE_OPTIONS.values())
    for locale, catalogue in catalogues().items():
        words = catalogue.get("notation", {})
        assert set(words) <= english_words, locale
        for english, shown in words.items():
            assert _in_english(shown).strip() == english or PORTUGUESE_OPTIONS.get(shown) == english, shown


def test_ai_seat_names_read_in_each_language_and_are_stored_in_english() -> None:
    """An AI seat is named after its level as the lobby offers it ("Add Easy AI" seats "Easy AI 1",
    issue 46 item 12); names stored before that (``Greedy bot 2``) read the same way."""
    name = ai_name("greedy", 2)
    assert name == "Easy AI 2" and localise(name, "pt-BR") == "IA Fácil 2"
    stored = str(name)  # what the database holds
    again = seat_name(stored, "greedy", None)
    assert isinstance(again, Text) and localise(again, "pt-BR") == "IA Fácil 2"
    assert localise(seat_name("Strong AI 1", "strong", None), "pt-BR") == "IA Forte 1"
    assert seat_name("Greedy bot 2", "greedy", None) == "Easy AI 2"  # stored by an older version
    assert seat_name("Strong bot 1", "ladder_strong", None) == "Strong AI 1"
    assert seat_name("Easy AI 2", "greedy", 42) == "Easy AI 2"  # a human called that keeps it
    assert not isinstance(seat_name("Easy AI 2", "greedy", 42), Text)
    replaced = seat_name("Easy AI (for Ana (2))", "greedy", None)  # a seat the host handed over
    assert replaced == "Easy AI (for Ana (2))"
    assert localise(replaced, "pt-BR") == "IA Fácil (no lugar de Ana (2))"
    assert seat_name("Greedy bot (for Ana)", "greedy", None) == "Easy AI (for Ana)"
    assert not isinstance(seat_name("Easy AI for Ana", "greedy", None), Text)


def test_joined_and_notation_survive_pickling_and_read_in_each_language() -> None:
    import pickle

    line = Joined((texts.MASTERMIND_NAME, Notation("take white 3")), texts.AND)
    assert line == "The mastermind and take white 3"
    assert localise(line, "pt-BR") == "O Mentor e pegar branco 3"
    assert localise(pickle.loads(pickle.dumps(line)), "pt-BR") == "O Mentor e pegar branco 3"


def test_images_draw_an_ai_seats_name_in_their_language() -> None:
    from bot.core.rendering.render import _shown

    names = [ai_name("strong", 1), "Ana"]
    assert _shown(names, "pt-BR") == ["IA Forte 1", "Ana"]
    assert _shown(names, None) == ["Strong AI 1", "Ana"]
    assert all(type(name) is str for name in _shown(names, "pt-BR"))


def test_piece_names_are_the_images_own() -> None:
    """A piece is called the same in a sentence as on an image, in every language."""
    for locale, catalogue in catalogues().items():
        drawn = catalogue.get("images", {}).get("SHAPE_NAMES", {})
        for shape in SHAPES:
            if shape.value in drawn:
                assert localise(texts.SHAPE_NAMES[shape.value], locale) == drawn[shape.value], shape


def test_a_face_down_tile_leaving_play_is_not_named_in_either_language() -> None:
    """Finesse: the tiles that leave at the end of rounds 1–2 are face down and never revealed; the
    post says a face-down tile left play, in English and in Portuguese, and names the live one."""
    gone = event_text(ev.FinesseTileRemoved(None, ""), NAMES)
    assert gone == "A face-down Finesse tile left play."
    assert localise(gone, "pt-BR") == "Uma ficha Finesse virada para baixo saiu de jogo."
    live = event_text(ev.FinesseTileRemoved(None, "C3 (complete a puzzle)"), NAMES)
    assert live == "A face-down Finesse tile left play. Live now: C3 (complete a puzzle)."
    assert localise(live, "pt-BR") == (
        "Uma ficha Finesse virada para baixo saiu de jogo. Ativa agora: C3 (completar um quebra-cabeça)."
    )


def test_finesse_tiles_and_credits_read_in_each_language() -> None:
    """Every tile's name and rule match the engine's English, and read in Portuguese; every reason
    a credit is earned for in a Finesse game reads in Portuguese too."""
    from bot.core.wording.event_texts import credit_reason, finesse_rule, finesse_tile, finesse_tile_text
    from engine.expansions import finesse

    for tile in finesse.TILES.values():
        assert finesse_tile(tile) == f"{tile.id} ({tile.label})"
        assert finesse_rule(tile) == tile.text
        rule = localise(finesse_rule(tile), "pt-BR")
        assert rule.startswith(("Rosa: +", "Azul: +")) and "crédito" in rule, rule
        assert finesse_tile_text(f"{tile.id} ({tile.label})") == finesse_tile(tile)
    assert localise(finesse_rule(finesse.TILES["B1"]), "pt-BR") == (
        "Azul: +1 crédito por I4 ou L4 no seu suprimento ou nos seus quebra-cabeças incompletos, no fim "
        "do seu turno.")
    assert localise(finesse_tile(finesse.TILES["C3"]), "pt-BR") == "C3 (completar um quebra-cabeça)"
    reasons = 0
    for options in (Options.for_players(3, finesse=True), Options.for_players(2, finesse=True, ghost=True)):
        for _state, _action, events in played(options):
            for event in events:
                if isinstance(event, ev.CreditEarned):
                    shown = credit_reason(event.reason)
                    assert shown == event.reason and isinstance(shown, Text), event.reason
                    assert localise(shown, "pt-BR") != event.reason
                    reasons += 1
    assert reasons > 10
    shape = engine.Shape
    reason_of = CreditReason
    for reason, english in (
        (reason_of("unfinished", "W07"), "unfinished puzzle W07"),
        (reason_of("owns", shape.L4), "owns an L4 (L tetromino)"),
        (reason_of("placed", shape.T4), "placed a T4 (T tetromino)"),
        (reason_of("placed_master", shape.O4), "placed an O4 (square tetromino) with Master"),
        (reason_of("completed", "B02"), "completed B02"), (reason_of("took", "W03"), "took W03"),
        (reason_of("upgraded", shape.I4), "upgraded to an I4 (straight tetromino)"),
        (reason_of("level1"), "took a level-1 piece (an Upgrade)"),
        (reason_of("levelled", shape.P5), "levelled up to a P5 (P pentomino)"),
    ):
        assert reason == english
        assert credit_reason(reason) == reason and isinstance(credit_reason(reason), Text), reason
    assert localise(credit_reason(reason_of("placed_master", shape.O4)), "pt-BR") == (
        "colocou um O4 (tetraminó quadrado) com a Ação de Mestre")
    assert credit_reason("an English phrase") == "an English phrase"  # not a CreditReason: as it is
    import pickle

    kept = pickle.loads(pickle.dumps(reason_of("owns", shape.L4)))
    assert (kept.kind, kept.subject) == ("owns", shape.L4)


def test_a_level_up_names_its_pieces_with_the_right_article() -> None:
    """Issue 31, item 16: "levelled up an I3 to an L4" (an I3, an L4, a T4), never "a I3"."""
    event = ev.LevelledUp(0, engine.Shape.I3, engine.Shape.L4)
    english = event.describe(NAMES)
    assert english == "Ana levelled up an I3 (straight tromino) to an L4 (L tetromino)."
    assert event_text(event, NAMES) == english
    to_t4 = ev.LevelledUp(0, engine.Shape.I3, engine.Shape.T4).describe(NAMES)
    assert to_t4.endswith("to a T4 (T tetromino).")
    portuguese = str(localise(event_text(event, NAMES), "pt-BR"))
    assert " um um " not in portuguese and portuguese.count(" um ") == 2, portuguese
