"""The one interface every computer player has, and small helpers they share.

A player is given its seat's :class:`~bot.engine.view.SeatView` (never more), a seeded
random source and a time budget in seconds, and returns one of ``view.legal``. The same
call covers every decision: a contract or trump option (both are ``Choose``), a doubling
turn (``Double``) and a card (``Play``), Domino included.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.engine.actions import Action, Play
from bot.engine.fast import FastPosition, position_from_view
from bot.engine.view import SeatView


class Player(Protocol):
    """A computer player; ``choose_action`` must return one of ``view.legal``."""

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action: ...


def legal_card_masks(view: SeatView) -> tuple[int, int, int, int]:
    """The legal cards of ``view`` as one rank mask per suit (the fast code's form)."""
    masks = [0, 0, 0, 0]
    for action in view.legal:
        if isinstance(action, Play):
            masks[action.card.suit] |= 1 << (action.card.rank - 2)
    return (masks[0], masks[1], masks[2], masks[3])


def own_hand_masks(view: SeatView) -> list[int]:
    """Sixteen hand masks with only this seat's cards filled in (the rest unknown, 0)."""
    masks = [0] * 16
    for card in view.hand:
        masks[view.seat * 4 + card.suit] |= 1 << (card.rank - 2)
    return masks


def own_position(view: SeatView) -> FastPosition:
    """A fast position of ``view`` that holds only what the seat knows (its own hand)."""
    return position_from_view(view, own_hand_masks(view))


def play_of(view: SeatView, card_index: int) -> Action:
    """The legal ``Play`` of the card with this index."""
    for action in view.legal:
        if isinstance(action, Play) and action.card.index == card_index:
            return action
    raise ValueError(f"card {card_index} is not a legal play in this view")
