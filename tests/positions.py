"""Helpers for building game positions by hand and for playing games in tests.

The rule-case suite sets up a position directly — a player holding particular puzzles and pieces,
a particular reserve — rather than playing towards it. Everything here returns plain
:class:`engine.GameState` values built with ``evolve``/``dataclasses.replace``, so a test reads as
"this position, this action, this outcome".

Small test cards (ids starting with ``T``) have simple recesses so that a test can say exactly which
cells are filled. They are added to ``state.cards`` on demand by :func:`with_player`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

import pytest

from engine import (
    Action,
    DrawPuzzle,
    EndFinishing,
    GameState,
    Options,
    Phase,
    Place,
    PuzzleCard,
    TakeLevelOne,
    TakePuzzle,
    Upgrade,
    apply,
    legal_actions,
    master_options,
    new_game,
    parse_action,
    serialisation,
)
from engine.cards import Colour, parse_reward
from engine.events import Event
from engine.pieces import BASE_SHAPES, SHAPE_COUNT, SHAPES, parse_cells, parse_shape, placements_in
from engine.rng import Rng
from engine.state import DonePuzzle, LineClearTable, OpenPuzzle, Placed, RowsTable, SoloTable
from engine.variants import variant_for

Counts = tuple[int, ...]


# -- cards -----------------------------------------------------------------------------------------


def card(card_id: str, cells: str, *, points: int = 1, reward: str = "1",
         colour: Colour = Colour.WHITE) -> PuzzleCard:
    """A puzzle card whose recess is the named cells, e.g. ``card("T1", "A1 B1")``."""
    return PuzzleCard(card_id, colour, points, parse_reward(reward), parse_cells(cells))


TEST_CARDS: dict[str, PuzzleCard] = {
    c.id: c
    for c in (
        card("TM", "A1", points=0, reward="2"),                 # one cell
        card("TD", "A1 B1", points=1, reward="I3"),             # a domino's recess
        card("TD2", "C3 C4", points=1, reward="L3"),            # another domino recess
        card("TL", "A1 A2 B2", points=2, reward="I4"),          # an L3's recess
        card("TI", "A1 B1 C1", points=2, reward="L3"),          # an I3's recess
        card("TO", "A1 B1 A2 B2", points=2, reward="T4"),       # 2×2: an O4 or two dominoes
        card("TS", "B1 C1 A2 B2", points=1, reward="S4"),       # an S4's recess
        card("TB", "A1 B1 C1 D1 A2 B2 C2 D2", points=3, reward="1", colour=Colour.BLACK),
        card("TB2", "A1 B1 C1 A2 B2 C2", points=4, reward="2", colour=Colour.BLACK),
    )
}


# -- pieces ----------------------------------------------------------------------------------------


def pieces(spec: str | Mapping[str, int] = "") -> Counts:
    """Piece counts from text like ``"1 1 2 L3"`` (one code per piece) or ``{"1": 2, "L3": 1}``."""
    values = [0] * SHAPE_COUNT
    if isinstance(spec, str):
        for code in spec.split():
            values[parse_shape(code).index] += 1
    else:
        for code, n in spec.items():
            values[parse_shape(code).index] += n
    return tuple(values)


def count(counts: Counts, code: str) -> int:
    return counts[parse_shape(code).index]


def empty_reserve() -> Counts:
    return (0,) * SHAPE_COUNT


# -- building positions ---------------------------------------------------------------------------


def game(players: int = 2, seed: int = 1, **options: object) -> GameState:
    """A fresh game from the shipped catalogue. ``players=1`` means Solo."""
    if players == 1:
        options.setdefault("variant", "solo")
    return new_game(Options(players=players, **options), seed=seed)  # type: ignore[arg-type]


def solo(seed: int = 1, **options: object) -> GameState:
    return game(1, seed, **options)


def with_cards(state: GameState, cards: Iterable[PuzzleCard]) -> GameState:
    merged = dict(state.cards)
    for c in cards:
        merged[c.id] = c
    return state.evolve(cards=merged)


PuzzleSpec = str | tuple[str, Sequence[tuple[str, str]]]


def open_puzzle(spec: PuzzleSpec) -> OpenPuzzle:
    """``"TD"`` or ``("TO", [("2", "A1 B1")])``: a card id and the pieces already on it."""
    if isinstance(spec, str):
        return OpenPuzzle(spec)
    card_id, placed = spec
    return OpenPuzzle(card_id, tuple(Placed(parse_shape(s), parse_cells(c)) for s, c in placed))


def with_player(
    state: GameState,
    seat: int,
    *,
    supply: str | Mapping[str, int] | Counts | None = None,
    puzzles: Sequence[PuzzleSpec] | None = None,
    completed: Sequence[str] | None = None,
    rebalance: bool = True,
    **changes: object,
) -> GameState:
    """Give ``seat`` exactly this supply, these unfinished puzzles and these completed cards.

    Test cards (``T…``) used are added to the game's cards. With ``rebalance`` the reserve is
    recomputed so that every piece is still accounted for (reserve + held = reserve size).
    """
    player = state.players[seat]
    if supply is not None:
        changes["supply"] = supply if isinstance(supply, tuple) else pieces(supply)
    used: list[str] = []
    if puzzles is not None:
        opened = tuple(open_puzzle(p) for p in puzzles)
        changes["puzzles"] = opened
        used += [p.card for p in opened]
    if completed is not None:
        changes["completed"] = tuple(DonePuzzle(c) for c in completed)
        used += list(completed)
    state = with_cards(state, [TEST_CARDS[c] for c in used if c in TEST_CARDS])
    players = list(state.players)
    players[seat] = replace(player, **changes)  # type: ignore[arg-type]
    state = state.evolve(players=tuple(players))
    return rebalanced(state) if rebalance else state


def held(state: GameState) -> Counts:
    """Pieces of each shape held by players: supplies, unfinished puzzles, Finishing-Touch cards."""
    totals = [0] * SHAPE_COUNT
    for player in state.players:
        for i, n in enumerate(player.supply):
            totals[i] += n
        for puzzle in player.puzzles:
            for piece in puzzle.pieces:
                totals[piece.shape.index] += 1
        for done in player.completed:
            for piece in done.pieces:
                totals[piece.shape.index] += 1
    return tuple(totals)


def piece_totals(state: GameState) -> Counts:
    """Reserve plus everything held: equals the reserve size for every base shape."""
    return tuple(r + h for r, h in zip(state.reserve, held(state), strict=True))


def full_counts(state: GameState) -> Counts:
    """The whole stock of each shape: the ``reserve`` option for the base shapes, 10 of each
    ghost with the Ghost Piece expansion (0 without)."""
    ghosts = 10 if state.options.ghost else 0
    return tuple(state.options.reserve if s in BASE_SHAPES else ghosts for s in SHAPES)


def rebalanced(state: GameState) -> GameState:
    """Set the reserve so that reserve + held pieces = the reserve size of each shape."""
    reserve = tuple(max(0, f - h) for f, h in zip(full_counts(state), held(state), strict=True))
    return state.evolve(reserve=reserve)


def with_reserve(state: GameState, spec: str | Mapping[str, int] | Counts) -> GameState:
    """Set the reserve exactly (not rebalanced: pieces are simply out of the game)."""
    return state.evolve(reserve=spec if isinstance(spec, tuple) else pieces(spec))


def without_shapes(state: GameState, *codes: str) -> GameState:
    """The reserve with no pieces left of these shapes."""
    reserve = list(state.reserve)
    for code in codes:
        reserve[parse_shape(code).index] = 0
    return state.evolve(reserve=tuple(reserve))


def with_rows(state: GameState, **fields: object) -> GameState:
    """Replace fields of the base game's market (white_row, black_deck …), adding test cards."""
    table = state.table
    assert isinstance(table, RowsTable)
    ids = [c for value in fields.values() for c in value if c]  # type: ignore[attr-defined]
    state = with_cards(state, [TEST_CARDS[c] for c in ids if c in TEST_CARDS])
    converted = {k: tuple(v) for k, v in fields.items()}  # type: ignore[call-overload]
    return state.evolve(table=replace(table, **converted))


def with_line_clear_table(state: GameState, **fields: object) -> GameState:
    """Replace fields of Line Clear's market (left_white, black_deck, markers …), adding test
    cards."""
    table = state.table
    assert isinstance(table, LineClearTable)
    ids = [c for k, v in fields.items() if k not in {"markers", "receipts"} for c in v if c]  # type: ignore[attr-defined]
    state = with_cards(state, [TEST_CARDS[c] for c in ids if c in TEST_CARDS])
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return state.evolve(table=replace(table, **converted))


def with_solo_table(state: GameState, **fields: object) -> GameState:
    table = state.table
    assert isinstance(table, SoloTable)
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return state.evolve(table=replace(table, **converted))


# -- applying ---------------------------------------------------------------------------------------


def as_action(action: Action | str) -> Action:
    return parse_action(action) if isinstance(action, str) else action


def play(state: GameState, *actions: Action | str) -> GameState:
    """Apply actions (values or text) in order and return the final state."""
    for action in actions:
        state = apply(state, as_action(action)).state
    return state


def play_events(state: GameState, *actions: Action | str) -> tuple[GameState, list[Event]]:
    """Like :func:`play`, also returning every event in order."""
    events: list[Event] = []
    for action in actions:
        outcome = apply(state, as_action(action))
        state = outcome.state
        events.extend(outcome.events)
    return state, events


def end_turn(state: GameState) -> GameState:
    """Spend the current player's remaining actions on level-1 pieces (turn passes on)."""
    seat, turn = state.current, state.turn
    while state.turn == turn and state.phase is Phase.PLAY and state.current == seat:
        action = legal_actions(state)[0] if state.pending else TakeLevelOne()
        state = apply(state, action).state
    return state


def at_turn_start(state: GameState, seat: int) -> GameState:
    """The same position with ``seat`` to play, with three fresh actions."""
    return state.evolve(current=seat, actions_left=3, master_used=False, black_taken=False)


# -- progress-biased random play --------------------------------------------------------------------


def stuck(state: GameState) -> GameState:
    """Seat 0 at its turn's start with four puzzles (no room), an empty supply, an empty reserve
    and empty decks: no action is possible."""
    state = with_player(at_turn_start(state, 0), 0, supply="", puzzles=["TD", "TL", "TI", "TO"])
    state = with_rows(state, white_deck=[], black_deck=[])
    return with_reserve(state, empty_reserve())


def _completes(state: GameState, place: Place) -> bool:
    player = state.players[state.current]
    puzzle = player.puzzle(place.card)
    assert puzzle is not None
    return state.cards[place.card].recess & ~puzzle.filled == place.mask


def _isolated_cells(free: int) -> int:
    """Free cells with no free neighbour: holes only a monomino can fill."""
    n = 0
    for i in range(25):
        if free >> i & 1:
            col, row = i % 5, i // 5
            neighbours = 0
            if col > 0:
                neighbours |= 1 << (i - 1)
            if col < 4:
                neighbours |= 1 << (i + 1)
            if row > 0:
                neighbours |= 1 << (i - 5)
            if row < 4:
                neighbours |= 1 << (i + 5)
            if not free & neighbours:
                n += 1
    return n


def _good_placement(state: GameState, places: list[Place], rng: Rng) -> Place:
    """A big piece that leaves as few one-cell holes as possible."""
    player = state.players[state.current]

    def badness(place: Place) -> tuple[int, int]:
        puzzle = player.puzzle(place.card)
        assert puzzle is not None
        free = state.cards[place.card].recess & ~puzzle.filled & ~place.mask
        return (_isolated_cells(free), -place.shape.size)

    best = min(badness(p) for p in places)
    pool = [p for p in places if badness(p) == best]
    return pool[rng.below(len(pool))]


def _fits_something(state: GameState, take: TakePuzzle) -> bool:
    card_id = variant_for(state.options.variant).card_for_take(state, take)
    assert card_id is not None
    recess = state.cards[card_id].recess
    supply = state.players[state.current].supply
    return any(supply[s.index] and placements_in(s, recess) for s in SHAPES)


def progress_action(state: GameState, rng: Rng, *, supply_cap: int = 6) -> Action:
    """A random legal action biased towards making progress, so random games actually end.

    Prefers completing a puzzle, then placing (or Master), keeps one to three puzzles open, takes
    black puzzles often (that is what ends the game), and only takes or upgrades pieces while the
    supply is small. Purely random play hoards pieces and rarely finishes a game.
    """
    actions = legal_actions(state)
    if state.pending:
        return actions[rng.below(len(actions))]
    if state.phase is Phase.FINISHING:
        places = [a for a in actions if isinstance(a, Place)]
        if places and rng.below(3):
            return places[rng.below(len(places))]
        return EndFinishing()
    player = state.players[state.current]
    places = [a for a in actions if isinstance(a, Place)]
    completing = [p for p in places if _completes(state, p)]
    if completing:
        return completing[rng.below(len(completing))]
    options = master_options(state)
    if options is not None and rng.below(3) == 0:
        return options.sample(rng)
    if places and rng.below(5):
        return _good_placement(state, places, rng)
    takes = [a for a in actions if isinstance(a, (TakePuzzle, DrawPuzzle))]
    if not places and takes:
        fitting = [a for a in takes if isinstance(a, TakePuzzle) and _fits_something(state, a)]
        if fitting:
            return fitting[rng.below(len(fitting))]
    if takes and len(player.puzzles) < 1 + rng.below(3):
        black = [a for a in takes if a.colour is Colour.BLACK]
        pool = black if black and rng.below(3) == 0 else takes
        return pool[rng.below(len(pool))]
    exchanges = [a for a in actions if isinstance(a, Upgrade)]
    if not places and exchanges and (player.supply_size >= supply_cap or len(player.puzzles) == 4):
        # Stuck: the pieces held fit nowhere. Trade one for a smaller piece, which fits more holes.
        down = [a for a in exchanges if a.take.level < a.give.level] or exchanges
        return down[rng.below(len(down))]
    upgrades = [a for a in exchanges if a.take.level > a.give.level]
    if upgrades and rng.below(2):
        return upgrades[rng.below(len(upgrades))]
    if player.supply_size < supply_cap and TakeLevelOne() in actions:
        return TakeLevelOne()
    if takes:
        return takes[rng.below(len(takes))]
    if places:
        return places[rng.below(len(places))]
    return actions[rng.below(len(actions))] if actions else options.sample(rng)  # type: ignore[union-attr]


def play_out(state: GameState, seed: int, *, max_actions: int = 2000) -> tuple[GameState, list[Action]]:
    """Play with :func:`progress_action` until the game is over (or ``max_actions``)."""
    rng = Rng(seed)
    log: list[Action] = []
    while not state.is_over and len(log) < max_actions:
        action = progress_action(state, rng)
        state = apply(state, action).state
        log.append(action)
    return state, log


# -- refusals ---------------------------------------------------------------------------------------


def assert_refused(state: GameState, action: Action | str, error: type[Exception], *fragments: str,
                   player: int | None = None) -> str:
    """The action raises exactly ``error`` (or a subclass) with a readable message naming the
    ``fragments``, and the state — compared by value and by its JSON text — is unchanged."""
    before = serialisation.dumps(state)
    with pytest.raises(error) as caught:
        apply(state, as_action(action), player=player)
    message = str(caught.value)
    assert message and (message[0].isupper() or message[0] in "'\""), message
    assert message.rstrip().endswith((".", "!", ")")), message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), (fragment, message)
    assert serialisation.dumps(state) == before
    return message
