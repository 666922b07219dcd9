"""The three levels by name, for the table service, the pool and the arena."""

from __future__ import annotations

from .base import Player
from .easy import EasyPlayer
from .hard import HardPlayer
from .normal import NormalPlayer

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def player_for(level: str) -> Player:
    """The player for ``level``; raises ``ValueError`` for an unknown level."""
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        return HardPlayer()
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
