"""Guessing the hidden hands: deals consistent with everything one seat has seen.

The hard player searches over such guesses ("determinizations"). A guess gives every
other seat exactly as many cards as it still holds, only cards not yet seen, and none
the rules say it does not hold (:func:`~bot.engine.view.ruled_out`: a suit it did not
follow, whatever a house rule made its play reveal, and in Domino the cards it could
have played when it passed).
The guesses are uniform over what the rules allow, as far as the simple sampler below
gets (it weights seats by free room, which is uniform when no constraint binds); what
the others' actions say beyond that is weighed afterwards (:mod:`.inference`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine.view import SeatView, ruled_out

from .base import own_hand_masks

ALL_CARDS = (1 << 52) - 1


def _compiled_greedy_deal() -> Callable[..., list[int] | None] | None:
    """``_sampling.pyx``'s greedy deal, None where it was not built (no C compiler)."""
    try:
        from ._sampling import greedy_deal
    except ImportError:
        return None
    return greedy_deal


_greedy_deal = _compiled_greedy_deal()

#: Whether guesses are dealt by the compiled greedy deal (else :meth:`Sampler.python_greedy`).
COMPILED = _greedy_deal is not None


class Sampler:
    """Draws hidden hands for ``view``; build once per decision, sample many times."""

    def __init__(self, view: SeatView) -> None:
        self.seat = view.seat
        self.own_masks = own_hand_masks(view)
        seen = {card.index for card in view.hand} | {card.index for _, card in view.plays}
        self.unknown = [c for c in range(52) if c not in seen]
        if view.cards_left == (0, 0, 0, 0):
            raise ValueError("no deal is in progress")
        self.capacity = [0 if s == view.seat else view.cards_left[s] for s in range(4)]
        absent = ruled_out(view)
        self.allowed = [0, 0, 0, 0]
        for s in range(4):
            if s != view.seat:
                self.allowed[s] = ALL_CARDS & ~sum(1 << card.index for card in absent[s])
        others = [s for s in range(4) if s != view.seat]
        self.options = {c: [s for s in others if self.allowed[s] >> c & 1] for c in self.unknown}
        # Most constrained cards first, so the greedy pass rarely paints itself in a corner.
        self.freedom = {c: len(self.options[c]) for c in self.unknown}
        self.order = sorted(self.unknown, key=self.freedom.__getitem__)
        #: The cards any other seat may hold, dealt last and all alike (:meth:`python_greedy`).
        self.free = [c for c in self.unknown if len(self.options[c]) == len(others)]
        self.bound = [c for c in self.order if len(self.options[c]) < len(others)]
        self.others = others
        #: The same, as the compiled greedy deal takes them (:func:`_sampling.greedy_deal`).
        self.deal = (
            tuple(self.bound),
            tuple(self.freedom[c] for c in self.bound),
            tuple(tuple(self.options[c]) for c in self.bound),
            tuple(self.free),
            tuple(others),
        )

    def sample(self, rng: random.Random) -> list[int]:
        """Sixteen hand masks (seat-major, suit-minor): this seat's hand plus a guess."""
        for _ in range(20):
            if _greedy_deal is None:
                masks = self.python_greedy(rng)
            else:
                masks = _greedy_deal(
                    rng.random, list(self.capacity), list(self.own_masks), *self.deal
                )
            if masks is not None:
                return masks
        return self._masks(self._matching(rng))

    def _greedy(self, rng: random.Random) -> list[int] | None:
        """:meth:`python_greedy`, compiled where it was built."""
        if _greedy_deal is None:
            return self.python_greedy(rng)
        return _greedy_deal(rng.random, list(self.capacity), list(self.own_masks), *self.deal)

    def python_greedy(self, rng: random.Random) -> list[int] | None:
        """Each card bound to some seats in turn (the most bound first, in random order
        within as bound), to a seat with room left in proportion to its room; then the
        free cards, which any seat may hold, shuffled and dealt out to fill each seat's
        room. Giving each free card in turn in proportion to room left would deal every
        split of them with the same chance too; dealing them shuffled is the same draw
        at a fraction of the cost (the hard player's inner loop: written out by hand, and
        compiled in ``_sampling.pyx``, the same deal from the same random numbers)."""
        room = list(self.capacity)
        masks = list(self.own_masks)
        options = self.options
        random = rng.random
        freedom = self.freedom
        for card in sorted(self.bound, key=lambda c: (freedom[c], random())):
            seats = options[card]
            total = 0
            for seat in seats:
                total += room[seat]
            if not total:
                return None
            pick = random() * total
            chosen = -1
            for seat in seats:
                if room[seat]:
                    chosen = seat
                    pick -= room[seat]
                    if pick < 0:
                        break
            masks[chosen * 4 + card // 13] |= 1 << (card % 13)
            room[chosen] -= 1
        free = sorted(self.free, key=lambda _: random())
        start = 0
        for seat in self.others:
            base = seat * 4
            for card in free[start : start + room[seat]]:
                masks[base + card // 13] |= 1 << (card % 13)
            start += room[seat]
        return masks

    def _matching(self, rng: random.Random) -> dict[int, int]:
        """An exact assignment by augmenting paths, for when the greedy pass fails."""
        owner: dict[int, int] = {}
        held: dict[int, list[int]] = {s: [] for s in range(4)}

        def place(card: int, visited: set[int]) -> bool:
            seats = list(self.options[card])
            rng.shuffle(seats)
            for seat in seats:
                if seat not in visited and len(held[seat]) < self.capacity[seat]:
                    owner[card] = seat
                    held[seat].append(card)
                    return True
            for seat in seats:
                if seat in visited:
                    continue
                visited.add(seat)
                for other in list(held[seat]):
                    held[seat].remove(other)
                    if place(other, visited):
                        owner[card] = seat
                        held[seat].append(card)
                        return True
                    held[seat].append(other)
            return False

        for card in self.order:
            if not place(card, set()):
                raise ValueError("no deal fits what this seat has seen")
        return owner

    def _masks(self, owner: dict[int, int]) -> list[int]:
        masks = list(self.own_masks)
        for card, seat in owner.items():
            masks[seat * 4 + card // 13] |= 1 << (card % 13)
        return masks
