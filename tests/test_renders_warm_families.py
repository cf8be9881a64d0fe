"""A render worker's warm-up draws the fixed families of strings a game counts through
(``renders.fonts.warm_families``): every number and every puzzle id, at the sizes the warm-up
game drew one at, so a later game's first posts do not wait for FreeType on them."""

from __future__ import annotations

from renders import fonts


def test_each_family_is_drawn_at_the_sizes_one_of_its_members_was() -> None:
    fonts.run.cache_clear()
    fonts.run("7", 41, True)
    fonts.run("W03", 23, False)
    fonts.run("Ana to play", 33, True)
    drawn = fonts.warm_families(["W01", "W02", "W03", "B01"])
    assert drawn == (fonts.NUMBERS_WARMED - 1) + 3
    assert all((str(n), 41, True) in fonts.run for n in range(fonts.NUMBERS_WARMED))
    assert ("B01", 23, False) in fonts.run and ("W01", 23, False) in fonts.run
    # Only where a member was drawn: not at other sizes or weights, and no names or sentences.
    assert ("8", 41, False) not in fonts.run and ("8", 23, False) not in fonts.run
    assert ("B01", 41, True) not in fonts.run
    assert fonts.warm_families(["W01", "W02", "W03", "B01"]) == 0  # all there: nothing drawn again


def test_a_kept_string_rebuilds_the_mask_it_was_drawn_on() -> None:
    """Only a string's inked pixels are kept; the whole mask comes back the same (the golden
    masks of tests/test_renders_scripts.py hash it)."""
    run = fonts.run("Round 10", 39, True)
    mask = run.mask()
    assert run.inked is not None
    left, top = run.inked_at
    assert mask.getbbox() == (left, top, left + run.inked.width, top + run.inked.height)
    assert mask.height > run.inked.height and mask.width >= run.width
