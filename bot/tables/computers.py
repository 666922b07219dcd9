"""How the table service asks a computer for a move, without knowing how it thinks.

A :data:`Decider` gets the computer's level, its seat's view (never another hand) and a
seed, and returns one of ``view.legal``. The service derives the seed from the match
seed and the turn number, so a replayed match makes the same computer moves.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

from bot.engine import Action, SeatView
from bot.players.levels import LEVELS

Decider = Callable[[str, SeatView, int], Awaitable[Action]]

__all__ = ["LEVELS", "Decider", "move_seed", "random_decider"]


async def random_decider(level: str, view: SeatView, seed: int) -> Action:
    """Any legal action, uniformly: enough for tests, benchmarks and a fallback."""
    return random.Random(seed).choice(view.legal)


def move_seed(match_seed: int, turn: int) -> int:
    """The seed for the computer's move at ``turn``: fixed by the match, distinct per turn."""
    return random.Random(f"{match_seed}/{turn}").getrandbits(63)
