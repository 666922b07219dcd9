"""Fast random playouts for search: the same rules as :class:`Deal`, on bit masks.

Search (the hard computer player) plays thousands of deals out per decision, and the
public :class:`~bot.engine.deal.Deal` is built for clarity and readable refusals, not for
that. Here a position is 16 small integers (one 13-bit rank mask per seat and suit) and
the playout loop keeps everything in local variables. The rules are the same, and the
same data: a position carries its contract from the match's :class:`~bot.engine.rules.Rules`
(points, trump, lead restriction, Domino's loss and the house rules that shape it). The
tests replay every traced playout
through the public API and require it to agree move for move (same seat to act, same
legal cards, same scores, same early end), with the standard rules and with others.

The hot loops (:func:`python_random_playout`'s two, and the policy playout's) state the
trick winner, the suit a seat must play and Domino's connecting ranks inline on purpose;
that is the one documented copy of those rules, kept honest by the agreement tests.
Everything else calls a function (:func:`trick_legal`, :func:`domino_connect`).

The same loops, in C: ``_kernel.pyx``, compiled by Cython at install where there is a C
compiler (:data:`COMPILED`). :func:`random_playout` and :func:`policy_playout` run there
when it was built and here otherwise; it draws the same random numbers and asks a policy
the same questions, so it plays the same cards, and the agreement tests replay both.

Card numbering is :attr:`Card.index`: ``suit * 13 + rank - 2``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import SUITS, Card, Suit
from .contracts import Contract
from .deal import Aces, Deal, DominoTable, Phase, Row
from .house_rules import HeartLead, MustTrump
from .view import SeatView

#: ``BITS[mask]``: the rank indexes (0 = two ... 12 = ace) set in a 13-bit mask, low first.
BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if mask >> r & 1) for mask in range(1 << 13)
)
EIGHT = 6  # rank index of the 8
KING = 11  # rank index of the king
ACE = 12  # rank index of the ace
HEARTS = 2
FULL = (1 << 13) - 1
#: Where a Domino deal's aces may go (:class:`~bot.engine.deal.Aces`), as the kernel's ints.
ACES_HIGH, ACES_LOW, ACES_EITHER = 0, 1, 2
_ACES = {Aces.HIGH: ACES_HIGH, Aces.LOW: ACES_LOW, Aces.EITHER: ACES_EITHER}

#: One traced move: (seat, legal rank masks per suit, card index played).
TraceEntry = tuple[int, tuple[int, int, int, int], int]


@dataclass(slots=True)
class FastPosition:
    """A deal in play, in the playout's terms. Copy it before a playout mutates it."""

    contract: Contract
    hands: list[int]  # hands[seat * 4 + suit] = 13-bit rank mask
    to_act: int
    leader: int
    trick: list[int] = field(default_factory=list)  # card indexes, leader's first
    tricks_done: int = 0
    base: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    points_left: int = 0
    # Domino rows as rank indexes, -1 -1 for a row not started (-1 low: an ace next to the 2).
    domino_low: list[int] = field(default_factory=lambda: [-1, -1, -1, -1])
    domino_high: list[int] = field(default_factory=lambda: [-1, -1, -1, -1])
    domino_out: list[int] = field(default_factory=list)
    # What every seat has seen, for policy playouts; random playouts leave them alone.
    played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # rank mask per suit
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # suit bits per seat
    domino_aces: int = ACES_HIGH  # where the aces may go: ACES_HIGH, ACES_LOW or ACES_EITHER

    def copy(self) -> FastPosition:
        return FastPosition(
            self.contract,
            list(self.hands),
            self.to_act,
            self.leader,
            list(self.trick),
            self.tricks_done,
            list(self.base),
            self.points_left,
            list(self.domino_low),
            list(self.domino_high),
            list(self.domino_out),
            list(self.played),
            list(self.voids),
            self.domino_aces,
        )


#: A playout policy: (position, seat to act, legal rank masks per suit) -> card index.
Policy = Callable[[FastPosition, int, tuple[int, int, int, int]], int]


class _Kernel(NamedTuple):
    """The compiled kernel's playouts (``_kernel.pyx``): :func:`random_playout`'s, given
    ``rng.random``, and :func:`policy_playout`'s."""

    random_playout: Callable[
        [FastPosition, Callable[[], float], list[TraceEntry] | None], list[int]
    ]
    policy_playout: Callable[[FastPosition, Policy, list[TraceEntry] | None], list[int]]


def _compiled_kernel() -> _Kernel | None:
    """The compiled kernel, built from ``_kernel.pyx`` by Cython at install where there is
    a C compiler; None where there was none (the pure-Python loops play then)."""
    try:
        from ._kernel import policy_playout, random_playout
    except ImportError:
        return None
    return _Kernel(random_playout, policy_playout)


_kernel = _compiled_kernel()

#: Whether playouts run in the compiled kernel (else in the pure-Python loops).
COMPILED = _kernel is not None


def hand_masks(hands: list[list[Card]] | tuple[tuple[Card, ...], ...]) -> list[int]:
    """Sixteen rank masks (seat-major, suit-minor) for four hands."""
    masks = [0] * 16
    for seat, hand in enumerate(hands):
        for card in hand:
            masks[seat * 4 + card.suit] |= 1 << (card.rank - 2)
    return masks


def position_from_deal(deal: Deal) -> FastPosition:
    """The fast position of a public deal that is in its playing phase."""
    if deal.phase is not Phase.PLAYING or deal.contract is None or deal.to_act is None:
        raise ValueError("only a deal whose cards are being played has a fast position")
    contract = deal.contract
    table = contract.point_table
    taken = sum(table[card.index] for trick in deal.tricks for card in trick.cards)
    rows = deal.domino_rows()
    return FastPosition(
        contract=contract,
        hands=hand_masks([deal.hand(seat) for seat in range(4)]),
        to_act=deal.to_act,
        leader=deal.leader,
        trick=[card.index for card in deal.trick],
        tricks_done=len(deal.tricks),
        base=list(deal.base),
        points_left=sum(contract.card_points.values()) - taken,
        domino_low=[rows[suit][0] - 2 if suit in rows else -1 for suit in Suit],
        domino_high=[rows[suit][1] - 2 if suit in rows else -1 for suit in Suit],
        domino_out=list(deal.out),
        played=played_masks(card for _, card in deal.plays),
        voids=[sum(1 << suit for suit in deal.voids[seat]) for seat in range(4)],
        domino_aces=_aces(contract, rows),
    )


def played_masks(cards: Iterable[Card]) -> list[int]:
    """Four rank masks (one per suit) of ``cards``."""
    masks = [0, 0, 0, 0]
    for card in cards:
        index = card.index  # suit * 13 + rank - 2, cheaper than the suit's IntEnum
        masks[index // 13] |= 1 << index % 13
    return masks


def random_playout(
    position: FastPosition,
    rng: random.Random,
    trace: list[TraceEntry] | None = None,
) -> list[int]:
    """Play ``position`` out with uniformly random legal cards; return the base scores.

    ``position`` is mutated (pass a copy to keep it). With ``trace``, every move is
    appended as (seat, legal masks, card) so tests can check it against the public API.
    The compiled kernel plays it where it was built (:data:`COMPILED`), else
    :func:`python_random_playout`: the same cards for the same ``rng`` either way.
    """
    if _kernel is not None:
        return _kernel.random_playout(position, rng.random, trace)
    return python_random_playout(position, rng, trace)


def python_random_playout(
    position: FastPosition,
    rng: random.Random,
    trace: list[TraceEntry] | None = None,
) -> list[int]:
    """:func:`random_playout` in pure Python, whether or not the kernel was compiled."""
    if position.contract.domino:
        return _domino_playout(position, rng.random, trace)
    return _trick_playout(position, rng.random, trace)


def _trick_playout(
    pos: FastPosition, rnd: Callable[[], float], trace: list[TraceEntry] | None
) -> list[int]:
    contract = pos.contract
    h = pos.hands
    base = pos.base
    bits = BITS
    trump = -1 if contract.trump is None else int(contract.trump)
    per_trick = contract.per_trick
    trick_table = contract.trick_table
    no_heart_lead = contract.heart_lead is not None
    until_broken = contract.heart_lead is HeartLead.BROKEN
    must_trump = trump >= 0 and contract.must_trump is not MustTrump.NO
    overtrump = must_trump and contract.must_trump is MustTrump.OVERTRUMP
    card_points = contract.point_table if contract.card_points else None
    ends_early = contract.ends_when_cards_taken
    points_left = pos.points_left
    leader = pos.leader
    trick = pos.trick
    seat = pos.to_act
    number = pos.tricks_done
    while number < 13:
        # Play the rest of the current trick, starting from the seat to act.
        while len(trick) < 4:
            b = seat * 4
            c0, c1, c2, c3 = h[b], h[b + 1], h[b + 2], h[b + 3]
            if trick:
                led = trick[0] // 13
                follow = h[b + led]
                if follow:
                    ranks = bits[follow]
                    if overtrump and led == trump:  # beat the trick's highest trump
                        ranks = bits[_trumps_over(follow, trick, trump)]
                    rank = ranks[int(rnd() * len(ranks))]
                    if trace is not None:
                        legal = [0, 0, 0, 0]
                        legal[led] = sum(1 << r for r in ranks)
                        trace.append(
                            (seat, (legal[0], legal[1], legal[2], legal[3]), led * 13 + rank)
                        )
                    h[b + led] = follow ^ (1 << rank)
                    trick.append(led * 13 + rank)
                    seat = (seat + 1) & 3
                    continue
                if must_trump and h[b + trump]:  # cannot follow suit: a trump it must be
                    trumps = h[b + trump]
                    if overtrump:
                        trumps = _trumps_over(trumps, trick, trump)
                    c0, c1, c2, c3 = (trumps if s == trump else 0 for s in range(4))
            elif (
                no_heart_lead
                and (c0 | c1 | c3)
                and not (until_broken and h[2] | h[6] | h[10] | h[14] != FULL)
            ):
                c2 = 0  # no heart lead (unless a heart has been played, when until_broken)
            # A uniform pick among four suits' ranks. The Domino loop repeats these lines on
            # purpose: a function call per card costs more than a tenth of a playout.
            r0, r1, r2, r3 = bits[c0], bits[c1], bits[c2], bits[c3]
            n0, n1, n2 = len(r0), len(r1), len(r2)
            pick = int(rnd() * (n0 + n1 + n2 + len(r3)))
            if pick < n0:
                suit, rank = 0, r0[pick]
            elif pick < n0 + n1:
                suit, rank = 1, r1[pick - n0]
            elif pick < n0 + n1 + n2:
                suit, rank = 2, r2[pick - n0 - n1]
            else:
                suit, rank = 3, r3[pick - n0 - n1 - n2]
            if trace is not None:
                trace.append((seat, (c0, c1, c2, c3), suit * 13 + rank))
            h[b + suit] ^= 1 << rank
            trick.append(suit * 13 + rank)
            seat = (seat + 1) & 3
        # Who takes it (inline: :func:`winning_position` is the same rule), what it scores.
        first = trick[0]
        led = first // 13
        best, best_pos, trumped = first % 13, 0, led == trump
        for position in (1, 2, 3):
            card = trick[position]
            suit, rank = divmod(card, 13)
            if suit == trump:
                if not trumped or rank > best:
                    best, best_pos, trumped = rank, position, True
            elif suit == led and not trumped and rank > best:
                best, best_pos = rank, position
        winner = (leader + best_pos) & 3
        number += 1
        points = per_trick
        if card_points is not None:
            taken = (
                card_points[trick[0]]
                + card_points[trick[1]]
                + card_points[trick[2]]
                + card_points[trick[3]]
            )
            points += taken
            points_left -= taken
        points += trick_table[number]
        base[winner] += points
        trick.clear()
        leader = seat = winner
        if ends_early and points_left == 0:
            break
    pos.leader, pos.to_act, pos.tricks_done, pos.points_left = leader, seat, number, points_left
    return base


def _domino_playout(
    pos: FastPosition, rnd: Callable[[], float], trace: list[TraceEntry] | None
) -> list[int]:
    h = pos.hands
    bits = BITS
    low, high = pos.domino_low, pos.domino_high
    aces = pos.domino_aces
    high_only = aces == ACES_HIGH
    # connect[suit]: the ranks that may be played in that suit now.
    connect = [domino_connect(pos, s) for s in range(4)]
    out = pos.domino_out
    held = [sum(len(bits[h[seat * 4 + s]]) for s in range(4)) for seat in range(4)]
    seat = pos.to_act
    while len(out) < 3:
        b = seat * 4
        l0, l1, l2, l3 = (
            h[b] & connect[0],
            h[b + 1] & connect[1],
            h[b + 2] & connect[2],
            h[b + 3] & connect[3],
        )
        if not (l0 | l1 | l2 | l3):
            seat = (seat + 1) & 3  # an automatic pass (or a seat that is out)
            continue
        r0, r1, r2, r3 = bits[l0], bits[l1], bits[l2], bits[l3]
        n0, n1, n2 = len(r0), len(r1), len(r2)
        pick = int(rnd() * (n0 + n1 + n2 + len(r3)))
        if pick < n0:
            suit, rank = 0, r0[pick]
        elif pick < n0 + n1:
            suit, rank = 1, r1[pick - n0]
        elif pick < n0 + n1 + n2:
            suit, rank = 2, r2[pick - n0 - n1]
        else:
            suit, rank = 3, r3[pick - n0 - n1 - n2]
        if trace is not None:
            trace.append((seat, (l0, l1, l2, l3), suit * 13 + rank))
        h[b + suit] ^= 1 << rank
        if not high_only and rank == ACE:  # domino_aces: the first ace fixes the way
            aces = _lay_ace(low, high, suit, aces)
            high_only = aces == ACES_HIGH
            connect = [_connect(low[s], high[s], aces) for s in range(4)]
        elif high[suit] < 0:
            low[suit] = high[suit] = rank
        elif rank < low[suit]:
            low[suit] = rank
        else:
            high[suit] = rank
        lo, hi = low[suit], high[suit]
        if high_only:  # the standard rule inline: an ace only after its king
            connect[suit] = ((1 << (lo - 1)) if lo > 0 else 0) | (
                (1 << (hi + 1)) if hi < ACE else 0
            )
        else:
            connect[suit] = _connect(lo, hi, aces)
        held[seat] -= 1
        if not held[seat]:
            out.append(seat)
        seat = (seat + 1) & 3
    loser = 6 - sum(out)
    pos.base[loser] = pos.contract.last_holder
    pos.to_act = loser
    pos.domino_aces = aces
    return pos.base


# -- one move at a time: for search that plays a chosen card, then a policy's cards -------


def is_over(pos: FastPosition) -> bool:
    """True once the deal has ended (13 tricks, an early end, or three seats out)."""
    contract = pos.contract
    if contract.domino:
        return len(pos.domino_out) == 3
    return pos.tricks_done == 13 or (contract.ends_when_cards_taken and pos.points_left == 0)


def domino_connect(pos: FastPosition, suit: int) -> int:
    """The rank mask that may be played in ``suit`` on this Domino table."""
    lo, hi = pos.domino_low[suit], pos.domino_high[suit]
    if pos.domino_aces != ACES_HIGH:
        return _connect(lo, hi, pos.domino_aces)
    if hi < 0:  # the standard rule inline, as the playout loop states it
        return 1 << EIGHT
    return ((1 << (lo - 1)) if lo > 0 else 0) | ((1 << (hi + 1)) if hi < ACE else 0)


def _connect(lo: int, hi: int, aces: int) -> int:
    """The rank mask that connects to a row from rank index ``lo`` to ``hi`` (``hi`` -1:
    not started; ``lo`` -1: an ace lies next to the 2), the aces going as ``aces`` says:
    :meth:`~bot.engine.deal.DominoTable.playable_ranks` on masks."""
    if hi < 0:
        return 1 << EIGHT
    ace_low = lo == 0 and aces != ACES_HIGH  # a 2 is down and an ace may go next to it
    ace_high = hi == KING and aces != ACES_LOW
    below = (1 << (lo - 1)) if lo > 0 else (1 << ACE) if ace_low else 0
    above = (1 << (hi + 1)) if hi < KING else (1 << ACE) if ace_high else 0
    return below | above


def _lay_ace(low: list[int], high: list[int], suit: int, aces: int) -> int:
    """Lay the ace of ``suit`` on its row: high when its king is down and the aces may go
    high, else low (next to the 2); returns where the deal's aces go from now on."""
    if high[suit] == KING and aces != ACES_LOW:
        high[suit] = ACE
        return ACES_HIGH
    low[suit] = -1
    return ACES_LOW


def legal_masks(pos: FastPosition) -> tuple[int, int, int, int]:
    """The legal cards of the seat to act, as one rank mask per suit."""
    if pos.contract.domino:
        h = pos.hands
        b = pos.to_act * 4
        return (
            h[b] & domino_connect(pos, 0),
            h[b + 1] & domino_connect(pos, 1),
            h[b + 2] & domino_connect(pos, 2),
            h[b + 3] & domino_connect(pos, 3),
        )
    return trick_legal(pos.contract, pos.hands, pos.to_act, pos.trick)


def trick_legal(
    contract: Contract, hands: Sequence[int], seat: int, trick: Sequence[int]
) -> tuple[int, int, int, int]:
    """The legal cards of ``seat`` in a trick contract, as one rank mask per suit, with
    ``hands`` the sixteen masks of what every seat still holds and ``trick`` the card
    indexes played to the trick so far (the playout loops state the same inline)."""
    h = hands
    b = seat * 4
    c0, c1, c2, c3 = h[b], h[b + 1], h[b + 2], h[b + 3]
    if trick:
        rule = contract.must_trump
        trump = -1 if contract.trump is None else int(contract.trump)
        suit = trick[0] // 13
        if not h[b + suit] and rule is not MustTrump.NO and trump >= 0:
            suit = trump
        if h[b + suit]:
            legal = [0, 0, 0, 0]
            legal[suit] = h[b + suit]
            if rule is MustTrump.OVERTRUMP and suit == trump:
                legal[suit] = _trumps_over(legal[suit], trick, trump)
            return (legal[0], legal[1], legal[2], legal[3])
    elif (c0 | c1 | c3) and heart_lead_barred(contract, h):
        c2 = 0
    return (c0, c1, c2, c3)


def _trumps_over(trumps: int, trick: Sequence[int], trump: int) -> int:
    """``overtrump``: the trumps of ``trumps`` (a rank mask) above the highest trump in
    ``trick``, or all of them when none is (or the trick holds no trump)."""
    top = -1
    for card in trick:
        if card // 13 == trump and card % 13 > top:
            top = card % 13
    higher = trumps >> (top + 1) << (top + 1)
    return higher or trumps


def heart_lead_barred(contract: Contract, hands: Sequence[int]) -> bool:
    """Whether a seat may not lead a heart now unless it holds nothing else: the contract
    bars the lead (``heart_lead``) and, under ``broken``, no heart has been played yet
    (``hands``: what the four seats still hold, asked before a lead)."""
    return contract.heart_lead is not None and not _hearts_broken(contract, hands)


def _hearts_broken(contract: Contract, hands: Sequence[int]) -> bool:
    """Whether ``heart_lead: broken`` lets a heart be led now: one has been played, so
    the four hands no longer hold all thirteen (asked before a lead, the trick empty)."""
    if contract.heart_lead is not HeartLead.BROKEN:
        return False
    h = hands
    return h[2] | h[6] | h[10] | h[14] != FULL


def play_card(pos: FastPosition, card: int) -> None:
    """The seat to act plays ``card`` (assumed legal); tricks and Domino turns advance."""
    seat = pos.to_act
    suit, rank = divmod(card, 13)
    pos.hands[seat * 4 + suit] ^= 1 << rank
    pos.played[suit] |= 1 << rank
    if pos.contract.domino:
        _domino_step(pos, seat, suit, rank)
    else:
        _trick_step(pos, seat, card)


def winning_position(trick: list[int], trump: Suit | None) -> int:
    """Index in ``trick`` (four card indexes, leader's first) of the card that takes it."""
    t = -1 if trump is None else int(trump)
    led = trick[0] // 13
    best, best_pos, trumped = trick[0] % 13, 0, led == t
    for position in (1, 2, 3):
        suit, rank = divmod(trick[position], 13)
        if suit == t:
            if not trumped or rank > best:
                best, best_pos, trumped = rank, position, True
        elif suit == led and not trumped and rank > best:
            best, best_pos = rank, position
    return best_pos


def _trick_step(pos: FastPosition, seat: int, card: int) -> None:
    trick = pos.trick
    if trick and card // 13 != trick[0] // 13:
        pos.voids[seat] |= 1 << (trick[0] // 13)
        contract = pos.contract
        if contract.must_trump is not MustTrump.NO and contract.trump not in (None, card // 13):
            pos.voids[seat] |= 1 << contract.trump  # a discard where a trump was a must
    trick.append(card)
    if len(trick) < 4:
        pos.to_act = (seat + 1) & 3
        return
    _end_trick(pos)


def _end_trick(pos: FastPosition) -> int:
    """Score the four cards of ``pos.trick`` to their winner, who leads the next trick;
    returns the winner."""
    trick = pos.trick
    contract = pos.contract
    winner = (pos.leader + winning_position(trick, contract.trump)) & 3
    pos.tricks_done += 1
    points = contract.per_trick
    if contract.card_points:
        table = contract.point_table
        taken = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
        points += taken
        pos.points_left -= taken
    points += contract.trick_table[pos.tricks_done]
    pos.base[winner] += points
    trick.clear()
    pos.leader = pos.to_act = winner
    return winner


def lay_on_table(pos: FastPosition, suit: int, rank: int) -> None:
    """Lay the card of ``suit`` and rank index ``rank`` on ``pos``'s Domino table: its
    row's ends and where the aces go, not whose turn follows (that reads the hands, which
    a position of public cards only does not have)."""
    low, high = pos.domino_low, pos.domino_high
    if high[suit] < 0:
        low[suit] = high[suit] = rank
    elif rank == ACE:
        pos.domino_aces = _lay_ace(low, high, suit, pos.domino_aces)
    elif rank < low[suit]:
        low[suit] = rank
    else:
        high[suit] = rank


def _domino_step(pos: FastPosition, seat: int, suit: int, rank: int) -> None:
    lay_on_table(pos, suit, rank)
    h = pos.hands
    b = seat * 4
    if not (h[b] | h[b + 1] | h[b + 2] | h[b + 3]):
        pos.domino_out.append(seat)
        if len(pos.domino_out) == 3:
            loser = 6 - sum(pos.domino_out)
            pos.base[loser] = pos.contract.last_holder
            pos.to_act = loser
            return
    connect = [domino_connect(pos, s) for s in range(4)]
    for step in range(1, 5):
        nxt = (seat + step) & 3
        b = nxt * 4
        if (
            h[b] & connect[0]
            or h[b + 1] & connect[1]
            or h[b + 2] & connect[2]
            or h[b + 3] & connect[3]
        ):
            pos.to_act = nxt
            return
    raise AssertionError("no seat can play in Domino; the deal cannot be stuck")


def policy_playout(
    pos: FastPosition, policy: Policy, trace: list[TraceEntry] | None = None
) -> list[int]:
    """Play ``pos`` out with ``policy`` choosing every card; return the base scores.

    A forced card (the only legal one) is played without asking the policy, which is
    where most of the time would go. ``pos`` is mutated; ``trace`` as in
    :func:`random_playout`. The loop around the policy runs in the compiled kernel where
    it was built (:data:`COMPILED`), else in :func:`python_policy_playout`: the same
    questions to the policy and the same cards either way.
    """
    if _kernel is not None:
        return _kernel.policy_playout(pos, policy, trace)
    return python_policy_playout(pos, policy, trace)


def python_policy_playout(
    pos: FastPosition, policy: Policy, trace: list[TraceEntry] | None = None
) -> list[int]:
    """:func:`policy_playout` in pure Python, whether or not the kernel was compiled."""
    if not pos.contract.domino:
        return _trick_policy_playout(pos, policy, trace)
    bits = BITS
    while not is_over(pos):
        legal = legal_masks(pos)
        l0, l1, l2, l3 = legal
        if len(bits[l0]) + len(bits[l1]) + len(bits[l2]) + len(bits[l3]) == 1:
            suit = 0 if l0 else 1 if l1 else 2 if l2 else 3
            card = suit * 13 + bits[legal[suit]][0]
        else:
            card = policy(pos, pos.to_act, legal)
        if trace is not None:
            trace.append((pos.to_act, legal, card))
        play_card(pos, card)
    return pos.base


def _trick_policy_playout(
    pos: FastPosition, policy: Policy, trace: list[TraceEntry] | None
) -> list[int]:
    """:func:`policy_playout` of a trick contract, with :func:`legal_masks` and
    :func:`play_card` inline up to a trick's end: the policy's own work is the rest of a
    playout's time, so the calls around it were a third of it. The position is kept up
    to date before each question to the policy (it reads the hands, the trick, the cards
    played and the voids); the agreement tests replay it through the public API."""
    contract = pos.contract
    h, played, voids, trick = pos.hands, pos.played, pos.voids, pos.trick
    bits = BITS
    no_heart_lead = contract.heart_lead is not None
    until_broken = contract.heart_lead is HeartLead.BROKEN
    trump = -1 if contract.trump is None else int(contract.trump)
    must_trump = trump >= 0 and contract.must_trump is not MustTrump.NO
    overtrump = must_trump and contract.must_trump is MustTrump.OVERTRUMP
    ends_early = contract.ends_when_cards_taken
    seat = pos.to_act
    while pos.tricks_done < 13 and not (ends_early and pos.points_left == 0):
        b = seat * 4
        c0, c1, c2, c3 = h[b], h[b + 1], h[b + 2], h[b + 3]
        led = trick[0] // 13 if trick else -1
        follow = h[b + led] if trick else 0
        if follow:
            if overtrump and led == trump:
                follow = _trumps_over(follow, trick, trump)
            legal = (
                follow if led == 0 else 0,
                follow if led == 1 else 0,
                follow if led == 2 else 0,
                follow if led == 3 else 0,
            )
            ranks = bits[follow]
            card = led * 13 + ranks[0] if len(ranks) == 1 else policy(pos, seat, legal)
        elif trick and must_trump and h[b + trump]:  # cannot follow: a trump it must be
            trumps = _trumps_over(h[b + trump], trick, trump) if overtrump else h[b + trump]
            legal = (
                trumps if trump == 0 else 0,
                trumps if trump == 1 else 0,
                trumps if trump == 2 else 0,
                trumps if trump == 3 else 0,
            )
            ranks = bits[trumps]
            card = trump * 13 + ranks[0] if len(ranks) == 1 else policy(pos, seat, legal)
        else:
            if (
                not trick
                and no_heart_lead
                and (c0 | c1 | c3)
                and not (until_broken and h[2] | h[6] | h[10] | h[14] != FULL)
            ):
                c2 = 0
            legal = (c0, c1, c2, c3)
            if len(bits[c0]) + len(bits[c1]) + len(bits[c2]) + len(bits[c3]) == 1:
                suit = 0 if c0 else 1 if c1 else 2 if c2 else 3
                card = suit * 13 + bits[legal[suit]][0]
            else:
                card = policy(pos, seat, legal)
        if trace is not None:
            trace.append((seat, legal, card))
        suit, rank = divmod(card, 13)
        h[b + suit] ^= 1 << rank
        played[suit] |= 1 << rank
        if trick and suit != led:
            voids[seat] |= 1 << led
            if must_trump and suit != trump:  # a discard where a trump was a must
                voids[seat] |= 1 << trump
        trick.append(card)
        if len(trick) < 4:
            seat = pos.to_act = (seat + 1) & 3
            continue
        seat = _end_trick(pos)
    return pos.base


def dealt_position(contract: Contract, first_leader: int, hands: list[int]) -> FastPosition:
    """The position before the first card of a deal with these sixteen hand masks."""
    pos = FastPosition(
        contract, list(hands), first_leader, first_leader, points_left=_points_total(contract)
    )
    if contract.domino:
        pos.domino_aces = _ACES[DominoTable.dealt(contract).aces]
        pos.to_act = _first_domino_seat(pos, first_leader)
    return pos


def position_from_view(view: SeatView, hands: list[int]) -> FastPosition:
    """The fast position of ``view``'s deal in play, with ``hands`` filling in the unknown.

    ``hands`` is sixteen masks (seat-major) for the cards each seat still holds: the
    view's own hand plus a guess at the others' (see the hard player's sampling). Every
    computer's card starts here (the daily computers' on the event loop), so it reads
    the view once and makes no table of a deal that is not Domino.
    """
    contract = view.contract
    to_act = view.to_act
    if view.phase is not Phase.PLAYING or contract is None or to_act is None:
        raise ValueError("only a view of cards being played has a fast position")
    table = contract.point_table
    taken = sum(table[card.index] for trick in view.tricks for card in trick.cards)
    trick = view.trick
    rows = view.domino_rows
    if rows:
        low = [rows[s][0] - 2 if s in rows else -1 for s in SUITS]
        high = [rows[s][1] - 2 if s in rows else -1 for s in SUITS]
    else:
        low, high = [-1, -1, -1, -1], [-1, -1, -1, -1]
    return FastPosition(
        contract=contract,
        hands=list(hands),
        to_act=to_act,
        leader=trick[0][0] if trick else to_act,
        trick=[card.index for _, card in trick],
        tricks_done=len(view.tricks),
        base=list(view.base),
        points_left=_points_total(contract) - taken,
        domino_low=low,
        domino_high=high,
        domino_out=list(view.domino_out),
        played=played_masks([card for _, card in view.plays]),
        voids=[_VOID_BITS[voids] for voids in view.voids],
        domino_aces=_aces(contract, rows),
    )


_VOID_BITS: dict[frozenset[Suit], int] = {
    frozenset(suit for suit in SUITS if bits >> suit & 1): bits for bits in range(16)
}
"""The suit bits of each set of voids a seat may have shown (the position's ``voids``)."""


def _aces(contract: Contract, rows: Mapping[Suit, Row]) -> int:
    """Where the aces may go on a Domino table with these rows, as the kernel's int."""
    table = DominoTable.of(contract, rows) if rows else DominoTable.dealt(contract)
    return _ACES[table.aces]


def _points_total(contract: Contract) -> int:
    return sum(contract.card_points.values())


def _first_domino_seat(pos: FastPosition, start: int) -> int:
    h = pos.hands
    for step in range(4):
        seat = (start + step) & 3
        if any(h[seat * 4 + s] & domino_connect(pos, s) for s in range(4)):
            return seat
    raise AssertionError("nobody holds an 8; the deal cannot be stuck")
