"""Exact endgames: perfect-information search of a trick contract's last few tricks.

The hard player guesses the hidden hands; once few tricks are left, each guess is small
enough to solve exactly instead of being played out by four normal players. Bonken is
every player for himself, so "exactly" needs a model of the others. Two are here:

- ``maxn``: every seat plays the card that maximises its own final score (max^n), with a
  fixed rule for ties (see :meth:`EndgameSolver._tie_better`) so the value of a position does
  not depend on the order the cards are tried in;
- ``paranoid``: the other three play to minimise the searching seat's score, which
  allows alpha-beta pruning (and is pessimistic: the others do not really cooperate);
- ``normal``: the others play the normal player's card (the model of the playouts, which
  sees only what its seat may know) and only the searching seat's own cards are searched.

Both of the first two give the others sight of every hand in the guess, which the real
players do not have; the third keeps them to what they can see.

A seat's final score is linear in the base scores (:func:`~bot.engine.deal.settle_seat`),
so a position's value is the base points still to come, per seat, and each seat weighs
them with its row of settlement weights. That makes the value independent of the points
taken so far, so a transposition table keyed on the hands and the leader at a trick's
start serves every guess and every root card of one decision.

Two cards of one hand are the same card for the rest of the deal when nothing still in
play lies between them and they score the same: only the lowest of such a run is
searched. The rules come from the fast engine (:func:`~bot.engine.fast.trick_legal`,
:func:`~bot.engine.fast.winning_position`), whose agreement with the
public API its tests replay; the tests here hold the solver to a plain enumeration over
:func:`~bot.engine.fast.play_card`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.contracts import Contract
from bot.engine.fast import (
    BITS,
    FastPosition,
    is_over,
    legal_masks,
    play_card,
    trick_legal,
    winning_position,
)

from .policy import normal_card

#: Larger than any score difference a deal can make (bounds for alpha-beta).
INFINITY = 1 << 40

MODES = ("maxn", "paranoid", "normal")


def settlement_weights(multipliers: Sequence[Sequence[int]]) -> list[list[int]]:
    """``w[s]`` such that ``settle_seat(base, multipliers, s) == sum(w[s][j] * base[j])``."""
    weights = []
    for s in range(4):
        row = [-multipliers[s][j] if j != s else 0 for j in range(4)]
        row[s] = 1 + sum(multipliers[s][j] for j in range(4) if j != s)
        weights.append(row)
    return weights


class EndgameSolver:
    """Solves trick-contract positions of one decision; reuse it across guesses and cards.

    ``seat`` is the searching seat (paranoid's maximiser), ``multipliers`` the deal's
    doubling multipliers. :attr:`nodes` counts the cards tried, the search's work.
    """

    def __init__(
        self,
        contract: Contract,
        multipliers: Sequence[Sequence[int]],
        seat: int,
        mode: str = "maxn",
    ) -> None:
        if contract.domino:
            raise ValueError("the endgame solver plays trick contracts, not Domino")
        if mode not in MODES:
            raise ValueError(f"unknown endgame mode {mode!r}")
        self.contract = contract
        self.seat = seat
        self.mode = mode
        self.weights = settlement_weights(multipliers)
        # _rest[s]: the weights of the other three seats' scores added up (for ties).
        self._rest = [
            [sum(self.weights[t][j] for t in range(4) if t != s) for j in range(4)]
            for s in range(4)
        ]
        self.trump = contract.trump
        self.per_trick = contract.per_trick
        self.points = contract.point_table
        self.trick_table = contract.trick_table
        self.ends_early = contract.ends_when_cards_taken
        self.nodes = 0
        # Transposition tables, keyed on a trick's start (one per mode's kind of value).
        self._vectors: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._bounds: dict[tuple[int, ...], tuple[int, int]] = {}
        self._values: dict[tuple[int, ...], int] = {}
        self.hands: list[int] = []
        self.points_left = 0

    # -- the public entry points ---------------------------------------------------------

    def value(self, pos: FastPosition) -> int:
        """The searching seat's settled score still to come from ``pos`` (base points
        already taken are not included), under this solver's model of the others."""
        if self.mode == "normal":
            self._check(pos)
            return self._normal(pos)
        if self.mode == "paranoid":
            self._load(pos)
            return self._paranoid(
                pos.to_act, pos.tricks_done, tuple(pos.trick), -INFINITY, INFINITY
            )
        w = self.weights[self.seat]
        delta = self.deltas(pos)
        return w[0] * delta[0] + w[1] * delta[1] + w[2] * delta[2] + w[3] * delta[3]

    def deltas(self, pos: FastPosition) -> tuple[int, ...]:
        """max^n only: the base points each seat still takes from ``pos``."""
        if self.mode != "maxn":
            raise ValueError("per-seat points exist only under max^n")
        self._load(pos)
        return self._maxn(pos.to_act, pos.tricks_done, tuple(pos.trick))

    # -- search --------------------------------------------------------------------------

    def _check(self, pos: FastPosition) -> None:
        if pos.contract is not self.contract:
            raise ValueError("the position is of another contract")

    def _load(self, pos: FastPosition) -> None:
        self._check(pos)
        self.hands = list(pos.hands)
        self.points_left = pos.points_left

    def _over(self, number: int) -> bool:
        return number == 13 or (self.ends_early and self.points_left == 0)

    def _moves(self, seat: int, trick: tuple[int, ...]) -> list[int]:
        """The legal cards of ``seat``, one per run of equivalent cards, the highest and
        the lowest of each suit first (they decide most tricks)."""
        h = self.hands
        masks = trick_legal(self.contract, h, seat, trick)
        pts = self.points
        moves: list[int] = []
        for suit in range(4):
            mask = masks[suit]
            if not mask:
                continue
            live = h[suit] | h[4 + suit] | h[8 + suit] | h[12 + suit]
            for card in trick:
                if card // 13 == suit:
                    live |= 1 << (card % 13)
            base = suit * 13
            reps = []
            for rank in BITS[mask]:
                below = live & ((1 << rank) - 1)
                if below:
                    lower = below.bit_length() - 1
                    if mask >> lower & 1 and pts[base + lower] == pts[base + rank]:
                        continue  # the lower card of this run stands for it
                reps.append(base + rank)
            moves.append(reps.pop())
            if reps:
                moves.append(reps[0])
                moves.extend(reps[1:])
        return moves

    def _finish(self, trick: tuple[int, ...], seat: int, number: int) -> tuple[int, int, int]:
        """The trick just completed by ``seat``: (winner, its points, the cards' points)."""
        winner = (seat + 1 + winning_position(list(trick), self.trump)) & 3
        pts = self.points
        cards = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        return winner, self.per_trick + cards + self.trick_table[number + 1], cards

    def _maxn(self, seat: int, number: int, trick: tuple[int, ...]) -> tuple[int, ...]:
        key: tuple[int, ...] | None = None
        if not trick:
            if self._over(number):
                return (0, 0, 0, 0)
            key = (*self.hands, seat)
            hit = self._vectors.get(key)
            if hit is not None:
                return hit
        h = self.hands
        w = self.weights[seat]
        w0, w1, w2, w3 = w
        best: tuple[int, ...] = ()
        best_own = -INFINITY
        for card in self._moves(seat, trick):
            self.nodes += 1
            slot = seat * 4 + card // 13
            bit = 1 << (card % 13)
            h[slot] ^= bit
            played = (*trick, card)
            if len(played) == 4:
                winner, points, cards = self._finish(played, seat, number)
                self.points_left -= cards
                child = list(self._maxn(winner, number + 1, ()))
                self.points_left += cards
                child[winner] += points
                value: tuple[int, ...] = tuple(child)
            else:
                value = self._maxn((seat + 1) & 3, number, played)
            h[slot] ^= bit
            own = w0 * value[0] + w1 * value[1] + w2 * value[2] + w3 * value[3]
            if own > best_own or (own == best_own and self._tie_better(seat, value, best)):
                best, best_own = value, own
        if key is not None:
            self._vectors[key] = best
        return best

    def _tie_better(self, seat: int, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        """The fixed rule for a seat's ties (so a value does not depend on the order the
        cards are tried in): the others' total lowest, then the points as a tuple."""
        rest = self._rest[seat]
        rest_a = rest[0] * a[0] + rest[1] * a[1] + rest[2] * a[2] + rest[3] * a[3]
        rest_b = rest[0] * b[0] + rest[1] * b[1] + rest[2] * b[2] + rest[3] * b[3]
        if rest_a != rest_b:
            return rest_a < rest_b
        return a > b

    def _paranoid(
        self, seat: int, number: int, trick: tuple[int, ...], alpha: int, beta: int
    ) -> int:
        key: tuple[int, ...] | None = None
        if not trick:
            if self._over(number):
                return 0
            key = (*self.hands, seat)
            bounds = self._bounds.get(key)
            if bounds is not None:
                low, high = bounds
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
                alpha, beta = max(alpha, low), min(beta, high)
        alpha0, beta0 = alpha, beta
        w = self.weights[self.seat]
        h = self.hands
        maximising = seat == self.seat
        best = -INFINITY if maximising else INFINITY
        for card in self._moves(seat, trick):
            self.nodes += 1
            slot = seat * 4 + card // 13
            bit = 1 << (card % 13)
            h[slot] ^= bit
            played = (*trick, card)
            if len(played) == 4:
                winner, points, cards = self._finish(played, seat, number)
                gain = w[winner] * points
                self.points_left -= cards
                value = gain + self._paranoid(winner, number + 1, (), alpha - gain, beta - gain)
                self.points_left += cards
            else:
                value = self._paranoid((seat + 1) & 3, number, played, alpha, beta)
            h[slot] ^= bit
            if maximising:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        if key is not None:
            low, high = self._bounds.get(key, (-INFINITY, INFINITY))
            if best <= alpha0:
                high = min(high, best)
            elif best >= beta0:
                low = max(low, best)
            else:
                low = high = best
            self._bounds[key] = (low, high)
        return best

    def _normal(self, pos: FastPosition) -> int:
        """``normal`` mode: the searching seat's best, the others' normal cards."""
        key: tuple[int, ...] | None = None
        if not pos.trick:
            if is_over(pos):
                return 0
            key = (*pos.hands, *pos.voids, pos.to_act)
            hit = self._values.get(key)
            if hit is not None:
                return hit
        legal = legal_masks(pos)
        cards = [s * 13 + r for s in range(4) for r in BITS[legal[s]]]
        if pos.to_act != self.seat and len(cards) > 1:
            cards = [normal_card(pos, pos.to_act, legal)]
        w = self.weights[self.seat]
        best = -INFINITY
        for card in cards:
            self.nodes += 1
            child = pos.copy()
            play_card(child, card)
            gain = sum(w[j] * (child.base[j] - pos.base[j]) for j in range(4))
            best = max(best, gain + (0 if is_over(child) else self._normal(child)))
        if key is not None:
            self._values[key] = best
        return best
