"""Computer players for Bonken, behind one interface (:class:`Player`).

``player_for("easy" | "normal" | "hard")`` returns a player; every player gets only its
seat's view, a seeded random source and a time budget. :mod:`bot.players.pool` runs
them off the event loop; :mod:`bot.players.arena` measures their strength.
"""

from .base import Player
from .levels import LEVELS, player_for

__all__ = ["LEVELS", "Player", "player_for"]
