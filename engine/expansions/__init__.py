"""Expansions: components and rules added on top of any variant, switched on by table options.

:mod:`.base` is the seam (the :class:`~engine.expansions.base.Expansion` hooks, their registry
and the calls the rules make); :mod:`.ghost` (Ghost Piece, with its level-up decisions in
:mod:`.level_up`) and :mod:`.finesse` are the expansions, each registering itself on import.
``engine.game`` imports both, so every engine entry point plays them. This package imports
nothing itself: the rules import the seam, and the expansions import the rules.
"""
