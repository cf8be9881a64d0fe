"""Shared fixtures. Position-building helpers live in tests/positions.py (import from there)."""

from __future__ import annotations

import pytest
from positions import game

from engine import GameState


@pytest.fixture
def two_players() -> GameState:
    """A fresh 2-player game (seed 1) from the shipped catalogue."""
    return game(2, seed=1)


@pytest.fixture
def solo_game() -> GameState:
    """A fresh Solo game (seed 1, Normal difficulty)."""
    return game(1, seed=1)
