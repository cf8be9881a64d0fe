"""Board images for the Discord bot: pure functions from engine state to PNG bytes.

Nothing here knows about Discord, files or the clock: each function takes a
:class:`engine.GameState` (plus display names) and returns PNG bytes, the same bytes for the same
state. Each takes ``words=``, the language of its labels (a translation of
``renders.labels.ENGLISH``; None: English). Images are sized for phones — Discord shows them
about 400 px wide — so every text is at least 3% of the image width (12 px at that scale), and a
market card's reward has a header band sized for it: a reward piece's squares are at least 7 px
at that scale, the ↑/⇈ arrows at least 14 px tall, on Line Clear's small cards too
(``renders.table.REWARD_SQUARE_AT_PHONE``; ``renders.table.market_tiles`` says where each card
and its reward are drawn, ``tests/test_renders_rewards.py`` measures them); a planning card's
title (mat, previews) draws its reward piece at 7/12 of the title's text size, as large.

* :func:`render_table` — the public table, posted after every turn.
* :func:`render_mat` — one player's private mat, with card coordinates for planning.
* :func:`render_preview` — one card with a proposed placement, to confirm a move.
* :func:`render_master_preview` — every placement of a Master action at once, to confirm it.
* :func:`render_results` — final standings with the score breakdown and tie-breaks.
* :func:`render_card` — a single card, in 'plan', 'market' or 'mini' style.
* :func:`render_ghost_split` — the Ghost action's preview: a ghost and the pieces that tile it.
* :func:`render_recap` — a finished game's animated recap (an animated PNG, one frame per round).

``python -m bench renders`` times them; ``python -m renders examples DIR`` writes README images.
"""

from .card import render_card
from .ghost import render_ghost_split
from .master import render_master_preview
from .mat import render_mat, render_preview
from .recap import render_recap
from .results import render_results
from .table import render_table

__all__ = [
    "render_card", "render_ghost_split", "render_master_preview", "render_mat", "render_preview",
    "render_recap", "render_results", "render_table",
]
