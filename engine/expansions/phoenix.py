"""Phoenix: 7 black cards worth 6 points, shuffled into the black pool.

Our own design (the printed ones are not published): each needs at least 5 pieces to fill with
the nine base shapes — harder than every 5-point card, which needs 4 — and rewards a level-3 or
level-4 piece (``expansion: "phoenix"`` in the catalogue; figures in engine/data/README.md).
With Phoenix a 6-player Line Clear table no longer needs the Ghost Piece expansion: 20 + 7 = 27
black cards for the 24 it deals. Nothing else changes, so the expansion is its cards alone.
"""

from __future__ import annotations

from ..cards import PHOENIX_EXPANSION
from .base import Expansion, register


class PhoenixExpansion(Expansion):
    name = PHOENIX_EXPANSION
    option = "phoenix"
    order = 40
    fills_six_player_black_deck = True


register(PhoenixExpansion())
