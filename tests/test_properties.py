"""Property tests over random legal games (hypothesis chooses the table and the seeds).

Games are played by a seeded :class:`engine.rng.Rng` mixing the progress-biased chooser of
tests/positions.py (so games reach the end, Finishing Touches included) with uniformly random legal
actions and random Master combinations (so odd corners get visited). After every action:

* pieces are conserved: reserve + supplies + pieces on unfinished puzzles + pieces on cards
  completed in Finishing Touches = the reserve size, per shape (Solo locks and the mastermind's
  pieces are separate counters and never grow);
* every piece lies inside its puzzle's recess, is a real placement of its shape, and no two overlap;
* every card is in exactly one place;
* scores equal the sum recomputed from the completed cards and the penalties;
* the state survives JSON exactly, and replaying the action log from the initial state gives it back.

Separately: every listed legal action is accepted, and random (mostly illegal) actions are either
accepted — and then were legal — or refused with an IllegalActionError that leaves the state as it was.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from positions import full_counts, game, piece_totals, progress_action

from engine import (
    Action,
    DrawPuzzle,
    EndFinishing,
    GameState,
    IllegalActionError,
    Master,
    Options,
    Pass,
    Phase,
    Place,
    Recycle,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
    apply,
    initial_state,
    iter_legal_actions,
    legal_actions,
    master_options,
    new_game,
    parse_action,
    replay,
    score_lines,
    serialisation,
)
from engine.actions import GhostSplit
from engine.cards import Colour
from engine.events import CreditPaidFinishing
from engine.expansions.finesse import BANK
from engine.expansions.finesse import view as finesse_view
from engine.pieces import BASE_SHAPES, PLACEMENTS, SHAPES, Shape, shape_of_mask
from engine.rng import Rng
from engine.state import MAX_UNFINISHED, LineClearTable, RowsTable, SoloTable

# (players, reserve, ghost): Solo, the base game, Line Clear (5-6), with and without Ghost Piece.
TABLES = st.sampled_from([
    (1, 10, False), (2, 10, False), (2, 15, False), (3, 10, False), (4, 10, False), (4, 15, False),
    (1, 10, True), (3, 10, True), (5, 10, True), (5, 10, False), (6, 10, True), (6, 15, True),
    # (…, finesse): the Finesse expansion on every kind of table
    (1, 10, False, True), (2, 10, False, True), (3, 10, True, True), (4, 15, False, True),
    (5, 10, True, True), (6, 10, True, True),
])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _new(table: tuple[int, ...], seed: int, penalty: bool = True) -> GameState:
    players, reserve, ghost, *rest = table
    finesse = bool(rest and rest[0])
    return new_game(
        Options.for_players(
            players, ghost=bool(ghost), reserve=reserve, unfinished_penalty=penalty, finesse=finesse,
        ),
        seed=seed,
    )


def _seat(state: GameState, rng: Rng) -> int:
    """Who acts next: any seat with a running turn (Line Clear's two holders interleave at random)."""
    seats = state.acting_seats
    return seats[rng.below(len(seats))] if len(seats) > 1 else seats[0]


def _choose(state: GameState, rng: Rng, randomness: int) -> Action:
    """Progress-biased, but ``randomness`` in 10 times a uniformly random legal action (or Master),
    for the focused seat (``state.current``)."""
    if randomness and rng.below(10) < randomness:
        actions = legal_actions(state)
        options = master_options(state)
        if options is not None and (not actions or rng.below(4) == 0):
            return options.sample(rng)
        return actions[rng.below(len(actions))]
    return progress_action(state, rng)


# -- invariants -------------------------------------------------------------------------------------


def _card_locations(state: GameState) -> list[str]:
    places: list[str] = []
    table = state.table
    if isinstance(table, RowsTable):
        for cards in (table.white_deck, table.black_deck, table.white_row, table.black_row):
            places += [c for c in cards if c is not None]
    elif isinstance(table, LineClearTable):
        for cards in (table.white_deck, table.black_deck, table.left_white, table.left_black,
                      table.right_white, table.right_black):
            places += [c for c in cards if c is not None]
    else:
        assert isinstance(table, SoloTable)
        places += list(table.deck) + [c for c in table.grid if c is not None] + list(table.mastermind_pile)
    for player in state.players:
        places += [p.card for p in player.puzzles] + [d.card for d in player.completed]
    return places


def check_invariants(state: GameState, in_the_game: set[str], discarded: set[str], lock_budget: int) -> None:
    """``in_the_game``: where the initial state's cards are (the same all game: worked out once)."""
    # pieces are conserved, and never negative
    assert piece_totals(state) == full_counts(state)
    assert min(state.reserve) >= 0
    assert all(min(p.supply) >= 0 for p in state.players)
    # pieces lie inside recesses, are real placements, and never overlap
    for player in state.players:
        assert len(player.puzzles) <= MAX_UNFINISHED
        for puzzle in player.puzzles:
            recess = state.cards[puzzle.card].recess
            filled = 0
            for piece in puzzle.pieces:
                assert shape_of_mask(piece.mask) is piece.shape
                assert piece.mask & ~recess == 0, "piece outside the recess"
                assert piece.mask & filled == 0, "pieces overlap"
                filled |= piece.mask
            assert filled != recess, "a full puzzle was not completed"
        for done in player.completed:
            if done.finishing:
                masks = [p.mask for p in done.pieces]
                assert sum(m.bit_count() for m in masks) == state.cards[done.card].recess.bit_count()
                union = 0
                for m in masks:
                    union |= m
                assert union == state.cards[done.card].recess
            else:
                assert done.pieces == ()
        if player.removed:
            assert player.supply_size == 0 and player.puzzles == ()
    # every card is in exactly one place (or discarded with a removed player)
    places = _card_locations(state)
    counts = Counter(places)
    assert max(counts.values()) == 1, [c for c, n in counts.items() if n > 1]
    assert set(places) | discarded == in_the_game  # boxed cards stay out
    # Solo counters never grow and never go negative
    if isinstance(state.table, SoloTable):
        assert min(state.table.locks) >= 0 and state.table.mastermind_supply >= 0
        assert sum(state.table.locks) + state.table.mastermind_supply <= lock_budget
    # the turn structure
    if state.phase is Phase.PLAY:
        # a turn whose last action is done waits only for its player's pending decisions, or
        # (Finesse) is held open while that player can pay for an Insert
        def spent_ok(seat: int) -> bool:
            return state.decision_for(seat) is not None or seat in state.held

        assert (0 if spent_ok(state.current) else 1) <= state.actions_left
        assert not state.players[state.current].removed
        assert state.current in state.acting_seats
        for seat in state.acting_seats:
            assert (0 if spent_ok(seat) else 1) <= state.focused(seat).actions_left
        for seat in state.held:
            fv = finesse_view(state)
            assert fv is not None and fv.active[seat] >= 2 and state.focused(seat).actions_left == 0
        if isinstance(state.table, LineClearTable):
            assert [t.seat for t in state.turns] == list(state.table.markers)
            assert len(set(state.table.markers)) == 2
    else:
        assert state.turns == () and state.held == ()
    # Finesse credits are conserved (bank + every player's) and never negative
    fv = finesse_view(state)
    if fv is not None:
        assert fv.bank + sum(fv.active) + sum(fv.inactive) == BANK
        assert fv.bank >= 0 and min(fv.active) >= 0 and min(fv.inactive) >= 0
    # pending decisions belong to a seat whose turn it is (either holder's in Line Clear), and
    # each decision being asked offers a real choice (later ones are brought up to date first)
    for decision in state.pending:
        assert decision.seat in state.acting_seats or (
            not state.turns and decision.seat == state.current
        )
        if decision is state.decision_for(decision.seat):
            assert len(decision.options) >= 2


def check_scores(state: GameState, finishing_placed: list[int]) -> None:
    for line in score_lines(state):
        player = state.players[line.seat]
        points = sum(state.cards[d.card].points for d in player.completed)
        unfinished = sum(state.cards[p.card].points for p in player.puzzles)
        if not state.options.unfinished_penalty:
            unfinished = 0
        assert player.finishing_pieces == finishing_placed[line.seat]
        assert line.completed_points == points
        assert line.total == points - finishing_placed[line.seat] - unfinished
        assert line.completed_count == len(player.completed)
        assert line.supply_left == player.supply_size


def play_checked(state: GameState, rng: Rng, randomness: int, limit: int) -> tuple[GameState, list[Action]]:
    initial = state
    log: list[Action] = []
    finishing_placed = [0] * len(state.players)
    lock_budget = 0
    if isinstance(state.table, SoloTable):
        lock_budget = sum(state.table.locks) + state.table.mastermind_supply
    seats: list[int] = []
    in_the_game = set(_card_locations(initial_state(state)))
    _survives_json(state, cards=True)
    while not state.is_over and len(log) < limit:
        seat = _seat(state, rng)
        action = _choose(state.focused(seat), rng, randomness)
        if state.phase is Phase.FINISHING and isinstance(action, Place):
            finishing_placed[seat] += 1
        outcome = apply(state, action, player=seat)
        state = outcome.state
        # Finesse: a Finishing Touch paid with a credit costs no point
        finishing_placed[seat] -= sum(isinstance(e, CreditPaidFinishing) for e in outcome.events)
        log.append(action)
        seats.append(seat)
        check_invariants(state, in_the_game, set(), lock_budget)
        check_scores(state, finishing_placed)
        _survives_json(state, cards=False)
    _survives_json(state, cards=True)
    assert replay(initial, log, seats) == state
    stored = serialisation.loads(serialisation.dumps(initial))
    replayed = replay(stored, [*map(_reparse, log)], seats)
    assert serialisation.dumps(replayed) == serialisation.dumps(state)
    return state, log


def _survives_json(state: GameState, *, cards: bool) -> None:
    """The state comes back from its JSON exactly. No action changes the cards, so between the
    first and the last state of a game they are left out (named by their content key, as the
    bot stores states) instead of being written and read again after every action."""
    text = serialisation.dumps(state, cards=cards)
    again = serialisation.loads(text, None if cards else state.cards)
    assert again == state and serialisation.dumps(again, cards=cards) == text


def _reparse(action: Action) -> Action:
    return parse_action(str(action))


@settings(max_examples=25, deadline=None)
@given(table=TABLES, seed=SEEDS, randomness=st.integers(0, 3), penalty=st.booleans())
def test_random_games_keep_every_invariant(table, seed: int, randomness: int, penalty: bool) -> None:
    """Conservation of pieces, no overlaps, cards in one place, scores, JSON and replay — after every
    action of a random game (progress-biased so that many reach Finishing Touches and the end)."""
    state = _new(table, seed, penalty)
    play_checked(state, Rng(seed), randomness, limit=250)


def test_many_seeded_games_reach_the_end_with_invariants_intact() -> None:
    """The same checks over whole games, for every table size, played to the end (seeds for which
    the progress-biased chooser is known to finish: random play can deadlock, with every monomino
    stuck on puzzles that need one, which is a legal if unlucky position)."""
    for players, seed in ((1, 1), (1, 7), (2, 1), (2, 4), (3, 5), (3, 10), (4, 1), (4, 3)):
        state, _ = play_checked(game(players, seed=seed), Rng(seed), 0, limit=1500)
        assert state.is_over, (players, seed)
    for players, seed, ghost in ((5, 1, True), (5, 3, False), (6, 3, True), (2, 1, True), (1, 1, True)):
        state, _ = play_checked(_new((players, 10, ghost), seed), Rng(seed), 0, limit=3000)
        assert state.is_over, (players, seed, ghost)


# -- legal and illegal actions ---------------------------------------------------------------------


def _random_action(state: GameState, rng: Rng) -> Action:
    """An arbitrary action, mostly illegal: any kind, any parameters, any card in the game."""
    cards = sorted(state.cards) + ["NOPE"]
    colours = [Colour.WHITE, Colour.BLACK, None]
    kind = rng.below(10)
    if kind == 9:
        ghost = [Shape.P5, Shape.U5, Shape.L5, Shape.O4][rng.below(4)]
        pieces = tuple(BASE_SHAPES[rng.below(len(BASE_SHAPES))] for _ in range(1 + rng.below(3)))
        placements = tuple(_random_place(state, rng, cards) for _ in range(rng.below(3)))
        return GhostSplit(ghost, pieces, placements)
    if kind == 0:
        return TakePuzzle(colours[rng.below(3)], rng.below(11))
    if kind == 1:
        return DrawPuzzle(colours[rng.below(3)])
    if kind == 2:
        return TakeLevelOne()
    if kind == 3:
        return Upgrade(SHAPES[rng.below(len(SHAPES))], SHAPES[rng.below(len(SHAPES))])
    if kind in (4, 5):
        return _random_place(state, rng, cards)
    if kind == 6:
        return Master(tuple(_random_place(state, rng, cards) for _ in range(1 + rng.below(3))))
    if kind == 7:
        order = [1, 2, 3, 4]
        rng.shuffle(order)
        return Recycle(colours[rng.below(2)] or Colour.WHITE, tuple(order[: 2 + rng.below(3)]))
    return [Pass(), EndFinishing()][rng.below(2)]


def _random_place(state: GameState, rng: Rng, cards: list[str]) -> Place:
    player = state.players[state.current]
    mine = [p.card for p in player.puzzles]
    card = mine[rng.below(len(mine))] if mine and rng.below(4) else cards[rng.below(len(cards))]
    shape = BASE_SHAPES[rng.below(len(BASE_SHAPES))]
    if rng.below(8) == 0:
        return Place(card, shape, 1 + rng.below(1 << 25))      # usually not a piece at all
    masks = PLACEMENTS[shape]
    return Place(card, shape, masks[rng.below(len(masks))])


def _is_legal(state: GameState, action: Action) -> bool:
    if isinstance(action, GhostSplit) and action.placements:
        return action in set(iter_legal_actions(state))
    if isinstance(action, Master):
        options = master_options(state)
        if options is None:
            return False
        cards = [p.card for p in action.placements]
        listed = all(p.card in options.per_card and p in options.per_card[p.card] for p in action.placements)
        return listed and len(set(cards)) == len(cards) and options._fits(action.placements)
    return action in legal_actions(state)


@settings(max_examples=20, deadline=None)
@given(table=TABLES, seed=SEEDS)
def test_legal_actions_are_accepted_and_others_accepted_only_if_legal(table, seed: int) -> None:
    """legal.py vs apply: every listed legal action is accepted; a random action is either accepted —
    and then it was legal (listed, or a valid Master) — or refused with an IllegalActionError
    subclass and a message, leaving the state exactly as it was."""
    state = _new(table, seed)
    rng = Rng(seed ^ 0x5EED)
    for step in range(120):
        if state.is_over:
            break
        seat = _seat(state, rng)
        seen = state.focused(seat)
        if step % 6 == 0:
            for action in legal_actions(state, seat):
                apply(state, action, player=seat)
        # the state without its cards (named by content key), and the cards by value
        before = serialisation.dumps(state, cards=False), dict(state.cards)
        for _ in range(6):
            action = _random_action(seen, rng)
            try:
                apply(state, action, player=seat)
            except IllegalActionError as error:
                assert str(error)
                assert (serialisation.dumps(state, cards=False), state.cards) == before
            else:
                assert _is_legal(seen, action), str(action)
        state = apply(state, _choose(seen, rng, 2), player=seat).state


def test_small_positions_enumerate_every_master_and_all_are_accepted() -> None:
    """iter_legal_actions: in early positions of several games every Master combination is accepted
    and nothing listed is refused."""
    rng = Rng(11)
    for players in (1, 2, 3, 5):
        state = _new((players, 10, True), seed=players)
        for _ in range(40):
            masters = 0
            for action in iter_legal_actions(state):
                apply(state, action)
                masters += isinstance(action, Master)
                if masters > 300:
                    break
            state = apply(state, progress_action(state, rng)).state
            if state.phase is not Phase.PLAY:
                break
