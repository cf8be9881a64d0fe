"""Generate the default puzzle catalogue, ``engine/data/puzzles.json``.

How the set is made
-------------------
The cards are our own: nothing is copied from the printed game, only its *distribution*
(RULINGS.md "Components" and "Designing the catalogue") is matched. ``PLAN`` below lists every
card as (colour, points, reward, recess size, minimum pieces); it was written by hand so that

* the point values (white 0×11, 1×13, 2×8; black 3×8, 4×7, 5×5) and the reward counts per
  colour are exactly the published ones;
* net cells (recess size minus reward size) follow the published economy: white 0 pt → 0,
  1 pt → 1–2, 2 pt → 3–5; black 3 pt → 6–7, 4 pt → 10–11, 5 pt → 15 (16 cells, a monomino);
* big pieces go to small, cheap recesses and small pieces to big, valuable ones;
* the minimum number of pieces (place actions) matches the printed set class by class: white
  0 pt 1, 1 pt 1–2, 2 pt 2–3 (mostly 2); black 3 pt 2–3 (mostly 3), 4 pt 3–4, 5 pt 4
  (``engine.catalogue.MIN_PIECES_BY_CLASS``);
* a 0-point card's recess is its reward's shape (net 0, one piece): a domino or tetromino reward
  sits in its own shape, a tromino reward in either tromino. 11 such cards cannot all differ:
  the two domino cards are identical, like the printed set's pair (the only repeat allowed).

For each planned card a seeded random search then builds a recess: it drops exactly the planned
number of random pieces (dominoes, trominoes, tetrominoes; never a monomino) next to each other
on the 5×5 card, so the result is always connected and fillable without monominoes, and keeps
the first candidate that

* the solver cannot fill with fewer pieces than planned;
* is not a plain rectangle (from 5 cells up) and has no enclosed raised island;
* is not the same card as an earlier one up to rotation/reflection (but for the domino pair);
  from 5 cells up its silhouette is new to the whole set. (There are only 8 connected shapes of
  2–4 cells, so the 11 zero-point cards must reuse silhouettes: they then differ by reward.)

The Ghost Piece expansion's 24 cards (``GHOST_PLAN``: 12 white rewarding a ghost, 4 P, 4 U, 4 L;
12 black: 4 ↑, 4 ⇈, 4 ghost) follow the same net-cell economy, a ghost reward worth its 5 cells and
an arrow one cell per level, and are searched the same way from their own seed, with one
exception: a 0-point ghost card's recess is exactly its reward's pentomino (net 0, like the base
0-point cards), even when a base card already uses that silhouette. They are ids W33–W44 and
B21–B32. They were first searched after an earlier base set (``FIRST_BASE_PLAN``), avoiding its
recesses; to keep them exactly as published, that search is replayed (not shipped) to reserve the
same recesses, the expansion is searched next, and the shipped base set is searched last,
avoiding the expansion's silhouettes.

The fixed seed makes the output deterministic. ``--check`` regenerates the set and verifies it
equals the committed file, and that the checker finds nothing to note but the 0-point domino pair.

Usage: ``python tools/make_catalogue.py [--check] [--out PATH]``
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # runnable as a plain script from anywhere
    sys.path.insert(0, str(ROOT))

from engine.cards import Colour, LevelUp, PuzzleCard, Reward, parse_reward  # noqa: E402
from engine.catalogue import (  # noqa: E402
    MIN_PIECES_BY_CLASS,
    MIN_PIECES_RANGE,
    PHOENIX_MIN_PIECES,
    Catalogue,
    check_catalogue,
    dumps_catalogue,
    parse_catalogue,
)
from engine.pieces import (  # noqa: E402
    BASE_SHAPES,
    FULL_MASK,
    GRID,
    PLACEMENTS,
    Shape,
    canonical_form,
    is_connected,
)
from engine.solver import fillable_without_monominoes, min_pieces  # noqa: E402

SEED = 20260429
GHOST_SEED = 20261130
PACKS_SEED = 20261201
OUTPUT = ROOT / "engine" / "data" / "puzzles.json"
NAME = "Project L Discord: original base set"
DESCRIPTION = (
    "32 white and 20 black puzzles of our own design with the published card distribution "
    "and economy, and 12 white + 12 black Ghost Piece expansion puzzles (ghost and level-up "
    "rewards) on the same economy; 1 white + 2 black Ambassador Pack puzzles and 7 black Phoenix "
    "puzzles (6 points, 5 pieces at least). Made by tools/make_catalogue.py."
)
MAX_ATTEMPTS = 20_000

W, B = Colour.WHITE, Colour.BLACK
# (colour, points, reward code, recess size, minimum pieces) for every card, in id order.
# Where the size allows a choice, the minimum number of pieces is varied on purpose so that
# cards of the same value are not all equally hard.
PLAN: list[tuple[Colour, int, str, int, int]] = [
    # White 0 pt: the recess is exactly the reward's shape (net 0), so one piece fills it; a
    # tromino reward may sit in the other tromino's recess, a tetromino only in its own. The two
    # domino cards are identical, like the printed set's pair.
    (W, 0, "2", 2, 1), (W, 0, "2", 2, 1), (W, 0, "I3", 3, 1), (W, 0, "I3", 3, 1),
    (W, 0, "L3", 3, 1), (W, 0, "L3", 3, 1), (W, 0, "I4", 4, 1), (W, 0, "O4", 4, 1),
    (W, 0, "T4", 4, 1), (W, 0, "L4", 4, 1), (W, 0, "S4", 4, 1),
    # White 1 pt: net 1-2.
    (W, 1, "1", 3, 1), (W, 1, "2", 3, 1), (W, 1, "2", 4, 1), (W, 1, "2", 4, 1),
    (W, 1, "I3", 4, 1), (W, 1, "L3", 4, 1), (W, 1, "I3", 5, 2), (W, 1, "L3", 5, 2),
    (W, 1, "I4", 5, 2), (W, 1, "T4", 5, 2), (W, 1, "O4", 6, 2), (W, 1, "L4", 6, 2),
    (W, 1, "S4", 6, 2),
    # White 2 pt: net 3-5; 2-3 pieces, mostly 2 (the printed set's figures).
    (W, 2, "2", 5, 2), (W, 2, "T4", 7, 2), (W, 2, "L4", 7, 2), (W, 2, "I3", 7, 3),
    (W, 2, "L3", 8, 2), (W, 2, "I4", 8, 2), (W, 2, "S4", 8, 3), (W, 2, "O4", 7, 2),
    # Black 3 pt: net 6-7, the bigger rewards; 2-3 pieces, mostly 3.
    (B, 3, "2", 8, 2), (B, 3, "I3", 10, 3), (B, 3, "L3", 10, 3), (B, 3, "O4", 10, 3),
    (B, 3, "L4", 10, 3), (B, 3, "I4", 11, 3), (B, 3, "T4", 11, 3), (B, 3, "S4", 11, 3),
    # Black 4 pt: net 10-11, small rewards.
    (B, 4, "1", 12, 3), (B, 4, "2", 12, 4), (B, 4, "2", 13, 4), (B, 4, "I3", 13, 4),
    (B, 4, "L3", 13, 4), (B, 4, "I3", 14, 4), (B, 4, "L3", 14, 4),
    # Black 5 pt: 16 cells rewarding a monomino; four tetrominoes at best.
    (B, 5, "1", 16, 4), (B, 5, "1", 16, 4), (B, 5, "1", 16, 4), (B, 5, "1", 16, 4),
    (B, 5, "1", 16, 4),
]

# The base set as first generated (before the per-class minimum-piece figures were matched).
# The Ghost Piece cards were searched avoiding its recesses; it is regenerated, never shipped,
# only to reserve those recesses again so that the expansion's cards stay exactly as published.
FIRST_BASE_PLAN: list[tuple[Colour, int, str, int, int]] = [
    # White 0 pt: the recess is as big as the reward (net 0), so one piece fills it.
    (W, 0, "2", 2, 1), (W, 0, "I3", 3, 1), (W, 0, "I3", 3, 1), (W, 0, "L3", 3, 1),
    (W, 0, "L3", 3, 1), (W, 0, "I4", 4, 1), (W, 0, "O4", 4, 1), (W, 0, "T4", 4, 1),
    (W, 0, "L4", 4, 1), (W, 0, "L4", 4, 1), (W, 0, "S4", 4, 1),
    # White 1 pt: net 1-2.
    (W, 1, "1", 3, 1), (W, 1, "2", 3, 1), (W, 1, "2", 4, 1), (W, 1, "2", 4, 1),
    (W, 1, "I3", 4, 1), (W, 1, "L3", 4, 1), (W, 1, "I3", 5, 2), (W, 1, "L3", 5, 2),
    (W, 1, "I4", 5, 2), (W, 1, "T4", 5, 2), (W, 1, "O4", 6, 2), (W, 1, "L4", 6, 2),
    (W, 1, "S4", 6, 2),
    # White 2 pt: net 3-5.
    (W, 2, "2", 5, 2), (W, 2, "T4", 7, 3), (W, 2, "2", 7, 2), (W, 2, "I3", 7, 3),
    (W, 2, "L3", 8, 3), (W, 2, "I4", 8, 2), (W, 2, "S4", 8, 3), (W, 2, "O4", 9, 3),
    # Black 3 pt: net 6-7, the bigger rewards.
    (B, 3, "2", 8, 2), (B, 3, "I3", 10, 3), (B, 3, "L3", 10, 4), (B, 3, "O4", 10, 3),
    (B, 3, "L4", 10, 4), (B, 3, "I4", 11, 3), (B, 3, "T4", 11, 4), (B, 3, "S4", 11, 3),
    # Black 4 pt: net 10-11, small rewards.
    (B, 4, "1", 12, 3), (B, 4, "2", 12, 4), (B, 4, "2", 13, 4), (B, 4, "I3", 13, 4),
    (B, 4, "L3", 13, 4), (B, 4, "I3", 14, 4), (B, 4, "L3", 14, 4),
    # Black 5 pt: 16 cells rewarding a monomino; four tetrominoes at best.
    (B, 5, "1", 16, 4), (B, 5, "1", 16, 4), (B, 5, "1", 16, 4), (B, 5, "1", 16, 4),
    (B, 5, "1", 16, 4),
]

# The Ghost Piece expansion: (colour, points, reward code, recess size, minimum pieces).
# Net cells = size - reward worth (ghost 5, ↑ 1, ⇈ 2): white 0 pt net 0, 1 pt 1-2, 2 pt 3-5;
# black 3 pt 6-7, 4 pt 10-11 (the base economy).
GHOST_PLAN: list[tuple[Colour, int, str, int, int]] = [
    # White 0 pt: the recess is the reward pentomino itself.
    (W, 0, "P5", 5, 2), (W, 0, "U5", 5, 2), (W, 0, "L5", 5, 2),
    # White 1 pt: 6-7 cells.
    (W, 1, "P5", 6, 2), (W, 1, "U5", 6, 2), (W, 1, "L5", 7, 2), (W, 1, "P5", 7, 3),
    (W, 1, "U5", 7, 3),
    # White 2 pt: 8-10 cells.
    (W, 2, "L5", 8, 2), (W, 2, "P5", 9, 3), (W, 2, "U5", 9, 3), (W, 2, "L5", 10, 3),
    # Black with ↑: 3 pt 7-8 cells, 4 pt 11-12.
    (B, 3, "up", 7, 2), (B, 3, "up", 8, 3), (B, 4, "up", 11, 3), (B, 4, "up", 12, 4),
    # Black with ⇈: 3 pt 8-9 cells, 4 pt 12-13.
    (B, 3, "up2", 8, 2), (B, 3, "up2", 9, 3), (B, 4, "up2", 12, 3), (B, 4, "up2", 13, 4),
    # Black with a ghost: 3 pt 11-12 cells, 4 pt 15-16.
    (B, 3, "P5", 11, 3), (B, 3, "U5", 12, 3), (B, 4, "L5", 15, 4), (B, 4, "P5", 16, 4),
]

# The Ambassador Pack and Phoenix (RULINGS "The rest of the published game"), searched from their
# own seed after everything else, avoiding every earlier silhouette: (colour, points, reward,
# size, minimum pieces, expansion tag). An Ambassador card follows exactly the class figures of a
# card of its colour and points (its action worth one net cell): white 2 pt 6 cells, net 5, 2
# pieces; black 4 pt 12 cells, net 11, 4 pieces; black 5 pt 16 cells, net 15, 4 pieces. A Phoenix
# card is black, 6 points, needs 5 pieces (harder than every 5-point card, which needs 4) and
# rewards a level-3 or level-4 piece: 19 cells with a tromino, 20 with a tetromino (net 16).
PACK_PLAN: list[tuple[Colour, int, str, int, int, str | None]] = [
    (W, 2, "ambassador", 6, 2, None), (B, 4, "ambassador", 12, 4, None),
    (B, 5, "ambassador", 16, 4, None),
    (B, 6, "I3", 19, 5, "phoenix"), (B, 6, "L3", 19, 5, "phoenix"), (B, 6, "I4", 20, 5, "phoenix"),
    (B, 6, "O4", 20, 5, "phoenix"), (B, 6, "T4", 20, 5, "phoenix"), (B, 6, "L4", 20, 5, "phoenix"),
    (B, 6, "S4", 20, 5, "phoenix"),
]
PACK_PIECES: dict[str, tuple[int, int]] = {"phoenix": PHOENIX_MIN_PIECES}

_BY_SIZE: dict[int, list[int]] = {}
for _shape in BASE_SHAPES:
    if _shape is not Shape.MONO:
        _BY_SIZE.setdefault(_shape.size, []).extend(PLACEMENTS[_shape])


def _neighbours(mask: int) -> int:
    """Cells orthogonally next to ``mask`` (not wrapping around the card's edges)."""
    left_col = sum(1 << (r * GRID) for r in range(GRID))
    right_col = left_col << (GRID - 1)
    grown = (mask << GRID) | (mask >> GRID)
    grown |= (mask & ~right_col) << 1 | (mask & ~left_col) >> 1
    return grown & FULL_MASK & ~mask


def _has_island(mask: int) -> bool:
    """True when some raised cell is walled in by the recess (a hole in the silhouette)."""
    outside = FULL_MASK & ~mask
    border = sum(1 << i for i in range(GRID * GRID) if i % GRID in (0, GRID - 1)
                 or i // GRID in (0, GRID - 1))
    reached = outside & border
    while True:
        grown = (reached | _neighbours(reached)) & outside
        if grown == reached:
            return reached != outside
        reached = grown


def _centred(mask: int) -> int:
    """The same recess moved to the middle of the card (rounding up and left): tidier to draw."""
    cells = [(i % GRID, i // GRID) for i in range(GRID * GRID) if mask >> i & 1]
    left, top = min(c for c, _ in cells), min(r for _, r in cells)
    width = max(c for c, _ in cells) - left + 1
    height = max(r for _, r in cells) - top + 1
    dx, dy = (GRID - width) // 2 - left, (GRID - height) // 2 - top
    return sum(1 << ((r + dy) * GRID + c + dx) for c, r in cells)


def _is_rectangle(mask: int) -> bool:
    cells = [(i % GRID, i // GRID) for i in range(GRID * GRID) if mask >> i & 1]
    width = max(c for c, _ in cells) - min(c for c, _ in cells) + 1
    height = max(r for _, r in cells) - min(r for _, r in cells) + 1
    return width * height == len(cells)


def _split(rng: random.Random, size: int, parts: int) -> list[int]:
    """Random piece sizes (2–4 each) adding up to ``size``, in exactly ``parts`` pieces."""
    if not 2 * parts <= size <= 4 * parts:
        raise ValueError(f"{size} cells cannot be {parts} pieces of 2-4 cells")
    sizes = [2] * parts
    for _ in range(size - 2 * parts):
        sizes[rng.choice([i for i, s in enumerate(sizes) if s < 4])] += 1
    rng.shuffle(sizes)
    return sizes


def _grow(rng: random.Random, sizes: list[int]) -> int | None:
    """Drop pieces of the given sizes one by one, each touching what is already there."""
    region = 0
    for size in sizes:
        if region == 0:
            candidates = _BY_SIZE[size]
        else:
            touching = _neighbours(region)
            candidates = [p for p in _BY_SIZE[size] if not p & region and p & touching]
        if not candidates:
            return None
        region |= rng.choice(candidates)
    return region


@dataclass
class _Taken:
    keys: set[tuple[object, Reward]]
    silhouettes: set[object]


def _acceptable(mask: int, reward: Reward, target: int, taken: _Taken) -> bool:
    shape = canonical_form(mask)
    if (shape, reward) in taken.keys:
        return False
    size = mask.bit_count()
    if size >= 5 and (shape in taken.silhouettes or _is_rectangle(mask)):
        return False
    if _has_island(mask) or not is_connected(mask) or not fillable_without_monominoes(mask):
        return False
    return min_pieces(mask) == target


def make_card(rng: random.Random, card_id: str, plan: tuple[Colour, int, str, int, int],
              taken: _Taken, legacy: bool = False, tag: str | None = None) -> PuzzleCard:
    """Search for a recess fitting one planned card, then reserve its identity.

    ``legacy`` replays the first base set's search (colour ranges only, 0-point cards searched
    like the others) to reserve its recesses for the Ghost Piece cards. ``tag`` declares the
    card's expansion (Phoenix), held to that expansion's figures."""
    colour, points, code, size, target = plan
    reward = parse_reward(code)
    expansion = isinstance(reward, LevelUp) or reward.level == 5
    if tag in PACK_PIECES:
        low, high = PACK_PIECES[tag]
    else:
        low, high = (MIN_PIECES_RANGE[colour] if expansion or legacy
                     else MIN_PIECES_BY_CLASS[colour, points])
    if not low <= target <= high:
        raise ValueError(f"{card_id}: {target} pieces is outside the range {low}-{high}")
    own_shape = (2, 4, 5) if not legacy else (5,)
    if isinstance(reward, Shape) and points == 0 and reward.size in own_shape:
        # The recess is the reward's own shape: one piece fills it (net 0). A domino card may
        # repeat (the printed set has an identical domino pair); any other repeat is refused.
        mask = PLACEMENTS[reward][0]
        repeat = (canonical_form(mask), reward) in taken.keys and reward.size != 2
        if repeat or min_pieces(mask) != target:
            raise RuntimeError(f"{card_id}: the {code} recess does not fit the plan {plan}")
        taken.keys.add((canonical_form(mask), reward))
        taken.silhouettes.add(canonical_form(mask))
        return PuzzleCard(card_id, colour, points, reward, _centred(mask))
    for attempt in range(MAX_ATTEMPTS):
        # Build from exactly `target` pieces: the solver then confirms none fewer will do.
        mask = _grow(rng, _split(rng, size, target))
        # Small silhouettes: insist on a fresh one for a while, then accept a repeat.
        fresh_small = size < 5 and attempt < 500
        if mask is None or (fresh_small and canonical_form(mask) in taken.silhouettes):
            continue
        if _acceptable(mask, reward, target, taken):
            taken.keys.add((canonical_form(mask), reward))
            taken.silhouettes.add(canonical_form(mask))
            return PuzzleCard(card_id, colour, points, reward, _centred(mask), tag)
    raise RuntimeError(f"no recess found for {card_id} {plan}")


def _ids(plans: list[tuple[Colour, int, str, int, int]] | list[tuple[Colour, int, str, int, int, str | None]],
         start: dict[Colour, int]) -> list[str]:
    """W01, W02, ... and B01, ... in plan order, numbering on from ``start`` per colour."""
    counters = dict(start)
    ids = []
    for colour, *_ in plans:
        counters[colour] += 1
        ids.append(f"{'W' if colour is W else 'B'}{counters[colour]:02d}")
    return ids


def generate(seed: int = SEED, ghost_seed: int = GHOST_SEED, packs_seed: int = PACKS_SEED) -> Catalogue:
    """Build the whole catalogue from ``PLAN`` then ``GHOST_PLAN`` (deterministic for the seeds;
    the expansion cards have their own random stream so the base cards never depend on them)."""
    first_base = _Taken(set(), set())
    first_rng = random.Random(seed)
    for number, plan in enumerate(FIRST_BASE_PLAN, start=1):
        make_card(first_rng, f"first{number}", plan, first_base, legacy=True)
    # The expansion first (its ids come after the base cards'), so the base set avoids its recesses.
    ghost_rng = random.Random(ghost_seed)
    ghost_ids = _ids(GHOST_PLAN, {W: sum(p[0] is W for p in PLAN), B: sum(p[0] is B for p in PLAN)})
    ghost = [make_card(ghost_rng, card_id, plan, first_base)
             for card_id, plan in zip(ghost_ids, GHOST_PLAN, strict=True)]
    base_taken = _Taken(set(), {canonical_form(card.recess) for card in ghost})
    base_rng = random.Random(seed)
    base = [make_card(base_rng, card_id, plan, base_taken)
            for card_id, plan in zip(_ids(PLAN, {W: 0, B: 0}), PLAN, strict=True)]
    cards = base + ghost
    # The packs last, from their own stream, so no earlier card depends on them.
    pack_taken = _Taken({(canonical_form(c.recess), c.reward) for c in cards},
                        {canonical_form(c.recess) for c in cards})
    pack_rng = random.Random(packs_seed)
    pack_ids = _ids(PACK_PLAN, {W: sum(c.colour is W for c in cards), B: sum(c.colour is B for c in cards)})
    cards += [make_card(pack_rng, card_id, plan[:5], pack_taken, tag=plan[5])
              for card_id, plan in zip(pack_ids, PACK_PLAN, strict=True)]
    return Catalogue(name=NAME, cards=tuple(cards), description=DESCRIPTION)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="verify the committed file equals a fresh generation")
    parser.add_argument("--out", type=Path, default=OUTPUT, help="file to write or check")
    args = parser.parse_args(argv)

    cat = generate()
    text = dumps_catalogue(cat)
    import json

    if parse_catalogue(json.loads(text)) != cat:
        print("internal error: the written JSON does not read back as the same catalogue")
        return 1
    report = check_catalogue(cat)
    # The only identical cards allowed are the two 0-point domino cards (the printed set's pair).
    domino_pair = [c.id for c in cat.white if c.points == 0 and c.reward.value == "2"]
    expected = f"{domino_pair[0]} and {domino_pair[1]} are identical" if len(domino_pair) == 2 else ""
    notes = [n for n in report.notes if not (expected and n.startswith(expected))]
    if report.problems or notes:
        print("\n".join(report.problems + tuple(notes)))
        return 1
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} differs from a fresh generation: run tools/make_catalogue.py")
            return 1
        print(f"{args.out} is up to date ({len(cat.white)} white, {len(cat.black)} black)")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(cat.white)} white, {len(cat.black)} black)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
